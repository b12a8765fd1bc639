//! CPU-side chunk meshes and collision, built from a surface before the servers receive them.

use ridgeline_core::Heightfield;
use ridgeline_core::mesh::{self, ChunkCollision, ChunkMesh};

/// CPU-side chunk data, handed to the servers once and then dropped (rebuilt from the surface
/// when the terrain re-enters a world): keeping it would double the terrain's memory.
pub struct ChunkData {
    /// Chunk meshes, row-major over chunks.
    pub meshes: Vec<ChunkMesh>,
    /// Chunk collision data, same order.
    pub collisions: Vec<ChunkCollision>,
}

impl ChunkData {
    /// Meshes and collision for every chunk of `field` (pure core work: safe on any thread).
    pub fn build(field: &Heightfield) -> Self {
        let meshes = mesh::build_all(field);
        let [nx, nz] = field.grid().chunks();
        let collisions = (0..nx * nz)
            .map(|i| mesh::chunk_collision(field, i % nx, i / nx))
            .collect();
        Self { meshes, collisions }
    }

    /// Bytes held (meshes, collision).
    pub fn heap_bytes(&self) -> (usize, usize) {
        (
            self.meshes.iter().map(|m| m.heap_bytes()).sum(),
            self.collisions.iter().map(|c| c.heap_bytes()).sum(),
        )
    }
}
