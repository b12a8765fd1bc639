//! Biome ids and surface roles through the pipeline: rules in the conventional pipeline and
//! through the Biome Rules node, painted regions, disabled layers, sculpting (incremental =
//! full) and the cooked payload.

use super::*;
use crate::biome::{Role, SurfaceInput};
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use serde_json::json;
use std::sync::atomic::AtomicBool;

const BIOMES: &str = r#""biomes": {"meadow": {"color": [0.3, 0.6, 0.2, 1]},
    "rock": {"color": [0.5, 0.5, 0.5, 1], "allow_snow": false, "material": "res://rock.tres"},
    "high": {"color": [1, 1, 1, 1], "texture_scale": 0.5}},
  "default_biome": "meadow",
  "landforms": {"default": {"base_height": 10, "height_variation": 40, "feature_size": 20}},
  "rules": [{"id": "crags", "biome": "rock", "priority": 10, "slope": [25, 90]},
            {"id": "tops", "biome": "high", "elevation": [28, 1000], "blend": 4}]"#;

fn recipe(extra: &str) -> Recipe {
    let text = format!(
        r#"{{"size": [64, 64], "resolution": [64, 64], "chunk_cells": 16, "seed": 5, {BIOMES} {extra}}}"#
    );
    Document::parse(&text, "t").unwrap().recipe().clone()
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

fn count(p: &PreparedTerrain, name: &str) -> usize {
    let id = p.surface.biome_index(name).unwrap();
    p.classes().biome_vec().iter().filter(|&&b| b == id).count()
}

#[test]
fn conventional_rules_assign_biomes_and_the_pipeline_equals_the_classifier() {
    let r = recipe("");
    let p = prepared(&r);
    let n = p.field.grid().sample_count();
    assert_eq!(p.classes().biome_vec().len(), n);
    assert_eq!(p.classes().role_vec().len(), n);
    let names: Vec<_> = p.biomes().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["high", "meadow", "rock"], "name order");
    assert!(!p.biomes()[2].allow_snow && p.biomes()[2].material.is_some());
    assert_eq!(p.biomes()[0].texture_scale, 0.5);
    for b in ["high", "meadow", "rock"] {
        assert!(count(&p, b) > 0, "{b} is used");
    }
    // The same as the classifier run directly on the prepared surface.
    let c = surface::compile(&r, true, p.field.height_range()).unwrap();
    let input = SurfaceInput::new(*p.field.grid(), p.field.heights(), r.sea_level() as f32);
    let cls = c.classify(&input, &AtomicBool::new(false)).unwrap();
    assert_eq!(p.classes().biome_vec(), cls.biome_ids());
    assert_eq!(p.classes().role_vec(), cls.role_ids().as_slice());
    // Rock where it is steep: every rock sample has a slope in the band.
    let rock = p.surface.biome_index("rock").unwrap();
    let mut steep = 0;
    for z in 0..65 {
        for x in 0..65 {
            if p.biome_at(x, z).map(|b| b.name.as_str()) == Some("rock") {
                let ctx = c.context_at(&input, &cls, x, z);
                assert!(ctx.slope >= 25.0, "rock at slope {}", ctx.slope);
                steep += 1;
            }
        }
    }
    assert_eq!(steep, count(&p, "rock"));
    assert!(rock < 3);
}

#[test]
fn painted_regions_win_and_disabled_biome_layers_drop_rules_and_regions() {
    let p = prepared(&recipe(""));
    let rock = p.surface.biome_index("rock").unwrap();
    let i = p
        .classes()
        .biome_vec()
        .iter()
        .position(|&b| b == rock)
        .unwrap();
    let (x, z) = (i % 65, i / 65);
    let paint = format!(
        r#", "regions": [{{"type": "region", "biome": "meadow", "center": [{x}, {z}], "radius": 1.5}}]"#
    );
    let painted = prepared(&recipe(&paint));
    assert_eq!(painted.biome_at(x, z).unwrap().name, "meadow");
    let off = format!(
        r#"{paint}, "layers": [{{"id": "generation", "name": "generation", "kind": "generation"}},
            {{"id": "biomes", "name": "biomes", "kind": "biomes", "enabled": false}},
            {{"id": "sculpt", "name": "sculpt", "kind": "sculpt"}},
            {{"id": "protection", "name": "protection", "kind": "protection"}},
            {{"id": "exclusions", "name": "exclusions", "kind": "exclusions"}}]"#
    );
    let disabled = prepared(&recipe(&off));
    let meadow = disabled.surface.biome_index("meadow").unwrap();
    assert!(
        disabled.classes().biome_vec().iter().all(|&b| b == meadow),
        "a disabled biome layer drops its rules (and its regions)"
    );
    // Cliffs do not depend on the biome: the same surface, the same cliffs.
    let cliffs = |p: &PreparedTerrain| {
        p.classes()
            .role_vec()
            .iter()
            .filter(|&&r| r == Role::Cliff as u8)
            .count()
    };
    assert_eq!(cliffs(&disabled), cliffs(&p));
}

fn graph_recipe(through_rules: bool) -> Recipe {
    let out_input = if through_rules { "rules" } else { "hills" };
    recipe(&format!(
        r#", "graph": {{"format_version": 1, "output": "out", "nodes": [
            {{"id": "hills", "type": "noise_terrain", "position": [0, 0],
              "params": {{"height_variation": 40, "feature_size": 20, "base_height": 10}}}},
            {{"id": "flow", "type": "drainage", "position": [100, 0], "inputs": {{"field": "hills"}}}},
            {{"id": "rules", "type": "biome_rules", "position": [200, 0],
              "inputs": {{"field": "hills", "drainage": "flow:drainage"}}}},
            {{"id": "out", "type": "terrain_output", "position": [300, 0],
              "inputs": {{"heightfield": "{out_input}"}}}}]}}"#
    ))
}

#[test]
fn a_graph_applies_rules_only_through_biome_rules() {
    let with = prepared(&graph_recipe(true));
    assert!(with.sources.rules && with.sources.flow.is_some());
    assert!(count(&with, "rock") > 0 && count(&with, "high") > 0);
    let without = prepared(&graph_recipe(false));
    assert!(!without.sources.rules);
    assert_eq!(
        count(&without, "meadow"),
        without.classes().biome_vec().len()
    );
    assert_eq!(
        without.classes().role_vec().len(),
        without.classes().biome_vec().len(),
        "roles either way"
    );
    assert_eq!(with.field.heights(), without.field.heights());
}

#[test]
fn bad_rules_are_located() {
    let text = format!(
        r#"{{"size": [64, 64], "resolution": [64, 64], {}}}"#,
        BIOMES.replace(
            r#""blend": 4}]"#,
            r#""blend": 4}, {"biome": "rock"}, {"biome": "rock", "slope": [50, 10]}]"#
        )
    );
    let e = Document::parse(&text, "t").unwrap_err().to_string();
    assert!(e.contains("rules[3].slope"), "{e}");
}

/// The generated base of `r` (a recipe with strokes), the finished terrain and its edit session.
fn sculpting(r: &Recipe) -> (PreparedTerrain, PreparedTerrain, EditSession) {
    let never = AtomicBool::new(false);
    let base = prepare_base(
        r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap();
    let (first, session) = finish(r, base.clone(), None).unwrap();
    (base, first, session.unwrap())
}

#[test]
fn sculpting_and_painting_reclassify_like_a_full_pass() {
    let r = recipe(r#", "edits": [{"type": "raise", "center": [5, 5], "radius": 3, "amount": 1}]"#);
    let (base, first, mut s) = sculpting(&r);
    assert_eq!(s.surface().unwrap(), &first.surface);
    let strokes = [
        json!({"type": "raise", "center": [30, 30], "radius": 9, "amount": 12}),
        json!({"type": "lower", "center": [40, 20], "radius": 6, "amount": 8}),
        json!({"type": "region", "biome": "high", "center": [20, 40], "radius": 5}),
        json!({"type": "smooth", "center": [31, 29], "radius": 6, "strength": 1}),
    ];
    let mut changed_any = false;
    for v in &strokes {
        let c = s.apply_stroke(v).unwrap();
        changed_any |= !c.surface.is_empty();
        assert!(c.surface.is_empty() || c.touched.union(&c.surface) == c.touched);
        let full = finish(s.recipe(), base.clone(), None).unwrap().0;
        assert_eq!(s.surface().unwrap(), &full.surface, "after {v}");
    }
    assert!(changed_any, "a 12 m raise changes some biome or role");
    for _ in 0..2 {
        s.undo().unwrap();
        let full = finish(s.recipe(), base.clone(), None).unwrap().0;
        assert_eq!(s.surface().unwrap(), &full.surface, "after undo");
    }
    s.set_layer_enabled("biomes", false).unwrap();
    let full = finish(s.recipe(), base.clone(), None).unwrap().0;
    assert_eq!(s.surface().unwrap(), &full.surface, "after a layer toggle");
}

#[test]
fn the_cooked_payload_keeps_ids_roles_and_the_table() {
    let p = prepared(&graph_recipe(true));
    let bytes = crate::formats::payload::encode(&p);
    let q = crate::formats::payload::decode(&bytes, "t").unwrap();
    assert_eq!(q.surface, p.surface);
    assert_eq!(q.sources.rules, p.sources.rules);
    assert_eq!(q.sources.flow, p.sources.flow);
}

#[test]
fn explain_agrees_with_the_runtime_on_every_sample() {
    use crate::biome::explain::ExplainedSource;
    let r = recipe(
        r#", "regions": [{"type": "region", "biome": "rock", "center": [12, 50], "radius": 6}]"#,
    );
    let never = AtomicBool::new(false);
    let (first, p) = explain(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
        None,
        10.0,
        20.0,
    )
    .unwrap();
    assert_eq!(first.cell, [10, 20]);
    let base = prepare_base(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap();
    let state = SurfaceState::new(
        &r,
        p.sources.clone(),
        &p.water,
        base.field.height_range(),
        &p.field,
        &p.regions,
        &p.region_biomes,
    )
    .unwrap();
    assert_eq!(
        state.surface(),
        p.surface,
        "explain reads the runtime's classification"
    );
    let mut seen = [0usize; 3];
    for z in 0..65 {
        for x in 0..65 {
            let e = state.explain(&p.field, x as f32, z as f32).unwrap();
            assert_eq!(e.cell, [x, z]);
            assert_eq!(e.biome, p.biome_at(x, z).unwrap().name, "({x}, {z})");
            assert_eq!(Some(e.role), p.role_at(x, z));
            match &e.source {
                ExplainedSource::Rule(k, _, _) => {
                    seen[0] += 1;
                    assert_eq!(e.rules.len(), 1);
                    assert_eq!(e.rules[0].index, *k);
                    assert_eq!(e.rules[0].first_rejection, None);
                    assert_eq!(e.rules[0].biome, e.biome);
                }
                ExplainedSource::PaintedRegion => {
                    seen[1] += 1;
                    assert_eq!(p.painted_biome(x, z), Some(e.biome.as_str()));
                }
                ExplainedSource::Default => {
                    seen[2] += 1;
                    assert_eq!(e.biome, "meadow");
                    assert_eq!(e.rules.len(), 2);
                    assert!(e.rules.iter().all(|r| r.first_rejection.is_some()));
                }
            }
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "rules, regions and the default all decide: {seen:?}"
    );
}

fn eroded_recipe(connect_change: bool, extra: &str) -> Recipe {
    let change = if connect_change {
        r#", "erosion": "erode:change""#
    } else {
        ""
    };
    recipe(&format!(
        r#", "graph": {{"format_version": 1, "output": "out", "nodes": [
            {{"id": "hills", "type": "noise_terrain", "position": [0, 0],
              "params": {{"height_variation": 40, "feature_size": 20, "base_height": 10}}}},
            {{"id": "erode", "type": "erosion", "position": [100, 0], "inputs": {{"field": "hills"}},
              "params": {{"iterations": 30000}}}},
            {{"id": "rules", "type": "biome_rules", "position": [200, 0],
              "inputs": {{"field": "erode:heightfield"{change}}}}},
            {{"id": "out", "type": "terrain_output", "position": [300, 0],
              "inputs": {{"heightfield": "rules"}}}}]}}{extra}"#
    ))
}

#[test]
fn erosion_change_exposes_rock_in_cuts_and_lays_sediment_in_deposits() {
    let with = prepared(&eroded_recipe(true, ""));
    let without = prepared(&eroded_recipe(false, ""));
    assert_eq!(with.field.heights(), without.field.heights());
    assert!(without.sources.erosion.is_none());
    let change = with
        .sources
        .erosion
        .clone()
        .expect("the change is a classification source");
    let p = crate::biome::SurfaceParams::default();
    let roles = with.classes().role_vec();
    let (mut cuts, mut deposits) = (0, 0);
    for (i, (&c, r)) in change.iter().zip(roles).enumerate() {
        if c <= -p.cut_depth {
            cuts += 1;
            // Rock, unless a role ranked above it applies.
            assert!(
                [Role::Rock, Role::Cliff, Role::Snow, Role::Underwater]
                    .iter()
                    .any(|&x| x as u8 == r),
                "sample {i}: a {c} m cut is role {r}"
            );
        }
        deposits += usize::from(c >= p.deposit_depth);
    }
    assert!(
        cuts > 20 && deposits > 20,
        "{cuts} cuts, {deposits} deposits"
    );
    let n = |p: &PreparedTerrain, role: Role| {
        p.classes()
            .role_vec()
            .iter()
            .filter(|&&r| r == role as u8)
            .count()
    };
    assert!(
        n(&with, Role::Rock) > n(&without, Role::Rock),
        "cuts add rock"
    );
    assert!(
        n(&with, Role::Sediment) > n(&without, Role::Sediment),
        "deposits add sediment"
    );
    // Cooked and sculpted terrains keep reading the same change.
    let q = crate::formats::payload::decode(&crate::formats::payload::encode(&with), "t").unwrap();
    assert_eq!(q.sources.erosion, with.sources.erosion);
    assert_eq!(q.surface, with.surface);
    let r = eroded_recipe(
        true,
        r#", "edits": [{"type": "raise", "center": [5, 5], "radius": 3, "amount": 1}]"#,
    );
    let (base, _, mut s) = sculpting(&r);
    s.apply_stroke(&json!({"type": "raise", "center": [30, 30], "radius": 9, "amount": 6}))
        .unwrap();
    let full = finish(s.recipe(), base, None).unwrap().0;
    assert_eq!(
        s.surface().unwrap(),
        &full.surface,
        "incremental = full with erosion"
    );
}

/// Eroded hills blended into uneroded ones over the west half (`amount`), the blend's
/// transport connected to Biome Rules.
fn blended_erosion_recipe(amount: f64) -> Recipe {
    recipe(&format!(
        r#", "graph": {{"format_version": 1, "output": "out", "nodes": [
            {{"id": "hills", "type": "noise_terrain", "position": [0, 0],
              "params": {{"height_variation": 40, "feature_size": 20, "base_height": 10}}}},
            {{"id": "erode", "type": "erosion", "position": [100, 0], "inputs": {{"field": "hills"}},
              "params": {{"iterations": 30000}}}},
            {{"id": "west", "type": "polygon_mask", "position": [100, 100], "inputs": {{"field": "hills"}},
              "params": {{"points": [[-1, -1], [31.5, -1], [31.5, 65], [-1, 65]], "falloff": 0}}}},
            {{"id": "blend", "type": "height_blend", "position": [200, 0],
              "params": {{"amount": {amount}}},
              "inputs": {{"a": "hills", "b": "erode:heightfield", "mask": "west", "b_change": "erode:change"}}}},
            {{"id": "rules", "type": "biome_rules", "position": [300, 0],
              "inputs": {{"field": "blend", "erosion": "blend:change"}}}},
            {{"id": "out", "type": "terrain_output", "position": [400, 0],
              "inputs": {{"heightfield": "rules"}}}}]}}"#
    ))
}

#[test]
fn a_height_blend_weights_transport_with_its_amount_and_mask() {
    let raw = prepared(&eroded_recipe(true, ""));
    let raw_change = raw.sources.erosion.clone().expect("the erosion change");
    for amount in [1.0f32, 0.5] {
        let p = prepared(&blended_erosion_recipe(f64::from(amount)));
        let change = p.sources.erosion.clone().expect("the blended change");
        let [w, _] = p.field.grid().samples();
        let (mut west, mut east) = (0, 0);
        for (i, (&c, &r)) in change.iter().zip(raw_change.iter()).enumerate() {
            let m = if (i % w) as f32 <= 31.5 { 1.0 } else { 0.0 };
            assert_eq!(c, r * (amount * m), "sample {i}, amount {amount}");
            if r != 0.0 {
                if m == 1.0 { west += 1 } else { east += 1 }
            }
        }
        assert!(
            west > 100 && east > 100,
            "transport on both sides: {west} west, {east} east"
        );
        // Only the blended side's transport reaches the roles: east of the mask the roles are
        // those of uneroded ground (no transport).
        let sediment = |p: &PreparedTerrain, east_only: bool| {
            p.classes()
                .role_vec()
                .iter()
                .enumerate()
                .filter(|&(i, &r)| {
                    r == Role::Sediment as u8 && (!east_only || (i % w) as f32 > 31.5)
                })
                .count()
        };
        assert!(
            sediment(&raw, true) > 0 && sediment(&p, true) == 0,
            "east sediment: {} raw, {} blended",
            sediment(&raw, true),
            sediment(&p, true)
        );
    }
}
