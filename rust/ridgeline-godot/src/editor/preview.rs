//! The brush cursor: an outer ring (brush size) and an inner ring (where the falloff starts),
//! draped on the surface, lifted slightly and drawn without depth test. A RenderingServer
//! instance (no node, nothing saved into the scene), freed when the tool or terrain goes away.

use crate::terrain::Terrain3D;
use godot::classes::rendering_server::{ArrayType, PrimitiveType, ShadowCastingSetting};
use godot::classes::{RenderingServer, Shader, ShaderMaterial};
use godot::prelude::*;

const SHADER: &str = "shader_type spatial;
render_mode unshaded, depth_test_disabled, cull_disabled, shadows_disabled;
uniform vec4 color : source_color = vec4(0.2, 0.6, 1.0, 1.0);
void fragment() { ALBEDO = color.rgb; ALPHA = color.a; }
";

/// Segments per ring.
const SEGMENTS: usize = 96;
/// Lift above the surface (world units).
const LIFT: f32 = 0.05;

/// What the ring's colour shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RingState {
    /// The tool as selected.
    Idle,
    /// Shift: the inverted tool.
    Invert,
    /// Ctrl: picking (set height).
    Pick,
}

/// The ring's server resources.
pub struct Ring {
    mesh: Rid,
    instance: Rid,
    material: Gd<ShaderMaterial>,
    scenario: Rid,
}

impl Ring {
    /// Creates the ring in `scenario` (hidden until [`Ring::update`]).
    pub fn new(scenario: Rid) -> Ring {
        let mut rs = RenderingServer::singleton();
        let mut shader = Shader::new_gd();
        shader.set_code(SHADER);
        let mut material = ShaderMaterial::new_gd();
        material.set_shader(&shader);
        let mesh = rs.mesh_create();
        let instance = rs.instance_create2(mesh, scenario);
        rs.instance_geometry_set_cast_shadows_setting(instance, ShadowCastingSetting::OFF);
        rs.instance_set_visible(instance, false);
        Ring {
            mesh,
            instance,
            material,
            scenario,
        }
    }

    /// The scenario the ring draws in.
    pub fn scenario(&self) -> Rid {
        self.scenario
    }

    /// Hides the ring.
    pub fn hide(&mut self) {
        RenderingServer::singleton().instance_set_visible(self.instance, false);
    }

    /// Drapes the rings around terrain-local `centre` (radius in terrain-local units) on
    /// `terrain`'s surface and shows them.
    pub fn update(
        &mut self,
        terrain: &Gd<Terrain3D>,
        centre: [f64; 2],
        radius: f64,
        falloff: f64,
        state: RingState,
    ) {
        let xf = terrain.get_global_transform();
        let width = (radius * 0.03).max(0.1);
        let mut points = Vec::with_capacity(SEGMENTS * 4 + 4);
        let inner_r = radius * (1.0 - falloff);
        let rings: &[f64] = if inner_r > width * 2.0 && falloff > 0.0 {
            &[radius, inner_r]
        } else {
            &[radius]
        };
        for r in rings {
            for i in 0..=SEGMENTS {
                let a = i as f64 / SEGMENTS as f64 * std::f64::consts::TAU;
                let (s, c) = a.sin_cos();
                for rr in [r - width / 2.0, r + width / 2.0] {
                    let l = Vector3::new(
                        (centre[0] + c * rr) as f32,
                        0.0,
                        (centre[1] + s * rr) as f32,
                    );
                    points.push(xf * l);
                }
            }
        }
        let heights = terrain
            .bind()
            .get_heights(PackedVector3Array::from(points.as_slice()));
        let fallback = xf.origin.y;
        let verts: Vec<Vector3> = points
            .iter()
            .zip(heights.as_slice())
            .map(|(p, h)| Vector3::new(p.x, if h.is_finite() { *h } else { fallback } + LIFT, p.z))
            .collect();
        let mut rs = RenderingServer::singleton();
        rs.mesh_clear(self.mesh);
        let per_ring = (SEGMENTS + 1) * 2;
        for ring in verts.chunks(per_ring) {
            let mut arrays = VarArray::new();
            arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
            arrays.set(
                ArrayType::VERTEX.ord() as usize,
                &PackedVector3Array::from(ring).to_variant(),
            );
            rs.mesh_add_surface_from_arrays(self.mesh, PrimitiveType::TRIANGLE_STRIP, &arrays);
        }
        let color = match state {
            RingState::Idle => Color::from_rgb(0.2, 0.6, 1.0),
            RingState::Invert => Color::from_rgb(1.0, 0.55, 0.1),
            RingState::Pick => Color::from_rgb(0.2, 0.9, 0.3),
        };
        self.material
            .set_shader_parameter("color", &color.to_variant());
        let count = rs.mesh_get_surface_count(self.mesh);
        for i in 0..count {
            rs.mesh_surface_set_material(self.mesh, i, self.material.get_rid());
        }
        rs.instance_set_visible(self.instance, true);
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        let mut rs = RenderingServer::singleton();
        rs.free_rid(self.instance);
        rs.free_rid(self.mesh);
    }
}
