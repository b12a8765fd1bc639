//! Synthetic terrains for tests (compiled only for tests).

use crate::grid::{Grid, HoleMask};
use crate::heightfield::Heightfield;

/// A rough, deterministic heightfield: smooth waves plus per-sample noise, `relief` metres tall.
pub fn rough_field(
    size: [f32; 2],
    cells: [u32; 2],
    chunk: u32,
    seed: u64,
    relief: f32,
) -> Heightfield {
    let grid = Grid::new(size, cells, chunk).expect("valid test grid");
    let mut rng = fastrand::Rng::with_seed(seed);
    let [w, h] = grid.samples();
    let mut heights = Vec::with_capacity(w * h);
    for z in 0..h {
        for x in 0..w {
            let [px, pz] = grid.sample_position(x, z);
            let wave =
                (px * 0.05).sin() * (pz * 0.037).cos() + 0.5 * (px * 0.013 + pz * 0.021).sin();
            heights.push(relief * (0.35 * wave + 0.15 * rng.f32()));
        }
    }
    Heightfield::new(grid, heights, None).expect("valid test field")
}

/// Like [`rough_field`] with roughly `fraction` of the cells marked as holes.
pub fn holey_field(cells: [u32; 2], chunk: u32, seed: u64, fraction: f32) -> Heightfield {
    let base = rough_field(
        [cells[0] as f32 * 1.5, cells[1] as f32],
        cells,
        chunk,
        seed,
        12.0,
    );
    let mut holes = HoleMask::new(cells[0] as usize, cells[1] as usize);
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x5eed);
    for z in 0..cells[1] as usize {
        for x in 0..cells[0] as usize {
            if rng.f32() < fraction {
                holes.set(x, z, true);
            }
        }
    }
    Heightfield::new(*base.grid(), base.heights().to_vec(), Some(holes)).expect("valid holey field")
}

/// The bit patterns of `values`: equal vectors mean bit-identical results of the same length.
pub fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}
