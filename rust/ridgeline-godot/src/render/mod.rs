//! What a terrain shows through the servers: chunk meshes with LODs and their collision bodies,
//! and water surfaces. Everything here owns RIDs (never scene-tree nodes) and frees them itself;
//! it knows nothing of the node that places it.

pub mod chunk_data;
pub mod chunks;
pub mod water_surfaces;
