//! Reading documents and writing outputs atomically.

use ridgeline_core::recipe::Document;
use std::path::Path;

/// Reads and validates an asset or recipe; the error lists every problem with its location.
pub fn load(path: &Path) -> Result<Document, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read ({e})", path.display()))?;
    Document::parse(&text, &path.display().to_string()).map_err(|e| e.to_string())
}

/// Writes a file through a temporary sibling and a rename, so a failure never leaves a partial
/// file behind.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("out")
    ));
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: cannot write ({e})", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: cannot write ({e})", path.display())
    })
}
