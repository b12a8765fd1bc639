//! What games ask about the ground under a point, besides its height: is it on the terrain,
//! which surface (footsteps, friction), how deep the water is, and the smooth normal for
//! placing things. Point forms for convenience, batch forms for hot loops.

use super::Terrain3D;
use crate::convert::panic_guard::or_report;
use godot::prelude::*;
use ridgeline_core::biome::roles::Role;

use ridgeline_core::query::surface_index::{SURFACE_NONE as NONE, SURFACE_WATER as WATER};

#[godot_api(secondary)]
impl Terrain3D {
    /// [method get_surface]: the `ground` surface role — plain ground (soil). Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_GROUND: i32 = Role::Ground as i32;
    /// [method get_surface]: the `grass` surface role — flat, moist soil. Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_GRASS: i32 = Role::Grass as i32;
    /// [method get_surface]: the `rock` surface role — bare rock: steep or eroded. Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_ROCK: i32 = Role::Rock as i32;
    /// [method get_surface]: the `cliff` surface role — very steep rock faces. Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_CLIFF: i32 = Role::Cliff as i32;
    /// [method get_surface]: the `sediment` surface role — deposits and stream beds. Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_SEDIMENT: i32 = Role::Sediment as i32;
    /// [method get_surface]: the `sand` surface role — dry shores. Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_SAND: i32 = Role::Sand as i32;
    /// [method get_surface]: the `snow` surface role — high ground where the biome allows snow. Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_SNOW: i32 = Role::Snow as i32;
    /// [method get_surface]: the `wet_ground` surface role — moist shores. Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_WET_GROUND: i32 = Role::WetGround as i32;
    /// [method get_surface]: the `underwater` surface role — submerged beds (ground under water, or any with `ignore_water`). Also the `surface` of
    /// [method paint_surface] and [method get_layer_weight].
    #[constant]
    pub const SURFACE_UNDERWATER: i32 = Role::Underwater as i32;
    /// [method get_surface] where water covers the ground (unless `ignore_water`).
    #[constant]
    pub const SURFACE_WATER: i32 = WATER;
    /// [method get_surface] outside the terrain, in a hole, or before the first generation.
    #[constant]
    pub const SURFACE_NONE: i32 = NONE;

    /// True when `world_position`'s terrain-local X/Z lies on the terrain (edges included) and
    /// not in a hole: exactly where [method get_height] answers a number.
    #[func]
    pub fn contains(&self, world_position: Vector3) -> bool {
        self.surface(false, |p, xf| {
            let l = xf.local_point(world_position);
            p.field.height_at(l.x, l.z).is_some()
        })
    }

    /// The surface under `world_position`: [constant SURFACE_WATER] where water covers the
    /// ground (depth > 0, the same water as [method get_water_depth]) unless `ignore_water`,
    /// else the surface role of the nearest sample — an index into
    /// [method get_surface_names]: [constant SURFACE_GROUND] (0) … [constant SURFACE_UNDERWATER]
    /// (8), see docs/materials.md — and [constant SURFACE_NONE]
    /// outside the terrain, in a hole, or before the first generation. Roles follow sculpting.
    /// Both arguments are required: a call that leaves a default out goes through Godot's
    /// slower variant call, and this is a per-frame query (docs/runtime-api.md).
    #[func]
    pub fn get_surface(&self, world_position: Vector3, ignore_water: bool) -> i32 {
        self.surface(NONE, |p, xf| {
            let l = xf.local_point(world_position);
            self.view.surface_at(p, l.x, l.z, ignore_water)
        })
    }

    /// [method get_surface] for many positions at once.
    #[func]
    pub fn get_surfaces(
        &self,
        world_positions: PackedVector3Array,
        #[opt(default = false)] ignore_water: bool,
    ) -> PackedInt32Array {
        let none = || PackedInt32Array::from_iter(world_positions.as_slice().iter().map(|_| NONE));
        self.surface(none(), |p, xf| {
            or_report("Terrain3D.get_surfaces", none(), || {
                PackedInt32Array::from_iter(world_positions.as_slice().iter().map(|w| {
                    let l = xf.local_point(*w);
                    self.view.surface_at(p, l.x, l.z, ignore_water)
                }))
            })
        })
    }

    /// The surface names by [method get_surface] index (`"ground"` … `"underwater"`).
    #[func]
    pub fn get_surface_names() -> PackedStringArray {
        Role::ALL.iter().map(|r| GString::from(r.name())).collect()
    }

    /// Water depth (metres above the ground, along the node's Y) at `world_position`: the
    /// [member WaterSample.depth] [method TerrainWater.sample] reports there, 0 where dry,
    /// outside the terrain, in a hole, or before the first generation.
    #[func]
    pub fn get_water_depth(&self, world_position: Vector3) -> f32 {
        self.surface(0.0, |p, xf| {
            let l = xf.local_point(world_position);
            p.water.depth_at(&p.field, l.x, l.z)
        })
    }

    /// [method get_water_depth] for many positions at once.
    #[func]
    pub fn get_water_depths(&self, world_positions: PackedVector3Array) -> PackedFloat32Array {
        let zeros =
            || PackedFloat32Array::from_iter(world_positions.as_slice().iter().map(|_| 0.0));
        self.surface(zeros(), |p, xf| {
            or_report("Terrain3D.get_water_depths", zeros(), || {
                PackedFloat32Array::from_iter(world_positions.as_slice().iter().map(|w| {
                    let l = xf.local_point(*w);
                    p.water.depth_at(&p.field, l.x, l.z)
                }))
            })
        })
    }

    /// The vertex normals interpolated over the triangle under `world_position`, in world
    /// space (unit length): smooth across triangles, for placing and orienting objects
    /// ([method get_normal] is the face normal physics sees). Zero vector outside, in a hole,
    /// or before the first generation.
    #[func]
    pub fn get_smooth_normal(&self, world_position: Vector3) -> Vector3 {
        self.surface(Vector3::ZERO, |p, xf| {
            or_report("Terrain3D.get_smooth_normal", Vector3::ZERO, || {
                let l = xf.local_point(world_position);
                let Some(n) = p.field.smooth_normal_at(l.x, l.z) else {
                    return Vector3::ZERO;
                };
                xf.normal_to_world(Vector3::new(n.x, n.y, n.z))
                    .unwrap_or(Vector3::ZERO)
            })
        })
    }

    /// For tests: how many tiles of the index behind [method get_surface] are current (edits
    /// forget only the tiles whose holes, heights or water they change).
    #[func]
    fn _test_surface_index_tiles(&self) -> i32 {
        self.view.surface_index_valid_tiles() as i32
    }
}
