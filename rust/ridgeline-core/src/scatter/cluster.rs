//! Cluster patches: smooth value noise of a physical patch size, from the rule's key only.
//!
//! The patch value is in [0, 1] with mean ½; a rule's keep probability becomes
//! `p · ((1 − strength) + strength · 2 · patch)`, so strength 0 is uniform and strength 1 makes
//! empty gaps and dense patches while the average density stays close to the request. It only
//! changes which fixed sites survive; surviving sites keep their positions.

use crate::seed::splitmix64;

/// The patch value at terrain-local (x, z) for patches of `size` keyed by `key`.
#[inline]
pub fn patch(key: u64, size: f64, x: f64, z: f64) -> f64 {
    let fx = x / size;
    let fz = z / size;
    let (ix, iz) = (fx.floor(), fz.floor());
    let (tx, tz) = (smooth(fx - ix), smooth(fz - iz));
    let (ix, iz) = (ix as i64, iz as i64);
    let node = |a: i64, b: i64| -> f64 {
        let h =
            splitmix64(key ^ 0xC1u64.rotate_left(40) ^ splitmix64((a as u64) ^ ((b as u64) << 32)));
        (h >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    };
    let v00 = node(ix, iz);
    let v10 = node(ix + 1, iz);
    let v01 = node(ix, iz + 1);
    let v11 = node(ix + 1, iz + 1);
    let a = v00 + (v10 - v00) * tx;
    let b = v01 + (v11 - v01) * tx;
    // Contrast: push values away from ½ so patches read as patches, keeping the mean at ½.
    let v = a + (b - a) * tz;
    (0.5 + (v - 0.5) * 1.6).clamp(0.0, 1.0)
}

#[inline(always)]
fn smooth(t: f64) -> f64 {
    t * t * (3.0 - 2.0 * t)
}

/// The keep-probability factor of a site with patch value `patch` at `strength`.
#[inline(always)]
pub fn factor(strength: f64, patch: f64) -> f64 {
    (1.0 - strength) + strength * 2.0 * patch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_are_smooth_bounded_and_average_one_half() {
        let mut sum = 0.0;
        let n = 400;
        for j in 0..n {
            for i in 0..n {
                let (x, z) = (i as f64 * 1.7, j as f64 * 1.3);
                let v = patch(9, 24.0, x, z);
                assert!((0.0..=1.0).contains(&v));
                let w = patch(9, 24.0, x + 0.01, z);
                assert!((v - w).abs() < 0.01, "not smooth at {x},{z}");
                sum += v;
            }
        }
        let mean = sum / (n * n) as f64;
        assert!((mean - 0.5).abs() < 0.05, "{mean}");
        assert_eq!(factor(0.0, 0.1), 1.0);
        assert_eq!(factor(1.0, 0.5), 1.0);
    }
}
