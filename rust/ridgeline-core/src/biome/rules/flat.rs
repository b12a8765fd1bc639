//! The rules as the per-sample loop reads them: flat bounds, exact `f32` comparisons, the
//! early-exit winner and the row masks of the vectorised row pass.

use super::{CompiledRule, RuleSet};
use crate::biome::context::SampleContext;
use crate::biome::rules::Band;
use crate::biome::substrate::Substrate;

/// A rule as the inner loop reads it: numeric bands as `f32` `[lo, hi]` with unconstrained
/// bands at ±infinity (so they contain every value, including an infinite water distance), the
/// substrate set as a bit mask (all four bits for any). Sample values are `f32`, so an `f64`
/// bound converts exactly: `v ≥ lo` ⇔ `v ≥` the smallest `f32` ≥ `lo`, and `v ≤ hi` ⇔ `v ≤`
/// the largest `f32` ≤ `hi`. Equivalent to [`CompiledRule::check`] band by band; tests compare
/// the two.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct FlatRule {
    index: usize,
    /// Slope, moisture, water distance, elevation.
    lo: [f32; 4],
    hi: [f32; 4],
    substrate: u8,
    priority: f64,
    /// `1 / blend` when the blend applies (an elevation band and blend > 0), else 0.
    inv_blend: f64,
    elevation_lo: f64,
}

impl FlatRule {
    pub(super) fn new(r: &CompiledRule) -> Self {
        let mut lo = [f32::NEG_INFINITY; 4];
        let mut hi = [f32::INFINITY; 4];
        for (k, b) in [
            Band::Slope,
            Band::Moisture,
            Band::WaterDistance,
            Band::Elevation,
        ]
        .into_iter()
        .enumerate()
        {
            if let Some([a, z]) = r.spec.range(b) {
                lo[k] = f32_at_least(a);
                hi[k] = f32_at_most(z);
            }
        }
        let substrate = if r.spec.substrate.is_empty() {
            0b1111
        } else {
            Substrate::ALL
                .into_iter()
                .filter(|&s| r.spec.substrate.contains(s))
                .fold(0, |m, s| m | 1 << s as u8)
        };
        let (inv_blend, elevation_lo) = match r.spec.elevation {
            Some([a, _]) if r.spec.blend > 0.0 => (1.0 / r.spec.blend, a),
            _ => (0.0, 0.0),
        };
        Self {
            index: r.index,
            lo,
            hi,
            substrate,
            priority: r.spec.priority,
            inv_blend,
            elevation_lo,
        }
    }
}

/// The smallest `f32` ≥ `v` (`v` not NaN).
pub(crate) fn f32_at_least(v: f64) -> f32 {
    let c = v as f32;
    if (c as f64) < v { c.next_up() } else { c }
}

/// The largest `f32` ≤ `v` (`v` not NaN).
pub(crate) fn f32_at_most(v: f64) -> f32 {
    let c = v as f32;
    if (c as f64) > v { c.next_down() } else { c }
}

impl RuleSet {
    /// The winning active rule and its strength, or `None` when none matches.
    #[inline(always)]
    pub fn winner(&self, ctx: &SampleContext) -> Option<(usize, f64)> {
        let v = [ctx.slope, ctx.moisture, ctx.water_distance, ctx.height];
        let bit = 1u8 << ctx.substrate as u8;
        // (list position, strength, priority) of the best so far.
        let mut best: Option<(usize, f64, f64)> = None;
        for r in &self.flat {
            if let Some((_, s, p)) = best {
                // Later rules in this order cannot beat a full-strength winner, nor any winner
                // when their priority is lower.
                if s >= 1.0 || r.priority < p {
                    break;
                }
            }
            let inside = (v[0] >= r.lo[0])
                & (v[0] <= r.hi[0])
                & (v[1] >= r.lo[1])
                & (v[1] <= r.hi[1])
                & (v[2] >= r.lo[2])
                & (v[2] <= r.hi[2])
                & (v[3] >= r.lo[3])
                & (v[3] <= r.hi[3])
                & (r.substrate & bit != 0);
            if inside {
                let s = if r.inv_blend > 0.0 {
                    ((v[3] as f64 - r.elevation_lo) * r.inv_blend).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                // Same priority here (lower ones stopped the loop): strength, then position.
                let better = match best {
                    None => true,
                    Some((b, bs, bp)) => {
                        r.priority > bp
                            || (r.priority == bp && (s > bs || (s == bs && r.index < b)))
                    }
                };
                if better {
                    best = Some((r.index, s, r.priority));
                }
            }
        }
        best.map(|(i, s, _)| (i, s))
    }

    /// Most active rules the row pass evaluates with [`RuleSet::row_masks`] (one mask bit each).
    pub const ROW_RULES: usize = 32;

    /// True when [`RuleSet::row_masks`] applies: at most [`RuleSet::ROW_RULES`] active rules.
    pub fn row_path(&self) -> bool {
        self.flat.len() <= Self::ROW_RULES
    }

    /// For a row of samples, bit `k` of `masks[x]` tells whether the `k`-th active rule in
    /// evaluation order contains sample `x` (`values` = slope, moisture, water distance,
    /// height; `substrate[x]` = `1 << substrate id`). The same comparisons as
    /// [`RuleSet::winner`], one rule at a time over the whole row so they vectorise. Needs
    /// [`RuleSet::row_path`].
    pub fn row_masks(&self, values: [&[f32]; 4], substrate: &[u32], masks: &mut [u32]) {
        debug_assert!(self.row_path());
        let n = masks.len();
        let [a, b, c, d] = values.map(|v| &v[..n]);
        let substrate = &substrate[..n];
        masks.fill(0);
        for (k, r) in self.flat.iter().enumerate() {
            let sub = r.substrate as u32;
            let (lo, hi) = (r.lo, r.hi);
            for x in 0..n {
                let inside = (a[x] >= lo[0])
                    & (a[x] <= hi[0])
                    & (b[x] >= lo[1])
                    & (b[x] <= hi[1])
                    & (c[x] >= lo[2])
                    & (c[x] <= hi[2])
                    & (d[x] >= lo[3])
                    & (d[x] <= hi[3])
                    & (substrate[x] & sub != 0);
                masks[x] |= (inside as u32) << k;
            }
        }
    }

    /// The winner from a sample's [`RuleSet::row_masks`] mask: what [`RuleSet::winner`] gives
    /// for the same sample.
    #[inline(always)]
    pub fn winner_from_mask(&self, mask: u32, height: f32) -> Option<(usize, f64)> {
        if mask == 0 {
            return None;
        }
        let k = mask.trailing_zeros() as usize;
        let first = &self.flat[k];
        if first.inv_blend == 0.0 {
            return Some((first.index, 1.0));
        }
        let strength = |r: &FlatRule| {
            if r.inv_blend > 0.0 {
                ((height as f64 - r.elevation_lo) * r.inv_blend).clamp(0.0, 1.0)
            } else {
                1.0
            }
        };
        // A blended winner may lose to a later rule of the same priority: the same walk as
        // `winner`, over the matching rules only.
        let (mut bi, mut bs, bp) = (first.index, strength(first), first.priority);
        let mut rest = mask & (mask - 1);
        while rest != 0 && bs < 1.0 {
            let r = &self.flat[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            if r.priority < bp {
                break;
            }
            let s = strength(r);
            if s > bs || (s == bs && r.index < bi) {
                (bi, bs) = (r.index, s);
            }
        }
        Some((bi, bs))
    }
}
