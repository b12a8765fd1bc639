//! Terrain-local directions to world space, without panicking on degenerate placements.
//!
//! gdext's `Basis::inverse` and `Vector3::normalized` panic on a singular basis (a node scaled
//! to zero) or a zero vector; queries must answer their failure value instead.

use godot::prelude::*;

/// A terrain-local surface normal in world space (the basis' inverse-transpose), unit length.
/// `None` when the placement is degenerate (a zero scale) or the normal is not finite.
pub fn normal_to_world(xf: &Transform3D, n: Vector3) -> Option<Vector3> {
    let det = xf.basis.determinant();
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    unit(xf.basis.inverse().transposed() * n)
}

/// `v` scaled to unit length; `None` for a zero or non-finite vector.
pub fn unit(v: Vector3) -> Option<Vector3> {
    let len = length(v);
    (len > 0.0 && len.is_finite()).then(|| v / len)
}

/// The length of `v`, computed in double precision so that large components (beyond about
/// 1e19) do not overflow the square.
pub fn length(v: Vector3) -> f32 {
    let (x, y, z) = (v.x as f64, v.y as f64, v.z as f64);
    (x * x + y * y + z * z).sqrt() as f32
}
