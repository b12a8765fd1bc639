//! `WorldColumn`: a water column in world space, without allocating a [`super::sample::WaterSample`]
//! object; what buoyancy, swimming and the sensor read each physics step.

use crate::terrain::registry::find_live;
use crate::terrain::{TerrainHandle, WaterColumn};
use godot::prelude::*;

/// A wet column at a world position.
pub struct WorldColumn {
    /// World-space unit axis from the bed toward the surface.
    pub column_up: Vector3,
    /// Bed-to-surface depth, world units.
    pub depth: f32,
    /// Prescribed current, world units per second.
    pub flow: Vector3,
    /// Height of the queried point above the surface along `column_up` (negative below).
    pub height_above_surface: f32,
}

impl WorldColumn {
    /// The world-space column of a terrain's water column.
    pub fn of(column: &WaterColumn) -> Self {
        let WaterColumn {
            to_world: xf,
            local,
            sample: s,
        } = column;
        let up_world = xf.basis * Vector3::UP;
        let scale_up = up_world.length();
        let column_up = if scale_up > 0.0 {
            up_world / scale_up
        } else {
            Vector3::UP
        };
        let flow_local = Vector3::new(s.flow[0], s.flow_rise, s.flow[1]);
        WorldColumn {
            column_up,
            depth: s.depth * scale_up,
            flow: xf.basis * flow_local,
            height_above_surface: (local.y - s.surface) * scale_up,
        }
    }
}

/// The first wet column at world `position` among the live terrains whose placement id is
/// `filter` (empty: every terrain), with its terrain. Allocates nothing and, for a terrain whose
/// transform is cached, makes no engine call.
pub fn column_at<R>(
    position: Vector3,
    filter: &GString,
    f: impl FnOnce(&TerrainHandle, WaterColumn) -> R,
) -> Option<R> {
    let mut f = Some(f);
    find_live(|t| {
        if !filter.is_empty() && t.placement_id() != *filter {
            return None;
        }
        let column = t.water_column(position)?;
        f.take().map(|f| f(t, column))
    })
}
