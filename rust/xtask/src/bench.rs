//! `cargo xtask bench [--quick]`: every benchmark, one `bench <id> ours=… peer=… ratio=… unit=…`
//! line per measure.
//!
//! Order: Godot-side peers are measured first in headless Godot (`tests/bench/peers.gd` prints
//! `peer <id> <value>` lines and full `bench` lines for Godot-only measures); the core benchmark
//! binary (`rust/ridgeline-core/benches/core.rs`) then runs with those peers in
//! `RIDGELINE_BENCH_PEERS` and prints the combined lines. Everything happens in one run.

use crate::{build_and_install, cargo, godot, proc, project, repo_root};
use anyhow::{Result, bail};
use std::time::Duration;

/// Runs every benchmark (with `--only=TEXT`, only the Godot benchmark scripts that print an
/// id containing TEXT, and only those ids' lines).
pub fn run(args: &[String]) -> Result<()> {
    let quick = args.iter().any(|a| a == "--quick");
    let only = args
        .iter()
        .find_map(|a| a.strip_prefix("--only="))
        .map(str::to_string);
    if let Some(text) = &only {
        return run_only(text, quick);
    }
    let mut peers = Vec::new();
    let mut lines = Vec::new();

    match godot::locate_or_provision() {
        Ok(godot) => {
            build_and_install()?;
            let dir = repo_root().join("tests");
            // The cooked 1 km terrain for godot_load_cooked_1km (made fresh: it carries the
            // generator version).
            cook_bench_fixture(&dir)?;
            project::import(&godot, &dir)?;
            let mut cmd = godot.command();
            cmd.arg("--headless")
                .arg("--path")
                .arg(&dir)
                .arg("--script")
                .arg("res://bench/peers.gd")
                .arg("--");
            if quick {
                cmd.arg("--quick");
            }
            let out = proc::run_captured(&mut cmd, Duration::from_secs(1200), "", true)?;
            if !out.success() {
                eprintln!("{}", out.text);
                bail!("the Godot benchmark script failed");
            }
            // godot_raycast_fast compares against Jolt Physics, selected for one run through a
            // temporary override.cfg (tests/ uses Godot Physics).
            let fast = raycast_fast_with_jolt(&godot, &dir, quick)?;
            for line in fast.text.lines() {
                if line.starts_with("bench ") {
                    lines.push(line.to_string());
                } else if line.starts_with("raycast fast:") {
                    eprintln!("{line}");
                }
            }
            // godot_water_sample and buoyancy_1000_bodies (tests/bench/water.gd).
            let mut water = godot.command();
            water
                .arg("--headless")
                .arg("--path")
                .arg(&dir)
                .arg("--script")
                .arg("res://bench/water.gd")
                .arg("--");
            if quick {
                water.arg("--quick");
            }
            let water = proc::run_captured(&mut water, Duration::from_secs(600), "", true)?;
            if !water.success() {
                eprintln!("{}", water.text);
                bail!("the water benchmark script failed");
            }
            for line in water.text.lines() {
                if line.starts_with("bench ") {
                    lines.push(line.to_string());
                } else if line.starts_with("water bench:") {
                    eprintln!("{line}");
                }
            }
            // stroke_water_demo (tests/bench/water_edit.gd, on the demo's river valley).
            let mut edit = godot.command();
            edit.arg("--headless")
                .arg("--path")
                .arg(&dir)
                .arg("--script")
                .arg("res://bench/water_edit.gd")
                .arg("--")
                .arg(demo_terrain_arg());
            if quick {
                edit.arg("--quick");
            }
            let edit = proc::run_captured(&mut edit, Duration::from_secs(600), "", true)?;
            if !edit.success() {
                eprintln!("{}", edit.text);
                bail!("the water edit benchmark script failed");
            }
            lines.extend(
                edit.text
                    .lines()
                    .filter(|l| l.starts_with("bench "))
                    .map(str::to_string),
            );
            // godot_load_cooked_4km and godot_memory_4km (tests/bench/large_world.gd; the 4 km
            // fixture is cooked fresh, about 2 s and 86 MB).
            cook_fixture(&dir, "four_km")?;
            lines.extend(large_world_median(&godot, &dir)?);
            // godot_memory_1km (GPU and mesh paths, video memory included) and
            // godot_frame_cpu_4km: rendered (tests/bench/render_world.gd); the 4 km fixture
            // is deleted after it (86 MB).
            match godot::ensure_host_tool("xvfb-run", &["xvfb", "xauth"])
                .and_then(|_| godot.render_command(1280, 720))
            {
                Ok(mut world) => {
                    world
                        .arg("--path")
                        .arg(&dir)
                        .arg("--script")
                        .arg("res://bench/render_world.gd");
                    let world = proc::run_captured(&mut world, Duration::from_secs(900), "", true)?;
                    if !world.success() {
                        eprintln!("{}", world.text);
                        bail!("the rendered world benchmark script failed");
                    }
                    for line in world.text.lines() {
                        if line.starts_with("bench ") {
                            lines.push(line.to_string());
                        } else if line.starts_with("render world") {
                            eprintln!("{line}");
                        }
                    }
                }
                Err(e) => eprintln!("xtask: skipping the rendered world benchmarks: {e:#}"),
            }
            let _ = std::fs::remove_file(dir.join("fixtures/generated/four_km.terrain.bin"));
            // godot_set_heights_64 and the other runtime writes (tests/bench/runtime_writes.gd).
            let mut writes = godot.command();
            writes
                .arg("--headless")
                .arg("--path")
                .arg(&dir)
                .arg("--script")
                .arg("res://bench/runtime_writes.gd")
                .arg("--");
            if quick {
                writes.arg("--quick");
            }
            let writes = proc::run_captured(&mut writes, Duration::from_secs(600), "", true)?;
            if !writes.success() {
                eprintln!("{}", writes.text);
                bail!("the runtime writes benchmark script failed");
            }
            lines.extend(
                writes
                    .text
                    .lines()
                    .filter(|l| l.starts_with("bench "))
                    .map(str::to_string),
            );
            // Rendered-frame statistics need a renderer: Xvfb + OpenGL 3.
            match godot::ensure_host_tool("xvfb-run", &["xvfb", "xauth"])
                .and_then(|_| godot.render_command(1280, 720))
            {
                Ok(mut render) => {
                    render
                        .arg("--path")
                        .arg(&dir)
                        .arg("--script")
                        .arg("res://bench/lod_primitives.gd");
                    let lod = proc::run_captured(&mut render, Duration::from_secs(600), "", true)?;
                    if !lod.success() {
                        eprintln!("{}", lod.text);
                        bail!("the LOD primitives benchmark failed");
                    }
                    for line in lod.text.lines() {
                        if line.starts_with("bench ") {
                            lines.push(line.to_string());
                        } else if line.starts_with("lod primitives:")
                            || line.starts_with("lod accuracy:")
                            || line.starts_with("stroke rendered:")
                        {
                            eprintln!("{line}");
                        }
                    }
                    // godot_shader_cost: the realistic shader against the tint shader on the
                    // shader lab's valley, same view (tests/bench/shader_cost.gd).
                    let mut cost = godot.render_command(1280, 720)?;
                    cost.arg("--path")
                        .arg(&dir)
                        .arg("--resolution")
                        .arg("1280x720")
                        .arg("--script")
                        .arg("res://bench/shader_cost.gd")
                        .arg("--");
                    if quick {
                        cost.arg("--quick");
                    }
                    let cost = proc::run_captured(&mut cost, Duration::from_secs(900), "", true)?;
                    if !cost.success() {
                        eprintln!("{}", cost.text);
                        bail!("the shader cost benchmark failed");
                    }
                    for line in cost.text.lines() {
                        if line.starts_with("bench ") {
                            lines.push(line.to_string());
                        } else if line.starts_with("shader cost:") {
                            eprintln!("{line}");
                        }
                    }
                    // foliage_chunk_build, foliage_thinning_frame, godot_scatter_memory
                    // (tests/bench/scatter.gd): rendered, so MultiMesh uploads reach the GPU.
                    let mut sc = godot.render_command(1280, 720)?;
                    sc.arg("--path")
                        .arg(&dir)
                        .arg("--script")
                        .arg("res://bench/scatter.gd")
                        .arg("--");
                    if quick {
                        sc.arg("--quick");
                    }
                    let sc = proc::run_captured(&mut sc, Duration::from_secs(600), "", true)?;
                    if !sc.success() {
                        eprintln!("{}", sc.text);
                        bail!("the scatter benchmarks failed");
                    }
                    for line in sc.text.lines() {
                        if line.starts_with("bench ") {
                            lines.push(line.to_string());
                        } else if line.starts_with("scatter:") {
                            eprintln!("{line}");
                        }
                    }
                }
                Err(e) => eprintln!("xtask: skipping the rendered benchmarks (no renderer): {e:#}"),
            }
            // graph_ui_build_100: the Terrain Graph workspace in a real editor
            // (tests_editor/cases/test_graph.gd prints the line).
            let editor =
                crate::editor_tests::run(&godot, Some("test_graph.test_graph_ui_build_100"))?;
            match editor
                .text
                .lines()
                .find_map(|l| l.find("bench ").map(|i| &l[i..]))
            {
                Some(line) => lines.push(line.to_string()),
                None => {
                    eprintln!("{}", editor.text);
                    bail!("the graph_ui_build_100 benchmark printed no result");
                }
            }
            // editor_stroke_tick_20m, editor_stroke_tick_128m, editor_undo_stroke_128m: brush
            // ticks and undo in a real editor (tests_editor/cases/test_bench_edit.gd).
            let editor = crate::editor_tests::run(&godot, Some("test_bench_edit."))?;
            let found: Vec<&str> = editor
                .text
                .lines()
                .filter_map(|l| l.find("bench ").map(|i| &l[i..]))
                .collect();
            if found.len() != 3 || !editor.success() {
                eprintln!("{}", editor.text);
                bail!("the editor stroke benchmarks failed or printed no result");
            }
            lines.extend(found.iter().map(|l| l.to_string()));
            for line in out.text.lines() {
                if let Some(rest) = line.strip_prefix("peer ") {
                    let mut it = rest.split_whitespace();
                    if let (Some(id), Some(v)) = (it.next(), it.next()) {
                        peers.push(format!("{id}={v}"));
                    }
                } else if line.starts_with("bench ") {
                    lines.push(line.to_string());
                } else if line.starts_with("memory ") || line.starts_with("calls: ") {
                    eprintln!("{line}");
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

/// Runs `tests/bench/large_world.gd` (the cooked 4 km fixture must exist) three times, in fresh
/// processes, and returns the `bench` lines of the run with the median load time (one load on a
/// shared machine can catch a slow moment); every run's load time goes to stderr.
fn large_world_median(godot: &godot::Godot, dir: &std::path::Path) -> Result<Vec<String>> {
    let mut runs: Vec<(f64, Vec<String>)> = Vec::new();
    for _ in 0..3 {
        let mut large = godot.command();
        large
            .arg("--headless")
            .arg("--path")
            .arg(dir)
            .arg("--script")
            .arg("res://bench/large_world.gd");
        let large = proc::run_captured(&mut large, Duration::from_secs(600), "", true)?;
        if !large.success() {
            eprintln!("{}", large.text);
            bail!("the large world benchmark script failed");
        }
        let mut bench_lines = Vec::new();
        let mut load_ms = f64::INFINITY;
        for line in large.text.lines() {
            if line.starts_with("bench ") {
                if let Some(v) = line
                    .strip_prefix("bench godot_load_cooked_4km ours=")
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|v| v.parse::<f64>().ok())
                {
                    load_ms = v;
                }
                bench_lines.push(line.to_string());
            } else if line.starts_with("large world bench") {
                eprintln!("{line}");
            }
        }
        runs.push((load_ms, bench_lines));
    }
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    eprintln!(
        "large world bench: loads {}",
        runs.iter()
            .map(|(ms, _)| format!("{ms:.0} ms"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(runs.swap_remove(1).1)
}

/// Runs `tests/bench/raycast_fast.gd` with Jolt Physics (a temporary `override.cfg`, removed
/// afterwards whatever happens).
fn raycast_fast_with_jolt(
    godot: &godot::Godot,
    dir: &std::path::Path,
    quick: bool,
) -> Result<proc::Captured> {
    let override_cfg = dir.join("override.cfg");
    std::fs::write(
        &override_cfg,
        "[physics]\n\n3d/physics_engine=\"Jolt Physics\"\n",
    )?;
    let mut cmd = godot.command();
    cmd.arg("--headless")
        .arg("--path")
        .arg(dir)
        .arg("--script")
        .arg("res://bench/raycast_fast.gd")
        .arg("--");
    if quick {
        cmd.arg("--quick");
    }
    let out = proc::run_captured(&mut cmd, Duration::from_secs(600), "", true);
    let _ = std::fs::remove_file(&override_cfg);
    let out = out?;
    if !out.success() {
        eprintln!("{}", out.text);
        bail!("the Jolt raycast benchmark failed");
    }
    Ok(out)
}

/// The Godot benchmark scripts `--only` can pick, by the ids they print.
/// The cooked 1 km terrain `peers.gd` loads for godot_load_cooked_1km (made fresh: it carries
/// the generator version).
fn cook_bench_fixture(dir: &std::path::Path) -> Result<()> {
    cook_fixture(dir, "one_km")
}

/// Cooks `tests/bench/<name>.terrain.json` into `tests/fixtures/generated/<name>.terrain.bin`.
fn cook_fixture(dir: &std::path::Path, name: &str) -> Result<()> {
    let generated = dir.join("fixtures/generated");
    std::fs::create_dir_all(&generated)?;
    let cli = crate::target_dir().join("release").join("ridgeline");
    crate::proc::run(
        std::process::Command::new(cli)
            .arg("cook")
            .arg(dir.join(format!("bench/{name}.terrain.json")))
            .arg("--out")
            .arg(generated.join(format!("{name}.terrain.bin"))),
        "ridgeline cook (bench fixture)",
    )
}

const ONLY_SCRIPTS: &[(&[&str], &str)] = &[
    (
        &[
            "godot_set_heights_64",
            "godot_user_channel_tick",
            "godot_user_channel_query",
        ],
        "runtime_writes",
    ),
    (
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
        "peers",
    ),
    (
        &[
            "editor_stroke_tick_20m",
            "editor_stroke_tick_128m",
            "editor_undo_stroke_128m",
        ],
        "editor",
    ),
    (&["graph_ui_build_100"], "graph_ui"),
    (
        &[
            "godot_water_sample",
            "godot_water_sample_into",
            "buoyancy_1000_bodies",
        ],
        "water",
    ),
    (&["stroke_water_demo"], "water_edit"),
    (
        &["godot_load_cooked_4km", "godot_memory_4km"],
        "large_world",
    ),
    (
        &[
            "godot_memory_1km",
            "godot_memory_1km_mesh",
            "godot_frame_cpu_4km",
        ],
        "render_world",
    ),
    (
        &["godot_lod_primitives", "godot_lod_primitives_gpu"],
        "lod_primitives",
    ),
    (&["godot_raycast_fast"], "raycast_fast"),
];

/// Scripts of [`ONLY_SCRIPTS`] that need a renderer (Xvfb + OpenGL 3).
const RENDERED_SCRIPTS: &[&str] = &["render_world", "lod_primitives"];

/// `--demo=<path>` for `tests/bench/water_edit.gd`: the demo's river valley terrain.
fn demo_terrain_arg() -> String {
    let path = repo_root().join("demo_project/terrains/river_valley.terrain.json");
    format!("--demo={}", path.display())
}

/// `bench --only=TEXT`: the headless Godot benchmarks whose ids contain `text`; their `bench`
/// lines (filtered by `text`) are printed. Rendered, peer and Rust benchmarks are not run (the
/// Rust ones have `RIDGELINE_BENCH_ONLY`).
fn run_only(text: &str, quick: bool) -> Result<()> {
    let picked: Vec<&str> = ONLY_SCRIPTS
        .iter()
        .filter(|(ids, _)| ids.iter().any(|id| id.contains(text)))
        .map(|(_, script)| *script)
        .collect();
    if picked.is_empty() {
        let ids: Vec<&str> = ONLY_SCRIPTS
            .iter()
            .flat_map(|(ids, _)| ids.iter().copied())
            .collect();
        bail!(
            "--only={text}: no benchmark id contains it; --only picks among {}",
            ids.join(", ")
        );
    }
    let godot = godot::locate_or_provision()?;
    build_and_install()?;
    let dir = repo_root().join("tests");
    if picked.contains(&"peers")
        || picked.contains(&"render_world")
        || picked.contains(&"lod_primitives")
    {
        cook_bench_fixture(&dir)?;
    }
    if picked.contains(&"large_world") || picked.contains(&"render_world") {
        cook_fixture(&dir, "four_km")?;
    }
    project::import(&godot, &dir)?;
    let mut lines = Vec::new();
    for script in picked {
        let text_out = match script {
            "editor" => crate::editor_tests::run(&godot, Some("test_bench_edit."))?.text,
            "graph_ui" => {
                crate::editor_tests::run(&godot, Some("test_graph.test_graph_ui_build_100"))?.text
            }
            "raycast_fast" => raycast_fast_with_jolt(&godot, &dir, quick)?.text,
            "large_world" => large_world_median(&godot, &dir)?.join("\n"),
            _ => {
                let mut cmd = if RENDERED_SCRIPTS.contains(&script) {
                    godot::ensure_host_tool("xvfb-run", &["xvfb", "xauth"])?;
                    godot.render_command(1280, 720)?
                } else {
                    let mut c = godot.command();
                    c.arg("--headless");
                    c
                };
                cmd.arg("--path")
                    .arg(&dir)
                    .arg("--script")
                    .arg(format!("res://bench/{script}.gd"))
                    .arg("--");
                if script == "water_edit" {
                    cmd.arg(demo_terrain_arg());
                }
                if quick {
                    cmd.arg("--quick");
                }
                let out = proc::run_captured(&mut cmd, Duration::from_secs(600), "", true)?;
                if !out.success() {
                    eprintln!("{}", out.text);
                    bail!("the {script} benchmark script failed");
                }
                out.text
            }
        };
        for l in text_out.lines() {
            if l.starts_with("render world")
                || l.starts_with("large world bench")
                || l.starts_with("lod ")
            {
                eprintln!("{l}");
            }
        }
        lines.extend(
            text_out
                .lines()
                .filter_map(|l| l.find("bench ").map(|i| &l[i..]))
                .filter(|l| {
                    l.split_whitespace()
                        .nth(1)
                        .is_some_and(|id| id.contains(text))
                })
                .map(str::to_string),
        );
    }
    // The 4 km fixture is 86 MB: cooked fresh by every run that needs it.
    let _ = std::fs::remove_file(dir.join("fixtures/generated/four_km.terrain.bin"));
    if lines.is_empty() {
        bail!("--only={text}: the benchmarks printed no matching line");
    }
    for line in lines {
        println!("{line}");
    }
    Ok(())
}
