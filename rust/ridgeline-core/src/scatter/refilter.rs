//! Refiltering after edits: retained placements snap to the edited surface and re-check the
//! final environment (biome, slope, moisture, water, water distance, exclusions, protection).
//!
//! The input is an immutable list of base placements (the Scatter Palette node's output, or
//! every spaced site for the conventional pipeline). Refiltering only removes: a placement the
//! base does not hold is never invented, and undoing an edit restores exactly the placements
//! (identities, scale, yaw) it removed. [`refilter_region`] re-checks only placements inside
//! the edited rectangle and keeps the rest as they were, so a local edit costs its footprint.

use super::filter::{Environment, RuleFilter};
use super::lattice::{Candidate, rule_key};
use super::palette::Palette;
use super::{Placement, Scatter};
use rayon::prelude::*;

fn filters(palette: &Palette, base: &Scatter, env: &Environment) -> Vec<Option<RuleFilter>> {
    base.rules
        .iter()
        .map(|id| palette.rule(id).map(|r| RuleFilter::new(r, env)))
        .collect()
}

fn recheck(
    p: &Placement,
    f: &[Option<RuleFilter>],
    keys: &[u64],
    env: &Environment,
) -> Option<Placement> {
    let filter = f.get(p.rule as usize)?.as_ref()?;
    let c = Candidate::new(keys[p.rule as usize], p.cell[0], p.cell[1]);
    let [x, _, z] = p.position;
    let y = filter.accept(env, c, x, z)?;
    Some(Placement {
        position: [x, y, z],
        ..*p
    })
}

fn rule_keys(base: &Scatter, scatter_seed: u64) -> Vec<u64> {
    base.rules
        .iter()
        .map(|id| rule_key(scatter_seed, id))
        .collect()
}

/// `base` re-checked against `env` with `palette`'s filters (rules the palette no longer has
/// are dropped). Parallel, order-preserving.
pub fn refilter(
    palette: &Palette,
    scatter_seed: u64,
    base: &Scatter,
    env: &Environment,
) -> Scatter {
    let f = filters(palette, base, env);
    let keys = rule_keys(base, scatter_seed);
    let placements: Vec<Placement> = base
        .placements
        .par_iter()
        .filter_map(|p| recheck(p, &f, &keys, env))
        .collect();
    Scatter {
        placements,
        ..base.clone()
    }
}

/// `current` (an earlier refilter of `base`) with only the placements inside the terrain-local
/// rectangle `[x0, z0, x1, z1]` re-checked against `env`; the rest are kept as they were.
/// Equal to [`refilter`] whenever the environment changed only inside the rectangle.
pub fn refilter_region(
    palette: &Palette,
    scatter_seed: u64,
    base: &Scatter,
    current: &Scatter,
    env: &Environment,
    rect: [f32; 4],
) -> Scatter {
    let f = filters(palette, base, env);
    let keys = rule_keys(base, scatter_seed);
    let inside = |p: &Placement| {
        let [x, _, z] = p.position;
        x >= rect[0] && x <= rect[2] && z >= rect[1] && z <= rect[3]
    };
    let mut out = Vec::with_capacity(current.placements.len());
    let mut cur = current.placements.iter().peekable();
    for p in &base.placements {
        let same = cur
            .peek()
            .is_some_and(|c| c.rule == p.rule && c.cell == p.cell);
        let kept = if same { cur.next().copied() } else { None };
        if inside(p) {
            if let Some(q) = recheck(p, &f, &keys, env) {
                out.push(q);
            }
        } else if let Some(q) = kept {
            out.push(q);
        }
    }
    Scatter {
        placements: out,
        ..base.clone()
    }
}
