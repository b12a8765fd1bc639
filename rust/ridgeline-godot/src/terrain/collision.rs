//! `Terrain3D`'s collision modes: every chunk's shape (small maps), or only the chunks near
//! moving bodies (large maps; seed 004's `CollisionMode.NearBodies`). In near-bodies mode the
//! terrain follows the moving bodies of its world — every [RigidBody3D] (vehicles included),
//! [CharacterBody3D], [AnimatableBody3D] and [PhysicalBone3D] in the scene tree — and before
//! each physics tick (the tree's `physics_frame` signal, emitted before any node's
//! `_physics_process` and the physics step) builds the chunk shapes within
//! [member Terrain3D.collision_radius] of them and releases the far ones into a pool.

use super::Terrain3D;
use crate::convert::class_enum::class_enum;
use godot::classes::{
    AnimatableBody3D, CharacterBody3D, Node, Node3D, PhysicalBone3D, RigidBody3D,
};
use godot::prelude::*;
use ridgeline_core::mesh::near_chunks::CollisionMode as CoreMode;
use std::cell::RefCell;
use std::rc::Rc;

class_enum! {
    /// How a terrain keeps its collision ([member Terrain3D.collision_mode]).
    pub enum CollisionMode for Terrain3D as "CollisionMode" {
        /// Every chunk's shape up to 600,000 surface triangles (two per cell: a 512 m map at 1 m),
        /// near bodies above (a 1 km map at 1 m has 2.1 million). In the editor, every chunk's
        /// shape up to 2048 × 2048 cells (a 2 km map at 1 m): "Snap Object to Floor" and
        /// placement tools cast physics rays.
        Auto = 0 as "COLLISION_AUTO",
        /// Every chunk has its shape, always.
        Full = 1 as "COLLISION_FULL",
        /// Only the chunks within [member Terrain3D.collision_radius] of a moving body have
        /// shapes. [method Terrain3D.raycast] stays exact everywhere; physics ray queries far
        /// from every moving body miss the terrain.
        NearBodies = 2 as "COLLISION_NEAR_BODIES",
    }
}

impl CollisionMode {
    /// The core's mode (`Auto` in the editor keeps full collision on larger maps: see
    /// [`CoreMode::AutoEditor`]).
    pub fn core(self) -> CoreMode {
        match self {
            CollisionMode::Auto if crate::editor_hint::in_editor() => CoreMode::AutoEditor,
            CollisionMode::Auto => CoreMode::Auto,
            CollisionMode::Full => CoreMode::Full,
            CollisionMode::NearBodies => CoreMode::NearBodies,
        }
    }
}

/// The moving bodies a terrain in near-bodies mode follows, and its tree connections.
#[derive(Default)]
pub struct NearBodies {
    /// Bodies in the terrain's tree (those that left it are dropped at the next tick).
    bodies: Rc<RefCell<Vec<Gd<Node3D>>>>,
    /// `(signal, callable)` connected on the scene tree.
    connections: Vec<(&'static str, Callable)>,
    /// Scratch: the bodies' terrain-local X/Z.
    points: Vec<[f32; 2]>,
}

impl NearBodies {
    /// Whether the terrain follows bodies now.
    pub fn is_following(&self) -> bool {
        !self.connections.is_empty()
    }

    /// Number of bodies followed.
    pub fn body_count(&self) -> usize {
        self.bodies.borrow().len()
    }
}

/// Whether `node` is a body that moves: rigid (vehicles too), character, animatable, bone.
fn is_moving_body(node: &Gd<Node>) -> bool {
    node.clone().try_cast::<RigidBody3D>().is_ok()
        || node.clone().try_cast::<CharacterBody3D>().is_ok()
        || node.clone().try_cast::<AnimatableBody3D>().is_ok()
        || node.clone().try_cast::<PhysicalBone3D>().is_ok()
}

/// Adds `node` (and, when `deep`, its descendants) to `bodies` when it is a moving body.
fn collect(node: &Gd<Node>, bodies: &mut Vec<Gd<Node3D>>, deep: bool) {
    if is_moving_body(node)
        && let Ok(body) = node.clone().try_cast::<Node3D>()
        && !bodies.iter().any(|b| b.instance_id() == body.instance_id())
    {
        bodies.push(body);
    }
    if deep {
        for child in node.get_children().iter_shared() {
            collect(&child, bodies, true);
        }
    }
}

#[godot_api(secondary)]
impl Terrain3D {
    /// The collision mode in use: [constant COLLISION_FULL] or [constant COLLISION_NEAR_BODIES]
    /// ([constant COLLISION_AUTO] decided by the terrain's size), or [constant COLLISION_AUTO]
    /// before the first generation has been shown.
    #[func]
    pub fn get_collision_mode_in_use(&self) -> CollisionMode {
        if !self.chunks.is_built() {
            return CollisionMode::Auto;
        }
        match self.chunks.bodies().mode() {
            CoreMode::NearBodies => CollisionMode::NearBodies,
            _ => CollisionMode::Full,
        }
    }

    /// Collision state: `mode` (the mode in use, as [method get_collision_mode_in_use]),
    /// `chunks` (chunks with a shape in the physics space), `total_chunks`, `pooled` (released
    /// bodies kept for reuse), `built` (chunk shapes built on demand so far) and `bodies` (moving
    /// bodies followed; near-bodies mode only).
    #[func]
    pub fn get_collision_info(&self) -> VarDictionary {
        let b = self.chunks.bodies();
        let mut d = VarDictionary::new();
        d.set("mode", self.get_collision_mode_in_use());
        d.set("chunks", b.chunk_count() as i64);
        d.set("total_chunks", b.total() as i64);
        d.set("pooled", b.pooled() as i64);
        d.set("built", b.built_on_demand() as i64);
        d.set("bodies", self.near_bodies.body_count() as i64);
        d
    }
}

impl Terrain3D {
    /// The core collision mode for the current source's size (full until known).
    pub(super) fn resolved_collision_mode(&self, grid: &ridgeline_core::grid::Grid) -> CoreMode {
        self.collision_mode.core().resolve(grid)
    }

    /// Starts or stops following moving bodies to match the collision mode in use (after the
    /// chunks were built, on entering and leaving the tree).
    pub(super) fn follow_bodies(&mut self) {
        let want = self.base().is_inside_tree()
            && self.chunks.bodies().mode() == CoreMode::NearBodies
            && self.chunks.is_built();
        if want == self.near_bodies.is_following() {
            if want {
                self.step_near_collision();
            }
            return;
        }
        if !want {
            self.stop_following_bodies();
            return;
        }
        if !self.base().is_inside_tree() {
            return;
        }
        let mut tree = self.base().get_tree();
        if let Some(root) = tree.get_root() {
            collect(
                &root.upcast(),
                &mut self.near_bodies.bodies.borrow_mut(),
                true,
            );
        }
        let bodies = self.near_bodies.bodies.clone();
        let me = self.to_gd();
        let added = Callable::from_linked_fn("Terrain3D.follow_body", &me, move |args| {
            if let Some(Ok(node)) = args.first().map(|a| a.try_to::<Gd<Node>>()) {
                collect(&node, &mut bodies.borrow_mut(), false);
            }
        });
        let mut stepper = me.clone();
        let step = Callable::from_linked_fn("Terrain3D.step_near_collision", &me, move |_| {
            stepper.bind_mut().step_near_collision();
        });
        tree.connect("node_added", &added);
        tree.connect("physics_frame", &step);
        self.near_bodies.connections = vec![("node_added", added), ("physics_frame", step)];
        self.step_near_collision();
    }

    /// Disconnects from the tree and forgets the bodies.
    pub(super) fn stop_following_bodies(&mut self) {
        let connections = std::mem::take(&mut self.near_bodies.connections);
        if self.base().is_inside_tree() {
            let mut tree = self.base().get_tree();
            for (signal, callable) in &connections {
                if tree.is_connected(*signal, callable) {
                    tree.disconnect(*signal, callable);
                }
            }
        }
        self.near_bodies.bodies.borrow_mut().clear();
    }

    /// Before a physics tick: builds the chunk shapes near the followed bodies and releases
    /// the far ones.
    fn step_near_collision(&mut self) {
        let start = std::time::Instant::now();
        let Some(prepared) = self.prepared().clone() else {
            return;
        };
        let to_local = self.base().get_global_transform().affine_inverse();
        let mut points = std::mem::take(&mut self.near_bodies.points);
        points.clear();
        self.near_bodies.bodies.borrow_mut().retain(|b| {
            if !b.is_instance_valid() || !b.is_inside_tree() {
                return false;
            }
            let l = to_local * b.get_global_position();
            points.push([l.x, l.z]);
            true
        });
        let radius = self.collision_radius;
        self.chunks
            .bodies_mut()
            .retarget(&prepared.field, &points, radius);
        self.near_bodies.points = points;
        self.frame_cost.physics = start.elapsed().as_secs_f64() * 1e6;
    }
}
