//! Terrain documents as Godot resources: [`terrain_asset::TerrainAsset`] and the loader and saver
//! that read and write `*.terrain.json` (and read cooked `*.terrain.bin`).
//!
//! The loader runs on Godot's loader threads (`ResourceLoader.load_threaded_request`, the
//! editor's previews): its methods take no borrow of any Rust object (gdext's `gd_self`
//! receivers) and only build a fresh, not yet shared `TerrainAsset`, so it needs no
//! thread-safety feature of gdext.

pub mod loader;
pub mod mask_cache;
pub mod saver;
pub mod terrain_asset;
