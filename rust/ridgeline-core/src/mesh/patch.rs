//! The GPU terrain path's CPU side: one shared grid patch per level of detail, drawn instanced
//! once per visible chunk; the vertex shader reads heights and normals from textures.
//!
//! - [`grid`]: the shared patch geometry of a level (sample offsets, skirt flags, indices);
//! - [`levels`]: each chunk's measured error per level and its skirt depth;
//! - [`select`]: per frame, which chunks are in view and at which level (projected error);
//! - [`texels`]: the height and normal texels the shader reads (with the hole flags).
//!
//! Queries, collision and the heightfield stay on the CPU and authoritative; the patches only
//! draw.

pub mod grid;
pub mod levels;
pub mod select;
pub mod texels;

use crate::grid::Grid;

/// Up to this many samples `RenderPath::Auto` draws chunk meshes; above, GPU patches
/// (2049 × 2049, a 2 km map at 1 m).
pub const AUTO_MESH_MAX_SAMPLES: usize = 2049 * 2049;

/// How a terrain is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderPath {
    /// Chunk meshes up to [`AUTO_MESH_MAX_SAMPLES`], GPU patches above.
    Auto,
    /// Shared grid patches reading height and normal textures.
    Gpu,
    /// One mesh per chunk with index-only levels of detail.
    Mesh,
}

impl RenderPath {
    /// The path a terrain of `grid`'s size is drawn with, and why.
    pub fn resolve(self, grid: &Grid) -> (RenderPath, &'static str) {
        match self {
            RenderPath::Gpu => (RenderPath::Gpu, "GPU patches: render_path is GPU"),
            RenderPath::Mesh => (RenderPath::Mesh, "chunk meshes: render_path is MESH"),
            RenderPath::Auto if grid.sample_count() > AUTO_MESH_MAX_SAMPLES => (
                RenderPath::Gpu,
                "GPU patches: render_path is AUTO and the map has more than 2049 × 2049 samples",
            ),
            RenderPath::Auto => (
                RenderPath::Mesh,
                "chunk meshes: render_path is AUTO and the map has at most 2049 × 2049 samples",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_draws_large_maps_with_patches() {
        let small = Grid::new([1024.0, 1024.0], [1024, 1024], 64).unwrap();
        let large = Grid::new([4096.0, 4096.0], [4096, 4096], 64).unwrap();
        assert_eq!(RenderPath::Auto.resolve(&small).0, RenderPath::Mesh);
        assert_eq!(RenderPath::Auto.resolve(&large).0, RenderPath::Gpu);
        assert_eq!(RenderPath::Gpu.resolve(&small).0, RenderPath::Gpu);
        assert_eq!(RenderPath::Mesh.resolve(&large).0, RenderPath::Mesh);
        assert!(RenderPath::Auto.resolve(&large).1.contains("2049"));
    }
}
