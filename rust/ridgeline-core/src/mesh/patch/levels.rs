//! Each chunk's measured error per patch level (the largest vertical distance between that
//! level's surface and full detail anywhere over the chunk, the mesh path's measure) and the
//! depth of its skirts (twice the largest edge error, so the crack between any two levels of
//! neighbouring chunks is covered).

use super::grid::patch_steps;
use super::level_error::{LevelScratch, level_error};
use crate::heightfield::Heightfield;
use crate::mesh::{edge_level_error, skirt_depth};

/// Level errors and skirt of one chunk.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchLevels {
    /// Error of each level (world units), finest (0) first; one per [`patch_steps`] entry.
    pub errors: Vec<f32>,
    /// How far the skirts hang below the edge samples.
    pub skirt: f32,
    /// Lowest and highest sample of the chunk.
    pub heights: [f32; 2],
}

/// The levels of chunk (cx, cz) of `field`.
pub fn patch_levels(field: &Heightfield, cx: u32, cz: u32) -> PatchLevels {
    let grid = field.grid();
    let range = grid.chunk_cells_range(cx, cz);
    let (w, d) = (range.width(), range.depth());
    let local_h = |x: u32, z: u32| field.sample((range.x0 + x) as usize, (range.z0 + z) as usize);
    let steps = patch_steps(grid.chunk_cells());
    let mut errors = Vec::with_capacity(steps.len());
    let mut edge_error = 0.0f32;
    let mut scratch = LevelScratch::default();
    for &step in &steps {
        if step == 1 {
            errors.push(0.0);
            continue;
        }
        // Coarse cells end on the chunk's last sample (the shader clamps past it).
        errors.push(level_error(field, &range, &local_h, step, &mut scratch));
        edge_error = edge_error.max(edge_level_error(&local_h, w, d, step));
    }
    PatchLevels {
        errors,
        skirt: skirt_depth(edge_error, grid.spacing()),
        heights: field.chunk_bounds(cx, cz),
    }
}

/// Levels of every chunk, row-major, in parallel.
pub fn all_patch_levels(field: &Heightfield) -> Vec<PatchLevels> {
    let [nx, nz] = field.grid().chunks();
    let chunks: Vec<u32> = (0..nx * nz).collect();
    crate::mesh::par_map(&chunks, |&i| patch_levels(field, i % nx, i / nx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::mesh::build_chunk;

    fn field(cells: u32, chunk: u32) -> Heightfield {
        let g = Grid::new([cells as f32, cells as f32], [cells, cells], chunk).unwrap();
        let n = (cells + 1) as usize;
        let heights = (0..n * n)
            .map(|i| {
                let (x, z) = ((i % n) as f32, (i / n) as f32);
                (x * 0.37).sin() * 3.0 + (z * 0.21).cos() * 5.0 + x * 0.1
            })
            .collect();
        Heightfield::new(g, heights, None).unwrap()
    }

    #[test]
    fn level_errors_match_the_mesh_paths_on_square_chunks() {
        let f = field(64, 16);
        for (cx, cz) in [(0, 0), (2, 1), (3, 3)] {
            let mesh = build_chunk(&f, cx, cz);
            let levels = patch_levels(&f, cx, cz);
            assert_eq!(levels.errors.len(), mesh.lods.len());
            for (e, lod) in levels.errors.iter().zip(&mesh.lods) {
                assert_eq!(*e, lod.error, "chunk ({cx}, {cz}) step {}", lod.step);
            }
            assert_eq!(levels.skirt, mesh.skirt_depth);
        }
    }

    #[test]
    fn errors_grow_with_the_step_and_flat_ground_has_none() {
        let f = field(64, 32);
        let l = patch_levels(&f, 1, 0);
        assert_eq!(l.errors[0], 0.0);
        assert!(l.errors.windows(2).all(|w| w[1] >= w[0]), "{:?}", l.errors);
        assert!(l.errors[l.errors.len() - 1] > 0.5);
        let g = Grid::new([64.0, 64.0], [64, 64], 32).unwrap();
        let flat = Heightfield::new(g, vec![3.0; 65 * 65], None).unwrap();
        let l = patch_levels(&flat, 0, 1);
        assert!(l.errors.iter().all(|&e| e == 0.0));
        assert_eq!(l.heights, [3.0, 3.0]);
    }

    #[test]
    fn partial_chunks_measure_their_clamped_cells() {
        // 40 cells in 32-cell chunks: chunk 1 spans 8 cells; its coarse cells end at the edge.
        let f = field(40, 32);
        let l = patch_levels(&f, 1, 0);
        assert_eq!(l.errors.len(), 6);
        assert!(l.errors.iter().all(|e| e.is_finite()));
        assert!(l.errors[5] >= l.errors[1]);
    }
}
