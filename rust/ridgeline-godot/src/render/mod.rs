//! What a terrain shows through the servers: chunk meshes with LODs and their collision bodies,
//! the surface material (realistic or faceted shader), and water surfaces (shown by the
//! `TerrainWaterSurface` node, the one node here, with its underwater pass). Everything else owns RIDs and frees them itself;
//! it knows nothing of the node that places it.

pub mod chunk_collision;
pub mod chunk_data;
pub mod chunk_upload;
pub mod chunks;
pub mod paint_texture;
pub mod patch_shader;
pub mod patches;
pub mod surface_material;
pub mod underwater;
pub mod water_node;
pub mod water_surfaces;
