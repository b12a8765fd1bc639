//! Flow after sculpting, for scripts: sculpting marks the drainage flow that the surface
//! classification reads as stale (routing it again is a whole-terrain pass, too slow for every
//! brush dab); [`Terrain3D::refresh_flow`] routes it on the edited ground and reclassifies what
//! it moves (stream beds, flow-raised moisture and the biomes that read it). The editor does
//! this itself when a stroke ends and after undo/redo. See docs/editing.md, "Flow after
//! sculpting".

use super::Terrain3D;
use super::edit_session::lock;
use godot::prelude::*;

#[godot_api(secondary)]
impl Terrain3D {
    /// Routes the drainage flow again on the edited ground after height edits and reclassifies
    /// where it changed (stream beds, wet ground, flow-raised moisture and the biomes that read
    /// it), then updates those chunks and emits `terrain_changed` with `LAYER_SURFACE`. One
    /// whole-terrain drainage pass (about 150 ms on a 1025² grid): call it when a batch of
    /// edits is done, not every frame. Not an undo step. Returns true when the surface
    /// changed; false when nothing was stale (no height edit since the last refresh, or the
    /// terrain's graph connects no drainage to Biome Rules) or nothing moved.
    #[func]
    pub fn refresh_flow(&mut self) -> bool {
        if !self.is_flow_stale() {
            return false;
        }
        self.edit("refresh_flow", |s| match s.refresh_flow() {
            Ok(Some(change)) => Ok(change),
            Ok(None) => Err(String::new()),
            Err(e) => Err(e.to_string()),
        })
    }

    /// True when heights changed since the flow the surface classification reads was last
    /// routed, and [method refresh_flow] would route it again.
    #[func]
    pub fn is_flow_stale(&self) -> bool {
        self.current_session()
            .is_some_and(|s| lock(&s).is_ok_and(|s| s.flow_stale()))
    }
}
