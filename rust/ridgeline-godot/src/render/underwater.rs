//! The underwater view: a full-screen pass (an internal quad of a
//! [`super::water_node::TerrainWaterSurface`]) that tints what a camera under water sees by the
//! body's water colour and absorption. Each camera decides in the shader whether it is under
//! water, from a texture of the core's water level grid
//! ([`ridgeline_core::hydrology::water::level_grid`]), so the editor viewport and every game
//! viewport follow their own camera without a script. Nothing here runs per frame: the texture
//! and uniforms change only when the water does.

use godot::classes::geometry_instance_3d::ShadowCastingSetting;
use godot::classes::image::Format;
use godot::classes::{
    Image, ImageTexture, MeshInstance3D, QuadMesh, RenderingServer, Shader, ShaderMaterial,
};
use godot::prelude::*;
use ridgeline_core::Heightfield;
use ridgeline_core::hydrology::water::level_grid::LevelGrid;
use ridgeline_core::hydrology::water::{Appearance, WaterSet};

/// The underwater shader source, embedded at build time.
pub const UNDERWATER_SHADER: &str = include_str!("../../../../shaders/underwater.gdshader");

/// Appearance slots of the shader (0: painted water, body index + 1; later bodies use slot 0).
const SLOTS: usize = 32;

/// The pass: its quad node and material.
pub struct UnderwaterPass {
    node: Gd<MeshInstance3D>,
    material: Gd<ShaderMaterial>,
    /// The level grid shown and its texture (None without water).
    level: Option<(LevelGrid, Gd<ImageTexture>)>,
}

impl UnderwaterPass {
    /// A new pass, not yet in the tree, showing no water.
    pub fn new() -> Self {
        let mut shader = Shader::new_gd();
        shader.set_code(UNDERWATER_SHADER);
        let mut material = ShaderMaterial::new_gd();
        material.set_shader(&shader);
        // After the water surfaces (transparent objects sort by priority first).
        material.set_render_priority(127);
        // The Compatibility renderer's depth buffer spans −1..1 in NDC.
        let gl = RenderingServer::singleton().get_current_rendering_method() == "gl_compatibility";
        material.set_shader_parameter("gl_depth_range", &gl.to_variant());
        let mut quad = QuadMesh::new_gd();
        quad.set_size(Vector2::new(2.0, 2.0));
        quad.set_material(&material);
        let mut node = MeshInstance3D::new_alloc();
        node.set_name("Underwater");
        node.set_mesh(&quad);
        // The vertex stage places the quad on the screen: never cull it.
        node.set_custom_aabb(Aabb::new(Vector3::splat(-1.0e6), Vector3::splat(2.0e6)));
        node.set_cast_shadows_setting(ShadowCastingSetting::OFF);
        let mut pass = UnderwaterPass {
            node,
            material,
            level: None,
        };
        pass.set_water(None);
        pass
    }

    /// The quad node (add it to the tree once).
    pub fn node(&self) -> &Gd<MeshInstance3D> {
        &self.node
    }

    /// Shows or hides the pass.
    pub fn set_enabled(&mut self, enabled: bool) {
        if self.node.is_instance_valid() {
            self.node.set_visible(enabled);
        }
    }

    /// Draws the pass for cameras whose cull mask shares a bit with `layers`.
    pub fn set_layers(&mut self, layers: u32) {
        if self.node.is_instance_valid() {
            self.node.set_layer_mask(layers);
        }
    }

    /// Uploads the level grid of `water` over `ground` and the bodies' colours and absorption
    /// distances; `None` (no water) turns the pass off for every camera.
    pub fn set_water(&mut self, water: Option<(&WaterSet, &Heightfield)>) {
        let grid = water.map(|(w, f)| w.level_grid(f));
        let bodies = water.map_or(&[][..], |(w, _)| &w.bodies[..]);
        let default = Appearance::default();
        let mut shallow = PackedColorArray::new();
        let mut deep = PackedColorArray::new();
        let mut absorption = PackedFloat32Array::new();
        let color = |[r, g, b, a]: [f32; 4]| Color::from_rgba(r, g, b, a);
        for slot in 0..SLOTS {
            let a = match slot {
                0 => &default,
                s => bodies.get(s - 1).map_or(&default, |b| &b.appearance),
            };
            shallow.push(color(a.shallow_color));
            deep.push(color(a.deep_color));
            absorption.push(a.absorption_distance);
        }
        let m = &mut self.material;
        m.set_shader_parameter("shallow_colors", &shallow.to_variant());
        m.set_shader_parameter("deep_colors", &deep.to_variant());
        m.set_shader_parameter("absorption_distances", &absorption.to_variant());
        let spacing = water.map_or([1.0, 1.0], |(w, _)| w.grid.spacing());
        m.set_shader_parameter(
            "level_spacing",
            &Vector2::new(spacing[0], spacing[1]).to_variant(),
        );
        self.level = grid.and_then(|g| {
            let tex = ImageTexture::create_from_image(&image(&g)?)?;
            Some((g, tex))
        });
        let (origin, size) = match &self.level {
            Some((g, tex)) => {
                m.set_shader_parameter("level_texture", &tex.to_variant());
                (ivec(g.origin), ivec(g.size))
            }
            None => {
                m.set_shader_parameter("level_texture", &Variant::nil());
                (Vector2i::ZERO, Vector2i::ZERO)
            }
        };
        m.set_shader_parameter("level_origin", &origin.to_variant());
        // A zero size draws nothing anywhere.
        m.set_shader_parameter("level_size", &size.to_variant());
    }

    /// Follows an edit of the same bodies: recomputes the level grid over `samples` (x0, z0,
    /// x1, z1, half-open: where the edit can have changed water or ground) and uploads it as a
    /// new texture (a new texture rather than `ImageTexture.update`, whose upload costs the
    /// same and which headless servers ignore, so tests could not read it back). Returns false
    /// when the grid has to be rebuilt ([`Self::set_water`]): no grid yet, or water now
    /// outside its rectangle.
    pub fn update_water(
        &mut self,
        water: &WaterSet,
        ground: &Heightfield,
        samples: [usize; 4],
    ) -> bool {
        let Some((grid, tex)) = &mut self.level else {
            return false;
        };
        if !grid.update(water, ground, samples) {
            return false;
        }
        let Some(new) = image(grid).and_then(|img| ImageTexture::create_from_image(&img)) else {
            return false;
        };
        *tex = new;
        self.material
            .set_shader_parameter("level_texture", &tex.to_variant());
        true
    }
}

impl Default for UnderwaterPass {
    fn default() -> Self {
        Self::new()
    }
}

/// Grid coordinates as a shader `ivec2` (grids are far below `i32::MAX` samples).
fn ivec([x, z]: [usize; 2]) -> Vector2i {
    let c = |v: usize| i32::try_from(v).unwrap_or(i32::MAX);
    Vector2i::new(c(x), c(z))
}

/// The level grid as a float RGBA image (None when empty).
fn image(grid: &LevelGrid) -> Option<Gd<Image>> {
    if grid.is_empty() {
        return None;
    }
    let size = ivec(grid.size);
    let mut bytes = PackedByteArray::new();
    bytes.resize(grid.texels.len() * 16);
    for (out, t) in bytes.as_mut_slice().chunks_exact_mut(16).zip(&grid.texels) {
        for (o, v) in out.chunks_exact_mut(4).zip(t) {
            o.copy_from_slice(&v.to_le_bytes());
        }
    }
    Image::create_from_data(size.x, size.y, false, Format::RGBAF, &bytes)
}
