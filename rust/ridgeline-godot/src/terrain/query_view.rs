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
use ridgeline_core::edit::rect::Rect;
use ridgeline_core::query::surface_index::SurfaceIndex;
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
    /// What `get_surface` reads: hole and water state per cell, built lazily per tile and
    /// invalidated by every write to the surface (see [`Self::prepared_mut`]).
    surface_index: RefCell<SurfaceIndex>,
    /// Set when the index could not be invalidated at once (it was borrowed): the next query
    /// forgets every cell.
    surface_index_stale: Cell<bool>,
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

    /// The current surface, for replacing or editing it in place. The surface index forgets
    /// every cell (whatever the caller changes); edits that know their rectangles use
    /// [`Self::prepared_mut_for_edit`].
    pub fn prepared_mut(&self) -> RefMut<'_, Option<Arc<Prepared>>> {
        self.invalidate_surface_index(None);
        self.prepared.borrow_mut()
    }

    /// [`Self::prepared_mut`] for an edit that reports what it changes through
    /// [`Self::invalidate_surface_samples`] and [`Self::invalidate_surface_cells`].
    pub fn prepared_mut_for_edit(&self) -> RefMut<'_, Option<Arc<Prepared>>> {
        self.prepared.borrow_mut()
    }

    /// The surface index forgets the cells having a sample of `r` as a corner (heights or
    /// water depths changed there).
    pub fn invalidate_surface_samples(&self, r: Rect) {
        if !r.is_empty() {
            self.invalidate_surface_index(Some((r, true)));
        }
    }

    /// The surface index forgets cells `r` (hole flags changed there).
    pub fn invalidate_surface_cells(&self, r: Rect) {
        if !r.is_empty() {
            self.invalidate_surface_index(Some((r, false)));
        }
    }

    fn invalidate_surface_index(&self, what: Option<(Rect, bool)>) {
        let Ok(mut index) = self.surface_index.try_borrow_mut() else {
            self.surface_index_stale.set(true);
            return;
        };
        match what {
            None => index.invalidate_all(),
            Some((r, true)) => index.invalidate_samples(r.x0, r.z0, r.x1, r.z1),
            Some((r, false)) => index.invalidate_cells(r.x0, r.z0, r.x1, r.z1),
        }
    }

    /// The surface at terrain-local (x, z) of `p` (the view's current surface) through the
    /// surface index: hole, water, or the nearest sample's role
    /// ([`ridgeline_core::query::surface_index`]).
    pub fn surface_at(&self, p: &Prepared, x: f32, z: f32, ignore_water: bool) -> i32 {
        use ridgeline_core::query::surface_index::surface_at;
        let roles = &p.surface.classes;
        match self.surface_index.try_borrow_mut() {
            Ok(mut index) => {
                if self.surface_index_stale.take() {
                    index.invalidate_all();
                }
                index.surface_at(&p.field, &p.water, roles, x, z, ignore_water)
            }
            Err(_) => surface_at(&p.field, &p.water, roles, x, z, ignore_water),
        }
    }

    /// Bytes the surface index holds (0 until the first `get_surface`).
    pub fn surface_index_bytes(&self) -> usize {
        self.surface_index
            .try_borrow()
            .map_or(0, |i| i.heap_bytes())
    }

    /// Tiles of the surface index that are current (for tests: edits forget only what they
    /// change).
    pub fn surface_index_valid_tiles(&self) -> usize {
        self.surface_index
            .try_borrow()
            .map_or(0, |i| i.valid_tiles())
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
/// thread, and the view is not thread-safe. The answer is kept in a const-initialised
/// thread-local (0 unknown, 1 main, 2 other), so the usual call reads one byte.
pub fn on_main_thread() -> bool {
    thread_local! {
        static MAIN: std::cell::Cell<u8> = const { std::cell::Cell::new(0) };
    }
    MAIN.try_with(|m| match m.get() {
        1 => true,
        2 => false,
        _ => {
            let main = godot::init::is_main_thread();
            m.set(if main { 1 } else { 2 });
            main
        }
    })
    .unwrap_or(false)
}
