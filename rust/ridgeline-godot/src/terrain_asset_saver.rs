//! Saves [`TerrainAsset`] resources back to `*.terrain.json` as canonical JSON.

use crate::terrain_asset::TerrainAsset;
use godot::classes::file_access::ModeFlags;
use godot::classes::{DirAccess, FileAccess, IResourceFormatSaver, Resource, ResourceFormatSaver};
use godot::global::Error as GdError;
use godot::prelude::*;

/// Writes canonical JSON (sorted keys, defaults omitted) through a temporary file and a rename,
/// so a failed save leaves the previous file intact.
#[derive(GodotClass)]
#[class(tool, init, base = ResourceFormatSaver)]
pub struct TerrainAssetSaver {
    base: Base<ResourceFormatSaver>,
}

#[godot_api]
impl IResourceFormatSaver for TerrainAssetSaver {
    fn save(&mut self, resource: Option<Gd<Resource>>, path: GString, _flags: u32) -> GdError {
        let Some(asset) = resource.and_then(|r| r.try_cast::<TerrainAsset>().ok()) else {
            return GdError::ERR_INVALID_PARAMETER;
        };
        let text = asset.bind().get_source_json();
        if text.is_empty() {
            godot_error!("{path}: the TerrainAsset holds no valid document; nothing was saved");
            return GdError::ERR_INVALID_DATA;
        }
        let tmp = GString::from(format!("{path}.tmp").as_str());
        {
            let Some(mut file) = FileAccess::open(&tmp, ModeFlags::WRITE) else {
                godot_error!("{path}: cannot write ({:?})", FileAccess::get_open_error());
                return GdError::ERR_FILE_CANT_WRITE;
            };
            file.store_string(&text);
            file.close();
        }
        let err = DirAccess::rename_absolute(&tmp, &path);
        if err != GdError::OK {
            godot_error!("{path}: cannot replace the file ({err:?})");
            let _ = DirAccess::remove_absolute(&tmp);
        }
        err
    }

    fn recognize(&self, resource: Option<Gd<Resource>>) -> bool {
        resource.is_some_and(|r| r.try_cast::<TerrainAsset>().is_ok())
    }

    fn get_recognized_extensions(&self, resource: Option<Gd<Resource>>) -> PackedStringArray {
        if self.recognize(resource) {
            PackedStringArray::from(&[GString::from("terrain.json"), GString::from("json")])
        } else {
            PackedStringArray::new()
        }
    }

    fn recognize_path(&self, resource: Option<Gd<Resource>>, path: GString) -> bool {
        self.recognize(resource)
            && path
                .to_string()
                .to_ascii_lowercase()
                .ends_with(".terrain.json")
    }
}
