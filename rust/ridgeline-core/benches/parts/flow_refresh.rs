//! `flow_refresh_1025`: flow after sculpting — `EditSession::refresh_flow` on a 1025² terrain
//! whose graph drains hills into Biome Rules, after a 60 m raise across a stream: drainage on
//! the sculpted surface (one whole-grid pass), the bit-exact comparison with the old flow and
//! the local reclassification of what moved. The editor runs it when a stroke ends. Samples
//! reclassified go to stderr.

use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use ridgeline_core::pipeline::{EditSession, prepare_base};
use ridgeline_core::recipe::Document;
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub fn run(b: &super::Bench) {
    let text = json!({
        "size": [1024, 1024], "resolution": [1024, 1024], "chunk_cells": 64, "seed": 3,
        "biomes": {"dry": {}, "fen": {}}, "default_biome": "dry",
        "rules": [{"id": "wet", "biome": "fen", "moisture": [0.7, 1.0], "priority": 5}],
        "graph": {"format_version": 1, "output": "out", "nodes": [
            {"id": "hills", "type": "noise_terrain",
             "params": {"height_variation": 120, "feature_size": 300, "base_height": 40}},
            {"id": "flow", "type": "drainage", "inputs": {"field": "hills"}},
            {"id": "rules", "type": "biome_rules",
             "inputs": {"field": "hills", "drainage": "flow:drainage"}},
            {"id": "out", "type": "terrain_output", "inputs": {"heightfield": "rules"}}]}
    });
    let doc = Document::parse(&text.to_string(), "flow_refresh_1025").expect("recipe");
    let recipe = doc.recipe().clone();
    let never = AtomicBool::new(false);
    let base = prepare_base(
        &recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .expect("base");
    let mut s = EditSession::new(recipe, base.field.clone(), None).expect("session");
    s.classify_surface(&base, base.field.height_range(), false)
        .expect("classify");
    let stroke = json!({"type": "raise", "center": [512, 512], "radius": 120, "amount": 60});
    let mut times = Vec::new();
    let mut moved = 0;
    for _ in 0..b.reps.max(3) {
        s.apply_stroke(&stroke).expect("stroke");
        let t = Instant::now();
        let change = s.refresh_flow().expect("refresh");
        times.push(t.elapsed().as_secs_f64());
        if let Some(c) = change {
            moved = c.surface.area();
        }
        s.undo().expect("undo");
        s.refresh_flow().expect("refresh");
    }
    times.sort_by(f64::total_cmp);
    super::line(
        "flow_refresh_1025",
        times[times.len() / 2] * 1e3,
        None,
        "ms",
    );
    eprintln!("flow_refresh_1025: reclassified a {moved}-sample rectangle");
}
