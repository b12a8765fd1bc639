//! `cargo xtask …`: setup (Godot provisioning), build, test, demo and bench for Ridgeline.
//!
//! Run `cargo xtask help` for the verbs.

mod art;
mod bench;
mod editor_help;
mod editor_tests;
mod fuzz;
mod godot;
mod layering;
mod patch_views;
mod proc;
mod project;
mod role_views;
mod test;
mod water_views;

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

const USAGE: &str = "\
cargo xtask <verb> [options]

verbs:
  setup            find Godot ($GODOT, PATH, cache) or provision Godot 4.6 into the cache
  build            build the extension (release) and install it into addons/ridgeline/bin/
  test [--no-lint] [--godot-only] [--filter=TEXT]
                   fmt + clippy, every Rust test, then every Godot headless test under tests/;
                   ends with `N passed, N failed` (--godot-only skips lint and Rust tests;
                   --filter runs only Godot tests whose name contains TEXT;
                   --filter=editor_tests[:TEXT] runs only the editor suite, tests_editor/)
  editor-shot      screenshots of the editor (Terrain dock, brush ring) under Xvfb into
                   target/editor-shot/
  demo [--png]     build and run the demo; without a display (or with --png) render it under
                   Xvfb to target/demo/demo.png
  water-views      build, render the water views (river, lake shore, under water) under Xvfb
                   into target/water-views/ and judge them (the water render checks of `test`)
  bench [--quick]  run every benchmark; prints `bench <id> ours=… peer=… ratio=… unit=…`
  layering         check every crate's module imports against the layer table in its lib.rs
                   docs (also the first step of `test`)
  fuzz [--cases N] [--target NAME] [--seed SEED]
                   fuzz the parsers (recipe_documents, strokes, payloads, png_masks,
                   terrain_json) with N fresh mutated cases per target (default 20000);
                   --seed replays one failing case of --target
  art [--force]    generate the demo's tileable PBR textures into demo_project/textures/generated/
                   (demo, test and bench do it when they are missing or stale)
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup(),
        Some("build") => build_and_install().map(|_| ()),
        Some("test") => art::ensure().and_then(|_| test::run(&args[1..])),
        Some("demo") => art::ensure().and_then(|_| demo(&args[1..])),
        Some("bench") => art::ensure().and_then(|_| bench::run(&args[1..])),
        Some("art") => art::run(&args[1..]),
        Some("water-views") => art::ensure().and_then(|_| test::water_views_verb()),
        Some("patch-views") => art::ensure().and_then(|_| test::patch_views_verb()),
        Some("layering") => layering::run(&repo_root()).and_then(|ok| {
            if ok {
                Ok(())
            } else {
                bail!("the layering check failed")
            }
        }),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("editor-shot") => godot::locate_or_provision()
            .and_then(|g| build_and_install().map(|_| g))
            .and_then(|g| editor_tests::shot(&g)),
        Some("help") | Some("--help") | Some("-h") | None => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(anyhow::anyhow!("unknown verb `{other}`\n\n{USAGE}")),
    };
    if let Err(err) = result {
        eprintln!("xtask: error: {err:#}");
        std::process::exit(1);
    }
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Cargo's target directory (`$CARGO_TARGET_DIR` or `<root>/target`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
}

/// A `cargo` command run from the repository root.
pub fn cargo() -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(repo_root());
    cmd
}

fn setup() -> Result<()> {
    let godot = godot::locate_or_provision()?;
    println!("Godot {} from {}", godot.version, godot.origin);
    Ok(())
}

/// Cooks the recipe `recipe` into the payload `out` with the release CLI (built by
/// [`build_and_install`]); the CLI's output is shown only in the error when it fails.
pub fn cook(recipe: &Path, out: &Path) -> Result<()> {
    let cli = target_dir().join("release").join(if cfg!(windows) {
        "ridgeline.exe"
    } else {
        "ridgeline"
    });
    let cooked = proc::run_captured(
        Command::new(cli)
            .arg("cook")
            .arg(recipe)
            .arg("--out")
            .arg(out),
        std::time::Duration::from_secs(600),
        "",
        true,
    )?;
    if !cooked.success() {
        bail!("cooking {} failed:\n{}", recipe.display(), cooked.text);
    }
    Ok(())
}

/// Builds the extension in release mode and installs it into `addons/ridgeline/bin/`.
/// Returns the installed path.
pub fn build_and_install() -> Result<PathBuf> {
    eprintln!("xtask: building the extension (release)");
    proc::run(
        cargo().args([
            "build",
            "--release",
            "-p",
            "ridgeline-godot",
            "-p",
            "ridgeline-cli",
        ]),
        "cargo build --release",
    )?;
    let (built, installed) = library_names();
    let src = target_dir().join("release").join(built);
    let bin = repo_root().join("addons/ridgeline/bin");
    std::fs::create_dir_all(&bin)?;
    let dst = bin.join(installed);
    // Copy then rename, so a running Godot never sees a half-written library.
    let tmp = bin.join(format!(".{installed}.tmp"));
    std::fs::copy(&src, &tmp)
        .with_context(|| format!("cannot copy {} to {}", src.display(), tmp.display()))?;
    std::fs::rename(&tmp, &dst)?;
    eprintln!("xtask: installed {}", dst.display());
    Ok(dst)
}

/// (file name cargo builds, file name the .gdextension expects) for this platform.
fn library_names() -> (&'static str, &'static str) {
    if cfg!(target_os = "windows") {
        ("ridgeline_godot.dll", "ridgeline.windows.x86_64.dll")
    } else if cfg!(target_os = "macos") {
        ("libridgeline_godot.dylib", "libridgeline.macos.dylib")
    } else if cfg!(target_arch = "aarch64") {
        ("libridgeline_godot.so", "libridgeline.linux.arm64.so")
    } else {
        ("libridgeline_godot.so", "libridgeline.linux.x86_64.so")
    }
}

fn has_display() -> bool {
    std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
        || std::env::var_os("WAYLAND_DISPLAY").is_some_and(|d| !d.is_empty())
}

/// Renders the demo scene under Xvfb (OpenGL 3, software) to `target/demo/demo.png`; returns
/// its path. The demo must already be built and imported.
/// `user_args` go to the demo script (e.g. `--look=faceted`).
pub fn render_demo(godot: &godot::Godot, user_args: &[String]) -> Result<PathBuf> {
    godot::ensure_host_tool("xvfb-run", &["xvfb", "xauth"])?;
    let demo = repo_root().join("demo_project");
    let out_dir = target_dir().join("demo");
    std::fs::create_dir_all(&out_dir)?;
    let png = out_dir.join("demo.png");
    let _ = std::fs::remove_file(&png);
    eprintln!("xtask: rendering the demo under Xvfb (OpenGL 3, software)");
    let mut cmd = godot.render_command(1280, 720)?;
    cmd.arg("--path")
        .arg(&demo)
        .arg("--resolution")
        .arg("1280x720")
        .arg("--")
        .arg(format!("--screenshot={}", png.display()))
        .args(user_args);
    let out = proc::run_captured(
        &mut cmd,
        std::time::Duration::from_secs(300),
        "  godot| ",
        false,
    )?;
    if !out.success() {
        bail!(
            "the demo did not render (Godot exited with {:?})",
            out.status
        );
    }
    let len = std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        bail!("the demo ran but wrote no screenshot at {}", png.display());
    }
    Ok(png)
}

/// Renders `tests/render/water_views.gd` on the demo under Xvfb into `target/water-views/`;
/// returns the directory. The demo must already be built and imported.
pub fn render_water_views(godot: &godot::Godot) -> Result<PathBuf> {
    render_views(
        godot,
        "tests/render/water_views.gd",
        "water-views",
        "the water views",
    )
}

/// Renders `script` (a SceneTree script under `tests/render/`) over the demo project under Xvfb
/// (OpenGL 3, software) at 1280 × 720, with `--out=` a fresh `target/<out>` directory it returns.
pub fn render_views(godot: &godot::Godot, script: &str, out: &str, what: &str) -> Result<PathBuf> {
    render_views_on(godot, script, out, what, false)
}

/// [`render_views`] on Forward+ (`forward_plus`) or the Compatibility renderer.
pub fn render_views_on(
    godot: &godot::Godot,
    script: &str,
    out: &str,
    what: &str,
    forward_plus: bool,
) -> Result<PathBuf> {
    godot::ensure_host_tool("xvfb-run", &["xvfb", "xauth"])?;
    let demo = repo_root().join("demo_project");
    let script = repo_root().join(script);
    let out_dir = target_dir().join(out);
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir)?;
    let mut cmd = if forward_plus {
        eprintln!("xtask: rendering {what} under Xvfb (Forward+, Vulkan, software)");
        godot.render_command_forward_plus(1280, 720)?
    } else {
        eprintln!("xtask: rendering {what} under Xvfb (OpenGL 3, software)");
        godot.render_command(1280, 720)?
    };
    cmd.arg("--path")
        .arg(&demo)
        .arg("--resolution")
        .arg("1280x720")
        .arg("--script")
        .arg(&script)
        .arg("--")
        .arg(format!("--out={}", out_dir.display()));
    let run = proc::run_captured(
        &mut cmd,
        std::time::Duration::from_secs(300),
        "  godot| ",
        false,
    )?;
    if !run.success() {
        bail!("{what} did not render (Godot exited with {:?})", run.status);
    }
    Ok(out_dir)
}

fn demo(args: &[String]) -> Result<()> {
    let force_png = args.iter().any(|a| a == "--png");
    let godot = godot::locate_or_provision()?;
    eprintln!("xtask: using Godot {} from {}", godot.version, godot.origin);
    build_and_install()?;
    let demo = repo_root().join("demo_project");
    project::import(&godot, &demo)?;
    if has_display() && !force_png {
        eprintln!("xtask: opening the demo scene");
        proc::run(godot.command().arg("--path").arg(&demo), "godot (demo)")?;
        return Ok(());
    }
    // Arguments after `--` go to the demo script: `cargo xtask demo --png -- --look=faceted`.
    let user_args: Vec<String> = args
        .iter()
        .skip_while(|a| *a != "--")
        .skip(1)
        .cloned()
        .collect();
    let png = render_demo(&godot, &user_args)?;
    let len = std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0);
    println!("demo screenshot: {} ({len} bytes)", png.display());
    Ok(())
}
