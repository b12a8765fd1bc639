//! `TerrainWaterSurface`: the node that shows a terrain's water.

use godot::classes::{GeometryInstance3D, IGeometryInstance3D};
use godot::prelude::*;

/// Shows the water surfaces of its parent [Terrain3D]: a [GeometryInstance3D] whose geometry is
/// the terrain's generated water mesh (one surface per water body, shore-clipped, with the
/// bodies' authored appearance).
///
/// A terrain without one adds an internal [TerrainWaterSurface] (not saved with the scene). Add
/// one yourself as a child of the [Terrain3D] to style the water like any node: hide it
/// ([member Node3D.visible]), replace the water shader for every body
/// ([member GeometryInstance3D.material_override]), choose the render
/// [member VisualInstance3D.layers], [member GeometryInstance3D.cast_shadow], visibility ranges,
/// or script it. The node holds no water data: the geometry comes from the terrain's recipe and
/// is rebuilt when the terrain regenerates or is edited; queries ([TerrainWater]) never depend on
/// it. Keep its transform at identity: it draws in the terrain's local space.
#[derive(GodotClass)]
#[class(tool, init, base = GeometryInstance3D)]
pub struct TerrainWaterSurface {
    base: Base<GeometryInstance3D>,
}

#[godot_api]
impl IGeometryInstance3D for TerrainWaterSurface {}

#[godot_api]
impl TerrainWaterSurface {
    /// Number of water body surfaces the node currently shows (0 before the terrain has water).
    #[func]
    pub fn get_surface_count(&self) -> i32 {
        let base = self.base().get_base();
        if !base.is_valid() {
            return 0;
        }
        godot::classes::RenderingServer::singleton().mesh_get_surface_count(base)
    }
}
