//! The hole side of an edit session: replaying `hole` strokes on a cell rectangle and the
//! helpers the commit uses to locate and report hole changes.

use super::EditSession;
use crate::edit::apply::{apply_holes, cells_of};
use crate::edit::rect::Rect;
use crate::edit::stroke::List;

impl EditSession {
    /// Replays the hole strokes on the cell rectangle `cells` from the base's holes: the flags
    /// row-major over `cells`.
    pub(super) fn replay_holes(&self, cells: Rect) -> Vec<bool> {
        let mut out = Vec::with_capacity(cells.area());
        for z in cells.z0..cells.z1 {
            out.extend((cells.x0..cells.x1).map(|x| self.base_holes.is_hole(x, z)));
        }
        if cells.is_empty() {
            return out;
        }
        for i in self.order(List::Edits) {
            let s = &self.edits[i];
            if s.is_hole() && cells_of(s.footprint(&self.grid), &self.grid).intersects(&cells) {
                apply_holes(s, &self.grid, cells, &mut out);
            }
        }
        out
    }

    /// The hole flags of the current surface on the cell rectangle `cells`.
    pub(super) fn hole_values(&self, cells: Rect) -> Vec<bool> {
        let mut out = Vec::with_capacity(cells.area());
        for z in cells.z0..cells.z1 {
            out.extend((cells.x0..cells.x1).map(|x| self.field.holes().is_hole(x, z)));
        }
        out
    }

    /// Index into `edits` of the last enabled hole stroke (where a refusal is located).
    pub(super) fn last_hole_stroke(&self) -> usize {
        self.order(List::Edits)
            .into_iter()
            .rfind(|&i| self.edits[i].is_hole())
            .unwrap_or(0)
    }

    /// Every cell of the grid as a cell rectangle.
    pub(super) fn all_cells(&self) -> Rect {
        let [cx, cz] = self.grid.cells();
        Rect::new(0, 0, cx as usize, cz as usize)
    }
}

/// Why hole strokes are refused when they would leave chunk `[x, z]` without a solid cell.
pub(super) fn cut_whole_chunk([x, z]: [u32; 2]) -> String {
    format!(
        "would cut every cell of chunk ({x}, {z}) (every chunk keeps at least one solid cell: erase part of the hole or use a smaller brush)"
    )
}

/// The bounds of the cells of `rect` whose flags differ between `a` and `b` (row-major over
/// `rect`).
pub(super) fn changed_cells(rect: Rect, a: &[bool], b: &[bool]) -> Rect {
    let mut out = Rect::EMPTY;
    if a.len() != rect.area() || b.len() != rect.area() {
        return rect;
    }
    for (k, _) in a.iter().zip(b).enumerate().filter(|(_, (x, y))| x != y) {
        let (x, z) = (rect.x0 + k % rect.width(), rect.z0 + k / rect.width());
        out = out.union(&Rect::new(x, z, x + 1, z + 1));
    }
    out
}
