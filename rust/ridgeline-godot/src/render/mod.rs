//! What a terrain shows through the servers: chunk meshes with LODs and their collision bodies,
//! the surface material (realistic or faceted shader), and water surfaces. Everything here owns RIDs (never scene-tree nodes) and frees them itself;
//! it knows nothing of the node that places it.

pub mod chunk_data;
pub mod chunks;
pub mod surface_material;
pub mod water_surfaces;
