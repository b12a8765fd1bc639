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

/// Generates `recipe` and packs everything a game needs: the surface, water and the biome table.
/// Shared by `ridgeline cook`, the development cache and the Godot runtime.
pub fn prepare(
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<crate::formats::payload::PreparedTerrain> {
    let g = generate(recipe, quality, cache, progress, cancel)?;
    Ok(crate::formats::payload::PreparedTerrain {
        field: g.heightfield,
        water: (*g.water).clone(),
        default_biome: recipe.default_biome.clone(),
        biome_color: default_biome_color(recipe),
    })
}

/// The default biome's colour (a neutral green when the recipe does not define it).
pub fn default_biome_color(recipe: &Recipe) -> [f32; 4] {
    recipe
        .biomes
        .get(&recipe.default_biome)
        .map(|b| b.color.map(|c| c as f32))
        .unwrap_or([0.45, 0.5, 0.35, 1.0])
}

/// Identity of a recipe's generated result: the generator version plus the canonical recipe,
/// without graph node positions and comment text (layout never changes terrain). Any change to
/// connections, parameters, seed, grid, landforms, biomes or strokes changes it.
pub fn cache_key(recipe: &Recipe) -> u64 {
    let mut value = recipe.to_value();
    if let Some(nodes) = value
        .get_mut("graph")
        .and_then(|g| g.get_mut("nodes"))
        .and_then(|n| n.as_array_mut())
    {
        nodes.retain(|n| n.get("type").and_then(|t| t.as_str()) != Some("comment"));
        for n in nodes.iter_mut() {
            if let Some(m) = n.as_object_mut() {
                m.remove("position");
            }
        }
    }
    let mut h = crate::seed::StableHasher::default();
    h.str(crate::GENERATOR_VERSION).str(&value.to_string());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipe::Document;

    fn recipe(text: &str) -> Recipe {
        Document::parse(text, "t").unwrap().recipe().clone()
    }

    const GRAPH: &str = r#"{"format_version":1,"seed":7,"size":[64,64],"resolution":[32,32],
      "graph":{"format_version":1,"output":"out","nodes":[
        {"id":"hills","type":"noise_terrain","position":[0,0]},
        {"id":"note","type":"comment","position":[5,5],"text":"hello"},
        {"id":"out","type":"terrain_output","position":[300,0],"inputs":{"heightfield":"hills"}}]}}"#;

    #[test]
    fn cache_key_ignores_layout_and_notes_but_not_parameters() {
        let base = cache_key(&recipe(GRAPH));
        let moved = GRAPH.replace("[300,0]", "[10,90]").replace("hello", "bye");
        assert_eq!(cache_key(&recipe(&moved)), base);
        let reseeded = GRAPH.replace("\"seed\":7", "\"seed\":8");
        assert_ne!(cache_key(&recipe(&reseeded)), base);
        let bigger = GRAPH.replace("[32,32]", "[64,64]");
        assert_ne!(cache_key(&recipe(&bigger)), base);
    }

    #[test]
    fn prepare_matches_generate() {
        let r = recipe(GRAPH);
        let never = AtomicBool::new(false);
        let p = prepare(
            &r,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &never,
        )
        .unwrap();
        let g = generate(
            &r,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &never,
        )
        .unwrap();
        assert_eq!(p.field.heights(), g.heightfield.heights());
        assert_eq!(p.default_biome, r.default_biome);
    }
}
