//! `Terrain3D`'s four user channels: game-defined per-sample data (cut grass, wetness, named
//! areas) written with [method set_user_channel] as `user_channel` strokes (the core's
//! `edit::paint`) and read back with [method get_user_channel]; their GPU texture, uploaded
//! tile by tile once per frame.

use super::Terrain3D;
use crate::convert::panic_guard::or_report;
use crate::render::paint_texture::PaintTexture;
use crate::resources::user_channel::TerrainUserChannel;
use godot::prelude::*;
use ridgeline_core::edit::paint::USER_CHANNELS;

/// What the terrain keeps for its user channels besides the exported properties.
#[derive(Default)]
pub struct UserChannelState {
    /// Which channels are id channels (read from [member Terrain3D.user_channel_types]).
    pub ids: [bool; USER_CHANNELS],
    /// The user channels' GPU texture (`user_channel_map` in the shaders).
    pub texture: PaintTexture,
    /// Control-texture uploads waiting for the next frame (see `materials`).
    pub control_pending: bool,
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Writes `value` into user channel `channel` (0–3) on every grid sample within `radius`
    /// (terrain-local units, > 0) of `center` (a world position; its terrain-local X/Z is used).
    /// A [constant TerrainUserChannel.KIND_VALUE] channel (the default for an unconfigured one)
    /// takes `value` in 0–1; a [constant TerrainUserChannel.KIND_ID] channel a whole id 0–255.
    ///
    /// The write is a `user_channel` stroke (replayed on regeneration, undone by
    /// [method undo_stroke], saved by [method get_runtime_strokes]). Repeated writes with the
    /// same channel, radius and value merge into one stroke (one undo step) and a write at the
    /// last position is dropped, so writing every physics tick does not grow the history per
    /// tick. [signal terrain_changed] follows with [constant LAYER_USER_CHANNELS]; the GPU
    /// texture is updated on the next frame, only the touched tiles. Returns false with an
    /// error — nothing changed, no signal — for an unknown channel, a non-finite or
    /// non-positive radius, a non-finite position, or a value out of range.
    #[func]
    pub fn set_user_channel(
        &mut self,
        channel: i32,
        center: Vector3,
        radius: f32,
        value: f32,
    ) -> bool {
        let Some(ch) = self.channel_index("set_user_channel", channel) else {
            return false;
        };
        let id = self.user_channel_is_id(ch);
        let check = if !radius.is_finite() || radius <= 0.0 {
            Some(format!("radius must be finite and > 0, got {radius}"))
        } else if !center.is_finite() {
            Some(format!("center must be finite, got {center}"))
        } else if id && (value.fract() != 0.0 || !(0.0..=255.0).contains(&value)) {
            Some(format!(
                "channel {ch} is an id channel: value must be a whole id 0..=255, got {value}"
            ))
        } else if !id && !(0.0..=1.0).contains(&value) {
            Some(format!(
                "channel {ch} is a value channel: value must be 0..=1, got {value}"
            ))
        } else {
            None
        };
        if let Some(why) = check {
            godot_error!("Terrain3D.set_user_channel: {why}; nothing changed");
            return false;
        }
        let Some(local) = self.local_xz("set_user_channel", center) else {
            return false;
        };
        // Typed, no JSON: a write that extends the last stroke (every physics tick of a run)
        // skips building and parsing one; the core records the same stroke either way.
        self.edit("set_user_channel", |s| {
            s.apply_user_channel_stamp(ch as u8, value, id, local, radius)
                .map_err(|e| e.to_string())
        })
    }

    /// The value of user channel `channel` (0–3) at the grid sample nearest to
    /// `world_position`: 0–1 for a value channel, the id (a whole number) for an id channel;
    /// 0 where never written, outside the terrain or before the first generation. NAN with an
    /// error for an unknown channel.
    #[func]
    pub fn get_user_channel(&self, channel: i32, world_position: Vector3) -> f32 {
        let Some(ch) = self.channel_index("get_user_channel", channel) else {
            return f32::NAN;
        };
        let scale = if self.user_channel_is_id(ch) {
            1.0
        } else {
            1.0 / 255.0
        };
        self.surface(0.0, |p, xf| {
            let l = xf.local_point(world_position);
            let grid = p.field.grid();
            // `nearest_sample` is `None` exactly outside the terrain.
            match grid.nearest_sample(l.x, l.z) {
                Some((x, z)) => p.paint.layers.user(grid.index(x, z), ch) as f32 * scale,
                None => 0.0,
            }
        })
    }

    /// [method get_user_channel] for many positions at once (one value per position; empty
    /// with an error for an unknown channel).
    #[func]
    pub fn get_user_channels(
        &self,
        channel: i32,
        world_positions: PackedVector3Array,
    ) -> PackedFloat32Array {
        let Some(ch) = self.channel_index("get_user_channels", channel) else {
            return PackedFloat32Array::new();
        };
        let scale = if self.user_channel_is_id(ch) {
            1.0
        } else {
            1.0 / 255.0
        };
        let zeros =
            || PackedFloat32Array::from_iter(world_positions.as_slice().iter().map(|_| 0.0));
        self.surface(zeros(), |p, xf| {
            or_report("Terrain3D.get_user_channels", zeros(), || {
                let grid = p.field.grid();
                PackedFloat32Array::from_iter(world_positions.as_slice().iter().map(|w| {
                    let l = xf.local_point(*w);
                    match grid.nearest_sample(l.x, l.z) {
                        Some((x, z)) => p.paint.layers.user(grid.index(x, z), ch) as f32 * scale,
                        None => 0.0,
                    }
                }))
            })
        })
    }

    /// For tests and benches: `flushes` (frames that uploaded user-channel tiles),
    /// `tile_uploads` (tiles uploaded in total), `tile_size` (texels per tile edge) and
    /// `pending` (whether tiles wait for the next frame).
    #[func]
    fn _test_user_channel_uploads(&self) -> VarDictionary {
        let t = &self.user_paint.texture;
        let mut d = VarDictionary::new();
        d.set("flushes", t.flushes as i64);
        d.set("tile_uploads", t.tile_uploads as i64);
        d.set("tile_size", t.layout().0 as i64);
        d.set("pending", t.is_dirty());
        d
    }
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Handler of a user channel type's `changed` signal: its kind is read again, so a kind
    /// edited in the inspector or from a script applies to the next write and read.
    #[func]
    fn _on_user_channel_type_changed(&mut self) {
        self.refresh_user_channel_kinds();
    }
}

impl Terrain3D {
    /// Keeps at most four channel types (an error names the rest), follows their `changed`
    /// signals and re-reads their kinds.
    pub(super) fn store_user_channel_types(
        &mut self,
        channels: Array<Option<Gd<TerrainUserChannel>>>,
    ) {
        if channels.len() > USER_CHANNELS {
            godot_error!(
                "Terrain3D.user_channel_types: at most {USER_CHANNELS} channels, got {}; keeping the first {USER_CHANNELS}",
                channels.len()
            );
        }
        let mut kept: Array<Option<Gd<TerrainUserChannel>>> = Array::new();
        for c in channels.iter_shared().take(USER_CHANNELS) {
            kept.push(c.as_ref());
        }
        let call = Callable::from_object_method(&self.to_gd(), "_on_user_channel_type_changed");
        for mut c in self.user_channel_types.iter_shared().flatten() {
            if c.is_connected("changed", &call) {
                c.disconnect("changed", &call);
            }
        }
        for mut c in kept.iter_shared().flatten() {
            if !c.is_connected("changed", &call) {
                c.connect("changed", &call);
            }
        }
        self.user_channel_types = kept;
        self.refresh_user_channel_kinds();
    }

    /// `channel` as an index, or an error naming `what`.
    pub(super) fn channel_index(&self, what: &str, channel: i32) -> Option<usize> {
        match usize::try_from(channel) {
            Ok(c) if c < USER_CHANNELS => Some(c),
            _ => {
                godot_error!(
                    "Terrain3D.{what}: no user channel {channel}; channels are 0..={}",
                    USER_CHANNELS - 1
                );
                None
            }
        }
    }

    fn user_channel_is_id(&self, ch: usize) -> bool {
        self.user_paint.ids[ch]
    }

    /// Re-reads which channels are id channels.
    pub(super) fn refresh_user_channel_kinds(&mut self) {
        let mut ids = [false; USER_CHANNELS];
        for (i, c) in self
            .user_channel_types
            .iter_shared()
            .take(USER_CHANNELS)
            .enumerate()
        {
            ids[i] = c.is_some_and(|c| c.bind().is_id());
        }
        self.user_paint.ids = ids;
    }

    /// The terrain-local X/Z of a world position, or an error naming `what`.
    pub(super) fn local_xz(&self, what: &str, world: Vector3) -> Option<[f32; 2]> {
        match self
            .view
            .xform
            .get_with(|| self.base().get_global_transform())
        {
            Some(xf) => {
                let l = xf.local_point(world);
                Some([l.x, l.z])
            }
            None => {
                godot_error!("Terrain3D.{what}: the terrain has no usable transform");
                None
            }
        }
    }

    /// Marks the user-channel tiles under `rect` (samples) for the next frame's upload.
    pub(super) fn mark_user_channels(&mut self, rect: ridgeline_core::edit::Rect) {
        self.ensure_user_channel_texture();
        self.user_paint.texture.mark(rect);
        if self.user_paint.texture.is_dirty() {
            // `_process` runs only while something is pending (see `processing`).
            self.want_process();
        }
    }

    /// Creates the user-channel texture for the current grid and hands it to the material.
    pub(super) fn ensure_user_channel_texture(&mut self) {
        let Some(p) = self.prepared().clone() else {
            return;
        };
        let samples = p.field.grid().samples();
        let had = self.user_paint.texture.rid();
        if let Some(rid) = self
            .user_paint
            .texture
            .ensure(samples, p.paint.layers.user_bytes())
            && had != Some(rid)
        {
            let (tile, tiles_x) = self.user_paint.texture.layout();
            let s = &mut self.materials.surface;
            s.set("user_channel_map", rid.to_variant());
            s.set("user_channel_tile", (tile as i32).to_variant());
            s.set("user_channel_tiles_x", (tiles_x as i32).to_variant());
        }
    }

    /// Uploads what this frame's writes dirtied: the user-channel tiles and the control
    /// texture (called from `_process`). True when something was pending.
    pub(super) fn flush_paint_uploads(&mut self) -> bool {
        let pending = self.paint_upload_pending();
        if self.user_paint.texture.is_dirty() {
            let p = self.prepared().clone();
            if let Some(p) = p {
                self.user_paint.texture.flush(p.paint.layers.user_bytes());
            }
        }
        if self.user_paint.control_pending {
            self.user_paint.control_pending = false;
            self.upload_control_texture();
        }
        pending
    }

    /// True while a paint write waits for its upload.
    pub(super) fn paint_upload_pending(&self) -> bool {
        self.user_paint.texture.is_dirty() || self.user_paint.control_pending
    }
}
