//! Scatter on the finished terrain: the placements a prepared terrain publishes.
//!
//! - Graph recipes: the Scatter Palette node's placements (published through Terrain Output's
//!   `instances`) are the immutable base; after strokes they are refiltered against the final
//!   surface (heights snap; biome, slope, moisture, water, water distance, holes,
//!   exclusions and protection re-checked). Refiltering only removes.
//! - The conventional pipeline (no graph) with a `palette`: its base is every spaced site, with
//!   candidates in the generated base's water rejected before spacing (so a wet candidate never
//!   suppresses a dry neighbour, and strokes cannot change which sites are spaced), refiltered
//!   on the finished surface with its final biomes, water, exclusions and protection.
//! - Otherwise nothing is scattered.

use super::{PreparedTerrain, SurfaceState};
use crate::biome::coverage::{self, COVERED};
use crate::error::Result;
use crate::recipe::Recipe;
use crate::scatter::filter::Surround;
use crate::scatter::refilter::{refilter, refilter_region};
use crate::scatter::surroundings::Surroundings;
use crate::scatter::{Budgets, Environment, Palette, Scatter, place_spaced};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The finished terrain's environment: its heights and holes, `state`'s water, moisture and
/// published biome ids, and the exclusion and protection masks (each blocks placements).
fn environment<'a>(
    s: &'a Surroundings<'a>,
    field: &'a crate::heightfield::Heightfield,
    state: &'a SurfaceState,
    exclusion: &'a [f32],
    protection: &'a [f32],
) -> Environment<'a> {
    let ids = state.published();
    let ids = (!ids.is_empty()).then_some(&ids.classes);
    let mut env = s.environment(field.heights(), ids);
    env.holes = Some(field.holes());
    for mask in [exclusion, protection] {
        if mask.iter().any(|&w| w > 0.0) {
            env.blocked.push(mask);
        }
    }
    env
}

/// Coverage flags as a [`Surround`] (the water the conventional pipeline spaces around).
struct Covered(Vec<u8>);

impl Surround for Covered {
    fn covered(&self, i: usize) -> bool {
        self.0.get(i).is_some_and(|&f| f & COVERED != 0)
    }
    fn water_distance(&self, _: usize) -> f32 {
        f32::INFINITY
    }
    fn moisture(&self, _: usize) -> Option<f32> {
        None
    }
}

/// Resolves `p.scatter` on the finished terrain (`state` is its classification; `session`, when
/// the recipe has strokes, gives the generated base's heights and the protection mask).
/// Returns the base placements refiltering starts from (an edit session keeps them), `None`
/// when nothing is scattered.
pub fn resolve(
    recipe: &Recipe,
    p: &mut PreparedTerrain,
    state: Option<&SurfaceState>,
    session: Option<&super::EditSession>,
) -> Result<Option<Arc<Scatter>>> {
    let Some(palette) = &recipe.palette else {
        p.scatter = Arc::new(Scatter::default());
        return Ok(None);
    };
    if recipe.graph.is_some() && p.scatter.rules.is_empty() {
        return Ok(None);
    }
    let Some(state) = state else {
        return Ok(None);
    };
    let seed = crate::seed::sub_seed(recipe.seed, "scatter");
    let base = if recipe.graph.is_some() {
        p.scatter.clone()
    } else {
        // Every spaced site away from the generated water, unfiltered: the conventional
        // pipeline's immutable base (the generated heights, so strokes never change it).
        let never = AtomicBool::new(false);
        let grid = *p.field.grid();
        let heights = session.map_or(p.field.heights(), |s| s.base());
        let source = state.surface_input(&p.field).water_source();
        let cover = Covered(coverage::flags(&grid, heights, source));
        let mut water = Environment::open(grid, heights);
        water.surround = Some(&cover);
        let all = place_spaced(
            palette,
            seed,
            grid.size(),
            Some(&water),
            &Budgets::default(),
            &never,
        )
        .map_err(|e| recipe.locate_error(e))?;
        Arc::new(all)
    };
    let flow = state.surface_input(&p.field).flow;
    let s = Surroundings::from_classification(state.classification(), state.classifier(), flow);
    let protection = session.map_or(&[][..], |s| s.protection());
    let env = environment(&s, &p.field, state, &p.exclusion, protection);
    let out = refilter(palette, seed, &base, &env);
    p.scatter = Arc::new(out);
    Ok(Some(base))
}

/// `current` with the placements inside samples `[x0, z0, x1, z1)` refiltered on the edited
/// surface (an edit session's change); `scatter_seed` is the scatter sub-seed
/// (`sub_seed(recipe seed, "scatter")`, or a cooked payload's).
#[allow(clippy::too_many_arguments)]
pub fn refilter_samples(
    palette: &Palette,
    scatter_seed: u64,
    base: &Scatter,
    current: &Scatter,
    field: &crate::heightfield::Heightfield,
    state: &SurfaceState,
    exclusion: &[f32],
    protection: &[f32],
    samples: [usize; 4],
) -> Scatter {
    let flow = state.surface_input(field).flow;
    let s = Surroundings::from_classification(state.classification(), state.classifier(), flow);
    let env = environment(&s, field, state, exclusion, protection);
    let [sx, sz] = field.grid().spacing();
    let rect = [
        samples[0] as f32 * sx - sx * 0.5,
        samples[1] as f32 * sz - sz * 0.5,
        samples[2] as f32 * sx + sx * 0.5,
        samples[3] as f32 * sz + sz * 0.5,
    ];
    refilter_region(palette, scatter_seed, base, current, &env, rect)
}
