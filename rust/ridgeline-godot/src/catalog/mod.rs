//! The node catalogue for GDScript: what node types a terrain graph can hold, from the core's
//! declarative registry (`ridgeline_core::nodes::REGISTRY`).

pub mod terrain_nodes;
