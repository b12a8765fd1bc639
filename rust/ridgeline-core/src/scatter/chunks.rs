//! Placements grouped by render chunk, each group in a fixed even order.
//!
//! Renderers draw placements per square chunk of terrain-local units and per rule. Within a
//! (chunk, rule) group the placements are ordered by a hash of their identity (rule id and
//! lattice square) only, so any prefix of a group is an even sample of it: distance thinning
//! draws the first `n` and drops the rest without clumping. The order never depends on the
//! placement list's order, thread count or other rules; a placement keeps its rank while others
//! come and go.

use super::{Placement, Scatter};
use crate::seed::{fnv1a, splitmix64};

/// One rule's placements inside one chunk, in thinning order (indices into
/// [`Scatter::placements`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleGroup {
    /// The rule index.
    pub rule: u16,
    /// Placement indices, evenly ordered (any prefix is an even sample).
    pub placements: Vec<u32>,
}

/// The placements of a scatter grouped by chunk.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChunkIndex {
    /// Chunk side in terrain-local units.
    pub chunk_size: f32,
    /// Chunk counts along X and Z.
    pub chunks: [usize; 2],
    /// Per chunk (row-major, Z outer): its rule groups, by rule index.
    pub groups: Vec<Vec<RuleGroup>>,
}

/// The thinning rank of a placement: a hash of its rule id and lattice square.
pub fn thinning_rank(rule_hash: u64, p: &Placement) -> u64 {
    splitmix64(
        rule_hash ^ splitmix64((p.cell[0] as u64) | ((p.cell[1] as u64) << 32)) ^ 0x7468_696E,
    )
}

/// The most render chunks along one side of a terrain: a smaller chunk size is raised to
/// `size / MAX_CHUNKS_PER_SIDE` (a million chunks at most, about 50 MB of bookkeeping; a tiny
/// chunk size on a large terrain would otherwise ask for more memory than the machine has).
pub const MAX_CHUNKS_PER_SIDE: usize = 1024;

/// The chunk side used for `chunk_size` over a terrain of `size` units: `chunk_size` itself
/// unless it is not positive and finite (then one chunk) or would split a side into more than
/// [`MAX_CHUNKS_PER_SIDE`] chunks (then the smallest side that does not).
pub fn usable_chunk_size(size: [f32; 2], chunk_size: f32) -> f32 {
    let longest = size[0].max(size[1]).max(1.0);
    if !(chunk_size.is_finite() && chunk_size > 0.0) {
        return longest;
    }
    let smallest = longest / MAX_CHUNKS_PER_SIDE as f32;
    // The division may round below the bound; one ulp up keeps the count within it.
    if chunk_size < smallest || (longest / chunk_size).ceil() > MAX_CHUNKS_PER_SIDE as f32 {
        let mut s = smallest;
        while (longest / s).ceil() > MAX_CHUNKS_PER_SIDE as f32 {
            s = s.next_up();
        }
        s
    } else {
        chunk_size
    }
}

impl ChunkIndex {
    /// Groups `scatter`'s placements into chunks of `chunk_size` units over a terrain of `size`
    /// units. `keep` filters placements (exclusions); placements outside the terrain go to the
    /// nearest border chunk. The chunk side is [`usable_chunk_size`] of `chunk_size`.
    pub fn build(
        scatter: &Scatter,
        size: [f32; 2],
        chunk_size: f32,
        mut keep: impl FnMut(usize, &Placement) -> bool,
    ) -> Self {
        let chunk_size = usable_chunk_size(size, chunk_size);
        let count = |s: f32| ((s / chunk_size).ceil() as usize).max(1);
        let chunks = [count(size[0]), count(size[1])];
        let hashes: Vec<u64> = scatter.rules.iter().map(|r| fnv1a(r.as_bytes())).collect();
        let mut ranked: Vec<Vec<(u16, u64, u32)>> = vec![Vec::new(); chunks[0] * chunks[1]];
        for (i, p) in scatter.placements.iter().enumerate() {
            if !keep(i, p) {
                continue;
            }
            let c = Self::chunk_of_in(chunks, chunk_size, p.position);
            let h = hashes.get(p.rule as usize).copied().unwrap_or(0);
            ranked[c[1] * chunks[0] + c[0]].push((p.rule, thinning_rank(h, p), i as u32));
        }
        let groups = ranked
            .into_iter()
            .map(|mut list| {
                list.sort_unstable();
                let mut out: Vec<RuleGroup> = Vec::new();
                for (rule, _, i) in list {
                    match out.last_mut() {
                        Some(g) if g.rule == rule => g.placements.push(i),
                        _ => out.push(RuleGroup {
                            rule,
                            placements: vec![i],
                        }),
                    }
                }
                out
            })
            .collect();
        Self {
            chunk_size,
            chunks,
            groups,
        }
    }

    /// The chunk (x, z) holding terrain-local `position` (clamped to the grid).
    pub fn chunk_of(&self, position: [f32; 3]) -> [usize; 2] {
        Self::chunk_of_in(self.chunks, self.chunk_size, position)
    }

    fn chunk_of_in(chunks: [usize; 2], size: f32, p: [f32; 3]) -> [usize; 2] {
        let c = |v: f32, n: usize| ((v / size).floor().max(0.0) as usize).min(n.saturating_sub(1));
        [c(p[0], chunks[0]), c(p[2], chunks[1])]
    }

    /// The groups of chunk (x, z) (empty outside the grid).
    pub fn chunk(&self, x: usize, z: usize) -> &[RuleGroup] {
        if x >= self.chunks[0] || z >= self.chunks[1] {
            return &[];
        }
        &self.groups[z * self.chunks[0] + x]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_chunk_size_is_raised_to_a_bounded_chunk_count() {
        assert_eq!(usable_chunk_size([1024.0, 512.0], 32.0), 32.0);
        assert_eq!(usable_chunk_size([1024.0, 512.0], f32::NAN), 1024.0);
        assert_eq!(usable_chunk_size([1024.0, 512.0], -1.0), 1024.0);
        for (size, tiny) in [
            ([1024.0, 1024.0], 0.01),
            ([8191.0, 300.0], 1e-30),
            ([7.0, 3.0], 1e-3),
        ] {
            let s = usable_chunk_size(size, tiny);
            assert!(
                (size[0] / s).ceil() as usize <= MAX_CHUNKS_PER_SIDE,
                "{size:?} {s}"
            );
            let idx = ChunkIndex::build(&Scatter::default(), size, tiny, |_, _| true);
            assert!(idx.groups.len() <= MAX_CHUNKS_PER_SIDE * MAX_CHUNKS_PER_SIDE);
            assert_eq!(idx.chunk_size, s);
        }
    }

    #[test]
    fn an_empty_index_maps_every_position_to_its_origin_chunk() {
        let empty = ChunkIndex::default();
        assert_eq!(empty.chunk_of([10.0, 0.0, 10.0]), [0, 0]);
        assert!(empty.chunk(0, 0).is_empty());
    }

    fn grid(n: u32, spacing: f32) -> Scatter {
        let mut placements = Vec::new();
        for j in 0..n {
            for i in 0..n {
                for rule in 0..2u16 {
                    placements.push(Placement {
                        rule,
                        cell: [i, j],
                        position: [(i as f32 + 0.5) * spacing, 0.0, (j as f32 + 0.5) * spacing],
                        yaw: 0.0,
                        scale: 1.0,
                    });
                }
            }
        }
        Scatter {
            palette: "p".into(),
            rules: vec!["grass".into(), "rock".into()],
            placements,
            ..Default::default()
        }
    }

    #[test]
    fn every_kept_placement_lands_in_its_chunk_once() {
        let s = grid(64, 1.0);
        let idx = ChunkIndex::build(&s, [64.0, 64.0], 32.0, |i, _| i % 7 != 0);
        assert_eq!(idx.chunks, [2, 2]);
        let mut seen = vec![0u8; s.placements.len()];
        for z in 0..2 {
            for x in 0..2 {
                for g in idx.chunk(x, z) {
                    for &i in &g.placements {
                        let p = &s.placements[i as usize];
                        assert_eq!(p.rule, g.rule);
                        assert_eq!(idx.chunk_of(p.position), [x, z]);
                        seen[i as usize] += 1;
                    }
                }
            }
        }
        for (i, n) in seen.iter().enumerate() {
            assert_eq!(*n, u8::from(i % 7 != 0), "placement {i}");
        }
    }

    #[test]
    fn any_prefix_is_an_even_sample_of_the_chunk() {
        // One 32 m chunk of a 1 m lattice: the first quarter of the group covers every 8 m
        // block (16 of them) with 16 ± 10 of its 256 placements (binomial: σ = 3.9).
        let s = grid(32, 1.0);
        let idx = ChunkIndex::build(&s, [32.0, 32.0], 32.0, |_, _| true);
        let g = &idx.chunk(0, 0)[0];
        let prefix = &g.placements[..g.placements.len() / 4];
        let mut blocks = [0u32; 16];
        for &i in prefix {
            let p = s.placements[i as usize].position;
            blocks[(p[2] / 8.0) as usize * 4 + (p[0] / 8.0) as usize] += 1;
        }
        for (b, n) in blocks.iter().enumerate() {
            assert!(
                (6..=26).contains(n),
                "block {b} holds {n} of the prefix: {blocks:?}"
            );
        }
    }

    #[test]
    fn order_is_independent_of_the_list_order_and_other_placements() {
        let s = grid(16, 2.0);
        let a = ChunkIndex::build(&s, [32.0, 32.0], 32.0, |_, _| true);
        let mut r = s.clone();
        r.placements.reverse();
        let b = ChunkIndex::build(&r, [32.0, 32.0], 32.0, |_, _| true);
        let cells = |idx: &ChunkIndex, s: &Scatter| -> Vec<[u32; 2]> {
            idx.chunk(0, 0)[0]
                .placements
                .iter()
                .map(|&i| s.placements[i as usize].cell)
                .collect()
        };
        assert_eq!(cells(&a, &s), cells(&b, &r));
        // Dropping some placements keeps the others' relative order.
        let c = ChunkIndex::build(&s, [32.0, 32.0], 32.0, |_, p| p.cell[0] % 3 != 0);
        let kept: Vec<_> = cells(&a, &s)
            .into_iter()
            .filter(|c| c[0] % 3 != 0)
            .collect();
        assert_eq!(cells(&c, &s), kept);
    }
}
