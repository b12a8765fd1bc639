//! Reading documents and writing outputs: bounded reads of regular files and atomic writes,
//! both through [`ridgeline_core::fsio`] (the same rules the Godot saver and loader use).

use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::recipe::{Document, Recipe};
use std::path::Path;

/// Reads and validates an asset or recipe; the error lists every problem with its location. A
/// FIFO, device or directory, or a file over the document size limit, is refused before reading.
/// The recipe learns its folder ([`Recipe::set_source_dir`]), so the files its graph names
/// (heightmaps) resolve from it.
pub fn load(path: &Path) -> Result<Document, String> {
    let text = fsio::read_text_bounded(path, FileKind::Document).map_err(|e| e.to_string())?;
    let mut doc = Document::parse(&text, &path.display().to_string()).map_err(|e| e.to_string())?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    match &mut doc {
        Document::Asset(a) => a.recipe.set_source_dir(dir),
        Document::Recipe(r) => r.set_source_dir(dir),
    }
    Ok(doc)
}

/// [`load`], the recipe alone.
pub fn load_placed(path: &Path) -> Result<Recipe, String> {
    Ok(load(path)?.recipe().clone())
}

/// Writes a file atomically ([`fsio::write_atomic`]): a failure never leaves a partial file, a
/// read-only target is refused, a symlinked target has its destination updated.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    fsio::write_atomic(path, bytes).map_err(|e| e.to_string())
}
