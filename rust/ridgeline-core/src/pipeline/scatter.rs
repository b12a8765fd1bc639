//! Scatter on the finished terrain: the placements a prepared terrain publishes.
//!
//! - Graph recipes: the Scatter Palette node's placements (published through Terrain Output's
//!   `instances`) are the immutable base; after strokes they are refiltered against the final
//!   surface (heights snap; biome, slope, moisture, water, water distance, holes and
//!   exclusions re-checked). Refiltering only removes.
//! - The conventional pipeline (no graph) with a `palette`: placed directly on the finished
//!   surface with its final biomes, water and exclusions.
//! - Otherwise nothing is scattered.

use super::{PreparedTerrain, SurfaceState};
use crate::error::Result;
use crate::recipe::Recipe;
use crate::scatter::surroundings::Surroundings;
use crate::scatter::{Budgets, Scatter, place, refilter::refilter};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Resolves `p.scatter` on the finished terrain (`state` is its classification).
pub fn resolve(
    recipe: &Recipe,
    p: &mut PreparedTerrain,
    state: Option<&SurfaceState>,
) -> Result<()> {
    let Some(palette) = &recipe.palette else {
        p.scatter = Arc::new(Scatter::default());
        return Ok(());
    };
    let graph_base = recipe.graph.is_some();
    if graph_base && p.scatter.rules.is_empty() {
        return Ok(());
    }
    let Some(state) = state else {
        return Ok(());
    };
    let flow = p.sources.flow.as_deref().map(Vec::as_slice);
    let s = Surroundings::from_classification(state.classification(), state.classifier(), flow);
    let moisture = |i: usize| s.moisture(i);
    let ids = (!p.surface.is_empty()).then_some(p.surface.biome_ids.as_slice());
    let mut env = s.environment(p.field.heights(), ids, &moisture);
    env.holes = Some(p.field.holes());
    if !p.exclusion.is_empty() {
        env.blocked.push(&p.exclusion);
    }
    let seed = crate::seed::sub_seed(recipe.seed, "scatter");
    let out = if graph_base {
        refilter(palette, seed, &p.scatter, &env)
    } else {
        let never = AtomicBool::new(false);
        place(
            palette,
            seed,
            p.field.grid().size(),
            Some(&env),
            &Budgets::default(),
            &never,
        )
        .map_err(|e| recipe.locate_error(e))?
    };
    p.scatter = Arc::new(out);
    Ok(())
}
