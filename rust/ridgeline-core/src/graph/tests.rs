use super::eval::GraphCache;
use crate::error::Error;
use crate::nodes::Quality;
use crate::pipeline::generate::generate;
use crate::recipe::{Document, Recipe};
use crate::testutil::bits;
use std::sync::atomic::AtomicBool;

const VALLEY: &str = include_str!("../../../../docs/examples/valley.terrain.json");
const MOUNTAINS: &str = include_str!("../../../../docs/examples/mountains.terrain.json");
const HILLS: &str = include_str!("../../../../docs/examples/rolling_hills.terrain.json");

/// An example recipe at a small resolution (tests stay fast).
fn small(text: &str) -> Recipe {
    let mut r = Document::parse(text, "example").unwrap().recipe().clone();
    r.resolution = [96, 80];
    r
}

fn run(recipe: &Recipe, cache: &mut GraphCache) -> crate::pipeline::generate::Generated {
    generate(
        recipe,
        Quality::Final,
        cache,
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap()
}

fn errors(text: &str) -> Vec<String> {
    match Document::parse(text, "g.json") {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.diagnostics().iter().map(ToString::to_string).collect(),
    }
}

fn graph_doc(nodes: &str, output: &str) -> String {
    format!(
        r#"{{"size": [64, 64], "resolution": [32, 32], "graph": {{"format_version": 1, "output": "{output}", "nodes": [{nodes}]}}}}"#
    )
}

#[test]
fn examples_parse_generate_and_round_trip() {
    for text in [VALLEY, MOUNTAINS, HILLS] {
        let doc = Document::parse(text, "example").unwrap();
        let canon = doc.to_canonical_json();
        assert_eq!(
            Document::parse(&canon, "c").unwrap().to_canonical_json(),
            canon
        );
        let g = run(&small(text), &mut GraphCache::default());
        let [lo, hi] = g.heightfield.height_range();
        assert!(hi - lo > 10.0, "the example has relief: {lo}..{hi}");
    }
}

#[test]
fn cycles_are_rejected_in_documents_and_edits_without_change() {
    let errs = errors(&graph_doc(
        r#"{"id": "a", "type": "height_offset", "inputs": {"field": "b"}},
           {"id": "b", "type": "height_offset", "inputs": {"field": "a"}},
           {"id": "out", "type": "terrain_output", "inputs": {"heightfield": "a"}}"#,
        "out",
    ));
    assert!(
        errs.iter()
            .any(|e| e.contains("connections form a cycle: a → b → a")
                || e.contains("cycle: b → a → b")),
        "{errs:?}"
    );

    let mut graph = small(VALLEY).graph.unwrap();
    let err = graph.connect("mountains", "missing", "blend").unwrap_err();
    assert!(
        err.to_string()
            .contains("noise_terrain has no input `missing`; its inputs are: none"),
        "{err}"
    );
    // The corridor mask feeds the blend, so feeding the blend back into it is a cycle.
    let mut g2 = small(VALLEY).graph.unwrap();
    let before2 = g2.to_value();
    let err = g2.connect("corridor", "field", "blend").unwrap_err();
    assert!(err.to_string().contains("would form a cycle"), "{err}");
    assert_eq!(g2.to_value(), before2, "a rejected edit changes nothing");
}

#[test]
fn kind_mismatches_are_rejected_without_change() {
    let mut g = small(VALLEY).graph.unwrap();
    let before = g.to_value();
    let err = g.connect("blend", "a", "corridor").unwrap_err();
    assert!(
        err.to_string()
            .contains("cannot connect `corridor:mask` (mask) to `a` (heightfield)"),
        "{err}"
    );
    assert_eq!(g.to_value(), before);
    let errs = errors(&graph_doc(
        r#"{"id": "m", "type": "flat_terrain"},
           {"id": "out", "type": "terrain_output", "inputs": {"heightfield": "m:mask"}}"#,
        "out",
    ));
    assert!(
        errs.iter()
            .any(|e| e.contains("`m` (flat_terrain) has no output `mask`")),
        "{errs:?}"
    );
    // A valid replacement connection works and is one connection per input.
    g.connect("blend", "a", "floor").unwrap();
    assert_eq!(g.node("blend").unwrap().inputs["a"].node, "floor");
}

#[test]
fn required_inputs_must_be_connected_before_generation() {
    let text = graph_doc(
        r#"{"id": "h", "type": "flat_terrain"},
           {"id": "b", "type": "height_blend", "inputs": {"a": "h"}},
           {"id": "out", "type": "terrain_output", "inputs": {"heightfield": "b"}}"#,
        "out",
    );
    let recipe = Document::parse(&text, "g").unwrap().recipe().clone();
    let err = generate(
        &recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("graph.nodes[\"b\"].inputs.b: required heightfield input is not connected"),
        "{err}"
    );
}

#[test]
fn output_must_name_a_terrain_output_node() {
    let errs = errors(&graph_doc(r#"{"id": "h", "type": "flat_terrain"}"#, "h"));
    assert!(
        errs.iter()
            .any(|e| e.contains("graph.output: names `h`, a flat_terrain node")),
        "{errs:?}"
    );
    let errs = errors(&graph_doc(r#"{"id": "h", "type": "mystery"}"#, "h"));
    assert!(
        errs.iter()
            .any(|e| e.contains("unknown node type `mystery`")),
        "{errs:?}"
    );
}

#[test]
fn cache_reuses_everything_when_only_positions_and_comments_change() {
    let mut recipe = small(VALLEY);
    let mut cache = GraphCache::default();
    let first = run(&recipe, &mut cache);
    assert!(first.nodes.iter().all(|n| !n.reused));
    let g = recipe.graph.as_mut().unwrap();
    g.set_position("mountains", [999.0, -5.0]).unwrap();
    let i = g.find("about").unwrap();
    g.nodes[i].text = Some("edited note".into());
    let second = run(&recipe, &mut cache);
    assert!(second.nodes.iter().all(|n| n.reused), "{:?}", second.nodes);
    assert_eq!(first.heightfield.heights(), second.heightfield.heights());
    // A parameter change recomputes that node and what depends on it, and reuses the rest.
    let text = recipe_with_floor_height(&recipe, 30.0);
    let third = run(&text, &mut cache);
    let reused = |id: &str| third.nodes.iter().find(|n| n.id == id).unwrap().reused;
    assert!(reused("mountains") && reused("corridor"));
    assert!(!reused("floor") && !reused("blend") && !reused("out"));
    assert_ne!(first.heightfield.heights(), third.heightfield.heights());
}

fn recipe_with_floor_height(recipe: &Recipe, h: f64) -> Recipe {
    let mut v = recipe.to_value();
    let nodes = v["graph"]["nodes"].as_array_mut().unwrap();
    for n in nodes {
        if n["id"] == "floor" {
            n["params"]["height"] = serde_json::json!(h);
        }
    }
    Document::parse(&v.to_string(), "r")
        .unwrap()
        .recipe()
        .clone()
}

#[test]
fn results_are_identical_for_any_thread_count() {
    let recipe = small(MOUNTAINS);
    let gen_with = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            run(&recipe, &mut GraphCache::default())
                .heightfield
                .heights()
                .to_vec()
        })
    };
    let one = gen_with(1);
    let two = gen_with(2);
    let three = gen_with(3);
    assert_eq!(bits(&one), bits(&two));
    assert_eq!(bits(&one), bits(&three));
}

#[test]
fn cancellation_returns_an_error_and_progress_is_reported() {
    let recipe = small(VALLEY);
    let cancel = AtomicBool::new(true);
    let err = generate(
        &recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &cancel,
    )
    .unwrap_err();
    assert!(matches!(err, Error::Cancelled));
    let stages = std::sync::Mutex::new(Vec::new());
    let mut cache = GraphCache::default();
    generate(
        &recipe,
        Quality::Final,
        &mut cache,
        &|f, s| stages.lock().unwrap().push((f, s.to_string())),
        &AtomicBool::new(false),
    )
    .unwrap();
    let stages = stages.into_inner().unwrap();
    assert!(
        stages.windows(2).all(|w| w[0].0 <= w[1].0),
        "fractions never go back"
    );
    assert_eq!(stages.last().unwrap().0, 1.0);
    assert!(
        stages
            .iter()
            .any(|(_, s)| s.contains("corridor (path_distance_mask)"))
    );
}

#[test]
fn preview_equals_final_without_erosion() {
    let recipe = small(HILLS);
    let f = run(&recipe, &mut GraphCache::default());
    let p = generate(
        &recipe,
        Quality::Preview,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(f.heightfield.heights(), p.heightfield.heights());
}

#[test]
fn recipes_without_a_graph_use_the_default_landform() {
    let text = r#"{"size": [100, 100], "resolution": [50, 50], "seed": 3,
        "landforms": {"plain": {"base_height": 5, "height_variation": 20, "feature_size": 60, "roughness": 0.5, "octaves": 4}},
        "default_landform": "plain"}"#;
    let recipe = Document::parse(text, "r").unwrap().recipe().clone();
    let g = run(&recipe, &mut GraphCache::default());
    let shape = recipe.landform("plain").unwrap();
    let seeds = recipe.landform_seeds("plain");
    let grid = recipe.grid().unwrap();
    for (z, x) in [(0usize, 0usize), (10, 33), (50, 50)] {
        let [px, pz] = grid.sample_position(x, z);
        assert_eq!(g.heightfield.sample(x, z), shape.height_at(seeds, px, pz));
    }
}
