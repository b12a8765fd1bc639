//! Protection as a scatter filter: `protect` strokes block placements like exclusions, in a
//! full generation and in an edit session (incremental equals full), and undo, redo and the
//! protection layer's toggle bring the same placements back.

use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use serde_json::json;
use std::sync::atomic::AtomicBool;

const RECIPE: &str = r#"{"format_version": 1, "seed": 9, "size": [96, 96], "resolution": [48, 48],
    "palette": {"format_version": 3, "name": "Forest", "placements": {
      "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.05, "spacing": 4},
      "rock": {"prefab": "res://rock.tscn", "category": "rock", "density": 0.05, "spacing": 3}}},
    "edits": [{"type": "raise", "radius": 6, "center": [80, 80], "strength": 1}]}"#;

fn base(r: &Recipe) -> PreparedTerrain {
    let never = AtomicBool::new(false);
    prepare_base(
        r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap()
}

fn near(s: &crate::scatter::Scatter, c: [f32; 2], r: f32) -> usize {
    s.placements
        .iter()
        .filter(|p| (p.position[0] - c[0]).hypot(p.position[2] - c[1]) < r)
        .count()
}

#[test]
fn a_protect_stroke_blocks_placements_and_incremental_equals_full() {
    let r = Document::parse(RECIPE, "t").unwrap().recipe().clone();
    let base = base(&r);
    let (first, session) = finish(&r, base.clone(), None).unwrap();
    let mut session = session.unwrap();
    let center = [40.0, 50.0];
    assert!(near(&first.scatter, center, 8.0) > 3, "nothing to protect");
    assert!(session.protection().iter().all(|&w| w == 0.0));
    let stroke = json!({"type": "protect", "radius": 16, "center": center, "falloff": 0.5});
    let change = session.apply_stroke(&stroke).unwrap();
    assert!(change.touched.contains(20, 25));
    let i = session.field().grid().index(20, 25);
    assert_eq!(session.protection()[i], 1.0);
    let edited = session.scatter().unwrap().clone();
    // Full weight inside half the radius: nothing stands there; the dithered edge thins.
    assert_eq!(near(&edited, center, 8.0), 0);
    assert!(edited.placements.len() < first.scatter.placements.len());
    // The same as generating the recipe with the stroke from scratch.
    let full = finish(session.recipe(), base.clone(), None).unwrap().0;
    assert_eq!(*edited, *full.scatter, "incremental differs from full");
    // Sculpting elsewhere keeps the protection; toggling the layer brings the placements back.
    let sculpt = json!({"type": "lower", "radius": 8, "center": [20, 20], "strength": 1});
    session.apply_stroke(&sculpt).unwrap();
    let full = finish(session.recipe(), base.clone(), None).unwrap().0;
    assert_eq!(**session.scatter().unwrap(), *full.scatter);
    assert_eq!(near(session.scatter().unwrap(), center, 8.0), 0);
    session.set_layer_enabled("protection", false).unwrap();
    assert_eq!(session.protection()[i], 0.0);
    let full = finish(session.recipe(), base.clone(), None).unwrap().0;
    assert_eq!(
        **session.scatter().unwrap(),
        *full.scatter,
        "toggle differs"
    );
    assert!(near(session.scatter().unwrap(), center, 8.0) > 3);
    session.undo();
    assert_eq!(session.protection()[i], 1.0);
    assert_eq!(near(session.scatter().unwrap(), center, 8.0), 0);
    session.undo();
    session.undo();
    assert!(session.protection().iter().all(|&w| w == 0.0));
    assert_eq!(
        session.scatter().unwrap(),
        &first.scatter,
        "undo did not restore"
    );
    session.redo();
    assert_eq!(**session.scatter().unwrap(), *edited, "redo differs");
}
