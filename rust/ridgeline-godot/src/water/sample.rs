//! `WaterSample`: one water query result, and `WaterSample.Kind`.

use crate::convert::class_enum::class_enum;
use crate::convert::world::normal_to_world;
use crate::terrain::{TerrainHandle, WaterColumn};
use godot::prelude::*;
use ridgeline_core::hydrology::water::WaterKind as CoreWaterKind;

class_enum! {
    /// What kind of water body a [WaterSample] is in.
    pub enum WaterKind for WaterSample as "Kind" {
        /// A lake: fills the submerged region connected to its centre, within a radius.
        Lake = 0 as "KIND_LAKE",
        /// An ocean: covers every submerged sample of its footprint.
        Ocean = 1 as "KIND_OCEAN",
        /// A river: follows an authored path and carries a current
        /// ([member WaterSample.flow_velocity]).
        River = 2 as "KIND_RIVER",
        /// Painted water ([method Terrain3D.paint_water]): no body definition, a depth per
        /// sample; its [member WaterSample.body_id] is `"painted"` and it has no current.
        Painted = 3 as "KIND_PAINTED",
    }
}

impl From<CoreWaterKind> for WaterKind {
    fn from(k: CoreWaterKind) -> Self {
        match k {
            CoreWaterKind::Lake => Self::Lake,
            CoreWaterKind::Ocean => Self::Ocean,
            CoreWaterKind::River => Self::River,
            CoreWaterKind::Painted => Self::Painted,
        }
    }
}

/// One water query result, in world space.
///
/// [method TerrainWater.sample] and [method WaterTracker.update] return it for a wet column:
/// where the water is ([member surface], [member normal]), how deep ([member depth] along
/// [member column_up]), how it moves ([member flow_velocity]), and whether the queried point is
/// in it ([member underwater]). A wet column gives a sample even for a point above the surface
/// or below the bed.
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct WaterSample {
    /// The terrain placement ([member Terrain3D.terrain_id], or the terrain's node path when
    /// that is empty).
    #[var]
    pub terrain_id: GString,
    /// The water body's stable id.
    #[var]
    pub body_id: GString,
    /// The kind of water body: [constant KIND_LAKE], [constant KIND_OCEAN],
    /// [constant KIND_RIVER] or [constant KIND_PAINTED].
    // Own accessors: gdext's generated ones are typed `int` (what the enum converts to), and the
    // class reference takes a property's type from its getter.
    #[var(get = get_kind, set = set_kind)]
    #[init(val = WaterKind::Lake)]
    pub kind: WaterKind,
    /// World-space surface point: the query projected along terrain-local up.
    #[var]
    pub surface: Vector3,
    /// World-space unit surface normal.
    #[var]
    pub normal: Vector3,
    /// Bed-to-surface depth in world units along terrain-local up.
    #[var]
    pub depth: f32,
    /// World-space unit axis from the bed toward the surface (follows the placement, including a
    /// flipped local Y).
    #[var]
    pub column_up: Vector3,
    /// Prescribed current in world units per second (zero where the body has no current): along
    /// a river's nearest path segment, a lake's or ocean's flow direction; on a follow-bed river
    /// it also falls with the sloping surface (its horizontal part is the prescribed speed).
    #[var]
    pub flow_velocity: Vector3,
    /// True when the queried point is at or above the bed and below the surface (a point on the
    /// surface or below the bed is not underwater).
    #[var]
    pub underwater: bool,
    /// Identity for trackers: terrain instance + body (private).
    pub identity: (i64, String),
    base: Base<RefCounted>,
}

#[godot_api]
impl WaterSample {
    /// The kind of water body ([member kind]).
    #[func]
    pub fn get_kind(&self) -> WaterKind {
        self.kind
    }

    /// Sets [member kind].
    #[func]
    pub fn set_kind(&mut self, kind: WaterKind) {
        self.kind = kind;
    }
}

/// Builds a sample in world space from a terrain's water column.
pub fn make_sample(terrain: &TerrainHandle, column: &WaterColumn) -> Gd<WaterSample> {
    let mut out = WaterSample::new_gd();
    out.bind_mut().fill(terrain, column);
    out
}

impl WaterSample {
    /// Sets every member from a terrain's water column (world space).
    pub fn fill(&mut self, terrain: &TerrainHandle, column: &WaterColumn) {
        let WaterColumn {
            to_world: xf,
            local,
            sample: s,
        } = column;
        let up_world = xf.basis * Vector3::UP;
        let scale_up = up_world.length();
        let surface_local = Vector3::new(local.x, s.surface, local.z);
        let bed = s.surface - s.depth;
        let n = Vector3::new(s.normal[0], s.normal[1], s.normal[2]);
        self.terrain_id = terrain.placement_id();
        let key = terrain.instance_key();
        terrain.with_body_id(s.body, |id| {
            self.body_id = GString::from(id);
            if self.identity.0 != key || self.identity.1 != id {
                self.identity = (key, id.to_owned());
            }
        });
        self.kind = s.kind.into();
        self.surface = *xf * surface_local;
        self.normal = normal_to_world(xf, n).unwrap_or(Vector3::ZERO);
        self.depth = s.depth * scale_up;
        self.column_up = if scale_up > 0.0 {
            up_world / scale_up
        } else {
            Vector3::UP
        };
        self.flow_velocity = xf.basis * Vector3::new(s.flow[0], s.flow_rise, s.flow[1]);
        self.underwater = local.y >= bed && local.y < s.surface;
    }
}
