//! Issue 11 reproducers for editing: absurd stroke parameters, strokes that would overflow the
//! height range (refused the same way live and on replay), and referenced mask files.

use super::session::EditSession;
use crate::formats::file_mask_loader;
use crate::grid::Grid;
use crate::heightfield::{Heightfield, MAX_HEIGHT};
use crate::recipe::{Document, Recipe};
use serde_json::{Value, json};
use std::path::Path;

fn recipe_with(edits: &Value) -> Recipe {
    let text = json!({"size": [32, 32], "resolution": [32, 32], "chunk_cells": 16, "seed": 1, "edits": edits})
        .to_string();
    Document::parse(&text, "t").unwrap().recipe().clone()
}

fn base() -> Heightfield {
    Heightfield::flat(Grid::new([32.0, 32.0], [32, 32], 16).unwrap(), 5.0).unwrap()
}

fn session() -> EditSession {
    EditSession::new(recipe_with(&json!([])), base(), None).unwrap()
}

fn stroke_error(stroke: Value) -> String {
    let mut s = session();
    let before = s.field().heights().to_vec();
    let e = s.apply_stroke(&stroke).unwrap_err().to_string();
    assert_eq!(
        s.field().heights(),
        &before[..],
        "a refused stroke changes nothing"
    );
    assert!(s.recipe().edits.is_empty() && !s.can_undo());
    e
}

#[test]
fn absurd_amounts_are_refused_with_their_range() {
    // Issue 11: `amount: 3e38` applied three times was accepted, and the saved asset could not
    // regenerate ("heights[1388]: height must be finite, got inf").
    let e = stroke_error(json!({"type": "raise", "center": [16, 16], "radius": 4, "amount": 3e38}));
    assert!(
        e.contains("stroke.amount: must be 0..=100000 world units, got"),
        "{e}"
    );
    for (stroke, needle) in [
        (
            json!({"type": "lower", "center": [16, 16], "radius": 4, "amount": -1}),
            "stroke.amount: must be ≥ 0",
        ),
        (
            json!({"type": "flatten", "center": [16, 16], "radius": 4, "target_height": 2e6}),
            "stroke.target_height: must be within ±1000000",
        ),
        (
            json!({"type": "raise", "center": [3e30, 16], "radius": 4}),
            "stroke.center: coordinates must be within ±10000000",
        ),
        (
            json!({"type": "raise", "points": [[1, 1], [16, -2e7]], "radius": 4}),
            "stroke.points[1]: coordinates must be within ±10000000",
        ),
        (
            json!({"type": "ramp", "from": [0, 0, 0], "to": [20, 20, 5e6], "radius": 4}),
            "stroke.to[2]: must be within ±1000000",
        ),
        (
            json!({"type": "ramp", "from": [-1e8, 0, 0], "to": [20, 20, 5], "radius": 4}),
            "stroke.from: x and z must be within ±10000000",
        ),
        (
            json!({"type": "protect", "center": [16, 16], "radius": 2, "grid": [32.5, 1e12], "heights": []}),
            "stroke.grid: must be two whole cell counts 1..=8192",
        ),
        (
            json!({"type": "protect", "center": [16, 16], "radius": 2, "grid": [32, 32], "heights": [1e30]}),
            "stroke.heights[0]: must be a number within ±10000000",
        ),
        (
            json!({"type": "raise", "center": [16, 16], "radius": 1e6}),
            "stroke.radius: must be ≤ 100000",
        ),
        (
            // Found by the stroke fuzz target: accepted live, stored as radius 0, and then
            // refused when the saved asset replayed.
            json!({"type": "raise", "center": [16, 16], "radius": 1e-9}),
            "stroke.radius: must be ≥ 0.001",
        ),
        (
            json!({"type": "raise", "center": [16, 16], "radius": 5e-324}),
            "stroke.radius: must be > 0",
        ),
    ] {
        let e = stroke_error(stroke);
        assert!(e.contains(needle), "expected `{needle}` in `{e}`");
    }
}

/// A raise that stays inside every parameter range but piles up past the height bound.
fn tower(stamps: usize) -> Value {
    json!({"type": "raise", "points": vec![json!([16, 16]); stamps], "radius": 3, "amount": 100000})
}

#[test]
fn a_stroke_that_would_pass_the_height_bound_is_refused_live_and_on_replay() {
    let stamps = (MAX_HEIGHT as f64 / 100_000.0) as usize + 5;
    // Live: refused, located, nothing changed.
    let e = stroke_error(tower(stamps));
    assert!(
        e.starts_with("stroke: would make the height of sample (")
            && e.contains("within ±10000000")
            && e.contains("nothing was changed"),
        "{e}"
    );
    // Replay (what a generation does with a hand-written recipe): the same rule, located at the
    // stroke.
    let replay = EditSession::new(recipe_with(&json!([tower(stamps)])), base(), None)
        .err()
        .expect("refused on replay")
        .to_string();
    assert!(
        replay.starts_with("recipe.edits[0]: would make the height of sample ("),
        "{replay}"
    );
    // Three strokes of an amount that is fine alone: the third is refused, the first two stay,
    // and what was kept replays to the same surface (the saved asset regenerates).
    let mut s = session();
    let third = stamps / 3 + 1;
    s.apply_stroke(&tower(third)).unwrap();
    s.apply_stroke(&tower(third)).unwrap();
    let kept = s.field().heights().to_vec();
    let e = s.apply_stroke(&tower(third)).unwrap_err().to_string();
    assert!(e.contains("would make the height"), "{e}");
    assert_eq!(s.field().heights(), &kept[..]);
    assert_eq!(s.recipe().edits.len(), 2);
    let again = EditSession::new(s.recipe().clone(), base(), None).unwrap();
    assert_eq!(again.field().heights(), &kept[..]);
    // Undo still works on what was kept.
    assert!(s.undo().is_some());
}

#[test]
fn a_layer_toggle_that_would_pass_the_height_bound_is_refused() {
    let stamps = (MAX_HEIGHT as f64 / 100_000.0) as usize;
    let lower = json!({"type": "lower", "points": vec![json!([16, 16]); stamps / 2], "radius": 3,
        "amount": 100000, "layer": "dig"});
    let mut on_sculpt = tower(stamps);
    on_sculpt["layer"] = json!("sculpt");
    let text = json!({"size": [32, 32], "resolution": [32, 32], "chunk_cells": 16, "seed": 1,
        "layers": [{"id": "generation", "kind": "generation"}, {"id": "dig", "kind": "sculpt"},
                   {"id": "sculpt", "kind": "sculpt"}],
        "edits": [lower, on_sculpt]})
    .to_string();
    let r = Document::parse(&text, "t").unwrap().recipe().clone();
    let mut s = EditSession::new(r, base(), None).unwrap();
    let before = s.field().heights().to_vec();
    let e = s.set_layer_enabled("dig", false).unwrap_err().to_string();
    assert!(
        e.starts_with("layer: disabling `dig` would make recipe.edits[1] fail"),
        "{e}"
    );
    assert!(
        s.layers().iter().all(|l| l.enabled),
        "the layer stays enabled"
    );
    assert_eq!(s.field().heights(), &before[..]);
}

/// A 2×2 8-bit greyscale PNG.
fn tiny_png() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, 2, 2);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&[0, 255, 255, 0]).unwrap();
    }
    out
}

fn mask_error(dir: &Path, mask: &str) -> String {
    let mut s = EditSession::new(
        recipe_with(&json!([])),
        base(),
        Some(file_mask_loader(dir.to_path_buf())),
    )
    .unwrap();
    s.apply_stroke(&json!({"type": "raise", "center": [16, 16], "radius": 4, "mask": mask}))
        .unwrap_err()
        .to_string()
}

#[test]
fn masks_resolve_inside_the_project_and_refuse_everything_else_quickly() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("game");
    let assets = root.join("terrain");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::write(root.join("project.godot"), b"").unwrap();
    std::fs::write(assets.join("brush.png"), tiny_png()).unwrap();
    std::fs::write(root.join("shared.png"), tiny_png()).unwrap();
    std::fs::write(d.path().join("outside.png"), tiny_png()).unwrap();
    let loader = file_mask_loader(assets.clone());
    for ok in ["brush.png", "../shared.png", "res://shared.png"] {
        let mut s =
            EditSession::new(recipe_with(&json!([])), base(), Some(loader.clone())).unwrap();
        s.apply_stroke(&json!({"type": "raise", "center": [16, 16], "radius": 4, "mask": ok}))
            .unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    let started = std::time::Instant::now();
    // Issue 11: "/dev/zero" read until memory ran out; `../` and absolute paths were opened.
    let e = mask_error(&assets, "/dev/zero");
    assert!(
        e.contains("stroke.mask: cannot load mask `/dev/zero`")
            && e.contains("absolute paths are not allowed"),
        "{e}"
    );
    let e = mask_error(&assets, "../../outside.png");
    assert!(e.contains("points outside the project"), "{e}");
    let e = mask_error(&assets, &d.path().join("outside.png").display().to_string());
    assert!(e.contains("absolute paths are not allowed"), "{e}");
    // A device linked into the project is refused by its type, never read.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/dev/zero", root.join("zero.png")).unwrap();
        let e = mask_error(&assets, "res://zero.png");
        assert!(
            e.contains("outside the project") || e.contains("not a regular file"),
            "{e}"
        );
        let fifo = assets.join("fifo.png");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            // Issue 11: a FIFO hung the CLI and Godot's main thread forever.
            let e = mask_error(&assets, "fifo.png");
            assert!(
                e.contains("fifo.png") && e.contains("not a regular file"),
                "{e}"
            );
        }
    }
    std::fs::write(assets.join("big.png"), vec![0u8; 16 * 1024 * 1024 + 1]).unwrap();
    let e = mask_error(&assets, "big.png");
    assert!(e.contains("larger than a brush mask may be"), "{e}");
    let e = mask_error(&assets, "missing.png");
    assert!(
        e.contains("missing.png") && e.contains("cannot read"),
        "{e}"
    );
    assert!(started.elapsed().as_secs() < 10, "nothing blocks");
}
