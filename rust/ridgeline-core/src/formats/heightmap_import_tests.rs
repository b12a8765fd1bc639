//! Import plans: sizes and ranges from the file or the caller, holes as a stroke, located
//! refusals that write nothing.

use super::*;
use crate::heightmap::{HeightImage, png16};

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("project.godot"), "").unwrap();
    dir
}

fn png(dir: &Path, name: &str, w: usize, d: usize) -> PathBuf {
    let img = HeightImage {
        width: w,
        depth: d,
        heights: (0..w * d).map(|i| (i % 7) as f32 * 10.0).collect(),
    };
    let path = dir.join(name);
    std::fs::write(&path, png16::write(&img, 0.0, 60.0).unwrap()).unwrap();
    path
}

#[test]
fn a_png_imports_with_its_embedded_range_and_pixel_size() {
    let dir = project();
    std::fs::create_dir(dir.path().join("maps")).unwrap();
    let file = png(&dir.path().join("maps"), "hill.png", 33, 17);
    let p = plan(
        &file,
        &dir.path().join("hill.terrain.json"),
        &ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(p.reference, "maps/hill.png");
    assert_eq!(p.samples, [33, 17]);
    assert_eq!(p.size, [32.0, 16.0]);
    assert_eq!(p.height_range, Some([0.0, 60.0]));
    assert_eq!(p.format, "PNG");
    assert!(p.notes.iter().any(|n| n.contains("embeds")));
    let r = p.document.recipe();
    assert_eq!(r.resolution, [32, 16]);
    let Document::Asset(a) = &p.document else {
        panic!("an asset")
    };
    assert_eq!(a.id, "asset://terrain/hill");
    assert!(
        !dir.path().join("hill.terrain.json").exists(),
        "plans write nothing"
    );
}

#[test]
fn size_and_range_from_the_caller_win() {
    let dir = project();
    let file = png(dir.path(), "a.png", 9, 9);
    let p = plan(
        &file,
        &dir.path().join("a.terrain.json"),
        &ImportOptions {
            size: Some([800.0, 400.0]),
            height_range: Some([-5.0, 95.0]),
            raw_size: None,
        },
    )
    .unwrap();
    assert_eq!(p.size, [800.0, 400.0]);
    assert_eq!(p.height_range, Some([-5.0, 95.0]));
}

#[test]
fn bad_requests_are_refused_naming_the_file() {
    let dir = project();
    let file = png(dir.path(), "a.png", 9, 9);
    let out = dir.path().join("a.terrain.json");
    let refuse = |f: &Path, out: &Path, o: ImportOptions, want: &str| {
        let e = plan(f, out, &o).unwrap_err();
        assert!(e.contains(want), "{e}");
    };
    refuse(
        &file,
        &dir.path().join("a.json"),
        ImportOptions::default(),
        "<name>.terrain.json",
    );
    let txt = dir.path().join("a.txt");
    std::fs::write(&txt, "x").unwrap();
    refuse(
        &txt,
        &out,
        ImportOptions::default(),
        "cannot tell the format",
    );
    let broken = dir.path().join("broken.png");
    std::fs::write(&broken, b"\x89PNG\r\n\x1a\nnot really").unwrap();
    refuse(&broken, &out, ImportOptions::default(), "broken.png");
    refuse(
        &file,
        &out,
        ImportOptions {
            size: Some([f64::NAN, 1.0]),
            ..Default::default()
        },
        "finite",
    );
    refuse(
        &file,
        &out,
        ImportOptions {
            size: Some([0.0, 1.0]),
            ..Default::default()
        },
        "positive",
    );
    let r16 = dir.path().join("a.r16");
    std::fs::write(&r16, vec![0u8; 2 * 12]).unwrap();
    refuse(&r16, &out, ImportOptions::default(), "not a square");
    refuse(
        &r16,
        &out,
        ImportOptions {
            raw_size: Some([5, 5]),
            ..Default::default()
        },
        "does not hold 5 × 5",
    );
    let ok = plan(
        &r16,
        &out,
        &ImportOptions {
            raw_size: Some([4, 3]),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(ok.samples, [4, 3]);
    // Outside the asset's project: the asset could never read it.
    let other = project();
    let far = png(other.path(), "far.png", 9, 9);
    refuse(&far, &out, ImportOptions::default(), "outside the project");
}

#[test]
fn terrain_json_holes_become_one_hole_stroke() {
    let dir = project();
    let doc = TerrainDocument {
        origin: [0.0; 3],
        resolution: [5, 5],
        cell_size: 2.0,
        chunk_cells: 4,
        heights: vec![1.0; 25],
        layers: Vec::new(),
        splat: None,
        holes: Some((0..16).map(|i| (i == 5) as u8).collect()),
    };
    let file = dir.path().join("t.json");
    std::fs::write(&file, doc.to_json()).unwrap();
    let p = plan(
        &file,
        &dir.path().join("t.terrain.json"),
        &ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(p.size, [8.0, 8.0]);
    let edits = &p.document.recipe().edits;
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["type"], "hole");
    assert_eq!(edits[0]["points"], serde_json::json!([[3.0, 3.0]]));
    assert!(p.notes.iter().any(|n| n.contains("hole cells")));
}
