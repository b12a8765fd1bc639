//! `ridgeline layers export|import`: an asset's layers as PNG layer files (seed 004's layout,
//! [`ridgeline_core::formats::layer_files`]) and back as strokes saved into the asset.

use crate::files::{load, write_atomic};
use ridgeline_core::formats::{layer_files, layer_import};
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use ridgeline_core::pipeline::EditSession;
use ridgeline_core::recipe::Document;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Generates `file` (Final, strokes replayed) into an edit session; progress on stderr.
fn session(file: &Path, doc: &Document) -> Result<EditSession, String> {
    eprintln!("generating {} …", file.display());
    let recipe = doc.recipe();
    let base = ridgeline_core::pipeline::prepare_base(
        recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())?;
    let masks = ridgeline_core::formats::file_mask_loader(
        file.parent().map(Path::to_path_buf).unwrap_or_default(),
    );
    EditSession::new(recipe.clone(), base.field, Some(masks)).map_err(|e| e.to_string())
}

/// `layers export`: writes the layer files of `layers` (comma-separated groups, default all)
/// into `dir`; only changed files are written. Prints one line per file to stdout.
pub fn run_export(file: &Path, dir: &Path, layers: Option<&str>) -> Result<(), String> {
    let groups = match layers {
        Some(l) => layer_files::parse_groups(l).map_err(|e| e.to_string())?,
        None => layer_files::ALL_GROUPS,
    };
    let doc = load(file)?;
    let s = session(file, &doc)?;
    eprintln!("writing layer files into {} …", dir.display());
    let files = layer_files::export(&s, dir, groups).map_err(|e| e.to_string())?;
    let mut written = 0;
    for f in &files {
        let state = if f.written { "written" } else { "unchanged" };
        written += usize::from(f.written);
        println!("{state} {}", f.path.display());
    }
    eprintln!("{written} of {} files written", files.len());
    Ok(())
}

/// `layers import`: reads the layer files in `dir`, adds the strokes that make the asset's
/// layers match them, and saves the asset (`out`, default in place). Nothing is written when a
/// file is refused, nor in place when nothing changed (`out` still receives the asset).
pub fn run_import(file: &Path, dir: &Path, out: Option<&Path>) -> Result<(), String> {
    let doc = load(file)?;
    let mut s = session(file, &doc)?;
    eprintln!("reading layer files from {} …", dir.display());
    let (plan, _) = layer_import::import(&mut s, dir).map_err(|e| e.to_string())?;
    let target = out.unwrap_or(file);
    if plan.strokes.is_empty() && out.is_none() {
        eprintln!(
            "the layers already match {}; nothing written",
            dir.display()
        );
        return Ok(());
    }
    for name in &plan.changed {
        println!("changed {name}");
    }
    let recipe = s.recipe().clone();
    let saved = match doc {
        Document::Asset(mut a) => {
            a.recipe = recipe;
            Document::Asset(a)
        }
        Document::Recipe(_) => Document::Recipe(recipe),
    };
    write_atomic(target, saved.to_canonical_json().as_bytes())?;
    eprintln!(
        "{} stroke(s) from {} file(s); wrote {}",
        plan.strokes.len(),
        plan.changed.len(),
        target.display()
    );
    Ok(())
}
