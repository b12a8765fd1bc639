//! What else a `Terrain3D` answers about its surface: biomes, exclusion, raw samples, the water
//! column (for the water queries, through [`TerrainHandle`]), and diagnostics (instance counts,
//! memory).

use super::Terrain3D;
use super::edit_session::lock;
use super::job::Prepared;
use super::queries::surface_of;
use super::query_view::QueryView;
use crate::convert::panic_guard::or_report;
use godot::prelude::*;
use ridgeline_core::hydrology::water::WaterPoint;
use std::rc::Rc;

/// The water column at a point of a terrain, in the terrain's local frame, with the placement
/// that maps it to the world. Built by [`TerrainHandle::water_column`] for the water module.
pub struct WaterColumn {
    /// Terrain-local to world.
    pub to_world: Transform3D,
    /// The queried point, terrain-local.
    pub local: Vector3,
    /// The core's answer (surface, depth, normal, flow, body index; the body's id is
    /// [`TerrainHandle::body_id`]).
    pub sample: WaterPoint,
}

/// A live terrain seen from the water queries: read without binding the node (the live-terrain
/// registry holds one per terrain in the tree).
pub struct TerrainHandle {
    node: Gd<Terrain3D>,
    view: Rc<QueryView>,
}

impl TerrainHandle {
    /// The handle of a terrain with its query view.
    pub(super) fn new(node: Gd<Terrain3D>, view: Rc<QueryView>) -> Self {
        Self { node, view }
    }

    /// The terrain's instance id.
    pub(super) fn instance_id(&self) -> InstanceId {
        self.node.instance_id_unchecked()
    }

    /// Whether the terrain is visible in the tree (as its notifications last reported).
    pub(super) fn visible(&self) -> bool {
        self.view.visible()
    }

    /// The id water queries match: [member Terrain3D.terrain_id], or the node path when empty
    /// (cached until the id or the path changes).
    pub fn placement_id(&self) -> GString {
        self.view.placement_id(|| {
            let id = self.view.terrain_id();
            if id.is_empty() {
                GString::from(self.node.get_path().to_string().as_str())
            } else {
                id
            }
        })
    }

    /// Key identifying this placement in tracker identities.
    pub fn instance_key(&self) -> i64 {
        self.node.instance_id_unchecked().to_i64()
    }

    /// The water column at a world position, if this terrain has water there.
    pub fn water_column(&self, world: Vector3) -> Option<WaterColumn> {
        surface_of(&self.view, &self.node, None, |p, xf| {
            let local = xf.local_point(world);
            let sample = or_report("TerrainWater.sample", None, || {
                p.water.point(&p.field, local.x, local.z)
            })?;
            Some(WaterColumn {
                to_world: xf.to_world,
                local,
                sample,
            })
        })
    }

    /// `f` of the stable id of body `index` ([`WaterPoint::body`]) of the current water;
    /// `None` when there is no such body.
    pub fn with_body_id<R>(&self, index: usize, f: impl FnOnce(&str) -> R) -> Option<R> {
        let prepared = self.view.try_prepared()?;
        let water = &prepared.as_ref()?.water;
        if index == ridgeline_core::hydrology::water::PAINTED_BODY {
            return Some(f(ridgeline_core::hydrology::water::PAINTED_BODY_ID));
        }
        let body = water.bodies.get(index)?;
        Some(f(&body.id))
    }
}

#[godot_api(secondary)]
impl Terrain3D {
    /// The biome at `world_position` at the nearest sample: the painted region, else the
    /// recipe's biome rules, else the default biome (see [code]ridgeline explain[/code] for why);
    /// an empty name outside the terrain and in a hole.
    #[func]
    pub fn get_biome(&self, world_position: Vector3) -> StringName {
        self.surface(StringName::default(), |p, xf| {
            let local = xf.local_point(world_position);
            or_report("Terrain3D.get_biome", StringName::default(), || {
                if p.field.height_at(local.x, local.z).is_none() {
                    return StringName::default();
                }
                if let Some(s) = &p.edits {
                    match lock(s) {
                        Ok(s) => {
                            if let Some(b) = s.biome_at(local.x, local.z) {
                                return StringName::from(b);
                            }
                        }
                        Err(e) => {
                            godot_error!("Terrain3D.get_biome: {e}");
                            return StringName::default();
                        }
                    }
                } else if let Some((x, z)) = nearest_sample(p, local)
                    && let Some(b) = p
                        .surface
                        .biome_id(p.field.grid().index(x, z))
                        .and_then(|id| p.surface.biome(id))
                {
                    return StringName::from(b.name.as_str());
                } else if let Some((x, z)) = nearest_sample(p, local)
                    && let Some(&id) = p.regions.get(p.field.grid().index(x, z))
                    && id > 0
                    && let Some(name) = p.region_biomes.get(id as usize - 1)
                {
                    return StringName::from(name.as_str());
                }
                StringName::from(p.default_biome.as_str())
            })
        })
    }

    /// Exclusion weight (0–1) painted at `world_position`; 0 where nothing is painted or
    /// outside, NAN (with an error) when the edit session was lost.
    #[func]
    pub fn get_exclusion(&self, world_position: Vector3) -> f32 {
        self.surface(0.0, |p, xf| {
            let local = xf.local_point(world_position);
            let Some((x, z)) = nearest_sample(p, local) else {
                return 0.0;
            };
            let i = p.field.grid().index(x, z);
            match &p.edits {
                Some(s) => match lock(s) {
                    Ok(s) => s.exclusion().get(i).copied().unwrap_or(0.0),
                    Err(e) => {
                        godot_error!("Terrain3D.get_exclusion: {e}");
                        f32::NAN
                    }
                },
                None => p.exclusion.get(i).copied().unwrap_or(0.0),
            }
        })
    }

    /// Height of grid sample (`x`, `z`) in terrain-local units (NAN outside the grid). For
    /// tools and tests that need the raw grid.
    #[func]
    pub fn get_sample_height(&self, x: i32, z: i32) -> f32 {
        let prepared = self.prepared();
        let Some(p) = prepared.as_ref() else {
            return f32::NAN;
        };
        let [w, h] = p.field.grid().samples();
        if x < 0 || z < 0 || x as usize >= w || z as usize >= h {
            return f32::NAN;
        }
        p.field.sample(x as usize, z as usize)
    }

    /// Cells along X and Z (zero before the first generation).
    #[func]
    pub fn get_cell_counts(&self) -> Vector2i {
        self.prepared().as_ref().map_or(Vector2i::ZERO, |p| {
            let [x, z] = p.field.grid().cells();
            Vector2i::new(x as i32, z as i32)
        })
    }

    /// Number of water surfaces currently shown (one per body with water, all drawn by the
    /// terrain's [TerrainWaterSurface]; water has no collider).
    #[func]
    pub fn get_water_instance_count(&self) -> i32 {
        self.water.surface_count() as i32
    }

    /// Number of chunk mesh instances currently owned (the mesh path; 0 on the GPU path, whose
    /// chunks are instances of shared patches: see [method get_chunk_count]).
    #[func]
    pub fn get_chunk_instance_count(&self) -> i32 {
        self.chunks.instance_count() as i32
    }

    /// Bytes the extension itself holds for the current surface, by part: `surface` (heights,
    /// normals, holes, bounds), `classes` (the biome and surface role of every sample, and the
    /// painted exclusion and regions when there are any), `meshes` and `collision` (CPU chunk data waiting for the
    /// servers; zero once the terrain is shown — it is rebuilt from the surface when needed),
    /// `water`, `query_index` (one byte per cell once [method get_surface] was called),
    /// `patches` (the GPU path's level errors and instance buffer) and `total`. Server-side copies (GPU buffers, physics shapes) are counted by
    /// Godot, not here.
    #[func]
    pub fn get_memory_usage(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let (surface, water, classes) = self.prepared().as_ref().map_or((0, 0, 0), |p| {
            let s = &p.surface;
            let classes = s.classes.heap_bytes() + p.exclusion.len() * 4 + p.regions.len() * 2;
            (p.field.heap_bytes(), p.water.heap_bytes(), classes)
        });
        let (meshes, collision) = self
            .pending_chunks
            .as_ref()
            .map_or((0, 0), |c| c.heap_bytes());
        d.set("surface", surface as i64);
        d.set("classes", classes as i64);
        d.set("meshes", meshes as i64);
        d.set("collision", collision as i64);
        let index = self.view.surface_index_bytes();
        let patches = self.chunks.patches().map_or(0, |p| p.heap_bytes());
        d.set("water", water as i64);
        d.set("query_index", index as i64);
        d.set("patches", patches as i64);
        d.set(
            "total",
            (surface + classes + meshes + collision + water + index + patches) as i64,
        );
        d
    }
}

/// The grid sample nearest to terrain-local `local` (X/Z), if inside.
fn nearest_sample(p: &Prepared, local: Vector3) -> Option<(usize, usize)> {
    p.field.grid().nearest_sample(local.x, local.z)
}
