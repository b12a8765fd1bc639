//! Drainage: priority-flood depression handling, flow directions, flow accumulation, basins.
//!
//! Neighbours are the six samples that share a **triangle edge** with a sample under the grid's
//! diagonal rule: (±1, 0), (0, ±1), (+1, −1) and (−1, +1). Water therefore always moves along
//! drawn edges, which River Route relies on.
//!
//! Priority flood (Barnes et al.): every border sample is an outlet; samples are taken from a
//! priority queue ordered by (filled height, index) — a total order, so ties on equal heights are
//! broken deterministically — and each newly reached neighbour receives `max(own height, filled
//! height of the sample that reached it)` and drains into it. Neighbours reached at or below the
//! current level go through a FIFO pit queue first (same result, fewer heap operations). The pop order is a topological
//! order from the outlets upward, so accumulation is a single reverse pass.

use crate::grid::{Field, Grid};
use radix_heap::RadixHeapMap;
use std::cmp::Reverse;

/// Offsets of the six triangle-edge neighbours.
pub const NEIGHBOURS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// A closed basin: a connected region the flood raised above the ground.
#[derive(Clone, Debug, PartialEq)]
pub struct Basin {
    /// Lowest sample of the basin (its sink), grid coordinates.
    pub sink: [u32; 2],
    /// Ground height at the sink.
    pub sink_height: f32,
    /// Water level at which the basin spills (its filled height).
    pub spill_level: f32,
    /// Number of samples below the spill level.
    pub samples: u32,
    /// Largest depth (spill level − ground).
    pub max_depth: f32,
}

/// The result of a Drainage node.
#[derive(Clone, Debug)]
pub struct Drainage {
    /// The grid.
    pub grid: Grid,
    /// The field drainage was computed on (retained for River Route and Basin Water).
    pub source: Field<f32>,
    /// Depression-filled heights (≥ source).
    pub filled: Field<f32>,
    /// Index of the sample each sample drains into (`u32::MAX` for border outlets).
    pub receiver: Vec<u32>,
    /// Upstream area in samples, including the sample itself.
    pub accumulation: Vec<f32>,
    /// Samples in flood (topological) order: outlets first.
    pub order: Vec<u32>,
    /// Closed basins, ordered by sink index.
    pub basins: Vec<Basin>,
}

impl Drainage {
    /// Computes drainage for `source` on `grid`.
    pub fn compute(grid: Grid, source: &Field<f32>) -> Self {
        match Self::compute_cancellable(grid, source, &|| false) {
            Ok(d) => d,
            // Never cancelled, so never reached.
            Err(_) => unreachable!("an uncancellable drainage cannot be cancelled"),
        }
    }

    /// [`Drainage::compute`] that stops with `Err(Cancelled)` once `cancelled()` turns true
    /// (checked every 65,536 flooded samples and between passes, a few milliseconds apart).
    pub fn compute_cancellable(
        grid: Grid,
        source: &Field<f32>,
        cancelled: &dyn Fn() -> bool,
    ) -> crate::error::Result<Self> {
        let stop = || {
            if cancelled() {
                Err(crate::error::Error::Cancelled)
            } else {
                Ok(())
            }
        };
        let (w, h) = (source.width(), source.depth());
        let n = w * h;
        let src = source.as_slice();
        // During the flood only the ground (read-only) and one direction byte per sample are
        // touched (the byte array fits in cache): the flood visits samples in height order,
        // which jumps around the map, so memory latency dominates. Levels travel with the
        // queue entries; filled heights and receivers are derived afterwards, in flood order.
        const UNVISITED: u8 = 0xFF;
        const OUTLET: u8 = 6;
        let mut dir = vec![UNVISITED; n];
        let mut order = Vec::with_capacity(n);
        // (height bits as a total order, index) — f32 heights here are finite, so their
        // order-preserving integer key sorts exactly like the floats.
        let key = |v: f32| -> u32 {
            let b = v.to_bits();
            if b & 0x8000_0000 != 0 {
                !b
            } else {
                b | 0x8000_0000
            }
        };
        // A monotone priority queue (radix heap): every push is strictly higher than the level
        // being processed, so keys leave in non-decreasing (height, index) order.
        let mut heap: RadixHeapMap<Reverse<u64>, ()> = RadixHeapMap::new();
        let pack = |height_key: u32, i: usize| Reverse(((height_key as u64) << 32) | i as u64);
        for z in 0..h {
            for x in 0..w {
                if x == 0 || z == 0 || x == w - 1 || z == h - 1 {
                    let i = z * w + x;
                    dir[i] = OUTLET;
                    heap.push(pack(key(src[i]), i), ());
                }
            }
        }
        // Samples that the flood reaches at or below its current level (inside a depression or
        // on a flat) go to a FIFO "pit queue" that is drained before the heap (Barnes et al.,
        // 2014): the same filled surface, far fewer heap operations, still a deterministic
        // order in which every sample comes after its receiver.
        let mut pit: std::collections::VecDeque<(u32, f32)> = std::collections::VecDeque::new();
        loop {
            let (i, level) = match pit.pop_front() {
                Some((i, level)) => (i as usize, level),
                None => match heap.pop() {
                    Some((Reverse(k), ())) => {
                        let i = (k & 0xffff_ffff) as usize;
                        (i, src[i])
                    }
                    None => break,
                },
            };
            order.push(i as u32);
            if order.len() % 65_536 == 0 {
                stop()?;
            }
            let (x, z) = ((i % w) as i32, (i / w) as i32);
            for (k, (dx, dz)) in NEIGHBOURS.iter().enumerate() {
                let (nx, nz) = (x + dx, z + dz);
                if nx < 0 || nz < 0 || nx >= w as i32 || nz >= h as i32 {
                    continue;
                }
                let j = nz as usize * w + nx as usize;
                if dir[j] != UNVISITED {
                    continue;
                }
                // j drains back to i: the opposite neighbour direction (pairs differ in bit 0).
                dir[j] = (k ^ 1) as u8;
                let g = src[j];
                if g <= level {
                    pit.push_back((j as u32, level));
                } else {
                    heap.push(pack(key(g), j), ());
                }
            }
        }
        stop()?;
        let mut receiver = vec![u32::MAX; n];
        let mut filled = src.to_vec();
        for &i in &order {
            let i = i as usize;
            let d = dir[i];
            if d == OUTLET {
                continue;
            }
            let (dx, dz) = NEIGHBOURS[d as usize];
            let r = ((i / w) as i32 + dz) as usize * w + ((i % w) as i32 + dx) as usize;
            receiver[i] = r as u32;
            filled[i] = src[i].max(filled[r]);
        }
        let mut accumulation = vec![1.0f32; n];
        for &i in order.iter().rev() {
            let r = receiver[i as usize];
            if r != u32::MAX {
                accumulation[r as usize] += accumulation[i as usize];
            }
        }
        stop()?;
        let basins = find_basins(w, h, src, &filled);
        Ok(Self {
            grid,
            source: source.clone(),
            filled: Field::from_vec(w, h, filled).unwrap_or_else(|_| source.clone()),
            receiver,
            accumulation,
            order,
            basins,
        })
    }

    /// True for border samples (outlets).
    pub fn is_outlet(&self, i: usize) -> bool {
        self.receiver[i] == u32::MAX
    }

    /// Flow accumulation as a 0..1 mask: interior samples include every upstream contribution
    /// and are normalised to the largest interior value; border outlets weigh 0.
    pub fn flow_mask(&self) -> Field<f32> {
        let (w, h) = (self.source.width(), self.source.depth());
        let mut max = 0.0f32;
        for (i, &a) in self.accumulation.iter().enumerate() {
            if !self.is_outlet(i) {
                max = max.max(a);
            }
        }
        let data = self
            .accumulation
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                if self.is_outlet(i) || max == 0.0 {
                    0.0
                } else {
                    a / max
                }
            })
            .collect();
        Field::from_vec(w, h, data).unwrap_or_else(|_| Field::filled(w, h, 0.0))
    }
}

/// Connected regions (triangle-edge neighbours) where the flood raised the ground.
fn find_basins(w: usize, h: usize, src: &[f32], filled: &[f32]) -> Vec<Basin> {
    let n = w * h;
    let mut seen = vec![false; n];
    let mut basins = Vec::new();
    let mut stack = Vec::new();
    for start in 0..n {
        if seen[start] || filled[start] <= src[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut sink = start;
        let mut count = 0u32;
        let mut spill = filled[start];
        let mut depth = 0.0f32;
        while let Some(i) = stack.pop() {
            count += 1;
            spill = spill.max(filled[i]);
            depth = depth.max(filled[i] - src[i]);
            if (src[i], i) < (src[sink], sink) {
                sink = i;
            }
            let (x, z) = ((i % w) as i32, (i / w) as i32);
            for (dx, dz) in NEIGHBOURS {
                let (nx, nz) = (x + dx, z + dz);
                if nx < 0 || nz < 0 || nx >= w as i32 || nz >= h as i32 {
                    continue;
                }
                let j = nz as usize * w + nx as usize;
                if !seen[j] && filled[j] > src[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        basins.push(Basin {
            sink: [(sink % w) as u32, (sink / w) as u32],
            sink_height: src[sink],
            spill_level: spill,
            samples: count,
            max_depth: depth,
        });
    }
    basins.sort_by_key(|b| (b.sink[1], b.sink[0]));
    basins
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(w: usize, h: usize, f: impl Fn(usize, usize) -> f32) -> (Grid, Field<f32>) {
        let grid = Grid::new(
            [(w - 1) as f32, (h - 1) as f32],
            [(w - 1) as u32, (h - 1) as u32],
            8,
        )
        .unwrap();
        let data = (0..w * h).map(|i| f(i % w, i / w)).collect();
        (grid, Field::from_vec(w, h, data).unwrap())
    }

    #[test]
    fn a_bowl_fills_to_its_rim_and_reports_its_spill_level() {
        // A bowl with its lowest rim point at height 6 on the east side.
        let (grid, f) = field(21, 21, |x, z| {
            let (dx, dz) = (x as f32 - 10.0, z as f32 - 10.0);
            let r = (dx * dx + dz * dz).sqrt();
            if x == 20 || z == 20 || x == 0 || z == 0 {
                if x == 20 && z == 10 { 6.0 } else { 10.0 }
            } else {
                (r * 0.5).min(9.0)
            }
        });
        let d = Drainage::compute(grid, &f);
        assert_eq!(d.basins.len(), 1, "{:?}", d.basins);
        let b = &d.basins[0];
        assert_eq!(b.sink, [10, 10]);
        assert_eq!(b.spill_level, 6.0);
        assert_eq!(b.sink_height, 0.0);
        assert!((b.max_depth - 6.0).abs() < 1e-6);
        // Everything drains somewhere, and receivers always lie downhill on the filled surface.
        for i in 0..21 * 21 {
            if let Some(r) = (d.receiver[i] != u32::MAX).then_some(d.receiver[i] as usize) {
                assert!(d.filled.as_slice()[r] <= d.filled.as_slice()[i]);
            }
        }
    }

    #[test]
    fn accumulation_counts_every_upstream_sample_and_outlets_weigh_zero() {
        // A plane tilted toward x = 0: every row drains west.
        let (grid, f) = field(12, 6, |x, _| x as f32);
        let d = Drainage::compute(grid, &f);
        let total: f32 = (0..12 * 6)
            .filter(|&i| d.is_outlet(i))
            .map(|i| d.accumulation[i])
            .sum();
        assert_eq!(total, 72.0, "all samples reach an outlet exactly once");
        let m = d.flow_mask();
        assert_eq!(m.get(0, 3), 0.0, "border outlet");
        let max = m.as_slice().iter().cloned().fold(0.0, f32::max);
        assert_eq!(max, 1.0);
        assert!(d.basins.is_empty());
    }

    #[test]
    fn a_long_flood_stops_when_cancelled_and_otherwise_matches() {
        let (grid, f) = field(400, 400, |x, z| ((x * 7 + z * 13) % 17) as f32);
        let calls = std::cell::Cell::new(0u32);
        // Cancelled at the second check: inside the flood (160,000 samples, a check every 65,536).
        let r = Drainage::compute_cancellable(grid, &f, &|| {
            calls.set(calls.get() + 1);
            calls.get() >= 2
        });
        assert!(matches!(r, Err(crate::error::Error::Cancelled)));
        assert_eq!(
            calls.get(),
            2,
            "stopped at the first check that saw the request"
        );
        let full = Drainage::compute_cancellable(grid, &f, &|| false).expect("not cancelled");
        let plain = Drainage::compute(grid, &f);
        assert_eq!(full.receiver, plain.receiver);
        assert_eq!(full.order, plain.order);
    }

    #[test]
    fn equal_heights_resolve_deterministically() {
        let (grid, f) = field(16, 16, |_, _| 5.0);
        let a = Drainage::compute(grid, &f);
        let b = Drainage::compute(grid, &f);
        assert_eq!(a.receiver, b.receiver);
        assert_eq!(a.order, b.order);
        assert!(a.basins.is_empty(), "a flat plain has no closed basin");
    }

    #[test]
    fn separate_depressions_are_separate_basins() {
        // Two pits, each with its own low notch in the border (west at height 1, east at 2),
        // separated by a ridge higher than either pit's way out.
        let (grid, f) = field(30, 12, |x, z| {
            if x == 0 && z == 5 {
                return 1.0;
            }
            if x == 29 && z == 5 {
                return 2.0;
            }
            if x == 0 || z == 0 || x == 29 || z == 11 {
                return 8.0;
            }
            let pit = |cx: f32| ((x as f32 - cx).powi(2) + (z as f32 - 5.0).powi(2)).sqrt();
            (0.6 * pit(7.0).min(pit(22.0))).min(7.0)
        });
        let d = Drainage::compute(grid, &f);
        assert_eq!(d.basins.len(), 2, "{:?}", d.basins);
        assert!(d.basins[0].sink[0] < 15 && d.basins[1].sink[0] > 15);
        // Each spills through its own notch, below the ridge between them.
        assert!(
            (d.basins[0].spill_level - 3.6).abs() < 1e-5,
            "{:?}",
            d.basins
        );
        assert!(
            (d.basins[1].spill_level - 3.6).abs() < 1e-5,
            "{:?}",
            d.basins
        );
    }
}
