//! What the Terrain dock edits on a terrain: its [`TerrainAsset`] (shared by every placement,
//! saved by the atomic saver) or its inline `recipe` (saved with the scene), or why it cannot be
//! edited (a cooked payload, an invalid recipe, no source at all).

use crate::resources::terrain_asset::TerrainAsset;
use crate::terrain::Terrain3D;
use godot::prelude::*;
use ridgeline_core::recipe::{Document, Recipe};

/// The editable source of a terrain.
#[derive(Clone)]
pub enum EditSource {
    /// A `.terrain.json` asset: strokes go into its recipe; the dock marks it unsaved.
    Asset(Gd<TerrainAsset>),
    /// The node's inline `recipe` property: strokes go into it; the scene saves it.
    Inline,
}

impl EditSource {
    /// The asset, for an asset-backed source.
    pub fn asset(&self) -> Option<&Gd<TerrainAsset>> {
        match self {
            EditSource::Asset(a) => Some(a),
            EditSource::Inline => None,
        }
    }

    /// A line for the dock saying what is edited.
    pub fn describe(&self, terrain: &Gd<Terrain3D>, unsaved: bool) -> String {
        match self {
            EditSource::Asset(a) => {
                let mark = if unsaved { " (unsaved)" } else { "" };
                format!("Editing asset {}{mark}", a.get_path())
            }
            EditSource::Inline => format!(
                "Editing the inline recipe of {} (saved with the scene)",
                terrain.get_name()
            ),
        }
    }
}

/// The source a stroke on `t` edits, or why `t` cannot be edited in the editor.
pub fn source_of(t: &Gd<Terrain3D>) -> Result<EditSource, String> {
    let asset = t
        .get("asset")
        .try_to::<Option<Gd<TerrainAsset>>>()
        .ok()
        .flatten();
    match asset {
        Some(a) if a.bind().is_cooked() => Err(format!(
            "Read-only: {} is a cooked terrain (.terrain.bin). Edit its .terrain.json source \
             and cook it again.",
            a.get_path()
        )),
        Some(a) if a.bind().document().is_none() => Err(format!(
            "Read-only: {} has no valid recipe (see the Output panel).",
            a.get_path()
        )),
        Some(a) => Ok(EditSource::Asset(a)),
        None => {
            let text = t.get("recipe").to::<GString>().to_string();
            if text.is_empty() {
                return Err(
                    "No source: assign a TerrainAsset (.terrain.json) to edit this terrain.".into(),
                );
            }
            match Document::parse(&text, "Terrain3D.recipe") {
                Ok(_) => Ok(EditSource::Inline),
                Err(e) => Err(format!(
                    "Read-only: the inline recipe is not valid ({e}). Fix it in the inspector."
                )),
            }
        }
    }
}

/// The recipe of `t`'s editable source as it is now (strokes and layers included).
pub fn source_recipe(t: &Gd<Terrain3D>) -> Result<Recipe, String> {
    source_of(t)?;
    t.bind()
        .source_recipe()
        .ok_or_else(|| "the terrain's source holds no valid recipe".to_string())
}
