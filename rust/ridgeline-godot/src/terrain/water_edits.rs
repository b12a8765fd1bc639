//! Water that follows edits, and water warnings: after a stroke (or undo, redo, layer toggle)
//! the bodies re-resolve their coverage on the edited ground from their definitions (never
//! carving again; water loaded from a payload or the development cache, which keeps coverage
//! but not definitions, re-resolves from its coverage) and the water surfaces of the chunks
//! whose water changed are rebuilt; bank warnings reach Godot.

use super::Terrain3D;
use crate::render::water_surfaces::WaterSurfaces;
use godot::prelude::*;
use ridgeline_core::grid::Field;
use ridgeline_core::hydrology::water::surface_mesh::CellRect;
use std::sync::Arc;

impl Terrain3D {
    /// Re-resolves the water on the current (edited) surface and updates the water surfaces
    /// of the chunks whose water changed (`ground_changed`: the cells whose corner heights,
    /// hole flags or painted depths the edit changed). New bank warnings are pushed as Godot
    /// warnings.
    pub(super) fn refresh_water_after_edit(&mut self, ground_changed: CellRect) {
        let warned = self.water_warnings();
        let Some(before) = self.prepared().as_ref().map(|p| p.water.clone()) else {
            return;
        };
        let (bodies, painted) = self.prepared().as_ref().map_or((false, false), |p| {
            (!p.water.bodies.is_empty(), !p.water.painted.is_empty())
        });
        // Without water before or after there is nothing to follow (painted water erased to
        // nothing still has its old surfaces to remove).
        if !bodies && !painted && self.water.mesh().is_none() {
            return;
        }
        // Painted water alone has nothing to re-resolve: the edit copied its depths and
        // invalidated what it changed; only its mesh follows below.
        if bodies {
            // Re-resolved bodies may change anywhere: the surface index forgets every cell.
            let mut guard = self.prepared_mut();
            let Some(prepared) = guard.as_mut() else {
                return;
            };
            let [w, h] = prepared.field.grid().samples();
            let Ok(ground) = Field::from_vec(w, h, prepared.field.heights().to_vec()) else {
                return;
            };
            let water = Arc::make_mut(&mut Arc::make_mut(prepared).water);
            // Generated water keeps its definitions; water loaded from a payload or the
            // development cache only has its coverage.
            if water.definitions_complete() {
                water.refresh(&ground);
            } else {
                water.refresh_from_coverage(&ground);
            }
        }
        for w in self.water_warnings() {
            if !warned.contains(&w) {
                godot_warn!("{w}");
            }
        }
        if !self.base().is_inside_tree() {
            return;
        }
        let Some(prepared) = self.prepared().clone() else {
            return;
        };
        if let Some(samples) =
            self.water
                .update(&before, &prepared.water, &prepared.field, ground_changed)
        {
            self.show_water_after_edit(samples);
        } else {
            self.free_water();
            self.water = WaterSurfaces::build(&prepared.field, &prepared.water);
            self.attach_water();
        }
    }

    /// Warnings of the current water bodies (bank problems found when resolving them).
    pub(super) fn water_warnings(&self) -> Vec<String> {
        self.prepared().as_ref().map_or_else(Vec::new, |p| {
            p.water
                .bodies
                .iter()
                .flat_map(|b| b.warnings.iter().cloned())
                .collect()
        })
    }
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Problems found in the current surface that did not stop it: water bank warnings (wet
    /// ground reaching a lake's boundary below its level, a river surface reaching a dry side
    /// below its level), refreshed after every edit, and generation warnings. Empty when none.
    #[func]
    pub fn get_warnings(&self) -> PackedStringArray {
        let mut out: PackedStringArray = self
            .prepared()
            .as_ref()
            .map(|p| {
                p.warnings
                    .iter()
                    .map(|w| GString::from(w.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        for w in self.water_warnings() {
            out.push(w.as_str());
        }
        out
    }
}
