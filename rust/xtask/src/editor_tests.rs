//! The editor suite: `tests_editor/` run by a real Godot editor (`--editor --headless`) on a
//! fresh copy of the project with private XDG directories (the editor rewrites project files and
//! keeps per-user state; the user's own editor settings stay untouched). Also the editor
//! screenshot (`cargo xtask editor-shot`).

use crate::{godot, proc, project, repo_root, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A fresh copy of `tests_editor/` under `target/<name>/project`, cooked fixture made, the
/// addon linked (absolute link) and imported; returns the project and the XDG root.
pub fn prepare(godot: &godot::Godot, name: &str) -> Result<(PathBuf, PathBuf)> {
    let base = target_dir().join(name);
    let _ = std::fs::remove_dir_all(&base);
    let dir = base.join("project");
    copy_dir(&repo_root().join("tests_editor"), &dir)?;
    // The API fuzz helpers are shared with the runtime tests (one copy, in `tests/lib`).
    for shared in ["hostile_values.gd", "panic_log.gd"] {
        std::fs::copy(
            repo_root().join("tests/lib").join(shared),
            dir.join("lib").join(shared),
        )?;
    }
    link_addon(&dir)?;
    let generated = dir.join("terrains/generated");
    std::fs::create_dir_all(&generated)?;
    crate::cook(
        &dir.join("terrains/flat.terrain.json"),
        &generated.join("flat.terrain.bin"),
    )
    .context("the editor test fixture")?;
    let xdg = base.join("xdg");
    std::fs::create_dir_all(&xdg)?;
    project::import(godot, &dir)?;
    Ok((dir, xdg))
}

/// Godot with private editor settings, data and cache under `xdg`.
pub fn isolate(cmd: &mut Command, xdg: &Path) {
    cmd.env("XDG_CONFIG_HOME", xdg.join("config"))
        .env("XDG_DATA_HOME", xdg.join("data"))
        .env("XDG_CACHE_HOME", xdg.join("cache"))
        .env("RIDGELINE_CACHE_DIR", xdg.join("ridgeline-cache"));
}

/// Runs the editor tests (`filter`: a substring of `file.test_name`); returns the output.
pub fn run(godot: &godot::Godot, filter: Option<&str>) -> Result<proc::Captured> {
    let (dir, xdg) = prepare(godot, "editor-tests")?;
    copy_shipped_graphs(&dir.join("shipped"))?;
    eprintln!("xtask: Godot editor tests (godot --editor --headless)");
    let mut cmd = godot.command();
    isolate(&mut cmd, &xdg);
    cmd.arg("--editor")
        .arg("--headless")
        .arg("--path")
        .arg(&dir)
        .arg("--")
        .arg("--ridgeline-editor-tests");
    if let Some(f) = filter.filter(|f| !f.is_empty()) {
        cmd.arg(format!("--filter={f}"));
    }
    proc::run_captured(&mut cmd, Duration::from_secs(300), "  editor| ", false)
}

/// `cargo xtask editor-shot`: the editor under Xvfb with the demo terrain selected, the dock
/// open and a brush over the surface, captured from inside Godot into
/// `target/editor-shot/*.png`.
pub fn shot(godot: &godot::Godot) -> Result<()> {
    let (dir, xdg) = prepare(godot, "editor-shot")?;
    // The demo's terrain, next to the test scenes.
    let demo = repo_root().join("demo_project");
    for f in std::fs::read_dir(demo.join("terrains"))? {
        let f = f?.path();
        if f.extension().is_some_and(|e| e == "json") {
            std::fs::copy(
                &f,
                dir.join("terrains").join(f.file_name().context("name")?),
            )?;
        }
    }
    // The demo's scatter geometry (its palette names `scatter/...`, for the foliage shot) and
    // its material set with the generated textures, so the shots look like the demo.
    crate::art::ensure()?;
    for sub in ["scatter", "materials", "textures"] {
        copy_dir(&demo.join(sub), &dir.join(sub))?;
    }
    // A real DEM for the import dialog's screenshot (see its SOURCE.md).
    std::fs::copy(
        repo_root().join("rust/ridgeline-core/testdata/dem/jacksboro_fault_dem.png"),
        dir.join("terrains/jacksboro_fault_dem.png"),
    )?;
    std::fs::write(
        dir.join("scenes/demo.tscn"),
        "[gd_scene load_steps=3 format=3]\n\n\
         [ext_resource type=\"TerrainAsset\" path=\"res://terrains/river_valley.terrain.json\" id=\"1\"]\n\
         [ext_resource type=\"TerrainMaterialSet\" path=\"res://materials/landscape.material_set.json\" id=\"2\"]\n\n\
         [node name=\"Main\" type=\"Node3D\"]\n\n\
         [node name=\"Sun\" type=\"DirectionalLight3D\" parent=\".\"]\n\
         transform = Transform3D(1, 0, 0, 0, 0.5, 0.866, 0, -0.866, 0.5, 0, 100, 0)\n\n\
         [node name=\"Terrain3D\" type=\"Terrain3D\" parent=\".\"]\n\
         asset = ExtResource(\"1\")\n\
         material_set = ExtResource(\"2\")\n",
    )?;
    project::import(godot, &dir)?;
    let out = target_dir().join("editor-shot");
    for attempt in 1..=2 {
        let mut cmd = godot.render_command(1600, 900)?;
        isolate(&mut cmd, &xdg);
        cmd.arg("--editor")
            .arg("--path")
            .arg(&dir)
            .arg("--")
            .arg(format!("--ridgeline-editor-shot={}", out.display()));
        let run = proc::run_captured(&mut cmd, Duration::from_secs(300), "  shot| ", false)?;
        if out.join("dock.png").exists() {
            eprintln!("xtask: editor screenshots in {}", out.display());
            return Ok(());
        }
        eprintln!("xtask: editor screenshot attempt {attempt} failed");
        if attempt == 2 {
            bail!("no editor screenshot:\n{}", run.text);
        }
    }
    Ok(())
}

/// The graphs Ridgeline ships — built-in presets, `docs/examples`, the demo's terrains — as
/// `.txt` files under `to` (so the editor does not take them for terrain assets), for
/// `test_graph_layout.gd`.
fn copy_shipped_graphs(to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    let root = repo_root();
    for (folder, prefix) in [
        ("rust/ridgeline-core/src/recipe/presets", "preset-"),
        ("docs/examples", "example-"),
        ("demo_project/terrains", "demo-"),
    ] {
        for e in std::fs::read_dir(root.join(folder))? {
            let path = e?.path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if name.ends_with(".json") {
                std::fs::copy(&path, to.join(format!("{prefix}{name}.txt")))
                    .with_context(|| format!("copying {}", path.display()))?;
            }
        }
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let name = e.file_name();
        if name == ".godot" {
            continue;
        }
        let (src, dst) = (e.path(), to.join(&name));
        if e.file_type()?.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).with_context(|| format!("copying {}", src.display()))?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn link_addon(dir: &Path) -> Result<()> {
    let addons = dir.join("addons");
    std::fs::create_dir_all(&addons)?;
    std::os::unix::fs::symlink(
        repo_root().join("addons/ridgeline"),
        addons.join("ridgeline"),
    )?;
    Ok(())
}

#[cfg(not(unix))]
fn link_addon(dir: &Path) -> Result<()> {
    copy_dir(
        &repo_root().join("addons/ridgeline"),
        &dir.join("addons/ridgeline"),
    )
}
