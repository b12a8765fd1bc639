//! `TerrainWaterSurface`: the node that shows a terrain's water.

use super::underwater::UnderwaterPass;
use godot::classes::node::InternalMode;
use godot::classes::{GeometryInstance3D, IGeometryInstance3D};
use godot::prelude::*;
use ridgeline_core::Heightfield;
use ridgeline_core::hydrology::water::WaterSet;

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
///
/// It also draws the **underwater view** ([member underwater]): a camera below the surface of
/// the terrain's water sees the scene fogged towards the body's water colour (shallow to deep
/// by the camera's depth) by the distance the light travels through the water, e-folding over
/// the body's absorption distance. Every camera decides for itself from the same water
/// [method TerrainWater.sample] reads, so the editor viewport and each game viewport follow
/// their own camera; hiding this node hides the underwater view too, and it is drawn on the
/// node's [member VisualInstance3D.layers] (taken when the water is rebuilt). The view is an
/// internal full-screen [MeshInstance3D] child named `Underwater`, created when the terrain
/// first has water; it draws no pixel away from water.
#[derive(GodotClass)]
#[class(tool, base = GeometryInstance3D)]
pub struct TerrainWaterSurface {
    /// When true (the default), a camera under this terrain's water sees the underwater tint (a
    /// full-screen pass drawn after the water surfaces); false turns it off for every camera.
    #[export]
    #[var(set = set_underwater)]
    underwater: bool,
    /// The pass (an internal child), created on first use.
    pass: Option<UnderwaterPass>,
    base: Base<GeometryInstance3D>,
}

#[godot_api]
impl IGeometryInstance3D for TerrainWaterSurface {
    fn init(base: Base<GeometryInstance3D>) -> Self {
        Self {
            underwater: true,
            pass: None,
            base,
        }
    }
}

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

    /// Sets [member underwater].
    #[func]
    pub fn set_underwater(&mut self, underwater: bool) {
        self.underwater = underwater;
        if let Some(pass) = &mut self.pass {
            pass.set_enabled(underwater);
        }
    }
}

impl TerrainWaterSurface {
    /// After an edit of the same bodies: the underwater view re-reads `water` over `ground`
    /// where the edit can have changed them (`samples`: x0, z0, x1, z1, half-open), or
    /// entirely when its level grid has to grow.
    pub(crate) fn update_underwater(
        &mut self,
        water: &WaterSet,
        ground: &Heightfield,
        samples: [usize; 4],
    ) {
        let updated = self
            .pass
            .as_mut()
            .filter(|p| p.node().is_instance_valid())
            .is_some_and(|p| p.update_water(water, ground, samples));
        if !updated {
            self.show_underwater(Some((water, ground)));
        }
    }

    /// Shows the underwater view of `water` over `ground` (None: no water, the pass draws
    /// nothing). Creates the pass as an internal child the first time there is water.
    pub(crate) fn show_underwater(&mut self, water: Option<(&WaterSet, &Heightfield)>) {
        if self
            .pass
            .as_ref()
            .is_some_and(|p| !p.node().is_instance_valid())
        {
            self.pass = None;
        }
        if self.pass.is_none() {
            if water.is_none() {
                return;
            }
            let pass = UnderwaterPass::new();
            let node = pass.node().clone();
            self.base_mut()
                .add_child_ex(&node)
                .internal(InternalMode::BACK)
                .done();
            self.pass = Some(pass);
        }
        let enabled = self.underwater;
        let layers = self.base().get_layer_mask();
        if let Some(pass) = &mut self.pass {
            pass.set_water(water);
            pass.set_enabled(enabled);
            pass.set_layers(layers);
        }
    }
}
