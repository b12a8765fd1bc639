//! Loads `*.terrain.json` files as [`TerrainAsset`] resources.

use crate::terrain_asset::TerrainAsset;
use godot::classes::{FileAccess, IResourceFormatLoader, ResourceFormatLoader};
use godot::global::Error as GdError;
use godot::prelude::*;
use ridgeline_core::recipe::Document;

/// Recognises `*.terrain.json` and cooked `*.terrain.bin` (and only those: other `.json`/`.bin`
/// files are left to Godot) and loads them as `TerrainAsset`. Registered at the front of the loader list by the extension.
#[derive(GodotClass)]
#[class(tool, init, base = ResourceFormatLoader)]
pub struct TerrainAssetLoader {
    base: Base<ResourceFormatLoader>,
}

fn is_terrain_path(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    p.ends_with(".terrain.json") || p.ends_with(".terrain.bin")
}

#[godot_api]
impl IResourceFormatLoader for TerrainAssetLoader {
    fn get_recognized_extensions(&self) -> PackedStringArray {
        PackedStringArray::from(&[GString::from("json"), GString::from("bin")])
    }

    fn recognize_path(&self, path: GString, _type: StringName) -> bool {
        is_terrain_path(&path.to_string())
    }

    fn handles_type(&self, type_: StringName) -> bool {
        type_ == "TerrainAsset" || type_ == "Resource"
    }

    fn get_resource_type(&self, path: GString) -> GString {
        if is_terrain_path(&path.to_string()) {
            GString::from("TerrainAsset")
        } else {
            GString::new()
        }
    }

    fn load(
        &self,
        path: GString,
        _original_path: GString,
        _use_sub_threads: bool,
        _cache_mode: i32,
    ) -> Variant {
        let cooked_path = path
            .to_string()
            .to_ascii_lowercase()
            .ends_with(".terrain.bin");
        if !FileAccess::file_exists(&path) {
            if cooked_path {
                godot_error!(
                    "{path}: the cooked payload is missing; cook it with `ridgeline cook`"
                );
            } else {
                godot_error!("{path}: cannot open the file");
            }
            return (GdError::ERR_FILE_NOT_FOUND.ord() as i64).to_variant();
        }
        let bytes = FileAccess::get_file_as_bytes(&path);
        // Exported games carry `*.terrain.json` paths whose content the export plugin replaced
        // with the cooked payload, so the magic decides, not only the extension.
        if cooked_path
            || bytes
                .as_slice()
                .starts_with(ridgeline_core::formats::payload::MAGIC)
        {
            return match ridgeline_core::formats::payload::decode(
                bytes.as_slice(),
                &path.to_string(),
            ) {
                Ok(prepared) => {
                    let mut asset = TerrainAsset::new_gd();
                    asset.bind_mut().set_cooked(prepared);
                    asset.to_variant()
                }
                Err(e) => {
                    godot_error!("{e}");
                    (GdError::ERR_FILE_CORRUPT.ord() as i64).to_variant()
                }
            };
        }
        let text = String::from_utf8_lossy(bytes.as_slice());
        match Document::parse(&text, &path.to_string()) {
            Ok(doc) => {
                let mut asset = TerrainAsset::new_gd();
                asset.bind_mut().set_document(doc);
                asset.to_variant()
            }
            Err(e) => {
                godot_error!("{e}");
                (GdError::ERR_PARSE_ERROR.ord() as i64).to_variant()
            }
        }
    }
}
