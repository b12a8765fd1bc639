//! The water surfaces of a terrain's bodies: one server mesh with a surface (and material) per
//! body, shown by the terrain's [`super::water_node::TerrainWaterSurface`] (no colliders: water
//! is not a floor). The geometry is kept per chunk ([`SurfaceTiles`]): after an edit only the
//! chunks whose water changed are rebuilt, and only the surfaces of the bodies they hold are
//! uploaded again; the shader and materials stay.

use godot::classes::RenderingServer;
use godot::classes::rendering_server::{ArrayType, PrimitiveType};
use godot::prelude::*;
use ridgeline_core::heightfield::Heightfield;
use ridgeline_core::hydrology::water::surface_mesh::{CellRect, WaterMesh};
use ridgeline_core::hydrology::water::surface_tiles::SurfaceTiles;
use ridgeline_core::hydrology::water::{Appearance, WaterSet};

/// The water shader source, embedded at build time.
pub const WATER_SHADER: &str = include_str!("../../../../shaders/water.gdshader");

/// RIDs of one terrain's water surfaces.
#[derive(Default)]
pub struct WaterSurfaces {
    shader: Option<Rid>,
    /// Per body slot (bodies, then painted water): its material, once it had water.
    materials: Vec<Option<Rid>>,
    mesh: Option<Rid>,
    /// The body slot of each mesh surface, in surface order.
    surfaces: Vec<usize>,
    /// The geometry per chunk.
    tiles: SurfaceTiles,
}

impl WaterSurfaces {
    /// One mesh holding a surface per body with water (and one for painted water): the core's
    /// shore-clipped surface ([`WaterSet::surface_meshes`], kept per chunk), with the water
    /// depth per vertex in UV2.x and the body's flow (terrain-local XZ, m/s) in UV, each with
    /// its body's appearance. Empty (no mesh) when there is no water.
    pub fn build(field: &Heightfield, water: &WaterSet) -> Self {
        let mut out = WaterSurfaces::default();
        out.tiles = SurfaceTiles::build(water, field);
        let meshes = out.tiles.merged();
        if meshes.is_empty() {
            return out;
        }
        let mut rs = RenderingServer::singleton();
        let shader = rs.shader_create();
        rs.shader_set_code(shader, WATER_SHADER);
        out.shader = Some(shader);
        out.mesh = Some(rs.mesh_create());
        out.materials = vec![None; out.tiles.slot_count()];
        for m in &meshes {
            out.add_surface(water, m);
        }
        out
    }

    /// Follows an edit: `before` and `after` are the terrain's water before and after it,
    /// `field` the edited ground and `ground_changed` the cells whose corner heights or hole
    /// flags changed. Rebuilds the chunks whose water surface can differ and re-uploads the
    /// surfaces of the bodies they hold. Returns the samples (x0, z0, x1, z1, half-open) whose
    /// water or ground can have changed, or None when it cannot follow (no mesh yet, or other
    /// bodies): then [`Self::build`] anew.
    pub fn update(
        &mut self,
        before: &WaterSet,
        after: &WaterSet,
        field: &Heightfield,
        ground_changed: CellRect,
    ) -> Option<[usize; 4]> {
        let mesh = self.mesh?;
        if self.materials.len() != after.bodies.len() + 1 {
            return None;
        }
        let up = self.tiles.update(before, after, field, ground_changed);
        if up.all {
            // Other bodies: their materials are rebuilt too.
            return None;
        }
        let mut rs = RenderingServer::singleton();
        // Drop the changed slots' surfaces (highest index first, so the others keep theirs).
        for i in (0..self.surfaces.len()).rev() {
            if up.slots_changed[self.surfaces[i]] {
                rs.mesh_surface_remove(mesh, i as i32);
                self.surfaces.remove(i);
            }
        }
        for (slot, _) in up.slots_changed.iter().enumerate().filter(|(_, c)| **c) {
            if let Some(m) = self.tiles.merged_slot(slot) {
                self.add_surface(after, &m);
            }
        }
        Some(up.samples)
    }

    /// Appends `m` as a surface with its slot's material (created on first use).
    fn add_surface(&mut self, water: &WaterSet, m: &WaterMesh) {
        let (Some(mesh), Some(shader)) = (self.mesh, self.shader) else {
            return;
        };
        let slot = self.tiles.slot_of(m);
        let mut rs = RenderingServer::singleton();
        rs.mesh_add_surface_from_arrays(mesh, PrimitiveType::TRIANGLES, &arrays(m));
        let material = match self.materials.get(slot).copied().flatten() {
            Some(material) => material,
            None => {
                let material = rs.material_create();
                rs.material_set_shader(material, shader);
                // Painted water has no body: the default appearance.
                let appearance = water
                    .bodies
                    .get(m.body)
                    .map_or_else(Appearance::default, |b| b.appearance.clone());
                set_appearance(material, &appearance);
                // The Compatibility renderer's depth buffer spans −1..1 in NDC.
                let gl = rs.get_current_rendering_method() == "gl_compatibility";
                rs.material_set_param(material, "gl_depth_range", &gl.to_variant());
                if let Some(entry) = self.materials.get_mut(slot) {
                    *entry = Some(material);
                }
                material
            }
        };
        rs.mesh_surface_set_material(mesh, self.surfaces.len() as i32, material);
        self.surfaces.push(slot);
    }

    /// The mesh (None without water).
    pub fn mesh(&self) -> Option<Rid> {
        self.mesh
    }

    /// Number of water surfaces (one per body with water).
    pub fn surface_count(&self) -> usize {
        self.surfaces.len()
    }

    /// Frees every RID.
    pub fn free(&mut self) {
        if self.shader.is_none() {
            return;
        }
        let mut rs = RenderingServer::singleton();
        let materials = self.materials.drain(..).flatten();
        for r in self.mesh.take().into_iter().chain(materials) {
            rs.free_rid(r);
        }
        if let Some(s) = self.shader.take() {
            rs.free_rid(s);
        }
        self.surfaces.clear();
    }
}

impl Drop for WaterSurfaces {
    fn drop(&mut self) {
        self.free();
    }
}

/// Mesh arrays of one body's surface.
fn arrays(m: &WaterMesh) -> VarArray {
    let verts: PackedVector3Array = m
        .positions
        .iter()
        .map(|p| Vector3::new(p[0], p[1], p[2]))
        .collect();
    let depth: PackedVector2Array = m.depth.iter().map(|&d| Vector2::new(d, 0.0)).collect();
    let flow: PackedVector2Array = m.flow.iter().map(|f| Vector2::new(f[0], f[1])).collect();
    let normals: PackedVector3Array = m.positions.iter().map(|_| Vector3::UP).collect();
    let idx: PackedInt32Array = m.indices.iter().map(|&i| i as i32).collect();
    let mut arrays = VarArray::new();
    arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
    arrays.set(ArrayType::VERTEX.ord() as usize, &verts.to_variant());
    arrays.set(ArrayType::NORMAL.ord() as usize, &normals.to_variant());
    arrays.set(ArrayType::TEX_UV.ord() as usize, &flow.to_variant());
    arrays.set(ArrayType::TEX_UV2.ord() as usize, &depth.to_variant());
    arrays.set(ArrayType::INDEX.ord() as usize, &idx.to_variant());
    arrays
}

/// Sets the shader parameters of a body's appearance.
fn set_appearance(material: Rid, a: &Appearance) {
    let mut rs = RenderingServer::singleton();
    let color = |c: [f32; 4]| Color::from_rgba(c[0], c[1], c[2], c[3]).to_variant();
    rs.material_set_param(material, "shallow_color", &color(a.shallow_color));
    rs.material_set_param(material, "deep_color", &color(a.deep_color));
    rs.material_set_param(material, "foam_color", &color(a.foam_color));
    for (name, v) in [
        ("absorption_distance", a.absorption_distance),
        ("water_roughness", a.roughness),
        ("wave_amplitude", a.wave_amplitude),
        ("wave_length", a.wave_length),
        ("wave_speed", a.wave_speed),
        ("normal_strength", a.normal_strength),
        ("foam_width", a.foam_width),
        ("foam_strength", a.foam_strength),
    ] {
        rs.material_set_param(material, name, &v.to_variant());
    }
}
