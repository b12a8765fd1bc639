//! `TerrainWaterSensor`: signals when a point enters, stays in and leaves terrain water.

use super::event::WaterPhase;
use super::tracker::WaterTracker;
use godot::classes::{INode3D, Node3D};
use godot::prelude::*;

/// Signals when a point enters, stays in and leaves terrain water: place it where the point
/// is (a child of a character's head, a boat's hull, a torch).
///
/// Once per physics step it samples the point [member vertical_offset] above its global
/// position (along world up) with a [WaterTracker] and emits what the tracker reports:
/// [signal water_entered] on entering a body (also after switching bodies, right after
/// [signal water_exited] of the old one), [signal water_stayed] while still in the same body
/// (only with [member emit_stayed]), [signal water_exited] once on leaving, with the last
/// immersed sample. Terrain unload, hiding and regeneration show on the next step, like the
/// tracker. Each signal carries the [WaterSample].
#[derive(GodotClass)]
#[class(init, base = Node3D)]
pub struct TerrainWaterSensor {
    /// Samples when true; turning it off emits [signal water_exited] if the point was in water.
    #[export]
    #[var(set = set_enabled)]
    #[init(val = true)]
    enabled: bool,
    /// Height of the sampled point above the node's global position (world units).
    #[export]
    #[var]
    vertical_offset: f32,
    /// Emit [signal water_stayed] every physics step while immersed.
    #[export]
    #[var]
    emit_stayed: bool,
    /// Only water of the terrain with this [member Terrain3D.terrain_id] (empty: any).
    #[export]
    #[var(set = set_terrain_id)]
    terrain_id: GString,
    tracker: Option<Gd<WaterTracker>>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for TerrainWaterSensor {
    fn physics_process(&mut self, _delta: f64) {
        if self.enabled {
            self.update();
        }
    }

    fn exit_tree(&mut self) {
        self.leave();
    }
}

#[godot_api]
impl TerrainWaterSensor {
    /// The point entered a water body.
    #[signal]
    fn water_entered(sample: Gd<WaterSample>);

    /// The point is still in the same body (each physics step, with [member emit_stayed]).
    #[signal]
    fn water_stayed(sample: Gd<WaterSample>);

    /// The point left a body (dry now, another body, or the terrain went away); `sample` is
    /// the last immersed one.
    #[signal]
    fn water_exited(sample: Gd<WaterSample>);

    /// Samples now (as each physics step does) and emits the signals.
    #[func]
    pub fn update(&mut self) {
        let point = self.base().get_global_position() + Vector3::UP * self.vertical_offset;
        let filter = self.terrain_id.clone();
        let tracker = self
            .tracker
            .get_or_insert_with(|| {
                let mut t = WaterTracker::new_gd();
                t.bind_mut().filter = filter;
                t
            })
            .clone();
        let events = tracker.clone().bind_mut().update(point);
        for e in events.iter_shared() {
            let (phase, sample) = {
                let b = e.bind();
                (b.phase, b.sample.clone())
            };
            let Some(sample) = sample else { continue };
            let signal = match phase {
                WaterPhase::Enter => "water_entered",
                WaterPhase::Stay if self.emit_stayed => "water_stayed",
                WaterPhase::Stay => continue,
                WaterPhase::Exit => "water_exited",
            };
            self.base_mut().emit_signal(signal, &[sample.to_variant()]);
        }
    }

    /// The sample the point is immersed in (from the last step), or null.
    #[func]
    pub fn get_current(&self) -> Option<Gd<WaterSample>> {
        self.tracker.as_ref().and_then(|t| t.bind().current())
    }

    /// Sets [member enabled].
    #[func]
    pub fn set_enabled(&mut self, on: bool) {
        if self.enabled && !on {
            self.leave();
        }
        self.enabled = on;
    }

    /// Sets [member terrain_id] (the sensor starts over: it leaves its current body).
    #[func]
    pub fn set_terrain_id(&mut self, id: GString) {
        self.leave();
        self.tracker = None;
        self.terrain_id = id;
    }
}

impl TerrainWaterSensor {
    /// Emits [signal water_exited] for the current body, if any, and forgets it.
    fn leave(&mut self) {
        let Some(mut t) = self.tracker.clone() else {
            return;
        };
        let current = t.bind().current();
        t.bind_mut().reset();
        if let Some(sample) = current {
            self.base_mut()
                .emit_signal("water_exited", &[sample.to_variant()]);
        }
    }
}

use super::sample::WaterSample;
