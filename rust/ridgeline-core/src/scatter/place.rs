//! Placing a palette: lattice candidates → density and cluster thinning → water → spacing by
//! local priority → environment filters → scale and yaw.
//!
//! Water is checked before spacing (the seed's order): a candidate in water is not a potential
//! site, so it never suppresses a dry neighbour within `spacing`. Water comes from generation
//! (the graph's water, or the generated base's sea), so an edit never changes which sites are
//! potential; the other filters (exclusions, protection, biomes, slope, …) run after spacing,
//! so an edit only removes placements and never makes a neighbour win.
//!
//! Work is split into tiles of lattice squares (every rule's tiles in one list) processed in
//! parallel; each tile recomputes the potential sites of a margin around it, so a tile's result
//! depends on nothing but the palette, the seed and the environment, and the concatenation in
//! list order is bit-identical on any thread count.

use super::filter::{Environment, RuleFilter};
use super::lattice::{Candidate, Lattice, Stream, rule_key};
use super::palette::{Budgets, Palette, PlacementRule};
use super::spacing::{Site, Window, offsets};
use super::{Placement, RuleStats, Scatter, cluster};
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Lattice squares per tile side.
const TILE: u32 = 64;

/// A tile's rule index, placements with their priorities, and counts.
type TileResult = (usize, Vec<(Placement, u64)>, RuleStats);

/// One rule ready to place.
pub(super) struct Plan<'p> {
    pub(super) rule: &'p PlacementRule,
    pub(super) index: u16,
    pub(super) key: u64,
    pub(super) lattice: Lattice,
    /// Keep probability per candidate before clusters.
    keep: f64,
    offsets: Vec<(i32, i32)>,
    reach: i64,
}

impl<'p> Plan<'p> {
    pub(super) fn new(
        palette: &'p Palette,
        index: usize,
        scatter_seed: u64,
        size: [f32; 2],
    ) -> Self {
        let rule = &palette.rules[index];
        let cs = rule.candidate_spacing;
        Self {
            rule,
            index: index as u16,
            key: rule_key(scatter_seed, &rule.id),
            lattice: Lattice::new(cs, size),
            keep: (rule.effective_density(palette) * cs * cs).min(1.0),
            offsets: offsets(rule.spacing, cs),
            reach: rule.spacing_reach() as i64,
        }
    }

    /// The potential site of square (i, j); `wet` rejects candidates in its water.
    #[inline]
    fn site(&self, i: i64, j: i64, wet: Option<&Environment>) -> Site {
        if i < 0
            || j < 0
            || i >= self.lattice.squares[0] as i64
            || j >= self.lattice.squares[1] as i64
        {
            return Site::default();
        }
        let (i, j) = (i as u32, j as u32);
        let c = Candidate::new(self.key, i, j);
        let Some([x, z]) = self.lattice.position(c, i, j) else {
            return Site::default();
        };
        let mut p = self.keep;
        let cl = self.rule.cluster;
        if cl.strength > 0.0 {
            p *= cluster::factor(cl.strength, cluster::patch(self.key, cl.size, x, z));
        }
        if c.unit(Stream::Keep) >= p || wet.is_some_and(|e| e.wet_at(x as f32, z as f32)) {
            return Site::default();
        }
        Site {
            x,
            z,
            priority: c.bits(Stream::Priority),
            present: true,
        }
    }

    /// Scale and yaw of candidate `c`.
    pub(super) fn variation(&self, c: Candidate) -> (f32, f32) {
        let [s0, s1] = self.rule.scale;
        let [y0, y1] = self.rule.yaw;
        let scale = s0 + (s1 - s0) * c.unit(Stream::Scale);
        let yaw = y0 + (y1 - y0) * c.unit(Stream::Yaw);
        (scale as f32, yaw as f32)
    }
}

/// Places `palette` on a terrain of `size` with the `scatter` sub-seed. With `env` candidates
/// in its water are rejected before spacing, the other filters apply after it and placements
/// stand on its surface; without, every spaced site is returned at height 0. Errors when a
/// budget is exceeded (with what to change) or on cancellation; the placement ceiling
/// truncates (the lowest-priority placements go) and reports it in [`Scatter::truncated`].
pub fn place(
    palette: &Palette,
    scatter_seed: u64,
    size: [f32; 2],
    env: Option<&Environment>,
    budgets: &Budgets,
    cancel: &AtomicBool,
) -> Result<Scatter> {
    run(palette, scatter_seed, size, env, env, budgets, cancel)
}

/// Every spaced site of `palette` at height 0, with candidates in `water`'s water (read through
/// its [`super::filter::Surround`]; nothing else of it) rejected before spacing: the immutable
/// base a refilter starts from ([`super::refilter`]). Errors as [`place`].
pub fn place_spaced(
    palette: &Palette,
    scatter_seed: u64,
    size: [f32; 2],
    water: Option<&Environment>,
    budgets: &Budgets,
    cancel: &AtomicBool,
) -> Result<Scatter> {
    run(palette, scatter_seed, size, water, None, budgets, cancel)
}

/// [`place`] with the water checked before spacing (`wet`) and the filters after it (`env`)
/// given separately.
fn run(
    palette: &Palette,
    scatter_seed: u64,
    size: [f32; 2],
    wet: Option<&Environment>,
    env: Option<&Environment>,
    budgets: &Budgets,
    cancel: &AtomicBool,
) -> Result<Scatter> {
    let mut d = crate::error::Diagnostics::default();
    palette.check_budgets(size, budgets, "palette", &mut d);
    d.into_result()?;
    let plans: Vec<Plan> = (0..palette.rules.len())
        .map(|i| Plan::new(palette, i, scatter_seed, size))
        .filter(|p| p.keep > 0.0)
        .collect();
    let filters: Vec<Option<RuleFilter>> = plans
        .iter()
        .map(|p| env.map(|e| RuleFilter::new(p.rule, e)))
        .collect();
    let mut jobs = Vec::new();
    for (k, p) in plans.iter().enumerate() {
        let [nx, nz] = p.lattice.squares;
        for tj in (0..nz).step_by(TILE as usize) {
            for ti in (0..nx).step_by(TILE as usize) {
                jobs.push((k, ti, tj));
            }
        }
    }
    let results: Vec<TileResult> = jobs
        .par_iter()
        .map(|&(k, ti, tj)| {
            if cancel.load(Ordering::Relaxed) {
                return (k, Vec::new(), RuleStats::default());
            }
            let (list, stats) = tile(&plans[k], filters[k].as_ref(), wet, env, ti, tj);
            (k, list, stats)
        })
        .collect();
    if cancel.load(Ordering::Relaxed) {
        return Err(Error::Cancelled);
    }
    let mut stats = vec![RuleStats::default(); palette.rules.len()];
    let mut all: Vec<(Placement, u64)> = Vec::new();
    for (k, list, s) in results {
        stats[plans[k].index as usize].add(&s);
        all.extend(list);
    }
    let truncated = all.len().saturating_sub(budgets.placements);
    if truncated > 0 {
        // Keep the highest priorities: an even sample of every rule, deterministic.
        let mut order: Vec<usize> = (0..all.len()).collect();
        order.sort_unstable_by(|&a, &b| {
            let (pa, pb) = (&all[a], &all[b]);
            pb.1.cmp(&pa.1)
                .then(pa.0.rule.cmp(&pb.0.rule))
                .then(pa.0.cell.cmp(&pb.0.cell))
        });
        let mut keep = vec![false; all.len()];
        for &i in &order[..budgets.placements] {
            keep[i] = true;
        }
        let mut i = 0;
        all.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        for p in &all {
            stats[p.0.rule as usize].kept += 1;
        }
    } else {
        for s in &mut stats {
            s.kept = s.placed;
        }
    }
    Ok(Scatter {
        palette: palette.name.clone(),
        rules: palette.rules.iter().map(|r| r.id.clone()).collect(),
        placements: all.into_iter().map(|(p, _)| p).collect(),
        stats,
        truncated,
    })
}

/// One tile of one rule: its placements with priorities and its counts.
fn tile(
    plan: &Plan,
    filter: Option<&RuleFilter>,
    wet: Option<&Environment>,
    env: Option<&Environment>,
    ti: u32,
    tj: u32,
) -> (Vec<(Placement, u64)>, RuleStats) {
    let [nx, nz] = plan.lattice.squares;
    let (ti1, tj1) = ((ti + TILE).min(nx), (tj + TILE).min(nz));
    let r = if plan.offsets.is_empty() {
        0
    } else {
        plan.reach
    };
    let (i0, j0) = (ti as i64 - r, tj as i64 - r);
    let (w, h) = (
        (ti1 - ti) as usize + 2 * r as usize,
        (tj1 - tj) as usize + 2 * r as usize,
    );
    let mut sites = Vec::with_capacity(w * h);
    for b in 0..h as i64 {
        for a in 0..w as i64 {
            sites.push(plan.site(i0 + a, j0 + b, wet));
        }
    }
    let window = Window {
        i0,
        j0,
        w,
        h,
        sites,
    };
    let mut out = Vec::new();
    let mut stats = RuleStats::default();
    for j in tj..tj1 {
        for i in ti..ti1 {
            stats.candidates += 1;
            let site = window.at(i as i64, j as i64);
            if !site.present {
                continue;
            }
            stats.potential += 1;
            let (wins, n) = window.wins(i as i64, j as i64, &plan.offsets, plan.rule.spacing);
            stats.spacing_checks += n;
            if !wins {
                continue;
            }
            stats.spaced += 1;
            let c = Candidate::new(plan.key, i, j);
            let (x, z) = (site.x as f32, site.z as f32);
            let y = match (env, filter) {
                (Some(e), Some(f)) => match f.accept(e, c, x, z) {
                    Some(y) => y,
                    None => continue,
                },
                _ => 0.0,
            };
            stats.placed += 1;
            let (scale, yaw) = plan.variation(c);
            out.push((
                Placement {
                    rule: plan.index,
                    cell: [i, j],
                    position: [x, y, z],
                    yaw,
                    scale,
                },
                site.priority,
            ));
        }
    }
    (out, stats)
}
