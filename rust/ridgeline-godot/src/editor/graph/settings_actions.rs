//! The recipe settings panel's handlers on the editor plugin: a row edited (value, choice,
//! check box or a renamed entry), an entry added or removed, the panel shown or hidden, and the
//! keep-or-clear question when Apply changes the grid under strokes. Each accepted edit is one
//! **Undo graph** step; a refused one (checked against the whole recipe) changes nothing and
//! says what and where. Editor-only: nothing here is registered in games.

use super::settings_panel::{ADD, REMOVE};
use crate::editor::plugin::RidgelineEditorPlugin;
use godot::classes::TreeItem;
use godot::classes::tree_item::TreeCellMode;
use godot::prelude::*;
use ridgeline_core::pipeline::compact::{RegridChoice, resolve_regrid};
use ridgeline_core::recipe::settings::{Path, Settings, Step, path_from_json, path_label};

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// The recipe settings as one JSON object (size, resolution, seed, chunk_cells,
    /// default_landform, landforms, default_biome, biomes, layers, rules), as the panel shows
    /// them: the draft's, applied or not.
    #[func]
    pub fn get_graph_settings(&self) -> GString {
        self.graph
            .as_ref()
            .map(|w| GString::from(w.settings.to_value().to_string().as_str()))
            .unwrap_or_default()
    }

    /// Sets the setting at `path_json` (`["rules", 0, "slope"]`) from `text` as if typed in its
    /// row: one **Undo graph** step. Returns false, changing nothing, when the text or the
    /// resulting recipe is invalid (the reason is in [method get_graph_message]).
    #[func]
    pub fn set_graph_setting(&mut self, path_json: GString, text: GString) -> bool {
        let Some(path) = parse_path(&path_json.to_string()) else {
            self.graph_show(
                &format!("Refused: `{path_json}` is not a settings path"),
                true,
            );
            return false;
        };
        let text = text.to_string();
        self.settings_edit(&format!("Set {}", path_label(&path)), |s| {
            s.set_text(&path, &text)
        })
    }

    /// The panel's row for `path_json` (null when it is not shown).
    #[func]
    pub fn get_graph_settings_row(&self, path_json: GString) -> Option<Gd<TreeItem>> {
        let path = parse_path(&path_json.to_string())?;
        self.graph.as_ref()?.settings_panel.item_at(&path)
    }

    /// The panel's header: show or hide the rows.
    #[func]
    fn _on_settings_toggled(&mut self, open: bool) {
        if let Some(w) = &mut self.graph {
            w.settings_panel.set_expanded(open);
        }
    }

    /// The tree's `item_edited`.
    #[func]
    fn _on_settings_item_edited(&mut self) {
        let Some(tree) = self.graph.as_ref().map(|w| w.settings_panel.tree.clone()) else {
            return;
        };
        if let Some(item) = tree.get_edited() {
            self.settings_row_changed(item, i64::from(tree.get_edited_column()));
        }
    }

    /// Row `item`'s `column` now holds an edit (what the tree's `item_edited` runs; tests set a
    /// row's text and call it): column 0 renames a landform or biome, column 1 sets the value.
    #[func]
    pub fn settings_row_changed(&mut self, item: Gd<TreeItem>, column: i64) {
        let Some(path) = row_path(&item) else {
            return;
        };
        let label = format!("Set {}", path_label(&path));
        if column == 0 {
            let name = item.get_text(0).to_string();
            let mut renamed = None;
            let taken = self.settings_edit(&format!("Rename {}", path_label(&path)), |s| {
                renamed = Some(s.rename(&path, &name)?);
                Ok(())
            });
            // A renamed landform keeps the Landform nodes naming it (the same undo step: the
            // history snapshot holds the draft from before).
            if let (true, [Step::Key(top), Step::Key(old)], Some(new)) = (
                taken,
                path.as_slice(),
                renamed.as_ref().and_then(|p| p.last()),
            ) && top == "landforms"
                && let Step::Key(new) = new
            {
                let plugin = self.to_gd().upcast::<Object>();
                if let Some(w) = &mut self.graph
                    && w.draft.rename_landform(old, new) > 0
                {
                    w.refresh(&plugin);
                }
            }
            self.settings_focus(renamed);
            return;
        }
        match item.get_cell_mode(1) {
            TreeCellMode::CHECK => {
                let on = item.is_checked(1);
                self.settings_edit(&label, |s| s.set(&path, on.into()));
            }
            TreeCellMode::RANGE => {
                let text = item.get_text(1).to_string();
                let options: Vec<&str> = text.split(',').collect();
                let pick = options
                    .get(item.get_range(1).max(0.0) as usize)
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                self.settings_edit(&label, |s| s.set(&path, pick.into()));
            }
            _ => {
                let text = item.get_text(1).to_string();
                self.settings_edit(&label, |s| s.set_text(&path, &text));
            }
        }
    }

    /// The tree's `button_clicked`: add an entry to a collection or remove one.
    #[func]
    fn _on_settings_button_clicked(
        &mut self,
        item: Gd<TreeItem>,
        _column: i64,
        id: i64,
        _mouse_button: i64,
    ) {
        let Some(path) = row_path(&item) else {
            return;
        };
        if id == ADD {
            let mut added = None;
            self.settings_edit(&format!("Add to {}", path_label(&path)), |s| {
                added = Some(s.add(&path)?);
                Ok(())
            });
            self.settings_focus(added);
        } else if id == REMOVE {
            self.settings_edit(&format!("Remove {}", path_label(&path)), |s| {
                s.remove(&path)
            });
        }
    }

    /// The tree's `item_collapsed`: remember which rows are open across rebuilds.
    #[func]
    fn _on_settings_item_collapsed(&mut self, item: Gd<TreeItem>) {
        let Some(w) = &mut self.graph else { return };
        let key = item.get_metadata(0).to::<GString>().to_string();
        if item.is_collapsed() {
            w.settings_panel.expanded.remove(&key);
        } else {
            w.settings_panel.expanded.insert(key);
        }
    }

    /// Rebuilds the settings rows (deferred after an edit made inside the tree's signal).
    #[func]
    fn _settings_refresh(&mut self) {
        if let Some(w) = &mut self.graph {
            let settings = w.settings.clone();
            w.settings_panel.show(&settings);
        }
    }

    /// The grid question: **Keep strokes**.
    #[func]
    fn _on_settings_regrid_keep(&mut self) {
        self.settings_apply_regrid(RegridChoice::Keep);
    }

    /// The grid question: **Clear strokes**.
    #[func]
    fn _on_settings_regrid_action(&mut self, action: StringName) {
        if action == "clear_strokes" {
            if let Some(w) = &mut self.graph {
                w.settings_panel.confirm.hide();
            }
            self.settings_apply_regrid(RegridChoice::Clear);
        }
    }
}

/// The settings path a row stands for (its column-0 metadata).
fn row_path(item: &Gd<TreeItem>) -> Option<Path> {
    let text = item.get_metadata(0).try_to::<GString>().ok()?;
    parse_path(&text.to_string())
}

fn parse_path(text: &str) -> Option<Path> {
    serde_json::from_str(text)
        .ok()
        .and_then(|v| path_from_json(&v))
}

impl RidgelineEditorPlugin {
    /// Runs one settings edit as one **Undo graph** step. The result is checked against the
    /// pinned recipe's strokes and palette (the graph's own checks are in the problem list);
    /// a refused edit keeps the settings and shows why. Returns whether the edit was taken.
    fn settings_edit(
        &mut self,
        label: &str,
        edit: impl FnOnce(&mut Settings) -> ridgeline_core::Result<()>,
    ) -> bool {
        let Some(target) = self.graph_target() else {
            self.graph_show("Open the Terrain Graph on a terrain first.", true);
            return false;
        };
        let doc = match target.document() {
            Ok(d) => d,
            Err(e) => {
                self.graph_show(&e, true);
                return false;
            }
        };
        let Some(w) = &mut self.graph else {
            return false;
        };
        let mut next = w.settings.clone();
        let checked = edit(&mut next).and_then(|()| {
            let mut base = doc.recipe().clone();
            base.graph = None;
            base.with_settings(&next).map(|_| ())
        });
        let taken = match checked {
            Ok(()) if next == w.settings => true,
            Ok(()) => {
                let before = std::mem::replace(&mut w.settings, next);
                w.record_settings(label, before);
                w.show(&format!("{label}."), false);
                true
            }
            Err(e) => {
                w.show(&format!("Refused: {e}"), true);
                false
            }
        };
        // Rebuilt after the tree's signal returns (a refused edit shows the old value again).
        self.to_gd().call_deferred("_settings_refresh", &[]);
        taken
    }

    /// Selects and reveals `path`'s row after the next rebuild.
    fn settings_focus(&mut self, path: Option<Path>) {
        let (Some(path), Some(w)) = (path, &mut self.graph) else {
            return;
        };
        for n in 1..path.len() {
            let key = ridgeline_core::recipe::settings::path_to_json(&path[..n]).to_string();
            w.settings_panel.expanded.insert(key);
        }
        if matches!(path.last(), Some(Step::Key(_)) | Some(Step::Index(_))) {
            w.settings_panel.focus = Some(path);
        }
    }

    /// Apply after the grid question: keep or clear the strokes, then write.
    fn settings_apply_regrid(&mut self, choice: RegridChoice) {
        let (target, mut doc) = match self.graph_document() {
            Ok(x) => x,
            Err(e) => {
                self.graph_show(&format!("Not applied: {e}"), true);
                return;
            }
        };
        let mut recipe = doc.recipe().clone();
        if let Err(e) = resolve_regrid(&mut recipe, choice) {
            self.graph_show(&format!("Not applied: {e}"), true);
            return;
        }
        doc = super::target::with_recipe(&doc, recipe);
        self.graph_write(&target, &doc);
    }
}
