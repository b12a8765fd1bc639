//! `ridgeline layers export|import` through the binary: export → import → export is
//! byte-identical, only changed files are written, an import saves patch strokes into the
//! asset, and a bad file is a located error (exit code 1) that writes nothing.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use std::path::Path;
use std::process::Command;

fn ridgeline(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ridgeline"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

const SOURCE: &str = r#"{"format_version":1,"id":"asset://t","recipe":{"size":[40,30],"resolution":[40,30],"seed":5,
  "edits":[{"type":"raise","center":[20,15],"radius":8,"amount":6},
           {"type":"paint_water","center":[10,10],"radius":4,"depth":2}],
  "regions":[{"type":"user_channel","channel":1,"value":0.5,"radius":5,"center":[30,20]},
             {"type":"paint_surface","surface":"rock","radius":4,"center":[8,22]}]}}"#;

const NAMES: [&str; 9] = [
    "heightmap.png",
    "surface.png",
    "splat-0.png",
    "splat-1.png",
    "splat-2.png",
    "user.png",
    "water.png",
    "foliage-0.png",
    "foliage-1.png",
];

fn files(dir: &Path) -> Vec<Vec<u8>> {
    NAMES
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect()
}

#[test]
fn layer_export_import_export_is_byte_identical() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("src.terrain.json"), SOURCE).unwrap();
    let (code, out, err) = ridgeline(p, &["layers", "export", "src.terrain.json", "--dir", "L"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("written ").count(), 10, "{out}");
    assert!(err.contains("10 of 10 files written"), "{err}");
    let first = files(&p.join("L"));
    // Again: nothing changed, nothing written.
    let (code, out, _) = ridgeline(p, &["layers", "export", "src.terrain.json", "--dir", "L"]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("unchanged ").count(), 10, "{out}");
    // A bare asset takes the layers from the files, saved as strokes.
    let bare = r#"{"format_version":1,"id":"asset://t","recipe":{"size":[40,30],"resolution":[40,30],"seed":5}}"#;
    std::fs::write(p.join("bare.terrain.json"), bare).unwrap();
    let (code, out, err) = ridgeline(
        p,
        &[
            "layers",
            "import",
            "bare.terrain.json",
            "--dir",
            "L",
            "-o",
            "back.terrain.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("changed heightmap.png") && out.contains("changed user.png"),
        "{out}"
    );
    let saved = std::fs::read_to_string(p.join("back.terrain.json")).unwrap();
    for ty in ["height_patch", "water_patch", "paint_patch"] {
        assert!(saved.contains(ty), "{ty} in {saved}");
    }
    assert_eq!(
        std::fs::read_to_string(p.join("bare.terrain.json")).unwrap(),
        bare
    );
    // Its layers export to the same bytes.
    let (code, out, err) = ridgeline(p, &["layers", "export", "back.terrain.json", "--dir", "L"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("unchanged ").count(), 10, "{out}");
    assert_eq!(files(&p.join("L")), first);
    let (code, _, err) = ridgeline(p, &["layers", "export", "back.terrain.json", "--dir", "M"]);
    assert_eq!(code, 0, "{err}");
    // Importing the same folder again changes nothing.
    let (code, _, err) = ridgeline(p, &["layers", "import", "back.terrain.json", "--dir", "L"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("already match"), "{err}");
    assert_eq!(
        std::fs::read_to_string(p.join("back.terrain.json")).unwrap(),
        saved
    );
}

#[test]
fn a_bad_layer_file_is_a_located_error_that_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("src.terrain.json"), SOURCE).unwrap();
    let (code, _, err) = ridgeline(
        p,
        &[
            "layers",
            "export",
            "src.terrain.json",
            "--dir",
            "L",
            "--layers",
            "user,water",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(p.join("L/user.png").is_file() && !p.join("L/heightmap.png").exists());
    std::fs::write(p.join("L/water.png"), b"\x89PNG\r\n\x1a\nbroken").unwrap();
    let (code, _, err) = ridgeline(p, &["layers", "import", "src.terrain.json", "--dir", "L"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("water.png") && err.contains("not a readable PNG"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(p.join("src.terrain.json")).unwrap(),
        SOURCE
    );
    let (code, _, err) = ridgeline(
        p,
        &[
            "layers",
            "export",
            "src.terrain.json",
            "--dir",
            "L",
            "--layers",
            "user,snow",
        ],
    );
    assert_eq!(code, 1);
    assert!(err.contains("--layers: names no layer `snow`"), "{err}");
}
