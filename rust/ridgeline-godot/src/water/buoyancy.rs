//! `TerrainBuoyancy`: floats its parent RigidBody3D on terrain water.

use super::column::{WorldColumn, column_at};
use super::parent_body::ParentBody;
use crate::convert::property_check::{Min, set_number, set_vector};
use godot::classes::{INode, Node};
use godot::prelude::*;

/// Floats its parent [RigidBody3D] on terrain water: add it as a child of the body.
///
/// Once per physics step it samples the water at the body (the same query as
/// [method TerrainWater.sample]) and measures a virtual upright segment of
/// [code]2 × half_height[/code] centred on the body's origin along the column's
/// [member WaterSample.column_up]. The submerged fraction [code]f[/code] of that segment gives a
/// lift of [code]−gravity × mass × density_ratio × f[/code] (so the body settles with
/// [code]2 × half_height / density_ratio[/code] submerged when [code]density_ratio ≥ 1[/code];
/// below 1 it sinks), and drag [code]mass × linear_drag × f × (flow − velocity)[/code] pulls it
/// towards the water's current ([member WaterSample.flow_velocity]); [member angular_drag]
/// damps spin in water (a torque scaled by [code]mass × half_height²[/code]). It does not integrate hull volume or righting torque.
///
/// Forces go only to an enabled dynamic body: nothing happens when the parent is not a
/// [RigidBody3D], is frozen (static or kinematic), is not processing, when the component is
/// disabled, or when the column is dry or missing. It never changes the body's type, gravity,
/// position or shape. Set [member gravity] to the game's gravity times the body's
/// [member RigidBody3D.gravity_scale].
/// [codeblock]
/// var float := TerrainBuoyancy.new()
/// float.half_height = 0.5
/// float.density_ratio = 2.0  # floats half submerged
/// $Boat.add_child(float)
/// [/codeblock]
#[derive(GodotClass)]
#[class(init, base = Node)]
pub struct TerrainBuoyancy {
    /// Applies forces when true.
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// Half the height of the virtual upright segment (world units, > 0).
    #[export(range = (0.01, 100.0, 0.01, or_greater))]
    #[var(set = set_half_height)]
    #[init(val = 0.5)]
    half_height: f32,
    /// Lift at full submersion as a multiple of the body's weight (water density over body
    /// density); ≥ 1 floats with [code]1 / density_ratio[/code] of the segment submerged.
    #[export(range = (0.0, 20.0, 0.01, or_greater))]
    #[var(set = set_density_ratio)]
    #[init(val = 2.0)]
    density_ratio: f32,
    /// Drag towards the water's current, per second, at full submersion.
    #[export(range = (0.0, 20.0, 0.01, or_greater))]
    #[var(set = set_linear_drag)]
    #[init(val = 1.0)]
    linear_drag: f32,
    /// Spin damping in water, per second, at full submersion.
    #[export(range = (0.0, 20.0, 0.01, or_greater))]
    #[var(set = set_angular_drag)]
    #[init(val = 1.0)]
    angular_drag: f32,
    /// The gravity the body falls with (world units/s²): match the game's gravity and the
    /// body's gravity scale.
    #[export]
    #[var(set = set_gravity)]
    #[init(val = Vector3::new(0.0, -9.81, 0.0))]
    gravity: Vector3,
    /// Only water of the terrain with this [member Terrain3D.terrain_id] (empty: any).
    #[export]
    terrain_id: GString,
    /// Submerged fraction 0..1 of the segment at the last physics step (0 when dry;
    /// read-only).
    #[var(no_set)]
    submerged: f32,
    body: ParentBody,
    base: Base<Node>,
}

#[godot_api]
impl INode for TerrainBuoyancy {
    fn physics_process(&mut self, _delta: f64) {
        self.submerged = 0.0;
        if !self.enabled {
            return;
        }
        let Some(mut body) = self.body.dynamic() else {
            return;
        };
        let position = body.get_global_position();
        let Some(c) = column_at(position, &self.terrain_id, |_, column| {
            WorldColumn::of(&column)
        }) else {
            return;
        };
        let f = self.submerged_fraction(&c);
        if f <= 0.0 {
            return;
        }
        self.submerged = f;
        let mass = body.get_mass();
        let lift = -self.gravity * (mass * self.density_ratio * f);
        let drag = (c.flow - body.get_linear_velocity()) * (mass * self.linear_drag * f);
        body.apply_central_force(lift + drag);
        if self.angular_drag > 0.0 {
            // Damping torque with the segment's inertia scale (mass × half_height²).
            let spin = body.get_angular_velocity();
            let h = self.half_height;
            body.apply_torque(-spin * (mass * h * h * self.angular_drag * f));
        }
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
impl TerrainBuoyancy {
    /// Sets [member half_height]; refuses values ≤ 0 or not finite (an error, the old value
    /// kept).
    #[func]
    pub fn set_half_height(&mut self, half_height: f32) {
        set_number(
            &mut self.half_height,
            "TerrainBuoyancy.half_height",
            half_height,
            Min::Above(0.0),
        );
    }
    /// Sets [member density_ratio]; refuses negative or non-finite values.
    #[func]
    pub fn set_density_ratio(&mut self, ratio: f32) {
        set_number(
            &mut self.density_ratio,
            "TerrainBuoyancy.density_ratio",
            ratio,
            Min::AtLeast(0.0),
        );
    }
    /// Sets [member linear_drag]; refuses negative or non-finite values.
    #[func]
    pub fn set_linear_drag(&mut self, drag: f32) {
        set_number(
            &mut self.linear_drag,
            "TerrainBuoyancy.linear_drag",
            drag,
            Min::AtLeast(0.0),
        );
    }
    /// Sets [member angular_drag]; refuses negative or non-finite values.
    #[func]
    pub fn set_angular_drag(&mut self, drag: f32) {
        set_number(
            &mut self.angular_drag,
            "TerrainBuoyancy.angular_drag",
            drag,
            Min::AtLeast(0.0),
        );
    }
    /// Sets [member gravity]; refuses a vector with a NaN or infinite component.
    #[func]
    pub fn set_gravity(&mut self, gravity: Vector3) {
        set_vector(&mut self.gravity, "TerrainBuoyancy.gravity", gravity);
    }

    /// The draft (submerged length of the segment) the body settles at in still water:
    /// [code]2 × half_height / density_ratio[/code], capped at the full segment.
    #[func]
    pub fn expected_draft(&self) -> f32 {
        if self.density_ratio <= 0.0 {
            return 2.0 * self.half_height;
        }
        (2.0 * self.half_height / self.density_ratio).min(2.0 * self.half_height)
    }
}

impl TerrainBuoyancy {
    fn submerged_fraction(&self, c: &WorldColumn) -> f32 {
        let h = self.half_height.max(1e-3);
        // Segment from −h to +h around the origin; the surface is at −height_above_surface.
        let below = (h - c.height_above_surface).clamp(0.0, 2.0 * h);
        below / (2.0 * h)
    }
}
