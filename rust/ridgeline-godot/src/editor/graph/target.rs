//! What the Terrain Graph workspace is pinned to (a terrain and its asset or inline recipe),
//! and the pinned document with the workspace's settings and draft put into it.

use crate::resources::terrain_asset::TerrainAsset;
use crate::terrain::Terrain3D;
use godot::prelude::*;
use ridgeline_core::graph::draft::Draft;
use ridgeline_core::recipe::settings::Settings;
use ridgeline_core::recipe::{Document, Recipe};

/// The terrain the workspace is pinned to and its source.
#[derive(Clone)]
pub struct Target {
    /// The terrain (previews and generation show on it).
    pub terrain: Gd<Terrain3D>,
    /// Its asset, or None for an inline recipe.
    pub asset: Option<Gd<TerrainAsset>>,
}

impl Target {
    /// The source document as it is now.
    pub fn document(&self) -> Result<Document, String> {
        match &self.asset {
            Some(a) => {
                let a = a.bind();
                if a.is_cooked() {
                    return Err("the asset is a cooked payload: edit its .terrain.json".into());
                }
                a.document()
                    .cloned()
                    .ok_or_else(|| "the asset holds no valid recipe".to_string())
            }
            None => {
                let text = self.terrain.get("recipe").to::<GString>().to_string();
                if text.is_empty() {
                    return Err("the terrain has no asset or inline recipe".into());
                }
                Document::parse(&text, "Terrain3D.recipe").map_err(|e| e.to_string())
            }
        }
    }

    /// The source's `layers` setting (`Recipe::layers_setting`), without copying the recipe of
    /// an asset.
    pub fn layers_setting(&self) -> Option<serde_json::Value> {
        match &self.asset {
            Some(a) => a.bind().document().map(|d| d.recipe().layers_setting()),
            None => self.document().ok().map(|d| d.recipe().layers_setting()),
        }
    }

    /// The source as text (canonical for assets, as authored for inline recipes).
    pub fn source_text(&self) -> String {
        match &self.asset {
            Some(a) => a.bind().get_source_json().to_string(),
            None => self.terrain.get("recipe").to::<GString>().to_string(),
        }
    }

    /// A short description of the source.
    pub fn describe(&self) -> String {
        let name = self.terrain.get_name().to_string();
        match &self.asset {
            Some(a) => format!("{name} · asset {}", a.get_path()),
            None => format!("{name} · inline recipe"),
        }
    }

    /// The pinned terrain's source, if it can be edited.
    pub fn of(terrain: &Gd<Terrain3D>) -> Result<Target, String> {
        let asset = terrain
            .get("asset")
            .try_to::<Option<Gd<TerrainAsset>>>()
            .ok()
            .flatten();
        let t = Target {
            terrain: terrain.clone(),
            asset,
        };
        t.document().map(|_| t)
    }
}

/// `document` with its recipe's settings replaced by `settings` and its graph by `draft`,
/// validated whole.
pub fn document_with(
    document: &Document,
    settings: &Settings,
    draft: &Draft,
) -> Result<Document, String> {
    let recipe = document
        .recipe()
        .with_settings(settings)
        .and_then(|r| r.with_draft(draft))
        .map_err(|e| e.to_string())?;
    Ok(with_recipe(document, recipe))
}

/// `document` with the workspace's graph `draft` and its settings edits in it: the keys of
/// `settings` that differ from `applied` (what the source held when the workspace last loaded
/// or applied it) over the document's settings as they are now, so edits made elsewhere since
/// (the dock's Layers panel) are kept. Validated whole.
pub fn document_with_edits(
    document: &Document,
    settings: &Settings,
    applied: &Settings,
    draft: &Draft,
) -> Result<Document, String> {
    let current = document.recipe().settings();
    document_with(document, &settings.rebased(applied, &current), draft)
}

/// `document` holding `recipe` (an asset keeps its id).
pub fn with_recipe(document: &Document, recipe: Recipe) -> Document {
    match document {
        Document::Asset(a) => Document::Asset(ridgeline_core::recipe::AssetDocument {
            id: a.id.clone(),
            recipe,
        }),
        Document::Recipe(_) => Document::Recipe(recipe),
    }
}
