//! Render instances and physics bodies of a terrain's chunks, owned through RenderingServer and
//! PhysicsServer3D (never nodes in the scene tree, never saved).

use super::chunk_data::ChunkData;
use super::chunk_upload::VertexLayout;
use godot::classes::physics_server_3d::{BodyMode, BodyState};
use godot::classes::rendering_server::{ArrayFormat, ArrayType, PrimitiveType};
use godot::classes::{PhysicsServer3D, RenderingServer};
use godot::obj::EngineBitfield;
use godot::prelude::*;
use ridgeline_core::Heightfield;
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
    bodies: Vec<Rid>,
    shapes: Vec<Rid>,
    /// Whether each chunk's shape is a height map (else a concave trimesh: partial chunks and
    /// chunks with holes).
    height_maps: Vec<bool>,
    /// Grid spacing (shape transforms).
    spacing: [f32; 2],
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
    /// Creates every chunk's mesh, instance, body and shape for `field`; the meshes use
    /// `material`.
    pub fn build(
        field: &Heightfield,
        chunks: &ChunkData,
        place: &Placement,
        material: Rid,
    ) -> Self {
        let mut rs = RenderingServer::singleton();
        let mut out = ChunkResources {
            material: Some(material),
            meshes: Vec::new(),
            instances: Vec::new(),
            bodies: Vec::new(),
            shapes: Vec::new(),
            height_maps: Vec::new(),
            spacing: field.grid().spacing(),
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
        let mut ps = PhysicsServer3D::singleton();
        let grid = *field.grid();
        let [dx, dz] = grid.spacing();
        for (m, col) in chunks.meshes.iter().zip(&chunks.collisions) {
            let body = ps.body_create();
            ps.body_set_mode(body, BodyMode::STATIC);
            let (shape, shape_xform) = create_shape(m, col, [dx, dz]);
            ps.body_add_shape_ex(body, shape)
                .transform(shape_xform)
                .done();
            ps.body_set_collision_layer(body, place.collision.0);
            ps.body_set_collision_mask(body, place.collision.1);
            ps.body_attach_object_instance_id(body, place.owner_id as u64);
            ps.body_set_state(body, BodyState::TRANSFORM, &place.transform.to_variant());
            ps.body_set_space(body, place.space);
            out.bodies.push(body);
            out.shapes.push(shape);
            out.height_maps
                .push(matches!(col, ChunkCollision::HeightMap { .. }));
        }
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
        let height_map = matches!(collision, ChunkCollision::HeightMap { .. });
        if let (Some(&shape), Some(&body), Some(&was)) = (
            self.shapes.get(index),
            self.bodies.get(index),
            self.height_maps.get(index),
        ) {
            if was == height_map {
                set_shape_data(shape, collision);
            } else {
                // A hole cut into (or filled in) the chunk changes its shape kind: a height map
                // cannot leave out single cells, a trimesh can.
                let mut ps = PhysicsServer3D::singleton();
                let (new, xform) = create_shape(mesh, collision, self.spacing);
                ps.body_set_shape(body, 0, new);
                ps.body_set_shape_transform(body, 0, xform);
                ps.free_rid(shape);
                self.shapes[index] = new;
                self.height_maps[index] = height_map;
            }
        }
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
        if let Some(col) = collision {
            let height_map = matches!(col, ChunkCollision::HeightMap { .. });
            if self.height_maps.get(index) != Some(&height_map) {
                return false;
            }
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
        if let (Some(&shape), Some(col)) = (self.shapes.get(index), collision) {
            set_shape_data(shape, col);
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

    /// Moves every instance and body with the node.
    pub fn set_transform(&self, transform: Transform3D) {
        let mut rs = RenderingServer::singleton();
        for (inst, local) in &self.instances {
            rs.instance_set_transform(*inst, transform * *local);
        }
        let mut ps = PhysicsServer3D::singleton();
        for body in &self.bodies {
            ps.body_set_state(*body, BodyState::TRANSFORM, &transform.to_variant());
        }
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
        let mut rs = RenderingServer::singleton();
        for (inst, _) in &self.instances {
            rs.instance_set_visible(*inst, visible);
        }
    }

    /// Updates collision layer and mask.
    pub fn set_collision(&self, layer: u32, mask: u32) {
        let mut ps = PhysicsServer3D::singleton();
        for body in &self.bodies {
            ps.body_set_collision_layer(*body, layer);
            ps.body_set_collision_mask(*body, mask);
        }
    }

    /// Number of chunk instances.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Frees every RID.
    pub fn free(&mut self) {
        self.material = None;
        if self.instances.is_empty() && self.bodies.is_empty() {
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
        let mut ps = PhysicsServer3D::singleton();
        for body in self.bodies.drain(..) {
            ps.free_rid(body);
        }
        for shape in self.shapes.drain(..) {
            ps.free_rid(shape);
        }
    }
}

/// A server mesh with every LOD of `m`, using `material`.
fn create_mesh(m: &ChunkMesh, material: Rid) -> Rid {
    let mut rs = RenderingServer::singleton();
    let mesh = rs.mesh_create();
    let arrays = mesh_arrays(m);
    let mut lods = VarDictionary::new();
    for (k, lod) in m.lods.iter().enumerate().skip(1) {
        // Godot picks a level by its edge length (world units): our measured error.
        let key = lod.error.max(1e-5 * k as f32);
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

fn aabb_of([lo, hi]: &[[f32; 3]; 2]) -> Aabb {
    Aabb::new(
        Vector3::new(lo[0], lo[1], lo[2]),
        Vector3::new(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]),
    )
}

/// A physics shape for a chunk's collision and its transform relative to the terrain.
fn create_shape(m: &ChunkMesh, col: &ChunkCollision, spacing: [f32; 2]) -> (Rid, Transform3D) {
    let mut ps = PhysicsServer3D::singleton();
    let [dx, dz] = spacing;
    match col {
        ChunkCollision::HeightMap { samples, .. } => {
            let shape = ps.heightmap_shape_create();
            set_shape_data(shape, col);
            // HeightMapShape3D is centred on its grid with one unit per sample.
            let cells = (*samples - 1) as f32;
            let xform = Transform3D::new(
                Basis::from_scale(Vector3::new(dx, 1.0, dz)),
                Vector3::new(
                    m.origin[0] + cells * dx * 0.5,
                    0.0,
                    m.origin[1] + cells * dz * 0.5,
                ),
            );
            (shape, xform)
        }
        ChunkCollision::Triangles { .. } => {
            let shape = ps.concave_polygon_shape_create();
            set_shape_data(shape, col);
            (shape, chunk_offset(m))
        }
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
