//! The Presets tab's handlers: describe, confirm (keep or clear strokes when the grid changes)
//! and apply a preset to the pinned terrain's source as one undo step.
//! Editor-only: nothing here is registered in games.

use crate::editor::plugin::RidgelineEditorPlugin;
use godot::prelude::*;
use ridgeline_core::recipe::Document;
use ridgeline_core::recipe::preset::GridChange;

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Presets tab: a preset was selected.
    #[func]
    fn _on_preset_selected(&mut self, index: i64) {
        if let Some(w) = &mut self.graph
            && let Ok(i) = usize::try_from(index)
        {
            w.presets.describe(i);
        }
    }

    /// The Presets tab was shown or hidden: shown, it lists the project's presets again.
    #[func]
    fn _on_presets_tab_visibility(&mut self) {
        if let Some(w) = &mut self.graph
            && w.presets.root.is_visible_in_tree()
        {
            w.presets.reload();
        }
    }

    /// Presets tab: **Apply and generate**.
    #[func]
    fn _on_preset_apply_pressed(&mut self) {
        self.preset_ask();
    }

    /// Presets tab: the confirmation was accepted.
    #[func]
    fn _on_preset_confirmed(&mut self) {
        let pending = self.graph.as_mut().and_then(|w| w.presets.pending.take());
        if let Some((i, grid)) = pending {
            self.preset_apply(i, grid);
        }
    }

    /// Presets tab: **Apply, clear strokes**.
    #[func]
    fn _on_preset_custom_action(&mut self, action: StringName) {
        if action != "clear_strokes" {
            return;
        }
        let pending = self.graph.as_mut().and_then(|w| {
            w.presets.confirm.hide();
            w.presets.pending.take()
        });
        if let Some((i, _)) = pending {
            self.preset_apply(i, GridChange::ClearStrokes);
        }
    }
}

impl RidgelineEditorPlugin {
    /// **Apply and generate** on the Presets tab: asks for confirmation (and about strokes
    /// when the grid changes under them).
    pub(super) fn preset_ask(&mut self) {
        let Some(target) = self.graph_target() else {
            self.graph_show("Open the Terrain Graph on a terrain first.", true);
            return;
        };
        let Some(w) = &mut self.graph else { return };
        let Some(i) = w.presets.selected() else {
            w.show("Select a preset first.", true);
            return;
        };
        let doc = match target.document() {
            Ok(d) => d,
            Err(e) => {
                w.show(&e, true);
                return;
            }
        };
        let Some(p) = w.presets.presets.get(i).cloned() else {
            return;
        };
        let author = doc.recipe();
        let name = target.terrain.get_name();
        let (text, grid, clear) = match p.apply(author, GridChange::Ask) {
            Ok(_) => (
                format!(
                    "Replace the graph and settings of {name} with the preset “{}”?\n\
                     Strokes (edits, regions, exclusions) are kept. Ctrl+Z undoes it.",
                    p.label
                ),
                GridChange::Ask,
                false,
            ),
            Err(e) if author.has_strokes() && p.apply(author, GridChange::KeepStrokes).is_ok() => (
                format!(
                    "The preset “{}” changes the terrain's grid and {name} has strokes:\n{e}\n\n\
                     OK keeps the strokes at their positions; or clear them.",
                    p.label
                ),
                GridChange::KeepStrokes,
                true,
            ),
            Err(e) => {
                w.show(&format!("Preset not applied: {e}"), true);
                return;
            }
        };
        w.presets.pending = Some((i, grid));
        if let Some(b) = &mut w.presets.clear {
            b.set_visible(clear);
        }
        w.presets.confirm.set_text(&text);
        w.presets.confirm.popup_centered();
    }

    pub(super) fn preset_apply(&mut self, i: usize, grid: GridChange) {
        let Some(target) = self.graph_target() else {
            return;
        };
        let Some(p) = self
            .graph
            .as_ref()
            .and_then(|w| w.presets.presets.get(i).cloned())
        else {
            return;
        };
        let result = target.document().and_then(|doc| {
            let applied = p.apply(doc.recipe(), grid).map_err(|e| e.to_string())?;
            let merged = match doc {
                Document::Asset(a) => Document::Asset(ridgeline_core::recipe::AssetDocument {
                    id: a.id,
                    recipe: applied.recipe,
                }),
                Document::Recipe(_) => Document::Recipe(applied.recipe),
            };
            Ok(merged)
        });
        match result {
            Ok(merged) => {
                let text = merged.to_canonical_json();
                self.write_source(
                    &target,
                    &text,
                    &format!("Ridgeline: apply preset {}", p.label),
                );
                let me = self.to_gd().upcast::<Object>();
                if let Some(w) = &mut self.graph {
                    w.load_source(&me, &format!("Apply preset {}", p.label), merged.recipe());
                }
                self.graph_show(
                    &format!(
                        "Applied preset “{}”; generating (Ctrl+Z undoes it).",
                        p.label
                    ),
                    false,
                );
            }
            Err(e) => self.graph_show(&format!("Preset not applied: {e}"), true),
        }
    }
}
