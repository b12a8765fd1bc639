//! Painted foliage density in an edit session: clearing inside the brush only, undo/redo,
//! incremental = full replay, placements following the maps, and refused strokes.

use super::session::EditSession;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::recipe::{Document, Recipe};
use crate::scatter::filter::Environment;
use crate::scatter::foliage_place::{FoliageEnv, place_chunk};
use serde_json::json;

fn recipe(extra: &str) -> Recipe {
    let text = format!(
        r#"{{"size": [64, 64], "resolution": [64, 64], "chunk_cells": 16, "seed": 1,
            "palette": {{"format_version": 3, "name": "m", "foliage": {{
                "grass": {{"model": "res://g.tres", "density": 2}},
                "flowers": {{"model": "res://f.tres", "density": 0.5}}}}}} {extra}}}"#
    );
    Document::parse(&text, "t").unwrap().recipe().clone()
}

fn base() -> Heightfield {
    let grid = Grid::new([64.0, 64.0], [64, 64], 16).unwrap();
    let heights = (0..65 * 65)
        .map(|i| ((i % 65) as f32 * 0.1).sin() * 2.0)
        .collect();
    Heightfield::new(grid, heights, None).unwrap()
}

fn session() -> EditSession {
    EditSession::new(recipe(""), base(), None).unwrap()
}

fn paint(center: [f64; 2], radius: f64, density: f64) -> serde_json::Value {
    json!({"type": "foliage_density", "foliage": "grass", "center": center, "radius": radius,
           "density": density, "falloff": 1})
}

fn grass(s: &EditSession) -> Vec<[u32; 3]> {
    let t = s
        .recipe()
        .palette
        .as_ref()
        .unwrap()
        .foliage_type("grass")
        .unwrap()
        .clone();
    let fe = FoliageEnv {
        env: Environment::open(*s.field().grid(), s.field().heights()),
        roles: None,
        density: s.foliage_maps().get("grass"),
        channel: None,
        water: None,
    };
    place_chunk(&t, 5, &fe, [0.0, 0.0, 64.0, 64.0])
        .iter()
        .map(|p| p.position.map(f32::to_bits))
        .collect()
}

#[test]
fn painting_zero_clears_only_inside_the_radius_and_undo_restores_it() {
    let mut s = session();
    let before = grass(&s);
    assert!(before.len() > 7000);
    let c = s.apply_stroke(&paint([20.0, 30.0], 8.0, 0.0)).unwrap();
    assert!(!c.foliage.is_empty() && c.chunks.is_empty() && c.heights.is_empty());
    let after = grass(&s);
    let inside = |p: &[u32; 3]| {
        let (x, z) = (f32::from_bits(p[0]), f32::from_bits(p[2]));
        ((x - 20.0).powi(2) + (z - 30.0).powi(2)).sqrt()
    };
    // Nothing left within the radius (less a cell for the cell-centre lookup) ...
    assert!(after.iter().all(|p| inside(p) > 7.0));
    // ... and outside it every instance stays exactly where it was.
    let outside: Vec<_> = before.iter().filter(|p| inside(p) > 9.5).cloned().collect();
    for p in &outside {
        assert!(after.contains(p));
    }
    assert!(after.len() < before.len() - 300);
    assert_eq!(s.foliage_density_at("grass", 20.0, 30.0), Some(0.0));
    assert_eq!(s.foliage_density_at("grass", 40.0, 30.0), Some(1.0));
    assert_eq!(s.foliage_density_at("flowers", 20.0, 30.0), Some(1.0));
    // Undo restores identically; redo clears again.
    let u = s.undo().unwrap();
    assert_eq!(u.foliage, c.foliage);
    assert_eq!(grass(&s), before);
    assert!(
        s.foliage_maps()
            .get("grass")
            .unwrap()
            .iter()
            .all(|&v| v == 1.0)
    );
    s.redo().unwrap();
    assert_eq!(grass(&s), after);
}

#[test]
fn incremental_equals_full_replay() {
    let mut s = session();
    for (i, (c, r, d)) in [
        ([10.0, 10.0], 6.0, 0.0),
        ([14.0, 12.0], 5.0, 0.5),
        ([40.0, 50.0], 12.0, 0.25),
        ([12.0, 11.0], 3.0, 1.0),
    ]
    .into_iter()
    .enumerate()
    {
        let mut v = paint(c, r, d);
        v["falloff"] = json!(0.6);
        v["strength"] = json!(0.5 + 0.1 * i as f64);
        s.apply_stroke(&v).unwrap();
    }
    s.apply_stroke(&json!({"type": "raise", "center": [30, 30], "radius": 6, "amount": 2}))
        .unwrap();
    let full = EditSession::new(s.recipe().clone(), base(), None).unwrap();
    assert_eq!(full.recipe().foliage_paint.len(), 4);
    assert_eq!(s.foliage_maps(), full.foliage_maps());
    assert_eq!(grass(&s), grass(&full));
    // The recipe round-trips through its canonical JSON with the strokes.
    let text = s.recipe().to_value().to_string();
    let again = Document::parse(&text, "again").unwrap().recipe().clone();
    assert_eq!(again.foliage_paint, s.recipe().foliage_paint);
}

#[test]
fn bad_strokes_are_refused_and_change_nothing() {
    let mut s = session();
    let before = s.foliage_maps().clone();
    for (v, want) in [
        (
            json!({"type": "foliage_density", "foliage": "moss", "center": [1, 1], "radius": 2, "density": 0}),
            "stroke.foliage: names foliage type `moss`, which the palette does not define (it defines flowers, grass)",
        ),
        (
            json!({"type": "foliage_density", "foliage": "grass", "center": [1, 1], "radius": 2, "density": 2}),
            "stroke.density: must be 0..=1, got 2",
        ),
        (
            json!({"type": "foliage_density", "foliage": "grass", "center": [1, 1], "radius": 2}),
            "stroke.density: is required",
        ),
        (
            json!({"type": "foliage_density", "foliage": "grass", "center": [1, 1], "radius": -2, "density": 0}),
            "stroke.radius: must be > 0",
        ),
        (
            json!({"type": "foliage_density", "foliage": "grass", "center": [1, 1], "radius": 2, "density": 0, "slope_max": 30}),
            "slope limits do not apply to foliage_density strokes",
        ),
    ] {
        let e = s.apply_stroke(&v).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }
    assert_eq!(s.foliage_maps(), &before);
    assert!(!s.can_undo());
    // A recipe whose foliage_paint names an unknown type is refused, located.
    let text = r#", "foliage_paint": [{"type": "foliage_density", "foliage": "moss", "center": [1, 1], "radius": 2, "density": 0}]"#;
    let e = Document::parse(
        &format!(
            r#"{{"size": [64, 64], "resolution": [64, 64], "palette": {{"format_version": 3, "name": "m",
                "foliage": {{"grass": {{"model": "g"}}}}}} {text}}}"#
        ),
        "t",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("foliage_paint[0].foliage: names foliage type `moss`"),
        "{e}"
    );
}

/// Grass instances with the type's `channel_cutoff` resolved against user channel 1 named
/// `cut` (the terrain's `user_channel_types`).
fn cut_grass(s: &EditSession) -> Vec<[f32; 3]> {
    use crate::scatter::foliage_cutoff::{UserChannel, cutoff_channel};
    let t = s.recipe().palette.as_ref().unwrap().foliage[1].clone();
    assert_eq!(t.id, "grass");
    let channels = [
        UserChannel::default(),
        UserChannel {
            name: "cut".into(),
            id: false,
        },
    ];
    let fe = FoliageEnv {
        env: Environment::open(*s.field().grid(), s.field().heights()),
        roles: None,
        density: None,
        channel: cutoff_channel(&t, &channels, s.paint().user_bytes(), "palette").unwrap(),
        water: None,
    };
    place_chunk(&t, 5, &fe, [0.0, 0.0, 64.0, 64.0])
        .iter()
        .map(|p| p.position)
        .collect()
}

#[test]
fn a_user_channel_stroke_cuts_foliage_past_the_cutoff_and_touches_its_samples() {
    let r = recipe("").to_value().to_string().replace(
        r#""density":2"#,
        r#""channel_cutoff":{"channel":"cut","value":0.5},"density":2"#,
    );
    let r = Document::parse(&r, "t").unwrap().recipe().clone();
    assert!(
        r.palette.as_ref().unwrap().foliage[1]
            .channel_cutoff
            .is_some()
    );
    let mut s = EditSession::new(r, base(), None).unwrap();
    let before = cut_grass(&s);
    assert!(before.len() > 7000);
    let near = |p: &[f32; 3], c: [f32; 2]| (p[0] - c[0]).hypot(p[2] - c[1]);
    // Below the cutoff (0.4): nothing is cut.
    let low = json!({"type": "user_channel", "channel": 1, "value": 0.4, "center": [20, 30],
                     "radius": 8, "falloff": 1});
    s.apply_stroke(&low).unwrap();
    assert_eq!(cut_grass(&s), before);
    // At the cutoff: the brush's samples lose their grass, the rest stays put.
    let cut = json!({"type": "user_channel", "channel": 1, "value": 1, "center": [20, 30],
                     "radius": 8, "falloff": 1});
    let c = s.apply_stroke(&cut).unwrap();
    // The change covers the painted samples: what foliage re-places (TerrainScatter follows
    // `touched`).
    assert!(!c.user_channels.is_empty() && c.touched.contains(20, 30));
    assert!(c.touched.contains(13, 30) && c.touched.contains(27, 30));
    let after = cut_grass(&s);
    assert!(after.iter().all(|p| near(p, [20.0, 30.0]) > 7.0));
    for p in before.iter().filter(|p| near(p, [20.0, 30.0]) > 9.5) {
        assert!(after.contains(p));
    }
    assert!(after.len() < before.len() - 300);
    // Channel 0 is not the cutoff's channel.
    s.undo();
    let other = json!({"type": "user_channel", "channel": 0, "value": 1, "center": [20, 30],
                       "radius": 8, "falloff": 1});
    s.apply_stroke(&other).unwrap();
    assert_eq!(cut_grass(&s), before);
}

#[test]
fn strokes_paint_over_base_maps_and_undo_comes_back_to_them() {
    let mut s = session();
    let n = s.field().grid().sample_count();
    let mut base = crate::edit::foliage_density::FoliageMaps::new(n);
    base.insert("grass", (0..n).map(|i| (i % 3) as f32 * 0.5).collect());
    s.set_base_foliage(&base).unwrap();
    assert_eq!(s.foliage_maps(), &base);
    let far = s.field().grid().index(60, 60);
    s.apply_stroke(&paint([10.0, 10.0], 4.0, 1.0)).unwrap();
    assert_eq!(s.foliage_density_at("grass", 10.0, 10.0), Some(1.0));
    assert_eq!(
        s.foliage_maps().value("grass", far),
        base.value("grass", far)
    );
    assert!(s.undo().is_some());
    assert_eq!(s.foliage_maps(), &base, "undo restores the base");
    let wrong = crate::edit::foliage_density::FoliageMaps::new(7);
    assert!(s.set_base_foliage(&wrong).is_err());
}
