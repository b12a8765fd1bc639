//! Render instances of a terrain's water bodies (no colliders: water is not a floor).

use godot::classes::RenderingServer;
use godot::classes::rendering_server::{ArrayType, PrimitiveType};
use godot::prelude::*;
use ridgeline_core::heightfield::Heightfield;
use ridgeline_core::hydrology::water::WaterSet;

/// The water shader source, embedded at build time.
pub const WATER_SHADER: &str = include_str!("../../../../shaders/water.gdshader");

/// RIDs of one terrain's water surfaces.
#[derive(Default)]
pub struct WaterSurfaces {
    shader: Option<Rid>,
    materials: Vec<Rid>,
    meshes: Vec<Rid>,
    instances: Vec<Rid>,
}

impl WaterSurfaces {
    /// One mesh per body over every cell with a corner it covers; dry corners sit at the body's
    /// surface so the terrain (drawn opaque first) clips the shore by depth.
    pub fn build(
        field: &Heightfield,
        water: &WaterSet,
        scenario: Rid,
        transform: Transform3D,
        visible: bool,
    ) -> Self {
        let mut out = WaterSurfaces::default();
        if water.bodies.is_empty() {
            return out;
        }
        let mut rs = RenderingServer::singleton();
        let shader = rs.shader_create();
        rs.shader_set_code(shader, WATER_SHADER);
        out.shader = Some(shader);
        let grid = field.grid();
        let [w, h] = grid.samples();
        for (b, body) in water.bodies.iter().enumerate() {
            let index = b as u16 + 1;
            let mut verts = Vec::new();
            let mut depth = Vec::new();
            let mut idx: Vec<i32> = Vec::new();
            let mut vid = vec![-1i32; w * h];
            let surface_at = |i: usize| {
                if water.owner_at(i) == index {
                    water.surface[i]
                } else {
                    body.level
                }
            };
            for z in 0..h - 1 {
                for x in 0..w - 1 {
                    let corners = [
                        z * w + x,
                        z * w + x + 1,
                        (z + 1) * w + x,
                        (z + 1) * w + x + 1,
                    ];
                    if !corners.iter().any(|&i| water.owner_at(i) == index) {
                        continue;
                    }
                    let mut id = [0i32; 4];
                    for (k, &i) in corners.iter().enumerate() {
                        if vid[i] < 0 {
                            let [px, pz] = grid.sample_position(i % w, i / w);
                            let s = surface_at(i);
                            vid[i] = verts.len() as i32;
                            verts.push(Vector3::new(px, s, pz));
                            depth.push(Vector2::new(s - field.heights()[i], 0.0));
                        }
                        id[k] = vid[i];
                    }
                    idx.extend_from_slice(&[id[0], id[1], id[2], id[1], id[3], id[2]]);
                }
            }
            if idx.is_empty() {
                continue;
            }
            let mut arrays = VarArray::new();
            arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
            let normals = PackedVector3Array::from_iter(verts.iter().map(|_| Vector3::UP));
            arrays.set(
                ArrayType::VERTEX.ord() as usize,
                &PackedVector3Array::from(verts.as_slice()).to_variant(),
            );
            arrays.set(ArrayType::NORMAL.ord() as usize, &normals.to_variant());
            arrays.set(
                ArrayType::TEX_UV2.ord() as usize,
                &PackedVector2Array::from(depth.as_slice()).to_variant(),
            );
            arrays.set(
                ArrayType::INDEX.ord() as usize,
                &PackedInt32Array::from(idx.as_slice()).to_variant(),
            );
            let mesh = rs.mesh_create();
            rs.mesh_add_surface_from_arrays(mesh, PrimitiveType::TRIANGLES, &arrays);
            let material = rs.material_create();
            rs.material_set_shader(material, shader);
            let a = &body.appearance;
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
            let flow = body.flow_at(0.0, 0.0);
            rs.material_set_param(
                material,
                "flow",
                &Vector2::new(flow[0], flow[1]).to_variant(),
            );
            rs.mesh_surface_set_material(mesh, 0, material);
            let instance = rs.instance_create2(mesh, scenario);
            rs.instance_set_transform(instance, transform);
            rs.instance_set_visible(instance, visible);
            out.meshes.push(mesh);
            out.materials.push(material);
            out.instances.push(instance);
        }
        out
    }

    /// Moves the water with the terrain.
    pub fn set_transform(&self, transform: Transform3D) {
        let mut rs = RenderingServer::singleton();
        for i in &self.instances {
            rs.instance_set_transform(*i, transform);
        }
    }

    /// Shows or hides the water.
    pub fn set_visible(&self, visible: bool) {
        let mut rs = RenderingServer::singleton();
        for i in &self.instances {
            rs.instance_set_visible(*i, visible);
        }
    }

    /// Number of water surface instances.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Frees every RID.
    pub fn free(&mut self) {
        if self.shader.is_none() {
            return;
        }
        let mut rs = RenderingServer::singleton();
        for r in self
            .instances
            .drain(..)
            .chain(self.meshes.drain(..))
            .chain(self.materials.drain(..))
        {
            rs.free_rid(r);
        }
        if let Some(s) = self.shader.take() {
            rs.free_rid(s);
        }
    }
}

impl Drop for WaterSurfaces {
    fn drop(&mut self) {
        self.free();
    }
}
