//! CPU-side chunk meshes and collision, built from a surface before the servers receive them.

use ridgeline_core::Heightfield;
use ridgeline_core::mesh::near_chunks::CollisionMode;
use ridgeline_core::mesh::{self, ChunkCollision, ChunkMesh};

/// CPU-side chunk data, handed to the servers once and then dropped (rebuilt from the surface
/// when the terrain re-enters a world): keeping it would double the terrain's memory.
pub struct ChunkData {
    /// Chunk meshes, row-major over chunks.
    pub meshes: Vec<ChunkMesh>,
    /// Chunk collision data, same order; empty when the terrain keeps collision only near
    /// moving bodies (those chunks are built on demand).
    pub collisions: Vec<ChunkCollision>,
}

impl ChunkData {
    /// Meshes for every chunk of `field` (when `meshes`: the GPU path draws without), and
    /// collision for every chunk when `collision` resolves to full collision for its size
    /// (pure core work: safe on any thread).
    pub fn build(field: &Heightfield, collision: CollisionMode, meshes: bool) -> Self {
        let meshes = if meshes {
            mesh::build_all(field)
        } else {
            Vec::new()
        };
        let mut out = Self {
            meshes,
            collisions: Vec::new(),
        };
        if collision.resolve(field.grid()) == CollisionMode::Full {
            out.build_collisions(field);
        }
        out
    }

    /// Collision for every chunk of `field` (when [`Self::build`] left it out).
    pub fn build_collisions(&mut self, field: &Heightfield) {
        let [nx, nz] = field.grid().chunks();
        let chunks: Vec<u32> = (0..nx * nz).collect();
        self.collisions = mesh::par_map(&chunks, |&i| mesh::chunk_collision(field, i % nx, i / nx));
    }

    /// Bytes held (meshes, collision).
    pub fn heap_bytes(&self) -> (usize, usize) {
        (
            self.meshes.iter().map(|m| m.heap_bytes()).sum(),
            self.collisions.iter().map(|c| c.heap_bytes()).sum(),
        )
    }
}
