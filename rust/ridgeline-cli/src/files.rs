//! Reading documents and writing outputs: bounded reads of regular files and atomic writes,
//! both through [`ridgeline_core::fsio`] (the same rules the Godot saver and loader use).

use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::recipe::Document;
use std::path::Path;

/// Reads and validates an asset or recipe; the error lists every problem with its location. A
/// FIFO, device or directory, or a file over the document size limit, is refused before reading.
pub fn load(path: &Path) -> Result<Document, String> {
    let text = fsio::read_text_bounded(path, FileKind::Document).map_err(|e| e.to_string())?;
    Document::parse(&text, &path.display().to_string()).map_err(|e| e.to_string())
}

/// Writes a file atomically ([`fsio::write_atomic`]): a failure never leaves a partial file, a
/// read-only target is refused, a symlinked target has its destination updated.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    fsio::write_atomic(path, bytes).map_err(|e| e.to_string())
}
