//! Scatter through the pipeline: the graph node, Terrain Output, refiltering after strokes,
//! the conventional pipeline's palette and the payload.

use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

fn recipe(text: &str) -> Recipe {
    Document::parse(text, "t").unwrap().recipe().clone()
}

fn prepared(r: &Recipe) -> PreparedTerrain {
    let never = AtomicBool::new(false);
    prepare(
        r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
        None,
    )
    .unwrap()
}

const PALETTE: &str = r#"{"format_version": 3, "name": "Forest", "placements": {
    "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.05, "spacing": 4,
             "slope": [0, 40], "biomes": ["forest"]},
    "rock": {"prefab": "res://rock.tscn", "category": "rock", "density": 0.05, "spacing": 3}}}"#;

fn graph(strokes: &str) -> String {
    format!(
        r#"{{"format_version": 1, "seed": 5, "size": [128, 128], "resolution": [64, 64],
        "biomes": {{"forest": {{}}, "meadow": {{}}}}, "default_biome": "meadow",
        "rules": [{{"id": "woods", "biome": "forest", "priority": 10, "elevation": [-1000, 1000]}}],
        "palette": {PALETTE} {strokes},
        "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "hills", "type": "noise_terrain", "params": {{"height_variation": 12}}}},
          {{"id": "biomes", "type": "biome_rules", "inputs": {{"field": "hills"}}}},
          {{"id": "scatter", "type": "scatter_palette", "inputs": {{"field": "biomes"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "biomes", "instances": "scatter"}}}}]}}}}"#
    )
}

fn by_id(p: &PreparedTerrain) -> BTreeMap<String, crate::scatter::Placement> {
    p.scatter
        .placements
        .iter()
        .map(|q| (p.scatter.key("", q), *q))
        .collect()
}

#[test]
fn the_graph_node_publishes_placements_on_the_surface() {
    let p = prepared(&recipe(&graph("")));
    let s = &p.scatter;
    assert_eq!(s.rules, ["pine", "rock"]);
    assert!(s.placements.len() > 200, "{}", s.placements.len());
    let pine = s.placements.iter().filter(|q| q.rule == 0).count();
    assert!(pine > 50, "{pine}");
    for q in &s.placements {
        let [x, y, z] = q.position;
        assert!((p.field.height_at(x, z).unwrap() - y).abs() < 1e-3);
    }
    assert_eq!(
        prepared(&recipe(&graph(""))).scatter,
        p.scatter,
        "not deterministic"
    );
}

#[test]
fn strokes_refilter_without_refills_and_heights_snap() {
    let plain = prepared(&recipe(&graph("")));
    let edited = prepared(&recipe(&graph(
        r#", "exclusions": [{"type": "exclude", "radius": 20, "center": [64, 64]}],
        "edits": [{"type": "raise", "radius": 12, "center": [30, 30], "strength": 1}]"#,
    )));
    let (a, b) = (by_id(&plain), by_id(&edited));
    assert!(b.len() < a.len());
    let mut snapped = 0;
    for (k, q) in &b {
        let old = a.get(k).unwrap_or_else(|| panic!("{k} was invented"));
        assert_eq!((old.cell, old.yaw, old.scale), (q.cell, q.yaw, q.scale));
        assert_eq!(
            (old.position[0], old.position[2]),
            (q.position[0], q.position[2])
        );
        let [x, y, z] = q.position;
        assert!((edited.field.height_at(x, z).unwrap() - y).abs() < 1e-3);
        snapped += usize::from(y != old.position[1]);
        let d = ((x - 64.0).powi(2) + (z - 64.0).powi(2)).sqrt();
        // Full weight inside half the radius (falloff 0.5), a dithered fade beyond.
        assert!(d > 10.0, "{k} kept inside the exclusion");
    }
    assert!(snapped > 0, "no placement followed the raise");
}

#[test]
fn the_conventional_pipeline_places_its_palette_and_the_payload_keeps_it() {
    let text = format!(
        r#"{{"format_version": 1, "seed": 9, "size": [96, 96], "resolution": [48, 48],
        "palette": {}}}"#,
        PALETTE.replace(r#", "biomes": ["forest"]"#, "")
    );
    let p = prepared(&recipe(&text));
    assert!(p.scatter.placements.len() > 100);
    let back = crate::formats::payload::decode(&crate::formats::payload::encode(&p), "t").unwrap();
    assert_eq!(back.scatter.placements, p.scatter.placements);
    assert!(by_id(&p).keys().next().unwrap().starts_with(":Forest:"));
    // Without a palette nothing is scattered.
    let none = prepared(&recipe(
        r#"{"format_version": 1, "size": [32, 32], "resolution": [16, 16]}"#,
    ));
    assert!(none.scatter.is_empty());
}

#[test]
fn palette_problems_are_located_in_the_recipe() {
    let bad = graph("").replace(r#""biomes": ["forest"]"#, r#""biomes": ["jungle"]"#);
    let e = Document::parse(&bad, "t.json").unwrap_err().to_string();
    assert!(
        e.contains("palette.placements[\"pine\"].biomes[0]: names biome \"jungle\""),
        "{e}"
    );
    let v2 = graph("").replace(r#""format_version": 3"#, r#""format_version": 2"#);
    let e = Document::parse(&v2, "t.json").unwrap_err().to_string();
    assert!(
        e.contains("palette.format_version: palette format version 2 is no longer read"),
        "{e}"
    );
    let no_palette = graph("").replace(&format!(r#""palette": {PALETTE} ,"#), "");
    let never = AtomicBool::new(false);
    let e = prepare(
        &recipe(&no_palette),
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("scatter") && e.contains("the recipe has no `palette`"),
        "{e}"
    );
}

#[test]
fn a_session_refilters_only_its_edits_and_undo_restores_identities() {
    let strokes =
        r#", "edits": [{"type": "raise", "radius": 6, "center": [100, 100], "strength": 1}]"#;
    let r = recipe(&graph(strokes));
    let never = AtomicBool::new(false);
    let base = prepare_base(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap();
    let (first, session) = finish(&r, base.clone(), None).unwrap();
    let mut session = session.unwrap();
    assert_eq!(session.scatter().unwrap(), &first.scatter);
    let stroke = serde_json::json!({"type": "exclude", "radius": 16, "center": [40, 70]});
    session.apply_stroke(&stroke).unwrap();
    let edited = session.scatter().unwrap().clone();
    // The same as generating the recipe with the stroke from scratch.
    let full = finish(session.recipe(), base.clone(), None).unwrap().0;
    assert_eq!(*edited, *full.scatter);
    assert!(edited.placements.len() < first.scatter.placements.len());
    let sculpt =
        serde_json::json!({"type": "raise", "radius": 10, "center": [90, 30], "strength": 1});
    session.apply_stroke(&sculpt).unwrap();
    let full = finish(session.recipe(), base, None).unwrap().0;
    assert_eq!(
        **session.scatter().unwrap(),
        *full.scatter,
        "sculpt refilter differs"
    );
    session.undo();
    session.undo();
    assert_eq!(
        session.scatter().unwrap(),
        &first.scatter,
        "undo did not restore"
    );
}
