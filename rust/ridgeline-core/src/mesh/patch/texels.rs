//! The texels the GPU path's vertex shader reads: two bytes per sample (RG8 tiles,
//! little-endian: R = low byte). Bit 0 is the hole flag of the cell whose first sample this is
//! (cell (x, z) ↔ sample (x, z)); bits 1–15 are the height in units of a [`HeightCode`]: a
//! base and a step chosen from the surface's height range with a margin, so the drawn height
//! is the CPU height to within half a step (7 mm for a 1 km map whose ground spans 400 m). The
//! shader derives each vertex normal from its four neighbours' heights as
//! [`crate::heightfield`]'s central differences do, so one texture of 2 bytes per sample
//! serves what a height and a normal texture of 8 would.
//!
//! Queries, collision and the CPU surface never read these texels: they stay exact.

use crate::heightfield::Heightfield;

/// The height range a height texture encodes: `height = base + units · step`, with `units` in
/// `0..=`[`HeightCode::UNITS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightCode {
    /// Height of unit 0 (metres, terrain-local).
    pub base: f32,
    /// Metres per unit (> 0).
    pub step: f32,
}

impl HeightCode {
    /// Units a texel holds: 15 bits (bit 0 is the hole flag).
    pub const UNITS: u32 = (1 << 15) - 1;

    /// A code for heights `lo..=hi` with a margin of a tenth of the span (at least 1 m) on
    /// each side, so edits rarely leave it (when they do, the texture is re-encoded).
    pub fn for_range(lo: f32, hi: f32) -> Self {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 0.0)
        };
        let margin = ((hi - lo) * 0.1).max(1.0);
        let base = lo - margin;
        let step = ((hi + margin) - base) / Self::UNITS as f32;
        Self { base, step }
    }

    /// The highest height the code holds.
    pub fn top(&self) -> f32 {
        self.base + Self::UNITS as f32 * self.step
    }

    /// True when every height of `lo..=hi` lies inside the code's range.
    pub fn covers(&self, lo: f32, hi: f32) -> bool {
        lo >= self.base && hi <= self.top()
    }

    /// The texel of `height` (clamped into the range) and the hole flag.
    pub fn texel(&self, height: f32, hole: bool) -> u16 {
        let units = ((height - self.base) / self.step).round();
        let units = if units.is_nan() {
            0
        } else {
            units.clamp(0.0, Self::UNITS as f32) as u16
        };
        (units << 1) | u16::from(hole)
    }

    /// The height a texel draws (what the shader decodes).
    pub fn height(&self, texel: u16) -> f32 {
        self.base + f32::from(texel >> 1) * self.step
    }
}

/// Writes the texels of samples `x0..x1 × z0..z1` into `out` (row-major, `stride` texels per
/// row, two bytes each, starting at `out[0]`).
pub fn height_texels(
    field: &Heightfield,
    code: &HeightCode,
    [x0, z0, x1, z1]: [usize; 4],
    out: &mut [u8],
    stride: usize,
) {
    let [cx, cz] = field.grid().cells();
    let holes = field.holes();
    let any_hole = holes.count() != 0;
    for z in z0..z1 {
        for x in x0..x1 {
            let hole = any_hole && x < cx as usize && z < cz as usize && holes.is_hole(x, z);
            let k = ((z - z0) * stride + (x - x0)) * 2;
            out[k..k + 2].copy_from_slice(&code.texel(field.sample(x, z), hole).to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, HoleMask};

    #[test]
    fn heights_round_trip_within_half_a_step_and_holes_ride_in_bit_zero() {
        let g = Grid::new([8.0, 8.0], [8, 8], 4).unwrap();
        let heights: Vec<f32> = (0..81).map(|i| i as f32 * 7.31 - 200.0).collect();
        let mut holes = HoleMask::new(8, 8);
        holes.set(3, 2, true);
        let f = Heightfield::new(g, heights.clone(), Some(holes)).unwrap();
        let [lo, hi] = f.height_range();
        let code = HeightCode::for_range(lo, hi);
        assert!(code.covers(lo, hi));
        // 585 m of ground plus 10 % margins over 15 bits: 2.1 cm per unit.
        assert!(
            (code.step - (hi - lo) * 1.2 / 32767.0).abs() < 1e-6,
            "step {}",
            code.step
        );
        let mut out = vec![0u8; 9 * 9 * 2];
        height_texels(&f, &code, [0, 0, 9, 9], &mut out, 9);
        for z in 0..9 {
            for x in 0..9 {
                let i = z * 9 + x;
                let t = u16::from_le_bytes([out[i * 2], out[i * 2 + 1]]);
                assert_eq!(t & 1 == 1, (x, z) == (3, 2), "hole flag at ({x}, {z})");
                let drawn = code.height(t);
                assert!(
                    (drawn - heights[i]).abs() <= code.step * 0.5 + 1e-4,
                    "height at ({x}, {z}): {drawn} vs {}",
                    heights[i]
                );
            }
        }
        // A sub-rectangle lands at the start of `out` with its own stride.
        let mut part = vec![0u8; 2 * 2 * 2];
        height_texels(&f, &code, [3, 2, 5, 4], &mut part, 2);
        let t = u16::from_le_bytes([part[0], part[1]]);
        assert_eq!(t & 1, 1);
        assert!((code.height(t) - f.sample(3, 2)).abs() <= code.step * 0.5 + 1e-4);
        let t = u16::from_le_bytes([part[2], part[3]]);
        assert_eq!(t & 1, 0);
        assert!((code.height(t) - f.sample(4, 2)).abs() <= code.step * 0.5 + 1e-4);
    }

    #[test]
    fn a_flat_or_broken_range_still_gets_a_usable_code_and_outside_heights_clamp() {
        let flat = HeightCode::for_range(5.0, 5.0);
        assert!(flat.step > 0.0 && flat.covers(4.0, 6.0));
        assert!((flat.height(flat.texel(5.0, false)) - 5.0).abs() <= flat.step);
        let broken = HeightCode::for_range(f32::NAN, 3.0);
        assert!(broken.step > 0.0 && broken.step.is_finite());
        // Heights past the range clamp to its ends; NaN draws at the base.
        assert_eq!(flat.texel(1e9, false) >> 1, HeightCode::UNITS as u16);
        assert_eq!(flat.texel(-1e9, true), 1);
        assert_eq!(flat.texel(f32::NAN, false), 0);
        assert!(!flat.covers(3.0, 5.0));
        assert!(!flat.covers(5.0, 7.0));
    }
}
