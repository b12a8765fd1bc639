//! The live-terrain registry: terrains inside the tree, in the order they entered. Water queries
//! and trackers iterate it; it lives on the main thread only.

use super::Terrain3D;
use godot::prelude::*;
use std::cell::RefCell;

thread_local! {
    static LIVE: RefCell<Vec<InstanceId>> = const { RefCell::new(Vec::new()) };
}

/// Records a terrain that entered the tree.
pub(super) fn register(terrain: Gd<Terrain3D>) {
    let id = terrain.instance_id();
    LIVE.with(|l| {
        let mut l = l.borrow_mut();
        if !l.contains(&id) {
            l.push(id);
        }
    });
}

/// Forgets a terrain that left the tree.
pub(super) fn unregister(id: InstanceId) {
    LIVE.with(|l| l.borrow_mut().retain(|x| *x != id));
}

/// Terrains currently in the tree and visible (water queries skip hidden ones), in the order
/// they entered.
pub fn live_terrains() -> Vec<Gd<Terrain3D>> {
    let ids: Vec<InstanceId> = LIVE.with(|l| l.borrow().clone());
    ids.into_iter()
        .filter_map(|id| Gd::<Terrain3D>::try_from_instance_id(id).ok())
        .filter(|t| t.is_visible_in_tree())
        .collect()
}
