//! Water distance: the terrain-local distance from each sample to the nearest covered sample.
//!
//! **Exact** Euclidean distance transform between sample positions (Felzenszwalb and
//! Huttenlocher, "Distance Transforms of Sampled Functions", 2012), separable in two passes:
//!
//! 1. along Z, per column: the row gap to the nearest covered sample of the same column (a
//!    forward and a backward sweep over rows, contiguous in memory);
//! 2. along X, per row (rows in parallel): the lower envelope of the parabolas
//!    `dx²·(x − q)² + (gap(q)·dz)²`, evaluated in `f64`.
//!
//! Spacing may differ along X and Z. Covered samples have distance 0; with no covered sample
//! anywhere every distance is infinite (and every `water_distance` band rejects). Cost is
//! linear in the sample count; rows are independent, so the result is the same on any thread
//! count.

use super::coverage::COVERED;
use crate::grid::Grid;
use rayon::prelude::*;

/// No covered sample in the column (gaps fit `u16`: a grid has at most 8193 rows).
const NONE: u16 = u16::MAX;

/// Distances (world units) from every sample to the nearest sample whose flags have
/// [`COVERED`], or `None` when no sample is covered (every distance is infinite).
pub fn distance_transform(grid: &Grid, flags: &[u8]) -> Option<Vec<f32>> {
    let [w, h] = grid.samples();
    debug_assert_eq!(flags.len(), w * h);
    if !flags.iter().any(|&f| f & COVERED != 0) {
        return None;
    }
    let gaps = column_gaps(w, h, flags);
    let [dx, dz] = grid.spacing();
    let (dx, dz) = (dx as f64, dz as f64);
    let mut out = vec![0.0f32; w * h];
    out.par_chunks_mut(w).zip(gaps.par_chunks(w)).for_each_init(
        || Envelope::with_capacity(w),
        |env, (row, gap)| env.row(gap, dx, dz, row),
    );
    Some(out)
}

/// Pass 1: per sample, the number of rows to the nearest covered sample in its column
/// ([`NONE`] when the column has none). Branch-free sweeps over whole rows (gaps saturate at
/// [`NONE`]), which the compiler vectorises.
fn column_gaps(w: usize, h: usize, flags: &[u8]) -> Vec<u16> {
    let mut gaps = vec![NONE; w * h];
    // Forward: distance to the nearest covered sample at or above (smaller z).
    let mut last = vec![NONE; w];
    for z in 0..h {
        let row = &flags[z * w..(z + 1) * w];
        let out = &mut gaps[z * w..(z + 1) * w];
        for ((l, &f), o) in last.iter_mut().zip(row).zip(out.iter_mut()) {
            *l = if f & COVERED != 0 {
                0
            } else {
                l.saturating_add(1)
            };
            *o = *l;
        }
    }
    // Backward: the nearest at or below, keeping the smaller gap.
    last.fill(NONE);
    for z in (0..h).rev() {
        let row = &flags[z * w..(z + 1) * w];
        let out = &mut gaps[z * w..(z + 1) * w];
        for ((l, &f), o) in last.iter_mut().zip(row).zip(out.iter_mut()) {
            *l = if f & COVERED != 0 {
                0
            } else {
                l.saturating_add(1)
            };
            *o = (*o).min(*l);
        }
    }
    gaps
}

/// Scratch of pass 2: the lower envelope of one row's parabolas. Boundaries between envelope
/// pieces are kept as fractions `num / den` (den > 0) and compared cross-multiplied, so building
/// the envelope needs no division.
struct Envelope {
    /// Parabola vertices (sample x).
    v: Vec<u32>,
    /// Squared column distance per vertex.
    f: Vec<f64>,
    /// Left boundary of each piece (piece 0 starts at −∞; its entry is unused).
    num: Vec<f64>,
    den: Vec<f64>,
}

impl Envelope {
    fn with_capacity(w: usize) -> Self {
        Self {
            v: vec![0; w],
            f: vec![0.0; w],
            num: vec![0.0; w],
            den: vec![0.0; w],
        }
    }

    fn row(&mut self, gap: &[u16], dx: f64, dz: f64, out: &mut [f32]) {
        // A row covered from end to end (open sea) is all zeros.
        if gap.iter().all(|&g| g == 0) {
            out.fill(0.0);
            return;
        }
        let (v, fv, num, den) = (&mut self.v, &mut self.f, &mut self.num, &mut self.den);
        let dx2 = dx * dx;
        let mut len = 0usize;
        for (q, &g) in gap.iter().enumerate() {
            if g == NONE {
                continue;
            }
            let fq = (g as f64 * dz) * (g as f64 * dz);
            let qf = q as f64;
            let cq = fq + dx2 * qf * qf;
            // Drop envelope pieces the new parabola hides entirely: while the intersection
            // with the last piece's parabola lies at or left of that piece's start.
            let (mut n, mut d) = (0.0, 0.0);
            while len > 0 {
                let p = v[len - 1] as f64;
                n = cq - (fv[len - 1] + dx2 * p * p);
                d = 2.0 * dx2 * (qf - p);
                if len > 1 && n * den[len - 1] <= num[len - 1] * d {
                    len -= 1;
                } else {
                    break;
                }
            }
            v[len] = q as u32;
            fv[len] = fq;
            num[len] = n;
            den[len] = d;
            len += 1;
        }
        if len == 0 {
            out.fill(f32::INFINITY);
            return;
        }
        let mut k = 0;
        for (x, o) in out.iter_mut().enumerate() {
            let xf = x as f64;
            while k + 1 < len && num[k + 1] < xf * den[k + 1] {
                k += 1;
            }
            let d = xf - v[k] as f64;
            *o = (dx2 * d * d + fv[k]).sqrt() as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::bits;

    fn brute(grid: &Grid, flags: &[u8]) -> Vec<f32> {
        let [w, h] = grid.samples();
        let wet: Vec<[f32; 2]> = (0..w * h)
            .filter(|&i| flags[i] & COVERED != 0)
            .map(|i| grid.sample_position(i % w, i / w))
            .collect();
        (0..w * h)
            .map(|i| {
                let [x, z] = grid.sample_position(i % w, i / w);
                wet.iter()
                    .map(|p| (((p[0] - x) as f64).powi(2) + ((p[1] - z) as f64).powi(2)).sqrt())
                    .fold(f64::INFINITY, f64::min) as f32
            })
            .collect()
    }

    #[test]
    fn matches_brute_force_on_random_masks_with_anisotropic_spacing() {
        let mut rng = fastrand::Rng::with_seed(3);
        for case in 0..40 {
            let cells = [rng.u32(1..30), rng.u32(1..30)];
            let size = [
                cells[0] as f32 * (0.5 + rng.f32() * 2.0),
                cells[1] as f32 * 1.5,
            ];
            let g = Grid::new(size, cells, 4).unwrap();
            let density = [0.002, 0.02, 0.2, 0.6][case % 4];
            let mut flags: Vec<u8> = (0..g.sample_count())
                .map(|_| u8::from(rng.f32() < density))
                .collect();
            if case % 5 == 0 {
                flags.iter_mut().for_each(|f| *f = 0);
            }
            let want = brute(&g, &flags);
            match distance_transform(&g, &flags) {
                None => assert!(want.iter().all(|d| d.is_infinite()), "case {case}"),
                Some(got) => {
                    for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                        assert!(
                            (a - b).abs() <= 1e-4 * b.max(1.0),
                            "case {case} sample {i}: {a} vs {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn covered_samples_are_at_zero_and_others_are_not() {
        let g = Grid::new([8.0, 8.0], [8, 8], 4).unwrap();
        let mut flags = vec![0u8; g.sample_count()];
        flags[g.index(3, 3)] = COVERED | 2;
        let d = distance_transform(&g, &flags).unwrap();
        assert_eq!(d[g.index(3, 3)], 0.0);
        assert_eq!(d[g.index(6, 7)], 5.0);
        assert!(d.iter().filter(|&&v| v == 0.0).count() == 1);
    }

    #[test]
    fn same_result_on_one_and_two_threads() {
        let g = Grid::new([200.0, 150.0], [200, 150], 16).unwrap();
        let mut rng = fastrand::Rng::with_seed(9);
        let flags: Vec<u8> = (0..g.sample_count())
            .map(|_| u8::from(rng.f32() < 0.001))
            .collect();
        let run = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
                .install(|| distance_transform(&g, &flags))
        };
        let (a, b) = (run(1).unwrap(), run(2).unwrap());
        assert_eq!(bits(&a), bits(&b));
    }
}
