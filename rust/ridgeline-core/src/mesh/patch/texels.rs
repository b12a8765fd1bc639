//! The texels the GPU path's vertex shader reads: four bytes per sample (RGBA8 tiles), the
//! sample's `f32` height bits, little-endian (R = lowest byte), whose lowest mantissa bit is
//! replaced by the hole flag of the cell whose first sample this is (cell (x, z) ↔ sample
//! (x, z)). The shader clears that bit before `uintBitsToFloat`, so a drawn height is the CPU
//! height to within one unit in the last place (6·10⁻⁵ m at 1000 m), and derives each vertex
//! normal from its four neighbours' heights as [`crate::heightfield`]'s central differences do —
//! one texture of 4 bytes per sample instead of a height and a normal texture of 8.

use crate::heightfield::Heightfield;

/// `height` with its lowest mantissa bit set to `hole` (the texel's bits).
pub fn height_texel(height: f32, hole: bool) -> u32 {
    (height.to_bits() & !1) | u32::from(hole)
}

/// The height a texel draws (what the shader decodes): the bits with the hole flag cleared.
pub fn texel_height(bits: u32) -> f32 {
    f32::from_bits(bits & !1)
}

/// Writes the texels of samples `x0..x1 × z0..z1` into `out` (row-major, `stride` texels per
/// row, starting at `out[0]`).
pub fn height_texels(
    field: &Heightfield,
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
            let k = ((z - z0) * stride + (x - x0)) * 4;
            out[k..k + 4].copy_from_slice(&height_texel(field.sample(x, z), hole).to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, HoleMask};

    #[test]
    fn heights_round_trip_within_one_ulp_and_holes_ride_in_the_lowest_bit() {
        let g = Grid::new([8.0, 8.0], [8, 8], 4).unwrap();
        let heights: Vec<f32> = (0..81).map(|i| i as f32 * 0.731 - 20.0).collect();
        let mut holes = HoleMask::new(8, 8);
        holes.set(3, 2, true);
        let f = Heightfield::new(g, heights.clone(), Some(holes)).unwrap();
        let mut out = vec![0u8; 9 * 9 * 4];
        height_texels(&f, [0, 0, 9, 9], &mut out, 9);
        for z in 0..9 {
            for x in 0..9 {
                let i = z * 9 + x;
                let bits = u32::from_le_bytes([
                    out[i * 4],
                    out[i * 4 + 1],
                    out[i * 4 + 2],
                    out[i * 4 + 3],
                ]);
                assert_eq!(bits & 1 == 1, (x, z) == (3, 2), "hole flag at ({x}, {z})");
                let h = heights[i];
                let drawn = texel_height(bits);
                assert!(
                    (drawn - h).abs() <= f32::EPSILON * h.abs(),
                    "height at ({x}, {z}): {drawn} vs {h}"
                );
                assert_eq!(drawn.to_bits() >> 1, h.to_bits() >> 1);
            }
        }
        // A sub-rectangle lands at the start of `out` with its own stride.
        let mut part = vec![0u8; 2 * 2 * 4];
        height_texels(&f, [3, 2, 5, 4], &mut part, 2);
        let bits = u32::from_le_bytes([part[0], part[1], part[2], part[3]]);
        assert_eq!(bits & 1, 1);
        assert_eq!(
            texel_height(bits).to_bits() >> 1,
            f.sample(3, 2).to_bits() >> 1
        );
    }
}
