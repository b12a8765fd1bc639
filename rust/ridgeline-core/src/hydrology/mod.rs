//! Hydrology: drainage (priority flood, flow, basins) and erosion.

pub mod drainage;
pub mod erosion;

pub use drainage::{Basin, Drainage};
