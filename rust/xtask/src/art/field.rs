//! Tileable scalar fields for the demo art: periodic gradient noise built on the core's
//! [`ridgeline_core::noise::perlin`], periodic cellular (Worley) noise, a seeded random stream,
//! and the few image operations the material recipes need (wrapping blur, height → normal).
//!
//! Every field is periodic over the unit square: a texture made from them tiles without seams.

use ridgeline_core::noise::perlin;

/// A square scalar image that wraps at its edges (a torus).
#[derive(Clone, Debug)]
pub struct Field {
    /// Width and height in pixels.
    pub size: usize,
    /// Row-major values.
    pub data: Vec<f32>,
}

impl Field {
    /// A field of `size`² zeros.
    pub fn new(size: usize) -> Self {
        Field {
            size,
            data: vec![0.0; size * size],
        }
    }

    /// A field filled by `f(u, v)` with `u, v` the pixel centre in [0, 1).
    pub fn from_fn(size: usize, mut f: impl FnMut(f32, f32) -> f32) -> Self {
        let mut out = Field::new(size);
        let inv = 1.0 / size as f32;
        for y in 0..size {
            for x in 0..size {
                out.data[y * size + x] = f((x as f32 + 0.5) * inv, (y as f32 + 0.5) * inv);
            }
        }
        out
    }

    /// Value at integer pixel (x, y), wrapping.
    #[inline]
    pub fn at(&self, x: i64, y: i64) -> f32 {
        let n = self.size as i64;
        self.data[(y.rem_euclid(n) * n + x.rem_euclid(n)) as usize]
    }

    /// Bilinear value at pixel coordinates, wrapping.
    pub fn bilinear(&self, x: f32, y: f32) -> f32 {
        let x0 = x.floor();
        let y0 = y.floor();
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        let a = self.at(x0, y0) + fx * (self.at(x0 + 1, y0) - self.at(x0, y0));
        let b = self.at(x0, y0 + 1) + fx * (self.at(x0 + 1, y0 + 1) - self.at(x0, y0 + 1));
        a + fy * (b - a)
    }
}

/// Smoothstep with zero slope at both ends (so the periodic blend below stays smooth).
#[inline]
fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Gradient noise with period `period` (an integer number of lattice cells) on both axes, from
/// the core's `perlin`: the four images shifted by one period are blended with smooth weights
/// and renormalised, so the result is periodic and smooth across the seam and keeps the
/// variance of plain noise everywhere (independent lattices add in quadrature).
pub fn tile_perlin(seed: u32, x: f32, y: f32, period: f32) -> f32 {
    tile_perlin2(seed, x, y, period, period)
}

/// [`tile_perlin`] with separate periods along X and Y.
pub fn tile_perlin2(seed: u32, x: f32, y: f32, px: f32, py: f32) -> f32 {
    let x = x.rem_euclid(px);
    let y = y.rem_euclid(py);
    let wx = smooth(x / px);
    let wy = smooth(y / py);
    let w = [
        (1.0 - wx) * (1.0 - wy),
        wx * (1.0 - wy),
        (1.0 - wx) * wy,
        wx * wy,
    ];
    let n = [
        perlin(seed, x, y),
        perlin(seed, x - px, y),
        perlin(seed, x, y - py),
        perlin(seed, x - px, y - py),
    ];
    let sum = w[0] * n[0] + w[1] * n[1] + w[2] * n[2] + w[3] * n[3];
    let norm = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2] + w[3] * w[3]).sqrt();
    sum / norm
}

/// Tileable fractal noise stretched along V: `fu` cells across, `fv` down (streaks, grain).
pub fn fbm_aniso(seed: u32, u: f32, v: f32, fu: u32, fv: u32, octaves: u32) -> f32 {
    let mut sum = 0.0;
    let mut amp = 1.0;
    let mut total = 0.0;
    let (mut a, mut b) = (fu.max(1) as f32, fv.max(1) as f32);
    for o in 0..octaves {
        sum += amp * tile_perlin2(octave_seed(seed, o), u * a, v * b, a, b);
        total += amp;
        amp *= 0.5;
        a *= 2.0;
        b *= 2.0;
    }
    sum / total
}

/// Per-octave seed: octaves must not share a lattice pattern.
#[inline]
fn octave_seed(seed: u32, octave: u32) -> u32 {
    hash32(seed ^ octave.wrapping_mul(0x9e37_79b9))
}

/// Tileable fractal noise at `(u, v)` in [0, 1): `freq` lattice cells per tile on the first
/// octave, doubling each octave, amplitudes multiplied by `gain`. Roughly in [-1, 1].
pub fn fbm(seed: u32, u: f32, v: f32, freq: u32, octaves: u32, gain: f32) -> f32 {
    let mut sum = 0.0;
    let mut amp = 1.0;
    let mut total = 0.0;
    let mut f = freq.max(1) as f32;
    for o in 0..octaves {
        sum += amp * tile_perlin(octave_seed(seed, o), u * f, v * f, f);
        total += amp;
        amp *= gain;
        f *= 2.0;
    }
    sum / total
}

/// Ridged tileable fractal noise (sharp crests), in [0, 1].
pub fn ridged(seed: u32, u: f32, v: f32, freq: u32, octaves: u32, gain: f32) -> f32 {
    let mut sum = 0.0;
    let mut amp = 1.0;
    let mut total = 0.0;
    let mut f = freq.max(1) as f32;
    for o in 0..octaves {
        let n = 1.0 - tile_perlin(octave_seed(seed, o), u * f, v * f, f).abs();
        sum += amp * n * n;
        total += amp;
        amp *= gain;
        f *= 2.0;
    }
    sum / total
}

/// The nearest two feature points of periodic cellular noise.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    /// Distance to the nearest feature point, in cell units.
    pub f1: f32,
    /// Distance to the second nearest feature point.
    pub f2: f32,
    /// Stable id of the nearest point's cell (wrapped), for per-cell colours.
    pub id: u32,
    /// Offset from the nearest feature point to the sample, in cell units.
    pub offset: (f32, f32),
}

/// Periodic Worley noise with `n` × `n` cells per tile; each cell holds one feature point
/// jittered by `jitter` (0 = regular grid, 1 = anywhere in its cell). `stretch` scales the
/// distance along X (> 1 elongates cells vertically).
pub fn worley(seed: u32, u: f32, v: f32, n: u32, jitter: f32, stretch: f32) -> Cell {
    let n_i = n.max(1) as i64;
    let px = u.rem_euclid(1.0) * n_i as f32;
    let py = v.rem_euclid(1.0) * n_i as f32;
    let cx = px.floor() as i64;
    let cy = py.floor() as i64;
    let mut best = Cell {
        f1: f32::MAX,
        f2: f32::MAX,
        id: 0,
        offset: (0.0, 0.0),
    };
    for dy in -2..=2 {
        for dx in -2..=2 {
            let (ix, iy) = (cx + dx, cy + dy);
            let wx = ix.rem_euclid(n_i) as u32;
            let wy = iy.rem_euclid(n_i) as u32;
            let h =
                hash32(seed ^ hash32(wx.wrapping_mul(0x8da6_b343) ^ wy.wrapping_mul(0xd816_3841)));
            let jx = unit(h) - 0.5;
            let jy = unit(hash32(h)) - 0.5;
            let fx = ix as f32 + 0.5 + jitter * jx;
            let fy = iy as f32 + 0.5 + jitter * jy;
            let (ox, oy) = (px - fx, py - fy);
            let d = ((ox * stretch).powi(2) + oy * oy).sqrt();
            if d < best.f1 {
                best.f2 = best.f1;
                best.f1 = d;
                best.id = h;
                best.offset = (ox, oy);
            } else if d < best.f2 {
                best.f2 = d;
            }
        }
    }
    best
}

/// A small integer hash (lowbias32).
#[inline]
pub fn hash32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

/// A hash mapped to [0, 1).
#[inline]
pub fn unit(h: u32) -> f32 {
    (h >> 8) as f32 / (1u32 << 24) as f32
}

/// A seeded random stream (SplitMix64): deterministic on every platform.
pub struct Rng(u64);

impl Rng {
    /// A stream from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }
}

/// Tangent-space normals (OpenGL convention: +X right, +Y up the image, +Z out) from a height
/// field, by central differences with wrapping. `strength` is the relief in pixels for a height
/// step of 1.
pub fn normals(height: &Field, strength: f32) -> Vec<[f32; 3]> {
    let n = height.size as i64;
    let mut out = Vec::with_capacity((n * n) as usize);
    for y in 0..n {
        for x in 0..n {
            let dx = (height.at(x + 1, y) - height.at(x - 1, y)) * 0.5 * strength;
            let d_row = (height.at(x, y + 1) - height.at(x, y - 1)) * 0.5 * strength;
            // Rows grow downward, "up the image" is -row: n.y = -dh/d(up) = +dh/d(row).
            let (nx, ny, nz) = (-dx, d_row, 1.0);
            let len = (nx * nx + ny * ny + nz * nz).sqrt();
            out.push([nx / len, ny / len, nz / len]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Largest jump across the wrap seam compared with the largest jump inside the image.
    fn seam_ratio(f: &Field) -> f32 {
        let n = f.size as i64;
        let mut inner: f32 = 0.0;
        let mut seam: f32 = 0.0;
        for y in 0..n {
            for x in 0..n - 1 {
                inner = inner.max((f.at(x + 1, y) - f.at(x, y)).abs());
            }
            seam = seam.max((f.at(0, y) - f.at(n - 1, y)).abs());
        }
        for x in 0..n {
            seam = seam.max((f.at(x, 0) - f.at(x, n - 1)).abs());
        }
        seam / inner.max(1e-6)
    }

    #[test]
    fn tiled_noise_is_periodic_and_varied() {
        let f = Field::from_fn(128, |u, v| fbm(7, u, v, 4, 5, 0.5));
        assert!(seam_ratio(&f) < 1.05, "seam ratio {}", seam_ratio(&f));
        let (min, max) = f
            .data
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
        assert!(max - min > 0.5, "fbm spans only {min}..{max}");
        // Same value one period away.
        for &(x, y) in &[(0.3f32, 1.7f32), (2.5, 0.25), (3.9, 3.1)] {
            let a = tile_perlin(3, x, y, 4.0);
            let b = tile_perlin(3, x + 4.0, y - 8.0, 4.0);
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
    }

    #[test]
    fn cellular_noise_is_periodic() {
        let f = Field::from_fn(128, |u, v| worley(5, u, v, 6, 0.9, 1.0).f1);
        assert!(seam_ratio(&f) < 1.05, "seam ratio {}", seam_ratio(&f));
        let a = worley(5, 0.1, 0.2, 6, 0.9, 1.0);
        let b = worley(5, 1.1, -0.8, 6, 0.9, 1.0);
        assert_eq!(a.id, b.id);
        assert!((a.f1 - b.f1).abs() < 1e-4);
    }

    #[test]
    fn normals_follow_the_slope() {
        // Height rising to the right: the normal leans left (-X); rising down the image (+row):
        // the normal leans +Y (OpenGL "up" is -row).
        let right = Field::from_fn(16, |u, _| (u * std::f32::consts::TAU).sin());
        let n = normals(&right, 4.0);
        assert!(n[0][0] < 0.0, "{:?}", n[0]);
        let down = Field::from_fn(16, |_, v| (v * std::f32::consts::TAU).sin());
        let n = normals(&down, 4.0);
        assert!(n[0][1] > 0.0, "{:?}", n[0]);
    }

    #[test]
    fn random_stream_is_stable() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let x = Rng::new(1).f();
        assert!((0.0..1.0).contains(&x));
    }
}
