//! What the queries read: the node's current surface and cached placement.
//!
//! The node is the only writer; the hot queries (`get_height`, `get_normal`, `get_heights`,
//! `raycast`, `raycast_batch`, `get_biome`, `get_exclusion`) read the view through `&self`, and
//! the water queries reach it without binding the node through the live-terrain registry
//! ([`super::registry`], main thread). The view is single-threaded (`Rc`, `RefCell`): queries from other threads are
//! refused with an error (see [`on_main_thread`]).

use super::job::Prepared;
use super::transform_cache::TransformCache;
use godot::prelude::*;
use std::cell::{Cell, Ref, RefCell, RefMut};
use std::sync::Arc;

/// The surface and placement a terrain's queries read.
#[derive(Default)]
pub struct QueryView {
    prepared: RefCell<Option<Arc<Prepared>>>,
    /// The placement id water queries match (see [`super::Terrain3D::placement_id`]); empty
    /// uses the node path.
    terrain_id: RefCell<GString>,
    /// The placement id as last computed (cleared when the id or the node's path may change).
    placement_id: RefCell<Option<GString>>,
    /// Whether the node is visible in the tree, kept by its visibility notifications (the
    /// water queries skip hidden terrains without asking the engine).
    visible: Cell<bool>,
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
        self.forget_placement_id();
    }

    /// The cached placement id, or `compute()`'s (then cached).
    pub fn placement_id(&self, compute: impl FnOnce() -> GString) -> GString {
        if let Some(id) = self.placement_id.borrow().as_ref() {
            return id.clone();
        }
        let id = compute();
        *self.placement_id.borrow_mut() = Some(id.clone());
        id
    }

    /// Forgets the cached placement id (the node entered the tree, or its path changed).
    pub fn forget_placement_id(&self) {
        *self.placement_id.borrow_mut() = None;
    }

    /// Whether the node was visible in the tree at its last visibility notification.
    pub fn visible(&self) -> bool {
        self.visible.get()
    }

    /// Records the node's visibility in the tree.
    pub fn set_visible(&self, visible: bool) {
        self.visible.set(visible);
    }
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
