//! `ParentBody`: the RigidBody3D a gameplay component (buoyancy, swimming) acts on, looked up
//! when the component enters the tree (its parent cannot change while it stays there) so a
//! physics step does not look it up again.

use godot::classes::{Node, RigidBody3D};
use godot::prelude::*;

/// The component's parent when it is a [RigidBody3D], set on entering the tree and cleared on
/// leaving it (the components call [`ParentBody::enter`] and [`ParentBody::exit`] from their
/// `enter_tree` / `exit_tree`).
#[derive(Default)]
pub struct ParentBody(Option<Gd<RigidBody3D>>);

impl ParentBody {
    /// The component entered the tree under `parent`.
    pub fn enter(&mut self, parent: Option<Gd<Node>>) {
        self.0 = parent.and_then(|p| p.try_cast::<RigidBody3D>().ok());
    }

    /// The component left the tree.
    pub fn exit(&mut self) {
        self.0 = None;
    }

    /// The parent body when forces may go to it: dynamic (not frozen, so neither static nor
    /// kinematic) and processing. Called from the component's physics step, so the component is
    /// in the tree and so is its parent.
    pub fn dynamic(&self) -> Option<Gd<RigidBody3D>> {
        let body = self.0.as_ref()?;
        if body.is_freeze_enabled() || !body.can_process() {
            return None;
        }
        Some(body.clone())
    }
}
