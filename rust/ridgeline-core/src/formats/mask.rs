//! Brush mask images: greyscale PNGs referenced by strokes (`"mask": "masks/rock.png"`).

use crate::edit::{MaskImage, MaskLoader};
use std::sync::Arc;

/// Decodes a greyscale (8- or 16-bit) PNG as a brush mask (values 0–1); `path` names it in
/// errors.
pub fn mask_from_png(bytes: &[u8], path: &str) -> crate::Result<MaskImage> {
    let img = super::png16::read(bytes, 0.0, 1.0, path)?;
    Ok(MaskImage {
        width: img.width,
        depth: img.depth,
        values: img.heights,
    })
}

/// Loads mask PNGs relative to `dir` (absolute references are used as they are).
pub fn file_mask_loader(dir: std::path::PathBuf) -> MaskLoader {
    Arc::new(move |reference: &str| {
        let path = dir.join(reference);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        mask_from_png(&bytes, &path.display().to_string())
            .map(Arc::new)
            .map_err(|e| e.to_string())
    })
}
