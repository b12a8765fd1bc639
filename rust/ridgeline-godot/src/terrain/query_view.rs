//! What the queries read: the node's current surface and cached placement.
//!
//! The node is the only writer; the hot queries (`get_height`, `get_normal`, `get_heights`,
//! `raycast`, `raycast_batch`, `get_biome`, `get_exclusion`) read the view through `&self`, and
//! the water queries reach it without binding the node through a main-thread registry keyed by
//! instance id. The view is single-threaded (`Rc`, `RefCell`): queries from other threads are
//! refused with an error (see [`on_main_thread`]).

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

/// Whether the caller runs on Godot's main thread (cached per thread). Queries check it before
/// touching a view: with gdext's `experimental-threads` a `&self` call can arrive from any
/// thread, and the view is not thread-safe.
pub fn on_main_thread() -> bool {
    thread_local! {
        static MAIN: bool = godot::init::is_main_thread();
    }
    MAIN.try_with(|m| *m).unwrap_or(false)
}
