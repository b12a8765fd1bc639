//! Water queries from GDScript: [`terrain_water::TerrainWater`] (the entry point),
//! [`sample::WaterSample`], [`tracker::WaterTracker`] and [`event::WaterEvent`]. No renderer
//! dependency; never generates on demand. Water reads terrains (through the live-terrain
//! registry); terrains know nothing of these classes.

pub mod event;
pub mod sample;
pub mod terrain_water;
pub mod tracker;
