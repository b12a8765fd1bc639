//! River channels over the grid: the samples near an XYZ path (Y = bed), visited segment by
//! segment inside each segment's bounding box.
//!
//! Only samples within `reach` of a segment can be affected by it, and every such sample lies
//! inside the segment's XZ bounding box grown by `reach`. Visiting just those boxes gives the
//! same result as testing every sample against every segment (minimums do not depend on order,
//! and the nearest segment keeps the first one on ties because segments are visited in path
//! order with a strict comparison), at a cost proportional to the river's area instead of
//! samples × segments. Cancellation is checked once per visited row.

use crate::error::{Error, Result};
use crate::grid::Grid;

use super::seg_dist;

/// Sample rectangle `[x0, x1) × [z0, z1)` of one segment's box grown by `reach`, one sample of
/// margin on each side against rounding; `None` when it misses the grid.
fn segment_box(
    grid: &Grid,
    a: [f32; 3],
    b: [f32; 3],
    reach: f32,
) -> Option<(usize, usize, usize, usize)> {
    let [w, h] = grid.samples();
    let [dx, dz] = grid.spacing();
    let span = |lo: f32, hi: f32, d: f32, n: usize| -> Option<(usize, usize)> {
        let first = ((lo - reach) / d).floor() - 1.0;
        let last = ((hi + reach) / d).ceil() + 1.0;
        if !(first.is_finite() && last.is_finite()) || last < 0.0 || first > (n - 1) as f32 {
            return None;
        }
        let first = first.max(0.0) as usize;
        let last = (last as usize).min(n - 1);
        Some((first, last + 1))
    };
    let (x0, x1) = span(a[0].min(b[0]), a[0].max(b[0]), dx, w)?;
    let (z0, z1) = span(a[2].min(b[2]), a[2].max(b[2]), dz, h)?;
    Some((x0, x1, z0, z1))
}

/// Distance tests a pass over `path` with `reach` costs: the summed areas of the segments'
/// sample boxes. Used to bound the work before it starts.
pub fn path_work(grid: &Grid, path: &[[f32; 3]], reach: f32) -> u64 {
    path.windows(2)
        .filter_map(|s| segment_box(grid, s[0], s[1], reach))
        .map(|(x0, x1, z0, z1)| ((x1 - x0) as u64) * ((z1 - z0) as u64))
        .fold(0u64, u64::saturating_add)
}

/// Calls `visit(sample index, distance, t)` for every sample in every segment's box, segment by
/// segment in path order (`t` is the closest point's parameter on that segment). Returns
/// `Err(Cancelled)` as soon as `cancelled()` says so (checked per row).
pub fn for_each_near(
    grid: &Grid,
    path: &[[f32; 3]],
    reach: f32,
    cancelled: &dyn Fn() -> bool,
    mut visit: impl FnMut(usize, usize, f32, f32),
) -> Result<()> {
    let [w, _] = grid.samples();
    for (k, s) in path.windows(2).enumerate() {
        let Some((x0, x1, z0, z1)) = segment_box(grid, s[0], s[1], reach) else {
            continue;
        };
        let (a, b) = ([s[0][0], s[0][2]], [s[1][0], s[1][2]]);
        for z in z0..z1 {
            if cancelled() {
                return Err(Error::Cancelled);
            }
            for x in x0..x1 {
                let (d, t) = seg_dist(a, b, grid.sample_position(x, z));
                visit(z * w + x, k, d, t);
            }
        }
    }
    Ok(())
}

/// Per sample: the distance to the nearest segment within `reach` (infinity when none) and the
/// bed height at its closest point (the first segment on ties).
pub struct NearestBed {
    /// Distance to the nearest segment, `f32::INFINITY` beyond `reach` of every segment.
    pub distance: Vec<f32>,
    /// Bed height at the nearest segment's closest point (0 where `distance` is infinite).
    pub bed: Vec<f32>,
}

/// [`NearestBed`] of every sample for `path`, looking no further than `reach`.
pub fn nearest_bed(
    grid: &Grid,
    path: &[[f32; 3]],
    reach: f32,
    cancelled: &dyn Fn() -> bool,
) -> Result<NearestBed> {
    let n = grid.sample_count();
    let mut distance = vec![f32::INFINITY; n];
    let mut bed = vec![0.0f32; n];
    for_each_near(grid, path, reach, cancelled, |i, k, d, t| {
        if d < distance[i] {
            distance[i] = d;
            bed[i] = path[k][1] + t * (path[k + 1][1] - path[k][1]);
        }
    })?;
    Ok(NearestBed { distance, bed })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brute-force definition: every sample against every segment.
    fn brute(grid: &Grid, path: &[[f32; 3]]) -> (Vec<f32>, Vec<f32>) {
        let [w, _] = grid.samples();
        (0..grid.sample_count())
            .map(|i| {
                let p = grid.sample_position(i % w, i / w);
                let (mut best, mut bed) = (f32::INFINITY, 0.0);
                for s in path.windows(2) {
                    let (d, t) = seg_dist([s[0][0], s[0][2]], [s[1][0], s[1][2]], p);
                    if d < best {
                        best = d;
                        bed = s[0][1] + t * (s[1][1] - s[0][1]);
                    }
                }
                (best, bed)
            })
            .unzip()
    }

    fn grid() -> Grid {
        Grid::new([100.0, 60.0], [100, 60], 16).expect("grid")
    }

    #[test]
    fn boxes_give_the_brute_force_nearest_segment_within_reach() {
        let g = grid();
        let path = [
            [-5.0, 3.0, 10.0],
            [30.0, 2.0, 12.5],
            [30.0, 1.0, 40.0],
            [95.0, -1.0, 55.0],
            [120.0, -2.0, 70.0],
        ];
        let reach = 4.3;
        let (bd, bb) = brute(&g, &path);
        let near = nearest_bed(&g, &path, reach, &|| false).expect("not cancelled");
        for i in 0..g.sample_count() {
            if bd[i] <= reach {
                assert_eq!(near.distance[i].to_bits(), bd[i].to_bits(), "sample {i}");
                assert_eq!(near.bed[i].to_bits(), bb[i].to_bits(), "sample {i}");
            } else {
                assert!(near.distance[i] > reach, "sample {i}");
            }
        }
    }

    #[test]
    fn work_is_the_river_area_not_samples_times_segments() {
        let g = grid();
        // 200 short segments along one row: a few thousand tests, not 200 × 6161.
        let path: Vec<[f32; 3]> = (0..=200).map(|k| [k as f32 * 0.5, 0.0, 30.0]).collect();
        let work = path_work(&g, &path, 1.0);
        assert!(work < 200 * 40, "work {work}");
        assert!(work > 0);
    }

    #[test]
    fn a_path_outside_the_grid_costs_nothing() {
        let g = grid();
        let path = [[-50.0, 0.0, -50.0], [-40.0, 0.0, -45.0]];
        assert_eq!(path_work(&g, &path, 2.0), 0);
        let near = nearest_bed(&g, &path, 2.0, &|| false).expect("not cancelled");
        assert!(near.distance.iter().all(|d| d.is_infinite()));
    }

    #[test]
    fn cancellation_stops_the_pass() {
        let g = grid();
        let path = [[0.0, 0.0, 0.0], [100.0, 0.0, 60.0]];
        let r = nearest_bed(&g, &path, 5.0, &|| true);
        assert!(matches!(r, Err(Error::Cancelled)));
    }
}
