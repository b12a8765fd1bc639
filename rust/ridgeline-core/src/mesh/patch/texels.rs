//! The texels the GPU path's vertex shader reads: two bytes per sample (RG8 tiles,
//! little-endian: R = low byte). Bit 0 is the hole flag of the cell whose first sample this is
//! (cell (x, z) ↔ sample (x, z)); bits 1–15 are the height in units of a [`HeightCode`]: a
//! base and a step chosen from the surface's height range with a margin, so the drawn height
//! is the CPU height to within half a step (7 mm for a 1 km map whose ground spans 400 m). The
//! shader derives each vertex normal from its four neighbours' heights as
//! [`crate::heightfield`]'s central differences do, so one texture of 2 bytes per sample
//! serves what a height and a normal texture of 8 would.
//!
//! Where that step would be coarse for the grid (more than [`MAX_STEP_PER_SPACING`] of the
//! spacing: ground spanning kilometres at 1 m, whose derived normals would show the steps), the
//! texels are four bytes instead (RGBA8): the sample's `f32` bits with the lowest mantissa bit
//! replaced by the hole flag, the CPU height to within one unit in the last place
//! ([`HeightTexels::Full`]).
//!
//! Queries, collision and the CPU surface never read these texels: they stay exact.

use crate::heightfield::Heightfield;

/// Largest 16-bit height step per metre of grid spacing (2 cm at 1 m: the normals the shader
/// derives tilt by at most about 0.6° from the steps). Ground spanning more than about 550 m at
/// 1 m spacing (5.5 km at 10 m) gets [`HeightTexels::Full`].
pub const MAX_STEP_PER_SPACING: f32 = 0.02;

/// How a height texture encodes its samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HeightTexels {
    /// Two bytes per sample in units of a [`HeightCode`].
    Short(HeightCode),
    /// Four bytes per sample: the `f32` bits (lowest mantissa bit = hole flag).
    Full,
}

impl HeightTexels {
    /// The encoding for `field`'s current heights.
    pub fn for_field(field: &Heightfield) -> Self {
        let [lo, hi] = field.height_range();
        let code = HeightCode::for_range(lo, hi);
        let [dx, dz] = field.grid().spacing();
        if code.step <= dx.min(dz) * MAX_STEP_PER_SPACING {
            HeightTexels::Short(code)
        } else {
            HeightTexels::Full
        }
    }

    /// Bytes per texel.
    pub fn bytes(&self) -> usize {
        match self {
            HeightTexels::Short(_) => 2,
            HeightTexels::Full => 4,
        }
    }

    /// True when heights `lo..=hi` can still be encoded as they are (a full encoding holds
    /// any height, and is kept once chosen).
    pub fn covers(&self, lo: f32, hi: f32) -> bool {
        match self {
            HeightTexels::Short(code) => code.covers(lo, hi),
            HeightTexels::Full => true,
        }
    }

    /// The shader's `ridgeline_height_code`: base and step, or `(0, 0)` for full texels.
    pub fn shader_code(&self) -> [f32; 2] {
        match self {
            HeightTexels::Short(code) => [code.base, code.step],
            HeightTexels::Full => [0.0, 0.0],
        }
    }
}

/// `height` with its lowest mantissa bit set to `hole` (a full texel's bits).
pub fn full_texel(height: f32, hole: bool) -> u32 {
    (height.to_bits() & !1) | u32::from(hole)
}

/// The height a full texel draws (the bits with the hole flag cleared).
pub fn full_texel_height(bits: u32) -> f32 {
    f32::from_bits(bits & !1)
}

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
    #[inline]
    pub fn texel(&self, height: f32, hole: bool) -> u16 {
        (self.units(height) << 1) | u16::from(hole)
    }

    /// `(height - base) / step` rounded half away from zero and clamped to `0..=UNITS` (NaN
    /// gives 0), bit for bit what `f32::round` and a clamp give, without the library call
    /// (`roundf` is not inlined on x86-64's baseline; the load encodes every sample).
    #[inline]
    fn units(&self, height: f32) -> u16 {
        let x = (height - self.base) / self.step;
        if x.is_nan() || x <= -0.5 {
            // Rounds to zero or below.
            return 0;
        }
        if x >= Self::UNITS as f32 {
            return Self::UNITS as u16;
        }
        // 0 <= x < 2^15 (or just below zero, truncated to 0): `x - t` is exact.
        let t = x as u32;
        (t + u32::from(x - t as f32 >= 0.5)) as u16
    }

    /// The height a texel draws (what the shader decodes).
    pub fn height(&self, texel: u16) -> f32 {
        self.base + f32::from(texel >> 1) * self.step
    }
}

/// Writes the texels of samples `x0..x1 × z0..z1` into `out` (row-major, `stride` texels per
/// row, [`HeightTexels::bytes`] each, starting at `out[0]`).
pub fn height_texels(
    field: &Heightfield,
    texels: &HeightTexels,
    [x0, z0, x1, z1]: [usize; 4],
    out: &mut [u8],
    stride: usize,
) {
    let [cx, cz] = field.grid().cells();
    let w = field.grid().samples()[0];
    let holes = field.holes();
    let any_hole = holes.count() != 0;
    let hole =
        |x: usize, z: usize| any_hole && x < cx as usize && z < cz as usize && holes.is_hole(x, z);
    let n = texels.bytes();
    for z in z0..z1 {
        let row = &field.heights()[z * w + x0..z * w + x1];
        let dst = &mut out[(z - z0) * stride * n..];
        match texels {
            HeightTexels::Short(code) => {
                for (i, (&h, t)) in row.iter().zip(dst.chunks_exact_mut(2)).enumerate() {
                    t.copy_from_slice(&code.texel(h, hole(x0 + i, z)).to_le_bytes());
                }
            }
            HeightTexels::Full => {
                for (i, (&h, t)) in row.iter().zip(dst.chunks_exact_mut(4)).enumerate() {
                    t.copy_from_slice(&full_texel(h, hole(x0 + i, z)).to_le_bytes());
                }
            }
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
        height_texels(&f, &HeightTexels::Short(code), [0, 0, 9, 9], &mut out, 9);
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
        height_texels(&f, &HeightTexels::Short(code), [3, 2, 5, 4], &mut part, 2);
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

    #[test]
    fn units_round_exactly_as_f32_round_then_clamp() {
        let reference = |code: &HeightCode, h: f32| {
            let units = ((h - code.base) / code.step).round();
            if units.is_nan() {
                0
            } else {
                units.clamp(0.0, HeightCode::UNITS as f32) as u16
            }
        };
        let codes = [
            HeightCode::for_range(-40.0, 400.0),
            HeightCode {
                base: 0.0,
                step: 1.0,
            },
            HeightCode {
                base: -3.0,
                step: 0.25,
            },
        ];
        for code in &codes {
            // Every half unit and its neighbours a few ulps away (the ties and near-ties).
            for k in -4..=2 * HeightCode::UNITS as i64 + 4 {
                let mid = code.base + (k as f32 * 0.5) * code.step;
                let mut h = mid;
                for _ in 0..3 {
                    h = h.next_down();
                }
                for _ in 0..7 {
                    assert_eq!(
                        code.units(h),
                        reference(code, h),
                        "height {h} (bits {:#x})",
                        h.to_bits()
                    );
                    h = h.next_up();
                }
            }
            // A sweep over every kind of f32: tiny, huge, negative, infinite, NaN.
            for bits in (0..=u32::MAX).step_by(9973) {
                let h = f32::from_bits(bits);
                assert_eq!(code.units(h), reference(code, h), "height bits {bits:#x}");
            }
            for h in [
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                -0.0,
                0.0,
                f32::MAX,
                f32::MIN,
            ] {
                assert_eq!(code.units(h), reference(code, h), "height {h}");
            }
        }
    }

    #[test]
    fn wide_spans_get_full_texels_exact_to_an_ulp() {
        // 8 m at 1 m: 100 m of ground fits in 16 bits (3.7 mm steps), 3 km does not.
        let g = Grid::new([8.0, 8.0], [8, 8], 4).unwrap();
        let low: Vec<f32> = (0..81).map(|i| i as f32 * 1.25).collect();
        let f = Heightfield::new(g, low, None).unwrap();
        assert!(matches!(
            HeightTexels::for_field(&f),
            HeightTexels::Short(_)
        ));
        let tall: Vec<f32> = (0..81).map(|i| i as f32 * 37.5 - 500.0).collect();
        let mut holes = HoleMask::new(8, 8);
        holes.set(1, 1, true);
        let f = Heightfield::new(g, tall.clone(), Some(holes)).unwrap();
        let full = HeightTexels::for_field(&f);
        assert_eq!(full, HeightTexels::Full);
        assert_eq!(full.bytes(), 4);
        assert_eq!(full.shader_code(), [0.0, 0.0]);
        assert!(full.covers(-1e7, 1e7));
        let mut out = vec![0u8; 81 * 4];
        height_texels(&f, &full, [0, 0, 9, 9], &mut out, 9);
        for (i, h) in tall.iter().enumerate() {
            let bits =
                u32::from_le_bytes([out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]]);
            assert_eq!(bits & 1 == 1, i == 9 + 1, "hole flag of sample {i}");
            assert_eq!(full_texel_height(bits).to_bits() >> 1, h.to_bits() >> 1);
        }
    }
}
