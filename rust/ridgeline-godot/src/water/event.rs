//! `WaterEvent`: one [`super::tracker::WaterTracker`] event, and `WaterEvent.Phase`.

use super::sample::WaterSample;
use crate::convert::class_enum::class_enum;
use godot::prelude::*;

class_enum! {
    /// When a [WaterEvent] happened in a tracked point's immersion.
    pub enum WaterPhase for WaterEvent as "Phase" {
        /// The point entered a water body (also after switching bodies).
        Enter = 0 as "PHASE_ENTER",
        /// The point is still in the same body (every update while immersed).
        Stay = 1 as "PHASE_STAY",
        /// The point left a body: it is dry now, switched bodies, or the terrain was unloaded,
        /// hidden or regenerated without water there.
        Exit = 2 as "PHASE_EXIT",
    }
}

/// One event from [method WaterTracker.update].
///
/// [member phase] says what happened; [member sample] is the water column it happened in (for
/// [constant PHASE_EXIT], the last immersed sample).
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct WaterEvent {
    /// What happened: [constant PHASE_ENTER], [constant PHASE_STAY] or
    /// [constant PHASE_EXIT].
    // Own accessors, typed with the enum: see `WaterSample.kind`.
    #[var(get = get_phase, set = set_phase)]
    #[init(val = WaterPhase::Stay)]
    pub phase: WaterPhase,
    /// The sample (for [constant PHASE_EXIT], the last immersed sample).
    #[var]
    pub sample: Option<Gd<WaterSample>>,
    base: Base<RefCounted>,
}

#[godot_api]
impl WaterEvent {
    /// What happened ([member phase]).
    #[func]
    pub fn get_phase(&self) -> WaterPhase {
        self.phase
    }

    /// Sets [member phase].
    #[func]
    pub fn set_phase(&mut self, phase: WaterPhase) {
        self.phase = phase;
    }
}

impl WaterEvent {
    /// An event of `phase` in `sample`.
    pub fn make(phase: WaterPhase, sample: &Gd<WaterSample>) -> Gd<Self> {
        let mut e = WaterEvent::new_gd();
        {
            let mut b = e.bind_mut();
            b.phase = phase;
            b.sample = Some(sample.clone());
        }
        e
    }
}
