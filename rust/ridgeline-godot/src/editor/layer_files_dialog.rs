//! The dock's **Export layers…** and **Import layers…**: a folder dialog, then the edited
//! terrain's [`crate::terrain::Terrain3D::export_layers`] or
//! [`crate::terrain::Terrain3D::import_layers`] (seed-004 PNG layer files, see
//! docs/formats.md). An import is one `EditorUndoRedoManager` step (Ctrl+Z reverts the whole
//! import); a refused folder changes nothing and the dock says why.

use super::plugin::RidgelineEditorPlugin;
use godot::classes::editor_file_dialog::{Access, FileMode};
use godot::classes::{EditorFileDialog, EditorInterface};
use godot::prelude::*;

/// The folder dialog, parented to the editor's base control while the plugin lives.
pub(super) struct LayerFilesDialog {
    dialog: Gd<EditorFileDialog>,
    /// What the chosen folder is for: import (true) or export.
    importing: bool,
}

impl LayerFilesDialog {
    /// Builds the dialog; a chosen folder calls the plugin's `_on_layer_files_dir_selected`.
    pub(super) fn new(plugin: &Gd<Object>) -> Self {
        let mut dialog = EditorFileDialog::new_alloc();
        dialog.set_file_mode(FileMode::OPEN_DIR);
        dialog.set_access(Access::FILESYSTEM);
        dialog.connect(
            "dir_selected",
            &Callable::from_object_method(plugin, "_on_layer_files_dir_selected"),
        );
        if let Some(mut base) = EditorInterface::singleton().get_base_control() {
            base.add_child(&dialog);
        }
        Self {
            dialog,
            importing: false,
        }
    }

    /// Opens the dialog for an import (`importing`) or an export.
    pub(super) fn pick(&mut self, importing: bool) {
        self.importing = importing;
        self.dialog.set_title(if importing {
            "Import layer files from a folder"
        } else {
            "Export layer files into a folder"
        });
        self.dialog.popup_file_dialog();
    }

    /// Whether the last opened dialog was for an import.
    pub(super) fn importing(&self) -> bool {
        self.importing
    }

    /// Frees the dialog.
    pub(super) fn free(self) {
        let mut n = self.dialog.upcast::<Node>();
        if let Some(mut p) = n.get_parent() {
            p.remove_child(&n);
        }
        n.queue_free();
    }
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Writes the edited terrain's layers as PNG layer files into the folder `dir`, as
    /// **Export layers…** in the dock does (see [method Terrain3D.export_layers]; only changed
    /// files are written). Returns the number of files written, or -1 with the reason in
    /// [method get_message] when no terrain is selected or a file cannot be written.
    #[func]
    pub fn export_layer_files(&mut self, dir: GString) -> i64 {
        let Some(mut t) = self.terrain.clone() else {
            self.show_message("Select a Terrain3D first.", true);
            return -1;
        };
        let result = t.bind_mut().export_layers_checked(&dir, -1);
        match result {
            Ok(written) => {
                self.show_message(
                    &format!(
                        "Exported layers into {dir}: {} file(s) written (unchanged files are kept).",
                        written.len()
                    ),
                    false,
                );
                written.len() as i64
            }
            Err(e) => {
                self.show_message(&format!("Export failed: {e}"), true);
                -1
            }
        }
    }

    /// Reads the PNG layer files in the folder `dir` into the edited terrain, as **Import
    /// layers…** in the dock does (see [method Terrain3D.import_layers]): every changed layer
    /// becomes a patch stroke in the terrain's source, all as one editor undo step. Returns
    /// false, with the reason in [method get_message] and nothing changed, when no editable
    /// terrain is selected or a file is refused.
    #[func]
    pub fn import_layer_files(&mut self, dir: GString) -> bool {
        let Some(mut t) = self.editable_terrain() else {
            return false;
        };
        let result = t.bind_mut().import_layers_counted(&dir);
        match result {
            Err(e) => {
                self.show_message(&format!("Import failed, nothing changed: {e}"), true);
                false
            }
            Ok(0) => {
                self.show_message(
                    &format!("The layers already match {dir}: nothing changed."),
                    false,
                );
                true
            }
            Ok(n) => {
                self.commit_edit_step(&mut t, &format!("Ridgeline: import layers from {dir}"));
                self.show_message(
                    &format!("Imported layers from {dir}: {n} patch stroke(s)."),
                    false,
                );
                true
            }
        }
    }

    /// Dock: **Export layers…** was pressed.
    #[func]
    fn _on_export_layers_pressed(&mut self) {
        if let Some(d) = &mut self.layer_files {
            d.pick(false);
        }
    }

    /// Dock: **Import layers…** was pressed.
    #[func]
    fn _on_import_layers_pressed(&mut self) {
        if let Some(d) = &mut self.layer_files {
            d.pick(true);
        }
    }

    /// The layer files' folder dialog chose `dir`.
    #[func]
    fn _on_layer_files_dir_selected(&mut self, dir: GString) {
        if self.layer_files.as_ref().is_some_and(|d| d.importing()) {
            self.import_layer_files(dir);
        } else {
            self.export_layer_files(dir);
        }
    }
}
