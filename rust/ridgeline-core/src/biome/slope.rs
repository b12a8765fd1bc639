//! Slope in degrees per sample: 0 flat, 90 vertical.
//!
//! The gradient comes from central differences of the heights (one-sided at the terrain
//! border), exactly the gradients of the smooth vertex normals and of the Slope Mask node, so a
//! rule's `slope` band, the normals a shader sees and a slope mask agree. The stencil reads the
//! four edge neighbours of a sample: after a height edit of a rectangle, slopes change in that
//! rectangle grown by one sample. The arctangent is a fixed polynomial ([`atan_degrees`]).

use crate::grid::Grid;

/// Slope in degrees of sample (x, z) of `heights` (row-major on `grid`).
#[inline]
pub fn slope_degrees(grid: &Grid, heights: &[f32], x: usize, z: usize) -> f32 {
    let [w, h] = grid.samples();
    let [dx, dz] = grid.spacing();
    slope_at(heights, w, h, dx, dz, x, z)
}

/// [`slope_degrees`] with the grid's numbers at hand (the classification's inner loop).
#[inline(always)]
pub(crate) fn slope_at(
    heights: &[f32],
    w: usize,
    h: usize,
    dx: f32,
    dz: f32,
    x: usize,
    z: usize,
) -> f32 {
    let (xl, xr) = (x.saturating_sub(1), (x + 1).min(w - 1));
    let (zl, zr) = (z.saturating_sub(1), (z + 1).min(h - 1));
    let gx = (heights[z * w + xr] - heights[z * w + xl]) / ((xr - xl) as f32 * dx);
    let gz = (heights[zr * w + x] - heights[zl * w + x]) / ((zr - zl) as f32 * dz);
    atan_degrees((gx * gx + gz * gz).sqrt())
}

/// `atan(g)` in degrees for `g ≥ 0`: an odd minimax polynomial on [0, 1] (and `90° − atan(1/g)`
/// above), within 2e-4 degrees of the exact value. Plain `f32` arithmetic, so every platform
/// and thread computes the same bits; about five times cheaper than the library `atanf`, which
/// dominated the classification pass.
#[inline(always)]
pub fn atan_degrees(g: f32) -> f32 {
    const C: [f32; 6] = [
        0.999_977_26,
        -0.332_623_47,
        0.193_543_46,
        -0.116_432_87,
        0.052_653_32,
        -0.011_721_2,
    ];
    let flip = g > 1.0;
    let t = if flip { 1.0 / g } else { g };
    let t2 = t * t;
    let a = t * (C[0] + t2 * (C[1] + t2 * (C[2] + t2 * (C[3] + t2 * (C[4] + t2 * C[5])))));
    let r = if flip {
        std::f32::consts::FRAC_PI_2 - a
    } else {
        a
    };
    r * (180.0 / std::f32::consts::PI)
}

/// Slopes of every sample of row `z` into `out` (one per sample of the row): the same bits as
/// [`slope_degrees`] sample by sample, with the interior in a loop the compiler vectorises.
pub fn fill_row(grid: &Grid, heights: &[f32], z: usize, out: &mut [f32]) {
    let [w, h] = grid.samples();
    let [dx, dz] = grid.spacing();
    fill_row_at(heights, w, h, dx, dz, z, out);
}

/// [`fill_row`] with the grid's numbers at hand.
pub(crate) fn fill_row_at(
    heights: &[f32],
    w: usize,
    h: usize,
    dx: f32,
    dz: f32,
    z: usize,
    out: &mut [f32],
) {
    fill_segment_at(heights, w, h, dx, dz, z, 0, w, out);
}

/// [`fill_row_at`] for the samples `x0..x1` of row `z` only (`out[k]` is sample `x0 + k`):
/// the same bits as the whole row's, for an edited rectangle.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fill_segment_at(
    heights: &[f32],
    w: usize,
    h: usize,
    dx: f32,
    dz: f32,
    z: usize,
    x0: usize,
    x1: usize,
    out: &mut [f32],
) {
    let (zl, zr) = (z.saturating_sub(1), (z + 1).min(h - 1));
    let row = &heights[z * w..(z + 1) * w];
    let up = &heights[zl * w..(zl + 1) * w];
    let down = &heights[zr * w..(zr + 1) * w];
    // The same divisors as `slope_at`: (xr − xl)·dx and (zr − zl)·dz.
    let (sx, sz) = (2.0 * dx, (zr - zl) as f32 * dz);
    // Interior samples (both X neighbours inside the row) take the vectorised stencil.
    let (a, b) = (x0.max(1), x1.min(w.saturating_sub(1)));
    if a < b {
        for (x, o) in (a..b).zip(&mut out[a - x0..b - x0]) {
            let gx = (row[x + 1] - row[x - 1]) / sx;
            let gz = (down[x] - up[x]) / sz;
            *o = atan_degrees((gx * gx + gz * gz).sqrt());
        }
    }
    for x in [0, w - 1] {
        if (x0..x1).contains(&x) {
            out[x - x0] = slope_at(heights, w, h, dx, dz, x, z);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plane_has_its_slope_everywhere_including_the_border() {
        let g = Grid::new([20.0, 10.0], [10, 10], 4).unwrap();
        let [w, h] = g.samples();
        // Rises 1 per world unit along X: 45°.
        let heights: Vec<f32> = (0..w * h).map(|i| (i % w) as f32 * 2.0).collect();
        for z in 0..h {
            for x in 0..w {
                let s = slope_degrees(&g, &heights, x, z);
                assert!((s - 45.0).abs() < 1e-3, "({x},{z}): {s}");
            }
        }
        let flat = vec![3.0; w * h];
        assert_eq!(slope_degrees(&g, &flat, 4, 4), 0.0);
        let mut row = vec![0.0; w];
        fill_row(&g, &heights, 3, &mut row);
        assert!(row.iter().all(|s| (s - 45.0).abs() < 1e-3));
    }

    #[test]
    fn atan_degrees_is_within_two_ten_thousandths_of_a_degree_and_monotonic() {
        let mut prev = -1.0f32;
        for i in 0..=200_000 {
            let g = i as f32 * 1e-4;
            let a = atan_degrees(g);
            let exact = (g as f64).atan().to_degrees();
            assert!((a as f64 - exact).abs() < 2e-4, "{g}: {a} vs {exact}");
            assert!(a >= prev, "monotonic at {g}");
            prev = a;
        }
        assert_eq!(atan_degrees(0.0), 0.0);
        assert!((atan_degrees(1e9) - 90.0).abs() < 1e-4);
    }

    #[test]
    fn rows_equal_points_bit_for_bit() {
        for (cells, size) in [
            ([1u32, 1u32], [1.0, 1.0]),
            ([2, 3], [3.0, 7.0]),
            ([37, 21], [50.0, 20.0]),
        ] {
            let f = crate::testutil::rough_field(size, cells, 4, 5, 30.0);
            let g = *f.grid();
            let [w, h] = g.samples();
            let mut row = vec![0.0; w];
            for z in 0..h {
                fill_row(&g, f.heights(), z, &mut row);
                for (x, s) in row.iter().enumerate() {
                    assert_eq!(s.to_bits(), slope_degrees(&g, f.heights(), x, z).to_bits());
                }
            }
        }
    }

    #[test]
    fn segments_equal_points_bit_for_bit() {
        let f = crate::testutil::rough_field([50.0, 20.0], [37, 21], 4, 5, 30.0);
        let g = *f.grid();
        let [w, h] = g.samples();
        let [dx, dz] = g.spacing();
        for (x0, x1) in [(0, 1), (0, 5), (3, 9), (30, 38), (37, 38), (0, 38)] {
            let mut out = vec![0.0; x1 - x0];
            for z in [0, 4, h - 1] {
                fill_segment_at(f.heights(), w, h, dx, dz, z, x0, x1, &mut out);
                for (k, s) in out.iter().enumerate() {
                    let want = slope_degrees(&g, f.heights(), x0 + k, z);
                    assert_eq!(s.to_bits(), want.to_bits(), "({}, {z})", x0 + k);
                }
            }
        }
    }

    #[test]
    fn sixty_degrees_is_tan_sqrt3() {
        let g = Grid::new([10.0, 10.0], [10, 10], 4).unwrap();
        let [w, h] = g.samples();
        let heights: Vec<f32> = (0..w * h).map(|i| (i / w) as f32 * 3.0f32.sqrt()).collect();
        assert!((slope_degrees(&g, &heights, 5, 5) - 60.0).abs() < 1e-3);
    }
}
