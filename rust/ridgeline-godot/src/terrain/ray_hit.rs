//! `TerrainRayHit`: a reusable raycast result.

use godot::prelude::*;

/// A raycast result that [method Terrain3D.raycast_hit] fills in place.
///
/// Make one and reuse it for every ray of a hot loop: unlike [method Terrain3D.raycast], no
/// Dictionary is built per ray. After a cast, [member hit] says whether the terrain was hit; the
/// other members hold the last hit's values in world space (and keep them after a miss).
/// [codeblock]
/// var hit := TerrainRayHit.new()
/// for bullet in bullets:
///     if terrain.raycast_hit(bullet.position, bullet.velocity, 50.0, hit):
///         bullet.explode(hit.position, hit.normal)
/// [/codeblock]
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct TerrainRayHit {
    /// True when the last [method Terrain3D.raycast_hit] with this object hit the terrain.
    #[var(no_set)]
    pub hit: bool,
    /// World-space hit point of the last hit.
    #[var(no_set)]
    pub position: Vector3,
    /// World-space unit normal of the last hit, facing the ray (the surface is hit from both
    /// sides).
    #[var(no_set)]
    pub normal: Vector3,
    /// Distance from the ray's origin to [member position], in world units.
    #[var(no_set)]
    pub distance: f32,
    base: Base<RefCounted>,
}
