//! The painted layers through the edit session: user channel semantics, dither coverage that
//! does not creep, weights that keep their sum, roles following the paint, replay after
//! regeneration, exact undo, compaction of per-tick writes and refused arguments.

use super::*;
use crate::edit::Rect;
use crate::edit::paint::{GENERATED, USER_CHANNELS, WEIGHT_SLOTS};
use crate::edit::stroke::{List, Stroke};
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use serde_json::{Value, json};
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

/// The session a regeneration of `s`'s recipe gives.
fn regenerated(base: &PreparedTerrain, s: &EditSession) -> EditSession {
    finish(s.recipe(), base.clone(), None).unwrap().1.unwrap()
}

fn user_at(s: &EditSession, x: usize, z: usize, ch: usize) -> u8 {
    s.paint().user(s.field().grid().index(x, z), ch)
}

fn user_channel(ch: u32, value: f64, center: [f64; 2], radius: f64) -> Value {
    json!({"type": "user_channel", "channel": ch, "value": value, "center": center,
           "radius": radius, "falloff": 1})
}

#[test]
fn value_channels_blend_and_id_channels_stay_crisp() {
    let (_, mut s) = session();
    let c = s
        .apply_stroke(&user_channel(0, 0.5, [20.0, 20.0], 3.0))
        .unwrap();
    assert!(!c.user_channels.is_empty());
    assert!(c.heights.is_empty() && c.surface.is_empty() && c.chunks.is_empty());
    assert_eq!(user_at(&s, 20, 20, 0), 128, "0.5 in 1/255 steps");
    assert_eq!(user_at(&s, 20, 20, 1), 0, "other channels untouched");
    assert_eq!(user_at(&s, 30, 20, 0), 0, "outside the brush");
    // A half-strength blend moves halfway toward the value.
    let v = json!({"type": "user_channel", "channel": 0, "value": 1, "center": [20, 20],
                   "radius": 3, "falloff": 1, "strength": 0.5});
    s.apply_stroke(&v).unwrap();
    assert_eq!(user_at(&s, 20, 20, 0), 192, "(128 + 0.5 · 127) rounded");
    // Ids are written outright, never blended.
    let id = json!({"type": "user_channel", "channel": 2, "value": 7, "mode": "id",
                    "center": [20, 20], "radius": 3, "strength": 0.5});
    s.apply_stroke(&id).unwrap();
    assert_eq!(user_at(&s, 20, 20, 2), 7);
    let id = json!({"type": "user_channel", "channel": 2, "value": 200, "mode": "id",
                    "center": [20, 20], "radius": 3, "strength": 0.5});
    s.apply_stroke(&id).unwrap();
    assert_eq!(user_at(&s, 20, 20, 2), 200);
    assert_eq!(user_at(&s, 20, 20, 0), 192, "(128 + 0.5 · 127) rounded");
}

#[test]
fn dither_coverage_does_not_creep() {
    let (_, mut s) = session();
    let paint = json!({"type": "paint_surface", "surface": "rock", "center": [32, 32],
                       "radius": 12, "falloff": 1, "strength": 0.5});
    s.apply_stroke(&paint).unwrap();
    let painted = |s: &EditSession| -> Vec<bool> {
        (0..s.field().grid().sample_count())
            .map(|i| s.paint().is_painted(i))
            .collect()
    };
    let first = painted(&s);
    let n = first.iter().filter(|&&p| p).count();
    for _ in 0..20 {
        s.apply_stroke(&paint).unwrap();
    }
    assert_eq!(painted(&s), first, "repeats cover the same samples");
    // Half the disc's samples (π·12² ≈ 452): a Bayer half covers 8 of every 16.
    assert!((200..260).contains(&n), "{n} samples painted");
    // Every painted sample is rock outright.
    for (i, &p) in first.iter().enumerate() {
        if p {
            assert_eq!(s.paint().weights(i)[2], 255);
        }
    }
}

#[test]
fn blended_weights_keep_their_sum_and_reach_the_roles() {
    let (base, mut s) = session();
    let strokes = [
        json!({"type": "paint_surface", "surface": "sand", "mode": "blend", "center": [20, 20],
               "radius": 8, "strength": 0.4}),
        json!({"type": "paint_surface", "surface": "snow", "mode": "blend", "center": [24, 22],
               "radius": 6, "strength": 0.7}),
        json!({"type": "paint_surface", "surface": "rock", "center": [18, 18], "radius": 3}),
        json!({"type": "paint_surface", "surface": "sand", "mode": "blend", "center": [22, 20],
               "radius": 5, "strength": 0.33}),
    ];
    for v in &strokes {
        let c = s.apply_stroke(v).unwrap();
        assert!(!c.surface_paint.is_empty());
    }
    for i in 0..s.field().grid().sample_count() {
        let w = s.paint().weights(i);
        assert_eq!(w.iter().map(|&b| b as u32).sum::<u32>(), 255, "sample {i}");
    }
    // The published roles are the strongest effective weights.
    let grid = *s.field().grid();
    let surface = s.surface().unwrap().clone();
    let classified = s.surface_state().unwrap().classification().role_ids();
    let centre = grid.index(24, 22);
    assert_eq!(
        surface.classes.role_vec()[centre],
        6,
        "snow at the second stroke's centre"
    );
    for (i, &c) in classified.iter().enumerate() {
        assert_eq!(surface.classes.role_vec()[i], s.paint().role(i, c));
    }
    // Regeneration replays them bit for bit, roles included.
    let again = regenerated(&base, &s);
    assert_eq!(again.paint(), s.paint());
    assert_eq!(again.surface().unwrap(), &surface);
}

#[test]
fn paint_undoes_and_redoes_exactly_and_replays_after_regeneration() {
    let (base, mut s) = session();
    let before = s.paint().clone();
    let roles = s.surface().unwrap().classes.role_vec();
    s.apply_stroke(&json!({"type": "raise", "center": [30, 30], "radius": 5, "amount": 3}))
        .unwrap();
    let after_raise = (s.paint().clone(), s.surface().unwrap().classes.role_vec());
    let strokes = [
        user_channel(1, 0.75, [30.0, 30.0], 4.0),
        json!({"type": "paint_surface", "surface": "grass", "mode": "blend", "center": [31, 30],
               "radius": 4, "strength": 0.6}),
        user_channel(1, 0.25, [33.0, 30.0], 4.0),
    ];
    for v in &strokes {
        s.apply_stroke(v).unwrap();
    }
    let painted = (s.paint().clone(), s.surface().unwrap().classes.role_vec());
    assert_eq!(regenerated(&base, &s).paint(), s.paint());
    for _ in 0..3 {
        let c = s.undo().unwrap();
        assert!(!c.touched.is_empty());
    }
    assert_eq!(
        (s.paint().clone(), s.surface().unwrap().classes.role_vec()),
        after_raise
    );
    s.undo().unwrap();
    assert_eq!(s.paint(), &before);
    assert_eq!(s.surface().unwrap().classes.role_vec(), roles);
    for _ in 0..4 {
        s.redo().unwrap();
    }
    assert_eq!(
        (s.paint().clone(), s.surface().unwrap().classes.role_vec()),
        painted
    );
    // Disabling the layer the paint lives in drops it; enabling brings it back.
    s.set_layer_enabled("biomes", false).unwrap();
    assert_eq!(s.paint(), &before);
    s.set_layer_enabled("biomes", true).unwrap();
    assert_eq!(s.paint(), &painted.0);
    s.undo().unwrap();
    assert_eq!(s.paint(), &before, "undo of the enable");
}

#[test]
fn per_tick_writes_merge_into_one_stroke() {
    let (base, mut s) = session();
    let (_, mut separate) = session();
    let tick = |x: f64| user_channel(0, 1.0, [10.0 + x, 20.0], 2.0);
    let regions = s.recipe().regions.len();
    for k in 0..200 {
        let x = (k / 4) as f64 * 0.5; // four ticks per position
        let c = s.apply_paint_stamp(&tick(x)).unwrap();
        assert!(k % 4 != 0 || !c.user_channels.is_empty());
        separate.apply_stroke(&tick(x)).unwrap();
    }
    assert_eq!(s.recipe().regions.len(), regions + 1, "one stroke");
    let Value::Object(m) = s.recipe().regions.last().unwrap() else {
        panic!("an object")
    };
    assert_eq!(m["points"].as_array().unwrap().len(), 50, "repeats dropped");
    assert_eq!(s.paint(), separate.paint(), "merging changes nothing");
    assert_eq!(regenerated(&base, &s).paint(), s.paint());
    // A different write ends the run; one undo takes the whole run back.
    s.apply_paint_stamp(&user_channel(0, 0.5, [40.0, 40.0], 2.0))
        .unwrap();
    assert_eq!(s.recipe().regions.len(), regions + 2);
    s.undo().unwrap();
    s.undo().unwrap();
    assert!(
        (0..s.field().grid().sample_count()).all(|i| s.paint().user(i, 0) == 0),
        "undone"
    );
    s.redo().unwrap();
    assert_eq!(s.paint(), separate.paint());
}

/// `apply_user_channel_stamp` (no JSON on the merging path) is `apply_paint_stamp` of the same
/// stroke: the same layers, recipe, history and errors, over runs, mode and value changes,
/// repeats, an undo in the middle and refused arguments.
#[test]
fn typed_user_channel_stamps_equal_their_json_strokes() {
    let (base, mut typed) = session();
    let (_, mut json) = session();
    let writes: Vec<(u8, f32, bool, [f32; 2], f32)> = (0..120)
        .map(|k| {
            let x = 8.0 + (k / 3) as f32 * 0.37;
            match k / 40 {
                0 => (0, 1.0, false, [x, 20.0], 2.0),
                1 => (1, 7.0, true, [x, 30.5], 1.5),
                _ => (0, 0.25, false, [x, 12.25], 3.0),
            }
        })
        .chain([
            (0, 1.5, false, [1.0, 1.0], 2.0),      // value out of range
            (2, 7.5, true, [1.0, 1.0], 2.0),       // not a whole id
            (4, 1.0, false, [1.0, 1.0], 2.0),      // no channel 4
            (0, 1.0, false, [1.0, 1.0], 0.0),      // radius
            (0, 1.0, false, [f32::NAN, 1.0], 2.0), // position
            (0, 1.0, false, [1.0e8, 1.0], 2.0),    // beyond the position range
        ])
        .collect();
    let layers = typed.recipe().layers.clone();
    let ctx = crate::edit::stroke::ParseContext {
        layers: &layers,
        has_biome: &|_| true,
        grid: Some(*typed.field().grid()),
        masks: None,
    };
    for (k, &(ch, v, id, c, r)) in writes.iter().enumerate() {
        // The short path's stroke is the parsed one, field for field.
        let value = super::session::user_channel_stamp(ch, v, id, c, r);
        let mut d = crate::error::Diagnostics::default();
        if let Some(parsed) = Stroke::parse(&value, "s", List::Regions, &ctx, &mut d)
            && d.0.is_empty()
        {
            let ours = super::session::user_channel_stroke(ch, v, id, c, r);
            assert_eq!(ours, parsed, "write {k}: stroke");
        }
        let a = typed.apply_user_channel_stamp(ch, v, id, c, r);
        let b = json.apply_paint_stamp(&super::session::user_channel_stamp(ch, v, id, c, r));
        match (a, b) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "write {k}: change"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "write {k}: error"),
            (a, b) => panic!("write {k}: {a:?} against {b:?}"),
        }
        if k == 70 {
            typed.undo().unwrap();
            json.undo().unwrap();
        }
        assert_eq!(typed.paint(), json.paint(), "write {k}: layers");
    }
    assert_eq!(typed.recipe().regions, json.recipe().regions, "recipe");
    // Three runs, one merged stroke each (the undo took the second run's first part back).
    assert_eq!(typed.recipe().regions.len(), 3, "runs merged");
    assert_eq!(regenerated(&base, &typed).paint(), typed.paint(), "replays");
    for _ in 0..3 {
        typed.undo().unwrap();
        json.undo().unwrap();
        assert_eq!(typed.paint(), json.paint(), "undo");
    }
}

#[test]
fn paint_patches_set_bytes_and_validate() {
    let (base, mut s) = session();
    let rect = Rect::new(3, 4, 5, 5);
    let user: Vec<u8> = (0..2 * USER_CHANNELS as u8).collect();
    let mut weights = vec![0u8; 2 * WEIGHT_SLOTS];
    weights[1] = 255;
    weights[WEIGHT_SLOTS + GENERATED] = 100;
    weights[WEIGHT_SLOTS + 3] = 155;
    let c = s.set_paint_rect(rect, &user, &weights).unwrap();
    assert_eq!(c.user_channels, rect);
    assert_eq!(c.surface_paint, rect);
    let w = s.field().grid().samples()[0];
    assert_eq!(s.paint().user_or_default(rect, w), user);
    assert_eq!(s.paint().weights_or_default(rect, w), weights);
    assert_eq!(regenerated(&base, &s).paint(), s.paint());
    // Wrong sizes, sums and bytes are located; nothing changes.
    let snapshot = s.paint().clone();
    let e = s
        .set_paint_rect(rect, &user[..7], &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("stroke.user: has 7 bytes"), "{e}");
    let mut bad = weights.clone();
    bad[0] = 1;
    let e = s.set_paint_rect(rect, &[], &bad).unwrap_err().to_string();
    assert!(e.contains("sums to 256"), "{e}");
    let e = s
        .set_paint_rect(Rect::new(64, 0, 66, 1), &user, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("leaves the 64×64-cell grid"), "{e}");
    assert_eq!(s.paint(), &snapshot);
}

#[test]
fn bad_paint_strokes_are_located_and_change_nothing() {
    let (_, mut s) = session();
    let snapshot = (s.paint().clone(), s.recipe().regions.len(), s.can_undo());
    let cases = [
        (
            json!({"type": "user_channel", "channel": 4, "value": 0.5, "center": [1, 1], "radius": 2}),
            "stroke.channel: must be a user channel 0..=3, got 4",
        ),
        (
            json!({"type": "user_channel", "channel": 0, "value": 1.5, "center": [1, 1], "radius": 2}),
            "stroke.value: must be 0..=1, got 1.5",
        ),
        (
            json!({"type": "user_channel", "channel": 0, "value": 2.5, "mode": "id", "center": [1, 1], "radius": 2}),
            "stroke.value: must be a whole id 0..=255",
        ),
        (
            json!({"type": "user_channel", "channel": 0, "value": 256, "mode": "id", "center": [1, 1], "radius": 2}),
            "stroke.value: must be a whole id 0..=255",
        ),
        (
            json!({"type": "user_channel", "channel": 0, "center": [1, 1], "radius": 2}),
            "stroke.value: is required",
        ),
        (
            json!({"type": "paint_surface", "surface": "lava", "center": [1, 1], "radius": 2}),
            "stroke.surface: names no surface `lava`",
        ),
        (
            json!({"type": "paint_surface", "surface": "rock", "mode": "smear", "center": [1, 1], "radius": 2}),
            "stroke.mode: must be \"dither\" or \"blend\"",
        ),
        (
            json!({"type": "paint_surface", "surface": "rock", "center": [1, 1], "radius": 2, "slope_max": 30}),
            "slope limits do not apply",
        ),
    ];
    for (v, want) in cases {
        let e = s.apply_stroke(&v).unwrap_err().to_string();
        assert!(e.contains(want), "{v}: {e}");
        let e = s.apply_paint_stamp(&v).unwrap_err().to_string();
        assert!(e.contains(want), "{v}: {e}");
    }
    assert_eq!(
        (s.paint().clone(), s.recipe().regions.len(), s.can_undo()),
        snapshot
    );
}

#[test]
fn paint_strokes_round_trip_their_json() {
    let (_, mut s) = session();
    let v = json!({"type": "user_channel", "channel": 3, "value": 9, "mode": "id",
                   "center": [1.5, 2], "radius": 2});
    s.apply_stroke(&v).unwrap();
    let stored = s.recipe().regions.last().unwrap().clone();
    assert_eq!(stored["mode"], "id");
    assert_eq!(stored["value"], 9.0);
    let v = json!({"type": "paint_surface", "surface": "wet_ground", "mode": "blend",
                   "center": [1.5, 2], "radius": 2, "strength": 0.25});
    s.apply_stroke(&v).unwrap();
    let stored = s.recipe().regions.last().unwrap().clone();
    assert_eq!(stored["surface"], "wet_ground");
    assert_eq!(stored["mode"], "blend");
    // The stored forms parse back to the same strokes (a fresh session replays them).
    let again = EditSession::new(s.recipe().clone(), s.field().clone(), None).unwrap();
    assert_eq!(again.paint(), s.paint());
}
