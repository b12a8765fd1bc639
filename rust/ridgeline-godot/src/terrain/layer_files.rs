//! Layer files: `export_layers` writes the terrain's layers as seed-004 PNGs into a folder and
//! `import_layers` reads them back as one batch of replayable patch strokes (one undo step).
//! The core does the work ([`ridgeline_core::formats::layer_files`],
//! [`ridgeline_core::formats::layer_import`]); this file converts paths and reports.

use super::Terrain3D;
use super::edit_session::lock;
use godot::classes::ProjectSettings;
use godot::prelude::*;
use ridgeline_core::formats::{layer_files, layer_import};
use ridgeline_core::fsio;
use std::path::{Path, PathBuf};

/// `dir` as a file-system path (`res://` and `user://` globalized). Refused: an empty path
/// (it would mean the project folder itself), control characters, and a `res://` or `user://`
/// path whose `..` climb above its root (the files would land outside the project or the
/// user folder).
fn folder(dir: &GString) -> Result<PathBuf, String> {
    let text = dir.to_string();
    let shown: String = text.chars().take(80).collect();
    if text.trim().is_empty() {
        return Err("the folder path is empty; give a folder such as res://layers".into());
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the folder path `{}` contains the control character U+{:04X}",
            shown.escape_debug(),
            c as u32
        ));
    }
    for root in ["res://", "user://"] {
        if let Some(rest) = text.strip_prefix(root)
            && fsio::normalise(Path::new(rest)).is_none()
        {
            return Err(format!("the folder path `{shown}` climbs above {root}"));
        }
    }
    Ok(PathBuf::from(
        ProjectSettings::singleton().globalize_path(dir).to_string(),
    ))
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Writes the terrain's layers as PNG layer files (seed 004's layout) into the folder `dir`
    /// (`res://`, `user://` or an absolute path; created if missing): `heightmap.png` (16-bit,
    /// its height range embedded), `surface.png`, `splat-0.png`…`splat-2.png`, `user.png`,
    /// `water.png`, `foliage-0.png`, `foliage-1.png` and the `layers.json` manifest; one
    /// pixel per sample. `layers` selects groups by bit (-1: all; any other value must be a sum
    /// of these bits, or nothing is written): 1 heightmap, 2 surface,
    /// 4 splat weights, 8 user channels, 16 water depth, 32 foliage density. Only files whose
    /// bytes differ from the folder's are written, each atomically. Returns the paths written
    /// (empty when nothing changed); empty with an error when the terrain has no surface yet,
    /// a file cannot be written, or `dir` is refused (empty, control characters, `..` above
    /// `res://` or `user://`). See docs/formats.md for the layout.
    #[func]
    pub fn export_layers(
        &mut self,
        dir: GString,
        #[opt(default = -1)] layers: i64,
    ) -> PackedStringArray {
        let mut out = PackedStringArray::new();
        match self.export_layers_checked(&dir, layers) {
            Ok(paths) => {
                for p in paths {
                    out.push(&GString::from(p.as_str()));
                }
            }
            Err(e) => godot_error!("Terrain3D.export_layers: {e}"),
        }
        out
    }

    /// Reads the PNG layer files in the folder `dir` (as [method export_layers] writes them;
    /// missing files leave their layer as it is) and applies, for every layer whose file
    /// differs from the terrain, one replayable patch stroke over the changed samples — heights,
    /// surface paint, user channels, painted water, foliage density — all as one edit and one
    /// undo step ([method undo_stroke] reverts the whole import); [signal terrain_changed]
    /// follows. Returns false with an error naming the file (and pixel) — and changes
    /// nothing — when a file is not a readable PNG, has another size or format than the
    /// layout's, or holds an invalid value (a surface id that is no surface, weights that do
    /// not sum to 255, density for a foliage type the palette lacks).
    #[func]
    pub fn import_layers(&mut self, dir: GString) -> bool {
        match self.import_layers_counted(&dir) {
            Ok(_) => true,
            Err(e) => {
                godot_error!("Terrain3D.import_layers: {e}");
                false
            }
        }
    }
}

impl Terrain3D {
    /// [method export_layers]: the paths written, or the error.
    pub(crate) fn export_layers_checked(
        &mut self,
        dir: &GString,
        layers: i64,
    ) -> Result<Vec<String>, String> {
        let all = i64::from(layer_files::ALL_GROUPS);
        let groups = match layers {
            -1 => layer_files::ALL_GROUPS,
            l if l > 0 && l & !all == 0 => layer_files::ALL_GROUPS & l as u32,
            _ => {
                return Err(format!(
                    "layers {layers} must be -1 (every layer) or a sum of the layer bits \
                     1, 2, 4, 8, 16 and 32"
                ));
            }
        };
        let session = self.session()?;
        let s = lock(&session).map_err(|_| "the edit session is unusable".to_string())?;
        let files = layer_files::export(&s, &folder(dir)?, groups).map_err(|e| e.to_string())?;
        Ok(files
            .into_iter()
            .filter(|f| f.written)
            .map(|f| f.path.display().to_string())
            .collect())
    }

    /// [method import_layers]: the number of strokes applied (0: the layers already match), or
    /// the located error (nothing changed).
    pub(crate) fn import_layers_counted(&mut self, dir: &GString) -> Result<usize, String> {
        let path = folder(dir)?;
        let mut count = 0;
        let mut error = None;
        let ok = self.edit("import_layers", |s| {
            match layer_import::import(s, &path) {
                Ok((plan, change)) => {
                    count = plan.strokes.len();
                    Ok(change)
                }
                Err(e) => {
                    error = Some(format!("{e}; nothing changed"));
                    // Reported by the caller.
                    Err(String::new())
                }
            }
        });
        match (ok, error) {
            (true, _) => Ok(count),
            (false, Some(e)) => Err(e),
            (false, None) => Err("the terrain cannot be edited now (see the Output panel)".into()),
        }
    }
}
