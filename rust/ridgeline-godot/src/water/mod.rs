//! Water queries from GDScript: [`terrain_water::TerrainWater`] (the entry point),
//! [`sample::WaterSample`], [`tracker::WaterTracker`] and [`event::WaterEvent`]; gameplay nodes
//! on the same query: [`buoyancy::TerrainBuoyancy`], [`swimming::TerrainSwimming`] and
//! [`sensor::TerrainWaterSensor`]. No renderer dependency; never generates on demand. Water reads terrains (through the live-terrain
//! registry); terrains know nothing of these classes.

pub mod buoyancy;
pub mod column;
pub mod event;
pub mod parent_body;
pub mod sample;
pub mod sensor;
pub mod swimming;
pub mod terrain_water;
pub mod tracker;
