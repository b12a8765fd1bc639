//! A bounded undo/redo history of snapshots, labelled per step: the Terrain Graph workspace's
//! own history (separate from the scene's), one step per edit.

/// Undo and redo stacks of states `T`.
#[derive(Clone, Debug)]
pub struct History<T> {
    past: Vec<(String, T)>,
    future: Vec<(String, T)>,
    limit: usize,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        Self::new(200)
    }
}

impl<T> History<T> {
    /// An empty history keeping at most `limit` undo steps (at least one).
    pub fn new(limit: usize) -> Self {
        Self {
            past: Vec::new(),
            future: Vec::new(),
            limit: limit.max(1),
        }
    }

    /// Records a step named `label` whose state before was `before`; clears the redo stack.
    pub fn record(&mut self, label: &str, before: T) {
        self.future.clear();
        self.past.push((label.to_string(), before));
        if self.past.len() > self.limit {
            self.past.remove(0);
        }
    }

    /// Undoes one step: returns the state to restore and its label; `current` becomes redoable.
    pub fn undo(&mut self, current: T) -> Option<(String, T)> {
        let (label, before) = self.past.pop()?;
        self.future.push((label.clone(), current));
        Some((label, before))
    }

    /// Redoes one step: returns the state to restore and its label.
    pub fn redo(&mut self, current: T) -> Option<(String, T)> {
        let (label, after) = self.future.pop()?;
        self.past.push((label.clone(), current));
        Some((label, after))
    }

    /// Steps that can be undone.
    pub fn undo_len(&self) -> usize {
        self.past.len()
    }

    /// Steps that can be redone.
    pub fn redo_len(&self) -> usize {
        self.future.len()
    }

    /// The label of the step [`History::undo`] would undo.
    pub fn undo_label(&self) -> Option<&str> {
        self.past.last().map(|(l, _)| l.as_str())
    }

    /// Changes every recorded state, undoable and redoable (a change made outside the history
    /// that every step should carry, such as the source's layers edited elsewhere).
    pub fn for_each_state_mut(&mut self, mut f: impl FnMut(&mut T)) {
        for (_, state) in self.past.iter_mut().chain(self.future.iter_mut()) {
            f(state);
        }
    }

    /// Forgets every step.
    pub fn clear(&mut self) {
        self.past.clear();
        self.future.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::History;

    #[test]
    fn undo_redo_walks_snapshots_and_new_steps_clear_redo() {
        let mut h = History::new(10);
        let mut state = 0;
        h.record("a", state);
        state = 1;
        h.record("b", state);
        state = 2;
        let (l, s) = h.undo(state).unwrap();
        assert_eq!((l.as_str(), s), ("b", 1));
        state = s;
        let (_, s) = h.undo(state).unwrap();
        state = s;
        assert_eq!(state, 0);
        assert!(h.undo(state).is_none());
        let (_, s) = h.redo(state).unwrap();
        state = s;
        assert_eq!(state, 1);
        h.record("c", state);
        assert_eq!(h.redo_len(), 0, "a new step clears redo");
        assert_eq!(h.undo_label(), Some("c"));
    }

    #[test]
    fn the_limit_drops_the_oldest_steps() {
        let mut h = History::new(2);
        for i in 0..5 {
            h.record("x", i);
        }
        assert_eq!(h.undo_len(), 2);
        assert_eq!(h.undo(9).map(|(_, s)| s), Some(4));
        assert_eq!(h.undo(4).map(|(_, s)| s), Some(3));
        assert!(h.undo(3).is_none());
    }
}
