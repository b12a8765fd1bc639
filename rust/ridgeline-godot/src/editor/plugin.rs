//! The editor side of the addon: registers the export cooker.

use super::export_plugin::TerrainExportPlugin;
use godot::classes::{EditorPlugin, IEditorPlugin};
use godot::prelude::*;

/// Ridgeline's editor plugin, added automatically when the extension loads in the editor.
///
/// It registers [TerrainExportPlugin], so every export ships cooked terrains. There is nothing
/// to enable: the extension loads it in every project that contains the addon.
#[derive(GodotClass)]
#[class(tool, init, base = EditorPlugin)]
pub struct RidgelineEditorPlugin {
    export: Option<Gd<TerrainExportPlugin>>,
    base: Base<EditorPlugin>,
}

#[godot_api]
impl IEditorPlugin for RidgelineEditorPlugin {
    fn enter_tree(&mut self) {
        let plugin = TerrainExportPlugin::new_gd();
        self.base_mut().add_export_plugin(&plugin);
        self.export = Some(plugin);
    }

    fn exit_tree(&mut self) {
        if let Some(plugin) = self.export.take() {
            self.base_mut().remove_export_plugin(&plugin);
        }
    }
}
