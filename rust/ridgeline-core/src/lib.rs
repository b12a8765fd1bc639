//! Ridgeline core: everything that computes terrain, with no Godot dependency.
//!
//! Data flow: recipe → graph evaluation → base fields → edit replay → prepared terrain
//! ([`pipeline::PreparedTerrain`]) → meshes, queries, payloads and previews. Grid conventions
//! are defined once in [`grid`].
//!
//! ## Layers
//! Each module imports only modules of its own or a lower layer, and no two modules import
//! each other (directly or through others). `cargo xtask test` checks this table against the
//! `crate::…` references in every module's files (tests excepted).
//!
//! | layer | modules |
//! |---|---|
//! | foundations | error, seed, fsio, grid, heightfield, noise, doc |
//! | algorithms | query, mesh, landform, hydrology, edit, heightmap, biome, scatter |
//! | nodes | nodes |
//! | graph | graph |
//! | recipe | recipe |
//! | pipeline | pipeline |
//! | formats | formats, preview |

pub mod biome;
pub mod doc;
pub mod edit;
pub mod error;
pub mod formats;
pub mod fsio;
pub mod graph;
pub mod grid;
pub mod heightfield;
pub mod heightmap;
pub mod hydrology;
pub mod landform;
pub mod mesh;
pub mod nodes;
pub mod noise;
pub mod pipeline;
pub mod preview;
pub mod query;
pub mod recipe;
pub mod scatter;
pub mod seed;

#[cfg(test)]
pub(crate) mod testutil;

pub use error::{Diagnostic, Error, Result};
pub use grid::{Field, Grid, HoleMask, Mask};
pub use heightfield::Heightfield;
pub use query::Hit;

/// Version of the generator. Part of every cache key and payload header: bump it whenever a
/// change alters generated results.
pub const GENERATOR_VERSION: &str = "0.1.1";
