//! Cooks terrain assets while a project is exported.

use crate::convert::panic_guard;
use crate::resources::mask_cache::MaskCache;
use godot::classes::{EditorExportPlugin, IEditorExportPlugin, ProjectSettings};
use godot::prelude::*;
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::pipeline::DevCache;
use ridgeline_core::recipe::Document;
use std::sync::atomic::AtomicBool;

/// Cooks every exported `*.terrain.json` into its payload, under the same path.
///
/// Scenes keep their references and the shipped game loads prepared heights, water and biome
/// data without evaluating any node. The development cache is reused when warm. A document that
/// cannot be cooked is left out of the export with an error naming it — the game then reports a
/// missing asset instead of silently regenerating.
#[derive(GodotClass)]
#[class(tool, init, base = EditorExportPlugin)]
pub struct TerrainExportPlugin {
    /// Assets cooked in the current export.
    cooked: u32,
    base: Base<EditorExportPlugin>,
}

#[godot_api]
impl IEditorExportPlugin for TerrainExportPlugin {
    fn get_name(&self) -> GString {
        GString::from("Ridgeline terrain cooker")
    }

    fn export_begin(
        &mut self,
        _features: PackedStringArray,
        _debug: bool,
        _path: GString,
        _flags: u32,
    ) {
        self.cooked = 0;
    }

    fn export_file(&mut self, path: GString, _type: GString, _features: PackedStringArray) {
        let p = path.to_string();
        if !p.to_ascii_lowercase().ends_with(".terrain.json") {
            return;
        }
        self.base_mut().skip();
        let disk = ProjectSettings::singleton()
            .globalize_path(&path)
            .to_string();
        match panic_guard::catch(|| cook(&disk, &p)).and_then(|r| r) {
            Ok(bytes) => {
                let bytes = PackedByteArray::from(bytes.as_slice());
                self.base_mut().add_file(&path, &bytes, false);
                self.cooked += 1;
                godot_print!("Ridgeline: cooked {p} ({} bytes)", bytes.len());
            }
            Err(e) => godot_error!("Ridgeline: {p} was left out of the export: {e}"),
        }
    }

    // Resource and scene customisation is not used (begin_customize_* answer false); the
    // trait still needs these.
    fn customize_resource(
        &mut self,
        _resource: Gd<Resource>,
        _path: GString,
    ) -> Option<Gd<Resource>> {
        None
    }

    fn customize_scene(&mut self, _scene: Gd<Node>, _path: GString) -> Option<Gd<Node>> {
        None
    }

    fn get_customization_configuration_hash(&self) -> u64 {
        0
    }

    fn export_end(&mut self) {
        if self.cooked > 0 {
            godot_print!("Ridgeline: {} terrain asset(s) cooked", self.cooked);
        }
    }
}

/// The cooked payload of the document at `disk` (named `shown` in messages).
fn cook(disk: &str, shown: &str) -> Result<Vec<u8>, String> {
    let text = std::fs::read_to_string(disk).map_err(|e| format!("cannot read ({e})"))?;
    let doc = Document::parse(&text, shown).map_err(|e| e.to_string())?;
    let dir = std::path::Path::new(disk)
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or_default();
    // Heightmap files resolve relative to the asset, like brush masks.
    let recipe = &doc.recipe().clone().with_source_dir(dir.clone());
    let prepared = ridgeline_core::pipeline::prepare_cached(
        recipe,
        DevCache::from_environment(ridgeline_core::formats::payload::CODEC).as_ref(),
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
        Some(MaskCache::new(ridgeline_core::formats::file_mask_loader(dir)).loader()),
    )
    .map_err(|e| e.to_string())?
    .prepared;
    Ok(ridgeline_core::formats::payload::encode(&prepared))
}
