//! Saves [`TerrainAsset`] resources back to `*.terrain.json` as canonical JSON.

use super::terrain_asset::TerrainAsset;
use godot::classes::file_access::ModeFlags;
use godot::classes::{DirAccess, FileAccess, IResourceFormatSaver, Resource, ResourceFormatSaver};
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

/// Writes `text` to `path` through a temporary file and a rename (the one place that writes
/// asset files; `ridgeline_core`'s atomic writer replaces this body once it exists).
fn write_replacing(path: &GString, text: &GString) -> GdError {
    let tmp = GString::from(format!("{path}.tmp").as_str());
    {
        let Some(mut file) = FileAccess::open(&tmp, ModeFlags::WRITE) else {
            godot_error!("{path}: cannot write ({:?})", FileAccess::get_open_error());
            return GdError::ERR_FILE_CANT_WRITE;
        };
        let stored = file.store_string(text);
        let err = file.get_error();
        file.close();
        if !stored || err != GdError::OK {
            godot_error!("{path}: writing failed ({err:?}); the previous file is unchanged");
            let _ = DirAccess::remove_absolute(&tmp);
            return GdError::ERR_FILE_CANT_WRITE;
        }
    }
    let err = DirAccess::rename_absolute(&tmp, path);
    if err != GdError::OK {
        godot_error!("{path}: cannot replace the file ({err:?})");
        let _ = DirAccess::remove_absolute(&tmp);
    }
    err
}
