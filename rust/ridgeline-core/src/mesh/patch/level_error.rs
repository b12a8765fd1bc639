//! A chunk's error at one patch level, measured row by row.
//!
//! The error of a level is the largest vertical distance, over every sample of the chunk,
//! between the level's coarse surface and full detail: the maximum of
//! [`crate::mesh::coarse_cell_error`] over the level's coarse cells. Measuring it cell by cell
//! pays a cell's set-up (corners, reciprocals, bounds) for every 9 samples at step 2, and its
//! running maximum is one long dependency chain; loading a 4 km terrain spent a quarter of its
//! time there. Here the whole (square) cells of a band are measured together, one sample row at
//! a time: the corners and slopes of each cell are read once per band, `u` comes from a table,
//! the heights come from the same triangle functions (their per-cell parts are hoisted out of
//! the row loops by the compiler), the distances of a row go to a buffer and the buffer's maximum is taken in eight independent
//! lanes (vector instructions). Every sample is measured against the same cells with the same
//! arithmetic, in the same order of operations, as [`crate::mesh::coarse_cell_error`], and the
//! maximum of finite numbers does not depend on the order: the result is the same bits. Cells
//! cut short by a partial chunk's end are measured by `coarse_cell_error` itself.

use crate::grid::ChunkRange;
use crate::heightfield::Heightfield;
use crate::mesh::{coarse_cell_error, first_half_height, second_half_height};

/// The error of the level drawn every `step` samples over chunk `range` of `field`; `local_h`
/// reads the chunk's samples (chunk-local x, z). `scratch` is reused between calls.
pub(crate) fn level_error(
    field: &Heightfield,
    range: &ChunkRange,
    local_h: &impl Fn(u32, u32) -> f32,
    step: u32,
    scratch: &mut LevelScratch,
) -> f32 {
    let (w, d) = (range.width(), range.depth());
    let s = step;
    let keep = |e: f32, v: f32| if v > e { v } else { e };
    let mut err = 0.0f32;
    // Cells cut short at a partial chunk's end: the cell-by-cell measure.
    let (whole_x, whole_z) = (w / s, d / s);
    let mut za = 0;
    while za < d {
        let zb = (za + s).min(d);
        let mut xa = if zb - za == s { whole_x * s } else { 0 };
        while xa < w {
            let xb = (xa + s).min(w);
            err = keep(
                err,
                coarse_cell_error(field, range, local_h, xa, xb, za, zb),
            );
            xa += s;
        }
        za += s;
    }
    if whole_x == 0 || whole_z == 0 {
        return err;
    }
    // `u` of the samples of a cell row, as coarse_cell_error computes it.
    let inv = 1.0 / s as f32;
    scratch.u.clear();
    scratch.u.extend((0..=s).map(|i| i as f32 * inv));
    let us = &scratch.u;
    let heights = field.heights();
    let grid = field.grid();
    for bz in 0..whole_z {
        let za = bz * s;
        scratch.cells.clear();
        scratch.cells.extend((0..whole_x).map(|k| {
            let xa = k * s;
            [
                local_h(xa, za),
                local_h(xa + s, za),
                local_h(xa, za + s),
                local_h(xa + s, za + s),
            ]
        }));
        for j in 0..=s {
            let v = j as f32 * inv;
            // Samples with i <= split lie on the first triangle (u + v <= 1).
            let split = (s - j) as usize;
            let at = grid.index(range.x0 as usize, (range.z0 + za + j) as usize);
            let row = &heights[at..=at + (whole_x * s) as usize];
            scratch.errors.clear();
            for (k, &corners) in scratch.cells.iter().enumerate() {
                let hs = &row[k * s as usize..=(k + 1) * s as usize];
                let (first, second) = hs.split_at(split + 1);
                scratch.errors.extend(
                    first
                        .iter()
                        .zip(us)
                        .map(|(&h, &u)| (first_half_height(corners, u, v) - h).abs()),
                );
                scratch.errors.extend(
                    second
                        .iter()
                        .zip(&us[split + 1..])
                        .map(|(&h, &u)| (second_half_height(corners, u, v) - h).abs()),
                );
            }
            err = keep(err, max_of(&scratch.errors));
        }
    }
    err
}

/// Buffers [`level_error`] reuses.
#[derive(Default)]
pub(crate) struct LevelScratch {
    u: Vec<f32>,
    /// Corners `[h00, h10, h01, h11]` of the band's whole cells.
    cells: Vec<[f32; 4]>,
    errors: Vec<f32>,
}

/// The largest of `values` (all finite and non-negative; 0 when empty), in eight lanes.
fn max_of(values: &[f32]) -> f32 {
    const LANES: usize = 8;
    let keep = |e: f32, v: f32| if v > e { v } else { e };
    let mut lanes = [0.0f32; LANES];
    let mut blocks = values.chunks_exact(LANES);
    for b in &mut blocks {
        for (m, &v) in lanes.iter_mut().zip(b) {
            *m = keep(*m, v);
        }
    }
    let rest = blocks.remainder().iter().fold(0.0f32, |e, &v| keep(e, v));
    lanes.iter().fold(rest, |e, &v| keep(e, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    /// The cell-by-cell measure this module must equal bit for bit.
    fn cell_by_cell(f: &Heightfield, range: &ChunkRange, step: u32) -> f32 {
        let local_h = |x: u32, z: u32| f.sample((range.x0 + x) as usize, (range.z0 + z) as usize);
        let (w, d) = (range.width(), range.depth());
        let mut err = 0.0f32;
        let mut za = 0;
        while za < d {
            let zb = (za + step).min(d);
            let mut xa = 0;
            while xa < w {
                let xb = (xa + step).min(w);
                err = err.max(coarse_cell_error(f, range, &local_h, xa, xb, za, zb));
                xa += step;
            }
            za += step;
        }
        err
    }

    #[test]
    fn equals_the_cell_by_cell_measure_bit_for_bit() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut compared = 0;
        // Whole chunks, partial chunks at the ends (40 = 32 + 8, 70 = 64 + 6), rough and smooth
        // ground, several spacings.
        for (cells, chunk, spacing) in [(64, 16, 1.0), (40, 32, 0.7), (70, 64, 2.5), (96, 32, 1.0)]
        {
            let g = Grid::new(
                [cells as f32 * spacing, cells as f32 * spacing],
                [cells, cells],
                chunk,
            )
            .unwrap();
            let n = (cells + 1) as usize;
            let heights: Vec<f32> = (0..n * n)
                .map(|i| {
                    let (x, z) = ((i % n) as f32, (i / n) as f32);
                    (x * 0.37).sin() * 30.0 + (z * 0.21).cos() * 50.0 + rng.f32() * 4.0 - 2.0
                })
                .collect();
            let f = Heightfield::new(g, heights, None).unwrap();
            let [nx, nz] = g.chunks();
            let mut scratch = LevelScratch::default();
            for cz in 0..nz {
                for cx in 0..nx {
                    let range = g.chunk_cells_range(cx, cz);
                    let local_h =
                        |x: u32, z: u32| f.sample((range.x0 + x) as usize, (range.z0 + z) as usize);
                    let mut step = 2;
                    while step <= chunk {
                        let fast = level_error(&f, &range, &local_h, step, &mut scratch);
                        let slow = cell_by_cell(&f, &range, step);
                        assert_eq!(
                            fast.to_bits(),
                            slow.to_bits(),
                            "{cells} cells, chunk ({cx}, {cz}), step {step}: {fast} vs {slow}"
                        );
                        assert!(slow > 0.0);
                        compared += 1;
                        step *= 2;
                    }
                }
            }
        }
        assert!(compared > 60, "{compared}");
    }

    #[test]
    fn the_lanes_find_the_largest_value_wherever_it_is() {
        for n in [0, 1, 7, 8, 9, 17, 64] {
            for at in 0..n {
                let mut v = vec![1.0f32; n];
                v[at] = 5.0;
                assert_eq!(max_of(&v), 5.0, "{n} values, largest at {at}");
            }
        }
        assert_eq!(max_of(&[]), 0.0);
    }
}
