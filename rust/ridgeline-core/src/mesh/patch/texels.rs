//! The texels the GPU path's vertex shader reads, four bytes per sample (RGBA8 tiles):
//!
//! - heights: the sample's `f32` bits, little-endian (R = lowest byte), so the shader's
//!   `uintBitsToFloat` gives the exact CPU height;
//! - normals: the heightfield's octahedral normal, `u` in R/G and `v` in B/A (little-endian
//!   `i16`), except `v`'s lowest bit, which is the hole flag of the cell whose first sample
//!   this is (cell (x, z) ↔ sample (x, z)).

use crate::heightfield::Heightfield;

/// Writes the height texels of samples `x0..x1 × z0..z1` into `out` (row-major, `stride`
/// texels per row, starting at `out[0]`).
pub fn height_texels(
    field: &Heightfield,
    [x0, z0, x1, z1]: [usize; 4],
    out: &mut [u8],
    stride: usize,
) {
    for z in z0..z1 {
        for x in x0..x1 {
            let k = ((z - z0) * stride + (x - x0)) * 4;
            out[k..k + 4].copy_from_slice(&field.sample(x, z).to_le_bytes());
        }
    }
}

/// Writes the normal texels (with hole flags) of samples `x0..x1 × z0..z1` into `out`.
pub fn normal_texels(
    field: &Heightfield,
    [x0, z0, x1, z1]: [usize; 4],
    out: &mut [u8],
    stride: usize,
) {
    let [cx, cz] = field.grid().cells();
    for z in z0..z1 {
        for x in x0..x1 {
            let [u, v] = field.octahedral_normal(x, z);
            let hole = x < cx as usize && z < cz as usize && field.holes().is_hole(x, z);
            let v = (v & !1) | i16::from(hole);
            let k = ((z - z0) * stride + (x - x0)) * 4;
            out[k..k + 2].copy_from_slice(&u.to_le_bytes());
            out[k + 2..k + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, HoleMask};

    #[test]
    fn heights_round_trip_exactly_and_holes_ride_in_the_normals() {
        let g = Grid::new([8.0, 8.0], [8, 8], 4).unwrap();
        let heights: Vec<f32> = (0..81).map(|i| i as f32 * 0.731 - 20.0).collect();
        let mut holes = HoleMask::new(8, 8);
        holes.set(3, 2, true);
        let f = Heightfield::new(g, heights.clone(), Some(holes)).unwrap();
        let mut out = vec![0u8; 9 * 9 * 4];
        height_texels(&f, [0, 0, 9, 9], &mut out, 9);
        for (i, h) in heights.iter().enumerate() {
            let b = [out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]];
            assert_eq!(f32::from_le_bytes(b), *h);
        }
        // A sub-rectangle lands at the start of `out` with its own stride.
        let mut part = vec![0u8; 2 * 2 * 4];
        height_texels(&f, [3, 2, 5, 4], &mut part, 2);
        assert_eq!(
            f32::from_le_bytes([part[0], part[1], part[2], part[3]]),
            f.sample(3, 2)
        );
        normal_texels(&f, [0, 0, 9, 9], &mut out, 9);
        for z in 0..9 {
            for x in 0..9 {
                let k = (z * 9 + x) * 4;
                let v = i16::from_le_bytes([out[k + 2], out[k + 3]]);
                assert_eq!(v & 1 == 1, (x, z) == (3, 2), "hole flag at ({x}, {z})");
                let u = i16::from_le_bytes([out[k], out[k + 1]]);
                let [eu, ev] = f.octahedral_normal(x, z);
                assert_eq!(u, eu);
                assert!((v as i32 - ev as i32).abs() <= 1);
            }
        }
    }
}
