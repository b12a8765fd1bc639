//! Hydrology: drainage (priority flood, flow, basins) and erosion.

pub mod drainage;
pub mod erosion;
pub mod water;

pub use drainage::{Basin, Drainage};

#[cfg(test)]
mod node_tests;
