//! Shared plumbing of the workspace handlers on the editor plugin: the pinned target, the
//! message line, and applying a draft edit as one step on the workspace's own history.
//!
//! Changes to assets and terrains that emit signals the plugin listens to (`changed`) are made
//! deferred, after the handler has released the plugin.

use super::target::Target;
use crate::editor::plugin::RidgelineEditorPlugin;
use godot::classes::Control;
use godot::prelude::*;
use ridgeline_core::graph::draft::Draft;

impl RidgelineEditorPlugin {
    /// Removes the workspace (the plugin leaves the editor).
    pub(in crate::editor) fn close_terrain_graph(&mut self) {
        if let Some(w) = self.graph.take() {
            let mut root = w.root.clone().upcast::<Control>();
            self.base_mut().remove_control_from_bottom_panel(&root);
            root.queue_free();
        }
    }

    pub(super) fn graph_target(&self) -> Option<Target> {
        self.graph.as_ref().and_then(|w| w.target.clone())
    }

    pub(super) fn graph_show(&mut self, text: &str, error: bool) {
        if let Some(w) = &mut self.graph {
            w.show(text, error);
        }
        if error {
            godot_warn!("Ridgeline Terrain Graph: {text}");
        }
    }

    /// Runs one edit of the draft as one **Undo graph** step; a refused edit changes nothing
    /// and shows why.
    pub(super) fn graph_edit(
        &mut self,
        label: &str,
        edit: impl FnOnce(&mut Draft) -> ridgeline_core::Result<()>,
    ) {
        self.apply_graph_edit(label, edit, After::Refresh);
    }

    /// Like [`Self::graph_edit`], with the canvas refreshed after the handler returns (the
    /// edit came from a control inside a card the refresh may rebuild).
    pub(super) fn graph_edit_deferred(
        &mut self,
        label: &str,
        edit: impl FnOnce(&mut Draft) -> ridgeline_core::Result<()>,
    ) {
        self.apply_graph_edit(label, edit, After::RefreshDeferred);
    }

    /// An edit from a value control of card `id`: the card already shows it (not rebuilt);
    /// consecutive edits of the same value are one undo step.
    pub(super) fn graph_value_edit(
        &mut self,
        label: &str,
        id: &str,
        edit: impl FnOnce(&mut Draft) -> ridgeline_core::Result<()>,
    ) {
        self.apply_graph_edit(label, edit, After::Value(id));
    }

    /// The one place a draft edit is tried, recorded and shown.
    fn apply_graph_edit(
        &mut self,
        label: &str,
        edit: impl FnOnce(&mut Draft) -> ridgeline_core::Result<()>,
        after: After,
    ) {
        let me = self.to_gd().upcast::<Object>();
        let Some(w) = &mut self.graph else { return };
        let mut next = w.draft.clone();
        match edit(&mut next) {
            Ok(()) if next == w.draft => {}
            Ok(()) => {
                let before = std::mem::replace(&mut w.draft, next);
                match after {
                    After::Value(id) => {
                        // Recorded before the label is remembered: the next edit of the same
                        // value merges into this step.
                        w.record(label, before);
                        w.coalesce = Some(label.to_string());
                        w.mark_shown(id);
                        w.refresh_problems();
                    }
                    After::Refresh | After::RefreshDeferred => {
                        w.coalesce = None;
                        w.record(label, before);
                        w.show(&format!("{label}."), false);
                        if matches!(after, After::Refresh) {
                            w.refresh(&me);
                        } else {
                            self.to_gd().call_deferred("_graph_refresh", &[]);
                        }
                    }
                }
            }
            Err(e) => w.show(&format!("Refused: {e}"), true),
        }
    }

    pub(super) fn graph_history(&mut self, undo: bool) {
        let me = self.to_gd().upcast::<Object>();
        let Some(w) = &mut self.graph else { return };
        let current = w.snapshot();
        let step = if undo {
            w.history.undo(current)
        } else {
            w.history.redo(current)
        };
        w.coalesce = None;
        match step {
            Some((label, state)) => {
                w.restore(&me, state);
                let verb = if undo { "Undid" } else { "Redid" };
                w.show(&format!("{verb}: {label}."), false);
            }
            None => {
                let what = if undo { "undo" } else { "redo" };
                w.show(&format!("Nothing to {what} in the graph."), false);
            }
        }
    }
}

/// What follows an accepted draft edit.
enum After<'a> {
    /// Rebuild the canvas now.
    Refresh,
    /// Rebuild the canvas after the handler returns.
    RefreshDeferred,
    /// A value control of this card changed: keep the card, merge repeats.
    Value(&'a str),
}
