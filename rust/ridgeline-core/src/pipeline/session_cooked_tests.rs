//! An edit session made from a cooked surface (no recipe: its grid and biome only) given the
//! payload's scatter source refilters placements and paints foliage exactly like a session of
//! the recipe the payload was cooked from, and undo restores the same placements.

use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use serde_json::json;
use std::sync::atomic::AtomicBool;

const RECIPE: &str = r#"{"format_version": 1, "seed": 9, "size": [96, 96], "resolution": [48, 48],
    "palette": {"format_version": 3, "name": "Forest", "placements": {
      "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.05, "spacing": 4},
      "rock": {"prefab": "res://rock.tscn", "category": "rock", "density": 0.05, "spacing": 3,
               "slope": [0, 25]}},
      "foliage": {"grass": {"model": "res://g.tres", "density": 2}}}}"#;

fn finished() -> (Recipe, PreparedTerrain) {
    let r = Document::parse(RECIPE, "t").unwrap().recipe().clone();
    let never = AtomicBool::new(false);
    let base = prepare_base(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap();
    let p = finish(&r, base, None).unwrap().0;
    (r, p)
}

/// A session over `p` the way `Terrain3D` makes one (from `recipe`, strokes cleared).
fn session(recipe: Recipe, p: &PreparedTerrain, cooked: bool) -> EditSession {
    let mut s = EditSession::new(recipe, p.field.clone(), None).unwrap();
    if cooked {
        s.set_scatter_source(&p.scatter_source);
    }
    s.classify_surface(p, p.field.height_range(), cooked)
        .unwrap();
    s.attach_scatter(p.scatter.clone(), p.scatter.clone());
    s
}

fn cooked_recipe(p: &PreparedTerrain) -> Recipe {
    let text = json!({"size": [96, 96], "resolution": [48, 48], "default_biome": p.default_biome,
                      "biomes": {p.default_biome.clone(): {}}})
    .to_string();
    Document::parse(&text, "cooked").unwrap().recipe().clone()
}

#[test]
fn a_cooked_session_with_the_scatter_source_refilters_like_the_recipe() {
    let (r, p) = finished();
    assert!(p.scatter.placements.len() > 50, "placements to refilter");
    let mut uncooked = session(r, &p, false);
    let mut cooked = session(cooked_recipe(&p), &p, true);
    assert_eq!(cooked.scatter_seed(), p.scatter_source.seed);
    assert_eq!(cooked.scatter_seed(), uncooked.scatter_seed());
    let raise =
        json!({"type": "raise", "radius": 12, "center": [48, 48], "strength": 1, "amount": 6});
    for s in [&mut uncooked, &mut cooked] {
        s.apply_stroke(&raise).unwrap();
    }
    let edited = cooked.scatter().unwrap().clone();
    assert_eq!(
        *edited,
        **uncooked.scatter().unwrap(),
        "cooked refilter differs"
    );
    assert_ne!(*edited, *p.scatter, "the stroke changed nothing");
    // Retained placements stand on the new ground.
    for q in &edited.placements {
        let h = cooked.field().height_at(q.position[0], q.position[2]);
        assert!(
            (q.position[1] - h.unwrap()).abs() < 1e-3,
            "{q:?} off the ground"
        );
    }
    // Foliage paint is accepted (the payload's foliage types) and matches the recipe's.
    let paint = json!({"type": "foliage_density", "foliage": "grass", "center": [20, 20],
                       "radius": 8, "density": 0});
    for s in [&mut uncooked, &mut cooked] {
        s.apply_stroke(&paint).unwrap();
    }
    assert_eq!(cooked.foliage_maps(), uncooked.foliage_maps());
    assert!(cooked.undo().is_some());
    assert!(cooked.undo().is_some());
    assert_eq!(
        **cooked.scatter().unwrap(),
        *p.scatter,
        "undo restores the placements"
    );
}

#[test]
fn without_the_scatter_source_a_cooked_session_refuses_foliage_and_keeps_placements() {
    let (_, p) = finished();
    let mut s = EditSession::new(cooked_recipe(&p), p.field.clone(), None).unwrap();
    s.classify_surface(&p, p.field.height_range(), true)
        .unwrap();
    s.attach_scatter(p.scatter.clone(), p.scatter.clone());
    let paint = json!({"type": "foliage_density", "foliage": "grass", "center": [20, 20],
                       "radius": 8, "density": 0});
    assert!(s.apply_stroke(&paint).is_err());
    // A source without a palette changes nothing.
    s.set_scatter_source(&ScatterSource::default());
    assert!(s.recipe().palette.is_none());
    let raise =
        json!({"type": "raise", "radius": 12, "center": [48, 48], "strength": 1, "amount": 6});
    s.apply_stroke(&raise).unwrap();
    assert_eq!(
        **s.scatter().unwrap(),
        *p.scatter,
        "not refiltered without a palette"
    );
}
