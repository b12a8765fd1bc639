//! The GPU terrain path's CPU side: one shared grid patch per level of detail, drawn instanced
//! once per visible chunk; the vertex shader reads heights and normals from textures.
//!
//! - [`grid`]: the shared patch geometry of a level (sample offsets, skirt flags, indices);
//! - [`levels`]: each chunk's measured error per level (measured row by row, `level_error`)
//!   and its skirt depth;
//! - [`select`]: per frame, which chunks are in view and at which level (projected error);
//! - [`texels`]: the height and normal texels the shader reads (with the hole flags).
//!
//! Queries, collision and the heightfield stay on the CPU and authoritative; the patches only
//! draw.

pub mod grid;
mod level_error;
pub mod levels;
pub mod select;
pub mod texels;

use crate::grid::Grid;

/// `RenderPath::Auto` draws with GPU patches when the chunks get at least this many patch
/// levels (steps 1, 2, 4: `chunk_cells` a multiple of 4); with fewer the patches could hardly
/// coarsen, and chunk meshes (whose levels always reach the chunk's edge) draw the terrain.
pub const MIN_PATCH_LEVELS: usize = 3;

/// The most chunks along an axis GPU patches can address: each instance names its chunk by
/// index in instance custom data, which the Compatibility renderer keeps as 16-bit floats
/// (whole numbers exact up to 2048). Grids never have more chunks than that
/// ([`crate::grid::MAX_CHUNKS_PER_AXIS`]).
pub const MAX_PATCH_CHUNKS: u32 = 2048;
const _: () = assert!(crate::grid::MAX_CHUNKS_PER_AXIS <= MAX_PATCH_CHUNKS);

/// How a terrain is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderPath {
    /// GPU patches, unless the chunks cannot have [`MIN_PATCH_LEVELS`] levels.
    Auto,
    /// Shared grid patches reading a height texture (normals derived from it).
    Gpu,
    /// One mesh per chunk with index-only levels of detail.
    Mesh,
}

impl RenderPath {
    /// The path a terrain of `grid` is drawn with, and why.
    pub fn resolve(self, grid: &Grid) -> (RenderPath, &'static str) {
        match self {
            RenderPath::Gpu => (RenderPath::Gpu, "GPU patches: render_path is GPU"),
            RenderPath::Mesh => (RenderPath::Mesh, "chunk meshes: render_path is MESH"),
            RenderPath::Auto if grid::patch_steps(grid.chunk_cells()).len() < MIN_PATCH_LEVELS => (
                RenderPath::Mesh,
                "chunk meshes: render_path is AUTO and chunk_cells is not a multiple of 4, so GPU patches would have too few levels of detail",
            ),
            RenderPath::Auto => (RenderPath::Gpu, "GPU patches: render_path is AUTO"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_draws_with_patches_unless_chunks_cannot_coarsen() {
        let small = Grid::new([1024.0, 1024.0], [1024, 1024], 64).unwrap();
        let odd = Grid::new([60.0, 60.0], [60, 60], 6).unwrap();
        assert_eq!(RenderPath::Auto.resolve(&small).0, RenderPath::Gpu);
        assert_eq!(RenderPath::Auto.resolve(&odd).0, RenderPath::Mesh);
        assert!(RenderPath::Auto.resolve(&odd).1.contains("multiple of 4"));
        assert_eq!(RenderPath::Gpu.resolve(&odd).0, RenderPath::Gpu);
        assert_eq!(RenderPath::Mesh.resolve(&small).0, RenderPath::Mesh);
    }
}
