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
    /// `to_local * world`, bit for bit. (gdext's operator converts to glam's SIMD types and
    /// repacks the vector through memory, a store-forwarding stall in every query.)
    #[inline]
    pub fn local_point(&self, world: Vector3) -> Vector3 {
        let t = &self.to_local;
        Vector3::new(
            row(t, 0, world) + t.origin.x,
            row(t, 1, world) + t.origin.y,
            row(t, 2, world) + t.origin.z,
        )
    }

    /// `(to_world * local).y`, bit for bit, without the other two components.
    #[inline]
    pub fn world_y(&self, local: Vector3) -> f32 {
        row(&self.to_world, 1, local) + self.to_world.origin.y
    }

    /// A terrain-local normal in world space, unit length; `None` when it is not finite (heights
    /// too large for a finite normal) — the same answer as
    /// [`crate::convert::world::normal_to_world`] on `to_world`.
    #[inline]
    pub fn normal_to_world(&self, n: Vector3) -> Option<Vector3> {
        crate::convert::world::unit(self.normals * n)
    }
}

/// Row `r` of `t`'s basis times `v`, summed in glam's order (x, then y, then z), so that adding
/// the origin gives `(t * v)[r]` exactly.
#[inline(always)]
fn row(t: &Transform3D, r: usize, v: Vector3) -> f32 {
    let b = t.basis.rows[r];
    b.x * v.x + b.y * v.y + b.z * v.z
}

/// What [`TransformCache`] holds.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Held {
    /// Nothing yet.
    #[default]
    Nothing,
    /// The placement of the transform in `to_world`, its parts in their cells.
    Placement,
    /// The transform in `to_world` cannot be inverted (a zero scale).
    Singular,
}

/// See the module documentation.
///
/// The placement's parts sit in cells of their own, so a query copies the transforms it reads
/// straight into registers. (As one `Cell<Option<Placement>>`, every query copied all 132 bytes
/// through a `memcpy` call and then stalled reading them back: about a third of
/// `get_height`'s own cost.) When the transform has to be fetched (under a `Node3D` parent), the
/// last placement is still kept and reused while the fetched transform is bit for bit the same,
/// so a query pays the engine call but not the two matrix inversions.
#[derive(Default)]
pub struct TransformCache {
    held: Cell<Held>,
    to_world: Cell<Transform3D>,
    to_local: Cell<Transform3D>,
    normals: Cell<Basis>,
    /// What is held is the node's current placement: no query needs to ask the engine.
    current: Cell<bool>,
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
        if self.current.get() {
            return self.held();
        }
        let to_world = global();
        if self.held.get() == Held::Nothing || !same_bits(&self.to_world.get(), &to_world) {
            self.hold(to_world);
        }
        self.current.set(self.cacheable.get());
        self.held()
    }

    /// The held placement (`None`: singular, or nothing held).
    #[inline]
    fn held(&self) -> Option<Placement> {
        (self.held.get() == Held::Placement).then(|| Placement {
            to_world: self.to_world.get(),
            to_local: self.to_local.get(),
            normals: self.normals.get(),
        })
    }

    /// Computes and holds the placement of `to_world`.
    fn hold(&self, to_world: Transform3D) {
        self.to_world.set(to_world);
        let det = to_world.basis.determinant();
        if det != 0.0 && det.is_finite() {
            self.to_local.set(to_world.affine_inverse());
            self.normals.set(to_world.basis.inverse().transposed());
            self.held.set(Held::Placement);
        } else {
            self.held.set(Held::Singular);
        }
    }

    /// Forgets that the held placement is current (the node moved): the next query fetches the
    /// transform.
    pub fn invalidate(&self) {
        self.current.set(false);
    }

    /// Re-decides whether caching is safe for `node` (after it entered or left the tree).
    pub fn reconsider(&self, node: &Node3D) {
        let root_of_its_transform = node.is_inside_tree()
            && node
                .get_parent()
                .is_none_or(|p| p.try_cast::<Node3D>().is_err());
        self.cacheable.set(root_of_its_transform);
        self.current.set(false);
    }
}

/// Whether two transforms are the same bit for bit (a `-0.0` for a `0.0` counts as a change, so
/// a reused placement is exactly the one computing it again would give).
#[inline]
fn same_bits(a: &Transform3D, b: &Transform3D) -> bool {
    let same = |u: Vector3, v: Vector3| {
        u.x.to_bits() == v.x.to_bits()
            && u.y.to_bits() == v.y.to_bits()
            && u.z.to_bits() == v.z.to_bits()
    };
    let ([a0, a1, a2], [b0, b1, b2]) = (a.basis.rows, b.basis.rows);
    same(a0, b0) && same(a1, b1) && same(a2, b2) && same(a.origin, b.origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transform with every basis and origin component drawn from `next` (rotations, shears,
    /// non-uniform and mirrored scales, large offsets).
    fn transform(next: &mut impl FnMut() -> f32) -> Transform3D {
        let mut v = || Vector3::new(next(), next(), next());
        Transform3D::new(Basis::from_rows(v(), v(), v()), v())
    }

    #[test]
    fn the_plain_arithmetic_equals_the_operator_bit_for_bit() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let unit = (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
            let scale = [1.0, 3.7, 1e-3, 4096.0, 1e6][(state % 5) as usize];
            unit * scale
        };
        for _ in 0..20_000 {
            let to_world = transform(&mut next);
            let p = Placement {
                to_world,
                to_local: transform(&mut next),
                normals: to_world.basis,
            };
            let v = Vector3::new(next(), next(), next());
            let local = p.to_local * v;
            let mine = p.local_point(v);
            for (a, b) in [(mine.x, local.x), (mine.y, local.y), (mine.z, local.z)] {
                assert_eq!(a.to_bits(), b.to_bits(), "local point of {v}");
            }
            assert_eq!(p.world_y(v).to_bits(), (p.to_world * v).y.to_bits());
        }
    }

    /// The placement computed from scratch, as the cache did before it kept anything.
    fn fresh(t: Transform3D) -> Option<[Transform3D; 2]> {
        let det = t.basis.determinant();
        (det != 0.0 && det.is_finite()).then(|| [t, t.affine_inverse()])
    }

    #[test]
    fn a_fetched_transform_is_asked_every_time_and_the_placement_is_always_its_own() {
        let cache = TransformCache::default();
        let a = Transform3D::new(
            Basis::from_rows(
                Vector3::new(2.0, 0.5, 0.0),
                Vector3::new(0.0, 1.5, -0.25),
                Vector3::new(0.1, 0.0, 3.0),
            ),
            Vector3::new(5.0, -2.0, 7.0),
        );
        let mut b = a;
        b.origin.x = 5.5;
        let mut zero = a;
        zero.basis.rows[1] = Vector3::ZERO;
        let mut negative_zero = b;
        negative_zero.basis.rows[0].z = -0.0;
        let asked = Cell::new(0);
        for (i, t) in [a, a, b, zero, zero, a, negative_zero, b, b]
            .into_iter()
            .enumerate()
        {
            let got = cache.get_with(|| {
                asked.set(asked.get() + 1);
                t
            });
            assert_eq!(asked.get(), i + 1, "not cacheable: every query asks");
            match (got, fresh(t)) {
                (Some(p), Some([w, l])) => {
                    assert!(
                        same_bits(&p.to_world, &w) && same_bits(&p.to_local, &l),
                        "query {i}"
                    );
                }
                (None, None) => {}
                _ => panic!("query {i}: singular in one and not the other"),
            }
        }
    }
}
