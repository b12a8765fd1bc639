//! The physics bodies and shapes of a terrain's chunks, owned through PhysicsServer3D: one
//! static body per chunk with a height-map shape (a concave trimesh for partial chunks and
//! chunks with holes). Either every chunk has its body (full collision) or only the chunks near
//! moving bodies do ([`CollisionMode::NearBodies`]); then released bodies wait in a pool, out of
//! the physics space, for the next chunk that needs one.

use super::chunks::Placement;
use godot::classes::PhysicsServer3D;
use godot::classes::physics_server_3d::{BodyMode, BodyState};
use godot::prelude::*;
use ridgeline_core::Heightfield;
use ridgeline_core::grid::Grid;
use ridgeline_core::mesh::near_chunks::{CollisionMode, NearChunks};
use ridgeline_core::mesh::{self, ChunkCollision};

/// One chunk's body and its shape.
#[derive(Clone, Copy)]
struct Slot {
    body: Rid,
    shape: Rid,
    /// Whether the shape is a height map (else a concave trimesh).
    height_map: bool,
}

/// Bodies and shapes of one terrain's chunks.
#[derive(Default)]
pub struct ChunkBodies {
    /// Per chunk, row-major.
    slots: Vec<Option<Slot>>,
    /// Released bodies with their last shape, out of the space (near-bodies mode).
    pool: Vec<Slot>,
    /// Which chunks have collision in near-bodies mode (`None` in full mode).
    near: Option<NearChunks>,
    grid: Option<Grid>,
    place: Option<Placement>,
    /// Bodies created and chunks built on demand since the terrain's resources were built
    /// (near-bodies mode: checks and the dock's stats).
    built: u64,
}

impl ChunkBodies {
    /// Collision for `field` in `mode` (already resolved: full or near bodies). Full mode
    /// creates every chunk's body from `collisions` (row-major, one per chunk); near-bodies
    /// mode creates none until [`Self::retarget`].
    pub fn build(
        field: &Heightfield,
        collisions: &[ChunkCollision],
        place: &Placement,
        mode: CollisionMode,
    ) -> Self {
        let grid = *field.grid();
        let [nx, nz] = grid.chunks();
        let mut out = ChunkBodies {
            slots: vec![None; nx as usize * nz as usize],
            pool: Vec::new(),
            near: (mode == CollisionMode::NearBodies).then(NearChunks::default),
            grid: Some(grid),
            place: Some(*place),
            built: 0,
        };
        if out.near.is_none() {
            for (i, col) in collisions.iter().enumerate().take(out.slots.len()) {
                out.place_chunk(i, col);
            }
        }
        out
    }

    /// The mode in use: full or near bodies.
    pub fn mode(&self) -> CollisionMode {
        if self.near.is_some() {
            CollisionMode::NearBodies
        } else {
            CollisionMode::Full
        }
    }

    /// Chunks with a body in the space.
    pub fn chunk_count(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Chunks of the terrain (with or without a body).
    pub fn total(&self) -> usize {
        self.slots.len()
    }

    /// Bodies waiting in the pool.
    pub fn pooled(&self) -> usize {
        self.pool.len()
    }

    /// Chunk shapes built on demand so far (near-bodies mode).
    pub fn built_on_demand(&self) -> u64 {
        self.built
    }

    /// Near-bodies mode: keeps shapes for the chunks within `radius` of `points` (terrain-local
    /// X/Z) and releases the far ones into the pool, building new ones from `field`. Returns
    /// how many chunks were built and released. Does nothing in full mode.
    pub fn retarget(
        &mut self,
        field: &Heightfield,
        points: &[[f32; 2]],
        radius: f32,
    ) -> (usize, usize) {
        let (Some(near), Some(grid)) = (self.near.as_mut(), self.grid) else {
            return (0, 0);
        };
        if *field.grid() != grid {
            return (0, 0);
        }
        let change = near.retarget(&grid, points, radius);
        for &i in &change.release {
            self.release_chunk(i);
        }
        let [nx, _] = grid.chunks();
        let built = mesh::par_map(&change.build, |&i| {
            (
                i,
                mesh::chunk_collision(field, (i % nx as usize) as u32, (i / nx as usize) as u32),
            )
        });
        for (i, col) in &built {
            self.place_chunk(*i, col);
        }
        self.built += built.len() as u64;
        (built.len(), change.release.len())
    }

    /// Replaces chunk `index`'s collision data after an edit (a chunk without a body in
    /// near-bodies mode is skipped: it is built from the edited surface when a body comes).
    /// The shape is recreated when its kind changes (a hole cut into a height-map chunk makes
    /// it a trimesh, filling the last hole makes it a height map again).
    pub fn update(&mut self, index: usize, collision: &ChunkCollision) {
        let Some(Some(slot)) = self.slots.get(index).copied() else {
            return;
        };
        let height_map = matches!(collision, ChunkCollision::HeightMap { .. });
        if slot.height_map == height_map {
            set_shape_data(slot.shape, collision);
            return;
        }
        let Some((shape, xform)) = self.create_shape(index, collision) else {
            return;
        };
        let mut ps = PhysicsServer3D::singleton();
        ps.body_set_shape(slot.body, 0, shape);
        ps.body_set_shape_transform(slot.body, 0, xform);
        ps.free_rid(slot.shape);
        self.slots[index] = Some(Slot {
            body: slot.body,
            shape,
            height_map,
        });
    }

    /// Whether chunk `index`'s shape kind matches `collision` (an in-place update can keep it).
    pub fn same_kind(&self, index: usize, collision: &ChunkCollision) -> bool {
        match self.slots.get(index) {
            Some(Some(slot)) => {
                slot.height_map == matches!(collision, ChunkCollision::HeightMap { .. })
            }
            _ => true,
        }
    }

    /// Moves every body with the node.
    pub fn set_transform(&mut self, transform: Transform3D) {
        if let Some(place) = &mut self.place {
            place.transform = transform;
        }
        let mut ps = PhysicsServer3D::singleton();
        for slot in self.slots.iter().flatten() {
            ps.body_set_state(slot.body, BodyState::TRANSFORM, &transform.to_variant());
        }
    }

    /// Updates collision layer and mask (pooled bodies get them when reused).
    pub fn set_collision(&mut self, layer: u32, mask: u32) {
        if let Some(place) = &mut self.place {
            place.collision = (layer, mask);
        }
        let mut ps = PhysicsServer3D::singleton();
        for slot in self.slots.iter().flatten() {
            ps.body_set_collision_layer(slot.body, layer);
            ps.body_set_collision_mask(slot.body, mask);
        }
    }

    /// Frees every body and shape, pooled ones included.
    pub fn free(&mut self) {
        let mut ps = PhysicsServer3D::singleton();
        for slot in self.slots.drain(..).flatten().chain(self.pool.drain(..)) {
            ps.free_rid(slot.body);
            ps.free_rid(slot.shape);
        }
        if let Some(near) = &mut self.near {
            near.clear();
        }
        self.place = None;
    }

    /// Gives chunk `index` a body in the space with `col`'s shape (from the pool when one
    /// waits there).
    fn place_chunk(&mut self, index: usize, col: &ChunkCollision) {
        let Some(place) = self.place else {
            return;
        };
        if self.slots.get(index).is_none_or(|s| s.is_some()) {
            return;
        }
        let Some((shape, xform)) = self.create_shape_or_reuse(index, col) else {
            return;
        };
        let mut ps = PhysicsServer3D::singleton();
        let (body, shape) = match shape {
            Reuse::Pooled(slot) => {
                ps.body_set_shape_transform(slot.body, 0, xform);
                (slot.body, slot.shape)
            }
            Reuse::New(body, shape) => {
                let body = body.unwrap_or_else(|| {
                    let b = ps.body_create();
                    ps.body_set_mode(b, BodyMode::STATIC);
                    b
                });
                ps.body_add_shape_ex(body, shape).transform(xform).done();
                ps.body_attach_object_instance_id(body, place.owner_id as u64);
                (body, shape)
            }
        };
        ps.body_set_collision_layer(body, place.collision.0);
        ps.body_set_collision_mask(body, place.collision.1);
        ps.body_set_state(body, BodyState::TRANSFORM, &place.transform.to_variant());
        ps.body_set_space(body, place.space);
        self.slots[index] = Some(Slot {
            body,
            shape,
            height_map: matches!(col, ChunkCollision::HeightMap { .. }),
        });
    }

    /// A pooled body whose shape has `col`'s kind (its data replaced), else a new shape (on a
    /// pooled body whose old shape went, or for a new body).
    fn create_shape_or_reuse(
        &mut self,
        index: usize,
        col: &ChunkCollision,
    ) -> Option<(Reuse, Transform3D)> {
        let height_map = matches!(col, ChunkCollision::HeightMap { .. });
        let (_, xform) = self.shape_transform(index, col)?;
        if let Some(k) = self.pool.iter().position(|s| s.height_map == height_map) {
            let slot = self.pool.swap_remove(k);
            set_shape_data(slot.shape, col);
            return Some((Reuse::Pooled(slot), xform));
        }
        let (shape, xform) = self.create_shape(index, col)?;
        let body = self.pool.pop().map(|old| {
            let mut ps = PhysicsServer3D::singleton();
            ps.body_remove_shape(old.body, 0);
            ps.free_rid(old.shape);
            old.body
        });
        Some((Reuse::New(body, shape), xform))
    }

    /// Takes chunk `index`'s body out of the space into the pool.
    fn release_chunk(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index).and_then(Option::take) else {
            return;
        };
        PhysicsServer3D::singleton().body_set_space(slot.body, Rid::Invalid);
        self.pool.push(slot);
    }

    /// A new shape for chunk `index` holding `col`, and its transform relative to the terrain.
    fn create_shape(&self, index: usize, col: &ChunkCollision) -> Option<(Rid, Transform3D)> {
        let (height_map, xform) = self.shape_transform(index, col)?;
        let mut ps = PhysicsServer3D::singleton();
        let shape = if height_map {
            ps.heightmap_shape_create()
        } else {
            ps.concave_polygon_shape_create()
        };
        set_shape_data(shape, col);
        Some((shape, xform))
    }

    /// Whether `col` is a height map, and its shape's transform for chunk `index`.
    fn shape_transform(&self, index: usize, col: &ChunkCollision) -> Option<(bool, Transform3D)> {
        let grid = self.grid?;
        let [nx, _] = grid.chunks();
        let (cx, cz) = ((index % nx as usize) as u32, (index / nx as usize) as u32);
        let r = grid.chunk_cells_range(cx, cz);
        let [dx, dz] = grid.spacing();
        let origin = grid.sample_position(r.x0 as usize, r.z0 as usize);
        Some(match col {
            ChunkCollision::HeightMap { samples, .. } => {
                // HeightMapShape3D is centred on its grid with one unit per sample.
                let cells = (*samples - 1) as f32;
                (
                    true,
                    Transform3D::new(
                        Basis::from_scale(Vector3::new(dx, 1.0, dz)),
                        Vector3::new(
                            origin[0] + cells * dx * 0.5,
                            0.0,
                            origin[1] + cells * dz * 0.5,
                        ),
                    ),
                )
            }
            ChunkCollision::Triangles { .. } => (
                false,
                Transform3D::new(Basis::IDENTITY, Vector3::new(origin[0], 0.0, origin[1])),
            ),
        })
    }
}

/// A body for a chunk: a pooled one as it is, or a new shape (with a pooled body or none).
enum Reuse {
    Pooled(Slot),
    New(Option<Rid>, Rid),
}

impl Drop for ChunkBodies {
    /// Servers outlive nodes, so RIDs still held when the node is destroyed are freed here.
    fn drop(&mut self) {
        self.free();
    }
}

/// Writes collision data into an existing shape of the matching kind.
fn set_shape_data(shape: Rid, col: &ChunkCollision) {
    let mut ps = PhysicsServer3D::singleton();
    let mut data = VarDictionary::new();
    match col {
        ChunkCollision::HeightMap { samples, heights } => {
            let (hmin, hmax) = heights
                .iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &h| {
                    (a.min(h), b.max(h))
                });
            data.set("width", *samples as i64);
            data.set("depth", *samples as i64);
            data.set(
                "heights",
                &PackedFloat32Array::from(heights.as_slice()).to_variant(),
            );
            data.set("min_height", hmin);
            data.set("max_height", hmax);
        }
        ChunkCollision::Triangles { vertices } => {
            let faces = PackedVector3Array::from_iter(
                vertices.iter().map(|v| Vector3::new(v[0], v[1], v[2])),
            );
            data.set("faces", &faces.to_variant());
            data.set("backface_collision", true);
        }
    }
    ps.shape_set_data(shape, &data.to_variant());
}
