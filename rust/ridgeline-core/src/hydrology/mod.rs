//! Hydrology: drainage (priority flood, flow, basins), erosion and water bodies. (The water
//! nodes' tests, which run whole graphs, are in `nodes/hydrology_tests.rs`.)

pub mod drainage;
pub mod erosion;
pub mod water;

pub use drainage::{Basin, Drainage};
