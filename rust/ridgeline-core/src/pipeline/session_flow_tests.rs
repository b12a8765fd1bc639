//! Flow after sculpting through an edit session: a stroke marks the flow stale, a refresh
//! routes it on the sculpted surface and reclassifies exactly like regenerating the recipe
//! with the same strokes — for a recipe session, a session started on the finished surface
//! (what Godot makes) and a cooked payload's session.

use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use serde_json::{Value, json};
use std::sync::atomic::AtomicBool;

/// Hills drained by a Drainage node into Biome Rules, 640 m over 64 cells (100 m² cells, so
/// streams reach Biome Rules' `river_area`), with a moisture-driven biome.
fn recipe(edits: &[Value]) -> Recipe {
    let text = json!({
        "size": [640, 640], "resolution": [64, 64], "chunk_cells": 16, "seed": 11,
        "biomes": {"dry": {"color": [0.6, 0.5, 0.3, 1]}, "fen": {"color": [0.2, 0.5, 0.3, 1]}},
        "default_biome": "dry",
        "rules": [{"id": "wet", "biome": "fen", "moisture": [0.75, 1.0], "priority": 5}],
        "edits": edits,
        "graph": {"format_version": 1, "output": "out", "nodes": [
            {"id": "hills", "type": "noise_terrain", "position": [0, 0],
             "params": {"height_variation": 120, "feature_size": 200, "base_height": 40}},
            {"id": "flow", "type": "drainage", "position": [100, 0], "inputs": {"field": "hills"}},
            {"id": "rules", "type": "biome_rules", "position": [200, 0],
             "inputs": {"field": "hills", "drainage": "flow:drainage"}},
            {"id": "out", "type": "terrain_output", "position": [300, 0],
             "inputs": {"heightfield": "rules"}}]}
    });
    Document::parse(&text.to_string(), "t")
        .expect("recipe")
        .recipe()
        .clone()
}

fn base(r: &Recipe) -> PreparedTerrain {
    prepare_base(
        r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .expect("base")
}

/// A 25 m raise on the strongest stream (its largest-catchment sample off the border).
fn dam(b: &PreparedTerrain) -> Value {
    let flow = b.sources.flow.as_ref().expect("flow connected");
    let w = 65;
    let i = (0..flow.len())
        .filter(|i| (4..61).contains(&(i % w)) && (4..61).contains(&(i / w)))
        .max_by(|&a, &b| flow[a].total_cmp(&flow[b]))
        .expect("samples");
    let (x, z) = ((i % w) as f32 * 10.0, (i / w) as f32 * 10.0);
    json!({"type": "raise", "center": [x, z], "radius": 60, "amount": 25})
}

#[test]
fn regenerating_with_strokes_routes_the_flow_on_the_sculpted_surface() {
    let plain = recipe(&[]);
    let b = base(&plain);
    assert!(
        b.sources.flow_offset.is_some(),
        "the graph's offset is kept"
    );
    let dammed = recipe(&[dam(&b)]);
    let (full, _) = finish(&dammed, base(&dammed), None).expect("finish");
    assert_ne!(full.sources.flow, b.sources.flow, "the dam moves the flow");
    let (unsculpted, _) = finish(&plain, b.clone(), None).expect("finish");
    assert_eq!(
        unsculpted.sources.flow, b.sources.flow,
        "no stroke: the graph's flow"
    );
    assert_ne!(
        full.surface, unsculpted.surface,
        "moisture follows the moved flow"
    );
}

#[test]
fn a_refresh_after_sculpting_equals_regenerating_the_recipe() {
    let plain = recipe(&[]);
    let b = base(&plain);
    let (first, s) = finish(
        &recipe(&[json!({"type": "raise", "center": [50, 50],
        "radius": 20, "amount": 2})]),
        b.clone(),
        None,
    )
    .expect("finish");
    let mut s = s.expect("a session");
    assert!(!s.flow_stale());
    let stroke = dam(&b);
    let c = s.apply_stroke(&stroke).expect("stroke");
    assert!(!c.heights.is_empty());
    assert!(s.flow_stale(), "heights changed: the flow is stale");
    let refreshed = s
        .refresh_flow()
        .expect("refresh")
        .expect("something changed");
    assert!(!refreshed.surface.is_empty() && !refreshed.chunks.is_empty());
    assert!(!s.flow_stale());
    assert_eq!(
        s.refresh_flow().expect("refresh"),
        None,
        "nothing stale any more"
    );
    let full = finish(s.recipe(), b.clone(), None).expect("finish").0;
    assert_eq!(s.surface().expect("classified"), &full.surface);
    assert_eq!(
        s.surface_state().expect("state").sources().flow,
        full.sources.flow
    );
    assert_ne!(full.surface, first.surface);
    // Undo brings the first surface back once the flow is refreshed again.
    s.undo().expect("undo");
    assert!(s.flow_stale());
    assert!(s.refresh_flow().expect("refresh").is_some());
    assert_eq!(s.surface().expect("classified"), &first.surface);
    assert_eq!(
        s.surface_state().expect("state").sources().flow,
        first.sources.flow
    );
}

/// A session on the finished surface with the strokes cleared, as the Godot terrain makes it.
fn session_on(prepared: &PreparedTerrain, r: &Recipe) -> EditSession {
    let mut fresh = r.clone();
    fresh.clear_strokes();
    let mut s = EditSession::new(fresh, prepared.field.clone(), None).expect("session");
    s.classify_surface(prepared, prepared.field.height_range(), false)
        .expect("classify");
    s
}

#[test]
fn sessions_on_a_finished_surface_and_on_a_cooked_payload_route_the_same_flow() {
    let first_stroke = json!({"type": "lower", "center": [320, 320], "radius": 80, "amount": 6});
    let r = recipe(std::slice::from_ref(&first_stroke));
    let b = base(&r);
    let (finished, _) = finish(&r, b.clone(), None).expect("finish");
    let bytes = crate::formats::payload::encode(&finished);
    let cooked = crate::formats::payload::decode(&bytes, "t").expect("decode");
    assert_eq!(cooked.sources.flow_offset, finished.sources.flow_offset);
    assert_eq!(cooked.sources.flow, finished.sources.flow);
    let stroke = dam(&b);
    let full = finish(&recipe(&[first_stroke, stroke.clone()]), b, None)
        .expect("finish")
        .0;
    for (name, p) in [("finished", &finished), ("cooked", &cooked)] {
        // The base range only sets the snow line; this recipe has no snow.
        let mut s = session_on(p, &r);
        assert_eq!(
            s.surface().expect("classified"),
            &finished.surface,
            "{name}"
        );
        s.apply_stroke(&stroke).expect("stroke");
        assert!(s.flow_stale(), "{name}");
        s.refresh_flow().expect("refresh");
        assert_eq!(s.field().heights(), full.field.heights(), "{name}");
        assert_eq!(
            s.surface_state().expect("state").sources().flow,
            full.sources.flow,
            "{name}"
        );
        assert_eq!(s.surface().expect("classified"), &full.surface, "{name}");
    }
}

#[test]
fn terrains_without_routable_flow_never_go_stale() {
    let mut r = recipe(&[]);
    r.graph = None;
    let (_, s) = finish(&recipe(&[]), base(&recipe(&[])), None).expect("finish");
    assert!(s.is_none(), "no strokes, no session from finish");
    let b = base(&r);
    assert!(b.sources.flow.is_none() && b.sources.flow_offset.is_none());
    let mut s = session_on(&finish(&r, b, None).expect("finish").0, &r);
    s.apply_stroke(&json!({"type": "raise", "center": [320, 320], "radius": 60, "amount": 9}))
        .expect("stroke");
    assert!(!s.flow_stale());
    assert_eq!(s.refresh_flow().expect("refresh"), None);
}
