//! Preparing Godot projects in the repository (demo, tests) for a run: addon link and import.

use crate::godot::Godot;
use crate::proc;
use anyhow::{Result, bail};
use std::path::Path;
use std::time::Duration;

/// Makes sure `dir/addons/ridgeline` reaches the repository's addon, then imports the project
/// (Godot's first `--import` of a fresh project may abort once; a second run is clean).
pub fn import(godot: &Godot, dir: &Path) -> Result<()> {
    ensure_addon_link(dir)?;
    for attempt in 1..=2 {
        eprintln!("xtask: importing {} (attempt {attempt})", dir.display());
        let out = proc::run_captured(
            godot
                .command()
                .arg("--headless")
                .arg("--path")
                .arg(dir)
                .arg("--import"),
            Duration::from_secs(300),
            "  import| ",
            true,
        )?;
        let list = dir.join(".godot/extension_list.cfg");
        let registered = std::fs::read_to_string(&list)
            .map(|s| s.contains("ridgeline.gdextension"))
            .unwrap_or(false);
        if out.success() && registered {
            return Ok(());
        }
        if attempt == 2 {
            eprintln!("{}", out.text);
            if !registered {
                bail!(
                    "Godot imported {} but did not register the Ridgeline extension ({} lacks it)",
                    dir.display(),
                    list.display()
                );
            }
            bail!("importing {} failed twice", dir.display());
        }
    }
    Ok(())
}

#[cfg(unix)]
fn ensure_addon_link(dir: &Path) -> Result<()> {
    let addons = dir.join("addons");
    let link = addons.join("ridgeline");
    if link.join("ridgeline.gdextension").exists() {
        return Ok(());
    }
    std::fs::create_dir_all(&addons)?;
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("../../addons/ridgeline", &link)?;
    Ok(())
}

#[cfg(not(unix))]
fn ensure_addon_link(dir: &Path) -> Result<()> {
    if dir.join("addons/ridgeline/ridgeline.gdextension").exists() {
        return Ok(());
    }
    bail!(
        "{}/addons/ridgeline must point at the repository's addons/ridgeline (copy or link it)",
        dir.display()
    )
}
