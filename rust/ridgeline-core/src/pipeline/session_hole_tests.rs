//! Hole strokes: replayed like every stroke, incremental updates and undo equal a full replay,
//! queries and meshes honour them, whole-chunk cuts are refused.

use super::session::EditSession;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::recipe::{Document, Recipe};
use glam::Vec3;
use proptest::prelude::*;
use serde_json::{Value, json};

const LAYERS: &str = r#", "layers": [
    {"id": "generation", "kind": "generation"}, {"id": "biomes", "kind": "biomes"},
    {"id": "sculpt", "kind": "sculpt"}, {"id": "details", "kind": "sculpt"},
    {"id": "protection", "kind": "protection"}, {"id": "exclusions", "kind": "exclusions"}]"#;

fn recipe() -> Recipe {
    let text = format!(
        r#"{{"size": [64, 64], "resolution": [64, 64], "chunk_cells": 16, "seed": 1 {LAYERS}}}"#
    );
    Document::parse(&text, "t").unwrap().recipe().clone()
}

fn base() -> Heightfield {
    let grid = Grid::new([64.0, 64.0], [64, 64], 16).unwrap();
    let heights = (0..65 * 65)
        .map(|i| {
            let (x, z) = ((i % 65) as f32, (i / 65) as f32);
            (x * 0.21).sin() * 6.0 + (z * 0.13).cos() * 4.0 + x * 0.1
        })
        .collect();
    Heightfield::new(grid, heights, None).unwrap()
}

fn holes(s: &EditSession) -> Vec<bool> {
    let f = s.field();
    let [cx, cz] = f.grid().cells().map(|c| c as usize);
    (0..cx * cz)
        .map(|i| f.holes().is_hole(i % cx, i / cx))
        .collect()
}

fn assert_same(a: &EditSession, what: &str) {
    let b = EditSession::new(a.recipe().clone(), base(), None).unwrap();
    assert_eq!(holes(a), holes(&b), "holes: {what}");
    assert_eq!(
        a.field().holes().count(),
        b.field().holes().count(),
        "count: {what}"
    );
    let bits =
        |s: &EditSession| -> Vec<u32> { s.field().heights().iter().map(|h| h.to_bits()).collect() };
    assert_eq!(bits(a), bits(&b), "heights: {what}");
}

fn stroke_strategy() -> impl Strategy<Value = Value> {
    let pts = prop::collection::vec((0.0f64..64.0, 0.0f64..64.0), 1..4);
    (
        0u8..5,
        pts,
        1.0f64..7.0,
        prop_oneof![Just(1.0f64), 0.1f64..1.0],
        0.0f64..1.0,
        any::<bool>(),
    )
        .prop_map(|(kind, pts, radius, strength, falloff, details)| {
            let points: Vec<Value> = pts.iter().map(|(x, z)| json!([x, z])).collect();
            let mut v = match kind {
                0 | 1 => json!({"type": "hole"}),
                2 => json!({"type": "hole", "mode": "erase"}),
                3 => json!({"type": "raise", "amount": 2.0}),
                _ => json!({"type": "smooth"}),
            };
            let m = v.as_object_mut().unwrap();
            m.insert("points".into(), Value::Array(points));
            m.insert("radius".into(), json!(radius));
            m.insert("strength".into(), json!(strength));
            m.insert("falloff".into(), json!(falloff));
            if details {
                m.insert("layer".into(), json!("details"));
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Hole strokes mixed with sculpting: every apply, layer toggle, undo and redo equals a
    /// full replay of the same recipe (holes and heights bit for bit).
    #[test]
    fn incremental_holes_equal_full_replay(
        strokes in prop::collection::vec(stroke_strategy(), 1..10),
        undo_n in 0usize..4,
        toggles in prop::collection::vec(0usize..2, 0..3),
    ) {
        let mut s = EditSession::new(recipe(), base(), None).unwrap();
        let mut applied = 0;
        for v in &strokes {
            let before = holes(&s);
            match s.apply_stroke(v) {
                Ok(_) => applied += 1,
                Err(e) => {
                    // Only a cut of a whole chunk is refused; then nothing changed.
                    prop_assert!(e.to_string().contains("every cell of chunk"), "{e}");
                    prop_assert_eq!(&holes(&s), &before);
                }
            }
            assert_same(&s, "after apply");
        }
        for t in &toggles {
            let id = ["sculpt", "details"][*t];
            let on = s.layers().iter().any(|l| l.id == id && l.enabled);
            if s.set_layer_enabled(id, !on).is_ok() {
                assert_same(&s, "after toggle");
            }
        }
        for _ in 0..undo_n.min(applied) {
            s.undo().unwrap();
            assert_same(&s, "after undo");
        }
        for _ in 0..undo_n.min(applied) {
            s.redo().unwrap();
        }
        assert_same(&s, "after redo");
    }
}

#[test]
fn a_hole_stroke_cuts_cells_queries_skip_them_and_erase_fills_them() {
    let mut s = EditSession::new(recipe(), base(), None).unwrap();
    let h0: Vec<u32> = s.field().heights().iter().map(|h| h.to_bits()).collect();
    let c = s
        .apply_stroke(&json!({"type": "hole", "center": [20.5, 20.5], "radius": 3}))
        .unwrap();
    let f = s.field();
    assert!(f.holes().is_hole(20, 20) && f.holes().is_hole(18, 21));
    assert!(!f.holes().is_hole(24, 20) && !f.holes().is_hole(10, 10));
    assert!(c.heights.is_empty(), "holes change no height");
    assert!(!c.holes.is_empty() && c.touched.contains(20, 20));
    assert_eq!(c.chunks, vec![[1, 1]]);
    let after: Vec<u32> = f.heights().iter().map(|h| h.to_bits()).collect();
    assert_eq!(after, h0);
    // Queries: no height, no normal, NaN in batches; a ray into the hole passes through.
    assert_eq!(f.height_at(20.5, 20.5), None);
    assert_eq!(f.normal_at(20.5, 20.5), None);
    let mut out = [0.0f32; 2];
    f.heights_at(&[[20.5, 20.5], [10.5, 10.5]], &mut out);
    assert!(out[0].is_nan() && out[1].is_finite());
    let down = Vec3::new(0.0, -1.0, 0.0);
    assert!(
        f.raycast(Vec3::new(20.5, 100.0, 20.5), down, 500.0)
            .is_none()
    );
    assert!(
        f.raycast(Vec3::new(10.5, 100.0, 10.5), down, 500.0)
            .is_some()
    );
    // The chunk mesh has no triangle over a hole cell at any level.
    let mesh = crate::mesh::build_chunk(f, 1, 1);
    for lod in &mesh.lods {
        for t in lod.indices.chunks(3) {
            let centre = t.iter().fold([0.0f32; 2], |acc, &i| {
                let v = mesh.positions[i as usize];
                [acc[0] + v[0] / 3.0, acc[1] + v[2] / 3.0]
            });
            let (x, z) = (mesh.origin[0] + centre[0], mesh.origin[1] + centre[1]);
            assert!(
                !f.holes().is_hole(x as usize, z as usize),
                "triangle at ({x}, {z})"
            );
        }
    }
    // Erasing fills them again; the recipe keeps both strokes.
    s.apply_stroke(&json!({"type": "hole", "mode": "erase", "center": [20.5, 20.5], "radius": 5}))
        .unwrap();
    assert_eq!(s.field().holes().count(), 0);
    assert_eq!(s.recipe().edits.len(), 2);
    assert_eq!(s.recipe().edits[1]["mode"], "erase");
    assert!(
        s.recipe().edits[0].get("mode").is_none(),
        "paint is the default"
    );
}

#[test]
fn undo_and_redo_restore_holes() {
    let mut s = EditSession::new(recipe(), base(), None).unwrap();
    s.apply_stroke(&json!({"type": "hole", "points": [[30, 30], [33, 31]], "radius": 2}))
        .unwrap();
    let cut = holes(&s);
    assert!(s.field().holes().count() > 5);
    s.undo().unwrap();
    assert_eq!(s.field().holes().count(), 0);
    assert!(s.recipe().edits.is_empty());
    s.redo().unwrap();
    assert_eq!(holes(&s), cut);
    assert_same(&s, "after redo");
}

#[test]
fn cutting_a_whole_chunk_is_refused_and_changes_nothing() {
    let mut s = EditSession::new(recipe(), base(), None).unwrap();
    s.apply_stroke(&json!({"type": "hole", "center": [8, 8], "radius": 3}))
        .unwrap();
    let before = holes(&s);
    let e = s
        .apply_stroke(&json!({"type": "hole", "mode": "paint", "center": [8, 8], "radius": 20, "mask": "square"}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("every cell of chunk (0, 0)") && e.contains("nothing was changed"),
        "{e}"
    );
    assert_eq!(holes(&s), before);
    assert_eq!(s.recipe().edits.len(), 1);
    // In a recipe the same stroke is a located error.
    let mut r = recipe();
    r.edits
        .push(json!({"type": "hole", "center": [8, 8], "radius": 20, "mask": "square"}));
    let e = EditSession::new(r, base(), None).err().unwrap().to_string();
    assert!(
        e.contains("recipe.edits[0]") && e.contains("chunk (0, 0)"),
        "{e}"
    );
}

#[test]
fn hole_stroke_fields_are_checked() {
    let mut s = EditSession::new(recipe(), base(), None).unwrap();
    let e = s
        .apply_stroke(&json!({"type": "hole", "mode": "dig", "center": [8, 8], "radius": 2}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("stroke.mode") && e.contains("\"paint\" or \"erase\""),
        "{e}"
    );
    let e = s
        .apply_stroke(&json!({"type": "hole", "center": [8, 8], "radius": 2, "slope_max": 30}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("slope limits do not apply to hole strokes"),
        "{e}"
    );
    assert!(s.recipe().edits.is_empty());
}

#[test]
fn base_holes_are_kept_under_hole_strokes() {
    let mut b = base();
    let [cx, cz] = b.grid().cells().map(|c| c as usize);
    let mut flags = vec![false; cx * cz];
    flags[40 * cx + 40] = true;
    b.write_holes(0, 0, cx, cz, &flags).unwrap();
    let mut s = EditSession::new(recipe(), b.clone(), None).unwrap();
    assert!(s.field().holes().is_hole(40, 40));
    s.apply_stroke(&json!({"type": "hole", "center": [10.5, 10.5], "radius": 1}))
        .unwrap();
    s.apply_stroke(&json!({"type": "hole", "mode": "erase", "center": [40.5, 40.5], "radius": 1}))
        .unwrap();
    assert!(!s.field().holes().is_hole(40, 40) && s.field().holes().is_hole(10, 10));
    s.undo().unwrap();
    assert!(
        s.field().holes().is_hole(40, 40),
        "undo restores the base hole"
    );
}

#[test]
fn hole_strokes_replay_in_generation_and_reach_the_cooked_payload() {
    let mut r = recipe();
    r.edits
        .push(json!({"type": "hole", "center": [20.5, 20.5], "radius": 3}));
    r.edits
        .push(json!({"type": "hole", "mode": "erase", "center": [22.5, 20.5], "radius": 1}));
    let never = std::sync::atomic::AtomicBool::new(false);
    let p = super::prepare(
        &r,
        crate::nodes::Quality::Final,
        &mut crate::graph::eval::GraphCache::default(),
        &|_, _| {},
        &never,
        None,
    )
    .unwrap();
    let f = &p.field;
    assert!(f.holes().is_hole(20, 20) && !f.holes().is_hole(22, 20));
    assert!(f.height_at(20.5, 20.5).is_none());
    let q = crate::formats::payload::decode(&crate::formats::payload::encode(&p), "t").unwrap();
    assert_eq!(q.field.holes(), f.holes(), "the payload keeps the holes");
}
