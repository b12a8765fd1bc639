//! Painted water through the edit session (`crate::edit::water`): the bed is lowered, bed +
//! depth is the surface, level mode fills a dip flat, undo and regeneration are exact, the
//! water query reports it as its own kind, and bad arguments change nothing.

use super::*;
use crate::edit::water::MAX_WATER_DEPTH;
use crate::graph::eval::GraphCache;
use crate::hydrology::water::{PAINTED_BODY_ID, WaterKind, WaterSet};
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use serde_json::json;
use std::sync::atomic::AtomicBool;

fn recipe() -> Recipe {
    let text = r#"{"size": [64, 64], "resolution": [64, 64], "chunk_cells": 16, "seed": 5,
        "biomes": {"meadow": {"color": [0.3, 0.6, 0.2, 1]}}, "default_biome": "meadow",
        "landforms": {"default": {"base_height": 10, "height_variation": 30, "feature_size": 20}},
        "edits": [{"type": "raise", "center": [5, 5], "radius": 3, "amount": 1}]}"#;
    Document::parse(text, "t").unwrap().recipe().clone()
}

fn session() -> (PreparedTerrain, EditSession) {
    let never = AtomicBool::new(false);
    let r = recipe();
    let base = prepare_base(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap();
    let (_, s) = finish(&r, base.clone(), None).unwrap();
    (base, s.unwrap())
}

/// The water query of `s`'s painted water.
fn water(s: &EditSession) -> WaterSet {
    let mut w = WaterSet::empty(*s.field().grid());
    w.set_painted(s.water_depths());
    w
}

/// A hard-edged full-strength water stamp.
fn pond(center: [f64; 2], radius: f64, depth: f64, level: Option<f64>) -> serde_json::Value {
    let mut v = json!({"type": "paint_water", "center": center, "radius": radius,
                       "depth": depth, "falloff": 1});
    if let Some(l) = level {
        v["level"] = json!(l);
    }
    v
}

#[test]
fn the_bed_is_lowered_and_bed_plus_depth_is_the_surface() {
    let (_, mut s) = session();
    let before = s.field().clone();
    let c = s.apply_stroke(&pond([32.0, 32.0], 6.0, 2.0, None)).unwrap();
    assert!(!c.water.is_empty() && !c.heights.is_empty() && !c.chunks.is_empty());
    let grid = *s.field().grid();
    let (x, z) = grid.nearest_sample(32.0, 32.0).unwrap();
    assert_eq!(s.water().depth(grid.index(x, z)), 2.0);
    assert_eq!(
        s.field().sample(x, z),
        before.sample(x, z) - 2.0,
        "bed lowered"
    );
    assert_eq!(
        s.field().sample(50, 50),
        before.sample(50, 50),
        "outside untouched"
    );
    let w = water(&s);
    let mut wet = 0;
    for k in 0..400 {
        let (px, pz) = (22.0 + (k % 20) as f32, 22.0 + (k / 20) as f32 * 1.03);
        let g = s.field().height_at(px, pz).unwrap();
        let d = w.depth_at(s.field(), px, pz);
        match w.sample(s.field(), px, pz) {
            Some(sm) => {
                wet += 1;
                assert_eq!(sm.depth, d, "depth_at and sample agree");
                assert_eq!(sm.kind, WaterKind::Painted);
                assert_eq!(sm.body_id, PAINTED_BODY_ID);
                assert_eq!(sm.flow, [0.0, 0.0]);
                assert!(
                    (g + d - sm.surface).abs() <= 1e-5,
                    "{g} + {d} vs {}",
                    sm.surface
                );
                // The surface is where the ground was (full depth everywhere around the
                // centre).
                if (px - 32.0).hypot(pz - 32.0) < 4.0 {
                    let old = before.height_at(px, pz).unwrap();
                    assert!((sm.surface - old).abs() < 1e-4, "{} vs {old}", sm.surface);
                    assert!((d - 2.0).abs() < 1e-5);
                }
            }
            None => assert_eq!(d, 0.0),
        }
    }
    assert!(wet > 50, "{wet} wet points");
}

#[test]
fn level_mode_fills_a_dip_flat_and_full() {
    let (_, mut s) = session();
    s.apply_stroke(&json!({"type": "lower", "center": [32, 32], "radius": 12, "amount": 4}))
        .unwrap();
    let grid = *s.field().grid();
    let level = s.field().height_at(32.0, 32.0).unwrap() as f64 + 3.0;
    // Repeated stamps converge on the level at any strength; full strength gets there at once.
    s.apply_stroke(&pond([32.0, 32.0], 8.0, 2.5, Some(level)))
        .unwrap();
    let w = water(&s);
    for z in 0..grid.samples()[1] {
        for x in 0..grid.samples()[0] {
            let [px, pz] = grid.sample_position(x, z);
            if (px - 32.0).hypot(pz - 32.0) > 6.0 {
                continue;
            }
            let sm = w.sample(s.field(), px, pz).expect("wet inside the pond");
            assert!(
                (sm.surface - level as f32).abs() < 1e-4,
                "flat at the level"
            );
            assert!((sm.depth - 2.5).abs() < 1e-4, "full");
            assert!((s.field().sample(x, z) - (level as f32 - 2.5)).abs() < 1e-4);
        }
    }
}

#[test]
fn undo_redo_and_regeneration_are_exact() {
    let (base, mut s) = session();
    let heights0 = s.field().heights().to_vec();
    let water0 = s.water().clone();
    let stroke = json!({"type": "paint_water", "center": [30, 34], "radius": 7, "depth": 3,
                        "strength": 0.6, "level": 20});
    s.apply_stroke(&stroke).unwrap();
    s.apply_stroke(&json!({"type": "smooth", "center": [33, 33], "radius": 5}))
        .unwrap();
    let heights1 = s.field().heights().to_vec();
    let water1 = s.water().clone();
    assert!(!s.water().is_dry());
    // Regeneration replays the strokes to the same bits.
    let again = finish(s.recipe(), base.clone(), None).unwrap();
    let r = again.1.unwrap();
    assert_eq!(r.field().heights(), &heights1[..]);
    assert_eq!(r.water(), &water1);
    assert_eq!(
        again.0.water.painted,
        water1.depths(),
        "the prepared terrain's water"
    );
    s.undo().unwrap();
    let c = s.undo().unwrap();
    assert!(!c.water.is_empty());
    assert_eq!(s.field().heights(), &heights0[..]);
    assert_eq!(s.water(), &water0);
    assert!(s.water().is_dry());
    s.redo().unwrap();
    s.redo().unwrap();
    assert_eq!(s.field().heights(), &heights1[..]);
    assert_eq!(s.water(), &water1);
    // Depth 0 removes the water again.
    s.apply_stroke(&pond([30.0, 34.0], 10.0, 0.0, None))
        .unwrap();
    assert!(s.water().is_dry());
}

#[test]
fn bad_arguments_are_refused_and_change_nothing() {
    let (_, mut s) = session();
    let heights = s.field().heights().to_vec();
    let edits = s.recipe().edits.len();
    let cases: [(&str, crate::error::Result<Change>); 7] = [
        (
            "depth",
            s.paint_water([32.0, 32.0], 4.0, f32::NAN, 1.0, None),
        ),
        (
            "depth",
            s.paint_water([32.0, 32.0], 4.0, MAX_WATER_DEPTH + 1.0, 1.0, None),
        ),
        ("depth", s.paint_water([32.0, 32.0], 4.0, -1.0, 1.0, None)),
        ("strength", s.paint_water([32.0, 32.0], 4.0, 1.0, 1.5, None)),
        (
            "level",
            s.paint_water([32.0, 32.0], 4.0, 1.0, 1.0, Some(f32::NAN)),
        ),
        ("radius", s.paint_water([32.0, 32.0], 0.0, 1.0, 1.0, None)),
        (
            "center",
            s.paint_water([f32::NAN, 32.0], 4.0, 1.0, 1.0, None),
        ),
    ];
    for (what, r) in cases {
        let e = r.expect_err(what).to_string();
        assert!(e.contains(what), "{e}");
    }
    // The JSON form is checked the same way.
    let e = s
        .apply_stroke(&pond([32.0, 32.0], 4.0, 9.0, None))
        .unwrap_err()
        .to_string();
    assert!(e.contains("depth"), "{e}");
    let e = s
        .apply_stroke(&json!({"type": "paint_water", "center": [32, 32], "radius": 4}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("depth") && e.contains("required"), "{e}");
    assert_eq!(s.field().heights(), &heights[..]);
    assert_eq!(s.recipe().edits.len(), edits);
    assert!(s.water().is_dry() && !s.can_redo());
    // A good call works and round-trips through its JSON.
    s.paint_water([32.0, 32.0], 4.0, 1.0, 1.0, Some(15.0))
        .unwrap();
    let v = s.recipe().edits.last().unwrap();
    assert_eq!(v["type"], "paint_water");
    assert_eq!(v["depth"], 1.0);
    assert_eq!(v["level"], 15.0);
}

#[test]
fn roles_read_painted_water_as_underwater_and_undo_restores_them() {
    let (base, mut s) = session();
    let grid = *s.field().grid();
    let i = grid.index(32, 32);
    let roles0 = s.surface().expect("classified").classes.role_vec();
    assert_ne!(roles0[i], crate::biome::Role::Underwater as u8);
    s.apply_stroke(&pond([32.0, 32.0], 6.0, 2.0, None)).unwrap();
    let roles1 = s.surface().unwrap().classes.role_vec();
    assert_eq!(
        roles1[i],
        crate::biome::Role::Underwater as u8,
        "covered by water"
    );
    assert_ne!(
        roles1[grid.index(5, 60)],
        crate::biome::Role::Underwater as u8,
        "dry elsewhere"
    );
    // Regeneration classifies the same way.
    let again = finish(s.recipe(), base.clone(), None).unwrap().1.unwrap();
    assert_eq!(again.surface().unwrap().classes.role_vec(), roles1);
    s.undo().unwrap();
    assert_eq!(
        s.surface().unwrap().classes.role_vec(),
        roles0,
        "undo restores the roles"
    );
}
