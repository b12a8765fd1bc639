//! The protection mask of an edit session: the brush weight (0–1) of the enabled `protection`
//! layers' `protect` strokes per sample, accumulated like exclusion weight
//! (`m ← m + (1 − m) · w`; protect strokes have no slope limits, so it reads no heights).
//! Protected samples block scatter placements and foliage exactly as exclusions do (seed:
//! "protected areas use the same shared constraint query"). The mask is derived from the
//! stroke list and the surface only, so it is recomputed — never stored in the history — over
//! whatever rectangle an edit, undo or redo touched, and a local recomputation equals a full
//! one.

use super::EditSession;
use crate::edit::apply::{Window, apply_exclusion};
use crate::edit::rect::Rect;
use crate::edit::stroke::{List, Op};

impl EditSession {
    /// The protection mask (0–1 per sample; all zeros without `protect` strokes).
    pub fn protection(&self) -> &[f32] {
        &self.protection
    }

    /// Recomputes the protection mask on `rect` from the enabled protect strokes.
    pub(super) fn refresh_protection(&mut self, rect: Rect) {
        let rect = rect.intersect(&self.all());
        if rect.is_empty() {
            return;
        }
        let mut win = Window {
            rect,
            values: vec![0.0; rect.area()],
        };
        let heights = self.field.heights();
        for i in self.order(List::Edits) {
            let s = &self.edits[i];
            if matches!(s.op, Op::Protect { .. }) && s.footprint(&self.grid).intersects(&rect) {
                apply_exclusion(s, &self.grid, &mut win, heights);
            }
        }
        let all = self.all();
        rect.write_into(&mut self.protection, &all, &win.values);
    }
}
