//! What games ask a `Terrain3D` every frame: heights, normals and rays.
//!
//! These are the hot calls. They take `&self` — a shared borrow of the node's cell, which with
//! the patched `godot-cell` (see `vendor/godot-cell/RIDGELINE.md`) makes no system call — and
//! read the node's [`QueryView`]; they reuse the cached transform and build no Dictionary,
//! except [`Terrain3D::raycast`], kept for convenience. (`#[func(gd_self)]` costs more: gdext
//! clones and type-checks the object handle through the engine on every call.)

use super::Terrain3D;
use super::job::Prepared;
use super::query_view::{QueryView, on_main_thread};
use super::ray_hit::TerrainRayHit;
use super::transform_cache::Placement;
use crate::convert::panic_guard::or_report;
use crate::convert::world::{length, unit};
use godot::classes::Node3D;
use godot::obj::WithBaseField;
use godot::prelude::*;

/// A hit in world space: position, normal facing the ray, distance from the origin.
struct WorldHit {
    position: Vector3,
    normal: Vector3,
    distance: f32,
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Terrain size in terrain-local units (X, Z); zero before the first generation.
    #[func]
    pub fn get_size(&self) -> Vector2 {
        self.prepared().as_ref().map_or(Vector2::ZERO, |p| {
            let [x, z] = p.field.grid().size();
            Vector2::new(x, z)
        })
    }

    /// Height of the terrain surface under (or over) `world_position`: the point on the drawn
    /// full-detail triangle at the position's terrain-local X/Z, returned as a world-space Y.
    /// NAN outside the terrain, in a hole, or before the first generation.
    #[func]
    pub fn get_height(&self, world_position: Vector3) -> f32 {
        self.surface(f32::NAN, |p, xf| {
            or_report("Terrain3D.get_height", f32::NAN, || {
                let local = xf.local_point(world_position);
                match p.field.height_at(local.x, local.z) {
                    Some(h) => xf.world_y(Vector3::new(local.x, h, local.z)),
                    None => f32::NAN,
                }
            })
        })
    }

    /// An extension call that does nothing, with [method get_height]'s signature and receiver:
    /// the baseline the `godot_get_height_call` benchmark compares against (call and argument
    /// overhead only).
    #[func]
    pub fn _empty_query(&self, _world_position: Vector3) -> f32 {
        0.0
    }

    /// [method get_height] for many positions at once (NAN where outside or in a hole).
    #[func]
    pub fn get_heights(&self, world_positions: PackedVector3Array) -> PackedFloat32Array {
        let nans =
            || PackedFloat32Array::from_iter(world_positions.as_slice().iter().map(|_| f32::NAN));
        self.surface(nans(), |p, xf| {
            or_report("Terrain3D.get_heights", nans(), || {
                let points: Vec<[f32; 2]> = world_positions
                    .as_slice()
                    .iter()
                    .map(|w| {
                        let l = xf.local_point(*w);
                        [l.x, l.z]
                    })
                    .collect();
                let mut out = vec![0.0f32; points.len()];
                p.field.heights_at(&points, &mut out);
                for (h, pt) in out.iter_mut().zip(&points) {
                    if h.is_finite() {
                        *h = xf.world_y(Vector3::new(pt[0], *h, pt[1]));
                    }
                }
                PackedFloat32Array::from(out.as_slice())
            })
        })
    }

    /// Face normal of the terrain triangle under `world_position`, in world space (unit
    /// length). Zero vector outside, in a hole, or before the first generation.
    #[func]
    pub fn get_normal(&self, world_position: Vector3) -> Vector3 {
        self.surface(Vector3::ZERO, |p, xf| {
            or_report("Terrain3D.get_normal", Vector3::ZERO, || {
                let local = xf.local_point(world_position);
                let Some(n) = p.field.normal_at(local.x, local.z) else {
                    return Vector3::ZERO;
                };
                xf.normal_to_world(Vector3::new(n.x, n.y, n.z)).unwrap_or_else(|| {
                    godot_error!(
                        "Terrain3D.get_normal: no normal at {world_position} (a zero-scaled node \
                         or heights too large for a finite normal)"
                    );
                    Vector3::ZERO
                })
            })
        })
    }

    /// Casts a ray against the terrain surface (both faces; holes are skipped). Returns
    /// `{ "position": Vector3, "normal": Vector3, "distance": float }` in world space, or an
    /// empty Dictionary on a miss. In hot loops use [method raycast_batch], which builds no
    /// Dictionary.
    #[func]
    pub fn raycast(&self, from: Vector3, direction: Vector3, max_distance: f32) -> VarDictionary {
        let hit = self.surface(None, |p, xf| {
            cast(p, xf, from, direction, max_distance, Normal::Wanted)
        });
        match hit {
            Some(h) => self.hit_keys.dictionary(h.position, h.normal, h.distance),
            None => VarDictionary::new(),
        }
    }

    /// [method raycast] into a reusable [TerrainRayHit] (no Dictionary per ray): fills `hit`
    /// and returns true on a hit; on a miss returns false, sets [member TerrainRayHit.hit] to
    /// false and leaves its other members unchanged.
    #[func]
    pub fn raycast_into(
        &self,
        from: Vector3,
        direction: Vector3,
        max_distance: f32,
        mut hit: Gd<TerrainRayHit>,
    ) -> bool {
        let found = self.surface(None, |p, xf| {
            cast(p, xf, from, direction, max_distance, Normal::Wanted)
        });
        let mut h = hit.bind_mut();
        h.hit = found.is_some();
        if let Some(w) = found {
            h.position = w.position;
            h.normal = w.normal;
            h.distance = w.distance;
        }
        h.hit
    }

    /// Many rays at once, the form for hot loops: ray `i` starts at `origins[i]` along
    /// `directions[i]` (any length) for at most `max_distance`. Returns one `Vector4` per ray:
    /// the world-space hit position in `x, y, z` and the distance in `w`, or all components NAN
    /// on a miss (check with [code]is_nan(r.w)[/code]). The normal at a hit is
    /// [method get_normal] of its position. Arrays of different sizes are an error (empty
    /// result).
    #[func]
    pub fn raycast_batch(
        &self,
        origins: PackedVector3Array,
        directions: PackedVector3Array,
        max_distance: f32,
    ) -> PackedVector4Array {
        if origins.len() != directions.len() {
            godot_error!(
                "Terrain3D.raycast_batch: {} origins but {} directions",
                origins.len(),
                directions.len()
            );
            return PackedVector4Array::new();
        }
        let miss = Vector4::new(f32::NAN, f32::NAN, f32::NAN, f32::NAN);
        let misses = || PackedVector4Array::from_iter(origins.as_slice().iter().map(|_| miss));
        self.surface(misses(), |p, xf| {
            let out: Vec<Vector4> = origins
                .as_slice()
                .iter()
                .zip(directions.as_slice())
                .map(|(&o, &d)| {
                    cast(p, xf, o, d, max_distance, Normal::Skipped).map_or(miss, |h| {
                        Vector4::new(h.position.x, h.position.y, h.position.z, h.distance)
                    })
                })
                .collect();
            PackedVector4Array::from(out.as_slice())
        })
    }
}

impl Terrain3D {
    /// Runs `f` with this terrain's surface and current placement, or answers `failure` (no
    /// surface yet, a zero-scaled node, a write under way, a call off the main thread).
    pub(super) fn surface<R>(&self, failure: R, f: impl FnOnce(&Prepared, &Placement) -> R) -> R {
        if !on_main_thread() {
            godot_error!("Terrain3D: queries are answered on the main thread");
            return failure;
        }
        let Some(prepared) = self.view.try_prepared() else {
            return failure;
        };
        let Some(p) = prepared.as_ref() else {
            return failure;
        };
        let Some(xf) = self
            .view
            .xform
            .get_with(|| self.base().get_global_transform())
        else {
            return failure;
        };
        f(p, &xf)
    }
}

/// The surface and placement of a terrain reached through its [`QueryView`] (the water
/// queries' path), or `failure`.
pub(super) fn surface_of<R>(
    view: &QueryView,
    node: &Gd<Terrain3D>,
    failure: R,
    f: impl FnOnce(&Prepared, &Placement) -> R,
) -> R {
    let Some(prepared) = view.try_prepared() else {
        return failure;
    };
    let Some(p) = prepared.as_ref() else {
        return failure;
    };
    let Some(xf) = view.xform.get(node.upcast_ref::<Node3D>()) else {
        return failure;
    };
    f(p, &xf)
}

/// Whether a cast computes the hit's world normal ([`Terrain3D::raycast_batch`] returns none).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Normal {
    Wanted,
    Skipped,
}

/// One ray in world space against the surface.
fn cast(
    p: &Prepared,
    xf: &Placement,
    from: Vector3,
    direction: Vector3,
    max_distance: f32,
    normal_wanted: Normal,
) -> Option<WorldHit> {
    // Scale by the largest component before normalising, so that directions like
    // (0, -1e20, 0) or (0, -1e-30, 0) keep their way instead of overflowing or vanishing.
    let largest = direction
        .x
        .abs()
        .max(direction.y.abs())
        .max(direction.z.abs());
    if !from.is_finite()
        || !direction.is_finite()
        || largest == 0.0
        || max_distance.is_nan()
        || max_distance <= 0.0
    {
        return None;
    }
    or_report("Terrain3D.raycast", None, || {
        let dir = unit(direction / largest)?;
        let lo = xf.local_point(from);
        let ld = xf.to_local.basis * dir;
        let scale = length(ld);
        if scale == 0.0 || !scale.is_finite() {
            return None;
        }
        let h = p.field.raycast(
            glam::Vec3::new(lo.x, lo.y, lo.z),
            glam::Vec3::new(ld.x, ld.y, ld.z),
            max_distance * scale,
        )?;
        let position = xf.to_world * Vector3::new(h.position.x, h.position.y, h.position.z);
        if !position.is_finite() {
            godot_error!(
                "Terrain3D.raycast: the hit from {from} is not a finite point (heights too \
                 large?); reporting a miss"
            );
            return None;
        }
        let mut normal = Vector3::ZERO;
        if normal_wanted == Normal::Wanted {
            normal = xf
                .normal_to_world(Vector3::new(h.normal.x, h.normal.y, h.normal.z))
                .unwrap_or_else(|| {
                    godot_error!(
                        "Terrain3D.raycast: the hit at {position} has no finite normal (heights \
                         too large?); reporting a zero normal"
                    );
                    Vector3::ZERO
                });
            if normal.dot(dir) > 0.0 {
                normal = -normal;
            }
        }
        Some(WorldHit {
            position,
            normal,
            distance: length(position - from),
        })
    })
}
