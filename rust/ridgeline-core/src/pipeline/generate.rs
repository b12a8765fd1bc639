//! From a recipe to a prepared heightfield: graph (or the conventional pipeline) → surface.

use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::graph::eval::{self, GraphCache, NodeReport, Progress};
use crate::heightfield::Heightfield;
use crate::nodes::{NodeFiles, Quality};
use crate::recipe::Recipe;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A finished generation.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The prepared surface (strokes replayed).
    pub heightfield: Heightfield,
    /// The generated surface before strokes, when the recipe has any.
    pub base: Option<Heightfield>,
    /// Published water bodies (empty when the graph publishes none).
    pub water: std::sync::Arc<crate::hydrology::water::WaterSet>,
    /// What surface classification reads from the graph (rules on/off, flow, erosion).
    pub sources: super::SurfaceSources,
    /// The graph's placements (Terrain Output's `instances`), before strokes.
    pub instances: Option<std::sync::Arc<crate::scatter::Scatter>>,
    /// Per-node timings and reuse.
    pub nodes: Vec<NodeReport>,
    /// Quality it ran at.
    pub quality: Quality,
}

/// Generates `recipe` at `quality`. Recipes without a graph use the conventional pipeline (the
/// default landform shapes the whole surface). `cache` carries node results between runs.
/// Strokes are replayed on the generated base; a stroke that references a mask image needs
/// [`generate_with_masks`].
pub fn generate(
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<Generated> {
    generate_with_masks(recipe, quality, cache, progress, cancel, None)
}

/// [`generate`], resolving brush mask images through `masks`.
pub fn generate_with_masks(
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
    masks: Option<crate::edit::MaskLoader>,
) -> Result<Generated> {
    let files = read_files(recipe, progress)?;
    generate_with_files(recipe, &files, quality, cache, progress, cancel, masks)
}

/// Reads the files `recipe`'s graph names ([`super::files::read_node_files`]), errors located in
/// the recipe.
pub fn read_files(recipe: &Recipe, progress: Progress) -> Result<NodeFiles> {
    let Some(graph) = &recipe.graph else {
        return Ok(NodeFiles::new());
    };
    if graph.nodes.iter().any(|n| n.node.file_request().is_some()) {
        progress(0.0, "reading files");
    }
    super::files::read_node_files(recipe, graph).map_err(|e| recipe.locate_error(e))
}

/// [`generate_with_masks`] with the graph's files already read ([`read_files`]).
pub fn generate_with_files(
    recipe: &Recipe,
    files: &NodeFiles,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
    masks: Option<crate::edit::MaskLoader>,
) -> Result<Generated> {
    let conventional;
    let graph = match &recipe.graph {
        Some(g) => g,
        None => {
            conventional = Graph::conventional();
            &conventional
        }
    };
    let biomes = super::surface::compile(recipe, true, [0.0, 0.0])?;
    let scene = recipe
        .scene()?
        .with_files(files)
        .with_biomes(&biomes, super::surface::biomes_key(recipe))
        .with_palette(recipe.palette.as_ref());
    let out = eval::evaluate(graph, &scene, quality, cache, progress, cancel)
        .map_err(|e| recipe.locate_error(e))?;
    let grid = scene.grid;
    let heights = out.heightfield.as_slice().to_vec();
    let generated = Heightfield::new(grid, heights, None)?;
    // Flow after sculpting routes drainage on the sculpted surface plus this offset.
    let flow_offset = out
        .classified
        .as_ref()
        .and_then(|c| c.flow_ground.as_deref())
        .and_then(|g| super::sculpted_flow::offset(g, generated.heights()));
    let mut water = out.water;
    let (heightfield, base) = if recipe.has_strokes() {
        progress(1.0, "replaying strokes");
        let session = super::EditSession::new(recipe.clone(), generated.clone(), masks)
            .map_err(|e| recipe.locate_error(e))?;
        let painted = session.water_depths();
        if !painted.is_empty() {
            std::sync::Arc::make_mut(&mut water).set_painted(painted);
        }
        (session.field().clone(), Some(generated))
    } else {
        (generated, None)
    };
    let sources = super::SurfaceSources {
        rules: recipe.graph.is_none() || out.classified.is_some(),
        flow: out.classified.as_ref().and_then(|c| c.flow.clone()),
        flow_offset,
        erosion: out.classified.as_ref().and_then(|c| c.erosion.clone()),
    };
    Ok(Generated {
        heightfield,
        base,
        sources,
        water,
        instances: out.instances,
        nodes: out.nodes,
        quality,
    })
}

/// Generates `recipe` and packs everything a game needs: the surface (strokes replayed), water
/// and the biome table. Shared by `ridgeline cook`, the export plugin and the Godot runtime.
pub fn prepare(
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
    masks: Option<crate::edit::MaskLoader>,
) -> Result<super::PreparedTerrain> {
    let base = prepare_base(recipe, quality, cache, progress, cancel)?;
    Ok(finish(recipe, base, masks)?.0)
}

/// The generated base (graph only, no strokes, not yet classified): what the development
/// cache stores under [`base_cache_key`], since strokes replay in milliseconds.
pub fn prepare_base(
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<super::PreparedTerrain> {
    let files = read_files(recipe, progress)?;
    prepare_base_with_files(recipe, &files, quality, cache, progress, cancel)
}

/// [`prepare_base`] with the graph's files already read ([`read_files`]).
pub fn prepare_base_with_files(
    recipe: &Recipe,
    files: &NodeFiles,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<super::PreparedTerrain> {
    prepare_base_reporting(recipe, files, quality, cache, progress, cancel).map(|(p, _)| p)
}

/// [`prepare_base_with_files`], with what each graph node did (time or reuse; empty for the
/// conventional pipeline).
pub fn prepare_base_reporting(
    recipe: &Recipe,
    files: &NodeFiles,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<(super::PreparedTerrain, Vec<NodeReport>)> {
    let mut bare = recipe.clone();
    bare.clear_strokes();
    let g = generate_with_files(&bare, files, quality, cache, progress, cancel, None)?;
    let mut p = super::PreparedTerrain::new(
        g.heightfield,
        (*g.water).clone(),
        recipe.default_biome.clone(),
        default_biome_color(recipe),
    );
    p.sources = g.sources;
    if let Some(s) = g.instances {
        p.scatter = s;
    }
    Ok((p, g.nodes))
}

/// Classifies `p`'s surface (biome ids and roles) from its field, water, painted regions and
/// sources. `base_range` is the generated base's height range (the snow line). When `state`
/// is given it receives the classification state (an edit session keeps it).
pub fn classify(
    recipe: &Recipe,
    p: &mut super::PreparedTerrain,
    base_range: [f32; 2],
    state: Option<&mut Option<super::SurfaceState>>,
) -> Result<()> {
    let s = super::SurfaceState::new(
        recipe,
        p.sources.clone(),
        &p.water,
        base_range,
        &p.field,
        &p.regions,
        &p.region_biomes,
    )?;
    p.surface = s.surface();
    if let Some(slot) = state {
        *slot = Some(s);
    }
    Ok(())
}

/// Replays `recipe`'s strokes on a prepared base. Returns the finished terrain and, when the
/// recipe has strokes, the edit session (base, strokes, masks, history) for further editing.
pub fn finish(
    recipe: &Recipe,
    base: super::PreparedTerrain,
    masks: Option<crate::edit::MaskLoader>,
) -> Result<(super::PreparedTerrain, Option<super::EditSession>)> {
    finish_keeping_state(recipe, base, masks, None)
}

/// [`finish`]; without strokes the classification state goes to `state` (with strokes the
/// session keeps it).
fn finish_keeping_state(
    recipe: &Recipe,
    base: super::PreparedTerrain,
    masks: Option<crate::edit::MaskLoader>,
    state: Option<&mut Option<super::SurfaceState>>,
) -> Result<(super::PreparedTerrain, Option<super::EditSession>)> {
    if !recipe.has_strokes() {
        // Classified here, not in the cached base: biome layers and tints are not part of the
        // base cache key.
        let mut base = base;
        let range = base.field.height_range();
        let mut kept = None;
        classify(recipe, &mut base, range, Some(&mut kept))?;
        let sites = super::scatter::resolve(recipe, &mut base, kept.as_ref(), None)?;
        let n = base.field.grid().sample_count();
        let rules = recipe.graph.is_none() || base.sources.rules;
        let mut source = super::ScatterSource::of(recipe, None, n, rules);
        source.base_placements = sites;
        base.scatter_source = Arc::new(source);
        if let Some(slot) = state {
            *slot = kept;
        }
        return Ok((base, None));
    }
    let session = super::EditSession::new(recipe.clone(), base.field.clone(), masks)
        .map_err(|e| recipe.locate_error(e))?;
    let (exclusion, regions, region_biomes) = session.masks_for_payload();
    let base_range = base.field.height_range();
    let mut out = super::PreparedTerrain {
        field: session.field().clone(),
        exclusion,
        regions,
        region_biomes,
        ..base
    };
    let painted = session.water_depths();
    if !painted.is_empty() {
        out.water.set_painted(painted);
    }
    let mut session = session;
    session.classify_surface(&out, base_range, false)?;
    if let Some(s) = session.surface() {
        out.surface = s.clone();
    }
    // The flow the classification read: routed on the sculpted surface (flow after sculpting).
    if let Some(state) = session.surface_state() {
        out.sources.flow = state.sources().flow.clone();
    }
    let sites = super::scatter::resolve(recipe, &mut out, session.surface_state(), Some(&session))?;
    if let Some(base) = &sites {
        session.attach_scatter(base.clone(), out.scatter.clone());
    }
    let n = out.field.grid().sample_count();
    let rules = recipe.graph.is_none() || out.sources.rules;
    let mut source = super::ScatterSource::of(recipe, Some(&session), n, rules);
    source.base_placements = sites;
    out.scatter_source = Arc::new(source);
    Ok((out, Some(session)))
}

/// Generates `recipe` like [`prepare`] and explains the biome of the sample nearest to
/// terrain-local (x, z) (`ridgeline explain`): the same classification state the prepared
/// terrain's biome ids come from, so the answer is the runtime's.
#[allow(clippy::too_many_arguments)]
pub fn explain(
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
    masks: Option<crate::edit::MaskLoader>,
    x: f32,
    z: f32,
) -> Result<(crate::biome::Explanation, super::PreparedTerrain)> {
    let base = prepare_base(recipe, quality, cache, progress, cancel)?;
    progress(1.0, "classifying biomes and surfaces");
    // The classification `finish` made (kept by the session when there are strokes): explained
    // without classifying twice.
    let mut kept = None;
    let (p, session) = finish_keeping_state(recipe, base, masks, Some(&mut kept))?;
    let state = match &session {
        Some(s) => s.surface_state(),
        None => kept.as_ref(),
    }
    .ok_or_else(|| Error::invalid("recipe", "the surface was not classified"))?;
    Ok((state.explain(&p.field, x, z)?, p))
}

/// The default biome's colour (a neutral green when the recipe does not define it).
pub fn default_biome_color(recipe: &Recipe) -> [f32; 4] {
    recipe
        .biomes
        .get(&recipe.default_biome)
        .map(|b| b.color.map(|c| c as f32))
        .unwrap_or([0.45, 0.5, 0.35, 1.0])
}

/// Identity of a recipe's generated base: the generator version plus the canonical recipe
/// without strokes and layers (they replay on the base), graph node positions and comment text
/// (layout never changes terrain). Any change to connections, parameters, seed, grid,
/// landforms or biomes changes it.
pub fn base_cache_key(recipe: &Recipe) -> u64 {
    let mut value = recipe.to_value();
    if let Some(m) = value.as_object_mut() {
        for k in ["edits", "exclusions", "regions", "layers"] {
            m.remove(k);
        }
    }
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

/// [`base_cache_key`] including the contents of the files the graph names (equal to it when
/// the graph names none), so editing a heightmap file is a new identity.
pub fn base_cache_key_with_files(recipe: &Recipe, files: &NodeFiles) -> u64 {
    let key = base_cache_key(recipe);
    if files.is_empty() {
        return key;
    }
    let mut h = crate::seed::StableHasher::default();
    h.u64(key).str("files");
    super::files::hash_files(files, &mut h);
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
    fn cache_key_ignores_layout_notes_and_strokes_but_not_parameters() {
        let key = base_cache_key;
        let base = key(&recipe(GRAPH));
        let stroked = GRAPH.replace(
            r#""seed":7,"#,
            r#""seed":7,"edits":[{"type":"raise","center":[5,5],"radius":2}],"#,
        );
        assert_eq!(key(&recipe(&stroked)), base);
        let moved = GRAPH.replace("[300,0]", "[10,90]").replace("hello", "bye");
        assert_eq!(key(&recipe(&moved)), base);
        let reseeded = GRAPH.replace("\"seed\":7", "\"seed\":8");
        assert_ne!(key(&recipe(&reseeded)), base);
        let bigger = GRAPH.replace("[32,32]", "[64,64]");
        assert_ne!(key(&recipe(&bigger)), base);
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
            None,
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
