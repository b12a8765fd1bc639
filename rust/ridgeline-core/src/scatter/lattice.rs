//! The physical candidate lattice and its counter-based random streams.
//!
//! A rule's lattice has squares of `candidate_spacing` terrain-local units starting at the
//! terrain origin, independent of the terrain's sample resolution. Square (i, j) holds one
//! candidate, jittered inside the square. Every random value of a candidate (keep, jitter,
//! priority, scale, yaw, exclusion dither) is SplitMix64 of the scatter sub-seed, the rule id's
//! hash and (i, j) only: no stateful generator, so results never depend on thread count, rule
//! order, other rules or the terrain resolution.

use crate::seed::{fnv1a, splitmix64};

/// Stream indices of a candidate's random values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Stream {
    /// Density (and cluster) thinning.
    Keep = 0,
    /// Jitter along X inside the square.
    JitterX = 1,
    /// Jitter along Z inside the square.
    JitterZ = 2,
    /// Spacing priority.
    Priority = 3,
    /// Scale within the rule's range.
    Scale = 4,
    /// Yaw within the rule's range.
    Yaw = 5,
    /// Dither against partial exclusion weights.
    Exclude = 6,
}

/// The hash a rule's streams are keyed by: FNV-1a of its stable id (renaming a rule changes
/// its placements; reordering or editing other rules never does).
pub fn rule_key(scatter_seed: u64, rule_id: &str) -> u64 {
    splitmix64(scatter_seed ^ fnv1a(rule_id.as_bytes()).rotate_left(23))
}

/// The random streams of candidate (i, j) of a rule keyed by `rule_key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate(u64);

impl Candidate {
    /// The candidate of lattice square (i, j).
    #[inline(always)]
    pub fn new(rule_key: u64, i: u32, j: u32) -> Self {
        Self(splitmix64(
            rule_key ^ splitmix64((i as u64) | ((j as u64) << 32)),
        ))
    }
    /// 64 random bits of `stream`.
    #[inline(always)]
    pub fn bits(self, stream: Stream) -> u64 {
        splitmix64(self.0 ^ (stream as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93))
    }
    /// A uniform value in [0, 1) of `stream` (53 bits).
    #[inline(always)]
    pub fn unit(self, stream: Stream) -> f64 {
        (self.bits(stream) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// A rule's lattice over a terrain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lattice {
    /// Side of a square.
    pub spacing: f64,
    /// Squares along X and Z (the last may extend past the terrain edge).
    pub squares: [u32; 2],
    /// The terrain size.
    pub size: [f64; 2],
}

impl Lattice {
    /// The lattice of `spacing` over a terrain of `size`.
    pub fn new(spacing: f64, size: [f32; 2]) -> Self {
        let size = [size[0] as f64, size[1] as f64];
        let n = |s: f64| ((s / spacing).ceil() as u64).clamp(1, u32::MAX as u64) as u32;
        Self {
            spacing,
            squares: [n(size[0]), n(size[1])],
            size,
        }
    }
    /// The candidate position of square (i, j), or `None` when its jitter puts it past the
    /// terrain's far edge.
    #[inline(always)]
    pub fn position(&self, c: Candidate, i: u32, j: u32) -> Option<[f64; 2]> {
        let x = (i as f64 + c.unit(Stream::JitterX)) * self.spacing;
        let z = (j as f64 + c.unit(Stream::JitterZ)) * self.spacing;
        (x <= self.size[0] && z <= self.size[1]).then_some([x, z])
    }
    /// Number of squares.
    pub fn count(&self) -> u64 {
        self.squares[0] as u64 * self.squares[1] as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_uniform_and_independent_of_each_other() {
        let key = rule_key(42, "pine");
        let mut sums = [0.0f64; 7];
        let n = 200_000u32;
        for k in 0..n {
            let c = Candidate::new(key, k % 500, k / 500);
            for (s, stream) in [
                Stream::Keep,
                Stream::JitterX,
                Stream::JitterZ,
                Stream::Priority,
                Stream::Scale,
                Stream::Yaw,
                Stream::Exclude,
            ]
            .into_iter()
            .enumerate()
            {
                let u = c.unit(stream);
                assert!((0.0..1.0).contains(&u));
                sums[s] += u;
            }
        }
        for s in sums {
            assert!((s / n as f64 - 0.5).abs() < 0.005, "{s}");
        }
        let c = Candidate::new(key, 3, 4);
        assert_ne!(c.bits(Stream::Keep), c.bits(Stream::Priority));
        assert_ne!(Candidate::new(key, 3, 4), Candidate::new(key, 4, 3));
        assert_ne!(rule_key(42, "pine"), rule_key(42, "rock"));
        assert_ne!(rule_key(42, "pine"), rule_key(43, "pine"));
    }

    #[test]
    fn the_lattice_is_physical() {
        let l = Lattice::new(0.25, [10.0, 5.0]);
        assert_eq!(l.squares, [40, 20]);
        let c = Candidate::new(1, 7, 3);
        let [x, z] = l.position(c, 7, 3).unwrap();
        assert!((1.75..2.0).contains(&x) && (0.75..1.0).contains(&z));
    }
}
