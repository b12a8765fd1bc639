//! Water queries from GDScript: `TerrainWater.sample`, `WaterSample`, `WaterTracker`,
//! `WaterEvent`. No renderer dependency; never generates on demand.

use crate::terrain3d::Terrain3D;
use godot::prelude::*;

/// One water query result, in world space.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct WaterSample {
    /// The terrain placement ([member Terrain3D.terrain_id], or its node path when empty).
    #[var]
    pub terrain_id: GString,
    /// The water body's stable id.
    #[var]
    pub body_id: GString,
    /// `"lake"`, `"ocean"` or `"river"`.
    #[var]
    pub kind: GString,
    /// World-space surface point: the query projected along terrain-local up.
    #[var]
    pub surface: Vector3,
    /// World-space unit surface normal.
    #[var]
    pub normal: Vector3,
    /// Bed-to-surface depth in world units along terrain-local up.
    #[var]
    pub depth: f32,
    /// World-space unit axis from the bed toward the surface (follows the placement, including a
    /// flipped local Y).
    #[var]
    pub column_up: Vector3,
    /// Prescribed current in world units per second.
    #[var]
    pub flow_velocity: Vector3,
    /// True when the queried point is at or above the bed and below the surface.
    #[var]
    pub underwater: bool,
    /// Identity for trackers: terrain instance + body (private).
    pub identity: (i64, String),
    base: Base<RefCounted>,
}

/// A tracker event: `phase` is `"enter"`, `"exit"` or `"stay"`.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct WaterEvent {
    /// `"enter"`, `"exit"` or `"stay"`.
    #[var]
    pub phase: GString,
    /// The sample (for `exit`, the last immersed sample).
    #[var]
    pub sample: Option<Gd<WaterSample>>,
    base: Base<RefCounted>,
}

/// Follows one point's immersion across updates. The first update inside water emits `enter`;
/// staying in the same body emits `stay` on every update; switching bodies emits `exit` then
/// `enter`; leaving emits `exit` once, and later outside updates return an empty array. Terrain
/// unload, disable and regeneration show on the next update. Identity includes the terrain
/// placement and the body, so equal body ids on different terrains do not mix.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct WaterTracker {
    filter: GString,
    current: Option<Gd<WaterSample>>,
    base: Base<RefCounted>,
}

#[godot_api]
impl WaterTracker {
    /// Samples `position` (world space) and returns the events since the last update, in order.
    #[func]
    pub fn update(&mut self, position: Vector3) -> Array<Gd<WaterEvent>> {
        let mut events = Array::new();
        let sample = sample_terrains(position, &self.filter).filter(|s| s.bind().underwater);
        let event = |phase: &str, s: &Gd<WaterSample>| {
            let mut e = WaterEvent::new_gd();
            {
                let mut b = e.bind_mut();
                b.phase = GString::from(phase);
                b.sample = Some(s.clone());
            }
            e
        };
        match (&self.current, &sample) {
            (None, None) => {}
            (None, Some(s)) => events.push(&event("enter", s)),
            (Some(old), None) => events.push(&event("exit", old)),
            (Some(old), Some(s)) => {
                if old.bind().identity == s.bind().identity {
                    events.push(&event("stay", s));
                } else {
                    events.push(&event("exit", old));
                    events.push(&event("enter", s));
                }
            }
        }
        self.current = sample;
        events
    }

    /// The immersed sample retained by the latest update, or null.
    #[func]
    pub fn current(&self) -> Option<Gd<WaterSample>> {
        self.current.clone()
    }

    /// Forgets the current state without emitting an event.
    #[func]
    pub fn reset(&mut self) {
        self.current = None;
    }
}

/// Water queries over loaded terrains.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
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

    /// A tracker following one point, with the same optional terrain filter.
    #[func]
    pub fn tracker(#[opt(default = "")] terrain_id: GString) -> Gd<WaterTracker> {
        let mut t = WaterTracker::new_gd();
        t.bind_mut().filter = terrain_id;
        t
    }
}

fn sample_terrains(position: Vector3, filter: &GString) -> Option<Gd<WaterSample>> {
    for terrain in crate::terrain3d::live_terrains() {
        let t = terrain.bind();
        if !filter.is_empty() && t.placement_id() != *filter {
            continue;
        }
        if let Some(s) = t.water_sample(position) {
            return Some(s);
        }
    }
    None
}

/// Builds a sample from terrain-local results (called by [`Terrain3D::water_sample`]).
pub(crate) fn make_sample(
    terrain: &Terrain3D,
    xf: &Transform3D,
    local: Vector3,
    s: &ridgeline_core::hydrology::water::WaterSample,
) -> Gd<WaterSample> {
    let up_world = xf.basis * Vector3::UP;
    let scale_up = up_world.length();
    let surface_local = Vector3::new(local.x, s.surface, local.z);
    let bed = s.surface - s.depth;
    let n = Vector3::new(s.normal[0], s.normal[1], s.normal[2]);
    let mut out = WaterSample::new_gd();
    {
        let mut b = out.bind_mut();
        b.terrain_id = terrain.placement_id();
        b.body_id = GString::from(s.body_id.as_str());
        b.kind = GString::from(s.kind.name());
        b.surface = *xf * surface_local;
        b.normal = (xf.basis.inverse().transposed() * n).normalized();
        b.depth = s.depth * scale_up;
        b.column_up = if scale_up > 0.0 {
            up_world / scale_up
        } else {
            Vector3::UP
        };
        b.flow_velocity = xf.basis * Vector3::new(s.flow[0], 0.0, s.flow[1]);
        b.underwater = local.y >= bed && local.y < s.surface;
        b.identity = (terrain.instance_key(), s.body_id.clone());
    }
    out
}
