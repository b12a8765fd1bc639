//! `Terrain3D`'s surface materials: [member material_set], [member look], the texture arrays,
//! the control texture and every shader parameter. Nothing here touches heights, chunk meshes
//! or collision: a material change only updates the shared material (docs/materials.md).

use super::Terrain3D;
use super::look::Look;
use super::surface_classes::{self, SurfaceClasses};
use crate::render::paint_texture::PaintTexture;
use crate::render::surface_material::SurfaceMaterial;
use crate::resources::material_set::ROLE_NAMES;
use crate::resources::texture_arrays::{self, PackedArrays};
use godot::classes::object::ConnectFlags;
use godot::classes::{Image, ImageTexture, Resource};
use godot::prelude::*;
use ridgeline_core::mesh::control_map::{self, LayerTable, TexelRect};

/// Uniform array length in the shaders.
const MAX_ENTRIES: usize = 32;

/// How strongly a biome's colour tints textures and palette colours (hue only, see
/// `ridgeline_core::mesh::control_map::material_tint`).
const TINT_STRENGTH: f32 = 0.35;

/// The faceted look's palette per surface role without a material set (sRGB bytes).
pub const ROLE_PALETTE: [[u8; 3]; 9] = [
    [110, 88, 62],
    [82, 118, 50],
    [112, 108, 102],
    [92, 86, 80],
    [138, 124, 96],
    [196, 176, 130],
    [232, 236, 244],
    [72, 60, 46],
    [80, 96, 90],
];

/// What the terrain's material holds between refreshes.
#[derive(Default)]
pub struct MaterialState {
    /// The server material shared by every chunk.
    pub surface: SurfaceMaterial,
    arrays: Option<PackedArrays>,
    pack_key: Vec<i64>,
    /// The control texture (tiled; edits re-encode and re-upload only the tiles they touch, so
    /// no copy of it is kept on the CPU).
    control: PaintTexture,
    table: Option<LayerTable>,
    connected: Vec<Gd<Resource>>,
    warned: Vec<String>,
    /// The exclusion overlay's texture (see [`super::overlay`]), once shown.
    pub overlay_exclusion: Option<Gd<ImageTexture>>,
    /// The image last uploaded into it (tests read it back).
    pub overlay_exclusion_image: Option<Gd<Image>>,
    /// Work counters, for tests (`_test_counters`).
    pub counters: Counters,
}

/// How often each piece of material work ran.
#[derive(Default, Clone, Copy)]
pub struct Counters {
    /// Texture arrays packed.
    pub array_packs: u64,
    /// Control textures encoded in full.
    pub control_builds: u64,
    /// Partial control-texture updates (after edits).
    pub control_updates: u64,
    /// Material refreshes.
    pub refreshes: u64,
}

fn floats(values: impl IntoIterator<Item = f32>) -> Variant {
    let mut v: Vec<f32> = values.into_iter().take(MAX_ENTRIES).collect();
    v.resize(MAX_ENTRIES, 0.0);
    PackedFloat32Array::from(v.as_slice()).to_variant()
}

fn colors(values: impl IntoIterator<Item = Color>) -> Variant {
    let mut v: Vec<Color> = values.into_iter().take(MAX_ENTRIES).collect();
    v.resize(MAX_ENTRIES, Color::WHITE);
    PackedColorArray::from(v.as_slice()).to_variant()
}

#[godot_api(secondary)]
impl Terrain3D {
    /// The surface role (`ground`, `grass`, `rock`, `cliff`, `sediment`, `sand`, `snow`,
    /// `wet_ground` or `underwater`) of the sample nearest to `world_position`; an empty name
    /// outside the terrain or before the first generation.
    #[func]
    pub fn get_surface_role(&self, world_position: Vector3) -> StringName {
        let Some(p) = self.prepared().clone() else {
            return StringName::default();
        };
        let Some(xf) = self
            .view
            .xform
            .get_with(|| self.base().get_global_transform())
        else {
            return StringName::default();
        };
        let local = xf.local_point(world_position);
        let grid = *p.field.grid();
        if !grid.contains(local.x, local.z) {
            return StringName::default();
        }
        let Some((x, z)) = grid.nearest_sample(local.x, local.z) else {
            return StringName::default();
        };
        let role = surface_classes::role_at(&p, grid.index(x, z)) as usize;
        StringName::from(ROLE_NAMES.get(role).copied().unwrap_or(""))
    }

    /// The surface role id (0 ground … 8 underwater, the order of [method get_surface_role]'s
    /// names) of every sample, row-major (`z * samples_x + x`); empty before the first
    /// generation.
    #[func]
    pub fn get_sample_roles(&self) -> PackedByteArray {
        match self.prepared().clone() {
            Some(p) => PackedByteArray::from(surface_classes::of(&p).role_ids.as_slice()),
            None => PackedByteArray::new(),
        }
    }

    /// Handler of the material set's and its layers' `changed` signals (connected deferred).
    #[func]
    fn _on_material_changed(&mut self) {
        self.connect_material_resources();
        self.refresh_materials();
    }

    /// Work counters for tests: `resource_builds` (chunk meshes and collision built for the
    /// whole terrain), `chunk_updates` (chunks rebuilt by edits), `array_packs`,
    /// `control_builds`, `control_updates`, `material_refreshes` and `array_size` (0 = no
    /// arrays).
    #[func]
    fn _test_counters(&self) -> VarDictionary {
        let c = self.materials.counters;
        let mut d = VarDictionary::new();
        d.set("resource_builds", self.resource_builds as i64);
        d.set("chunk_updates", self.chunk_updates as i64);
        d.set("array_packs", c.array_packs as i64);
        d.set("control_builds", c.control_builds as i64);
        d.set("control_updates", c.control_updates as i64);
        d.set("material_refreshes", c.refreshes as i64);
        let size = self.materials.arrays.as_ref().map_or(0, |a| a.size);
        d.set("array_size", size as i64);
        d
    }

    /// For tests: the value the terrain last gave the surface shader's parameter `name`
    /// (`null` when never set).
    #[func]
    fn _test_shader_parameter(&self, name: GString) -> Variant {
        self.materials
            .surface
            .param(&name.to_string())
            .cloned()
            .unwrap_or_default()
    }
}

impl Terrain3D {
    /// [member material_set]'s setter: listens to the new set and updates the material.
    pub(super) fn material_set_changed(&mut self) {
        self.materials.warned.clear();
        self.connect_material_resources();
        self.refresh_materials();
    }

    /// [member look]'s setter: switches the shader of the shared material only.
    pub(super) fn look_changed(&mut self) {
        self.materials
            .surface
            .set_faceted(self.look == Look::Faceted);
        self.refresh_materials();
    }

    /// Listens (deferred) to the set's and its layers' `changed` signals, and to nothing else.
    fn connect_material_resources(&mut self) {
        let mut wanted: Vec<Gd<Resource>> = Vec::new();
        if let Some(set) = &self.material_set {
            wanted.push(set.clone().upcast());
            let layers = set.bind().layer_list();
            for l in layers {
                let r: Gd<Resource> = l.upcast();
                if !wanted.contains(&r) {
                    wanted.push(r);
                }
            }
        }
        let callable = Callable::from_object_method(&self.to_gd(), "_on_material_changed");
        for mut old in std::mem::take(&mut self.materials.connected) {
            if !wanted.contains(&old) && old.is_connected("changed", &callable) {
                old.disconnect("changed", &callable);
            }
        }
        for r in &wanted {
            let mut r = r.clone();
            if !r.is_connected("changed", &callable) {
                r.connect_flags("changed", &callable, ConnectFlags::DEFERRED);
            }
        }
        self.materials.connected = wanted;
    }

    fn warn_once(&mut self, message: String) {
        if !self.materials.warned.contains(&message) {
            godot_warn!("Terrain3D: {message}");
            self.materials.warned.push(message);
        }
    }

    /// Brings every material parameter up to date: resolves the set, repacks the arrays when a
    /// texture changed, rebuilds the control texture when the layer table changed, and sets the
    /// uniforms of both looks.
    pub(super) fn refresh_materials(&mut self) {
        self.materials.counters.refreshes += 1;
        let prepared = self.prepared().clone();
        let classes = prepared.as_ref().map(|p| surface_classes::of(p));
        let biomes: Vec<(String, Option<String>)> = classes
            .as_ref()
            .map(|c| {
                c.biomes
                    .iter()
                    .map(|b| (b.name.clone(), b.material.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let resolved = self
            .material_set
            .as_ref()
            .map(|s| s.bind().resolve(&biomes));
        let mut layer_count = 0usize;
        let mut table = LayerTable::identity();
        let mut snapshots = Vec::new();
        if let Some(r) = resolved {
            for w in r.warnings {
                self.warn_once(w);
            }
            snapshots = r
                .layers
                .iter()
                .map(|l| l.bind().snapshot())
                .collect::<Vec<_>>();
            let mut key: Vec<i64> = snapshots.iter().flat_map(|s| s.pack_key()).collect();
            key.push(r.texture_size as i64);
            if self.materials.arrays.is_none() || key != self.materials.pack_key {
                match texture_arrays::pack(&snapshots, r.texture_size) {
                    Ok(arrays) => {
                        self.materials.arrays = Some(arrays);
                        self.materials.counters.array_packs += 1;
                    }
                    Err(e) => {
                        godot_error!("Terrain3D.material_set: {e}; drawing the tint look");
                        self.materials.arrays = None;
                    }
                }
                self.materials.pack_key = key;
            }
            if self.materials.arrays.is_some() {
                layer_count = snapshots.len();
                table = r.table;
            }
        } else {
            self.materials.arrays = None;
            self.materials.pack_key.clear();
        }
        // The border walls show the first biome's cliff layer (both looks' shaders).
        let wall_layer = i32::from(table.layer(0, ridgeline_core::biome::roles::Role::Cliff as u8));
        if let Some(c) = &classes {
            self.update_control_map(c, table);
        }
        let m = &mut self.materials;
        let s = &mut m.surface;
        if let Some(a) = &m.arrays
            && layer_count > 0
        {
            s.set(
                "albedo_height_array",
                a.albedo_height.get_rid().to_variant(),
            );
            s.set(
                "normal_roughness_array",
                a.normal_roughness.get_rid().to_variant(),
            );
            s.set("layer_tiling", floats(snapshots.iter().map(|l| l.tiling_m)));
            s.set(
                "layer_triplanar",
                floats(
                    snapshots
                        .iter()
                        .map(|l| if l.triplanar { 1.0 } else { 0.0 }),
                ),
            );
            s.set(
                "layer_blend_contrast",
                floats(snapshots.iter().map(|l| l.blend_contrast)),
            );
            s.set(
                "layer_anti_tiling",
                floats(snapshots.iter().map(|l| l.anti_tiling)),
            );
            s.set(
                "layer_normal_strength",
                floats(snapshots.iter().map(|l| l.normal_strength)),
            );
            s.set("palette", colors(a.flat_colors.iter().copied()));
            s.set("palette_count", (a.flat_colors.len() as i32).to_variant());
        } else {
            let palette = ROLE_PALETTE
                .iter()
                .map(|c| Color::from_rgba8(c[0], c[1], c[2], 255));
            s.set("palette", colors(palette));
            s.set("palette_count", (ROLE_PALETTE.len() as i32).to_variant());
        }
        s.set("layer_count", (layer_count as i32).to_variant());
        s.set("wall_layer", wall_layer.to_variant());
        if let Some(rid) = m.control.rid() {
            s.set("control_map", rid.to_variant());
            s.set("control_layout", m.control.shader_layout().to_variant());
        }
        if let Some(c) = &classes {
            let tints = c.biomes.iter().map(|b| {
                let t = control_map::material_tint(b.color, TINT_STRENGTH);
                Color::from_rgba(t[0], t[1], t[2], 1.0)
            });
            s.set("biome_tint", colors(tints));
            s.set(
                "biome_texture_scale",
                floats(c.biomes.iter().map(|b| b.texture_scale)),
            );
            s.set(
                "biome_count",
                (c.biomes.len().min(MAX_ENTRIES) as i32).to_variant(),
            );
        }
        if let Some(p) = &prepared {
            let [sx, sz] = p.field.grid().size();
            s.set("terrain_size", Vector2::new(sx, sz).to_variant());
            let c = p.biome_color;
            s.set(
                "biome_color",
                Color::from_rgba(c[0], c[1], c[2], c[3]).to_variant(),
            );
            let [lo, hi] = p.field.height_range();
            s.set("min_height", lo.to_variant());
            s.set("max_height", hi.to_variant());
        }
        s.set("surface_blending", self.surface_blending.to_variant());
        s.set_faceted(self.look == Look::Faceted);
        // A new surface: the overlay's height range and exclusion mask follow it.
        self.refresh_overlay(true);
        // A new surface (or grid) may carry other user channels: reload them next frame.
        if let Some(p) = &prepared {
            let [w, h] = p.field.grid().samples();
            if self.user_paint.texture.rid().is_some() {
                self.mark_user_channels(ridgeline_core::edit::Rect::new(0, 0, w, h));
            }
        }
        self.apply_user_tint();
    }

    /// Encodes the whole control texture when the grid or the layer table changed.
    fn update_control_map(&mut self, c: &SurfaceClasses, table: LayerTable) {
        let Some(p) = self.prepared().clone() else {
            return;
        };
        let [w, d] = p.field.grid().samples();
        let m = &mut self.materials;
        if m.control.rid().is_some()
            && m.control.samples() == [w, d]
            && m.table.as_ref() == Some(&table)
        {
            return;
        }
        // The whole map is encoded once (row-parallel) and dropped after the upload.
        let texels = control_map::encode(w, d, &c.role_ids, &c.biome_ids, &table);
        m.control.free();
        if m.control.ensure([w, d], &texels).is_none() {
            godot_error!("Terrain3D: could not create the {w}×{d} control texture");
            return;
        }
        m.table = Some(table);
        m.counters.control_builds += 1;
    }

    /// Marks the control texels around `rect` (samples changed by an edit) for re-encoding:
    /// the tiles under it are encoded from the current classes and uploaded on the next frame,
    /// once for every edit of the frame (`flush_paint_uploads`). Heights, meshes and collision
    /// are not involved.
    pub(super) fn update_control_rect(&mut self, x0: usize, z0: usize, x1: usize, z1: usize) {
        let Some(p) = self.prepared().clone() else {
            return;
        };
        let [w, d] = p.field.grid().samples();
        let m = &mut self.materials;
        if m.table.is_none() || m.control.rid().is_none() || m.control.samples() != [w, d] {
            return;
        }
        // Roles depend on slope and water around a sample; overlays on the 8 neighbours.
        let rect = control_map::grow(
            control_map::grow(control_map::grow(TexelRect { x0, z0, x1, z1 }, w, d), w, d),
            w,
            d,
        );
        m.control.mark(ridgeline_core::edit::Rect {
            x0: rect.x0,
            z0: rect.z0,
            x1: rect.x1,
            z1: rect.z1,
        });
        self.user_paint.control_pending = true;
        self.want_process();
    }

    /// Encodes and uploads the control tiles edits marked. The CPU work is proportional to
    /// the tiles: classes are read and texels encoded only over each tile (plus the one sample
    /// around it the encoding looks at).
    pub(super) fn upload_control_texture(&mut self) {
        let Some(p) = self.prepared().clone() else {
            return;
        };
        let m = &mut self.materials;
        let Some(table) = m.table.clone() else {
            return;
        };
        let [w, d] = m.control.samples();
        if p.field.grid().samples() != [w, d] {
            return;
        }
        let fill = |[x0, z0, x1, z1]: [usize; 4], out: &mut [u8], stride: usize| {
            let rect = TexelRect { x0, z0, x1, z1 };
            let win = control_map::grow(rect, w, d);
            let (ww, wd) = (win.x1 - win.x0, win.z1 - win.z0);
            let (roles, biomes) = surface_classes::window(&p, win.x0, win.z0, win.x1, win.z1);
            let inner = TexelRect {
                x0: rect.x0 - win.x0,
                z0: rect.z0 - win.z0,
                x1: rect.x1 - win.x0,
                z1: rect.z1 - win.z0,
            };
            let mut sub = vec![0u8; ww * wd * 4];
            control_map::encode_rect(ww, wd, &roles, &biomes, &table, inner, &mut sub);
            let rw = x1 - x0;
            for z in z0..z1 {
                let src = ((z - win.z0) * ww + inner.x0) * 4;
                let dst = (z - z0) * stride * 4;
                out[dst..dst + rw * 4].copy_from_slice(&sub[src..src + rw * 4]);
            }
        };
        if m.control.flush_with(&fill) > 0 {
            m.counters.control_updates += 1;
        }
    }

    /// Hands [member user_tint_channel] and [member user_tint_color] to the shaders.
    pub(super) fn apply_user_tint(&mut self) {
        if self.user_tint_channel >= 0 {
            self.ensure_user_channel_texture();
        }
        let s = &mut self.materials.surface;
        s.set("user_tint_channel", self.user_tint_channel.to_variant());
        s.set("user_tint_color", self.user_tint_color.to_variant());
    }
}
