//! `ridgeline import`: creates a terrain asset whose graph reads a heightmap file, after checking
//! that the file imports and the asset generates. The asset is planned by the core
//! ([`ridgeline_core::formats::heightmap_import`], shared with the editor's import): a Heightmap node
//! straight into the output, seed-002 holes as one `hole` stroke.

use crate::files::write_atomic;
use ridgeline_core::formats::heightmap_import::{self as import, ImportOptions};
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// What the verb was asked.
pub struct Args<'a> {
    /// The heightmap.
    pub file: &'a Path,
    /// The asset to write.
    pub out: &'a Path,
    /// World size along X and Z.
    pub size: Option<[f64; 2]>,
    /// Heights of the smallest and largest integer sample.
    pub height_range: Option<[f64; 2]>,
    /// Raw files: samples along X and Z.
    pub raw_size: Option<[usize; 2]>,
}

/// Runs the verb.
pub fn run(a: &Args) -> Result<(), String> {
    let out_dir = match a.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("{}: cannot create ({e})", out_dir.display()))?;
    let shown = a.file.display().to_string();
    eprintln!("reading {shown}");
    let plan = import::plan(
        a.file,
        a.out,
        &ImportOptions {
            size: a.size,
            height_range: a.height_range,
            raw_size: a.raw_size,
        },
    )
    .map_err(|e| {
        e.replace(
            ridgeline_core::formats::heightmap_import::RAW_SIZE_NEEDED,
            "pass --raw-size WIDTH,DEPTH",
        )
    })?;
    for n in &plan.notes {
        eprintln!(
            "note: {}",
            n.replace("set the height range", "pass --height-range MIN,MAX")
        );
    }
    let [w, d] = plan.samples;
    // The asset must generate: the file decodes and maps inside the height limits.
    eprintln!(
        "checking the import ({w} × {d} samples, {} format)",
        plan.format
    );
    let checked = plan.document.recipe().clone().with_source_dir(&out_dir);
    let g = ridgeline_core::pipeline::generate(
        &checked,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())?;
    let [lo, hi] = g.heightfield.height_range();
    write_atomic(a.out, plan.document.to_canonical_json().as_bytes())?;
    eprintln!(
        "imported {shown} as {}: {} × {} m, {w} × {d} samples, heights {lo}..{hi}; the graph reads \"{}\"",
        a.out.display(),
        plan.size[0],
        plan.size[1],
        plan.reference
    );
    println!("{}", a.out.display());
    Ok(())
}
