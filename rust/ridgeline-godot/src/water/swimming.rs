//! `TerrainSwimming`: swims its parent RigidBody3D through terrain water.

use super::column::{WorldColumn, column_at};
use super::parent_body::ParentBody;
use crate::convert::property_check::{Min, set_number, set_vector};
use godot::classes::{INode, Node};
use godot::prelude::*;

/// How far above the surface (world units) the body's origin may be and still swim.
const SURFACE_REACH: f32 = 0.5;

/// Swims its parent [RigidBody3D] through terrain water along a direction the game sets each
/// step: add it as a child of the body (with a [TerrainBuoyancy] to keep it afloat).
///
/// Once per physics step, when the body's column is wet, at least [member min_depth] deep, the
/// body's origin at most 0.5 above the surface, and
/// its current no faster than [member max_flow], a force
/// [code]mass × response × (direction × speed + flow − velocity)[/code] (across
/// [member WaterSample.column_up] only) moves the body at [member speed] along
/// [member direction] relative to the water; [member swimming] says whether it did. Shallow or
/// dry water, a current beyond [member max_flow], a zero direction, or a parent that is not an
/// enabled dynamic [RigidBody3D] apply no force. The game owns input, animation, gravity and the
/// switch between walking and swimming.
/// [codeblock]
/// func _physics_process(_delta):
///     $Player/TerrainSwimming.direction = Vector3(Input.get_axis("left", "right"), 0, Input.get_axis("up", "down"))
///     if $Player/TerrainSwimming.swimming:
///         $AnimationPlayer.play("swim")
/// [/codeblock]
#[derive(GodotClass)]
#[class(init, base = Node)]
pub struct TerrainSwimming {
    /// Applies forces when true.
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// World-space swimming direction (normalised internally; zero: no swimming force).
    #[export]
    #[var(set = set_direction)]
    direction: Vector3,
    /// Swimming speed relative to the water (world units/s).
    #[export(range = (0.0, 50.0, 0.01, or_greater))]
    #[var(set = set_speed)]
    #[init(val = 3.0)]
    speed: f32,
    /// Shallowest water (bed-to-surface depth) the body swims in.
    #[export(range = (0.0, 20.0, 0.01, or_greater))]
    #[var(set = set_min_depth)]
    #[init(val = 1.0)]
    min_depth: f32,
    /// Fastest current the body can swim in; beyond it, no swimming force.
    #[export(range = (0.0, 20.0, 0.01, or_greater))]
    #[var(set = set_max_flow)]
    #[init(val = 2.5)]
    max_flow: f32,
    /// How fast the velocity approaches the swimming velocity, per second.
    #[export(range = (0.0, 50.0, 0.01, or_greater))]
    #[var(set = set_response)]
    #[init(val = 4.0)]
    response: f32,
    /// Only water of the terrain with this [member Terrain3D.terrain_id] (empty: any).
    #[export]
    terrain_id: GString,
    /// True when the last physics step applied a swimming force (read-only).
    #[var(no_set)]
    swimming: bool,
    body: ParentBody,
    base: Base<Node>,
}

#[godot_api]
impl INode for TerrainSwimming {
    fn physics_process(&mut self, _delta: f64) {
        self.swimming = false;
        if !self.enabled || self.direction == Vector3::ZERO || self.speed <= 0.0 {
            return;
        }
        let Some(mut body) = self.body.dynamic() else {
            return;
        };
        let Some(c) = column_at(body.get_global_position(), &self.terrain_id, |_, column| {
            WorldColumn::of(&column)
        }) else {
            return;
        };
        if c.depth < self.min_depth
            || c.flow.length() > self.max_flow
            || c.height_above_surface > SURFACE_REACH
        {
            return;
        }
        let up = c.column_up;
        let across = |v: Vector3| v - up * v.dot(up);
        let dir = across(self.direction);
        if dir.length_squared() < 1e-12 {
            return;
        }
        let target = dir.normalized() * self.speed + across(c.flow);
        let dv = target - across(body.get_linear_velocity());
        let mass = body.get_mass();
        body.apply_central_force(dv * (mass * self.response));
        self.swimming = true;
    }

    fn enter_tree(&mut self) {
        let parent = self.base().get_parent();
        self.body.enter(parent);
    }

    fn exit_tree(&mut self) {
        self.body.exit();
    }
}

#[godot_api]
impl TerrainSwimming {
    /// Sets [member direction]; refuses a vector with a NaN or infinite component (an error,
    /// the old direction kept).
    #[func]
    pub fn set_direction(&mut self, direction: Vector3) {
        set_vector(&mut self.direction, "TerrainSwimming.direction", direction);
    }
    /// Sets [member speed]; refuses negative or non-finite values.
    #[func]
    pub fn set_speed(&mut self, speed: f32) {
        set_number(
            &mut self.speed,
            "TerrainSwimming.speed",
            speed,
            Min::AtLeast(0.0),
        );
    }
    /// Sets [member min_depth]; refuses negative or non-finite values.
    #[func]
    pub fn set_min_depth(&mut self, depth: f32) {
        set_number(
            &mut self.min_depth,
            "TerrainSwimming.min_depth",
            depth,
            Min::AtLeast(0.0),
        );
    }
    /// Sets [member max_flow]; refuses negative or non-finite values.
    #[func]
    pub fn set_max_flow(&mut self, flow: f32) {
        set_number(
            &mut self.max_flow,
            "TerrainSwimming.max_flow",
            flow,
            Min::AtLeast(0.0),
        );
    }
    /// Sets [member response]; refuses negative or non-finite values.
    #[func]
    pub fn set_response(&mut self, response: f32) {
        set_number(
            &mut self.response,
            "TerrainSwimming.response",
            response,
            Min::AtLeast(0.0),
        );
    }
}
