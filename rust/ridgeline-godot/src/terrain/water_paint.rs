//! Painting water at runtime: [method paint_water] writes `paint_water` strokes (the core's
//! `edit::water`): a depth per grid sample that lowers the bed below the drawn water surface,
//! and in level mode moves the surface to a water level, so a pond painted into a dip comes
//! out flat and full.

use super::Terrain3D;
use godot::prelude::*;
use ridgeline_core::edit::water::MAX_WATER_DEPTH;

#[godot_api(secondary)]
impl Terrain3D {
    /// The deepest water [method paint_water] paints, in terrain-local units (metres; 8): a
    /// sample's painted depth is a fraction 0–1 of it.
    #[func]
    pub fn get_max_water_depth() -> f32 {
        MAX_WATER_DEPTH
    }

    /// Paints water on the grid samples within `radius` (terrain-local units, > 0) of `center`
    /// (a world position; its terrain-local X/Z is used), with brush weight `strength` 0–1
    /// (full inside half the radius, then a smooth fade to 0 at the radius: the stroke's
    /// default falloff of 0.5; see docs/water.md).
    ///
    /// Each sample's water depth moves toward `depth` (metres, 0 to
    /// [method get_max_water_depth]; 0 removes water) by the weight. The water surface stays where
    /// the ground was and the ground under it — what [method get_height], the meshes and
    /// collision show — is lowered by the depth, so [method get_height] +
    /// [method get_water_depth] is the water surface. With a `level` (not NAN: the
    /// terrain-local height of the point above `center` at world height `level`), the surface
    /// also moves toward that level by the same weight, so a pond painted into a dip comes out
    /// flat and full.
    ///
    /// Painted water is its own kind of water ([constant WaterSample.KIND_PAINTED], body id
    /// `"painted"`, no current) for [method TerrainWater.sample], the trackers,
    /// [method get_water_depth] and [method get_surface] ([constant SURFACE_WATER]); where a
    /// lake, river or ocean is wet, that body answers. The write is a `paint_water` stroke in a
    /// sculpt layer (replayed on regeneration, undone by [method undo_stroke], saved by
    /// [method get_runtime_strokes]); [signal terrain_changed] reports
    /// [constant LAYER_WATER] and [constant LAYER_HEIGHT]. Returns false with an error —
    /// nothing changed, no signal — for a non-finite position or level, a non-finite or
    /// non-positive radius, a depth outside 0–[method get_max_water_depth] or a strength outside
    /// 0–1.
    #[func]
    pub fn paint_water(
        &mut self,
        center: Vector3,
        radius: f32,
        depth: f32,
        #[opt(default = 1.0)] strength: f32,
        #[opt(default = f32::NAN)] level: f32,
    ) -> bool {
        if !center.is_finite() {
            godot_error!(
                "Terrain3D.paint_water: center must be finite, got {center}; nothing changed"
            );
            return false;
        }
        if level.is_infinite() {
            godot_error!(
                "Terrain3D.paint_water: level must be finite (or NAN for none), got {level}; nothing changed"
            );
            return false;
        }
        let Some(local) = self.local_xz("paint_water", center) else {
            return false;
        };
        let level = if level.is_nan() {
            None
        } else {
            let Some(l) = self.local_height("paint_water", Vector3::new(center.x, level, center.z))
            else {
                return false;
            };
            Some(l)
        };
        self.edit("paint_water", |s| {
            s.paint_water(local, radius, depth, strength, level)
                .map_err(|e| format!("{e}; nothing changed"))
        })
    }

    /// The terrain-local height of `world`, or `None` with an error when the transform is
    /// unusable.
    fn local_height(&self, what: &str, world: Vector3) -> Option<f32> {
        match self
            .view
            .xform
            .get_with(|| self.base().get_global_transform())
        {
            Some(xf) => Some(xf.local_point(world).y),
            None => {
                godot_error!("Terrain3D.{what}: the terrain has no usable transform");
                None
            }
        }
    }
}
