//! What the hot queries read of the painted layers: a copy of the edit session's
//! [`PaintLayers`] (user channels, surface paint weights) and the classified roles under the
//! paint (the weight of the "generated" slot goes to them), kept current rectangle by
//! rectangle after every paint write.

use ridgeline_core::edit::Rect;
use ridgeline_core::edit::paint::PaintLayers;
use ridgeline_core::pipeline::EditSession;

/// Painted layers and classified roles of a prepared terrain.
#[derive(Clone, Debug, Default)]
pub struct PaintState {
    /// The painted layers.
    pub layers: PaintLayers,
    /// Classified role per sample (before paint); empty while nothing is painted (the
    /// published roles are then the classified ones).
    pub classified: Vec<u8>,
}

impl PaintState {
    /// The session's paint and classification.
    pub fn of_session(s: &EditSession) -> Self {
        let mut out = Self {
            layers: s.paint().clone(),
            classified: Vec::new(),
        };
        if !out.layers.weight_bytes().is_empty()
            && let Some(state) = s.surface_state()
        {
            out.classified = state.classification().role_ids();
        }
        out
    }

    /// Copies `rect` (samples of a `w`-column grid) of the session's layers and, when
    /// `roles`, its classified roles.
    pub fn copy_from(&mut self, s: &EditSession, rect: Rect, w: usize, roles: bool) {
        self.layers.copy_rect(s.paint(), rect, w);
        if !roles {
            return;
        }
        let Some(state) = s.surface_state() else {
            return;
        };
        let cls = state.classification().roles();
        if self.classified.len() != cls.len() {
            self.classified = cls.iter().map(|&r| r as u8).collect();
            return;
        }
        for z in rect.z0..rect.z1 {
            let (a, b) = (z * w + rect.x0, z * w + rect.x1);
            for (dst, &r) in self.classified[a..b].iter_mut().zip(&cls[a..b]) {
                *dst = r as u8;
            }
        }
    }

    /// The effective weight (0–1) of surface `role` at sample `i` whose published role is
    /// `published`.
    pub fn weight(&self, i: usize, role: usize, published: u8) -> f32 {
        let classified = self.classified.get(i).copied().unwrap_or(published);
        self.layers.effective_weight(i, role, classified) as f32 / 255.0
    }
}
