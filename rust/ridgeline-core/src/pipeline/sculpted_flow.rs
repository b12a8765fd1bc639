//! Flow after sculpting: the drainage a surface classification reads, on the edited ground.
//!
//! A graph's Biome Rules node reads the flow accumulation of a connected Drainage node, which
//! ran on some field of the graph (its `ground`, often before erosion). Strokes change the
//! heights after the graph, so the flow they imply is drainage run again on the sculpted
//! surface moved by the same offset the ground had from the generated surface:
//!
//! ```text
//! offset  = ground − generated          per sample, once, when the graph runs
//! flow'   = Drainage(surface + offset).accumulation
//! ```
//!
//! While the surface equals the generated one, the graph's own flow stands (the formula would
//! give it too, up to rounding). A generation with strokes, an edit session's refresh and a
//! cooked payload's session (the payload stores the offset) all go through [`sculpted_flow`]
//! with the same surface and offset, so they agree bit for bit.

use crate::edit::rect::Rect;
use crate::grid::{Field, Grid};
use crate::hydrology::Drainage;
use std::sync::Arc;

/// `ground − generated` per sample (see the module docs), `None` when the lengths differ or a
/// difference is not finite.
pub fn offset(ground: &[f32], generated: &[f32]) -> Option<Arc<Vec<f32>>> {
    if ground.len() != generated.len() {
        return None;
    }
    let d: Vec<f32> = ground.iter().zip(generated).map(|(g, s)| g - s).collect();
    d.iter().all(|v| v.is_finite()).then(|| Arc::new(d))
}

/// The flow accumulation of the sculpted `surface` (see the module docs), `None` when the
/// slices do not match `grid`.
pub fn sculpted_flow(grid: Grid, offset: &[f32], surface: &[f32]) -> Option<Vec<f32>> {
    let [w, h] = grid.samples();
    if offset.len() != w * h || surface.len() != w * h {
        return None;
    }
    let ground: Vec<f32> = surface.iter().zip(offset).map(|(s, o)| s + o).collect();
    let field = Field::from_vec(w, h, ground).ok()?;
    Some(Drainage::compute(grid, &field).accumulation)
}

/// True when `a` and `b` hold the same values bit for bit.
pub fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Bounds `[x0, z0, x1, z1)` (samples) of where `a` and `b` differ bit for bit, `None` when
/// they are equal. Both are row-major with `width` samples per row.
pub fn differing_bounds(a: &[f32], b: &[f32], width: usize) -> Option<[usize; 4]> {
    if width == 0 || a.len() != b.len() {
        return None;
    }
    let r = Rect::bounding(width, a.len() / width, |i| a[i].to_bits() != b[i].to_bits());
    (!r.is_empty()).then_some([r.x0, r.z0, r.x1, r.z1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: u32) -> Grid {
        Grid::new([n as f32, n as f32], [n, n], 8).expect("grid")
    }

    /// A valley draining east: a z-centred trough sloping down towards x = max.
    fn valley(n: usize) -> Vec<f32> {
        (0..n * n)
            .map(|i| {
                let (x, z) = ((i % n) as f32, (i / n) as f32);
                let c = (n - 1) as f32 / 2.0;
                (z - c).abs() * 2.0 + (n as f32 - x) * 0.5
            })
            .collect()
    }

    #[test]
    fn mismatched_slices_are_refused() {
        let g = grid(16);
        let v = valley(17);
        assert!(sculpted_flow(g, &v, &v[1..]).is_none());
        assert!(offset(&v, &v[1..]).is_none());
        assert!(offset(&[f32::INFINITY], &[0.0]).is_none());
    }

    #[test]
    fn a_dam_across_the_valley_moves_the_stream() {
        let n = 33;
        let g = grid(n as u32 - 1);
        let ground = valley(n);
        let zero = vec![0.0; n * n];
        let before = sculpted_flow(g, &zero, &ground).expect("flow");
        let graph = Drainage::compute(g, &Field::from_vec(n, n, ground.clone()).expect("field"));
        assert_eq!(before, graph.accumulation);
        // A wall across the valley at x = 16, open at the north border row.
        let mut surface = ground.clone();
        for z in 1..n {
            surface[z * n + 16] += 100.0;
        }
        let after = sculpted_flow(g, &zero, &surface).expect("flow");
        // The valley floor east of the wall no longer receives the upstream catchment.
        let floor = 16 * n + 20;
        assert!(
            after[floor] < before[floor] / 2.0,
            "{} {}",
            after[floor],
            before[floor]
        );
        assert_eq!(sculpted_flow(g, &zero, &surface), Some(after));
    }

    #[test]
    fn the_offset_moves_the_sculpted_surface_to_the_drainage_ground() {
        let n = 17;
        let g = grid(n as u32 - 1);
        let ground = valley(n);
        // The graph lowered its output after drainage (an erosion pass, say).
        let generated: Vec<f32> = ground.iter().map(|h| h - 3.0).collect();
        let off = offset(&ground, &generated).expect("offset");
        assert!(off.iter().all(|&d| d == 3.0));
        let graph = Drainage::compute(g, &Field::from_vec(n, n, ground.clone()).expect("field"));
        assert_eq!(sculpted_flow(g, &off, &generated), Some(graph.accumulation));
    }

    #[test]
    fn bounds_and_equality_are_bitwise() {
        let a = vec![0.0f32; 20];
        let mut b = a.clone();
        assert!(same_bits(&a, &b));
        assert_eq!(differing_bounds(&a, &b, 5), None);
        b[6] = 1.0; // (1, 1)
        b[18] = -0.0; // (3, 3): only the sign bit differs
        assert!(!same_bits(&a, &b));
        assert_eq!(differing_bounds(&a, &b, 5), Some([1, 1, 4, 4]));
    }
}
