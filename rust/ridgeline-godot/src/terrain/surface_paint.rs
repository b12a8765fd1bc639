//! Painting surfaces at runtime: [method paint_surface] writes `paint_surface` strokes (the
//! core's `edit::paint`: crisp ordered-dither ids in the faceted look, weights that keep their
//! sum in the realistic look) and [method get_layer_weight] reads the weights back. The painted
//! role is what [method get_surface], [method get_surface_role] and the shaders' control
//! texture show.

use super::Terrain3D;
use super::look::Look;
use godot::prelude::*;
use ridgeline_core::biome::roles::Role;
use ridgeline_core::edit::paint::SURFACES;
use serde_json::json;

#[godot_api(secondary)]
impl Terrain3D {
    /// Paints surface `surface` (an index into [method get_surface_names]: 0 ground, 1 grass,
    /// 2 rock, …) on the grid samples within `radius` (terrain-local units, > 0) of `center`
    /// (a world position), with `strength` 0–1.
    ///
    /// In the faceted look ([constant LOOK_FACETED]) a sample takes the surface outright where
    /// `strength` exceeds a 4 × 4 ordered-dither threshold at its grid coordinates — a coverage,
    /// so painting again at the same strength covers the same samples and never creeps. In the
    /// realistic look the surface's weight moves toward 1 by `strength` and the other surfaces'
    /// weights are scaled so the sample's weights still sum to 1 ([method get_layer_weight]);
    /// the sample shows its strongest surface. Roles the generation classified keep their share
    /// until painted over.
    ///
    /// The write is a `paint_surface` stroke (replayed on regeneration, undone by
    /// [method undo_stroke], saved by [method get_runtime_strokes]; repeats with the same
    /// settings merge into one stroke). [method get_surface], [method get_surface_role] and the
    /// drawn surface follow; [signal terrain_changed] reports [constant LAYER_SURFACE]. Returns
    /// false with an error — nothing changed, no signal — for an unknown surface, a non-finite
    /// or non-positive radius, a non-finite position or a strength outside 0–1.
    #[func]
    pub fn paint_surface(
        &mut self,
        center: Vector3,
        radius: f32,
        surface: i32,
        #[opt(default = 1.0)] strength: f32,
    ) -> bool {
        let role = usize::try_from(surface)
            .ok()
            .and_then(|s| Role::from_id(u8::try_from(s).ok()?));
        let why = if role.is_none() {
            Some(format!(
                "no surface {surface}; surfaces are 0..={} (get_surface_names())",
                SURFACES - 1
            ))
        } else if !radius.is_finite() || radius <= 0.0 {
            Some(format!("radius must be finite and > 0, got {radius}"))
        } else if !center.is_finite() {
            Some(format!("center must be finite, got {center}"))
        } else if !(0.0..=1.0).contains(&strength) {
            Some(format!("strength must be 0..=1, got {strength}"))
        } else {
            None
        };
        if let Some(why) = why {
            godot_error!("Terrain3D.paint_surface: {why}; nothing changed");
            return false;
        }
        let Some(role) = role else {
            return false;
        };
        let Some(local) = self.local_xz("paint_surface", center) else {
            return false;
        };
        let mode = if self.look == Look::Faceted {
            "dither"
        } else {
            "blend"
        };
        let stroke = json!({
            "type": "paint_surface", "surface": role.name(), "mode": mode,
            "strength": strength, "center": [local[0], local[1]], "radius": radius,
            "falloff": 1,
        });
        self.edit("paint_surface", |s| {
            s.apply_paint_stamp(&stroke).map_err(|e| e.to_string())
        })
    }

    /// The weight (0–1) of surface `layer` (an index into [method get_surface_names]) at the
    /// grid sample nearest to `world_position`. The weights of a sample sum to 1: an unpainted
    /// sample is 1 for its classified surface and 0 for the others; painting moves weight as
    /// [method paint_surface] describes. 0 outside the terrain or before the first generation;
    /// NAN with an error for an unknown surface.
    #[func]
    pub fn get_layer_weight(&self, layer: i32, world_position: Vector3) -> f32 {
        let Some(role) = usize::try_from(layer).ok().filter(|&l| l < SURFACES) else {
            godot_error!(
                "Terrain3D.get_layer_weight: no surface {layer}; surfaces are 0..={} (get_surface_names())",
                SURFACES - 1
            );
            return f32::NAN;
        };
        self.surface(0.0, |p, xf| {
            let l = xf.local_point(world_position);
            let grid = p.field.grid();
            match grid.nearest_sample(l.x, l.z) {
                Some((x, z)) if grid.contains(l.x, l.z) => {
                    let i = grid.index(x, z);
                    let published = super::surface_classes::role_at(p, i);
                    p.paint.weight(i, role, published)
                }
                _ => 0.0,
            }
        })
    }
}
