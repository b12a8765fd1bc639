//! Saves [`TerrainAsset`] resources back to `*.terrain.json` as canonical JSON.

use super::terrain_asset::TerrainAsset;
use godot::classes::{IResourceFormatSaver, ProjectSettings, Resource, ResourceFormatSaver};
use godot::global::Error as GdError;
use godot::prelude::*;

/// Saves [TerrainAsset] documents as canonical JSON (sorted keys, defaults omitted).
///
/// The text goes to a temporary file that then replaces the target by a rename, so a failed
/// save leaves the previous file intact. Like the loader it holds no state and never borrows
/// itself, so a save from any thread is safe.
#[derive(GodotClass)]
#[class(tool, init, base = ResourceFormatSaver)]
pub struct TerrainAssetSaver {
    base: Base<ResourceFormatSaver>,
}

#[godot_api]
impl IResourceFormatSaver for TerrainAssetSaver {
    #[func(gd_self)]
    fn save(
        _this: Gd<Self>,
        resource: Option<Gd<Resource>>,
        path: GString,
        _flags: u32,
    ) -> GdError {
        let Some(asset) = resource.and_then(|r| r.try_cast::<TerrainAsset>().ok()) else {
            return GdError::ERR_INVALID_PARAMETER;
        };
        let text = asset.bind().get_source_json();
        if text.is_empty() {
            godot_error!("{path}: the TerrainAsset holds no valid document; nothing was saved");
            return GdError::ERR_INVALID_DATA;
        }
        write_replacing(&path, &text)
    }

    #[func(gd_self)]
    fn recognize(_this: Gd<Self>, resource: Option<Gd<Resource>>) -> bool {
        is_asset(resource)
    }

    #[func(gd_self)]
    fn get_recognized_extensions(
        _this: Gd<Self>,
        resource: Option<Gd<Resource>>,
    ) -> PackedStringArray {
        if is_asset(resource) {
            PackedStringArray::from(&[GString::from("terrain.json"), GString::from("json")])
        } else {
            PackedStringArray::new()
        }
    }

    #[func(gd_self)]
    fn recognize_path(_this: Gd<Self>, resource: Option<Gd<Resource>>, path: GString) -> bool {
        is_asset(resource)
            && path
                .to_string()
                .to_ascii_lowercase()
                .ends_with(".terrain.json")
    }
}

fn is_asset(resource: Option<Gd<Resource>>) -> bool {
    resource.is_some_and(|r| r.try_cast::<TerrainAsset>().is_ok())
}

/// Writes `text` to `path` atomically through `ridgeline_core::fsio::write_atomic` (the one
/// place that writes asset files): an exclusive, uniquely named temporary in the target's
/// directory, flushed before the rename; the target's permissions kept, a symlinked asset's
/// destination updated, a read-only target refused. A failure leaves the previous file intact.
fn write_replacing(path: &GString, text: &GString) -> GdError {
    let global = ProjectSettings::singleton()
        .globalize_path(path)
        .to_string();
    match ridgeline_core::fsio::write_atomic(
        std::path::Path::new(&global),
        text.to_string().as_bytes(),
    ) {
        Ok(()) => GdError::OK,
        Err(e) => {
            godot_error!("{path}: {e}; the previous file is unchanged");
            GdError::ERR_FILE_CANT_WRITE
        }
    }
}
