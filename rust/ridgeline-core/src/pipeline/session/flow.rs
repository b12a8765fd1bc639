//! Flow after sculpting in an edit session (`pipeline::sculpted_flow`).
//!
//! Running drainage again costs a whole-grid pass (about 150 ms on a 1025² grid), too much for
//! every brush dab. So an edit that changes heights only marks the flow stale: the
//! classification keeps reading the flow it had, and [`EditSession::refresh_flow`] (the editor
//! calls it when a stroke ends and after undo/redo; games call `Terrain3D.refresh_flow()`)
//! runs drainage on the edited ground and reclassifies where the flow changed. After a
//! refresh the surface is bit for bit what regenerating the recipe with the same strokes
//! gives (a session's classification starts from the sculpted flow too).

use super::{Change, EditSession};
use crate::edit::rect::Rect;
use crate::error::Result;
use crate::pipeline::SurfaceSources;
use crate::pipeline::sculpted_flow::{same_bits, sculpted_flow};
use std::sync::Arc;

/// A session's flow bookkeeping.
#[derive(Clone, Debug, Default)]
pub(super) struct FlowState {
    /// The flow of the session's base surface (what stands while no height differs from it).
    graph: Option<Arc<Vec<f32>>>,
    /// Heights changed since the classification's flow was computed.
    pub(super) stale: bool,
}

impl FlowState {
    /// The bookkeeping for a classification reading `sources`.
    pub(super) fn of(sources: &SurfaceSources) -> Self {
        Self {
            graph: sources.flow.clone(),
            stale: false,
        }
    }
}

impl EditSession {
    /// `sources` with the flow of the current surface: drainage routed again on it
    /// (`pipeline::sculpted_flow`) when the classification reads flow, its offset is known and
    /// a height differs from the session's base; otherwise `sources` as they are.
    pub(super) fn sculpted_sources(&self, sources: &SurfaceSources) -> SurfaceSources {
        let mut out = sources.clone();
        if let Some(flow) = self.routed_flow(sources) {
            out.flow = Some(Arc::new(flow));
        }
        out
    }

    /// Drainage on the current surface, when it differs from the base and `sources` can route.
    fn routed_flow(&self, sources: &SurfaceSources) -> Option<Vec<f32>> {
        let offset = sources.flow_offset.as_ref()?;
        sources.flow.as_ref()?;
        if same_bits(&self.base, self.field.heights()) {
            return None;
        }
        sculpted_flow(self.grid, offset, self.field.heights())
    }

    /// True when heights changed since the classification's flow was last computed and the
    /// classification reads flow that can be routed again (connected drainage whose offset is
    /// known).
    pub fn flow_stale(&self) -> bool {
        self.flow.stale
            && self
                .surface
                .as_ref()
                .is_some_and(|s| s.sources().flow.is_some() && s.sources().flow_offset.is_some())
    }

    /// Routes the flow again on the current surface and reclassifies where it changed
    /// (biomes through flow-raised moisture, stream beds, wet substrate), refiltering scatter
    /// there. Returns what changed (its `surface` rectangle and chunks), `None` when the flow
    /// was not stale or nothing changed. Not an undo step: undo and redo mark the flow stale
    /// again.
    pub fn refresh_flow(&mut self) -> Result<Option<Change>> {
        if !self.flow_stale() {
            self.flow.stale = false;
            return Ok(None);
        }
        self.flow.stale = false;
        let Some(state) = &self.surface else {
            return Ok(None);
        };
        // Back on the base heights, the base's own flow stands.
        let flow = match self.routed_flow(state.sources()) {
            Some(f) => Arc::new(f),
            None => match &self.flow.graph {
                Some(g) => g.clone(),
                None => return Ok(None),
            },
        };
        let Some(state) = &mut self.surface else {
            return Ok(None);
        };
        let rect = match state.set_flow(flow, &self.field, &self.regions) {
            Ok(Some(r)) => Rect::new(r.x0, r.z0, r.x1, r.z1),
            Ok(None) => return Ok(None),
            Err(e) => {
                // As in `change`: a state that no longer fits is dropped, never published stale.
                self.surface = None;
                return Err(e);
            }
        };
        let paint = &self.paint;
        state.override_roles(rect, |i, c| paint.role(i, c));
        let [w, h] = self.grid.samples();
        self.refilter_scatter(rect.grow(1, w, h));
        let chunks = self.chunks_meeting(rect);
        Ok(Some(Change {
            touched: rect,
            chunks,
            surface: rect,
            ..Change::default()
        }))
    }
}
