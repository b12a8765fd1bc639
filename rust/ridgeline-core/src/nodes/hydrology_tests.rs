//! Water nodes through the graph (documents → generation).

use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::pipeline::generate;
use crate::recipe::Document;
use crate::testutil::bits;
use std::sync::atomic::AtomicBool;

fn run(text: &str) -> crate::pipeline::Generated {
    let doc = Document::parse(text, "w.json").unwrap_or_else(|e| panic!("{e}"));
    generate(
        doc.recipe(),
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap()
}

fn errors(text: &str) -> String {
    match Document::parse(text, "w.json") {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.to_string(),
    }
}

/// A flat plateau at 10 with square pits (floor 0) cut in by polygon masks; `extra` adds nodes.
fn pits_doc(budget: u32, water_nodes: &str, output_water: &str) -> String {
    format!(
        r#"{{"size": [96, 48], "resolution": [96, 48], "seed": 1, "graph": {{"format_version": 1, "output": "out", "nodes": [
        {{"id": "high", "type": "flat_terrain", "params": {{"height": 10}}}},
        {{"id": "low", "type": "flat_terrain", "params": {{"height": 0}}}},
        {{"id": "pit_a", "type": "polygon_mask", "params": {{"points": [[10, 10], [30, 10], [30, 30], [10, 30]], "falloff": 0}}, "inputs": {{"field": "high"}}}},
        {{"id": "pit_b", "type": "polygon_mask", "params": {{"points": [[50, 12], [80, 12], [80, 36], [50, 36]], "falloff": 0}}, "inputs": {{"field": "high"}}}},
        {{"id": "a", "type": "height_blend", "inputs": {{"a": "high", "b": "low", "mask": "pit_a"}}}},
        {{"id": "ab", "type": "height_blend", "inputs": {{"a": "a", "b": "low", "mask": "pit_b"}}}},
        {{"id": "drain", "type": "drainage", "inputs": {{"field": "ab"}}}},
        {{"id": "lakes", "type": "basin_water", "params": {{"maximum_bodies": {budget}}}, "inputs": {{"drainage": "drain"}}}}
        {water_nodes},
        {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "ab", "water": "{output_water}"}}}}
    ]}}}}"#
    )
}

#[test]
fn basin_water_proposes_lakes_at_known_spill_levels_with_stable_ids() {
    let g = run(&pits_doc(16, "", "lakes"));
    let ids: Vec<_> = g.water.bodies.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, ["lakes/basin/10_10", "lakes/basin/50_12"]);
    for b in &g.water.bodies {
        assert_eq!(b.level, 10.0, "spill level is the plateau rim");
        assert!(b.wet_samples > 300, "{b:?}");
    }
    // A smaller budget keeps the deepest/first lakes and never renumbers them.
    let g1 = run(&pits_doc(1, "", "lakes"));
    assert_eq!(g1.water.bodies.len(), 1);
    assert!(ids.contains(&g1.water.bodies[0].id.as_str()));
}

#[test]
fn water_bodies_chain_and_rivers_carve_their_channel() {
    let river = r#",{"id": "river", "type": "water_body", "params": {"id": "river", "kind": "river",
        "river_path": [[0, 4, 40], [95, 2, 40]], "river_width": 4, "river_surface_mode": "follow_bed", "river_depth": 1},
        "inputs": {"field": "ab", "water": "lakes"}}"#;
    let text = pits_doc(16, river, "river:water").replace(
        r#""heightfield": "ab", "water""#,
        r#""heightfield": "river", "water""#,
    );
    let g = run(&text);
    let ids: Vec<_> = g.water.bodies.iter().map(|b| b.id.clone()).collect();
    assert_eq!(
        ids,
        ["lakes/basin/10_10", "lakes/basin/50_12", "river"],
        "existing water is preserved"
    );
    let river = g.water.bodies.iter().find(|b| b.id == "river").unwrap();
    assert!(river.wet_samples > 50);
    // The channel is carved to the bed: at x = 90 the bed is 4 - 2 * 90/95.
    let bed = 4.0 - 2.0 * 90.0 / 95.0;
    assert!(
        (g.heightfield.sample(90, 40) - bed).abs() < 1e-3,
        "{}",
        g.heightfield.sample(90, 40)
    );
    // Follow-bed surface: bed + depth.
    let s = g
        .water
        .sample(&g.heightfield, 90.0, 40.0)
        .expect("wet in the river");
    assert!((s.surface - (bed + 1.0)).abs() < 1e-3);
}

#[test]
fn boundary_polygons_are_validated() {
    let wb = |params: &str| {
        format!(
            r#"{{"size": [64, 64], "resolution": [16, 16], "graph": {{"format_version": 1, "output": "out", "nodes": [
            {{"id": "f", "type": "flat_terrain"}},
            {{"id": "w", "type": "water_body", "params": {params}, "inputs": {{"field": "f"}}}},
            {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "w", "water": "w:water"}}}}]}}}}"#
        )
    };
    let e = errors(&wb(r#"{"boundary": [[0, 0], [10, 10], [10, 0], [0, 10]]}"#));
    assert!(e.contains("the boundary intersects itself"), "{e}");
    let e = errors(&wb(r#"{"boundary": [[0, 0], [0, 0], [10, 0], [10, 10]]}"#));
    assert!(e.contains("zero-length edge"), "{e}");
    let e = errors(&wb(r#"{"boundary": [[0, 0], [5, 5], [10, 10]]}"#));
    assert!(e.contains("degenerate"), "{e}");
    let e = errors(&wb(
        r#"{"center": [50, 50], "boundary": [[0, 0], [20, 0], [20, 20], [0, 20]]}"#,
    ));
    assert!(
        e.contains("a lake's centre must lie inside its boundary"),
        "{e}"
    );
    let e = errors(&wb(r#"{"kind": "river"}"#));
    assert!(e.contains("river_path: is required for a river"), "{e}");
    let e = errors(&wb(
        r#"{"kind": "ocean", "flow_speed": 1, "flow_direction": [0, 0]}"#,
    ));
    assert!(
        e.contains("a moving lake or ocean needs a nonzero flow direction"),
        "{e}"
    );
    let e = errors(&wb(
        r#"{"absorption_distance": 0, "foam_strength": 2, "wave_length": 0}"#,
    ));
    assert!(
        e.contains("absorption_distance: must be > 0")
            && e.contains("foam_strength: must be 0..=1")
            && e.contains("wave_length: must be > 0"),
        "{e}"
    );
    // A concave, clockwise boundary with a repeated closing point is fine.
    run(&wb(
        r#"{"level": 1, "center": [5, 5], "boundary": [[0, 0], [0, 30], [30, 30], [30, 20], [10, 20], [10, 0], [0, 0]]}"#,
    ));
}

#[test]
fn water_graphs_are_identical_for_any_thread_count() {
    let river = r#",{"id": "river", "type": "water_body", "params": {"id": "river", "kind": "river",
        "river_path": [[0, 4, 40], [40, 3, 20], [95, 2, 40]], "river_path_interpolation": "catmull_rom", "river_width": 5},
        "inputs": {"field": "ab", "water": "lakes"}}"#;
    let text = pits_doc(16, river, "river:water");
    let with = |t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap()
            .install(|| {
                let g = run(&text);
                (
                    g.heightfield.heights().to_vec(),
                    g.water.owner.clone(),
                    g.water.surface.clone(),
                )
            })
    };
    let (a, b) = (with(1), with(2));
    assert_eq!(bits(&a.0), bits(&b.0));
    assert_eq!(a.1, b.1);
    assert_eq!(bits(&a.2), bits(&b.2));
}

/// A tilted, bumpy slope falling toward -X with an ocean along the low edge.
fn slope_doc(extra_nodes: &str, output: &str, output_water: &str) -> String {
    format!(
        r#"{{"size": [128, 64], "resolution": [128, 64], "seed": 4, "graph": {{"format_version": 1, "output": "out", "nodes": [
        {{"id": "bumps", "type": "noise_terrain", "params": {{"base_height": 0, "height_variation": 6, "feature_size": 24, "roughness": 0.5, "octaves": 3}}}},
        {{"id": "ramp_mask", "type": "polygon_mask", "params": {{"points": [[128, -10], [300, -10], [300, 80], [128, 80]], "falloff": 128}}, "inputs": {{"field": "bumps"}}}},
        {{"id": "tilt", "type": "height_offset", "params": {{"offset": 40}}, "inputs": {{"field": "bumps", "mask": "ramp_mask"}}}},
        {{"id": "sea", "type": "water_body", "params": {{"id": "sea", "kind": "ocean", "level": 4}}, "inputs": {{"field": "tilt"}}}},
        {{"id": "drain", "type": "drainage", "inputs": {{"field": "sea"}}}}
        {extra_nodes},
        {{"id": "out", "type": "terrain_output", "inputs": {{"heightfield": "{output}", "water": "{output_water}"}}}}
    ]}}}}"#
    )
}

#[test]
fn river_routes_never_ascend_and_join_existing_water() {
    let route = r#",{"id": "creek", "type": "river_route", "params": {"source_x": 120, "source_z": 30, "channel_width": 3},
        "inputs": {"drainage": "drain", "water": "sea:water"}}"#;
    let g = run(&slope_doc(route, "creek", "creek:water"));
    let creek = g
        .water
        .bodies
        .iter()
        .find(|b| b.id == "creek")
        .expect("the route publishes a river");
    let Footprint::River { path, .. } = &creek.footprint else {
        panic!("river footprint")
    };
    assert!(path.len() >= 2);
    // The source ground along the route never rises (checked on the uncarved field).
    let src = run(&slope_doc("", "sea", "sea:water"));
    let mut prev = f32::INFINITY;
    for p in path {
        let h = src.heightfield.height_at(p[0], p[2]).unwrap();
        assert!(
            h <= prev + 1e-5,
            "the route ascends at ({}, {}): {h} after {prev}",
            p[0],
            p[2]
        );
        prev = h;
    }
    // The bed never rises either, and the route ended at the sea it joined.
    assert!(path.windows(2).all(|s| s[1][1] <= s[0][1] + 1e-6));
    let end = path.last().unwrap();
    assert_eq!(
        src.water
            .sample(&src.heightfield, end[0], end[2])
            .map(|s| s.body_id),
        Some("sea".to_string()),
        "the route stops at the first wet column of the existing body"
    );
    assert!(
        g.water.bodies.iter().any(|b| b.id == "sea"),
        "existing water kept"
    );
}

use crate::hydrology::water::Footprint;

#[test]
fn short_routes_leave_the_field_unchanged() {
    // A source already in the sea keeps the existing water and adds no river.
    let route = r#",{"id": "creek", "type": "river_route", "params": {"source_x": 1, "source_z": 30},
        "inputs": {"drainage": "drain", "water": "sea:water"}}"#;
    let g = run(&slope_doc(route, "creek", "creek:water"));
    assert!(g.water.bodies.iter().all(|b| b.id != "creek"));
    let src = run(&slope_doc("", "sea", "sea:water"));
    assert_eq!(
        g.heightfield.heights(),
        src.heightfield.heights(),
        "field unchanged"
    );
}

#[test]
fn water_edit_excludes_and_patches_bodies_and_rejects_bad_edits() {
    let edit = |params: &str| {
        format!(
            r#",{{"id": "edit", "type": "water_edit", "params": {params}, "inputs": {{"field": "ab", "water": "lakes"}}}}"#
        )
    };
    let g = run(&pits_doc(
        16,
        &edit(
            r#"{"excluded_ids": ["lakes/basin/50_12"], "overrides": [{"id": "lakes/basin/10_10", "level": 5}]}"#,
        ),
        "edit",
    ));
    assert_eq!(g.water.bodies.len(), 1);
    assert_eq!(g.water.bodies[0].level, 5.0);
    // Unknown ids are rejected at generation (the ids exist only then).
    let doc = Document::parse(
        &pits_doc(
            16,
            &edit(r#"{"excluded_ids": ["lakes/basin/1_1"]}"#),
            "edit",
        ),
        "w",
    )
    .unwrap();
    let err = generate(
        doc.recipe(),
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown water body id `lakes/basin/1_1`"),
        "{err}"
    );
    let e = errors(&pits_doc(
        16,
        &edit(r#"{"overrides": [{"id": "a", "level": 1}, {"id": "a", "level": 2}]}"#),
        "edit",
    ));
    assert!(e.contains("duplicate override for `a`"), "{e}");
    let e = errors(&pits_doc(
        16,
        &edit(r#"{"excluded_ids": ["a"], "overrides": [{"id": "a", "level": 1}]}"#),
        "edit",
    ));
    assert!(e.contains("`a` is both excluded and overridden"), "{e}");
    let e = errors(&pits_doc(
        16,
        &edit(r#"{"overrides": [{"id": "a", "river_path_interpolation": "catmull_rom"}]}"#),
        "edit",
    ));
    assert!(
        e.contains("interpolation settings need an explicit replacement `river_path`"),
        "{e}"
    );
}

#[test]
fn water_edit_resamples_a_replacement_river_path() {
    let river = r#",{"id": "river", "type": "water_body", "params": {"id": "river", "kind": "river",
        "river_path": [[0, 4, 40], [95, 2, 40]], "river_width": 4},
        "inputs": {"field": "ab", "water": "lakes"}},
        {"id": "edit", "type": "water_edit", "params": {"overrides": [{"id": "river",
            "river_path": [[0, 4, 10], [48, 3, 44], [95, 2, 10]], "river_path_interpolation": "catmull_rom", "river_curve_steps": 4}]},
        "inputs": {"field": "river", "water": "river:water"}}"#;
    let text = pits_doc(16, river, "edit").replace(
        r#""heightfield": "ab", "water""#,
        r#""heightfield": "river", "water""#,
    );
    let g = run(&text);
    let b = g.water.bodies.iter().find(|b| b.id == "river").unwrap();
    let Footprint::River { path, .. } = &b.footprint else {
        panic!("river")
    };
    assert_eq!(path.len(), 1 + 2 * 4, "two intervals × four steps");
    assert_eq!(path[0], [0.0, 4.0, 10.0]);
    assert_eq!(path[8], [95.0, 2.0, 10.0], "ends are exact");
}
