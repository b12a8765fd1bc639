//! Water before spacing through the pipeline: the Scatter Palette node spaces its sites around
//! its water, so a wet candidate never suppresses a dry neighbour; the conventional pipeline
//! spaces around the generated base's water, so strokes that move the shore refilter exactly
//! like a full generation.

use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use crate::scatter::{Budgets, place};
use serde_json::json;
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

const PALETTE: &str = r#""palette": {"format_version": 3, "name": "Coast", "placements": {
      "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.05, "spacing": 6}}}"#;

fn base(r: &Recipe) -> PreparedTerrain {
    let never = AtomicBool::new(false);
    prepare_base(
        r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap()
}

#[test]
fn the_graph_node_lets_wet_candidates_free_their_dry_neighbours() {
    // A plane tilted from 0 (west) to 80 (east) under a sea level of 20: the west is sea.
    let text = format!(
        r#"{{"format_version": 1, "size": [128, 128], "resolution": [64, 64], "seed": 3,
        "landforms": {{"default": {{"base_height": 20}}}}, {PALETTE},
        "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "flat", "type": "flat_terrain", "params": {{"height": 0}}}},
          {{"id": "ramp", "type": "polygon_mask", "params": {{"points": [[0,0],[1,0],[1,128],[0,128]], "falloff": 128}}, "inputs": {{"field": "flat"}}}},
          {{"id": "tilt", "type": "height_offset", "params": {{"offset": 80}}, "inputs": {{"field": "flat", "mask": "ramp"}}}},
          {{"id": "trees", "type": "scatter_palette", "inputs": {{"field": "tilt"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "tilt", "instances": "trees"}}}}]}}}}"#
    );
    let r = Document::parse(&text, "t").unwrap().recipe().clone();
    let p = prepare(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
        None,
    )
    .unwrap();
    let wet = p.field.heights().iter().filter(|&&h| h < 20.0).count();
    assert!(wet > 500, "the test terrain needs sea: {wet} wet samples");
    // Every site spaced while ignoring water: water-after-spacing keeps a subset of these.
    let palette = r.palette.as_ref().unwrap();
    let seed = crate::seed::sub_seed(r.seed, "scatter");
    let never = AtomicBool::new(false);
    let ignoring: BTreeSet<[u32; 2]> = place(
        palette,
        seed,
        [128.0, 128.0],
        None,
        &Budgets::default(),
        &never,
    )
    .unwrap()
    .placements
    .iter()
    .map(|q| q.cell)
    .collect();
    assert!(p.scatter.placements.len() > 50);
    let mut freed = 0;
    for q in &p.scatter.placements {
        let [x, y, z] = q.position;
        assert!(
            y >= 20.0 - 1.0,
            "a placement under the sea at ({x}, {z}): {y}"
        );
        freed += usize::from(!ignoring.contains(&q.cell));
    }
    assert!(freed > 0, "no dry site was freed by a wet neighbour");
}

#[test]
fn conventional_shore_edits_refilter_like_a_full_generation() {
    let text = format!(
        r#"{{"format_version": 1, "seed": 3, "size": [128, 128], "resolution": [64, 64],
        "landforms": {{"default": {{"base_height": 10, "height_variation": 30}}}}, {PALETTE},
        "edits": [{{"type": "raise", "radius": 4, "center": [64, 64], "strength": 0.1}}]}}"#
    );
    let r = Document::parse(&text, "t").unwrap().recipe().clone();
    let base = base(&r);
    let mut session = finish(&r, base.clone(), None).unwrap().1.unwrap();
    // Lower land below the sea at the border (new sea), then raise part of it out again.
    for stroke in [
        json!({"type": "lower", "radius": 24, "center": [4, 64], "amount": 40, "strength": 1}),
        json!({"type": "raise", "radius": 8, "center": [8, 64], "amount": 40, "strength": 1}),
    ] {
        session.apply_stroke(&stroke).unwrap();
        let full = finish(session.recipe(), base.clone(), None).unwrap().0;
        assert_eq!(**session.scatter().unwrap(), *full.scatter, "{stroke}");
        assert!(
            full.scatter
                .placements
                .iter()
                .all(|q| q.position[1] >= 10.0 || q.position[0] > 30.0),
            "a placement in the new sea"
        );
    }
}
