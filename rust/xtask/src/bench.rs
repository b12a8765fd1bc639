//! `cargo xtask bench [--quick] [--only=TEXT]`: every benchmark, one
//! `bench <id> ours=… peer=… ratio=… unit=…` line per measure.
//!
//! Order: the Godot benchmark scripts of [`SCRIPTS`] run first, in table order (headless,
//! rendered under Xvfb, or in a real editor); `tests/bench/peers.gd` also prints
//! `peer <id> <value>` lines, the Godot-side peers of the Rust benchmarks. The core benchmark
//! binary (`rust/ridgeline-core/benches/core.rs`) then runs with those peers in
//! `RIDGELINE_BENCH_PEERS` and prints the combined lines. Everything happens in one run.

use crate::{build_and_install, cargo, godot, proc, project, repo_root};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How a benchmark script runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runner {
    /// `tests/bench/<name>.gd` in headless Godot.
    Headless,
    /// `tests/bench/<name>.gd` rendered under Xvfb (OpenGL 3, 1280 × 720).
    Rendered,
    /// The editor test cases (`tests_editor/`) matching this filter, in a real editor.
    Editor(&'static str),
}

/// One Godot benchmark script.
struct Script {
    /// `tests/bench/<name>.gd` (for [`Runner::Editor`], a name for messages).
    name: &'static str,
    /// The ids of the `bench` lines it prints: what `--only` matches, and the lines kept.
    ids: &'static [&'static str],
    runner: Runner,
    /// Prefixes of its informational lines, echoed to stderr.
    echo: &'static [&'static str],
    /// `tests/bench/<fixture>.terrain.json` cooked into `tests/fixtures/generated/` first (made
    /// fresh: a cooked terrain carries the generator version).
    fixtures: &'static [&'static str],
    /// Godot arguments besides `--path` and `--script`.
    args: &'static [&'static str],
    /// How long one run may take (the editor runs keep the editor tests' own limit).
    timeout_s: u64,
}

impl Script {
    /// A script run by `runner`, without fixtures or extra arguments, given 600 s.
    const fn new(
        name: &'static str,
        ids: &'static [&'static str],
        runner: Runner,
        echo: &'static [&'static str],
    ) -> Self {
        Self {
            name,
            ids,
            runner,
            echo,
            fixtures: &[],
            args: &[],
            timeout_s: 600,
        }
    }

    const fn fixtures(self, fixtures: &'static [&'static str]) -> Self {
        Self { fixtures, ..self }
    }

    const fn args(self, args: &'static [&'static str]) -> Self {
        Self { args, ..self }
    }

    const fn timeout_s(self, timeout_s: u64) -> Self {
        Self { timeout_s, ..self }
    }
}

/// Every Godot benchmark script, in the order a full run takes them.
const SCRIPTS: &[Script] = &[
    Script::new(
        "peers",
        &[
            "godot_load_cooked_1km",
            "godot_memory_1km_headless",
            "godot_get_height_call",
            "godot_empty_call",
            "godot_surface_query",
            "godot_get_heights_batch",
            "godot_raycast",
            "stroke_godot_20m",
        ],
        Runner::Headless,
        &["memory ", "calls: ", "calls (raw"],
    )
    .fixtures(&["one_km"])
    .timeout_s(1200),
    // Compares against Jolt Physics, selected for this run through a temporary override.cfg
    // (tests/ uses Godot Physics): see `run_with_jolt`.
    Script::new(
        "raycast_fast",
        &["godot_raycast_fast", "godot_raycast_into"],
        Runner::Headless,
        &["raycast fast:"],
    ),
    Script::new(
        "water",
        &[
            "godot_water_sample",
            "godot_water_sample_into",
            "buoyancy_1000_bodies",
        ],
        Runner::Headless,
        &["water bench:"],
    ),
    // On the demo's river valley (`--demo=…`, see `script_command`).
    Script::new("water_edit", &["stroke_water_demo"], Runner::Headless, &[]),
    // Three loads in fresh processes, the median kept, their lines echoed for each run: see
    // `large_world_median`.
    Script::new(
        "large_world",
        &["godot_load_cooked_4km", "godot_memory_4km"],
        Runner::Headless,
        &[],
    )
    .fixtures(&["four_km"]),
    Script::new(
        "render_world",
        &[
            "godot_memory_1km",
            "godot_memory_1km_first",
            "godot_memory_1km_mesh",
            "godot_frame_cpu_4km",
        ],
        Runner::Rendered,
        &["render world"],
    )
    .fixtures(&["one_km", "four_km"])
    .timeout_s(900),
    Script::new(
        "runtime_writes",
        &[
            "godot_set_heights_64",
            "godot_user_channel_tick",
            "godot_user_channel_query",
        ],
        Runner::Headless,
        &["runtime writes:"],
    ),
    Script::new(
        "lod_primitives",
        &["godot_lod_primitives", "godot_lod_primitives_gpu"],
        Runner::Rendered,
        &["lod primitives:", "lod accuracy:", "stroke rendered:"],
    )
    .fixtures(&["one_km"]),
    // The realistic shader against the tint shader on the shader lab's valley, same view.
    Script::new(
        "shader_cost",
        &["godot_shader_cost"],
        Runner::Rendered,
        &["shader cost:"],
    )
    .args(&["--resolution", "1280x720"])
    .timeout_s(900),
    // Rendered, so MultiMesh uploads reach the GPU.
    Script::new(
        "scatter",
        &[
            "foliage_chunk_build",
            "foliage_thinning_frame",
            "godot_scatter_memory",
        ],
        Runner::Rendered,
        &["scatter:"],
    ),
    // The Terrain Graph workspace in a real editor (tests_editor/cases/test_graph.gd).
    Script::new(
        "graph_ui",
        &["graph_ui_build_100"],
        Runner::Editor("test_graph.test_graph_ui_build_100"),
        &[],
    ),
    // Brush ticks and undo in a real editor (tests_editor/cases/test_bench_edit.gd).
    Script::new(
        "editor",
        &[
            "editor_stroke_tick_20m",
            "editor_stroke_tick_128m",
            "editor_undo_stroke_128m",
        ],
        Runner::Editor("test_bench_edit."),
        &[],
    ),
];

/// Runs every benchmark (with `--only=TEXT`, only the Godot benchmark scripts that print an
/// id containing TEXT, and only those ids' lines).
pub fn run(args: &[String]) -> Result<()> {
    let quick = args.iter().any(|a| a == "--quick");
    if let Some(text) = args.iter().find_map(|a| a.strip_prefix("--only=")) {
        return run_only(text, quick);
    }
    let mut peers = Vec::new();
    let mut lines = Vec::new();
    match godot::locate_or_provision() {
        Ok(godot) => {
            let dir = repo_root().join("tests");
            let rendering = godot::ensure_host_tool("xvfb-run", &["xvfb", "xauth"])
                .and_then(|_| godot.render_command(1280, 720).map(drop));
            if let Err(e) = &rendering {
                eprintln!("xtask: skipping the rendered benchmarks (no renderer): {e:#}");
            }
            let scripts: Vec<&Script> = SCRIPTS
                .iter()
                .filter(|s| s.runner != Runner::Rendered || rendering.is_ok())
                .collect();
            let texts = run_scripts(&godot, &dir, &scripts, quick)?;
            for (script, text) in scripts.iter().zip(&texts) {
                lines.extend(bench_lines(script, text, ""));
                if script.name == "peers" {
                    peers.extend(peer_values(text));
                }
            }
        }
        Err(e) => eprintln!("xtask: no Godot, so Godot peers are missing: {e:#}"),
    }

    let mut cmd = cargo();
    cmd.args(["bench", "-p", "ridgeline-core", "--bench", "core", "--"]);
    if quick {
        cmd.arg("--quick");
    }
    cmd.env("RIDGELINE_BENCH_PEERS", peers.join(";"));
    let out = proc::run_captured(&mut cmd, Duration::from_secs(1800), "", true)?;
    if !out.success() {
        eprintln!("{}", out.text);
        bail!("the core benchmarks failed");
    }
    for line in out.text.lines().filter(|l| l.starts_with("bench ")) {
        println!("{line}");
    }
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

/// `bench --only=TEXT`: the Godot benchmark scripts that print an id containing `text`; their
/// `bench` lines (filtered by `text`) are printed. Peer and Rust benchmarks are not run (the
/// Rust ones have `RIDGELINE_BENCH_ONLY`).
fn run_only(text: &str, quick: bool) -> Result<()> {
    let picked: Vec<&Script> = SCRIPTS
        .iter()
        .filter(|s| s.ids.iter().any(|id| id.contains(text)))
        .collect();
    if picked.is_empty() {
        let ids: Vec<&str> = SCRIPTS.iter().flat_map(|s| s.ids.iter().copied()).collect();
        bail!(
            "--only={text}: no benchmark id contains it; --only picks among {}",
            ids.join(", ")
        );
    }
    let godot = godot::locate_or_provision()?;
    let dir = repo_root().join("tests");
    let texts = run_scripts(&godot, &dir, &picked, quick)?;
    let lines: Vec<String> = picked
        .iter()
        .zip(&texts)
        .flat_map(|(script, out)| bench_lines(script, out, text))
        .collect();
    if lines.is_empty() {
        bail!("--only={text}: the benchmarks printed no matching line");
    }
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

/// Builds and installs the extension, cooks the scripts' fixtures, imports `tests/` and runs
/// `scripts` in order; returns each one's output (informational lines echoed to stderr). The
/// cooked 4 km fixture (86 MB) is deleted afterwards, whatever happens.
fn run_scripts(
    godot: &godot::Godot,
    dir: &Path,
    scripts: &[&Script],
    quick: bool,
) -> Result<Vec<String>> {
    build_and_install()?;
    let mut fixtures: Vec<&str> = scripts
        .iter()
        .flat_map(|s| s.fixtures.iter().copied())
        .collect();
    fixtures.sort_unstable();
    fixtures.dedup();
    let four_km = dir.join("fixtures/generated/four_km.terrain.bin");
    let result = (|| {
        for name in fixtures {
            cook_fixture(dir, name)?;
        }
        project::import(godot, dir)?;
        let mut texts = Vec::new();
        for script in scripts {
            let text = run_script(godot, dir, script, quick)?;
            for line in text.lines() {
                if script.echo.iter().any(|p| line.starts_with(p)) {
                    eprintln!("{line}");
                }
            }
            texts.push(text);
        }
        Ok(texts)
    })();
    let _ = std::fs::remove_file(four_km);
    result
}

/// One script's output (fails when it fails).
fn run_script(godot: &godot::Godot, dir: &Path, script: &Script, quick: bool) -> Result<String> {
    if let Runner::Editor(filter) = script.runner {
        let out = crate::editor_tests::run(godot, Some(filter))?;
        if !out.success() {
            eprintln!("{}", out.text);
            bail!("the {} benchmarks failed in the editor", script.name);
        }
        return Ok(out.text);
    }
    match script.name {
        "raycast_fast" => run_with_jolt(godot, dir, script, quick),
        "large_world" => large_world_median(godot, dir, script, quick),
        _ => run_once(godot, dir, script, quick),
    }
}

/// Runs `tests/bench/<name>.gd` once.
fn run_once(godot: &godot::Godot, dir: &Path, script: &Script, quick: bool) -> Result<String> {
    let mut cmd = script_command(godot, dir, script, quick)?;
    let timeout = Duration::from_secs(script.timeout_s);
    let out = proc::run_captured(&mut cmd, timeout, "", true)?;
    if !out.success() {
        eprintln!("{}", out.text);
        bail!("the benchmark script tests/bench/{}.gd failed", script.name);
    }
    Ok(out.text)
}

/// The Godot command that runs `tests/bench/<name>.gd` (headless or rendered), with the
/// script's arguments after `--`.
fn script_command(
    godot: &godot::Godot,
    dir: &Path,
    script: &Script,
    quick: bool,
) -> Result<Command> {
    let mut cmd = if script.runner == Runner::Rendered {
        godot::ensure_host_tool("xvfb-run", &["xvfb", "xauth"])?;
        godot.render_command(1280, 720)?
    } else {
        let mut c = godot.command();
        c.arg("--headless");
        c
    };
    cmd.args(script.args)
        .arg("--path")
        .arg(dir)
        .arg("--script")
        .arg(format!("res://bench/{}.gd", script.name))
        .arg("--");
    if script.name == "water_edit" {
        let demo = repo_root().join("demo_project/terrains/river_valley.terrain.json");
        cmd.arg(format!("--demo={}", demo.display()));
    }
    if quick {
        cmd.arg("--quick");
    }
    Ok(cmd)
}

/// Runs the script with Jolt Physics (a temporary `override.cfg` in `tests/`, removed
/// afterwards whatever happens).
fn run_with_jolt(godot: &godot::Godot, dir: &Path, script: &Script, quick: bool) -> Result<String> {
    let override_cfg = dir.join("override.cfg");
    std::fs::write(
        &override_cfg,
        "[physics]\n\n3d/physics_engine=\"Jolt Physics\"\n",
    )
    .with_context(|| format!("writing {}", override_cfg.display()))?;
    let out = run_once(godot, dir, script, quick);
    let _ = std::fs::remove_file(&override_cfg);
    out
}

/// Runs `tests/bench/large_world.gd` (the cooked 4 km fixture must exist) three times, in fresh
/// processes, and returns the output of the run with the median load time (one load on a
/// shared machine can catch a slow moment); every run's load time goes to stderr.
fn large_world_median(
    godot: &godot::Godot,
    dir: &Path,
    script: &Script,
    quick: bool,
) -> Result<String> {
    let mut runs: Vec<(f64, String)> = Vec::new();
    for _ in 0..3 {
        let text = run_once(godot, dir, script, quick)?;
        for line in text.lines().filter(|l| l.starts_with("large world bench")) {
            eprintln!("{line}");
        }
        let load_ms = text
            .lines()
            .find_map(|l| l.strip_prefix("bench godot_load_cooked_4km ours="))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::INFINITY);
        runs.push((load_ms, text));
    }
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let loads: Vec<String> = runs.iter().map(|(ms, _)| format!("{ms:.0} ms")).collect();
    eprintln!("large world bench: loads {}", loads.join(", "));
    Ok(runs.swap_remove(1).1)
}

/// The `bench` lines of `script`'s output whose id is one of its ids and contains `filter`
/// (the editor's lines carry a prefix, cut off). Ids it should have printed and did not are
/// reported on stderr.
fn bench_lines(script: &Script, text: &str, filter: &str) -> Vec<String> {
    let lines: Vec<String> = text
        .lines()
        .filter_map(|l| l.find("bench ").map(|i| &l[i..]))
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|id| script.ids.contains(&id) && id.contains(filter))
        })
        .map(str::to_string)
        .collect();
    for id in script.ids.iter().filter(|id| id.contains(filter)) {
        if !lines
            .iter()
            .any(|l| l.split_whitespace().nth(1) == Some(id))
        {
            eprintln!("xtask: {} printed no `bench {id}` line", script.name);
        }
    }
    lines
}

/// The `peer <id> <value>` lines of `peers.gd`, as `id=value` for `RIDGELINE_BENCH_PEERS`.
fn peer_values(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let mut it = line.strip_prefix("peer ")?.split_whitespace();
            Some(format!("{}={}", it.next()?, it.next()?))
        })
        .collect()
}

/// Cooks `tests/bench/<name>.terrain.json` into `tests/fixtures/generated/<name>.terrain.bin`
/// (its output is shown only when it fails: stdout is for the `bench` lines).
fn cook_fixture(dir: &Path, name: &str) -> Result<()> {
    let generated = dir.join("fixtures/generated");
    std::fs::create_dir_all(&generated)?;
    crate::cook(
        &dir.join(format!("bench/{name}.terrain.json")),
        &generated.join(format!("{name}.terrain.bin")),
    )
    .with_context(|| format!("the bench fixture {name}"))
}
