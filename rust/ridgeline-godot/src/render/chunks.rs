//! Render instances and physics bodies of a terrain's chunks, owned through RenderingServer and
//! PhysicsServer3D (never nodes in the scene tree, never saved). The bodies are
//! [`super::chunk_collision`]'s.

use super::chunk_collision::ChunkBodies;
use super::chunk_data::ChunkData;
use super::chunk_upload::VertexLayout;
use super::patches::GpuPatches;
use godot::classes::RenderingServer;
use godot::classes::rendering_server::{ArrayFormat, ArrayType, PrimitiveType};
use godot::obj::EngineBitfield;
use godot::prelude::*;
use ridgeline_core::Heightfield;
use ridgeline_core::mesh::near_chunks::CollisionMode;
use ridgeline_core::mesh::vertex_update::ChunkVertexUpdate;
use ridgeline_core::mesh::{ChunkCollision, ChunkMesh};

/// Where and how the chunks are shown.
#[derive(Clone, Copy)]
pub struct Placement {
    /// The node's global transform.
    pub transform: Transform3D,
    /// RenderingServer scenario of the node's world.
    pub scenario: Rid,
    /// Physics space of the node's world.
    pub space: Rid,
    /// `lod_bias` for every instance.
    pub lod_bias: f32,
    /// Whether the node is visible.
    pub visible: bool,
    /// Collision layer and mask.
    pub collision: (u32, u32),
    /// The node's instance id (reported by physics queries as the collider).
    pub owner_id: i64,
}

/// RIDs of one terrain's chunks.
#[derive(Default)]
pub struct ChunkResources {
    /// The surface material every mesh uses (owned by `super::surface_material`, not here).
    material: Option<Rid>,
    meshes: Vec<Rid>,
    instances: Vec<(Rid, Transform3D)>,
    /// The chunks' physics bodies.
    collision: ChunkBodies,
    /// The GPU path's patches, when it draws the terrain (then there are no chunk meshes).
    patches: Option<GpuPatches>,
    /// Vertex count of each chunk's mesh (its byte layout depends on it).
    vertex_counts: Vec<usize>,
    /// The surface format the server gave the chunk meshes (read back once).
    format: Option<ArrayFormat>,
    /// Chunks whose vertices were updated in place: their level errors (Godot's LOD switch
    /// distances) are stale until [`ChunkResources::update_chunk`] rebuilds them.
    stale_lods: Vec<usize>,
}

fn chunk_offset(m: &ChunkMesh) -> Transform3D {
    Transform3D::new(Basis::IDENTITY, Vector3::new(m.origin[0], 0.0, m.origin[1]))
}

impl ChunkResources {
    /// Creates every chunk's mesh and instance for `field`, and the bodies and shapes
    /// `collision` (resolved: full or near bodies) asks for; the meshes use `material`.
    pub fn build(
        field: &Heightfield,
        chunks: &ChunkData,
        place: &Placement,
        material: Rid,
        collision: CollisionMode,
    ) -> Self {
        let mut rs = RenderingServer::singleton();
        let mut out = ChunkResources {
            material: Some(material),
            meshes: Vec::new(),
            instances: Vec::new(),
            collision: ChunkBodies::default(),
            patches: None,
            vertex_counts: Vec::new(),
            format: None,
            stale_lods: Vec::new(),
        };
        for m in &chunks.meshes {
            let mesh = create_mesh(m, material);
            let instance = rs.instance_create2(mesh, place.scenario);
            let local = chunk_offset(m);
            rs.instance_set_transform(instance, place.transform * local);
            rs.instance_geometry_set_lod_bias(instance, place.lod_bias);
            rs.instance_set_visible(instance, place.visible);
            out.meshes.push(mesh);
            out.vertex_counts.push(m.positions.len());
            out.instances.push((instance, local));
        }
        out.format = out.meshes.first().and_then(|&mesh| {
            let surface = rs.mesh_get_surface(mesh, 0);
            let bits = surface.get("format")?.try_to::<i64>().ok()?;
            ArrayFormat::try_from_ord(bits as u64)
        });
        out.collision = ChunkBodies::build(field, &chunks.collisions, place, collision);
        out
    }

    /// Replaces chunk `index`'s mesh and collision data (after an edit). Instances and bodies
    /// keep their RIDs; the mesh is recreated, and the shape too when its kind changes (a hole
    /// cut into a height-map chunk makes it a trimesh, filling the last hole makes it a height
    /// map again).
    pub fn update_chunk(&mut self, index: usize, mesh: &ChunkMesh, collision: &ChunkCollision) {
        let (Some(material), Some(&old)) = (self.material, self.meshes.get(index)) else {
            return;
        };
        let mut rs = RenderingServer::singleton();
        let new = create_mesh(mesh, material);
        if let Some((instance, _)) = self.instances.get(index) {
            rs.instance_set_base(*instance, new);
        }
        rs.free_rid(old);
        self.meshes[index] = new;
        if let Some(n) = self.vertex_counts.get_mut(index) {
            *n = mesh.positions.len();
        }
        self.stale_lods.retain(|&i| i != index);
        self.collision.update(index, collision);
    }

    /// Writes a height edit's vertex update into chunk `index`'s mesh in place and replaces its
    /// collision data (of the same kind: height edits never change it). The chunk's level
    /// errors become stale (see [`Self::take_stale_lods`]). Without `collision` the shape stays
    /// (an update of the walls only). `encoded` are the update's bytes in this chunk's
    /// [`Self::vertex_layout`] when already made (on worker threads). Returns false, changing nothing,
    /// when the mesh's layout cannot be updated in place; then rebuild it with
    /// [`Self::update_chunk`].
    pub fn update_chunk_vertices(
        &mut self,
        index: usize,
        update: &ChunkVertexUpdate,
        encoded: Option<&[(usize, Vec<u8>)]>,
        collision: Option<&ChunkCollision>,
    ) -> bool {
        let own;
        let (Some(format), Some(&mesh), Some(&count)) = (
            self.format,
            self.meshes.get(index),
            self.vertex_counts.get(index),
        ) else {
            return false;
        };
        if collision.is_some_and(|col| !self.collision.same_kind(index, col)) {
            return false;
        }
        let writes = match encoded {
            Some(w) => w,
            None => match VertexLayout::of(format, count) {
                Some(layout) => {
                    own = layout.encode(update);
                    &own
                }
                None => return false,
            },
        };
        let mut rs = RenderingServer::singleton();
        for (offset, bytes) in writes {
            let bytes = PackedByteArray::from(bytes.as_slice());
            rs.mesh_surface_update_vertex_region(mesh, 0, *offset as i32, &bytes);
        }
        rs.mesh_set_custom_aabb(mesh, aabb_of(&update.aabb));
        if let Some(col) = collision {
            self.collision.update(index, col);
        }
        if !self.stale_lods.contains(&index) {
            self.stale_lods.push(index);
        }
        true
    }

    /// Takes up to `max` chunks whose level errors are stale (oldest first), for a rebuild.
    pub fn take_stale_lods(&mut self, max: usize) -> Vec<usize> {
        let n = max.min(self.stale_lods.len());
        self.stale_lods.drain(..n).collect()
    }

    /// How many chunks wait for their level errors.
    pub fn stale_lod_count(&self) -> usize {
        self.stale_lods.len()
    }

    /// The in-place layout of chunk `index`'s mesh, when it has one (for checks).
    pub fn vertex_layout(&self, index: usize) -> Option<VertexLayout> {
        VertexLayout::of(self.format?, *self.vertex_counts.get(index)?)
    }

    /// Hands the GPU path's patches over (they draw the terrain instead of chunk meshes).
    pub fn set_patches(&mut self, patches: GpuPatches) {
        self.patches = Some(patches);
    }

    /// The GPU path's patches, when they draw the terrain.
    pub fn patches(&self) -> Option<&GpuPatches> {
        self.patches.as_ref()
    }

    /// The GPU path's patches, to select and upload.
    pub fn patches_mut(&mut self) -> Option<&mut GpuPatches> {
        self.patches.as_mut()
    }

    /// Whether a surface is shown (chunk meshes or GPU patches).
    pub fn is_built(&self) -> bool {
        !self.instances.is_empty() || self.patches.is_some()
    }

    /// Moves every instance and body with the node.
    pub fn set_transform(&mut self, transform: Transform3D) {
        if let Some(p) = &self.patches {
            p.set_transform(transform);
        }
        let mut rs = RenderingServer::singleton();
        for (inst, local) in &self.instances {
            rs.instance_set_transform(*inst, transform * *local);
        }
        self.collision.set_transform(transform);
    }

    /// Applies a new LOD bias to every instance.
    pub fn set_lod_bias(&self, bias: f32) {
        let mut rs = RenderingServer::singleton();
        for (inst, _) in &self.instances {
            rs.instance_geometry_set_lod_bias(*inst, bias);
        }
    }

    /// Shows or hides every instance.
    pub fn set_visible(&self, visible: bool) {
        if let Some(p) = &self.patches {
            p.set_visible(visible);
        }
        let mut rs = RenderingServer::singleton();
        for (inst, _) in &self.instances {
            rs.instance_set_visible(*inst, visible);
        }
    }

    /// Updates collision layer and mask.
    pub fn set_collision(&mut self, layer: u32, mask: u32) {
        self.collision.set_collision(layer, mask);
    }

    /// The chunks' physics bodies.
    pub fn bodies(&self) -> &ChunkBodies {
        &self.collision
    }

    /// The chunks' physics bodies, to retarget near-bodies collision.
    pub fn bodies_mut(&mut self) -> &mut ChunkBodies {
        &mut self.collision
    }

    /// Number of chunk instances.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Frees every RID.
    pub fn free(&mut self) {
        self.material = None;
        self.patches = None;
        self.collision.free();
        if self.instances.is_empty() {
            return;
        }
        self.stale_lods.clear();
        self.vertex_counts.clear();
        let mut rs = RenderingServer::singleton();
        for (inst, _) in self.instances.drain(..) {
            rs.free_rid(inst);
        }
        for mesh in self.meshes.drain(..) {
            rs.free_rid(mesh);
        }
    }
}

/// A server mesh with every LOD of `m`, using `material`.
fn create_mesh(m: &ChunkMesh, material: Rid) -> Rid {
    let mut rs = RenderingServer::singleton();
    let mesh = rs.mesh_create();
    let arrays = mesh_arrays(m);
    let mut lods = VarDictionary::new();
    for (lod, key) in m.lods.iter().skip(1).zip(lod_keys(m)) {
        lods.set(
            key,
            &PackedInt32Array::from_iter(lod.indices.iter().map(|&i| i as i32)).to_variant(),
        );
    }
    rs.mesh_add_surface_from_arrays_ex(mesh, PrimitiveType::TRIANGLES, &arrays)
        .lods(&lods)
        .done();
    rs.mesh_surface_set_material(mesh, 0, material);
    // In-place vertex updates do not recompute the server's bounds: every chunk mesh carries
    // the core's (which cover every vertex) from the start.
    rs.mesh_set_custom_aabb(mesh, aabb_of(&m.aabb));
    mesh
}

/// The server's key for each level after the first: Godot picks a level by this "edge length"
/// (world units), our measured error, and sorts the levels by it. The keys must grow with the
/// level: a chunk whose coarse cells fall back to full detail around holes can measure a
/// smaller error at a coarser level, and with such a level keyed below a finer one the
/// Compatibility renderer drew the chunk wrongly at coarse levels (streaked, missing ground:
/// `render::gpu_path_matches_the_mesh_path`, view `stroke_after`). A raised key only makes
/// Godot switch to that level later, never beyond `lod_error_pixels`.
fn lod_keys(m: &ChunkMesh) -> Vec<f32> {
    let mut last = 0.0f32;
    m.lods
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, lod)| {
            last = lod
                .error
                .max(1e-5 * k as f32)
                .max(last * (1.0 + 1e-4) + 1e-6);
            last
        })
        .collect()
}

fn aabb_of([lo, hi]: &[[f32; 3]; 2]) -> Aabb {
    Aabb::new(
        Vector3::new(lo[0], lo[1], lo[2]),
        Vector3::new(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]),
    )
}

/// The arrays of `m`'s full-detail surface, as the server receives them.
pub fn mesh_arrays(m: &ChunkMesh) -> VarArray {
    let mut arrays = VarArray::new();
    arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
    let verts =
        PackedVector3Array::from_iter(m.positions.iter().map(|p| Vector3::new(p[0], p[1], p[2])));
    let normals =
        PackedVector3Array::from_iter(m.normals.iter().map(|n| Vector3::new(n[0], n[1], n[2])));
    let uvs = PackedVector2Array::from_iter(m.uvs.iter().map(|t| Vector2::new(t[0], t[1])));
    let indices = PackedInt32Array::from_iter(m.lods[0].indices.iter().map(|&i| i as i32));
    arrays.set(ArrayType::VERTEX.ord() as usize, &verts.to_variant());
    arrays.set(ArrayType::NORMAL.ord() as usize, &normals.to_variant());
    arrays.set(ArrayType::TEX_UV.ord() as usize, &uvs.to_variant());
    arrays.set(ArrayType::INDEX.ord() as usize, &indices.to_variant());
    arrays
}

impl Drop for ChunkResources {
    /// Servers outlive nodes, so RIDs still held when the node is destroyed are freed here.
    fn drop(&mut self) {
        self.free();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ridgeline_core::Heightfield;
    use ridgeline_core::grid::{Grid, HoleMask};

    #[test]
    fn level_keys_grow_with_the_level_even_around_holes() {
        let g = Grid::new([64.0, 64.0], [64, 64], 64).unwrap();
        let heights: Vec<f32> = (0..65 * 65)
            .map(|i| ((i % 65) as f32 * 0.37).sin() * 3.0 + ((i / 65) as f32 * 0.21).cos() * 2.0)
            .collect();
        let mut holes = HoleMask::new(64, 64);
        holes.set(30, 31, true);
        let f = Heightfield::new(g, heights, Some(holes)).unwrap();
        let m = ridgeline_core::mesh::build_chunk(&f, 0, 0);
        // The coarsest level falls back to full detail over the hole's cell: error 0.
        assert_eq!(m.lods.last().map(|l| l.error), Some(0.0));
        let keys = lod_keys(&m);
        assert_eq!(keys.len(), m.lods.len() - 1);
        assert!(keys.windows(2).all(|w| w[1] > w[0]), "{keys:?}");
        for (key, lod) in keys.iter().zip(&m.lods[1..]) {
            assert!(*key >= lod.error);
        }
    }
}
