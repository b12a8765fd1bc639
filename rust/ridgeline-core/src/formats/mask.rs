//! Brush mask images: greyscale PNGs referenced by strokes (`"mask": "masks/rock.png"`).

use crate::edit::{MaskImage, MaskLoader};
use std::sync::Arc;

/// Longest side of a brush mask image, in pixels (a mask covers one brush; larger images only
/// cost memory).
pub const MAX_MASK_SIDE: usize = 4096;

/// Decodes a greyscale (8- or 16-bit) PNG of 2..=[`MAX_MASK_SIDE`] pixels per side as a brush
/// mask (values 0–1); `path` names it in errors.
pub fn mask_from_png(bytes: &[u8], path: &str) -> crate::Result<MaskImage> {
    let img = super::png16::read_limited(bytes, 0.0, 1.0, path, MAX_MASK_SIDE)?;
    Ok(MaskImage {
        width: img.width,
        depth: img.depth,
        values: img.heights,
    })
}

/// Loads mask PNGs referenced by strokes of an asset in `dir`, by the one rule for referenced
/// files ([`crate::fsio::resolve_reference`]): relative to `dir`, `res://` from the project root
/// (the nearest ancestor of `dir` with a `project.godot`, else `dir`), never outside it, never an
/// absolute path. Only regular files up to [`crate::fsio::FileKind::Mask`]'s limit are read, so a
/// FIFO or device never blocks and `/dev/zero` never exhausts memory.
pub fn file_mask_loader(dir: std::path::PathBuf) -> MaskLoader {
    let root = crate::fsio::project_root(&dir);
    Arc::new(move |reference: &str| {
        let path =
            crate::fsio::resolve_reference(&dir, &root, reference).map_err(|e| e.to_string())?;
        let bytes = crate::fsio::read_bounded(&path, crate::fsio::FileKind::Mask)
            .map_err(|e| e.to_string())?;
        mask_from_png(&bytes, &path.display().to_string())
            .map(Arc::new)
            .map_err(|e| e.to_string())
    })
}
