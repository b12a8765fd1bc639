//! Layer files: export → import is byte-identical, only changed layers are written or
//! imported, an import is one undo step that replays from the recipe, and bad files are
//! located errors that change nothing.

use super::layer_files::{ALL_GROUPS, FILES, LayerPixels, MANIFEST, encode_rgba, export};
use super::layer_import::{import, plan};
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::pipeline::EditSession;
use crate::recipe::{Document, Recipe};
use serde_json::json;
use std::path::Path;

fn recipe() -> Recipe {
    let text = r#"{"size": [32, 24], "resolution": [32, 24], "chunk_cells": 8, "seed": 1,
        "palette": {"format_version": 3, "name": "m", "foliage": {
            "grass": {"model": "res://g.tres", "density": 2},
            "flowers": {"model": "res://f.tres", "density": 0.5}}}}"#;
    Document::parse(text, "t").unwrap().recipe().clone()
}

fn base() -> Heightfield {
    let grid = Grid::new([32.0, 24.0], [32, 24], 8).unwrap();
    let heights = (0..33 * 25)
        .map(|i| ((i % 33) as f32 * 0.3).sin() * 4.0 + (i / 33) as f32 * 0.25)
        .collect();
    Heightfield::new(grid, heights, None).unwrap()
}

fn session() -> EditSession {
    EditSession::new(recipe(), base(), None).unwrap()
}

/// A session with every layer edited.
fn edited() -> EditSession {
    let mut s = session();
    for v in [
        json!({"type": "raise", "center": [10, 10], "radius": 5, "amount": 3}),
        json!({"type": "paint_water", "center": [20, 12], "radius": 4, "depth": 2.5, "level": 3}),
        json!({"type": "user_channel", "channel": 2, "value": 0.4, "radius": 6, "center": [8, 8]}),
        json!({"type": "paint_surface", "surface": "rock", "radius": 5, "center": [16, 16]}),
        json!({"type": "paint_surface", "surface": "sand", "mode": "blend", "strength": 0.5,
               "radius": 4, "center": [4, 18]}),
        json!({"type": "foliage_density", "foliage": "grass", "density": 0.2, "radius": 5,
               "center": [12, 6]}),
    ] {
        s.apply_stroke(&v).unwrap();
    }
    s
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

/// Every layer as the files hold it (quantised heights through the heightmap bytes).
fn snapshot(dir: &Path) -> Vec<Vec<u8>> {
    FILES.iter().map(|(n, _)| read(dir, n)).collect()
}

#[test]
fn layer_png_export_then_import_is_byte_identical() {
    let a = tempfile::tempdir().unwrap();
    let src = edited();
    let files = export(&src, a.path(), ALL_GROUPS).unwrap();
    assert_eq!(files.len(), FILES.len() + 1, "nine PNGs and the manifest");
    assert!(files.iter().all(|f| f.written));
    let before = snapshot(a.path());

    // A fresh terrain takes every layer from the files in one step.
    let mut dst = session();
    let (p, change) = import(&mut dst, a.path()).unwrap();
    assert!(!change.touched.is_empty());
    for name in [
        "heightmap.png",
        "water.png",
        "splat-0.png",
        "user.png",
        "foliage-0.png",
    ] {
        assert!(
            p.changed.iter().any(|c| c == name),
            "{name} in {:?}",
            p.changed
        );
    }
    // Exporting it again over the same folder writes nothing: the bytes are identical.
    let again = export(&dst, a.path(), ALL_GROUPS).unwrap();
    assert!(
        again.iter().all(|f| !f.written),
        "rewritten: {:?}",
        again.iter().filter(|f| f.written).collect::<Vec<_>>()
    );
    assert_eq!(snapshot(a.path()), before);
    // And into a fresh folder, byte for byte the same files (the layers themselves match).
    let b = tempfile::tempdir().unwrap();
    std::fs::copy(a.path().join(MANIFEST), b.path().join(MANIFEST)).unwrap();
    export(&dst, b.path(), ALL_GROUPS).unwrap();
    assert_eq!(snapshot(b.path()), before);
    // Importing again finds nothing to do.
    assert!(plan(&dst, a.path()).unwrap().strokes.is_empty());
    // The painted layers are exact, not just their files.
    let (ps, pd) = (LayerPixels::of(&src), LayerPixels::of(&dst));
    assert_eq!(ps.weights(), pd.weights());
    assert_eq!(ps.user(), pd.user());
    assert_eq!(ps.water(), pd.water());
    assert_eq!(ps.foliage(), pd.foliage());
}

#[test]
fn an_import_is_one_undo_step_and_replays_from_the_recipe() {
    let dir = tempfile::tempdir().unwrap();
    export(&edited(), dir.path(), ALL_GROUPS).unwrap();
    let mut s = session();
    let heights = s.field().heights().to_vec();
    let paint = s.paint().clone();
    import(&mut s, dir.path()).unwrap();
    // The recipe holds the strokes: a fresh session replays the same layers.
    let text = s.recipe().to_value().to_string();
    let r = Document::parse(&text, "saved").unwrap().recipe().clone();
    let replayed = EditSession::new(r, base(), None).unwrap();
    assert_eq!(replayed.field().heights(), s.field().heights());
    assert_eq!(replayed.paint(), s.paint());
    assert_eq!(replayed.water(), s.water());
    assert_eq!(replayed.foliage_maps(), s.foliage_maps());
    let after = s.field().heights().to_vec();
    assert!(s.undo().is_some());
    assert_eq!(
        s.field().heights(),
        &heights[..],
        "one undo restores heights"
    );
    assert_eq!(s.paint(), &paint);
    assert!(s.water().is_dry());
    assert!(!s.can_undo(), "the whole import was one step");
    assert!(s.redo().is_some());
    assert_eq!(s.field().heights(), &after[..]);
    assert!(!s.can_redo());
}

#[test]
fn only_changed_layers_are_written_and_imported() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = edited();
    export(&s, dir.path(), ALL_GROUPS).unwrap();
    s.apply_stroke(
        &json!({"type": "user_channel", "channel": 0, "value": 1, "radius": 3,
                           "center": [20, 20]}),
    )
    .unwrap();
    let written: Vec<String> = export(&s, dir.path(), ALL_GROUPS)
        .unwrap()
        .into_iter()
        .filter(|f| f.written)
        .map(|f| f.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(written, ["user.png"]);
    // Only heightmap and user requested: only those (and the manifest) considered.
    let some = export(&s, dir.path(), 1 | 8).unwrap();
    assert_eq!(some.len(), 3);
    assert!(s.undo().is_some());
    let p = plan(&s, dir.path()).unwrap();
    assert_eq!(p.changed, ["user.png"]);
    assert_eq!(p.strokes.len(), 1);
    assert_eq!(p.strokes[0]["type"], "paint_patch");
}

#[test]
fn bad_files_are_located_errors_that_change_nothing() {
    let good = tempfile::tempdir().unwrap();
    export(&edited(), good.path(), ALL_GROUPS).unwrap();
    let case = |name: &str, bytes: Vec<u8>, expect: &str| {
        let dir = tempfile::tempdir().unwrap();
        for n in FILES.map(|(n, _)| n).into_iter().chain([MANIFEST]) {
            std::fs::copy(good.path().join(n), dir.path().join(n)).unwrap();
        }
        std::fs::write(dir.path().join(name), bytes).unwrap();
        let mut s = session();
        let heights = s.field().heights().to_vec();
        let e = import(&mut s, dir.path()).expect_err(expect).to_string();
        assert!(e.contains(name) && e.contains(expect), "{name}: {e}");
        assert_eq!(s.field().heights(), &heights[..], "{name}: nothing changed");
        assert!(!s.can_undo(), "{name}: nothing recorded");
        assert!(s.recipe().regions.is_empty() && s.recipe().edits.is_empty());
    };
    let rgba = |w: usize, h: usize, f: &dyn Fn(usize) -> [u8; 4]| {
        let px: Vec<u8> = (0..w * h).flat_map(f).collect();
        encode_rgba(w, h, &px).unwrap()
    };
    case("user.png", rgba(32, 25, &|_| [0; 4]), "is 32 × 25 pixels");
    let mut corrupt = read(good.path(), "water.png");
    let n = corrupt.len();
    corrupt.truncate(n - 30);
    case("water.png", corrupt, "corrupt");
    case("surface.png", b"not a png".to_vec(), "not a readable PNG");
    case(
        "surface.png",
        rgba(33, 25, &|i| [if i == 40 { 17 } else { 255 }, 0, 0, 0]),
        "pixel (7, 1)",
    );
    case("splat-1.png", rgba(33, 25, &|_| [1, 0, 0, 0]), "sum to 256");
    case(
        "foliage-0.png",
        rgba(33, 25, &|_| [255, 255, 9, 0]),
        "palette defines 2 foliage type(s)",
    );
    let heights = crate::formats::HeightImage {
        width: 33,
        depth: 25,
        heights: vec![1.0; 33 * 25],
    };
    let grey16 = crate::formats::png16::write(&heights, 0.0, 2.0).unwrap();
    case("user.png", grey16, "must be 8-bit RGBA");
    case(
        "heightmap.png",
        read(good.path(), "user.png"),
        "must be 16-bit greyscale",
    );
    case(
        MANIFEST,
        br#"{"grid": [16, 24], "height_range": [0, 1], "foliage": ["grass", "flowers"]}"#.to_vec(),
        "this terrain has 32×24 cells",
    );
}

#[test]
fn a_folder_without_layer_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let e = plan(&session(), dir.path()).expect_err("empty").to_string();
    assert!(e.contains("holds none of the layer files"), "{e}");
}
