//! Issue 11 reproducers through the `ridgeline` binary: nothing panics, nothing hangs, no file is
//! lost or overwritten through a link.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    code: Option<i32>,
    stderr: String,
}

/// Runs `ridgeline args…`, killing it after 60 s (a hang fails the test instead of blocking it).
fn ridgeline(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ridgeline"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ridgeline binary starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`ridgeline {}` hung", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let run = Run {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("internal error"),
        "`ridgeline {}` panicked: {}",
        args.join(" "),
        run.stderr
    );
    run
}

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// An asset with two mergeable raise stamps (so `compact --write` rewrites it).
const COMPACTABLE: &str = r#"{"format_version": 1, "id": "asset://t", "recipe": {
    "size": [32, 32], "resolution": [16, 16], "seed": 3,
    "edits": [{"type": "raise", "radius": 3, "center": [5, 5]},
              {"type": "raise", "radius": 3, "center": [6, 5]}]}}"#;

fn asset(d: &Path, name: &str, text: &str) -> PathBuf {
    let p = d.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn a_long_multibyte_string_in_a_wrong_type_field_is_a_located_error() {
    let d = dir();
    let f = asset(
        d.path(),
        "seed.json",
        &format!(r#"{{"seed": "{}"}}"#, "ä".repeat(60)),
    );
    let r = ridgeline(&["inspect", s(&f)]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("seed: must be a whole number"),
        "{}",
        r.stderr
    );
}

#[test]
fn duplicate_keys_are_refused_with_line_column_and_path() {
    let d = dir();
    let f = asset(
        d.path(),
        "dup.terrain.json",
        "{\"format_version\": 1, \"id\": \"asset://t\",\n \"recipe\": {\"size\": [8, 8]},\n \"recipe\": {}}",
    );
    let r = ridgeline(&["inspect", s(&f)]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.contains("dup.terrain.json:3:") && r.stderr.contains("duplicate key \"recipe\""),
        "{}",
        r.stderr
    );
}

#[cfg(unix)]
#[test]
fn compact_write_never_follows_a_planted_temporary_link() {
    let d = dir();
    let project = d.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let victim = asset(d.path(), "victim", "precious");
    let f = asset(&project, "x.terrain.json", COMPACTABLE);
    std::os::unix::fs::symlink("../victim", project.join("x.terrain.json.tmp")).unwrap();
    let r = ridgeline(&["compact", s(&f), "--write"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(
        !std::fs::symlink_metadata(&f)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.contains("\"points\""), "compacted: {text}");
}

#[cfg(unix)]
#[test]
fn compact_write_updates_a_symlinked_asset_through_its_link_and_refuses_read_only_ones() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir();
    let real = asset(d.path(), "real.terrain.json", COMPACTABLE);
    let link = d.path().join("link.terrain.json");
    std::os::unix::fs::symlink("real.terrain.json", &link).unwrap();
    let r = ridgeline(&["compact", s(&link), "--write"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("\"points\"")
    );

    let locked = asset(d.path(), "locked.terrain.json", COMPACTABLE);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let r = ridgeline(&["compact", s(&locked), "--write"]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("read-only"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&locked).unwrap(), COMPACTABLE);
}

/// A recipe with one stroke whose brush mask is `mask`.
fn with_mask(mask: &str) -> String {
    format!(
        r#"{{"size": [16, 16], "resolution": [8, 8], "edits": [{{"type": "raise", "radius": 3, "center": [8, 8], "mask": "{mask}"}}]}}"#
    )
}

#[cfg(unix)]
#[test]
fn referenced_masks_never_hang_exhaust_memory_or_leave_the_project() {
    let d = dir();
    std::fs::write(d.path().join("project.godot"), "").unwrap();
    let out = d.path().join("out");
    let fifo = d.path().join("pipe.png");
    let fifo_made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut cases = vec![
        ("/dev/zero", "absolute paths are not allowed"),
        ("../../etc/passwd", "points outside the project"),
    ];
    if fifo_made {
        cases.push(("pipe.png", "not a regular file"));
    }
    for (mask, needle) in cases {
        let f = asset(d.path(), "m.terrain.json", &with_mask(mask));
        let started = Instant::now();
        let r = ridgeline(&["generate", s(&f), "--out", s(&out)]);
        assert_eq!(r.code, Some(1), "{mask}: {}", r.stderr);
        assert!(
            r.stderr.contains("mask") && r.stderr.contains(needle),
            "{mask}: {}",
            r.stderr
        );
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{mask} took too long"
        );
    }
    if fifo_made {
        // The document itself may be a FIFO too.
        let r = ridgeline(&["inspect", s(&fifo)]);
        assert_eq!(r.code, Some(1));
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    }
}

/// Lowest and highest height of a `generate` run's report.
fn height_range(d: &Path, recipe: &str, name: &str) -> (f64, f64) {
    let f = asset(d, &format!("{name}.json"), recipe);
    let out = d.join(name);
    let r = ridgeline(&["generate", s(&f), "--out", s(&out)]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    (
        report["height"]["min"].as_f64().unwrap(),
        report["height"]["max"].as_f64().unwrap(),
    )
}

#[test]
fn erosion_on_a_small_grid_stays_within_its_input_heights() {
    // Issue 11: heights down to −5.6 million from this recipe at Final.
    let d = dir();
    let graph = |eroded: bool| {
        format!(
            r#"{{"size":[64,64],"resolution":[32,32],"seed":1,"graph":{{"format_version":1,"output":"out","nodes":[
            {{"id":"a","type":"noise_terrain"}},{{"id":"e","type":"erosion","inputs":{{"field":"a"}}}},
            {{"id":"out","type":"terrain_output","inputs":{{"heightfield":"{}"}}}}]}}}}"#,
            if eroded { "e" } else { "a" }
        )
    };
    let (lo, hi) = height_range(d.path(), &graph(false), "input");
    let (elo, ehi) = height_range(d.path(), &graph(true), "eroded");
    assert!(
        elo >= lo && ehi <= hi,
        "eroded {elo}..{ehi} from {lo}..{hi}"
    );
}
