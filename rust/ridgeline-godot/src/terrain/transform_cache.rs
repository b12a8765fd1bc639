//! The node's global transform, kept across queries while it provably cannot change unseen.
//!
//! Each query needs the terrain's global transform; fetching it from the engine costs about as
//! much as the query itself. The transform is cached only while the node's global transform
//! equals its local one — it is inside the tree and its parent is not a `Node3D` (a scene root,
//! a plain `Node`, a `Window`) — because every change of the local transform reaches the node
//! synchronously as `NOTIFICATION_LOCAL_TRANSFORM_CHANGED`, which clears the cache before any
//! later query. Under a `Node3D` parent, an ancestor can move the terrain without the node
//! being told until the end of the frame, so every query asks the engine.

use godot::classes::Node3D;
use godot::prelude::*;
use std::cell::Cell;

/// A global transform with its inverse and the basis that carries normals to world space.
#[derive(Clone, Copy)]
pub struct Placement {
    /// Terrain-local to world.
    pub to_world: Transform3D,
    /// World to terrain-local.
    pub to_local: Transform3D,
    /// The inverse transpose of `to_world`'s basis (normals stay perpendicular to the surface
    /// under non-uniform scale), computed once per placement instead of once per query.
    pub normals: Basis,
}

impl Placement {
    /// A terrain-local normal in world space, unit length; `None` when it is not finite (heights
    /// too large for a finite normal) — the same answer as
    /// [`crate::convert::world::normal_to_world`] on `to_world`.
    #[inline]
    pub fn normal_to_world(&self, n: Vector3) -> Option<Vector3> {
        crate::convert::world::unit(self.normals * n)
    }
}

/// See the module documentation.
#[derive(Default)]
pub struct TransformCache {
    /// `Some(None)`: cached, and the transform cannot be inverted (a zero scale).
    cached: Cell<Option<Option<Placement>>>,
    /// The global transform can only change through the node's own local transform.
    cacheable: Cell<bool>,
}

impl TransformCache {
    /// The node's current placement; `None` when its transform cannot be inverted (scaled to
    /// zero along an axis), so that no world position maps onto the terrain.
    pub fn get(&self, node: &Node3D) -> Option<Placement> {
        self.get_with(|| node.get_global_transform())
    }

    /// [`Self::get`] that reaches the node only when the transform is not cached: `global`
    /// fetches it. (Borrowing a node's base handle costs an engine call per query; a cached
    /// transform needs none.)
    #[inline]
    pub fn get_with(&self, global: impl FnOnce() -> Transform3D) -> Option<Placement> {
        if let Some(p) = self.cached.get() {
            return p;
        }
        let to_world = global();
        let det = to_world.basis.determinant();
        let p = (det != 0.0 && det.is_finite()).then(|| Placement {
            to_world,
            to_local: to_world.affine_inverse(),
            normals: to_world.basis.inverse().transposed(),
        });
        if self.cacheable.get() {
            self.cached.set(Some(p));
        }
        p
    }

    /// Forgets the cached transform (the node moved).
    pub fn invalidate(&self) {
        self.cached.set(None);
    }

    /// Re-decides whether caching is safe for `node` (after it entered or left the tree).
    pub fn reconsider(&self, node: &Node3D) {
        let root_of_its_transform = node.is_inside_tree()
            && node
                .get_parent()
                .is_none_or(|p| p.try_cast::<Node3D>().is_err());
        self.cacheable.set(root_of_its_transform);
        self.cached.set(None);
    }
}
