//! Terrain documents as Godot resources: [`terrain_asset::TerrainAsset`] and the loader and saver
//! that read and write `*.terrain.json` (and read cooked `*.terrain.bin`); the surface-material
//! resources [`texture_layer::TerrainTextureLayer`] and [`material_set::TerrainMaterialSet`]
//! (with the `*.material_set.json` loader) and their packing into texture arrays.
//!
//! The loader runs on Godot's loader threads (`ResourceLoader.load_threaded_request`, the
//! editor's previews): its methods take no borrow of any Rust object (gdext's `gd_self`
//! receivers) and only build a fresh, not yet shared `TerrainAsset`, so it needs no
//! thread-safety feature of gdext.

pub mod loader;
pub mod mask_cache;
pub mod material_set;
pub mod material_set_loader;
pub mod saver;
pub mod terrain_asset;
pub mod texture_arrays;
pub mod texture_layer;
pub mod user_channel;
