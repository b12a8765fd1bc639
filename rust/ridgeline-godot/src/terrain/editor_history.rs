//! Hooks the editor's undo history (`EditorUndoRedoManager`) calls on `Terrain3D`: each editor
//! stroke gets an id when it is committed, and undo/redo act only when the core history's top
//! record is that id's, so Godot's history and the core's never drift apart silently.

use super::Terrain3D;
use godot::prelude::*;

/// The editor's view of the core history of one terrain: ids of committed editor strokes, in
/// order, and of undone ones. Valid for one edit session (a regeneration starts a new one).
#[derive(Default)]
pub(super) struct EditorHistory {
    /// Address of the session the ids refer to (0: none yet).
    session: usize,
    done: Vec<i64>,
    undone: Vec<i64>,
    next: i64,
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Editor hook (called by Ridgeline's editor plugin, not for games): records that the last
    /// edit (one whole stroke) is an editor undo step and returns its id, or -1 when there is no
    /// edit to record.
    #[func]
    pub fn _editor_commit(&mut self) -> i64 {
        if !self.can_undo_stroke() {
            return -1;
        }
        let session = self.session_key();
        let h = &mut self.editor_history;
        if h.session != session {
            *h = EditorHistory {
                session,
                next: h.next,
                ..Default::default()
            };
        }
        h.next += 1;
        h.done.push(h.next);
        h.undone.clear();
        h.next
    }

    /// Editor hook: undoes the editor stroke `id` when it is the newest one still applied.
    /// Otherwise (the terrain was regenerated since, or edited outside the editor's history)
    /// reports an error and changes nothing. Returns whether it undid.
    #[func]
    pub fn _editor_undo(&mut self, id: i64) -> bool {
        if !self.editor_step_matches(id, false) {
            return false;
        }
        if !self.undo_stroke() {
            return false;
        }
        let h = &mut self.editor_history;
        h.done.pop();
        h.undone.push(id);
        // Flow after sculpting follows the restored heights.
        self.refresh_flow();
        true
    }

    /// Editor hook: redoes the editor stroke `id` when it is the newest undone one. Returns
    /// whether it redid.
    #[func]
    pub fn _editor_redo(&mut self, id: i64) -> bool {
        if !self.editor_step_matches(id, true) {
            return false;
        }
        if !self.redo_stroke() {
            return false;
        }
        let h = &mut self.editor_history;
        h.undone.pop();
        h.done.push(id);
        self.refresh_flow();
        true
    }
}

impl Terrain3D {
    /// Identity of the current edit session (0 when there is none).
    fn session_key(&self) -> usize {
        self.current_session()
            .map_or(0, |s| std::sync::Arc::as_ptr(&s) as usize)
    }

    fn editor_step_matches(&self, id: i64, redo: bool) -> bool {
        let h = &self.editor_history;
        let what = if redo { "redo" } else { "undo" };
        if h.session == 0 || h.session != self.session_key() {
            godot_error!(
                "Terrain3D: cannot {what} editor stroke #{id}: the terrain was regenerated since \
                 (its edit history started again); the surface is unchanged"
            );
            return false;
        }
        let top = if redo { h.undone.last() } else { h.done.last() };
        if top != Some(&id) {
            godot_error!(
                "Terrain3D: cannot {what} editor stroke #{id}: the terrain's newest {} edit is {} \
                 (it was edited outside the editor's history); the surface is unchanged",
                if redo { "undone" } else { "applied" },
                top.map_or("none".to_string(), |t| format!("#{t}"))
            );
            return false;
        }
        true
    }
}
