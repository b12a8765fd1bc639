//! `ridgeline cook`: generates a terrain (Final) and writes its prepared payload.

use crate::files::{load, write_atomic};
use ridgeline_core::formats::payload::encode;
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use ridgeline_core::pipeline::prepare;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Runs the verb.
pub fn run(file: &Path, out: &Path) -> Result<(), String> {
    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if !name.ends_with(".terrain.bin") {
        return Err(format!(
            "{}: the output must be named *.terrain.bin",
            out.display()
        ));
    }
    let doc = load(file)?;
    let recipe = doc.recipe();
    let prepared = prepare(
        recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
        Some(ridgeline_core::formats::file_mask_loader(
            file.parent().map(Path::to_path_buf).unwrap_or_default(),
        )),
    )
    .map_err(|e| e.to_string())?;
    let bytes = encode(&prepared);
    write_atomic(out, &bytes)?;
    eprintln!("cooked {} ({} bytes)", out.display(), bytes.len());
    println!("{}", out.display());
    Ok(())
}
