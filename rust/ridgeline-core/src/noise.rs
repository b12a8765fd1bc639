//! Seeded gradient noise and the landform shape sampler.
//!
//! 2D Perlin gradient noise in f32 with **hashed** lattice gradients (no permutation table): a
//! gradient is a hash of (seed, lattice x, lattice z), so every channel and octave gets its own
//! independent pattern from a 64-bit seed, and any thread evaluates any sample identically.
//!
//! Why not the `noise` crate: its `Fbm<Perlin>` costs about 42 ns per octave-sample here (f64,
//! boxed sources, permutation tables), slower than Godot's FastNoiseLite; this sampler evaluates
//! whole rows with the Z terms hoisted and reaches several times FastNoiseLite's speed (see the
//! `noise_fbm8_1025` benchmark).

/// Lacunarity (frequency multiplier per octave).
pub const LACUNARITY: f32 = 2.0;

/// Largest noise-space coordinate the sampler accepts. Beyond it an f32 coordinate cannot
/// resolve 1/64 of a lattice cell, so fine octaves would be quantised: recipes that would
/// sample further get a sampling-domain diagnostic instead.
pub const MAX_DOMAIN: f64 = 131_072.0;

#[inline(always)]
fn hash2(seed: u32, x: i32, z: i32) -> u32 {
    let mut h = seed ^ (x as u32).wrapping_mul(0x27d4_eb2d) ^ (z as u32).wrapping_mul(0x1656_67b1);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^ (h >> 15)
}

/// Components of the hashed lattice gradient at one corner: one of the eight directions
/// (±1, ±½) and (±½, ±1).
#[inline(always)]
fn gradient(h: u32) -> (f32, f32) {
    let sx = if h & 1 == 0 { 1.0 } else { -1.0 };
    let sz = if h & 2 == 0 { 1.0 } else { -1.0 };
    if h & 4 == 0 {
        (sx, 0.5 * sz)
    } else {
        (0.5 * sx, sz)
    }
}

/// Floor for lattice coordinates (|x| < 2³¹): truncation plus a correction, which compiles to
/// a couple of instructions where `f32::floor` is a library call on baseline x86-64.
#[inline(always)]
fn lattice_floor(x: f32) -> (i32, f32) {
    let t = x as i32;
    let i = if (t as f32) > x { t - 1 } else { t };
    (i, x - i as f32)
}

#[inline(always)]
fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// Normalisation so gradient noise spans about [-1, 1].
const NORM: f32 = 1.0 / 1.06;

/// With the Z position inside the lattice row fixed (`iz`, fraction `dz`, faded `v`), gradient
/// noise along X only needs two numbers per lattice column `ix`: the X-gradient blend `a` and
/// the Z contribution `b`, so that the noise left of a point is `a * dx + b`.
#[inline(always)]
fn column(seed: u32, ix: i32, iz: i32, dz: f32, v: f32) -> (f32, f32) {
    let (gx0, gz0) = gradient(hash2(seed, ix, iz));
    let (gx1, gz1) = gradient(hash2(seed, ix, iz + 1));
    let a = (1.0 - v) * gx0 + v * gx1;
    let b = (1.0 - v) * (gz0 * dz) + v * (gz1 * (dz - 1.0));
    (a, b)
}

/// Noise from the two bracketing columns, the X fraction and its fade.
#[inline(always)]
fn finish(left: (f32, f32), right: (f32, f32), dx: f32, u: f32) -> f32 {
    let nl = left.0 * dx + left.1;
    let nr = right.0 * (dx - 1.0) + right.1;
    (nl + u * (nr - nl)) * NORM
}

/// Gradient noise at (x, z) in lattice units, roughly in [-1, 1].
#[inline]
pub fn perlin(seed: u32, x: f32, z: f32) -> f32 {
    let (ix, dx) = lattice_floor(x);
    let (iz, dz) = lattice_floor(z);
    let v = fade(dz);
    finish(
        column(seed, ix, iz, dz, v),
        column(seed, ix + 1, iz, dz, v),
        dx,
        fade(dx),
    )
}

/// Ridged multifractal step: the sharp ridge signal `(1 - |n|)²`, scaled by the weight the
/// previous octave left (so valleys stay smooth and detail gathers on ridges), and the next
/// weight.
#[inline(always)]
fn ridge(n: f32, weight: &mut f32) -> f32 {
    let r = 1.0 - n.abs();
    let signal = r * r * *weight;
    *weight = (signal * 2.0).clamp(0.0, 1.0);
    signal
}

/// Noise profile of a landform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Smooth fractal relief (fractional Brownian motion).
    Fbm,
    /// Sharp ridges: each octave contributes `(1 - |n|)²`.
    Ridged,
}

/// Everything that defines a landform's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeParams {
    /// fbm or ridged.
    pub profile: Profile,
    /// Height of the lowest relief, world units.
    pub base_height: f32,
    /// Relief range above `base_height`, world units.
    pub height_variation: f32,
    /// Wavelength of the first octave, world units.
    pub feature_size: f32,
    /// Amplitude multiplier per octave (gain), 0..=1.
    pub roughness: f32,
    /// Octave count.
    pub octaves: u32,
    /// Domain warp displacement, world units (0 = off).
    pub warp_amplitude: f32,
    /// Width of warp features, world units.
    pub warp_feature_size: f32,
    /// Elongation along `heading` (1 = none).
    pub stretch: f32,
    /// Degrees from +X toward +Z.
    pub heading: f32,
}

/// Seeds for one shape: the elevation channel and the separate warp channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeSeeds {
    /// From the `landform` channel.
    pub landform: u64,
    /// From the `landform_warp` channel.
    pub warp: u64,
}

impl ShapeParams {
    /// Largest noise-space coordinate sampling a `size_x × size_z` terrain reaches; compare
    /// with [`MAX_DOMAIN`].
    pub fn max_domain(&self, size: [f32; 2]) -> f64 {
        let extent =
            (size[0].max(size[1]) as f64) * std::f64::consts::SQRT_2 + self.warp_amplitude as f64;
        let stretch_factor = (1.0 / self.stretch as f64).max(1.0);
        extent * stretch_factor / self.feature_size as f64
            * (LACUNARITY as f64).powi(self.octaves.saturating_sub(1) as i32)
    }

    fn octave_seeds(seed: u64, octaves: u32) -> impl Iterator<Item = u32> {
        (0..octaves).map(move |o| crate::seed::splitmix64(seed ^ (o as u64 + 1)) as u32)
    }

    fn amplitude_sum(&self) -> f32 {
        let mut amp = 1.0;
        let mut sum = 0.0;
        for _ in 0..self.octaves {
            sum += amp;
            amp *= self.roughness;
        }
        sum.max(f32::MIN_POSITIVE)
    }

    /// True when warp, stretch and heading are at their defaults (the fast row path applies).
    fn axis_aligned(&self) -> bool {
        self.warp_amplitude == 0.0 && self.stretch == 1.0 && self.heading == 0.0
    }

    /// Height at one terrain-local point.
    pub fn height_at(&self, seeds: ShapeSeeds, x: f32, z: f32) -> f32 {
        let (qx, qz) = self.transform(seeds, x, z);
        self.compose(self.shape_value(seeds, qx, qz))
    }

    #[inline]
    fn compose(&self, v: f32) -> f32 {
        self.base_height + self.height_variation * v
    }

    /// Warp, then heading and stretch: terrain-local point → shape space (world units).
    fn transform(&self, seeds: ShapeSeeds, x: f32, z: f32) -> (f32, f32) {
        let (mut px, mut pz) = (x, z);
        if self.warp_amplitude > 0.0 {
            let f = 1.0 / self.warp_feature_size;
            let s0 = crate::seed::splitmix64(seeds.warp) as u32;
            let s1 = crate::seed::splitmix64(seeds.warp ^ 0xA5A5) as u32;
            let (mut wx, mut wz, mut amp, mut freq, mut sum) = (0.0, 0.0, 1.0, f, 0.0);
            for o in 0..3u32 {
                wx += amp * perlin(s0.wrapping_add(o), px * freq, pz * freq);
                wz += amp * perlin(s1.wrapping_add(o), px * freq, pz * freq);
                sum += amp;
                amp *= 0.5;
                freq *= LACUNARITY;
            }
            px += self.warp_amplitude * wx / sum;
            pz += self.warp_amplitude * wz / sum;
        }
        if self.heading != 0.0 || self.stretch != 1.0 {
            let (s, c) = self.heading.to_radians().sin_cos();
            // Rotate into the heading frame, compress along it by `stretch`.
            let (hx, hz) = (c * px + s * pz, -s * px + c * pz);
            px = hx / self.stretch;
            pz = hz;
        }
        (px, pz)
    }

    /// Shape value in [0, 1] at a shape-space point.
    fn shape_value(&self, seeds: ShapeSeeds, x: f32, z: f32) -> f32 {
        let f0 = 1.0 / self.feature_size;
        let (mut amp, mut freq, mut acc) = (1.0f32, f0, 0.0f32);
        let mut weight = 1.0f32;
        for s in Self::octave_seeds(seeds.landform, self.octaves) {
            let n = perlin(s, x * freq, z * freq);
            acc += amp
                * match self.profile {
                    Profile::Fbm => n,
                    Profile::Ridged => ridge(n, &mut weight),
                };
            amp *= self.roughness;
            freq *= LACUNARITY;
        }
        let v = acc * (1.0 / self.amplitude_sum());
        debug_assert!(v.is_finite());
        match self.profile {
            Profile::Fbm => (0.5 + 0.5 * v).clamp(0.0, 1.0),
            Profile::Ridged => v.clamp(0.0, 1.0),
        }
    }
}

/// One octave's X tables for a row width: they do not depend on the row, so they are built once
/// per field and reused for every row.
#[derive(Clone, Debug)]
struct OctaveTable {
    seed: u32,
    freq: f32,
    amp: f32,
    /// X fraction inside the lattice cell, per sample.
    fx: Vec<f32>,
    /// `fade(fx)`, per sample.
    u: Vec<f32>,
    /// Runs of samples sharing lattice column `first_column + k`: (k, start, end).
    runs: Vec<(u32, u32, u32)>,
    /// Lattice column of the segment's first sample.
    first_column: i32,
    /// Lattice columns needed (`first_column ..= last + 1`).
    columns: usize,
}

/// Samples a shape row by row over a regular grid (`x = i * dx`, `i in start..start + width`:
/// a whole row, or a segment of one). Produces exactly the heights of
/// [`ShapeParams::height_at`], several times faster when no warp, stretch or heading applies:
/// per row and octave it evaluates two numbers per lattice column, then each sample is a few
/// multiply-adds in runs the compiler vectorises.
#[derive(Clone, Debug)]
pub struct RowSampler {
    params: ShapeParams,
    seeds: ShapeSeeds,
    dx: f32,
    start: usize,
    width: usize,
    octaves: Vec<OctaveTable>,
    inv_amp_sum: f32,
}

/// Per-thread scratch for [`RowSampler::fill_row`].
#[derive(Default, Debug)]
pub struct RowScratch {
    acc: Vec<f32>,
    weight: Vec<f32>,
    cols: Vec<(f32, f32)>,
}

impl RowSampler {
    /// Prepares the X tables for rows of `width` samples spaced `dx` apart.
    pub fn new(params: ShapeParams, seeds: ShapeSeeds, width: usize, dx: f32) -> Self {
        Self::segment(params, seeds, 0, width, dx)
    }

    /// Prepares the X tables for the row segment of samples `start..start + width` (sample `i`
    /// at `x = i * dx`): the same values as the whole row's at those samples, for the cost of
    /// the segment (incremental updates of an edited rectangle).
    pub fn segment(
        params: ShapeParams,
        seeds: ShapeSeeds,
        start: usize,
        width: usize,
        dx: f32,
    ) -> Self {
        let mut octaves = Vec::new();
        if params.axis_aligned() {
            let (mut amp, mut freq) = (1.0f32, 1.0 / params.feature_size);
            for seed in ShapeParams::octave_seeds(seeds.landform, params.octaves) {
                let mut fx = Vec::with_capacity(width);
                let mut u = Vec::with_capacity(width);
                let mut runs: Vec<(u32, u32, u32)> = Vec::new();
                let first_column = lattice_floor((start as i32 as f32 * dx) * freq).0;
                for i in 0..width {
                    let (k, f) = lattice_floor(((start + i) as i32 as f32 * dx) * freq);
                    let k = (k - first_column) as u32;
                    fx.push(f);
                    u.push(fade(f));
                    match runs.last_mut() {
                        Some(r) if r.0 == k => r.2 = i as u32 + 1,
                        _ => runs.push((k, i as u32, i as u32 + 1)),
                    }
                }
                let columns = runs.last().map_or(2, |r| r.0 as usize + 2);
                octaves.push(OctaveTable {
                    seed,
                    freq,
                    amp,
                    fx,
                    u,
                    runs,
                    first_column,
                    columns,
                });
                amp *= params.roughness;
                freq *= LACUNARITY;
            }
        }
        Self {
            params,
            seeds,
            dx,
            start,
            width,
            octaves,
            inv_amp_sum: 1.0 / params.amplitude_sum(),
        }
    }

    /// Fills `out` (length `width`) with the heights of the row (segment) at depth `z`.
    pub fn fill_row(&self, z: f32, out: &mut [f32], scratch: &mut RowScratch) {
        debug_assert_eq!(out.len(), self.width);
        let p = &self.params;
        if !p.axis_aligned() {
            for (i, o) in out.iter_mut().enumerate() {
                *o = p.height_at(self.seeds, (self.start + i) as i32 as f32 * self.dx, z);
            }
            return;
        }
        let ridged = p.profile == Profile::Ridged;
        scratch.acc.clear();
        scratch.acc.resize(self.width, 0.0);
        scratch.weight.clear();
        scratch.weight.resize(self.width, 1.0);
        for oct in &self.octaves {
            let (iz, dz) = lattice_floor(z * oct.freq);
            let v = fade(dz);
            let cols = &mut scratch.cols;
            cols.clear();
            let first = oct.first_column;
            cols.extend(
                (first..first + oct.columns as i32).map(|ix| column(oct.seed, ix, iz, dz, v)),
            );
            let amp = oct.amp;
            for &(k, start, end) in &oct.runs {
                let (left, right) = (cols[k as usize], cols[k as usize + 1]);
                let (s, e) = (start as usize, end as usize);
                let run = scratch.acc[s..e]
                    .iter_mut()
                    .zip(&oct.fx[s..e])
                    .zip(&oct.u[s..e]);
                if ridged {
                    let weights = &mut scratch.weight[s..e];
                    for (((a, &fx), &u), w) in run.zip(weights.iter_mut()) {
                        *a += amp * ridge(finish(left, right, fx, u), w);
                    }
                } else {
                    for ((a, &fx), &u) in run {
                        *a += amp * finish(left, right, fx, u);
                    }
                }
            }
        }
        for (o, &a) in out.iter_mut().zip(scratch.acc.iter()) {
            let v = a * self.inv_amp_sum;
            let v = match p.profile {
                Profile::Fbm => (0.5 + 0.5 * v).clamp(0.0, 1.0),
                Profile::Ridged => v.clamp(0.0, 1.0),
            };
            *o = p.compose(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(profile: Profile) -> ShapeParams {
        ShapeParams {
            profile,
            base_height: 10.0,
            height_variation: 100.0,
            feature_size: 64.0,
            roughness: 0.5,
            octaves: 6,
            warp_amplitude: 0.0,
            warp_feature_size: 128.0,
            stretch: 1.0,
            heading: 0.0,
        }
    }

    const SEEDS: ShapeSeeds = ShapeSeeds {
        landform: 1,
        warp: 2,
    };

    #[test]
    fn row_path_equals_point_path_bit_for_bit() {
        for profile in [Profile::Fbm, Profile::Ridged] {
            let p = params(profile);
            let mut row = vec![0.0; 300];
            let sampler = RowSampler::new(p, SEEDS, 300, 0.75);
            sampler.fill_row(37.5, &mut row, &mut RowScratch::default());
            for (i, h) in row.iter().enumerate() {
                assert_eq!(
                    h.to_bits(),
                    p.height_at(SEEDS, i as f32 * 0.75, 37.5).to_bits()
                );
            }
        }
    }

    #[test]
    fn row_segments_equal_the_point_path_bit_for_bit() {
        for profile in [Profile::Fbm, Profile::Ridged] {
            let mut p = params(profile);
            for (start, width, dx) in [(0, 1, 1.0), (37, 23, 1.0), (250, 50, 0.75), (1000, 9, 2.5)]
            {
                for warp in [0.0, 20.0] {
                    p.warp_amplitude = warp;
                    let mut row = vec![0.0; width];
                    let sampler = RowSampler::segment(p, SEEDS, start, width, dx);
                    sampler.fill_row(37.5, &mut row, &mut RowScratch::default());
                    for (i, h) in row.iter().enumerate() {
                        let x = (start + i) as f32 * dx;
                        assert_eq!(h.to_bits(), p.height_at(SEEDS, x, 37.5).to_bits(), "{x}");
                    }
                }
            }
        }
    }

    #[test]
    fn noise_is_continuous_bounded_and_seeded() {
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..20_000 {
            let (x, z) = (rng.f32() * 200.0 - 100.0, rng.f32() * 200.0 - 100.0);
            let n = perlin(9, x, z);
            assert!((-1.0..=1.0).contains(&n), "{n}");
            let m = perlin(9, x + 1e-3, z);
            assert!((n - m).abs() < 1e-2);
        }
        assert_eq!(perlin(3, 4.0, 7.0), 0.0, "zero at lattice points");
        assert_ne!(perlin(3, 4.3, 7.6), perlin(4, 4.3, 7.6));
    }

    #[test]
    fn heights_stay_in_the_authored_band() {
        for profile in [Profile::Fbm, Profile::Ridged] {
            let p = params(profile);
            let mut lo = f32::MAX;
            let mut hi = f32::MIN;
            for i in 0..5000 {
                let h = p.height_at(SEEDS, (i % 71) as f32 * 3.1, (i / 71) as f32 * 2.7);
                lo = lo.min(h);
                hi = hi.max(h);
            }
            assert!(lo >= 10.0 && hi <= 110.0, "{lo}..{hi}");
            assert!(hi - lo > 30.0, "relief is visible: {lo}..{hi}");
        }
    }

    #[test]
    fn warp_stretch_and_heading_change_the_shape_and_defaults_do_not() {
        let base = params(Profile::Fbm);
        let h0 = base.height_at(SEEDS, 50.0, 60.0);
        let mut warped = base;
        warped.warp_amplitude = 40.0;
        assert_ne!(h0, warped.height_at(SEEDS, 50.0, 60.0));
        let mut turned = base;
        turned.heading = 90.0;
        turned.stretch = 3.0;
        assert_ne!(h0, turned.height_at(SEEDS, 50.0, 60.0));
        // Stretch along X at heading 0: features 3× longer in X.
        let mut st = base;
        st.stretch = 3.0;
        assert_eq!(
            st.height_at(SEEDS, 150.0, 60.0),
            base.height_at(SEEDS, 50.0, 60.0)
        );
    }

    #[test]
    fn domain_limit_is_measured() {
        let mut p = params(Profile::Fbm);
        assert!(p.max_domain([1024.0, 1024.0]) < MAX_DOMAIN);
        p.feature_size = 0.01;
        p.octaves = 16;
        assert!(p.max_domain([1024.0, 1024.0]) > MAX_DOMAIN);
    }
}
