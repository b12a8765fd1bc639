//! The pipeline: from a recipe to a prepared terrain. It combines the layers below it — the
//! graph evaluates the recipe's nodes, the editing operations replay its strokes — and owns
//! what needs the whole recipe:
//!
//! - [`generate`]: generate, prepare, finish, the base cache key.
//! - [`prepared`]: the prepared terrain (heights, water, masks, biome).
//! - [`session`]: an editable terrain (base + strokes → surface), incremental updates, undo.
//! - [`surface`]: biome ids and surface roles of the finished surface.
//! - [`scatter`]: the placements of the finished surface (graph placements refiltered, or the
//!   conventional pipeline's palette placed).
//! - [`scatter_source`]: what drawing the scatter reads besides the placements (palette,
//!   seed, painted foliage inputs), carried into cooked payloads.
//! - [`sculpted_flow`]: the drainage flow classification reads, on the sculpted ground.
//! - [`compact`]: merging stamps; size/resolution decisions.
//! - [`devcache`]: generated bases stored in the user's cache directory.
//! - [`files`]: the files graph nodes name (heightmaps), read and hashed before evaluation.
//! - [`thumbnail`]: a small shaded picture of what a recipe generates (preset thumbnails).

pub mod compact;
pub mod devcache;
pub mod files;
pub mod generate;
pub mod prepared;
pub mod scatter;
pub mod scatter_source;
pub mod sculpted_flow;
pub mod session;
pub mod surface;
pub mod thumbnail;

#[cfg(test)]
mod scatter_protect_tests;
#[cfg(test)]
mod scatter_tests;
#[cfg(test)]
mod scatter_water_tests;
#[cfg(test)]
mod session_cooked_tests;
#[cfg(test)]
mod session_flow_tests;
#[cfg(test)]
mod session_foliage_tests;
#[cfg(test)]
mod session_hardening_tests;
#[cfg(test)]
mod session_hole_tests;
#[cfg(test)]
mod session_paint_tests;
#[cfg(test)]
mod session_tests;
#[cfg(test)]
mod session_water_tests;
#[cfg(test)]
mod surface_tests;
#[cfg(test)]
mod thread_count_tests;

pub use devcache::{CachedPrepare, DevCache, prepare_cached, prepare_cached_at};
pub use generate::{
    Generated, base_cache_key, base_cache_key_with_files, classify, default_biome_color, explain,
    finish, generate, generate_with_files, generate_with_masks, prepare, prepare_base,
    prepare_base_with_files, read_files,
};
pub use prepared::PreparedTerrain;
pub use scatter_source::ScatterSource;
pub use session::{Change, EditSession};
pub use surface::{Surface, SurfaceSources, SurfaceState};
#[cfg(test)]
mod files_tests;
#[cfg(test)]
mod hardening_tests;
