//! The `TerrainAsset` resource: a terrain recipe loaded from `*.terrain.json`.

use crate::convert::panic_guard;
use godot::classes::{IResource, Resource};
use godot::prelude::*;
use ridgeline_core::pipeline::PreparedTerrain;
use ridgeline_core::recipe::Document;
use std::sync::Arc;

/// A Ridgeline terrain: the versioned recipe of a `*.terrain.json` file, or a cooked payload.
///
/// The recipe holds the generation graph, landforms, biomes, layers and brush strokes. Assign
/// the asset to [member Terrain3D.asset]; [method set_source_json] replaces the document and
/// [method get_source_json] returns it as canonical JSON.
///
/// Loading validates the document; an invalid file fails to load with every problem reported
/// (what and where). Saving writes canonical JSON.
///
/// A cooked payload (`*.terrain.bin`, written by `ridgeline cook`) loads as a TerrainAsset too:
/// it holds the prepared terrain and no recipe, and a [Terrain3D] shows it without evaluating any
/// node. A missing or corrupt payload fails to load with an error — never silent regeneration.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct TerrainAsset {
    document: Option<Document>,
    cooked: Option<Arc<PreparedTerrain>>,
    /// Bumped on every change of the document or payload; placements compare it with the one
    /// their surface reflects (see `Terrain3D`'s asset sync).
    revision: u64,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for TerrainAsset {}

#[godot_api]
impl TerrainAsset {
    /// Replaces the asset's document from JSON text (an asset document or a bare recipe).
    /// Returns `false` and keeps the previous document when the text is invalid; the problems
    /// are reported with `push_error`. Every [Terrain3D] showing the asset regenerates from the
    /// new document (at idle time).
    #[func]
    pub fn set_source_json(&mut self, text: GString) -> bool {
        match panic_guard::catch(|| Document::parse(&text.to_string(), "TerrainAsset")) {
            Ok(Ok(doc)) => {
                self.document = Some(doc);
                self.revision += 1;
                self.base_mut().emit_changed();
                true
            }
            Ok(Err(e)) => {
                godot_error!("{e}");
                false
            }
            Err(e) => {
                godot_error!("TerrainAsset.set_source_json: {e}");
                false
            }
        }
    }

    /// The document as canonical JSON (empty when nothing is loaded).
    #[func]
    pub fn get_source_json(&self) -> GString {
        self.document
            .as_ref()
            .map(|d| GString::from(d.to_canonical_json().as_str()))
            .unwrap_or_default()
    }

    /// True when the recipe holds brush strokes (edits, exclusions or regions).
    #[func]
    pub fn has_strokes(&self) -> bool {
        self.document
            .as_ref()
            .is_some_and(|d| d.recipe().has_strokes())
    }

    /// Changes the terrain's size (world units) and resolution (cells). With strokes present
    /// the caller decides: `keep_edits` keeps radial strokes at their terrain-local positions
    /// (refused while protection snapshots exist — they belong to the original grid), otherwise
    /// every stroke is cleared. Returns false with a located error, keeping the asset, when the
    /// change is invalid or refused. Every [Terrain3D] showing the asset regenerates (at idle time).
    #[func]
    pub fn resize(&mut self, size: Vector2, resolution: Vector2i, keep_edits: bool) -> bool {
        let Some(doc) = self.document.clone() else {
            godot_error!("TerrainAsset.resize: the asset holds no recipe");
            return false;
        };
        match panic_guard::catch(|| resized(doc, size, resolution, keep_edits)) {
            Ok(Ok(valid)) => {
                self.document = Some(valid);
                self.revision += 1;
                self.base_mut().emit_changed();
                true
            }
            Ok(Err(e)) => {
                godot_error!("{e}");
                false
            }
            Err(e) => {
                godot_error!("TerrainAsset.resize: {e}");
                false
            }
        }
    }

    /// The stable asset id (`asset://…`), or an empty string for a bare recipe.
    #[func]
    pub fn get_asset_id(&self) -> GString {
        match &self.document {
            Some(Document::Asset(a)) => GString::from(a.id.as_str()),
            _ => GString::new(),
        }
    }

    /// True when a valid document or cooked payload is loaded.
    #[func]
    pub fn is_valid(&self) -> bool {
        self.document.is_some() || self.cooked.is_some()
    }

    /// True for a cooked payload (prepared terrain, no recipe).
    #[func]
    pub fn is_cooked(&self) -> bool {
        self.cooked.is_some()
    }

    /// The cooked terrain (Rust side).
    pub fn cooked(&self) -> Option<Arc<PreparedTerrain>> {
        self.cooked.clone()
    }

    /// Sets the cooked terrain (Rust side, already validated).
    pub fn set_cooked(&mut self, prepared: PreparedTerrain) {
        self.cooked = Some(Arc::new(prepared));
        self.revision += 1;
    }

    /// The parsed document (Rust side).
    pub fn document(&self) -> Option<&Document> {
        self.document.as_ref()
    }

    /// Replaces the document (Rust side, already validated).
    pub fn set_document(&mut self, doc: Document) {
        self.document = Some(doc);
        self.revision += 1;
    }

    /// The change counter (Rust side): bumped by every replacement of the document or payload.
    pub fn revision(&self) -> u64 {
        self.revision
    }
}

/// `doc` regridded to `size` and `resolution`, validated as it would load.
fn resized(
    doc: Document,
    size: Vector2,
    resolution: Vector2i,
    keep_edits: bool,
) -> Result<Document, String> {
    use ridgeline_core::pipeline::compact::{RegridChoice, needs_regrid_decision, resolve_regrid};
    let old = doc.recipe().clone();
    let mut new = old.clone();
    new.size = [size.x as f64, size.y as f64];
    new.resolution = [resolution.x.max(0) as u32, resolution.y.max(0) as u32];
    if needs_regrid_decision(&old, &new) {
        let choice = if keep_edits {
            RegridChoice::Keep
        } else {
            RegridChoice::Clear
        };
        resolve_regrid(&mut new, choice).map_err(|e| format!("TerrainAsset.resize: {e}"))?;
    }
    let doc = match doc {
        Document::Asset(mut a) => {
            a.recipe = new;
            Document::Asset(a)
        }
        Document::Recipe(_) => Document::Recipe(new),
    };
    // Validate the whole document as it would load.
    Document::parse(&doc.to_canonical_json(), "TerrainAsset.resize").map_err(|e| e.to_string())
}
