//! The water surfaces of a terrain's bodies: one server mesh with a surface (and material) per
//! body, shown by the terrain's [`super::water_node::TerrainWaterSurface`] (no colliders: water
//! is not a floor).

use godot::classes::RenderingServer;
use godot::classes::rendering_server::{ArrayType, PrimitiveType};
use godot::prelude::*;
use ridgeline_core::heightfield::Heightfield;
use ridgeline_core::hydrology::water::surface_mesh::{CellRect, WaterMesh};
use ridgeline_core::hydrology::water::{Appearance, WaterSet};

/// The water shader source, embedded at build time.
pub const WATER_SHADER: &str = include_str!("../../../../shaders/water.gdshader");

/// RIDs of one terrain's water surfaces.
#[derive(Default)]
pub struct WaterSurfaces {
    shader: Option<Rid>,
    materials: Vec<Rid>,
    mesh: Option<Rid>,
    surfaces: usize,
}

impl WaterSurfaces {
    /// One mesh holding a surface per body with water (and one for painted water): the core's
    /// shore-clipped surface
    /// ([`WaterSet::surface_meshes`]), with the water depth per vertex in UV2.x and the body's
    /// flow (terrain-local XZ, m/s) in UV, each with its body's appearance. Empty (no mesh)
    /// when there is no water.
    pub fn build(field: &Heightfield, water: &WaterSet) -> Self {
        let mut out = WaterSurfaces::default();
        let meshes = water.surface_meshes(field, CellRect::all(field.grid()));
        if meshes.is_empty() {
            return out;
        }
        let mut rs = RenderingServer::singleton();
        let shader = rs.shader_create();
        rs.shader_set_code(shader, WATER_SHADER);
        out.shader = Some(shader);
        let mesh = rs.mesh_create();
        out.mesh = Some(mesh);
        // The Compatibility renderer's depth buffer spans −1..1 in NDC.
        let gl = rs.get_current_rendering_method() == "gl_compatibility";
        for m in &meshes {
            rs.mesh_add_surface_from_arrays(mesh, PrimitiveType::TRIANGLES, &arrays(m));
            let material = rs.material_create();
            rs.material_set_shader(material, shader);
            // Painted water has no body: the default appearance.
            let appearance = water
                .bodies
                .get(m.body)
                .map_or_else(Appearance::default, |b| b.appearance.clone());
            set_appearance(material, &appearance);
            rs.material_set_param(material, "gl_depth_range", &gl.to_variant());
            rs.mesh_surface_set_material(mesh, out.surfaces as i32, material);
            out.materials.push(material);
            out.surfaces += 1;
        }
        out
    }

    /// The mesh (None without water).
    pub fn mesh(&self) -> Option<Rid> {
        self.mesh
    }

    /// Number of water surfaces (one per body with water).
    pub fn surface_count(&self) -> usize {
        self.surfaces
    }

    /// Frees every RID.
    pub fn free(&mut self) {
        if self.shader.is_none() {
            return;
        }
        let mut rs = RenderingServer::singleton();
        for r in self.mesh.take().into_iter().chain(self.materials.drain(..)) {
            rs.free_rid(r);
        }
        if let Some(s) = self.shader.take() {
            rs.free_rid(s);
        }
        self.surfaces = 0;
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
