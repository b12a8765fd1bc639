//! Height patches in an edit session: incremental equals a full replay (regeneration), undo
//! and redo restore exactly, and a refused patch changes nothing.

use super::height_patch::stroke_value;
use super::rect::Rect;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::pipeline::EditSession;
use crate::recipe::{Document, Recipe};
use serde_json::json;

const W: usize = 65;

fn recipe() -> Recipe {
    let text = r#"{"size": [64, 64], "resolution": [64, 64], "chunk_cells": 16, "seed": 1}"#;
    Document::parse(text, "t").expect("recipe").recipe().clone()
}

fn base() -> Heightfield {
    let grid = Grid::new([64.0, 64.0], [64, 64], 16).expect("grid");
    let heights = (0..W * W)
        .map(|i| {
            let (x, z) = ((i % W) as f32, (i / W) as f32);
            (x * 0.21).sin() * 6.0 + (z * 0.13).cos() * 4.0
        })
        .collect();
    Heightfield::new(grid, heights, None).expect("field")
}

fn bits(h: &[f32]) -> Vec<u32> {
    h.iter().map(|v| v.to_bits()).collect()
}

fn patch(rect: Rect, f: impl Fn(usize, usize) -> f32) -> serde_json::Value {
    let mut hs = Vec::new();
    for z in rect.z0..rect.z1 {
        for x in rect.x0..rect.x1 {
            hs.push(f(x, z));
        }
    }
    stroke_value([64, 64], rect, &hs)
}

#[test]
fn patches_replay_identically_and_undo_exactly() {
    let mut s = EditSession::new(recipe(), base(), None).expect("session");
    let h0 = bits(s.field().heights());
    let strokes = [
        json!({"type": "raise", "center": [20, 20], "radius": 8, "amount": 2}),
        patch(Rect::new(16, 14, 40, 30), |x, z| {
            x as f32 * 0.25 - z as f32 * 0.125
        }),
        json!({"type": "smooth", "points": [[16, 20], [30, 30]], "radius": 5}),
        patch(Rect::new(30, 28, 34, 31), |_, _| 12.5),
    ];
    let mut states = vec![h0.clone()];
    for v in &strokes {
        let change = s.apply_stroke(v).expect("applied");
        assert!(!change.heights.is_empty());
        let again = EditSession::new(s.recipe().clone(), base(), None).expect("replay");
        assert_eq!(
            bits(s.field().heights()),
            bits(again.field().heights()),
            "incremental == regenerated after {v}"
        );
        states.push(bits(s.field().heights()));
    }
    // The last patch wrote its values exactly (nothing after it reads them).
    let h = s.field().heights();
    assert_eq!(h[29 * W + 31], 12.5);
    assert_eq!(h[30 * W + 33], 12.5);
    // The change of a patch is its rectangle (no stroke after it reads neighbours).
    for i in (0..strokes.len()).rev() {
        s.undo().expect("undo");
        assert_eq!(bits(s.field().heights()), states[i], "undo to state {i}");
    }
    for (i, state) in states.iter().enumerate().skip(1) {
        s.redo().expect("redo");
        assert_eq!(&bits(s.field().heights()), state, "redo to state {i}");
    }
}

#[test]
fn a_patch_changes_only_its_rectangle() {
    let mut s = EditSession::new(recipe(), base(), None).expect("session");
    let before = s.field().heights().to_vec();
    let r = Rect::new(10, 5, 20, 12);
    let change = s.apply_stroke(&patch(r, |_, _| -3.0)).expect("applied");
    assert_eq!(change.heights, r);
    for (i, (&a, &b)) in before.iter().zip(s.field().heights()).enumerate() {
        let (x, z) = (i % W, i / W);
        if r.contains(x, z) {
            assert_eq!(b, -3.0);
        } else {
            assert_eq!(
                a.to_bits(),
                b.to_bits(),
                "sample ({x}, {z}) outside the patch"
            );
        }
    }
}

#[test]
fn a_refused_patch_changes_nothing() {
    let mut s = EditSession::new(recipe(), base(), None).expect("session");
    let h0 = bits(s.field().heights());
    let mut bad = patch(Rect::new(60, 60, 66, 62), |_, _| 1.0);
    assert!(s.apply_stroke(&bad).is_err(), "leaves the grid");
    bad = patch(Rect::new(0, 0, 2, 2), |_, _| 1.0);
    bad["heights"] = json!([1, 2, 3]);
    let e = s.apply_stroke(&bad).expect_err("wrong count").to_string();
    assert!(e.contains("stroke.heights: has 3 heights"), "{e}");
    bad["heights"] = json!([1, 2, 3, 2.0e7]);
    assert!(s.apply_stroke(&bad).is_err(), "beyond MAX_HEIGHT");
    assert_eq!(bits(s.field().heights()), h0);
    assert_eq!(s.recipe().edits.len(), 0);
    assert!(!s.can_undo());
}
