//! The `TerrainAsset` resource: a terrain recipe loaded from `*.terrain.json`.

use godot::classes::{IResource, Resource};
use godot::prelude::*;
use ridgeline_core::recipe::Document;

/// A Ridgeline terrain asset: the versioned recipe from a `*.terrain.json` file (generation graph,
/// landforms, biomes, layers and strokes). Assign it to [member Terrain3D.asset].
///
/// Loading validates the document; an invalid file fails to load with every problem reported
/// (what and where). Saving writes canonical JSON.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct TerrainAsset {
    document: Option<Document>,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for TerrainAsset {}

#[godot_api]
impl TerrainAsset {
    /// Replaces the asset's document from JSON text (an asset document or a bare recipe).
    /// Returns `false` and keeps the previous document when the text is invalid; the problems
    /// are reported with `push_error`.
    #[func]
    pub fn set_source_json(&mut self, text: GString) -> bool {
        match Document::parse(&text.to_string(), "TerrainAsset") {
            Ok(doc) => {
                self.document = Some(doc);
                self.base_mut().emit_changed();
                true
            }
            Err(e) => {
                godot_error!("{e}");
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

    /// The stable asset id (`asset://…`), or an empty string for a bare recipe.
    #[func]
    pub fn get_asset_id(&self) -> GString {
        match &self.document {
            Some(Document::Asset(a)) => GString::from(a.id.as_str()),
            _ => GString::new(),
        }
    }

    /// True when a valid document is loaded.
    #[func]
    pub fn is_valid(&self) -> bool {
        self.document.is_some()
    }

    /// The parsed document (Rust side).
    pub fn document(&self) -> Option<&Document> {
        self.document.as_ref()
    }

    /// Replaces the document (Rust side, already validated).
    pub fn set_document(&mut self, doc: Document) {
        self.document = Some(doc);
    }
}
