//! The heightfield's normal storage: unit vectors as two snorm16 values, octahedrally
//! (4 bytes a sample instead of 12; the GPU path's normal texels carry them as they are).

use glam::Vec3;

/// Octahedral encoding of a unit vector into two snorm16 values.
pub(crate) fn encode_octahedral(n: Vec3) -> [i16; 2] {
    let l1 = n.x.abs() + n.y.abs() + n.z.abs();
    let (mut u, mut v) = (n.x / l1, n.z / l1);
    if n.y < 0.0 {
        let (ou, ov) = (u, v);
        u = (1.0 - ov.abs()) * ou.signum();
        v = (1.0 - ou.abs()) * ov.signum();
    }
    let q = |f: f32| (f.clamp(-1.0, 1.0) * 32767.0).round() as i16;
    [q(u), q(v)]
}

/// Inverse of [`encode_octahedral`].
#[inline]
pub(crate) fn decode_octahedral(e: [i16; 2]) -> Vec3 {
    let u = e[0] as f32 / 32767.0;
    let v = e[1] as f32 / 32767.0;
    let y = 1.0 - u.abs() - v.abs();
    let (x, z) = if y < 0.0 {
        ((1.0 - v.abs()) * u.signum(), (1.0 - u.abs()) * v.signum())
    } else {
        (u, v)
    };
    Vec3::new(x, y, z).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octahedral_round_trip_is_precise() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..10_000 {
            let n = Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5);
            if n.length() < 1e-3 {
                continue;
            }
            let n = n.normalize();
            let d = decode_octahedral(encode_octahedral(n));
            assert!((n - d).length() < 1e-4, "{n} -> {d}");
        }
    }
}
