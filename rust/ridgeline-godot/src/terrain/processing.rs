//! When `Terrain3D._process` runs: while something waits for a frame — a generation job to
//! poll, chunks whose level errors are stale, paint uploads; always while GPU patches draw
//! the terrain (they follow the camera every frame) — and for one more frame after a
//! frame that uploaded paint. A game that writes every physics tick (a user channel, surface
//! paint) so keeps processing on instead of switching it off in one frame's `_process` and on
//! again in the next tick's write: each switch is an engine call that moves the node in or out
//! of the process list, a cost of every tick otherwise.

use super::Terrain3D;
use godot::prelude::*;

/// What the terrain last asked of the engine's processing (`None`: not asked yet).
#[derive(Default)]
pub(super) struct ProcessState {
    on: Option<bool>,
}

impl ProcessState {
    /// Forgets what was asked (entering the tree: the engine may have changed it).
    pub(super) fn forget(&mut self) {
        self.on = None;
    }
}

impl Terrain3D {
    /// Asks for `_process` on the coming frames; no engine call when it was asked already.
    pub(super) fn want_process(&mut self) {
        if self.process_state.on != Some(true) {
            self.process_state.on = Some(true);
            self.base_mut().set_process(true);
        }
    }

    /// The end of `_process`: processing stops when no job, stale chunk or pending upload
    /// waits and this frame uploaded nothing (`uploaded`); otherwise it stays on.
    pub(super) fn settle_process(&mut self, uploaded: bool) {
        let busy = uploaded
            || self.job.is_some()
            || self.chunks.stale_lod_count() > 0
            || self.chunks.patches().is_some()
            || self.paint_upload_pending();
        if !busy {
            self.process_state.on = Some(false);
            self.base_mut().set_process(false);
        }
    }
}
