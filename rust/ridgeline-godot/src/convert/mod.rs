//! Foundations shared by every class: GDScript values to JSON, caught panics as errors, Rust
//! enums as Godot class enums, terrain-local directions to world space. No engine objects are
//! owned here.

pub mod class_enum;
pub mod panic_guard;
pub mod property_check;
pub mod variant_json;
pub mod world;
