//! `TerrainScatter`'s counters for tests, benchmarks and diagnostics: chunk grid and lookups,
//! built and rebuilt chunks, instances per chunk and rule (placed and drawn after thinning),
//! foliage builds and heap bytes.

use super::terrain_scatter::TerrainScatter;
use godot::prelude::*;

#[godot_api(secondary)]
impl TerrainScatter {
    /// The chunk (x, z) holding terrain-local `position` (clamped to the grid);
    /// `Vector2i(-1, -1)` before the node has synced with its terrain (no chunk grid yet).
    #[func]
    pub fn get_chunk_of(&self, position: Vector3) -> Vector2i {
        if self.streamer.index.chunks.contains(&0) {
            return Vector2i::new(-1, -1);
        }
        let [x, z] = self
            .streamer
            .index
            .chunk_of([position.x, position.y, position.z]);
        Vector2i::new(x as i32, z as i32)
    }

    /// Chunk counts along X and Z of the current placements.
    #[func]
    pub fn get_chunk_grid(&self) -> Vector2i {
        let [x, z] = self.streamer.index.chunks;
        Vector2i::new(x as i32, z as i32)
    }

    /// How many chunks are built.
    #[func]
    pub fn get_built_chunk_count(&self) -> i64 {
        self.streamer.built_ids.len() as i64
    }

    /// Chunks built since the node was created, and chunks rebuilt because their placements
    /// changed (`Vector2i(built, rebuilt)`).
    #[func]
    pub fn get_build_counts(&self) -> Vector2i {
        Vector2i::new(self.streamer.builds as i32, self.streamer.rebuilds as i32)
    }

    /// Instances of rule (or foliage type) `rule` in built chunk `chunk`: the instance count allocated in its
    /// MultiMeshes (node-mode objects in node mode); -1 when the chunk is not built or holds
    /// none of the rule.
    #[func]
    pub fn get_chunk_instance_count(&self, chunk: Vector2i, rule: GString) -> i64 {
        let count = |g: &super::chunk_build::BuiltGroup| match g.parts.first() {
            Some(p) => p.instances as i64,
            None => g.nodes.len() as i64,
        };
        self.foliage
            .with_group(chunk, &rule.to_string(), count)
            .unwrap_or_else(|| self.with_group(chunk, &rule, count))
    }

    /// Instances of rule (or foliage type) `rule` drawn in built chunk `chunk` after distance thinning: the
    /// visible instance count last written to its MultiMeshes (node-mode objects are not
    /// thinned); -1 when the chunk is not built or holds none.
    #[func]
    pub fn get_chunk_visible_count(&self, chunk: Vector2i, rule: GString) -> i64 {
        let count = |g: &super::chunk_build::BuiltGroup| {
            if g.parts.is_empty() {
                g.nodes.len() as i64
            } else {
                g.visible.min(g.count) as i64
            }
        };
        self.foliage
            .with_group(chunk, &rule.to_string(), count)
            .unwrap_or_else(|| self.with_group(chunk, &rule, count))
    }

    /// Foliage chunks built now, and foliage chunk builds and re-placements since the node was
    /// created (`Vector3i(built now, builds, re-placed)`): an edit re-places only the built
    /// chunks it touches.
    #[func]
    pub fn get_foliage_build_counts(&self) -> Vector3i {
        let s = &self.foliage.streamer;
        Vector3i::new(s.built_ids.len() as i32, s.builds as i32, s.rebuilds as i32)
    }

    /// Instances drawn after thinning and placed in built chunks (`Vector2i(drawn, placed)`).
    #[func]
    pub fn get_instance_counts(&self) -> Vector2i {
        let s = &self.streamer;
        let (v, n) = s
            .built_ids
            .iter()
            .filter_map(|&c| s.built[c].as_ref())
            .fold((0, 0), |(v, n), b| {
                let (bv, bn) = b.instances();
                (v + bv, n + bn)
            });
        Vector2i::new(v as i32, n as i32)
    }

    /// Bytes this node holds on the Rust heap (chunk index, built chunk records); server-side
    /// buffers are counted by Godot.
    #[func]
    pub fn get_memory_usage(&self) -> i64 {
        let s = &self.streamer;
        let index: usize = s
            .index
            .groups
            .iter()
            .map(|g| {
                std::mem::size_of_val(g.as_slice())
                    + g.iter().map(|r| r.placements.capacity() * 4).sum::<usize>()
            })
            .sum();
        let built = s.built.capacity()
            * std::mem::size_of::<Option<super::chunk_build::BuiltChunk>>()
            + s.built_ids
                .iter()
                .filter_map(|&c| s.built[c].as_ref())
                .map(|b| {
                    b.groups.capacity() * std::mem::size_of::<super::chunk_build::BuiltGroup>()
                })
                .sum::<usize>();
        (index + built) as i64
    }
}

impl TerrainScatter {
    fn with_group(
        &self,
        chunk: Vector2i,
        rule: &GString,
        f: impl Fn(&super::chunk_build::BuiltGroup) -> i64,
    ) -> i64 {
        let s = &self.streamer;
        let [nx, nz] = s.index.chunks;
        let (Some(scatter), Ok(x), Ok(z)) = (
            &s.scatter,
            usize::try_from(chunk.x),
            usize::try_from(chunk.y),
        ) else {
            return -1;
        };
        if x >= nx || z >= nz {
            return -1;
        }
        let Some(r) = scatter.rules.iter().position(|id| *id == rule.to_string()) else {
            return -1;
        };
        s.built[z * nx + x]
            .as_ref()
            .and_then(|b| b.groups.iter().find(|g| g.rule as usize == r))
            .map_or(-1, f)
    }
}
