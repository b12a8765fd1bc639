//! `Terrain3D.overlay`: editor overlays drawn by the terrain shader over either look — the
//! exclusion mask, elevation bands with contour lines, slope, or biome regions. Transient view
//! state (not saved with the scene); the editor's Terrain dock sets it.

use super::Terrain3D;
use super::edit_session::lock;
use crate::convert::class_enum::class_enum;
use godot::classes::image::Format;
use godot::classes::{Image, ImageTexture};
use godot::prelude::*;

class_enum! {
    /// What [member Terrain3D.overlay] draws over the surface.
    pub enum Overlay for Terrain3D as "Overlay" {
        /// No overlay.
        None = 0 as "OVERLAY_NONE",
        /// The exclusion mask (where scatter is excluded, [method Terrain3D.get_exclusion]) in
        /// magenta, stronger where the weight is higher.
        Exclusion = 1 as "OVERLAY_EXCLUSION",
        /// Height bands from blue (lowest) to red (highest) with dark contour lines at a round
        /// interval (about a tenth of the height range).
        Elevation = 2 as "OVERLAY_ELEVATION",
        /// Slope from blue (flat) to red (60° and steeper).
        Slope = 3 as "OVERLAY_SLOPE",
        /// Biome regions (painted or resolved by Biome Rules), one distinct colour per biome.
        Biome = 4 as "OVERLAY_BIOME",
    }
}

/// A round contour interval (1, 2 or 5 × 10ⁿ metres) giving about ten lines over `range`.
pub fn contour_interval(range: f32) -> f32 {
    let raw = (range / 10.0).max(0.1);
    let p = 10f32.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

#[godot_api(secondary)]
impl Terrain3D {
    /// For tests: the exclusion weights (R8, one texel per sample) last uploaded for
    /// [constant OVERLAY_EXCLUSION], or null before the overlay was shown.
    #[func]
    fn _test_overlay_exclusion_image(&self) -> Option<Gd<Image>> {
        self.materials.overlay_exclusion_image.clone()
    }
}

impl Terrain3D {
    /// Sets the overlay's shader parameters; `exclusion`: re-upload the exclusion texture too
    /// (after an edit that changed the mask, or a new surface). Locks the edit session: not
    /// while it is locked (edits call [`Self::refresh_overlay_after_edit`]).
    pub(super) fn refresh_overlay(&mut self, exclusion: bool) {
        self.refresh_overlay_from(None, exclusion);
    }

    /// [`Self::refresh_overlay`] from an edit holding the session: its exclusion weights.
    pub(super) fn refresh_overlay_after_edit(&mut self, weights: &[f32], exclusion: bool) {
        self.refresh_overlay_from(Some(weights), exclusion);
    }

    fn refresh_overlay_from(&mut self, weights: Option<&[f32]>, exclusion: bool) {
        let mode = self.overlay;
        let range = self.prepared().as_ref().map(|p| p.field.height_range());
        let s = &mut self.materials.surface;
        s.set("overlay_mode", (mode as i32).to_variant());
        if let Some([lo, hi]) = range {
            s.set("min_height", lo.to_variant());
            s.set("max_height", hi.to_variant());
            s.set("overlay_contour", contour_interval(hi - lo).to_variant());
        }
        if mode != Overlay::Exclusion {
            return;
        }
        if exclusion || self.materials.overlay_exclusion.is_none() {
            self.upload_exclusion(weights);
        }
    }

    /// The exclusion weights of every sample (`weights`, else the edit session's or the
    /// surface's) as an R8 texture for the overlay.
    fn upload_exclusion(&mut self, weights: Option<&[f32]>) {
        let Some(p) = self.prepared().clone() else {
            return;
        };
        let [w, d] = p.field.grid().samples();
        let bytes: Vec<u8> = match (weights, &p.edits) {
            (Some(values), _) => to_bytes(values, w * d),
            (None, Some(s)) => match lock(s) {
                Ok(s) => to_bytes(s.exclusion(), w * d),
                Err(e) => {
                    godot_error!("Terrain3D.overlay: {e}");
                    return;
                }
            },
            (None, None) => to_bytes(&p.exclusion, w * d),
        };
        let Some(image) = Image::create_from_data(
            w as i32,
            d as i32,
            false,
            Format::R8,
            &PackedByteArray::from(bytes.as_slice()),
        ) else {
            godot_error!("Terrain3D.overlay: could not create the {w}×{d} exclusion texture");
            return;
        };
        let m = &mut self.materials;
        match &mut m.overlay_exclusion {
            Some(t) if t.get_width() == w as i32 && t.get_height() == d as i32 => t.update(&image),
            slot => *slot = ImageTexture::create_from_image(&image),
        }
        if let Some(t) = &m.overlay_exclusion {
            // Server materials take texture RIDs, not Texture objects.
            m.surface.set("overlay_exclusion", t.get_rid().to_variant());
        }
        m.overlay_exclusion_image = Some(image);
    }
}

/// Weights 0..1 as bytes (missing samples: 0).
fn to_bytes(weights: &[f32], n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (weights.get(i).copied().unwrap_or(0.0).clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contour_intervals_are_round_and_about_a_tenth() {
        assert_eq!(contour_interval(100.0), 10.0);
        assert_eq!(contour_interval(130.0), 20.0);
        assert_eq!(contour_interval(38.0), 5.0);
        assert_eq!(contour_interval(0.0), 0.1);
        for r in [1.0f32, 7.0, 55.0, 420.0, 3000.0] {
            let s = contour_interval(r);
            assert!(s >= r / 10.0 - 1e-4 && s <= r / 4.0 + 1e-4, "{r}: {s}");
        }
    }

    #[test]
    fn weights_map_to_bytes() {
        assert_eq!(
            to_bytes(&[0.0, 0.5, 1.0, 7.0, -1.0], 6),
            vec![0, 128, 255, 255, 0, 0]
        );
    }
}
