//! Palette parsing: the seed's example, defaults, migration messages, located errors, budgets.

use super::palette::*;
use crate::error::Diagnostics;
use serde_json::Value;
use serde_json::json;

fn errors(v: Value) -> Vec<String> {
    match Palette::parse(&v, "palette") {
        Ok(_) => Vec::new(),
        Err(e) => e.diagnostics().iter().map(|d| d.to_string()).collect(),
    }
}

fn has(errs: &[String], needle: &str) -> bool {
    errs.iter().any(|e| e.contains(needle))
}

fn meadow() -> Value {
    json!({
        "format_version": 3, "name": "Meadow",
        "material_set": "asset://terrain/material_sets/meadow",
        "art_density": 1, "tree_density": 1,
        "placements": {"pine_sparse": {
            "prefab": "prefab://vegetation/pine", "category": "tree", "density": 0.02,
            "candidate_spacing": 4, "spacing": 12, "scale": [0.9, 1.3], "yaw": [0, 360],
            "biomes": ["meadow"], "slope": [0, 35], "moisture": [0.2, 0.8],
            "water_distance": [3, 100], "cluster": {"size": 24, "strength": 0.7},
            "collision": "static"}}
    })
}

#[test]
fn the_seed_example_parses_with_every_field() {
    let p = Palette::parse(&meadow(), "palette").unwrap();
    assert_eq!(p.name, "Meadow");
    let r = p.rule("pine_sparse").unwrap();
    assert_eq!(
        r.geometry,
        Geometry::Prefab("prefab://vegetation/pine".into())
    );
    assert_eq!(r.category, RuleCategory::Tree);
    assert_eq!(
        (r.density, r.candidate_spacing, r.spacing),
        (0.02, 4.0, 12.0)
    );
    assert_eq!(r.water_distance, Some([3.0, 100.0]));
    assert_eq!(
        r.cluster,
        Cluster {
            size: 24.0,
            strength: 0.7
        }
    );
    assert_eq!(r.collision, Collision::Static);
    assert_eq!(p.to_value(), meadow());
}

#[test]
fn defaults_follow_the_seed() {
    let p = Palette::parse(
        &json!({"format_version": 3, "name": "x", "placements": {
            "a": {"model": "res://a.mesh", "density": 1, "collision": "none"},
            "b": {"prefab": "res://b.tscn", "density": 0.01, "spacing": 6}}}),
        "palette",
    )
    .unwrap();
    let a = p.rule("a").unwrap();
    assert_eq!(a.candidate_spacing, 0.25);
    assert_eq!(
        (a.scale, a.yaw, a.slope, a.moisture),
        ([1.0, 1.0], [0.0, 360.0], [0.0, 90.0], [0.0, 1.0])
    );
    assert_eq!(a.category, RuleCategory::Prop);
    assert_eq!(a.cluster, Cluster::default());
    let b = p.rule("b").unwrap();
    assert_eq!(b.candidate_spacing, 3.0);
    assert_eq!(b.collision, Collision::Static);
}

#[test]
fn old_versions_are_refused_with_a_migration_message() {
    let mut v = meadow();
    v["format_version"] = json!(2);
    let e = errors(v.clone());
    assert!(
        has(
            &e,
            "palette.format_version: palette format version 2 is no longer read: placement `weight` has been replaced by physical `density`"
        ),
        "{e:?}"
    );
    v["format_version"] = json!(1);
    let e = errors(v.clone());
    assert!(
        has(
            &e,
            "version 1 is no longer read: move ground bindings into a material set"
        ),
        "{e:?}"
    );
    v["format_version"] = json!(4);
    assert!(has(&errors(v.clone()), "must be 3"));
    v.as_object_mut().unwrap().remove("format_version");
    assert!(has(&errors(v), "palette.format_version: is required"));
}

#[test]
fn density_beyond_one_candidate_per_square_is_actionable() {
    let mut v = meadow();
    v["placements"]["pine_sparse"]["density"] = json!(0.05);
    v["tree_density"] = json!(2);
    let e = errors(v);
    assert!(
        has(
            &e,
            "palette.placements[\"pine_sparse\"].density: density 0.05 × art_density 1 × tree_density 2 = 0.1 per square unit asks for 1.600 instances per candidate lattice square (candidate_spacing 4), more than one; reduce density to at most 0.03125 or candidate_spacing to at most 3.1623"
        ),
        "{e:?}"
    );
}

#[test]
fn bad_rules_get_located_errors() {
    let e = errors(json!({"format_version": 3, "name": "x", "placements": {
        "bad id!": {"prefab": "p", "density": 1},
        "both": {"prefab": "p", "model": "m", "density": 0.1},
        "none": {"density": 0.1},
        "m": {"model": "m", "density": 0.1},
        "far": {"prefab": "p", "density": 0, "spacing": 10000, "candidate_spacing": 0.01},
        "v2": {"prefab": "p", "density": 0.1, "weight": 3, "lod": 2},
        "r": {"prefab": "p", "density": -1, "slope": [40, 10], "moisture": [0, 2],
              "category": "shrub", "collision": "solid", "cluster": {"size": 0, "strength": 2},
              "spacing": -1, "typo": 1}}}));
    for needle in [
        "palette.placements[\"bad id!\"]: rule ids use letters",
        "palette.placements[\"far\"].spacing: 10000 is 1000000 candidate spacings of 0.01; at most 256",
        "palette.placements[\"both\"]: needs exactly one geometry reference: `model` or `prefab`, not both",
        "palette.placements[\"none\"]: needs exactly one geometry reference",
        "palette.placements[\"m\"].collision: model rules must explicitly use collision \"none\"",
        "palette.placements[\"v2\"].weight: is a version-2 key",
        "palette.placements[\"v2\"].lod: the former palette integer lod was unused",
        "palette.placements[\"r\"].density: must be a number ≥ 0, got -1",
        "palette.placements[\"r\"].slope: must be [min, max] with min ≤ max",
        "palette.placements[\"r\"].moisture: must lie within [0, 1]",
        "palette.placements[\"r\"].category: must be one of grass, tree, rock, prop",
        "palette.placements[\"r\"].collision: must be one of none, static, trigger",
        "palette.placements[\"r\"].cluster.size: must be > 0",
        "palette.placements[\"r\"].cluster.strength: must be 0..=1, got 2",
        "palette.placements[\"r\"].spacing: must be 0..=10000, got -1",
        "palette.placements[\"r\"].typo: unknown field",
    ] {
        assert!(has(&e, needle), "missing {needle:?} in {e:#?}");
    }
    let e = errors(json!({"format_version": 3, "name": "x"}));
    assert!(
        has(
            &e,
            "palette: a palette must supply a material_set or at least one placement"
        ),
        "{e:?}"
    );
    let e = errors(json!({"format_version": 3}));
    assert!(has(&e, "palette.name: is required"), "{e:?}");
}

#[test]
fn budgets_name_the_rule_and_the_fix() {
    let p = Palette::parse(
        &json!({"format_version": 3, "name": "x", "placements": {
            "grass": {"model": "g", "collision": "none", "density": 1, "candidate_spacing": 0.1},
            "rock": {"prefab": "r", "density": 0.25, "candidate_spacing": 0.1, "spacing": 8}}}),
        "palette",
    )
    .unwrap();
    let mut d = Diagnostics::default();
    p.check_budgets([1000.0, 1000.0], &Budgets::default(), "palette", &mut d);
    let e: Vec<String> = d.0.iter().map(|d| d.to_string()).collect();
    assert!(
        has(
            &e,
            "palette: the palette makes 200000000 lattice candidates on a 1000×1000 terrain, more than the budget of 64000000; rule `grass` alone makes 100000000: raise its candidate_spacing"
        ),
        "{e:?}"
    );
    assert!(
        has(&e, "spacing comparisons") && has(&e, "rule `rock`"),
        "{e:?}"
    );
    let mut d = Diagnostics::default();
    p.check_budgets([100.0, 100.0], &Budgets::default(), "palette", &mut d);
    assert!(d.is_empty(), "{:?}", d.0);
}
