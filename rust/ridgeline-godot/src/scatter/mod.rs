//! Scatter rendering: `TerrainScatter` draws a terrain's core placements through the
//! rendering and physics servers. No placement is computed here.
//!
//! - [`terrain_scatter`]: the node (properties, API, following the terrain).
//! - [`streaming`]: chunk bookkeeping (build radius, queue and budget, rebuilds, thinning).
//! - [`chunk_build`]: one chunk's MultiMeshes, bodies and node-mode objects.
//! - [`foliage_layer`]: the palette's foliage types, placed by the core per chunk on demand
//!   and drawn through the same streaming and MultiMesh path.
//! - [`rule_geometry`]: a rule's meshes and collision shapes from its PackedScene or Mesh.
//! - [`rule_settings`]: per-rule render settings (thinning, shadows, mode).
//! - [`scatter_stats`]: the node's counters (chunks, instances, builds, memory).

pub mod chunk_build;
pub mod foliage_layer;
pub mod rule_geometry;
pub mod rule_settings;
mod scatter_stats;
pub mod streaming;
pub mod terrain_scatter;
