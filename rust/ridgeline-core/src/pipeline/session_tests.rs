//! Behaviour of the editing core: incremental updates equal full replays, layers, ordering,
//! undo/redo, compaction and grid changes.

use super::compact::{
    RegridChoice, compact, needs_regrid_decision, resolve_regrid, verify_equivalent,
};
use super::session::EditSession;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::recipe::{Document, Recipe};
use proptest::prelude::*;
use serde_json::{Value, json};

const W: usize = 65;

/// Two sculpt layers, so strokes land before later layers' strokes in evaluation order.
const LAYERS: &str = r#", "layers": [
    {"id": "generation", "kind": "generation"}, {"id": "biomes", "kind": "biomes"},
    {"id": "sculpt", "kind": "sculpt"}, {"id": "details", "kind": "sculpt"},
    {"id": "protection", "kind": "protection"}, {"id": "exclusions", "kind": "exclusions"}]"#;

fn recipe(extra: &str) -> Recipe {
    let text = format!(
        r#"{{"size": [64, 64], "resolution": [64, 64], "chunk_cells": 16, "seed": 1,
            "biomes": {{"meadow": {{"color": [0.3, 0.6, 0.2, 1]}}, "sand": {{"color": [0.9, 0.8, 0.5, 1]}}}},
            "default_biome": "meadow" {extra}}}"#
    );
    Document::parse(&text, "t").unwrap().recipe().clone()
}

fn base() -> Heightfield {
    let grid = Grid::new([64.0, 64.0], [64, 64], 16).unwrap();
    let heights = (0..W * W)
        .map(|i| {
            let (x, z) = ((i % W) as f32, (i / W) as f32);
            (x * 0.21).sin() * 6.0 + (z * 0.13).cos() * 4.0 + x * 0.1
        })
        .collect();
    Heightfield::new(grid, heights, None).unwrap()
}

fn bits(h: &[f32]) -> Vec<u32> {
    h.iter().map(|v| v.to_bits()).collect()
}

/// A full replay of `session`'s current recipe.
fn full(session: &EditSession) -> EditSession {
    EditSession::new(session.recipe().clone(), base(), None).unwrap()
}

fn assert_same(a: &EditSession, b: &EditSession, what: &str) {
    assert_eq!(
        bits(a.field().heights()),
        bits(b.field().heights()),
        "heights: {what}"
    );
    assert_eq!(
        bits(a.exclusion()),
        bits(b.exclusion()),
        "exclusion: {what}"
    );
    for z in 0..W {
        for x in 0..W {
            assert_eq!(
                a.painted_biome(x, z),
                b.painted_biome(x, z),
                "regions at ({x},{z}): {what}"
            );
        }
    }
    let (na, nb) = (a.field(), b.field());
    for z in 0..W {
        for x in 0..W {
            assert_eq!(
                na.vertex_normal(x, z),
                nb.vertex_normal(x, z),
                "normal ({x},{z}): {what}"
            );
        }
    }
}

fn stroke_strategy() -> impl Strategy<Value = Value> {
    let pt = (0.0f64..64.0, 0.0f64..64.0);
    let pts = prop::collection::vec(pt, 1..4);
    let radius = 1.5f64..9.0;
    let strength = prop_oneof![Just(1.0f64), 0.1f64..1.0];
    let falloff = 0.0f64..1.0;
    let slope = prop_oneof![Just(None), Just(Some((0.0f64, 20.0f64)))];
    (0u8..9, pts, radius, strength, falloff, slope, -5.0f64..15.0, (0.0f64..64.0, 0.0f64..64.0), any::<bool>()).prop_map(
        |(kind, pts, radius, strength, falloff, slope, target, end, details)| {
            let points: Vec<Value> = pts.iter().map(|(x, z)| json!([x, z])).collect();
            let mut v = match kind {
                0 => json!({"type": "raise", "amount": 2.5}),
                1 => json!({"type": "lower", "amount": 1.5}),
                2 => json!({"type": "flatten", "target_height": target}),
                3 => json!({"type": "smooth"}),
                4 => json!({"type": "set_height", "target_height": target}),
                5 => json!({"type": "ramp", "from": [pts[0].0, pts[0].1, target], "to": [end.0, end.1, target * 0.5]}),
                6 => json!({"type": "protect"}),
                7 => json!({"type": if target > 5.0 { "erase" } else { "exclude" }}),
                _ => json!({"type": "region", "biome": "sand"}),
            };
            let m = v.as_object_mut().unwrap();
            if kind != 5 {
                m.insert("points".into(), Value::Array(points));
            }
            m.insert("radius".into(), json!(radius));
            m.insert("strength".into(), json!(strength));
            m.insert("falloff".into(), json!(falloff));
            if let Some((lo, hi)) = slope {
                m.insert("slope_min".into(), json!(lo));
                m.insert("slope_max".into(), json!(hi));
            }
            if details && kind <= 5 {
                m.insert("layer".into(), json!("details"));
            }
            v
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Incremental application, undo and redo equal a full replay of the same recipe, bit for bit.
    #[test]
    fn incremental_equals_full_replay(strokes in prop::collection::vec(stroke_strategy(), 1..10), undo_n in 0usize..4, toggles in prop::collection::vec(0usize..3, 0..3)) {
        let mut s = EditSession::new(recipe(LAYERS), base(), None).unwrap();
        for v in &strokes {
            s.apply_stroke(v).unwrap();
            assert_same(&s, &full(&s), "after apply");
        }
        for t in &toggles {
            let id = ["sculpt", "details", "protection"][*t];
            let on = s.layers().iter().any(|l| l.id == id && l.enabled);
            s.set_layer_enabled(id, !on).unwrap();
            assert_same(&s, &full(&s), "after toggle");
        }
        for _ in 0..undo_n.min(strokes.len()) {
            s.undo().unwrap();
            assert_same(&s, &full(&s), "after undo");
        }
        for _ in 0..undo_n.min(strokes.len()) {
            s.redo().unwrap();
        }
        assert_same(&s, &full(&s), "after redo");
    }
}

#[test]
fn stroke_only_changes_its_footprint_and_reports_chunks() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    let before = s.field().heights().to_vec();
    let c = s
        .apply_stroke(&json!({"type": "raise", "center": [10, 10], "radius": 4, "amount": 3}))
        .unwrap();
    assert_eq!(c.heights, crate::edit::Rect::new(6, 6, 15, 15));
    assert_eq!(c.chunks, vec![[0, 0]]);
    for z in 0..W {
        for x in 0..W {
            let i = z * W + x;
            if !c.heights.contains(x, z) {
                assert_eq!(s.field().heights()[i], before[i]);
            }
        }
    }
    assert_eq!(s.field().heights()[10 * W + 10], before[10 * W + 10] + 3.0);
}

#[test]
fn disabled_layers_restore_the_pre_stroke_surface_exactly() {
    let mut s = EditSession::new(recipe(LAYERS), base(), None).unwrap();
    s.apply_stroke(&json!({"type": "raise", "center": [20, 20], "radius": 6}))
        .unwrap();
    let after_first = bits(s.field().heights());
    s.apply_stroke(
        &json!({"type": "smooth", "layer": "details", "points": [[22, 20], [24, 21]], "radius": 5}),
    )
    .unwrap();
    s.apply_stroke(&json!({"type": "exclude", "center": [22, 22], "radius": 5}))
        .unwrap();
    s.set_layer_enabled("details", false).unwrap();
    assert_eq!(
        bits(s.field().heights()),
        after_first,
        "the details layer's stroke is off"
    );
    assert_eq!(s.recipe().edits.len(), 2, "its stroke stays stored");
    assert_same(&s, &full(&s), "toggle off");
    s.set_layer_enabled("exclusions", false).unwrap();
    assert!(s.exclusion().iter().all(|&m| m == 0.0));
    s.set_layer_enabled("details", true).unwrap();
    assert_same(&s, &full(&s), "toggle on");
    s.undo().unwrap();
    s.undo().unwrap();
    assert_same(&s, &full(&s), "undo toggles");
    assert!(s.set_layer_enabled("nope", true).is_err());
}

#[test]
fn protection_evaluates_after_sculpt_whatever_the_authoring_order() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    let h0 = s.field().heights()[30 * W + 30];
    s.apply_stroke(&json!({"type": "protect", "center": [30, 30], "radius": 3, "falloff": 1}))
        .unwrap();
    s.apply_stroke(&json!({"type": "raise", "center": [30, 30], "radius": 8, "amount": 5}))
        .unwrap();
    assert_eq!(
        s.field().heights()[30 * W + 30],
        h0,
        "protected sample keeps its height"
    );
    assert!(
        s.field().heights()[30 * W + 36] > base().heights()[30 * W + 36] + 1.0,
        "outside raised"
    );
    assert_same(&s, &full(&s), "protect then raise");
}

#[test]
fn later_strokes_in_a_stage_paint_over_earlier_ones() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    s.apply_stroke(&json!({"type": "set_height", "center": [40, 40], "radius": 4, "target_height": 2, "falloff": 1})).unwrap();
    s.apply_stroke(&json!({"type": "set_height", "center": [40, 40], "radius": 4, "target_height": 9, "falloff": 1})).unwrap();
    assert_eq!(s.field().heights()[40 * W + 40], 9.0);
}

#[test]
fn region_paint_wins_over_the_default_biome() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    assert_eq!(s.biome_at(10.0, 10.0), Some("meadow"));
    s.apply_stroke(&json!({"type": "region", "biome": "sand", "center": [10, 10], "radius": 4}))
        .unwrap();
    assert_eq!(s.biome_at(10.0, 10.0), Some("sand"));
    assert_eq!(s.biome_at(30.0, 30.0), Some("meadow"));
    s.undo().unwrap();
    assert_eq!(s.biome_at(10.0, 10.0), Some("meadow"));
    let err = s
        .apply_stroke(&json!({"type": "region", "biome": "lava", "center": [1, 1], "radius": 2}))
        .unwrap_err();
    assert!(err.to_string().contains("stroke.biome"), "{err}");
}

#[test]
fn invalid_strokes_are_refused_with_located_errors_and_change_nothing() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    let before = bits(s.field().heights());
    for (v, needle) in [
        (
            json!({"type": "raise", "center": [1, 1], "radius": -2}),
            "stroke.radius",
        ),
        (json!({"type": "raise", "center": [1, 1]}), "stroke.radius"),
        (
            json!({"type": "explode", "center": [1, 1], "radius": 2}),
            "stroke.type",
        ),
        (
            json!({"type": "raise", "center": [1, "x"], "radius": 2}),
            "stroke.center",
        ),
        (
            json!({"type": "flatten", "center": [1, 1], "radius": 2}),
            "stroke.target_height",
        ),
        (
            json!({"type": "raise", "center": [1, 1], "radius": 2, "strength": 3}),
            "stroke.strength",
        ),
        (
            json!({"type": "raise", "center": [1, 1], "radius": 2, "layer": "exclusions"}),
            "stroke.layer",
        ),
        (
            json!({"type": "raise", "center": [1, 1], "radius": 2, "wobble": 1}),
            "stroke.wobble",
        ),
        (
            json!({"type": "smooth", "points": vec![[32.0, 32.0]; 200_000], "radius": 90000}),
            "limit",
        ),
    ] {
        let err = s.apply_stroke(&v).unwrap_err().to_string();
        assert!(err.contains(needle), "{v}: {err}");
    }
    assert_eq!(bits(s.field().heights()), before);
    assert!(!s.can_undo());
}

#[test]
fn undo_redo_restore_recipe_and_surface_together() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    let h0 = bits(s.field().heights());
    s.apply_stroke(&json!({"type": "lower", "points": [[5, 5], [7, 6]], "radius": 3}))
        .unwrap();
    let h1 = bits(s.field().heights());
    assert_eq!(s.recipe().edits.len(), 1);
    s.undo().unwrap();
    assert_eq!(bits(s.field().heights()), h0);
    assert!(s.recipe().edits.is_empty());
    assert!(s.undo().is_none());
    s.redo().unwrap();
    assert_eq!(bits(s.field().heights()), h1);
    assert_eq!(s.recipe().edits.len(), 1);
    s.undo().unwrap();
    s.apply_stroke(&json!({"type": "smooth", "center": [5, 5], "radius": 3}))
        .unwrap();
    assert!(!s.can_redo(), "a new stroke clears redo");
}

#[test]
fn compaction_merges_identical_neighbours_and_keeps_results() {
    let strokes = r#", "edits": [
        {"type": "flatten", "target_height": 12, "radius": 8, "center": [24, 32]},
        {"type": "flatten", "target_height": 12, "radius": 8, "center": [25.6, 32]},
        {"type": "flatten", "target_height": 12, "radius": 8, "points": [[27.2, 32], [27.2, 32]]},
        {"type": "raise", "radius": 4, "center": [10, 10]},
        {"type": "flatten", "target_height": 12, "radius": 8, "center": [29, 32]}]"#;
    let r = recipe(strokes);
    let c = compact(&r).unwrap();
    assert_eq!(c.before, [5, 0, 0]);
    assert_eq!(c.after, [3, 0, 0]);
    assert_eq!(
        c.recipe.edits[0]["points"].as_array().unwrap().len(),
        4,
        "repeated stamps kept"
    );
    verify_equivalent(&r, &c.recipe, &base(), None).unwrap();
    assert_eq!(c.recipe.seed, r.seed);
    assert!(compact(&c.recipe).unwrap().unchanged());
}

#[test]
fn grid_changes_with_edits_need_a_decision_and_protection_refuses_a_new_grid() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    s.apply_stroke(&json!({"type": "protect", "center": [30, 30], "radius": 3}))
        .unwrap();
    let old = s.recipe().clone();
    let mut bigger = old.clone();
    bigger.resolution = [128, 128];
    assert!(needs_regrid_decision(&old, &bigger));
    assert!(!needs_regrid_decision(&recipe(""), &{
        let mut r = recipe("");
        r.resolution = [32, 32];
        r
    }));
    let err = resolve_regrid(&mut bigger.clone(), RegridChoice::Keep)
        .unwrap_err()
        .to_string();
    assert!(err.contains("protection"), "{err}");
    // A protection snapshot replayed on another grid is refused, with its location.
    let grid = Grid::new([64.0, 64.0], [128, 128], 16).unwrap();
    let other = Heightfield::new(grid, vec![0.0; 129 * 129], None).unwrap();
    let err = EditSession::new(bigger.clone(), other.clone(), None)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("recipe.edits[0].grid"), "{err}");
    resolve_regrid(&mut bigger, RegridChoice::Clear).unwrap();
    assert!(bigger.edits.is_empty());
    EditSession::new(bigger, other, None).unwrap();
    // Radial edits keep their terrain-local positions.
    let mut radial = recipe(r#", "edits": [{"type": "raise", "center": [10, 10], "radius": 3}]"#);
    radial.resolution = [32, 32];
    resolve_regrid(&mut radial, RegridChoice::Keep).unwrap();
    assert_eq!(radial.edits.len(), 1);
}

#[test]
fn history_records_are_compressed() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    s.apply_stroke(&json!({"type": "raise", "center": [32, 32], "radius": 20}))
        .unwrap();
    // The heights rectangle is 41×41 samples (6.7 KB raw for before + after each).
    assert!(
        s.history_bytes() < 2 * 41 * 41 * 4,
        "{} bytes",
        s.history_bytes()
    );
}

#[test]
fn base_masks_of_the_wrong_length_are_an_error_and_change_nothing() {
    let mut s = EditSession::new(recipe(""), base(), None).unwrap();
    let n = W * W;
    let e = s
        .set_base_masks(&[1.0; 10], &[], &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!(
            "base masks.exclusion: has 10 values; the grid has {n} samples"
        )),
        "{e}"
    );
    assert!(s.exclusion().iter().all(|&x| x == 0.0));
    let e = s
        .set_base_masks(&[], &vec![2; n], &["sand".into()])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("region id 2 names no biome (1 names given)"),
        "{e}"
    );
    // Empty means none; the right length is taken.
    s.set_base_masks(&[], &[], &[]).unwrap();
    s.set_base_masks(&vec![0.5; n], &vec![1; n], &["sand".into()])
        .unwrap();
    assert_eq!(s.exclusion()[0], 0.5);
    assert_eq!(s.painted_biome(3, 3), Some("sand"));
}
