//! Heightmap interchange: 16-bit PNG, raw R16/R32, and the terrain JSON format (seed 002);
//! cooked payloads; seed-002 scatter sets ([`scatter_set`]); layer files (seed 004's PNG
//! layout, [`layer_files`] and [`layer_import`]).

pub mod heightmap_import;
pub mod layer_files;
#[cfg(test)]
mod layer_files_tests;
pub mod layer_import;
pub mod mask;
pub mod payload;
mod payload_arrays;
mod payload_biome_rules;
mod payload_meta;
mod payload_packed;
mod payload_paint;
mod payload_scatter;
mod payload_scatter_source;
pub mod scatter_set;
pub mod splat_export;
pub mod splat_regions;
pub use mask::file_mask_loader;
pub use payload_meta::MAX_LEVEL;

// The pure decoders and encoders live in the algorithms layer (the Heightmap node uses them);
// these paths stay for every caller.
pub use crate::heightmap::{HeightImage, png16, raw, terrain_json};
