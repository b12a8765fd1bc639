//! The nine demo materials: grass, soil, rock, cliff, sediment, sand, snow, wet ground and
//! riverbed. Each recipe builds a periodic [`Canvas`] (height, linear albedo, roughness) from
//! tileable noise and stamped shapes; heights are absolute blend heights (stones stand above
//! silt, snow fills hollows), so the terrain shader's height blending reads them directly.

use super::field::{Field, Rng, fbm, fbm_aniso, hash32, ridged, unit, worley};
use super::paint::{Canvas, Profile, Stamp, mix, scale, srgb};
use std::f32::consts::{PI, TAU};

/// One material of the demo set.
pub struct Recipe {
    /// File stem (`<name>_albedo.png` …) and layer name.
    pub name: &'static str,
    /// Suggested world size of one texture repeat, metres.
    pub tiling_m: f32,
    /// Relief of the normal map, pixels per unit of height.
    pub normal_strength: f32,
    /// Overall albedo multiplier (linear), to balance the set's brightness.
    pub albedo_scale: f32,
    /// Builds the canvas at the given size with the given seed.
    pub build: fn(usize, u32) -> Canvas,
}

/// The demo set, in the order of the surface roles it serves (ground, grass, rock, cliff,
/// sediment, sand, snow, wet ground, underwater).
pub const RECIPES: [Recipe; 9] = [
    Recipe {
        name: "soil",
        tiling_m: 3.0,
        normal_strength: 8.0,
        albedo_scale: 0.9,
        build: soil,
    },
    Recipe {
        name: "grass",
        tiling_m: 3.0,
        normal_strength: 4.0,
        albedo_scale: 0.92,
        build: grass,
    },
    Recipe {
        name: "rock",
        tiling_m: 6.0,
        normal_strength: 9.0,
        albedo_scale: 0.74,
        build: rock,
    },
    Recipe {
        name: "cliff",
        tiling_m: 16.0,
        normal_strength: 10.0,
        albedo_scale: 0.74,
        build: cliff,
    },
    Recipe {
        name: "sediment",
        tiling_m: 4.0,
        normal_strength: 10.0,
        albedo_scale: 0.72,
        build: sediment,
    },
    Recipe {
        name: "sand",
        tiling_m: 4.0,
        normal_strength: 10.0,
        albedo_scale: 0.82,
        build: sand,
    },
    Recipe {
        name: "snow",
        tiling_m: 6.0,
        normal_strength: 8.0,
        albedo_scale: 0.92,
        build: snow,
    },
    Recipe {
        name: "wet_ground",
        tiling_m: 3.0,
        normal_strength: 8.0,
        albedo_scale: 1.0,
        build: wet_ground,
    },
    Recipe {
        name: "riverbed",
        tiling_m: 2.5,
        normal_strength: 7.0,
        albedo_scale: 0.85,
        build: riverbed,
    },
];

/// Calls `f(i, u, v)` for every pixel (index, pixel centre in [0, 1)).
fn each(size: usize, mut f: impl FnMut(usize, f32, f32)) {
    let inv = 1.0 / size as f32;
    for y in 0..size {
        for x in 0..size {
            f(y * size + x, (x as f32 + 0.5) * inv, (y as f32 + 0.5) * inv);
        }
    }
}

/// Pixel position of texture coordinate `(u, v)`.
fn px(size: usize, u: f32) -> f32 {
    u * size as f32
}

/// Fine per-pixel grain in [-1, 1] (stable hash, no pattern).
fn grain(seed: u32, i: usize) -> f32 {
    unit(hash32(seed ^ (i as u32).wrapping_mul(0x9e37_79b1))) * 2.0 - 1.0
}

/// Scatters `count` stones (domes) whose colours come from `color(rng)`.
#[allow(clippy::too_many_arguments)]
fn stones(
    c: &mut Canvas,
    rng: &mut Rng,
    count: usize,
    radius: (f32, f32),
    base: (f32, f32),
    peak: (f32, f32),
    rough: (f32, f32),
    mut color: impl FnMut(&mut Rng) -> [f32; 3],
    mut keep: impl FnMut(f32, f32) -> bool,
) {
    let n = c.size;
    for _ in 0..count {
        let (u, v) = (rng.f(), rng.f());
        let r = rng.range(radius.0, radius.1);
        let elong = rng.range(0.6, 1.0);
        let s = Stamp {
            x: px(n, u),
            y: px(n, v),
            rx: r,
            ry: r * elong,
            angle: rng.range(0.0, PI),
            base: rng.range(base.0, base.1),
            peak: rng.range(peak.0, peak.1),
            color: color(rng),
            rough: rng.range(rough.0, rough.1),
            profile: Profile::Dome,
        };
        if keep(u, v) {
            c.stamp(&s);
        }
    }
}

/// Bare earth: brown loam with clods, a few small stones and fine grain.
fn soil(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(104, 84, 64), 0.92);
    let dark = srgb(74, 58, 44);
    let light = srgb(128, 106, 82);
    each(n, |i, u, v| {
        let broad = fbm(seed, u, v, 3, 5, 0.55) * 0.5 + 0.5;
        let fine = fbm(seed + 1, u, v, 24, 3, 0.5);
        c.height.data[i] = 0.22 + 0.25 * broad + 0.05 * fine;
        let col = mix(dark, light, (broad * 1.2 - 0.1).clamp(0.0, 1.0));
        c.albedo[i] = scale(col, 1.0 + 0.08 * grain(seed, i) + 0.1 * fine);
    });
    let mut rng = Rng::new(seed as u64);
    stones(
        &mut c,
        &mut rng,
        1400,
        (2.5, 8.0),
        (0.3, 0.45),
        (0.08, 0.25),
        (0.9, 0.97),
        |r| {
            scale(
                mix(srgb(88, 70, 53), srgb(116, 95, 72), r.f()),
                r.range(0.85, 1.1),
            )
        },
        |_, _| true,
    );
    stones(
        &mut c,
        &mut rng,
        260,
        (1.5, 4.5),
        (0.45, 0.55),
        (0.15, 0.3),
        (0.7, 0.85),
        |r| mix(srgb(120, 112, 100), srgb(150, 140, 124), r.f()),
        |_, _| true,
    );
    c
}

/// Meadow grass: thousands of overlapping blades in clumps over dark soil, some dry.
fn grass(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(56, 48, 34), 0.95);
    each(n, |i, u, v| {
        let f = fbm(seed, u, v, 16, 3, 0.5);
        c.height.data[i] = 0.08 + 0.08 * f;
        c.albedo[i] = scale(c.albedo[i], 1.0 + 0.15 * f + 0.06 * grain(seed, i));
    });
    let clumps = Field::from_fn(n, |u, v| fbm(seed + 3, u, v, 6, 4, 0.5) * 0.5 + 0.5);
    let dryness = Field::from_fn(n, |u, v| fbm(seed + 4, u, v, 2, 3, 0.5) * 0.5 + 0.5);
    let lean = Field::from_fn(n, |u, v| fbm(seed + 5, u, v, 3, 2, 0.5));
    let greens = [
        srgb(62, 86, 34),
        srgb(74, 98, 40),
        srgb(54, 76, 32),
        srgb(86, 104, 46),
        srgb(96, 112, 52),
    ];
    let dry = [srgb(134, 126, 72), srgb(118, 112, 64), srgb(148, 136, 84)];
    let mut rng = Rng::new(seed as u64 ^ 0x6a5);
    let (px_n, count) = (n as f32, n * n / 14);
    for _ in 0..count {
        let (x, y) = (rng.f() * px_n, rng.f() * px_n);
        let density = clumps.bilinear(x, y);
        if rng.f() > 0.35 + 0.85 * density {
            continue;
        }
        let dry_here = (dryness.bilinear(x, y) - 0.45).max(0.0) * 2.2;
        let col = if rng.f() < 0.08 + 0.5 * dry_here {
            dry[(rng.next_u64() % 3) as usize]
        } else {
            greens[(rng.next_u64() % 5) as usize]
        };
        let len = rng.range(5.0, 13.0) * px_n / 512.0;
        let angle = lean.bilinear(x, y) * TAU + rng.range(-0.9, 0.9);
        c.stamp(&Stamp {
            x,
            y,
            rx: len,
            ry: rng.range(0.9, 1.7) * px_n / 512.0,
            angle,
            base: rng.range(0.15, 0.45),
            peak: rng.range(0.3, 0.55),
            color: scale(col, rng.range(0.85, 1.12)),
            rough: rng.range(0.78, 0.9),
            profile: Profile::Blade,
        });
    }
    c
}

/// Weathered bedrock: a mottled, frost-shattered granular surface crossed by a few jagged
/// fractures (only some cell borders crack), slight steps across them, mineral speckle and
/// lichen in sheltered spots.
fn rock(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(120, 114, 106), 0.8);
    each(n, |i, u, v| {
        // Two warps: a broad one bends fractures, a fine one makes their edges jagged.
        let wu =
            u + 0.07 * fbm(seed + 1, u, v, 3, 3, 0.5) + 0.012 * fbm(seed + 11, u, v, 24, 2, 0.5);
        let wv =
            v + 0.07 * fbm(seed + 2, u, v, 3, 3, 0.5) + 0.012 * fbm(seed + 12, u, v, 24, 2, 0.5);
        let big = worley(seed, wu, wv, 4, 1.0, 1.0);
        let small = worley(seed + 7, wu, wv, 10, 1.0, 1.0);
        let mask_big = ((fbm(seed + 5, u, v, 4, 3, 0.5) + 0.2) * 2.5).clamp(0.0, 1.0);
        let mask_small = ((fbm(seed + 6, u, v, 6, 3, 0.5) - 0.15) * 2.5).clamp(0.0, 1.0);
        let width = 0.03 + 0.05 * (fbm(seed + 8, u, v, 9, 2, 0.5) * 0.5 + 0.5);
        let crack = (1.0 - ((big.f2 - big.f1) / width).clamp(0.0, 1.0)).powi(2) * mask_big;
        let fine = (1.0 - ((small.f2 - small.f1) / 0.04).clamp(0.0, 1.0)).powi(2) * mask_small;
        let relief = ridged(seed + 3, wu, wv, 4, 6, 0.6);
        let mottle = fbm(seed + 4, u, v, 6, 5, 0.6);
        let blotch = fbm(seed + 13, u, v, 20, 3, 0.55);
        let mineral = fbm(seed + 14, u, v, 96, 2, 0.5);
        let speck = ((mineral.abs() - 0.25) * 5.0).clamp(0.0, 1.0);
        let speck_tone = mineral.signum();
        let grain_tone = fbm(seed + 16, wu, wv, 5, 7, 0.62);
        let grit = fbm(seed + 15, u, v, 64, 2, 0.5);
        let step = 0.06 * (unit(big.id) - 0.5);
        c.height.data[i] = (0.55
            + 0.03 * grit
            + 0.28 * relief
            + 0.08 * mottle
            + 0.05 * blotch
            + step
            + 0.03 * speck
            - 0.38 * crack
            - 0.14 * fine)
            .clamp(0.0, 1.0);
        let base = mix(
            srgb(92, 86, 78),
            srgb(150, 138, 120),
            (0.5 + 0.5 * mottle + 0.9 * grain_tone).clamp(0.0, 1.0),
        );
        let warm = mix(
            [1.0, 1.0, 1.0],
            [1.06, 1.0, 0.9],
            (0.5 + blotch).clamp(0.0, 1.0),
        );
        let mut col = scale(
            [base[0] * warm[0], base[1] * warm[1], base[2] * warm[2]],
            0.72 + 0.35 * relief
                + 0.14 * blotch
                + 0.22 * speck * speck_tone
                + 0.1 * grit
                + 0.06 * grain(seed, i),
        );
        col = mix(col, srgb(50, 48, 46), (crack * 0.9 + fine * 0.5).min(1.0));
        let lichen = ((fbm(seed + 10, u, v, 8, 4, 0.55) - 0.3) * 3.0).clamp(0.0, 1.0);
        col = mix(col, srgb(120, 120, 92), lichen * 0.35 * (1.0 - crack));
        c.albedo[i] = col;
        c.rough.data[i] = 0.72 + 0.18 * crack - 0.08 * relief + 0.06 * lichen;
    });
    c
}

/// Cliff face: massive weathered rock with faint strata (the texture's V axis runs down the
/// face) of slightly different hardness and tone, a few vertical joints, water streaks.
fn cliff(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(124, 114, 100), 0.82);
    // Strata: 6 layers per tile, each with its own hardness (protrusion) and tone.
    const LAYERS: u32 = 6;
    each(n, |i, u, v| {
        let warp = 0.06 * fbm(seed + 1, u, v, 2, 4, 0.5);
        let s = (v + warp) * LAYERS as f32;
        let layer = (s.floor() as i64).rem_euclid(LAYERS as i64) as u32;
        let t = s - s.floor();
        let hard = unit(hash32(seed ^ layer.wrapping_mul(0x51ed)));
        let tone = unit(hash32(seed ^ layer.wrapping_mul(0x2c1b) ^ 0x77));
        // Layer edges are eroded back (rounded ledges); harder layers stand out further.
        let ledge = libm::powf(t * (1.0 - t) * 4.0, 0.25 + 0.35 * (1.0 - hard));
        let ju = u + 0.05 * fbm(seed + 7, u, v, 4, 3, 0.5);
        let joints = worley(seed + 2, ju, v, 4, 0.9, 4.0);
        let mask = ((fbm(seed + 5, u, v, 3, 3, 0.5) + 0.1) * 2.5).clamp(0.0, 1.0);
        let joint = (1.0 - ((joints.f2 - joints.f1) / 0.07).clamp(0.0, 1.0)).powi(2) * mask;
        let relief = ridged(seed + 3, u + warp, v, 5, 6, 0.6);
        let mottle = fbm(seed + 4, u, v, 6, 5, 0.6);
        let grit = fbm(seed + 8, u, v, 64, 2, 0.5);
        c.height.data[i] =
            (0.3 + 0.22 * hard * ledge + 0.1 * ledge + 0.3 * relief + 0.06 * mottle + 0.03 * grit
                - 0.3 * joint)
                .clamp(0.0, 1.0);
        let base = mix(
            srgb(108, 98, 86),
            srgb(148, 132, 110),
            (0.5 + 0.6 * mottle).clamp(0.0, 1.0),
        );
        let base = mix(base, scale(base, 0.85 + 0.3 * tone), 0.6);
        let mut col = scale(
            base,
            0.72 + 0.38 * relief + 0.08 * ledge + 0.08 * grit + 0.05 * grain(seed, i),
        );
        col = mix(
            col,
            srgb(58, 54, 50),
            (joint * 0.85 + (1.0 - ledge) * 0.2).min(1.0),
        );
        // Water streaks run down the face: stretched along V.
        let streak = (fbm_aniso(seed + 6, u, v, 12, 1, 3) * 0.5 + 0.5).powi(2);
        c.albedo[i] = scale(col, 1.0 - 0.18 * streak);
        c.rough.data[i] = 0.78 + 0.15 * joint;
    });
    c
}

/// River sediment: fine grey-brown silt and sand laid down by water — low current ripples,
/// darker organic streaks, faint drying cracks in patches, scattered small pebbles.
fn sediment(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(124, 114, 96), 0.9);
    each(n, |i, u, v| {
        let broad = fbm(seed, u, v, 3, 4, 0.5) * 0.5 + 0.5;
        let warp = 0.5 * fbm(seed + 4, u, v, 3, 3, 0.5);
        let phase = (u * 5.0 + v * 14.0 + warp).rem_euclid(1.0);
        let ripple = libm::sinf(phase * std::f32::consts::TAU) * 0.5 + 0.5;
        let ripple_mask = ((fbm(seed + 5, u, v, 2, 3, 0.5) + 0.1) * 2.0).clamp(0.0, 1.0);
        let fine = fbm(seed + 1, u, v, 40, 3, 0.55);
        let cracks = worley(seed + 2, u, v, 9, 0.85, 1.0);
        let patch = ((fbm(seed + 3, u, v, 3, 3, 0.5) - 0.15) * 3.0).clamp(0.0, 1.0);
        let crack = (1.0 - ((cracks.f2 - cracks.f1) / 0.045).clamp(0.0, 1.0)) * patch;
        let streak = ((fbm_aniso(seed + 6, u, v, 3, 12, 3) - 0.2) * 2.5).clamp(0.0, 1.0);
        c.height.data[i] = (0.14 + 0.12 * broad + 0.08 * ripple * ripple_mask + 0.04 * fine
            - 0.07 * crack)
            .max(0.0);
        let col = mix(srgb(106, 98, 84), srgb(138, 128, 108), broad);
        let col = mix(col, srgb(92, 84, 70), streak * 0.5);
        let col = mix(col, srgb(80, 74, 64), crack * 0.6);
        let col = scale(col, 1.0 + 0.12 * ripple * ripple_mask - 0.06);
        c.albedo[i] = scale(col, 1.0 + 0.12 * fine + 0.1 * grain(seed, i));
        c.rough.data[i] = 0.88 - 0.1 * streak;
    });
    let mut rng = Rng::new(seed as u64 ^ 0x5ed);
    stones(
        &mut c,
        &mut rng,
        600,
        (1.2, 3.5),
        (0.2, 0.3),
        (0.1, 0.25),
        (0.6, 0.8),
        |r| mix(srgb(104, 98, 90), srgb(146, 136, 120), r.f()),
        |_, _| true,
    );
    c
}

/// Sand: pale, wind ripples with sharp crests, darker heavy grains in the troughs.
fn sand(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(172, 152, 116), 0.95);
    each(n, |i, u, v| {
        let warp = 0.6 * fbm(seed + 1, u, v, 3, 3, 0.5);
        // An integer wave vector keeps the ripples periodic.
        let phase = (u * 2.0 + v * 9.0) + warp;
        let w = (phase.fract() + 1.0).fract();
        // Asymmetric ripple: gentle windward slope, steep lee.
        let ripple = if w < 0.75 { w / 0.75 } else { (1.0 - w) / 0.25 };
        let fine = fbm(seed + 2, u, v, 48, 2, 0.5);
        let broad = fbm(seed + 3, u, v, 2, 3, 0.5) * 0.5 + 0.5;
        c.height.data[i] = 0.18 + 0.18 * ripple + 0.04 * fine + 0.05 * broad;
        let trough = (1.0 - ripple).powi(3);
        let col = mix(srgb(176, 156, 120), srgb(158, 138, 104), broad);
        let col = mix(col, srgb(126, 110, 84), trough * 0.45);
        c.albedo[i] = scale(col, 1.0 + 0.07 * grain(seed, i) + 0.04 * fine);
    });
    c
}

/// Snow: soft drifts, faint wind-packed sastrugi, cool shadows in hollows.
fn snow(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(230, 234, 240), 0.7);
    each(n, |i, u, v| {
        let drift = fbm(seed, u, v, 2, 5, 0.5) * 0.5 + 0.5;
        let sast = ridged(seed + 1, u * 1.0, v, 6, 3, 0.5);
        let fine = fbm(seed + 2, u, v, 40, 2, 0.5);
        c.height.data[i] = 0.42 + 0.3 * drift + 0.06 * sast + 0.015 * fine;
        let col = mix(
            srgb(196, 204, 218),
            srgb(228, 232, 238),
            (drift * 1.3 - 0.1).clamp(0.0, 1.0),
        );
        c.albedo[i] = scale(col, 1.0 + 0.025 * grain(seed, i));
        c.rough.data[i] = 0.62 + 0.12 * drift;
    });
    c
}

/// Wet ground: dark mud with smooth glossy puddles, small stones and bits of organic matter.
fn wet_ground(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(66, 54, 42), 0.5);
    each(n, |i, u, v| {
        let broad = fbm(seed, u, v, 3, 5, 0.5) * 0.5 + 0.5;
        let fine = fbm(seed + 1, u, v, 28, 3, 0.5);
        let puddle = ((0.42 - broad) * 9.0).clamp(0.0, 1.0);
        let h = 0.12 + 0.26 * broad + 0.04 * fine;
        c.height.data[i] = h * (1.0 - puddle) + 0.14 * puddle;
        let col = mix(srgb(64, 52, 40), srgb(84, 70, 54), broad);
        let col = mix(col, srgb(52, 46, 40), puddle * 0.6);
        c.albedo[i] = scale(col, 1.0 + 0.08 * fine + 0.05 * grain(seed, i));
        c.rough.data[i] = 0.52 - 0.08 * fine - 0.4 * puddle;
    });
    let mut rng = Rng::new(seed as u64 ^ 0x3e7);
    let h = c.height.clone();
    stones(
        &mut c,
        &mut rng,
        320,
        (1.5, 5.0),
        (0.25, 0.35),
        (0.1, 0.3),
        (0.3, 0.5),
        |r| mix(srgb(78, 74, 68), srgb(110, 102, 90), r.f()),
        |u, v| h.bilinear(u * n as f32, v * n as f32) > 0.2,
    );
    c
}

/// Riverbed: rounded pebbles of mixed rock packed in silt, wet and a little glossy, with
/// patches of algae.
fn riverbed(n: usize, seed: u32) -> Canvas {
    let mut c = Canvas::new(n, srgb(92, 86, 72), 0.5);
    each(n, |i, u, v| {
        let f = fbm(seed, u, v, 12, 3, 0.5);
        c.height.data[i] = 0.12 + 0.06 * f;
        c.albedo[i] = scale(c.albedo[i], 1.0 + 0.1 * f + 0.04 * grain(seed, i));
    });
    let palette = [
        srgb(108, 104, 98),
        srgb(128, 120, 108),
        srgb(92, 88, 84),
        srgb(140, 126, 104),
        srgb(116, 96, 80),
        srgb(150, 146, 138),
    ];
    let mut rng = Rng::new(seed as u64 ^ 0x4b1);
    // Large stones first, then smaller ones filling the gaps (they lose the height test where a
    // large stone already stands, so gaps fill without covering).
    for (count, rad) in [
        (70usize, (16.0f32, 30.0f32)),
        (420, (7.0, 15.0)),
        (1400, (2.5, 6.0)),
    ] {
        stones(
            &mut c,
            &mut rng,
            count,
            (rad.0 * n as f32 / 512.0, rad.1 * n as f32 / 512.0),
            (0.12, 0.2),
            (0.35, 0.8),
            (0.25, 0.4),
            |r| scale(palette[(r.next_u64() % 6) as usize], r.range(0.8, 1.15)),
            |_, _| true,
        );
    }
    let algae = Field::from_fn(n, |u, v| {
        ((fbm(seed + 8, u, v, 4, 4, 0.5) - 0.1) * 2.5).clamp(0.0, 1.0)
    });
    let tint = srgb(96, 104, 64);
    let albedo = c.albedo.clone();
    for (i, col) in c.albedo.iter_mut().enumerate() {
        *col = mix(albedo[i], scale(tint, 0.9), algae.data[i] * 0.45);
    }
    c
}
