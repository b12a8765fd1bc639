//! Loads `*.terrain.json` files as [`TerrainAsset`] resources.

use super::terrain_asset::TerrainAsset;
use crate::convert::panic_guard;
use godot::classes::{FileAccess, IResourceFormatLoader, ResourceFormatLoader};
use godot::global::Error as GdError;
use godot::prelude::*;
use ridgeline_core::recipe::Document;

/// Loads `*.terrain.json` recipes and cooked `*.terrain.bin` payloads as [TerrainAsset].
///
/// It recognises only those double extensions: other `.json` and `.bin` files are left to
/// Godot's own loaders. The extension registers it at the front of the loader list.
///
/// Godot calls it on its loader threads too ([method ResourceLoader.load_threaded_request], the
/// editor's previews). It holds no state, never borrows itself (every method takes the object
/// handle, not a Rust reference) and only builds a new [TerrainAsset] that no other thread sees
/// before loading returns, so concurrent loads never share Rust data.
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
    #[func(gd_self)]
    fn get_recognized_extensions(_this: Gd<Self>) -> PackedStringArray {
        PackedStringArray::from(&[GString::from("json"), GString::from("bin")])
    }

    #[func(gd_self)]
    fn recognize_path(_this: Gd<Self>, path: GString, _type: StringName) -> bool {
        is_terrain_path(&path.to_string())
    }

    #[func(gd_self)]
    fn handles_type(_this: Gd<Self>, type_: StringName) -> bool {
        type_ == "TerrainAsset" || type_ == "Resource"
    }

    #[func(gd_self)]
    fn get_resource_type(_this: Gd<Self>, path: GString) -> GString {
        if is_terrain_path(&path.to_string()) {
            GString::from("TerrainAsset")
        } else {
            GString::new()
        }
    }

    #[func(gd_self)]
    fn load(
        _this: Gd<Self>,
        path: GString,
        _original_path: GString,
        _use_sub_threads: bool,
        _cache_mode: i32,
    ) -> Variant {
        match panic_guard::catch(|| load_asset(&path)) {
            Ok(Ok(asset)) => asset.to_variant(),
            Ok(Err(code)) => (code.ord() as i64).to_variant(),
            Err(e) => {
                godot_error!("{path}: {e}");
                (GdError::ERR_BUG.ord() as i64).to_variant()
            }
        }
    }
}

/// Reads and decodes the asset at `path`; errors are reported here and answered with the code
/// Godot expects.
fn load_asset(path: &GString) -> Result<Gd<TerrainAsset>, GdError> {
    let cooked_path = path
        .to_string()
        .to_ascii_lowercase()
        .ends_with(".terrain.bin");
    if !FileAccess::file_exists(path) {
        if cooked_path {
            godot_error!("{path}: the cooked payload is missing; cook it with `ridgeline cook`");
        } else {
            godot_error!("{path}: cannot open the file");
        }
        return Err(GdError::ERR_FILE_NOT_FOUND);
    }
    let bytes = FileAccess::get_file_as_bytes(path);
    // Exported games carry `*.terrain.json` paths whose content the export plugin replaced
    // with the cooked payload, so the magic decides, not only the extension.
    if cooked_path
        || bytes
            .as_slice()
            .starts_with(ridgeline_core::formats::payload::MAGIC)
    {
        return match ridgeline_core::formats::payload::decode(bytes.as_slice(), &path.to_string()) {
            Ok(prepared) => {
                let mut asset = TerrainAsset::new_gd();
                asset.bind_mut().set_cooked(prepared);
                Ok(asset)
            }
            Err(e) => {
                godot_error!("{e}");
                Err(GdError::ERR_FILE_CORRUPT)
            }
        };
    }
    let text = String::from_utf8_lossy(bytes.as_slice());
    match Document::parse(&text, &path.to_string()) {
        Ok(doc) => {
            let mut asset = TerrainAsset::new_gd();
            asset.bind_mut().set_document(doc);
            Ok(asset)
        }
        Err(e) => {
            godot_error!("{e}");
            Err(GdError::ERR_PARSE_ERROR)
        }
    }
}
