//! From a recipe to a prepared heightfield: graph (or the conventional pipeline) → surface.

use crate::error::Result;
use crate::graph::Graph;
use crate::graph::eval::{self, GraphCache, NodeReport, Progress};
use crate::heightfield::Heightfield;
use crate::nodes::Quality;
use crate::recipe::Recipe;
use std::sync::atomic::AtomicBool;

/// A finished generation.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The prepared surface.
    pub heightfield: Heightfield,
    /// Published water bodies (empty when the graph publishes none).
    pub water: std::sync::Arc<crate::hydrology::water::WaterSet>,
    /// Per-node timings and reuse.
    pub nodes: Vec<NodeReport>,
    /// Quality it ran at.
    pub quality: Quality,
}

/// Generates `recipe` at `quality`. Recipes without a graph use the conventional pipeline (the
/// default landform shapes the whole surface). `cache` carries node results between runs.
pub fn generate(
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<Generated> {
    let conventional;
    let graph = match &recipe.graph {
        Some(g) => g,
        None => {
            conventional = Graph::conventional();
            &conventional
        }
    };
    let out = eval::evaluate(graph, recipe, quality, cache, progress, cancel)?;
    let grid = recipe.grid()?;
    let heights = out.heightfield.as_slice().to_vec();
    let heightfield = Heightfield::new(grid, heights, None)?;
    Ok(Generated {
        heightfield,
        water: out.water,
        nodes: out.nodes,
        quality,
    })
}
