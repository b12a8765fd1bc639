use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::pipeline::generate::{Generated, generate};
use crate::recipe::Document;
use std::sync::atomic::AtomicBool;

fn recipe(text: &str) -> Recipe {
    Document::parse(text, "r.json")
        .unwrap_or_else(|e| panic!("{e}"))
        .recipe()
        .clone()
}

fn heights(r: &Recipe) -> (Vec<f32>, usize, Generated) {
    let g = generate(
        r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let w = r.resolution[0] as usize + 1;
    (g.heightfield.heights().to_vec(), w, g)
}

fn applied(id: &str) -> Recipe {
    let p = builtin(id).expect("a built-in").expect("parses");
    p.apply(&Recipe::default_recipe(), GridChange::Ask)
        .unwrap_or_else(|e| panic!("{id}: {e}"))
        .recipe
}

/// Mean height of samples within `r` world units of (x, z) on the 128 m, 64-cell grid.
fn mean_near(h: &[f32], w: usize, x: f32, z: f32, r: f32) -> f32 {
    let (mut s, mut n) = (0.0, 0);
    for (i, &v) in h.iter().enumerate() {
        let (px, pz) = ((i % w) as f32 * 2.0, (i / w) as f32 * 2.0);
        if (px - x).hypot(pz - z) <= r {
            s += v;
            n += 1;
        }
    }
    s / n as f32
}

fn range(h: &[f32]) -> (f32, f32) {
    h.iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        })
}

#[test]
fn the_empty_recipe_is_valid() {
    let r = Recipe::default_recipe();
    assert_eq!(r.resolution, [256, 256]);
}

#[test]
fn eight_builtins_parse_apply_and_generate_on_128_m_and_64_cells() {
    let all = builtins().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.len(), 8);
    for p in &all {
        assert!(p.id.starts_with(BUILTIN_PREFIX), "{}", p.id);
        assert!(!p.description.is_empty());
        let r = p
            .apply(&Recipe::default_recipe(), GridChange::Ask)
            .unwrap_or_else(|e| panic!("{}: {e}", p.id))
            .recipe;
        assert_eq!(r.size, [128.0, 128.0], "{}", p.id);
        assert_eq!(r.resolution, [64, 64], "{}", p.id);
        assert_eq!(
            r.preset,
            Some((p.id.clone(), p.version)),
            "stamped with its version"
        );
        let graph = r.graph.as_ref().expect("an editable graph");
        let comments = graph
            .to_value()
            .get("nodes")
            .and_then(Value::as_array)
            .map_or(0, |n| {
                n.iter()
                    .filter(|n| n.get("type").and_then(Value::as_str) == Some("comment"))
                    .count()
            });
        assert_eq!(
            comments, 3,
            "{}: comments on shape, appearance, output",
            p.id
        );
        let (h, _, _) = heights(&r);
        assert!(h.iter().all(|v| v.is_finite()), "{}", p.id);
        // Canonical JSON round trip: the applied recipe regenerates from its own contents.
        let again = recipe(&Document::Recipe(r.clone()).to_canonical_json());
        assert_eq!(again.to_value(), r.to_value(), "{}", p.id);
    }
}

#[test]
fn each_builtin_looks_like_its_name() {
    let (flat, _, _) = heights(&applied("builtin://terrain/flat-building-site"));
    let (lo, hi) = range(&flat);
    assert!(hi - lo < 2.5, "a building site is nearly level: {lo}..{hi}");

    let (hills, _, _) = heights(&applied("builtin://terrain/rolling-hills"));
    let (lo, hi) = range(&hills);
    assert!(
        (8.0..30.0).contains(&(hi - lo)),
        "rolling hills: {lo}..{hi}"
    );

    let (peaks, _, _) = heights(&applied("builtin://terrain/mountain-range"));
    let (lo, hi) = range(&peaks);
    assert!(
        hi - lo > 40.0,
        "a mountain range has high relief: {lo}..{hi}"
    );

    let (dunes, w, _) = heights(&applied("builtin://terrain/desert-dunes"));
    // Ridges run along the 30° heading: heights vary less along it than across it.
    let var_along = |dx: f32, dz: f32| {
        let mut s = 0.0;
        let mut n = 0;
        for z in 10..54 {
            for x in 10..54 {
                let a = dunes[z * w + x];
                let (bx, bz) = (
                    (x as f32 + dx).round() as usize,
                    (z as f32 + dz).round() as usize,
                );
                let b = dunes[bz * w + bx];
                s += (a - b) * (a - b);
                n += 1;
            }
        }
        s / n as f32
    };
    let (c, s) = (30f32.to_radians().cos(), 30f32.to_radians().sin());
    assert!(
        var_along(4.0 * c, 4.0 * s) < var_along(-4.0 * s, 4.0 * c),
        "dunes are elongated along their heading"
    );

    let (basin, w, _) = heights(&applied("builtin://terrain/basin"));
    assert!(
        mean_near(&basin, w, 64.0, 64.0, 20.0) + 8.0 < mean_near(&basin, w, 8.0, 8.0, 8.0),
        "a basin's floor lies below its rim"
    );

    let (plateau, w, _) = heights(&applied("builtin://terrain/plateau"));
    let top = mean_near(&plateau, w, 66.0, 62.0, 18.0);
    assert!(
        top > mean_near(&plateau, w, 8.0, 120.0, 6.0) + 15.0,
        "a plateau's table stands above the lowland"
    );

    let (island, w, g) = heights(&applied("builtin://terrain/coastal-island"));
    assert!(
        mean_near(&island, w, 64.0, 64.0, 16.0) > 5.0,
        "the island rises"
    );
    assert!(
        mean_near(&island, w, 2.0, 2.0, 4.0) < -5.0,
        "the corners are sea floor"
    );
    assert!(
        g.water
            .bodies
            .iter()
            .any(|b| b.id == "sea" && b.wet_samples > 0),
        "an ocean covers the sea floor"
    );

    let (_, _, g) = heights(&applied("builtin://terrain/drainage-river"));
    assert!(
        g.water
            .bodies
            .iter()
            .any(|b| b.id == "river" && b.wet_samples > 0),
        "a routed river holds water"
    );
}

const AUTHOR: &str = r#"{"size": [128, 128], "resolution": [64, 64], "seed": 3,
  "biomes": {"island": {"color": [0.3, 0.5, 0.2, 1]}}, "default_biome": "island",
  "regions": [{"type": "region", "biome": "island", "center": [20, 20], "radius": 5}],
  "edits": [{"type": "raise", "center": [30, 30], "radius": 6, "amount": 2}],
  "exclusions": [{"type": "exclude", "center": [40, 40], "radius": 3}]}"#;

#[test]
fn applying_keeps_every_stroke_and_stamps_provenance() {
    let author = recipe(AUTHOR);
    let p = builtin("builtin://terrain/coastal-island")
        .unwrap()
        .unwrap();
    let a = p
        .apply(&author, GridChange::Ask)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!a.grid_changed);
    assert_eq!(a.recipe.regions, author.regions);
    assert_eq!(a.recipe.edits, author.edits);
    assert_eq!(a.recipe.exclusions, author.exclusions);
    assert_eq!(a.recipe.seed, 31, "the preset's seed");
    assert_eq!(
        a.recipe.preset,
        Some(("builtin://terrain/coastal-island".into(), 1))
    );
    // The stamped recipe generates, strokes replayed.
    heights(&a.recipe);
}

#[test]
fn a_region_naming_a_biome_the_preset_lacks_is_refused_with_the_fix() {
    let author = recipe(AUTHOR);
    let p = builtin("builtin://terrain/basin").unwrap().unwrap();
    let e = p.apply(&author, GridChange::Ask).unwrap_err().to_string();
    assert!(e.contains("recipe.regions[0].biome"), "{e}");
    assert!(e.contains("`island` is not defined"), "{e}");
    assert!(e.contains("rename the region"), "{e}");
}

#[test]
fn a_grid_change_with_strokes_needs_a_decision_and_protection_refuses_it() {
    let author = recipe(&AUTHOR.replace("[64, 64]", "[32, 32]"));
    let p = builtin("builtin://terrain/coastal-island")
        .unwrap()
        .unwrap();
    let e = p.apply(&author, GridChange::Ask).unwrap_err().to_string();
    assert!(
        e.contains("changes the grid") && e.contains("3 strokes"),
        "{e}"
    );
    let kept = p.apply(&author, GridChange::KeepStrokes).unwrap();
    assert!(kept.grid_changed);
    assert_eq!(kept.recipe.edits, author.edits);
    let cleared = p.apply(&author, GridChange::ClearStrokes).unwrap();
    assert_eq!(cleared.cleared_strokes, 3);
    assert!(!cleared.recipe.has_strokes());

    let protected = recipe(
        r#"{"size": [128, 128], "resolution": [32, 32],
        "edits": [{"type": "protect", "center": [10, 10], "radius": 4, "grid": [2, 2], "heights": [0, 0, 0, 0]}]}"#,
    );
    let e = p
        .apply(&protected, GridChange::KeepStrokes)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("recipe.edits[0]") && e.contains("height snapshot"),
        "{e}"
    );
}

#[test]
fn a_preset_that_only_sets_a_seed_gives_a_valid_recipe_on_the_authors_grid() {
    let p = Preset::parse(
        r#"{"format_version": 1, "name": "seeded", "seed": 99}"#,
        "p.json",
        "res://p.preset.json",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let author = recipe(AUTHOR);
    let a = p.apply(&author, GridChange::Ask).unwrap_err().to_string();
    // The author's regions name `island`, which this preset (default biome only) lacks.
    assert!(a.contains("regions[0]"), "{a}");
    let plain = recipe(r#"{"size": [64, 32], "resolution": [16, 8], "seed": 1}"#);
    let r = p.apply(&plain, GridChange::Ask).unwrap().recipe;
    assert_eq!((r.seed, r.size, r.resolution), (99, [64.0, 32.0], [16, 8]));
    assert_eq!(r.preset, Some(("res://p.preset.json".into(), 1)));
}

#[test]
fn bad_presets_are_located_errors() {
    let cases = [
        (r#"{"format_version": 1}"#, "p.json: name: is required"),
        (
            r#"{"format_version": 2, "name": "x"}"#,
            "p.json: format_version",
        ),
        (
            r#"{"format_version": 1, "name": "x", "colour": 1}"#,
            "p.json: colour",
        ),
        (
            r#"{"format_version": 1, "name": "x", "cells_x": 0}"#,
            "p.json: cells_x",
        ),
        (
            r#"{"format_version": 1, "name": "x", "rules": [{"biome": "nowhere"}]}"#,
            "p.json: rules[0].biome",
        ),
        (
            r#"{"format_version": 1, "name": "x", "name": "y"}"#,
            "p.json",
        ),
    ];
    for (text, want) in cases {
        let e = Preset::parse(text, "p.json", "res://p")
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{text}: {e}");
    }
}
