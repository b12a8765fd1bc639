//! `cargo xtask test`: lint, Rust tests, extension build, Godot headless tests; one summary line.

use crate::{build_and_install, cargo, godot, proc, project, repo_root, target_dir};
use anyhow::Result;
use std::time::Duration;

mod render_checks;
use render_checks::{patch_render_checks, render_check, role_render_checks, water_render_checks};
pub use render_checks::{patch_views_verb, water_views_verb};

/// Output fragments that fail a Godot run even when every test passed.
const GODOT_FAILURE_MARKERS: &[(&str, &str)] = &[
    ("SCRIPT ERROR", "a GDScript error was printed"),
    ("leaked at exit", "objects leaked at exit"),
    ("resources still in use at exit", "resources leaked at exit"),
    (
        "Can't open dynamic library",
        "the extension library failed to load",
    ),
    (
        "GDExtension dynamic library not found",
        "the extension library is missing",
    ),
    ("Error loading extension", "the extension failed to load"),
    ("Failed to load GDExtension", "the extension failed to load"),
];

#[derive(Default)]
struct Tally {
    passed: u64,
    failed: u64,
    problems: Vec<String>,
}

impl Tally {
    fn problem(&mut self, what: impl Into<String>) {
        self.failed += 1;
        self.problems.push(what.into());
    }
}

/// Runs the whole suite. Exits the process with 1 on any failure.
pub fn run(args: &[String]) -> Result<()> {
    let godot_only = args.iter().any(|a| a == "--godot-only");
    let lint = !godot_only && !args.iter().any(|a| a == "--no-lint");
    let filter = args
        .iter()
        .find_map(|a| a.strip_prefix("--filter="))
        .map(str::to_string);
    let godot = godot::locate_or_provision()?;
    eprintln!("xtask: using Godot {} from {}", godot.version, godot.origin);
    let mut tally = Tally::default();

    if !godot_only {
        eprintln!("xtask: layering check");
        match crate::layering::run(&crate::repo_root()) {
            Ok(true) => tally.passed += 1,
            Ok(false) => tally.problem("the layering check failed (an import points up a layer or forms a cycle; see above)"),
            Err(e) => tally.problem(format!("the layering check could not run: {e:#}")),
        }
    }

    if lint {
        eprintln!("xtask: cargo fmt --check");
        let ok = cargo()
            .args(["fmt", "--all", "--", "--check"])
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            tally.problem("cargo fmt --check: code is not formatted (run `cargo fmt --all`)");
        }
        eprintln!("xtask: cargo clippy --all-targets -- -D warnings");
        let ok = cargo()
            .args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--release",
                "--",
                "-D",
                "warnings",
            ])
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            tally.problem("cargo clippy reported warnings or errors");
        }
    }

    if !godot_only {
        eprintln!("xtask: Rust tests (release profile, shared with the extension build)");
        cargo_tests(
            cargo().args(["test", "--workspace", "--release", "--no-fail-fast"]),
            Duration::from_secs(1800),
            "cargo test failed (build error or crashed test binary)",
            &mut tally,
        )?;
        vendored_cell_tests(&mut tally)?;
    }

    // `--filter=editor_tests[:TEXT]` runs the editor suite alone (TEXT: a substring of
    // `file.test_name`); other filters skip it.
    let editor_filter = match filter.as_deref() {
        None => Some(""),
        Some(f) => f
            .strip_prefix("editor_tests")
            .filter(|rest| rest.is_empty() || rest.starts_with(':'))
            .map(|rest| rest.trim_start_matches(':')),
    };
    match build_and_install() {
        Ok(_) if editor_filter.is_some() && filter.is_some() => {
            editor_suite(&godot, &mut tally, editor_filter);
        }
        Ok(_) => {
            run_godot_suites(&godot, &mut tally, filter.as_deref())?;
            if editor_filter.is_some() {
                editor_suite(&godot, &mut tally, editor_filter);
            }
            if filter
                .as_deref()
                .is_none_or(|f| "editor_help".contains(f) || f.contains("editor_help"))
            {
                editor_help_check(&godot, &mut tally);
            }
            if filter.is_none() {
                render_check(&godot, &mut tally);
            }
            if filter
                .as_deref()
                .is_none_or(|f| f.contains("water") || f.contains("render"))
            {
                water_render_checks(&godot, &mut tally);
            }
            if filter
                .as_deref()
                .is_none_or(|f| f.contains("roles") || f.contains("render"))
            {
                role_render_checks(&godot, &mut tally);
            }
            if filter
                .as_deref()
                .is_none_or(|f| f.contains("patch") || f.contains("render"))
            {
                patch_render_checks(&godot, &mut tally);
            }
        }
        Err(e) => tally.problem(format!("extension build failed: {e:#}")),
    }

    for p in &tally.problems {
        eprintln!("xtask: FAILED: {p}");
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}

fn run_godot_suites(godot: &godot::Godot, tally: &mut Tally, filter: Option<&str>) -> Result<()> {
    let dir = repo_root().join("tests");
    // Cooked fixtures are made fresh (they carry the generator version).
    let generated = dir.join("fixtures/generated");
    std::fs::create_dir_all(&generated)?;
    for name in ["small", "scatter_cook", "biomes_cook", "painted_cook"] {
        if let Err(e) = crate::cook(
            &dir.join(format!("fixtures/{name}.terrain.json")),
            &generated.join(format!("{name}.terrain.bin")),
        ) {
            tally.problem(format!("the test fixture {name}: {e:#}"));
        }
    }
    if let Err(e) = project::import(godot, &dir) {
        tally.problem(format!("Godot import of tests/ failed: {e:#}"));
        return Ok(());
    }
    eprintln!("xtask: Godot headless tests");
    // Generated terrains are cached per run, outside the project, starting cold.
    let dev_cache = crate::target_dir().join("godot-test-cache");
    let _ = std::fs::remove_dir_all(&dev_cache);
    let mut cmd = godot.command();
    cmd.env("RIDGELINE_CACHE_DIR", &dev_cache);
    cmd.arg("--headless")
        .arg("--path")
        .arg(&dir)
        .arg("--script")
        .arg("res://runner.gd");
    if let Some(f) = filter {
        cmd.arg("--").arg(format!("--filter={f}"));
    }
    let out = proc::run_captured(&mut cmd, Duration::from_secs(900), "  godot| ", false)?;
    judge_godot_run(&out, tally);
    if filter.is_none() {
        jolt_physics_run(godot, &dev_cache, tally)?;
        export_check(godot, &dev_cache, tally)?;
    }
    Ok(())
}

/// Runs the physics tests again with Jolt Physics (tests/ uses Godot Physics by default) through
/// a temporary `override.cfg`.
fn jolt_physics_run(
    godot: &godot::Godot,
    dev_cache: &std::path::Path,
    tally: &mut Tally,
) -> Result<()> {
    let dir = repo_root().join("tests");
    let override_cfg = dir.join("override.cfg");
    std::fs::write(
        &override_cfg,
        "[physics]\n\n3d/physics_engine=\"Jolt Physics\"\n",
    )?;
    eprintln!("xtask: physics tests again with Jolt Physics");
    let mut cmd = godot.command();
    cmd.env("RIDGELINE_CACHE_DIR", dev_cache)
        .arg("--headless")
        .arg("--path")
        .arg(&dir)
        .arg("--script")
        .arg("res://runner.gd")
        .arg("--")
        .arg("--filter=physics");
    let out = proc::run_captured(&mut cmd, Duration::from_secs(300), "  jolt| ", false);
    let _ = std::fs::remove_file(&override_cfg);
    judge_godot_run(&out?, tally);
    Ok(())
}

/// Exports tests/ as a pack (the export plugin cooks every `*.terrain.json`) and checks, in a
/// separate Godot run, that the pack's assets load as cooked payloads.
fn export_check(
    godot: &godot::Godot,
    dev_cache: &std::path::Path,
    tally: &mut Tally,
) -> Result<()> {
    let dir = repo_root().join("tests");
    let out_dir = crate::target_dir().join("export-test");
    std::fs::create_dir_all(&out_dir)?;
    let pack = out_dir.join("tests.pck");
    let _ = std::fs::remove_file(&pack);
    eprintln!("xtask: exporting tests/ as a pack (cooks terrain assets)");
    let mut cmd = godot.command();
    cmd.env("RIDGELINE_CACHE_DIR", dev_cache)
        .arg("--headless")
        .arg("--path")
        .arg(&dir)
        .arg("--export-pack")
        .arg("Linux")
        .arg(&pack);
    let exported = proc::run_captured(&mut cmd, Duration::from_secs(300), "  export| ", true)?;
    if !pack.exists()
        || !exported
            .text
            .contains("Ridgeline: cooked res://fixtures/lakes.terrain.json")
    {
        tally.problem(format!(
            "export of tests/ did not cook the terrain assets:\n{}",
            exported.text
        ));
        return Ok(());
    }
    let mut cmd = godot.command();
    cmd.arg("--headless")
        .arg("--path")
        .arg(&dir)
        .arg("--script")
        .arg("res://export/check_pack.gd")
        .arg("--")
        .arg(&pack);
    let checked = proc::run_captured(&mut cmd, Duration::from_secs(120), "  export| ", false)?;
    if checked.success()
        && checked.text.contains("PASS export::")
        && !checked.text.contains("SCRIPT ERROR")
    {
        tally.passed += 1;
        println!("PASS export::cooked_assets_in_an_exported_pack");
    } else {
        tally.problem("the exported pack's terrain assets did not load as cooked payloads");
    }
    Ok(())
}

/// Every registered class and public member has a description in Godot's editor help (see
/// `editor_help.rs`); one test per class.
fn editor_help_check(godot: &godot::Godot, tally: &mut Tally) {
    eprintln!("xtask: editor help (doctool skeleton + the help pages a headless editor shows)");
    match crate::editor_help::check(godot) {
        Ok(report) => {
            for (class, problems) in report {
                if problems.is_empty() {
                    tally.passed += 1;
                    println!("PASS editor_help::{class}");
                } else {
                    println!("FAIL editor_help::{class}: {}", problems.join("; "));
                    tally.problem(format!("editor help of {class}: {}", problems.join("; ")));
                }
            }
        }
        Err(e) => tally.problem(format!("editor help check failed: {e:#}")),
    }
}

/// The editor suite (`tests_editor/`, see `editor_tests`).
fn editor_suite(godot: &godot::Godot, tally: &mut Tally, filter: Option<&str>) {
    match crate::editor_tests::run(godot, filter) {
        Ok(out) => judge_godot_run(&out, tally),
        Err(e) => tally.problem(format!("the editor tests could not run: {e:#}")),
    }
}

fn judge_godot_run(out: &proc::Captured, tally: &mut Tally) {
    // The runners print `FAIL name: why`; repeat them here, where a long log cannot bury them.
    for line in out.text.lines() {
        if let Some(i) = line.find("FAIL ") {
            println!("{}", &line[i..]);
        }
    }
    match parse_summary(&out.text) {
        Some((p, f)) => {
            tally.passed += p;
            tally.failed += f;
        }
        None => {
            tally.problem("the Godot test runner printed no summary (crash, hang or load failure)")
        }
    }
    if out.status.is_none() {
        tally.problem("Godot was killed after the timeout");
    } else if !out.success() {
        tally.problem(format!("Godot exited with {:?}", out.status));
    }
    for (marker, why) in GODOT_FAILURE_MARKERS {
        if out.text.contains(marker) {
            tally.problem(format!("Godot output contains `{marker}`: {why}"));
        }
    }
}

/// Sums `test result: … N passed; M failed; …` lines of `cargo test`.
fn parse_cargo_results(text: &str) -> (u64, u64) {
    let mut passed = 0;
    let mut failed = 0;
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            continue;
        };
        for part in rest.split([';', '.']) {
            let mut words = part.split_whitespace();
            if let (Some(n), Some(kind)) = (words.next(), words.next())
                && let Ok(n) = n.parse::<u64>()
            {
                match kind {
                    "passed" => passed += n,
                    "failed" => failed += n,
                    _ => {}
                }
            }
        }
    }
    (passed, failed)
}

/// Finds the Godot runner's last `N passed, N failed` line.
fn parse_summary(text: &str) -> Option<(u64, u64)> {
    text.lines().rev().find_map(|line| {
        let line = line.trim();
        let (p, rest) = line.split_once(" passed, ")?;
        let f = rest.strip_suffix(" failed")?;
        Some((p.trim().parse().ok()?, f.trim().parse().ok()?))
    })
}

/// Upstream's tests of the patched `godot-cell` (vendor/godot-cell/RIDGELINE.md), including its
/// parallel blocking-borrow tests; a package of its own, built in its own target directory.
fn vendored_cell_tests(tally: &mut Tally) -> Result<()> {
    eprintln!("xtask: tests of the patched godot-cell (vendor/godot-cell)");
    cargo_tests(
        cargo()
            .args(["test", "--release", "--no-fail-fast", "--manifest-path"])
            .arg(repo_root().join("vendor/godot-cell/Cargo.toml"))
            .arg("--target-dir")
            .arg(target_dir().join("vendor-godot-cell")),
        Duration::from_secs(600),
        "the patched godot-cell's tests failed to build or crashed",
        tally,
    )
}

/// Runs a `cargo test` command and adds its results to the tally; `crashed` is the problem
/// reported when it fails without a failing test (a build error, a crashed test binary).
fn cargo_tests(
    cmd: &mut std::process::Command,
    timeout: Duration,
    crashed: &str,
    tally: &mut Tally,
) -> Result<()> {
    let out = proc::run_captured(cmd, timeout, "", false)?;
    let (p, f) = parse_cargo_results(&out.text);
    tally.passed += p;
    tally.failed += f;
    if !out.success() && f == 0 {
        tally.problem(crashed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_cargo_results() {
        let text = "running 3 tests\n\
            test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
            test result: FAILED. 5 passed; 2 failed; 1 ignored; 0 measured; 0 filtered out\n";
        assert_eq!(parse_cargo_results(text), (8, 2));
    }

    #[test]
    fn finds_last_runner_summary() {
        let text = "PASS a\n1 passed, 0 failed\nmore\n4 passed, 1 failed\nbye\n";
        assert_eq!(parse_summary(text), Some((4, 1)));
        assert_eq!(parse_summary("nothing here"), None);
    }

    #[test]
    fn script_errors_fail_a_clean_run() {
        let out = proc::Captured {
            status: None,
            text: "SCRIPT ERROR: Parse Error\n3 passed, 0 failed\n".into(),
        };
        let mut tally = Tally::default();
        judge_godot_run(&out, &mut tally);
        assert_eq!(tally.passed, 3);
        assert_eq!(tally.failed, 2, "{:?}", tally.problems);
    }
}
