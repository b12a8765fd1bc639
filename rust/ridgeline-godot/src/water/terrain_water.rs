//! `TerrainWater`: water queries over the loaded terrains.

use super::column::column_at;
use super::sample::{WaterSample, make_sample};
use super::tracker::WaterTracker;
use godot::prelude::*;

/// Water queries over every loaded terrain: the entry point of Ridgeline's water API.
///
/// Water published by a terrain's graph (water bodies, basins, rivers) is queryable without any
/// renderer, and never generates on demand. [method sample] answers one point;
/// [method tracker] follows one point over time.
/// [codeblock]
/// var s := TerrainWater.sample(global_position)
/// if s and s.underwater:
///     apply_central_force(s.column_up * s.depth * 20.0 + s.flow_velocity)
/// [/codeblock]
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct TerrainWater {
    base: Base<RefCounted>,
}

#[godot_api]
impl TerrainWater {
    /// The water column at world `position` on the terrain whose id is `terrain_id` (empty:
    /// every loaded, visible terrain; the first wet one wins in tree order). Returns null when
    /// dry or when no prepared terrain is there. A wet column returns a sample even when the
    /// point is above the surface or below the bed: check [member WaterSample.underwater].
    #[func]
    pub fn sample(
        position: Vector3,
        #[opt(default = "")] terrain_id: GString,
    ) -> Option<Gd<WaterSample>> {
        sample_terrains(position, &terrain_id)
    }

    /// [method sample] into an existing [WaterSample], the form for hot loops: no object is
    /// created per call. Returns true and fills every member of `into` for a wet column;
    /// returns false and leaves `into` unchanged when dry or when no prepared terrain is there.
    /// [codeblock]
    /// var s := WaterSample.new()
    /// for body in bodies:
    ///     if TerrainWater.sample_into(body.global_position, s) and s.underwater:
    ///         body.apply_central_force(s.column_up * s.depth * 20.0)
    /// [/codeblock]
    #[func]
    pub fn sample_into(
        position: Vector3,
        mut into: Gd<WaterSample>,
        #[opt(default = "")] terrain_id: GString,
    ) -> bool {
        column_at(position, &terrain_id, |t, column| {
            into.bind_mut().fill(t, &column);
        })
        .is_some()
    }

    /// The water depth (bed to surface, world units along [member WaterSample.column_up]) at
    /// world `position`, 0 when dry or when no prepared terrain is there: the cheapest water
    /// query (no object). Same terrain filter as [method sample].
    #[func]
    pub fn depth_at(position: Vector3, #[opt(default = "")] terrain_id: GString) -> f32 {
        column_at(position, &terrain_id, |_, column| {
            super::column::WorldColumn::of(&column).depth
        })
        .unwrap_or(0.0)
    }

    /// A [WaterTracker] following one point, with the same optional terrain filter as
    /// [method sample].
    #[func]
    pub fn tracker(#[opt(default = "")] terrain_id: GString) -> Gd<WaterTracker> {
        let mut t = WaterTracker::new_gd();
        t.bind_mut().filter = terrain_id;
        t
    }
}

/// The first wet column at `position` among the live terrains matching `filter`.
pub fn sample_terrains(position: Vector3, filter: &GString) -> Option<Gd<WaterSample>> {
    column_at(position, filter, |t, column| make_sample(t, &column))
}
