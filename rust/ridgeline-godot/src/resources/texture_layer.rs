//! `TerrainTextureLayer`: one textured material of the realistic look.

use godot::classes::{IResource, Resource, Texture2D};
use godot::prelude::*;

/// One texture layer of a [TerrainMaterialSet]: the textures of a ground material and how they
/// tile and blend on the terrain.
///
/// The realistic look ([constant Terrain3D.LOOK_REALISTIC]) packs every layer of the set into
/// texture arrays when the set is assigned or a texture changes: RGB albedo (sRGB) with the blend
/// height in alpha, and the normal map (linear, OpenGL convention) with roughness in alpha. All
/// layers are resized to one size ([member TerrainMaterialSet.texture_size]) and get mipmaps.
/// The faceted look ([constant Terrain3D.LOOK_FACETED]) draws [member flat_color] instead and
/// needs no textures.
///
/// Changing a property emits [signal Resource.changed]; a [Terrain3D] using the layer updates
/// its material (repacking the arrays only when a texture changed). Heights and collision are
/// never touched.
#[derive(GodotClass)]
#[class(tool, base = Resource)]
pub struct TerrainTextureLayer {
    /// Display name (reports and the editor).
    #[export]
    #[var(set = set_name)]
    name: GString,
    /// Albedo (base colour), sRGB. Missing: white, so the biome tint shows.
    #[export]
    #[var(set = set_albedo)]
    albedo: Option<Gd<Texture2D>>,
    /// Tangent-space normal map, OpenGL convention (+Y up the image); see [member normal_y_flip].
    /// Missing: flat.
    #[export]
    #[var(set = set_normal)]
    normal: Option<Gd<Texture2D>>,
    /// Set for DirectX-convention normal maps (their green channel is inverted when packing).
    #[export]
    #[var(set = set_normal_y_flip)]
    normal_y_flip: bool,
    /// Packed occlusion (R), roughness (G) and metallic (B, ignored) map, glTF layout. Wins over
    /// [member roughness_texture]; its occlusion darkens the albedo.
    #[export]
    #[var(set = set_orm)]
    orm: Option<Gd<Texture2D>>,
    /// Roughness map (red channel), used when there is no [member orm] map.
    #[export]
    #[var(set = set_roughness_texture)]
    roughness_texture: Option<Gd<Texture2D>>,
    /// Roughness (0–1) when neither [member orm] nor [member roughness_texture] is set.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_roughness)]
    roughness: f32,
    /// Blend height (red channel): where layers meet, the taller texel wins (pebbles poke out of
    /// silt). Missing: mid grey.
    #[export]
    #[var(set = set_height)]
    height: Option<Gd<Texture2D>>,
    /// Metres (terrain-local units) per texture repeat; > 0. Multiplied by the biome's
    /// `texture_scale`.
    #[export(range = (0.1, 256.0, 0.1, or_greater))]
    #[var(set = set_tiling_m)]
    tiling_m: f32,
    /// Project the texture on three axes on steep ground (rock, cliffs) instead of from above.
    #[export]
    #[var(set = set_triplanar)]
    triplanar: bool,
    /// How much the texture height decides transitions to neighbouring layers: 0 = blend by
    /// weight only, 1 = height-ruled.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_blend_contrast)]
    blend_contrast: f32,
    /// Anti-tiling: 0 = off; above 0 the texture is shown as randomly offset variants per patch,
    /// rotated by up to ±180° × this value (use small values for directional textures such as
    /// strata).
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_anti_tiling)]
    anti_tiling: f32,
    /// Normal-map strength (1 = as authored).
    #[export(range = (0.0, 2.0, 0.01))]
    #[var(set = set_normal_strength)]
    normal_strength: f32,
    /// Flat colour of this layer in the faceted look. Transparent black (the default) uses the
    /// albedo's mean colour.
    #[export]
    #[var(set = set_flat_color)]
    flat_color: Color,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for TerrainTextureLayer {
    fn init(base: Base<Resource>) -> Self {
        Self {
            name: GString::new(),
            albedo: None,
            normal: None,
            normal_y_flip: false,
            orm: None,
            roughness_texture: None,
            roughness: 0.9,
            height: None,
            tiling_m: 4.0,
            triplanar: false,
            blend_contrast: 0.6,
            anti_tiling: 1.0,
            normal_strength: 1.0,
            flat_color: Color::from_rgba(0.0, 0.0, 0.0, 0.0),
            base,
        }
    }
}

/// Clamps a float property to `lo..=hi` (with a warning when it had to), refusing non-finite
/// values (an error, keeping `old`).
fn checked(what: &str, v: f32, lo: f32, hi: f32, old: f32) -> f32 {
    if !v.is_finite() {
        godot_error!("TerrainTextureLayer.{what} must be finite, got {v}; keeping {old}");
        return old;
    }
    crate::convert::property_check::clamp_reporting(
        &format!("TerrainTextureLayer.{what}"),
        v,
        lo,
        hi,
    )
}

#[godot_api]
impl TerrainTextureLayer {
    /// Sets [member name].
    #[func]
    pub fn set_name(&mut self, v: GString) {
        self.name = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member albedo].
    #[func]
    pub fn set_albedo(&mut self, v: Option<Gd<Texture2D>>) {
        self.albedo = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member normal].
    #[func]
    pub fn set_normal(&mut self, v: Option<Gd<Texture2D>>) {
        self.normal = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member normal_y_flip].
    #[func]
    pub fn set_normal_y_flip(&mut self, v: bool) {
        self.normal_y_flip = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member orm].
    #[func]
    pub fn set_orm(&mut self, v: Option<Gd<Texture2D>>) {
        self.orm = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member roughness_texture].
    #[func]
    pub fn set_roughness_texture(&mut self, v: Option<Gd<Texture2D>>) {
        self.roughness_texture = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member roughness] (clamped to 0–1).
    #[func]
    pub fn set_roughness(&mut self, v: f32) {
        self.roughness = checked("roughness", v, 0.0, 1.0, self.roughness);
        self.base_mut().emit_changed();
    }
    /// Sets [member height].
    #[func]
    pub fn set_height(&mut self, v: Option<Gd<Texture2D>>) {
        self.height = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member tiling_m]; refuses values ≤ 0 or non-finite (keeping the old one).
    #[func]
    pub fn set_tiling_m(&mut self, v: f32) {
        if !v.is_finite() || v <= 0.0 {
            godot_error!(
                "TerrainTextureLayer.tiling_m must be finite and > 0, got {v}; keeping {}",
                self.tiling_m
            );
            return;
        }
        self.tiling_m = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member triplanar].
    #[func]
    pub fn set_triplanar(&mut self, v: bool) {
        self.triplanar = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member blend_contrast] (clamped to 0–1).
    #[func]
    pub fn set_blend_contrast(&mut self, v: f32) {
        self.blend_contrast = checked("blend_contrast", v, 0.0, 1.0, self.blend_contrast);
        self.base_mut().emit_changed();
    }
    /// Sets [member anti_tiling] (clamped to 0–1).
    #[func]
    pub fn set_anti_tiling(&mut self, v: f32) {
        self.anti_tiling = checked("anti_tiling", v, 0.0, 1.0, self.anti_tiling);
        self.base_mut().emit_changed();
    }
    /// Sets [member normal_strength] (clamped to 0–2).
    #[func]
    pub fn set_normal_strength(&mut self, v: f32) {
        self.normal_strength = checked("normal_strength", v, 0.0, 2.0, self.normal_strength);
        self.base_mut().emit_changed();
    }
    /// Sets [member flat_color].
    #[func]
    pub fn set_flat_color(&mut self, v: Color) {
        self.flat_color = v;
        self.base_mut().emit_changed();
    }
}

/// What the terrain material reads from a layer (a snapshot, so no borrow is held while
/// packing).
#[derive(Clone)]
pub struct LayerSnapshot {
    /// [member name].
    pub name: String,
    /// Textures: albedo, normal, orm, roughness, height.
    pub textures: [Option<Gd<Texture2D>>; 5],
    /// Invert the normal's green channel.
    pub normal_y_flip: bool,
    /// Constant roughness.
    pub roughness: f32,
    /// Metres per repeat.
    pub tiling_m: f32,
    /// Triplanar on steep ground.
    pub triplanar: bool,
    /// Height-blend contrast.
    pub blend_contrast: f32,
    /// Anti-tiling amount.
    pub anti_tiling: f32,
    /// Normal strength.
    pub normal_strength: f32,
    /// Faceted colour (alpha 0 = use the albedo mean).
    pub flat_color: Color,
}

impl LayerSnapshot {
    /// Identity of what packing reads (texture instances and their change counters, the flip
    /// and the constant roughness): equal keys pack to the same arrays.
    pub fn pack_key(&self) -> Vec<i64> {
        let mut key: Vec<i64> = self
            .textures
            .iter()
            .map(|t| t.as_ref().map_or(0, |t| t.instance_id().to_i64()))
            .collect();
        key.push(self.normal_y_flip as i64);
        key.push(self.roughness.to_bits() as i64);
        key
    }
}

impl TerrainTextureLayer {
    /// A snapshot of the layer's settings.
    pub fn snapshot(&self) -> LayerSnapshot {
        LayerSnapshot {
            name: self.name.to_string(),
            textures: [
                self.albedo.clone(),
                self.normal.clone(),
                self.orm.clone(),
                self.roughness_texture.clone(),
                self.height.clone(),
            ],
            normal_y_flip: self.normal_y_flip,
            roughness: self.roughness,
            tiling_m: self.tiling_m,
            triplanar: self.triplanar,
            blend_contrast: self.blend_contrast,
            anti_tiling: self.anti_tiling,
            normal_strength: self.normal_strength,
            flat_color: self.flat_color,
        }
    }
}
