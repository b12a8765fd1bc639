//! Generation under hostile or careless input: cache keys that cover what nodes read, chains of
//! any length on a small stack, bounded work, located errors.

use crate::error::Error;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::pipeline::generate::{Generated, generate};
use crate::recipe::{Document, Recipe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn recipe(text: &str) -> Recipe {
    Document::parse(text, "w.json")
        .unwrap_or_else(|e| panic!("{e}"))
        .recipe()
        .clone()
}

fn run(r: &Recipe, cache: &mut GraphCache) -> crate::Result<Generated> {
    generate(
        r,
        Quality::Final,
        cache,
        &|_, _| {},
        &AtomicBool::new(false),
    )
}

/// Runs `f` on a thread with a 256 KiB stack: proves depth independence.
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow")
}

/// A tilted plane (heights 0..80 along X) routed by a river whose end depends on the sea level
/// (the default landform's base height).
fn river(sea: f64) -> String {
    format!(
        r#"{{"size": [64, 64], "resolution": [32, 32], "seed": 3,
        "landforms": {{"default": {{"base_height": {sea}}}}},
        "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "flat", "type": "flat_terrain", "params": {{"height": 0}}}},
          {{"id": "ramp", "type": "polygon_mask", "params": {{"points": [[0,0],[1,0],[1,64],[0,64]], "falloff": 64}}, "inputs": {{"field": "flat"}}}},
          {{"id": "tilt", "type": "height_offset", "params": {{"offset": 80}}, "inputs": {{"field": "flat", "mask": "ramp"}}}},
          {{"id": "dr", "type": "drainage", "inputs": {{"field": "tilt"}}}},
          {{"id": "river", "type": "river_route", "params": {{"source_x": 60, "source_z": 32}}, "inputs": {{"drainage": "dr"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "river", "water": "river:water"}}}}]}}}}"#
    )
}

#[test]
fn river_route_cache_key_covers_the_sea_level_it_reads() {
    let low = recipe(&river(-100.0));
    let high = recipe(&river(40.0));
    let mut cache = GraphCache::default();
    run(&low, &mut cache).unwrap();
    // The same persistent cache must not serve the route traced for the old sea level.
    let cached = run(&high, &mut cache).unwrap();
    let fresh = run(&high, &mut GraphCache::default()).unwrap();
    let details = |g: &Generated| {
        g.nodes
            .iter()
            .find(|n| n.id == "river")
            .and_then(|n| n.details.clone())
    };
    assert_ne!(
        details(&fresh),
        details(&run(&low, &mut GraphCache::default()).unwrap()),
        "the fixture must make the route depend on the sea level"
    );
    assert_eq!(details(&cached), details(&fresh));
    assert_eq!(cached.heightfield.heights(), fresh.heightfield.heights());
    assert!(
        !cached
            .nodes
            .iter()
            .find(|n| n.id == "river")
            .unwrap()
            .reused,
        "a changed sea level recomputes the route"
    );
}

fn chain(n: usize, output_first: bool) -> String {
    let mut nodes =
        vec![r#"{"id": "n0", "type": "flat_terrain", "params": {"height": 1}}"#.to_string()];
    for i in 1..=n {
        nodes.push(format!(
            r#"{{"id": "n{i}", "type": "height_offset", "params": {{"offset": 0.5}}, "inputs": {{"field": "n{}"}}}}"#,
            i - 1
        ));
    }
    nodes.push(format!(
        r#"{{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "n{n}"}}}}"#
    ));
    if output_first {
        nodes.reverse();
    }
    format!(
        r#"{{"size": [8, 8], "resolution": [4, 4], "chunk_cells": 4, "graph": {{"format_version": 1, "output": "out", "nodes": [{}]}}}}"#,
        nodes.join(",\n")
    )
}

#[test]
fn a_ten_thousand_node_chain_generates_on_a_small_stack() {
    let text = chain(10_000, false);
    let g = small_stack(move || {
        let r = recipe(&text);
        let mut cache = GraphCache::default();
        let g = run(&r, &mut cache).unwrap();
        (g.heightfield.heights()[0], g.nodes.len())
    });
    assert_eq!(g, (1.0 + 0.5 * 10_000.0, 10_002));
}

#[test]
fn a_forty_thousand_node_chain_listed_output_first_parses_on_a_small_stack() {
    let text = chain(40_000, true);
    let (nodes, canonical_len) = small_stack(move || {
        let doc = Document::parse(&text, "long.json").unwrap();
        let n = doc.recipe().graph.as_ref().unwrap().nodes.len();
        (n, doc.to_canonical_json().len())
    });
    assert_eq!(nodes, 40_002);
    assert!(canonical_len > 40_000);
}

#[test]
fn graphs_above_the_node_limit_get_a_located_error() {
    let text = chain(crate::graph::MAX_NODES, false);
    let e = Document::parse(&text, "huge.json").unwrap_err().to_string();
    assert!(
        e.contains("huge.json: graph.nodes: has 50002 nodes; the limit is 50000"),
        "{e}"
    );
}

#[test]
fn a_cycle_in_a_long_chain_is_found_without_recursion() {
    let text = chain(20_000, true).replace(
        r#"{"id": "n0", "type": "flat_terrain", "params": {"height": 1}}"#,
        r#"{"id": "n0", "type": "height_offset", "inputs": {"field": "n20000"}}"#,
    );
    let e = small_stack(move || Document::parse(&text, "c.json").unwrap_err().to_string());
    assert!(e.contains("connections form a cycle"), "{e}");
}

#[test]
fn the_cache_stays_within_its_budget() {
    let r = recipe(&chain(200, false));
    let mut cache = GraphCache::with_budget(10_000);
    run(&r, &mut cache).unwrap();
    assert!(cache.bytes() <= 10_000, "{} bytes", cache.bytes());
    assert!(!cache.is_empty());
    // What it kept is reused.
    let again = run(&r, &mut cache).unwrap();
    assert!(again.nodes[0].reused);
}

#[test]
fn generation_errors_are_located_like_parse_errors() {
    let bare = river(0.0).replace(r#""source_z": 32"#, r#""source_z": 640"#);
    let e = run(&recipe(&bare), &mut GraphCache::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("w.json: graph.nodes[\"river\"].params.source_z: the source (60, 640)"),
        "{e}"
    );
    let asset = format!(r#"{{"format_version": 1, "id": "asset://t/r", "recipe": {bare}}}"#);
    let e = run(&recipe(&asset), &mut GraphCache::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("w.json: recipe.graph.nodes[\"river\"].params.source_z:"),
        "{e}"
    );
}

#[test]
fn a_subnormal_size_fails_at_parse_like_generate() {
    let e = Document::parse(r#"{"size": [5e-324, 64], "resolution": [8, 8]}"#, "s.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("s.json: size[0]: must be a finite number > 0"),
        "{e}"
    );
}

#[test]
fn long_point_lists_are_bounded_with_located_errors() {
    // A 1,000,000-point path mask is refused at parse.
    let points: Vec<String> = (0..1_000_000).map(|i| format!("[{i},0]")).collect();
    let text = format!(
        r#"{{"size": [256, 256], "resolution": [256, 256], "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "f", "type": "flat_terrain"}},
          {{"id": "m", "type": "path_distance_mask", "params": {{"points": [{}]}}, "inputs": {{"field": "f"}}}},
          {{"id": "o", "type": "height_offset", "inputs": {{"field": "f", "mask": "m"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "o"}}}}]}}}}"#,
        points.join(",")
    );
    let t = Instant::now();
    let e = Document::parse(&text, "p.json").unwrap_err().to_string();
    assert!(
        e.contains(
            "p.json: graph.nodes[\"m\"].params.points: has 1000000 points; the limit is 65536"
        ),
        "{e}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    // A 2,000-point Catmull-Rom river with 64 steps on 256² (127,936 segments) used to test
    // every sample against every segment (a minute of carving); a pass visits only each
    // segment's box now, so it is a correct result, quickly.
    let path: Vec<String> = (0..2000)
        .map(|i| format!("[{}, 1, {}]", i % 256, (i * 7) % 256))
        .collect();
    let text = format!(
        r#"{{"size": [256, 256], "resolution": [256, 256], "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "f", "type": "flat_terrain", "params": {{"height": 5}}}},
          {{"id": "r", "type": "water_body", "params": {{"id": "r", "kind": "river", "river_path": [{}], "river_path_interpolation": "catmull_rom", "river_curve_steps": 64}}, "inputs": {{"field": "f"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "r", "water": "r:water"}}}}]}}}}"#,
        path.join(",")
    );
    let t = Instant::now();
    let out = run(&recipe(&text), &mut GraphCache::default()).expect("the river is carved");
    assert!(
        out.heightfield.heights().iter().any(|&h| h < 5.0),
        "the channel was carved"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    // Long straight segments corner to corner on 1025² cost their whole boxes: refused with a
    // located error before any carving.
    let text = format!(
        r#"{{"size": [1024, 1024], "resolution": [1024, 1024], "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "f", "type": "flat_terrain", "params": {{"height": 5}}}},
          {{"id": "r", "type": "water_body", "params": {{"id": "r", "kind": "river", "river_path": [{}]}}, "inputs": {{"field": "f"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "r", "water": "r:water"}}}}]}}}}"#,
        corner_zigzag(4000, 1024.0)
    );
    let t = Instant::now();
    let e = run(&recipe(&text), &mut GraphCache::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("w.json: graph.nodes[\"r\"].params.river_path: 3999 segments of width"),
        "{e}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
}

/// `n` river points alternating between opposite corners of a `side`-wide square.
fn corner_zigzag(n: usize, side: f32) -> String {
    (0..n)
        .map(|i| {
            let c = if i % 2 == 0 { 0.0 } else { side };
            format!("[{c}, 1, {c}]")
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Generates `r` on a thread, asks it to stop 50 ms in, and checks it returned `Cancelled`
/// within 400 ms of the request.
fn stops_promptly_when_cancelled(r: Recipe) {
    let cancel = std::sync::Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let worker = std::thread::spawn(move || {
        let t = Instant::now();
        let out = generate(
            &r,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &flag,
        );
        (out.map(|_| ()), t.elapsed())
    });
    std::thread::sleep(Duration::from_millis(50));
    let asked = Instant::now();
    cancel.store(true, Ordering::Relaxed);
    let (out, total) = worker.join().unwrap();
    let after = asked.elapsed();
    match out {
        Err(Error::Cancelled) => assert!(
            after < Duration::from_millis(400),
            "stopped {after:?} after the request"
        ),
        other => panic!("expected a cancelled run, got {other:?} after {total:?}"),
    }
}

#[test]
fn a_long_river_pass_honours_cancellation_promptly() {
    // 2,999 corner-to-corner segments on 513² (under the work bound): seconds of carving and
    // coverage, cancelled 50 ms in.
    let text = format!(
        r#"{{"size": [512, 512], "resolution": [512, 512], "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "f", "type": "flat_terrain", "params": {{"height": 5}}}},
          {{"id": "r", "type": "water_body", "params": {{"id": "r", "kind": "river", "river_path": [{}]}}, "inputs": {{"field": "f"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "r", "water": "r:water"}}}}]}}}}"#,
        corner_zigzag(3000, 512.0)
    );
    stops_promptly_when_cancelled(recipe(&text));
}

#[test]
fn a_long_mask_loop_honours_cancellation_promptly() {
    let points: Vec<String> = (0..60_000)
        .map(|i| format!("[{}, {}]", i % 97, i % 89))
        .collect();
    let text = format!(
        r#"{{"size": [128, 128], "resolution": [128, 128], "graph": {{"format_version": 1, "output": "out", "nodes": [
          {{"id": "f", "type": "flat_terrain"}},
          {{"id": "m", "type": "polygon_mask", "params": {{"points": [{}]}}, "inputs": {{"field": "f"}}}},
          {{"id": "o", "type": "height_offset", "inputs": {{"field": "f", "mask": "m"}}}},
          {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "o"}}}}]}}}}"#,
        points.join(",")
    );
    stops_promptly_when_cancelled(recipe(&text));
}
