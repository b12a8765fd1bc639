//! `WaterTracker`: one point's immersion across updates.

use super::event::{WaterEvent, WaterPhase};
use super::sample::WaterSample;
use super::terrain_water::sample_terrains;
use godot::prelude::*;

/// Follows one point's immersion across updates; make one with [method TerrainWater.tracker].
///
/// The first [method update] inside water emits [constant WaterEvent.PHASE_ENTER]; staying in
/// the same body emits [constant WaterEvent.PHASE_STAY] on every update; switching bodies emits
/// [constant WaterEvent.PHASE_EXIT] then [constant WaterEvent.PHASE_ENTER]; leaving emits
/// [constant WaterEvent.PHASE_EXIT] once, and later outside updates return an empty array.
/// Terrain unload, disable and regeneration show on the next update. Identity includes the
/// terrain placement and the body, so equal body ids on different terrains do not mix.
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct WaterTracker {
    pub(super) filter: GString,
    current: Option<Gd<WaterSample>>,
    base: Base<RefCounted>,
}

#[godot_api]
impl WaterTracker {
    /// Samples `position` (world space) and returns the [WaterEvent]s since the last update, in
    /// order.
    #[func]
    pub fn update(&mut self, position: Vector3) -> Array<Gd<WaterEvent>> {
        let mut events = Array::new();
        let sample = sample_terrains(position, &self.filter).filter(|s| s.bind().underwater);
        match (&self.current, &sample) {
            (None, None) => {}
            (None, Some(s)) => events.push(&WaterEvent::make(WaterPhase::Enter, s)),
            (Some(old), None) => events.push(&WaterEvent::make(WaterPhase::Exit, old)),
            (Some(old), Some(s)) => {
                if old.bind().identity == s.bind().identity {
                    events.push(&WaterEvent::make(WaterPhase::Stay, s));
                } else {
                    events.push(&WaterEvent::make(WaterPhase::Exit, old));
                    events.push(&WaterEvent::make(WaterPhase::Enter, s));
                }
            }
        }
        self.current = sample;
        events
    }

    /// The immersed [WaterSample] retained by the latest [method update], or null.
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
