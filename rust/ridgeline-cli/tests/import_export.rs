//! `ridgeline import` / `export` through the binary: export → import → export is byte-identical
//! for every format, and bad input is a located error with exit code 1.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use std::path::Path;
use std::process::Command;

fn ridgeline(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ridgeline"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().unwrap_or(-1), stderr)
}

const SOURCE: &str = r#"{"format_version":1,"id":"asset://t","recipe":{"size":[100,60],"resolution":[50,30],"seed":5,
  "edits":[{"type":"raise","center":[40,30],"radius":12,"amount":6}]}}"#;

#[test]
fn export_import_export_is_byte_identical_for_every_format() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("src.terrain.json"), SOURCE).unwrap();
    for (format, ext, extra) in [
        ("png16", "png", None),
        ("r16", "r16", Some("--raw-size")),
        ("r32", "r32", Some("--raw-size")),
        ("terrain-json", "json", None),
    ] {
        let first = format!("first.{ext}");
        let (code, err) = ridgeline(
            p,
            &[
                "export",
                "src.terrain.json",
                "--format",
                format,
                "--out",
                &first,
            ],
        );
        assert_eq!(code, 0, "{err}");
        let mut args = vec!["import", first.as_str(), "--out", "back.terrain.json"];
        // R16 carries no range: the export says which one to import with.
        let range = err
            .split("--height-range ")
            .nth(1)
            .map(|r| {
                r.trim_end_matches(|c: char| c == ')' || c.is_whitespace())
                    .to_string()
            })
            .unwrap_or_default();
        if format == "r16" {
            args.extend(["--height-range", range.as_str()]);
        }
        if extra.is_some() {
            args.extend(["--raw-size", "51,31"]);
        }
        if format != "terrain-json" {
            args.extend(["--size", "100,60"]);
        }
        let (code, err) = ridgeline(p, &args);
        assert_eq!(code, 0, "{format}: {err}");
        let second = format!("second.{ext}");
        let mut args = vec![
            "export",
            "back.terrain.json",
            "--format",
            format,
            "--out",
            &second,
        ];
        if format == "r16" {
            args.extend(["--height-range", range.as_str()]);
        }
        let (code, err) = ridgeline(p, &args);
        assert_eq!(code, 0, "{err}");
        let (a, b) = (
            std::fs::read(p.join(&first)).unwrap(),
            std::fs::read(p.join(&second)).unwrap(),
        );
        assert!(
            a == b,
            "{format}: export → import → export changed the bytes"
        );
    }
    // The imported asset names the file relative to itself.
    let text = std::fs::read_to_string(p.join("back.terrain.json")).unwrap();
    assert!(text.contains("\"file\": \"first.json\""), "{text}");
}

#[test]
fn terrain_json_holes_import_as_a_hole_stroke_and_export_back_identically() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let source = r#"{"format_version":1,"id":"asset://t","recipe":{"size":[100,60],"resolution":[50,30],"seed":5,"chunk_cells":10,
      "edits":[{"type":"hole","points":[[41,31],[47,31]],"radius":3},{"type":"hole","mode":"erase","center":[44,31],"radius":1}]}}"#;
    std::fs::write(p.join("src.terrain.json"), source).unwrap();
    let export = |from: &str, out: &str| {
        let (code, err) = ridgeline(
            p,
            &["export", from, "--format", "terrain-json", "--out", out],
        );
        assert_eq!(code, 0, "{err}");
        std::fs::read(p.join(out)).unwrap()
    };
    let first = export("src.terrain.json", "first.json");
    let doc: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert!(doc["holes"].is_string(), "the export writes holes");
    let (code, err) = ridgeline(p, &["import", "first.json", "--out", "back.terrain.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("hole cells imported as a hole stroke"),
        "{err}"
    );
    let asset: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p.join("back.terrain.json")).unwrap())
            .unwrap();
    let edits = asset["recipe"]["edits"].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["type"], "hole");
    assert!(edits[0]["points"].as_array().unwrap().len() > 4);
    let second = export("back.terrain.json", "second.json");
    assert!(
        first == second,
        "export → import → export changed the bytes (holes)"
    );
}

#[test]
fn bad_imports_are_located_errors() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("bad.png"), b"\x89PNG\r\n\x1a\nnope").unwrap();
    let (code, err) = ridgeline(p, &["import", "bad.png", "--out", "x.terrain.json"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.png") && err.contains("not a readable PNG"),
        "{err}"
    );
    assert!(!p.join("x.terrain.json").exists());
    let (code, err) = ridgeline(p, &["import", "missing.png", "--out", "x.terrain.json"]);
    assert_eq!(code, 1);
    assert!(err.contains("missing.png"), "{err}");
    std::fs::write(p.join("odd.r16"), [0u8; 30]).unwrap();
    let (code, err) = ridgeline(p, &["import", "odd.r16", "--out", "x.terrain.json"]);
    assert_eq!(code, 1);
    assert!(err.contains("--raw-size"), "{err}");
    let (code, err) = ridgeline(p, &["import", "bad.png", "--out", "x.json"]);
    assert_eq!(code, 1);
    assert!(err.contains(".terrain.json"), "{err}");
    // Outside the asset's project: refused, with the reason.
    let proj = p.join("proj");
    std::fs::create_dir_all(&proj).unwrap();
    std::fs::write(proj.join("project.godot"), "").unwrap();
    std::fs::write(p.join("src.terrain.json"), SOURCE).unwrap();
    let (code, _) = ridgeline(
        p,
        &[
            "export",
            "src.terrain.json",
            "--format",
            "png16",
            "--out",
            "o.png",
        ],
    );
    assert_eq!(code, 0);
    let (code, err) = ridgeline(p, &["import", "o.png", "--out", "proj/t.terrain.json"]);
    assert_eq!(code, 1);
    assert!(err.contains("outside the project"), "{err}");
}

#[test]
fn terrain_json_layers_and_splat_are_kept_through_import_and_export() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("src.terrain.json"), SOURCE).unwrap();
    let (code, err) = ridgeline(
        p,
        &[
            "export",
            "src.terrain.json",
            "--format",
            "terrain-json",
            "--out",
            "plain.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    // A seed-002 file from another tool: two texture layers and RGBA splat weights per vertex.
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p.join("plain.json")).unwrap()).unwrap();
    let samples = 51 * 31;
    let splat: Vec<u8> = (0..samples * 4).map(|i| (i * 53 % 251) as u8).collect();
    use base64::Engine as _;
    let splat_b64 = base64::engine::general_purpose::STANDARD.encode(&splat);
    let layers = serde_json::json!([
        {"material": "grass", "tile": 128.0, "detile": 0.25, "detile_sharpen": 0.5},
        {"material": "rock", "tile": 64.0, "detile": 0.0, "detile_sharpen": 0.75}
    ]);
    doc["layers"] = layers.clone();
    doc["splat"] = serde_json::Value::from(splat_b64.clone());
    std::fs::write(p.join("painted.json"), doc.to_string()).unwrap();
    let (code, err) = ridgeline(
        p,
        &["import", "painted.json", "--out", "painted.terrain.json"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("imported as biomes"), "{err}");
    let export = |from: &str, out: &str| {
        let (code, err) = ridgeline(
            p,
            &["export", from, "--format", "terrain-json", "--out", out],
        );
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("keeping the texture layers"), "{err}");
        std::fs::read(p.join(out)).unwrap()
    };
    let first = export("painted.terrain.json", "first.json");
    let back: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(
        back["splat"],
        serde_json::Value::from(splat_b64),
        "splat unchanged"
    );
    assert_eq!(back["layers"], layers, "layers unchanged");
    let (code, err) = ridgeline(p, &["import", "first.json", "--out", "again.terrain.json"]);
    assert_eq!(code, 0, "{err}");
    let second = export("again.terrain.json", "second.json");
    assert!(
        first == second,
        "export → import → export changed the bytes (splat)"
    );
}

#[test]
fn resolved_biomes_are_exported_as_layers_and_imported_as_regions() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let src = r#"{"format_version":1,"id":"asset://b","recipe":{"size":[40,40],"resolution":[40,40],"seed":2,
      "biomes":{"grass":{"color":[0.3,0.5,0.2,1]},"rock":{"color":[0.5,0.5,0.5,1],"material":"res://ground/rock.tres","texture_scale":2}},
      "default_biome":"grass",
      "regions":[{"type":"region","biome":"rock","center":[10,30],"radius":6}]}}"#;
    std::fs::write(p.join("b.terrain.json"), src).unwrap();
    let (code, err) = ridgeline(
        p,
        &[
            "export",
            "b.terrain.json",
            "--format",
            "terrain-json",
            "--out",
            "b.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("resolved biomes as texture layers: grass, rock"),
        "{err}"
    );
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p.join("b.json")).unwrap()).unwrap();
    assert_eq!(doc["layers"][0]["material"], "grass");
    assert_eq!(doc["layers"][1]["material"], "res://ground/rock.tres");
    assert_eq!(doc["layers"][1]["tile"], 128.0);
    use base64::Engine as _;
    let splat = base64::engine::general_purpose::STANDARD
        .decode(doc["splat"].as_str().unwrap())
        .unwrap();
    let at = |x: usize, z: usize| &splat[(z * 41 + x) * 4..(z * 41 + x) * 4 + 4];
    assert_eq!(at(10, 30), [0, 255, 0, 0], "inside the painted region");
    assert_eq!(at(30, 10), [255, 0, 0, 0], "default biome");
    let (code, err) = ridgeline(p, &["import", "b.json", "--out", "back.terrain.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("imported as biomes (grass, rock)"), "{err}");
    let back: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p.join("back.terrain.json")).unwrap()).unwrap();
    assert_eq!(back["recipe"]["default_biome"], "grass");
    assert_eq!(
        back["recipe"]["biomes"]["rock"]["material"],
        "res://ground/rock.tres"
    );
    assert_eq!(back["recipe"]["regions"][0]["biome"], "rock");
}

#[test]
fn a_height_range_for_a_format_that_ignores_it_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("src.terrain.json"), SOURCE).unwrap();
    for (format, out) in [("r32", "h.r32"), ("terrain-json", "h.json")] {
        let (code, err) = ridgeline(
            p,
            &[
                "export",
                "src.terrain.json",
                "--format",
                format,
                "--out",
                out,
                "--height-range",
                "0,100",
            ],
        );
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("--height-range applies to png16 and r16 only"),
            "{err}"
        );
        assert!(!p.join(out).exists(), "nothing written");
    }
}

#[test]
fn apply_preset_takes_an_asset_or_a_scene_not_both() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("src.terrain.json"), SOURCE).unwrap();
    let before = std::fs::read(p.join("src.terrain.json")).unwrap();
    let (code, err) = ridgeline(
        p,
        &[
            "apply-preset",
            ".",
            "--preset",
            "builtin://terrain/coastal-island",
            "--asset",
            "src.terrain.json",
            "--scene",
            "main.tscn",
        ],
    );
    assert_eq!(code, 2, "a usage error: {err}");
    assert!(err.contains("cannot be used with"), "{err}");
    assert_eq!(std::fs::read(p.join("src.terrain.json")).unwrap(), before);
}
