//! `TerrainRayHit`: a reusable ray-cast result for hot loops.

use godot::prelude::*;

/// The keys of [`Terrain3D::raycast`](super::Terrain3D)'s Dictionary, made once per node: a key
/// made from a `&str` on every ray is a string allocation and a UTF-8 decode each.
pub(super) struct HitKeys([Variant; 3]);

impl Default for HitKeys {
    fn default() -> Self {
        Self(["position", "normal", "distance"].map(|k| k.to_variant()))
    }
}

impl HitKeys {
    /// `{ "position": position, "normal": normal, "distance": distance }`.
    pub fn dictionary(&self, position: Vector3, normal: Vector3, distance: f32) -> VarDictionary {
        let [p, n, d] = &self.0;
        let mut out = VarDictionary::new();
        out.set(p, &position.to_variant());
        out.set(n, &normal.to_variant());
        out.set(d, &distance.to_variant());
        out
    }
}

/// A ray-cast result that [method Terrain3D.raycast_into] fills in place.
///
/// Create one and reuse it for every ray: no Dictionary is built per ray (the cost of
/// [method Terrain3D.raycast]'s result). After a miss, [member hit] is false and the other
/// members keep their previous values.
/// [codeblock]
/// var hit := TerrainRayHit.new()
/// for i in rays:
///     if terrain.raycast_into(origins[i], directions[i], 500.0, hit):
///         print(hit.position, hit.normal, hit.distance)
/// [/codeblock]
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct TerrainRayHit {
    /// Whether the last ray cast into this object hit the terrain.
    #[var]
    pub hit: bool,
    /// World-space hit point.
    #[var]
    pub position: Vector3,
    /// World-space unit normal of the hit triangle, facing the ray.
    #[var]
    pub normal: Vector3,
    /// World-space distance from the ray's origin to [member position].
    #[var]
    pub distance: f32,
    base: Base<RefCounted>,
}
