//! The `Terrain3D` node.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;

/// A heightmap terrain generated from a Ridgeline recipe.
///
/// Terrain-local X and Z run from 0 to the terrain's size; the node's transform places the
/// terrain in the world.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct Terrain3D {
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for Terrain3D {}

#[godot_api]
impl Terrain3D {
    /// Version of the Ridgeline generator this extension was built with.
    #[func]
    fn get_generator_version() -> GString {
        GString::from(ridgeline_core::GENERATOR_VERSION)
    }
}
