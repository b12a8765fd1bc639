//! The live-terrain registry: terrains inside the tree, in the order they entered. Water queries
//! and trackers iterate it; it lives on the main thread only.

use super::Terrain3D;
use super::query_view::QueryView;
use super::surface_info::TerrainHandle;
use godot::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// Each live terrain with the view its queries read (held while it is in the tree), so the
    /// water queries reach it without an engine call.
    static LIVE: RefCell<Vec<TerrainHandle>> = const { RefCell::new(Vec::new()) };
}

/// Records a terrain that entered the tree, with its query view.
pub(super) fn register(terrain: Gd<Terrain3D>, view: &Rc<QueryView>) {
    let id = terrain.instance_id();
    LIVE.with(|l| {
        let mut l = l.borrow_mut();
        if !l.iter().any(|t| t.instance_id() == id) {
            l.push(TerrainHandle::new(terrain, Rc::clone(view)));
        }
    });
}

/// Forgets a terrain that left the tree.
pub(super) fn unregister(id: InstanceId) {
    LIVE.with(|l| l.borrow_mut().retain(|t| t.instance_id() != id));
}

/// Terrains currently in the tree and visible (water queries skip hidden ones), in the order
/// they entered.
pub fn live_terrains() -> Vec<Gd<Terrain3D>> {
    let ids: Vec<InstanceId> = LIVE.with(|l| l.borrow().iter().map(|t| t.instance_id()).collect());
    ids.into_iter()
        .filter_map(|id| Gd::<Terrain3D>::try_from_instance_id(id).ok())
        .filter(|t| t.is_visible_in_tree())
        .collect()
}

/// The first `Some` that `f` returns for the live, visible terrains in the order they entered
/// (visibility as the terrains' notifications last reported it); no engine call and no
/// allocation. `f` must not add or remove terrains (it reads one terrain's surface).
pub fn find_live<R>(mut f: impl FnMut(&TerrainHandle) -> Option<R>) -> Option<R> {
    LIVE.with(|l| {
        let Ok(l) = l.try_borrow() else {
            return None;
        };
        l.iter().filter(|t| t.visible()).find_map(&mut f)
    })
}
