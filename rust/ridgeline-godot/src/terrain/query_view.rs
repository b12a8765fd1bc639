//! What the hot queries read, reachable without binding the node.
//!
//! The extension needs gdext's `experimental-threads` feature (Godot calls the resource loader
//! on its loader threads; see the crate documentation). With it, every `&self` or `&mut self`
//! method call locks the node's cell and wakes a condition variable on release — a futex system
//! call that costs far more than a height query. The hot queries (`get_height`, `get_normal`,
//! `get_heights`, `raycast`, `raycast_batch`, water samples) therefore take the node handle
//! (`#[func(gd_self)]`) and read this view, which the node shares through a main-thread registry
//! keyed by instance id. The node remains the only writer; the view holds the current surface
//! and the cached placement.

use super::job::Prepared;
use super::transform_cache::TransformCache;
use godot::prelude::*;
use std::cell::{Ref, RefCell, RefMut};
use std::rc::{Rc, Weak};
use std::sync::Arc;

/// The surface and placement a terrain's queries read.
#[derive(Default)]
pub struct QueryView {
    prepared: RefCell<Option<Arc<Prepared>>>,
    /// The placement id water queries match (see [`super::Terrain3D::placement_id`]); empty
    /// uses the node path.
    terrain_id: RefCell<GString>,
    /// The node's global transform, cached while provably current.
    pub xform: TransformCache,
}

impl QueryView {
    /// The current surface (for reading).
    pub fn prepared(&self) -> Ref<'_, Option<Arc<Prepared>>> {
        self.prepared.borrow()
    }

    /// The current surface, for reading if no write is under way (a query during an edit sees
    /// nothing rather than panicking).
    pub fn try_prepared(&self) -> Option<Ref<'_, Option<Arc<Prepared>>>> {
        self.prepared.try_borrow().ok()
    }

    /// The current surface, for replacing or editing it in place.
    pub fn prepared_mut(&self) -> RefMut<'_, Option<Arc<Prepared>>> {
        self.prepared.borrow_mut()
    }

    /// The terrain id as last set on the node.
    pub fn terrain_id(&self) -> GString {
        self.terrain_id.borrow().clone()
    }

    /// Records the node's terrain id.
    pub fn set_terrain_id(&self, id: GString) {
        *self.terrain_id.borrow_mut() = id;
    }
}

thread_local! {
    /// Views of the terrains registered on this (the main) thread. Weak: a freed terrain's
    /// entry stops answering and is pruned at the next registration.
    static VIEWS: RefCell<Vec<(InstanceId, Weak<QueryView>)>> = const { RefCell::new(Vec::new()) };
}

/// Makes `view` reachable from queries on `id` (idempotent).
pub fn register(id: InstanceId, view: &Rc<QueryView>) {
    VIEWS.with(|v| {
        let mut v = v.borrow_mut();
        v.retain(|(_, w)| w.strong_count() > 0);
        if !v.iter().any(|(i, _)| *i == id) {
            v.push((id, Rc::downgrade(view)));
        }
    });
}

/// The view of the terrain `id`; `None` when the terrain is unknown on this thread (queries are
/// answered on the main thread) or gone.
pub fn view_of(id: InstanceId) -> Option<Rc<QueryView>> {
    VIEWS.with(|v| {
        v.borrow()
            .iter()
            .find(|(i, _)| *i == id)
            .and_then(|(_, view)| view.upgrade())
    })
}
