//! Deterministic foliage placement, one render chunk at a time (seed 004).
//!
//! A foliage type has a physical lattice of square cells of `cell_size` units from the terrain
//! origin. A chunk (a rectangle of terrain-local units) holds the cells whose origin lies in
//! it. Per cell the *effective density* is 0 in water (bodies and painted water), above the slope or height limits or past
//! the channel cutoff, else the automatic density (`auto_density` where the roles and biomes
//! match, 0 elsewhere) times the painted density multiplier; the cell then gets
//! `n = density · effective` instances: `floor(n)`, plus one more when
//! `hash01(seed, type, cell, 0) < frac(n)`. Offsets, yaw, scale and the exclusion dither come
//! from further `hash01` values — SplitMix64 of the scatter sub-seed, the type id and the
//! global cell only — so the same inputs give the same instances on any thread count and in
//! any chunk size.
//!
//! **Even prefixes.** The chunk's cells are walked in one fixed stratified order (bit-reversed
//! Morton order of the cell's position in its chunk, the same for every chunk): the first
//! quarter of the order holds one cell of every 2 × 2 block, the first sixteenth one of every
//! 4 × 4 block, and so on. The chunk's list takes every cell's first instance in that order,
//! then every cell's second, and so on, so any prefix of it — what distance thinning draws —
//! is an even sample of the whole chunk.

use super::filter::Environment;
use super::foliage::FoliageType;
use super::foliage_cutoff::ChannelValues;
use crate::biome::{Role, SampleClasses};
use crate::seed::{fnv1a, splitmix64};

/// One foliage instance (terrain-local).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FoliageInstance {
    /// Base position: on the drawn surface, sunk by the type's `sink`.
    pub position: [f32; 3],
    /// Heading in degrees about the instance's up axis.
    pub yaw: f32,
    /// Uniform scale.
    pub scale: f32,
    /// The instance's up axis (unit): +Y tilted toward the ground normal by `align_to_normal`.
    pub up: [f32; 3],
}

/// What foliage placement reads besides the palette's environment: surface roles, the type's
/// painted density and the cutoff channel, each per sample (row-major on `env.grid`).
pub struct FoliageEnv<'a> {
    /// Heights, holes, biomes, water coverage and blocking masks (exclusions).
    pub env: Environment<'a>,
    /// Surface role id per sample ([`Role`] as `u8`, read from the classes); `None`: role
    /// filters see `ground`.
    pub roles: Option<&'a SampleClasses>,
    /// The type's painted density multiplier (0–1) per sample; `None`: 1 everywhere.
    pub density: Option<&'a [f32]>,
    /// The type's `channel_cutoff` channel per sample
    /// ([`super::foliage_cutoff::cutoff_channel`]); `None`: nothing is cut.
    pub channel: Option<ChannelValues<'a>>,
    /// Painted water depth per sample (`hydrology::water::WaterSet::painted`): no foliage
    /// where it is above 0; `None`: no painted water.
    pub water: Option<&'a [f32]>,
}

/// The per-type hash key (`seed` is the scatter sub-seed).
pub fn type_key(seed: u64, t: &FoliageType) -> u64 {
    splitmix64(seed ^ fnv1a(t.id.as_bytes()) ^ 0x666f_6c69_6167_6500)
}

/// `hash01(seed, type, cell, stream)` in [0, 1).
#[inline]
fn hash01(key: u64, cell: [u32; 2], stream: u64) -> f32 {
    let h = splitmix64(
        key ^ splitmix64(cell[0] as u64 | (cell[1] as u64) << 32)
            ^ stream.wrapping_mul(0xA24B_AED4_963E_E407),
    );
    (h >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
}

/// The fixed order key of the cell at (`i`, `j`) inside its chunk: bit-reversed Morton code.
#[inline]
fn order_key(i: u32, j: u32) -> u64 {
    let spread = |v: u32| {
        let mut x = v as u64;
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
        x = (x | x << 2) & 0x3333_3333_3333_3333;
        x = (x | x << 1) & 0x5555_5555_5555_5555;
        x
    };
    (spread(i) | spread(j) << 1).reverse_bits()
}

/// Most cells one [`place_chunk`] call walks (2048²); a larger rectangle places nothing.
pub const MAX_CHUNK_CELLS: u64 = 1 << 22;

/// Most instances one [`place_chunk`] call returns (as the scatter's placement ceiling); a
/// rectangle that could hold more places nothing (check [`instance_bound`]).
pub const MAX_CHUNK_INSTANCES: u64 = 4_000_000;

/// The most instances of `t` [`place_chunk`] may return for `rect` on a terrain of `size`:
/// its cells times the density rounded up.
pub fn instance_bound(t: &FoliageType, rect: [f32; 4], size: [f32; 2]) -> u64 {
    instances_in(t, cell_count(t, rect, size))
}

/// The most instances of `t` in `cells` cells: the density rounded up per cell.
fn instances_in(t: &FoliageType, cells: u64) -> u64 {
    cells.saturating_mul(t.density.ceil().max(1.0) as u64)
}

/// Why [`place_chunk`] would place nothing in `cells` cells of `t` (more than
/// [`MAX_CHUNK_CELLS`] cells, or more than [`MAX_CHUNK_INSTANCES`] instances), or `None`.
pub fn chunk_limit_problem(t: &FoliageType, cells: u64) -> Option<String> {
    let instances = instances_in(t, cells);
    if cells > MAX_CHUNK_CELLS {
        Some(format!(
            "{cells} cells of {} units, more than {MAX_CHUNK_CELLS}",
            t.cell_size
        ))
    } else if instances > MAX_CHUNK_INSTANCES {
        Some(format!(
            "up to {instances} instances (cells of {} units × density {}), more than \
             {MAX_CHUNK_INSTANCES}",
            t.cell_size, t.density
        ))
    } else {
        None
    }
}

/// How many cells of `t` [`place_chunk`] walks for `rect` on a terrain of `size`.
pub fn cell_count(t: &FoliageType, rect: [f32; 4], size: [f32; 2]) -> u64 {
    let [i0, j0, i1, j1] = cell_range(t, rect, size);
    (i1 - i0) as u64 * (j1 - j0) as u64
}

/// The global cells of `t` whose origin lies in `rect` (`[x0, z0, x1, z1)`, terrain-local),
/// clipped to the terrain of `size`: `[i0, j0, i1, j1)`.
pub fn cell_range(t: &FoliageType, rect: [f32; 4], size: [f32; 2]) -> [u32; 4] {
    let cs = t.cell_size.max(1e-3);
    let lo = |v: f32| (v / cs).ceil().max(0.0) as u32;
    let hi = |v: f32, s: f32| (v / cs).ceil().max(0.0).min((s / cs).ceil().max(0.0)) as u32;
    let (i0, j0) = (lo(rect[0]), lo(rect[1]));
    let (i1, j1) = (hi(rect[2], size[0]), hi(rect[3], size[1]));
    [i0, j0, i1.max(i0), j1.max(j0)]
}

/// The smoothed ground normal at sample (x, z) (central differences).
fn normal(env: &Environment, x: usize, z: usize) -> [f32; 3] {
    let [w, h] = env.grid.samples();
    let [sx, sz] = env.grid.spacing();
    let at = |a: usize, b: usize| env.heights[b * w + a];
    let (xa, xb) = (x.saturating_sub(1), (x + 1).min(w - 1));
    let (za, zb) = (z.saturating_sub(1), (z + 1).min(h - 1));
    let dx = (at(xb, z) - at(xa, z)) / (sx * (xb - xa).max(1) as f32);
    let dz = (at(x, zb) - at(x, za)) / (sz * (zb - za).max(1) as f32);
    let l = (dx * dx + 1.0 + dz * dz).sqrt();
    [-dx / l, 1.0 / l, -dz / l]
}

/// The effective density (0–1) of `t` at sample `i` = (`sx`, `sz`), its ground normal, and
/// whether the automatic rules alone would grow it there.
fn effective(
    t: &FoliageType,
    fe: &FoliageEnv,
    biome_ok: &dyn Fn(usize) -> bool,
    sx: usize,
    sz: usize,
    height: f32,
) -> (f32, [f32; 3]) {
    let env = &fe.env;
    let i = env.grid.index(sx, sz);
    let n = normal(env, sx, sz);
    if env.surround.is_some_and(|s| s.covered(i))
        || fe
            .roles
            .is_some_and(|r| r.role(i) == Some(Role::Underwater as u8))
        || fe.water.is_some_and(|w| w.get(i).is_some_and(|&d| d > 0.0))
    {
        return (0.0, n);
    }
    if n[1].clamp(-1.0, 1.0).acos().to_degrees() > t.slope_max {
        return (0.0, n);
    }
    if let Some([lo, hi]) = t.height
        && (height < lo || height > hi)
    {
        return (0.0, n);
    }
    if let (Some(c), Some(ch)) = (&t.channel_cutoff, fe.channel)
        && ch.at(i) >= c.value
    {
        return (0.0, n);
    }
    let role_ok = t.roles.as_ref().is_none_or(|roles| {
        let r = fe
            .roles
            .and_then(|r| r.role(i))
            .and_then(|id| Role::ALL.get(id as usize).copied())
            .unwrap_or(Role::Ground);
        roles.contains(&r)
    });
    if !role_ok || !biome_ok(i) {
        return (0.0, n);
    }
    let painted = fe
        .density
        .and_then(|d| d.get(i))
        .copied()
        .unwrap_or(1.0)
        .clamp(0.0, 1.0);
    (t.auto_density * painted, n)
}

/// Places foliage type `t` in the chunk `rect` (`[x0, z0, x1, z1)`, terrain-local): its
/// instances in the even order described in the module docs. `seed` is the scatter sub-seed.
/// A rectangle of more than [`MAX_CHUNK_CELLS`] cells, or whose instances would exceed
/// [`MAX_CHUNK_INSTANCES`], places nothing (check [`cell_count`] and [`instance_bound`]).
pub fn place_chunk(
    t: &FoliageType,
    seed: u64,
    fe: &FoliageEnv,
    rect: [f32; 4],
) -> Vec<FoliageInstance> {
    let env = &fe.env;
    let [i0, j0, i1, j1] = cell_range(t, rect, env.grid.size());
    let cells = (i1 - i0) as u64 * (j1.max(j0) - j0) as u64;
    if i0 >= i1
        || j0 >= j1
        || t.density <= 0.0
        || t.auto_density <= 0.0
        || chunk_limit_problem(t, cells).is_some()
    {
        return Vec::new();
    }
    let key = type_key(seed, t);
    let cs = t.cell_size;
    let biome_ok: Box<dyn Fn(usize) -> bool> = match &t.biomes {
        None => Box::new(|_| true),
        Some(list) => {
            let ok: Vec<bool> = env
                .biome_names
                .iter()
                .map(|n| list.iter().any(|b| b == n))
                .collect();
            let default_ok = list.iter().any(|b| b == env.default_biome);
            match env.classes {
                Some(c) => Box::new(move |i| {
                    c.biome(i)
                        .and_then(|b| ok.get(b as usize))
                        .copied()
                        .unwrap_or(false)
                }),
                None => Box::new(move |_| default_ok),
            }
        }
    };
    // Cells in the fixed stratified order, with their instance counts and normals.
    let mut cells: Vec<(u64, [u32; 2], u32, [f32; 3])> =
        Vec::with_capacity(((i1 - i0) * (j1 - j0)) as usize);
    let mut most = 0;
    for j in j0..j1 {
        for i in i0..i1 {
            let (cx, cz) = ((i as f32 + 0.5) * cs, (j as f32 + 0.5) * cs);
            let (px, pz) = (cx.min(env.grid.size()[0]), cz.min(env.grid.size()[1]));
            let Some((sx, sz)) = env.grid.nearest_sample(px, pz) else {
                continue;
            };
            let h = env.height_at(px, pz).unwrap_or(0.0);
            let (e, n) = effective(t, fe, &*biome_ok, sx, sz, h);
            let want = t.density * e;
            if want <= 0.0 {
                continue;
            }
            let cell = [i, j];
            let mut count = want.floor() as u32;
            if hash01(key, cell, 0) < want.fract() {
                count += 1;
            }
            if count > 0 {
                most = most.max(count);
                cells.push((order_key(i - i0, j - j0), cell, count, n));
            }
        }
    }
    cells.sort_unstable_by_key(|c| c.0);
    let total: u64 = cells.iter().map(|c| u64::from(c.2)).sum();
    if total > MAX_CHUNK_INSTANCES {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(total as usize);
    let blocked = &env.blocked;
    for k in 0..most {
        let s = 1 + 8 * k as u64;
        for &(_, cell, count, n) in &cells {
            if k >= count {
                continue;
            }
            let ox = (hash01(key, cell, s) - 0.5) * t.jitter;
            let oz = (hash01(key, cell, s + 1) - 0.5) * t.jitter;
            let x = (cell[0] as f32 + 0.5 + ox) * cs;
            let z = (cell[1] as f32 + 0.5 + oz) * cs;
            let Some((ix, iz, _, _)) = env.grid.locate(x, z) else {
                continue;
            };
            if env.holes.is_some_and(|h| h.is_hole(ix, iz)) {
                continue;
            }
            if !blocked.is_empty()
                && let Some((sx, sz)) = env.grid.nearest_sample(x, z)
            {
                let i = env.grid.index(sx, sz);
                let dither = hash01(key, cell, s + 2);
                if blocked
                    .iter()
                    .any(|m| m.get(i).is_some_and(|&w| w > dither))
                {
                    continue;
                }
            }
            let Some(y) = env.height_at(x, z) else {
                continue;
            };
            let yaw = if t.random_yaw {
                hash01(key, cell, s + 3) * 360.0
            } else {
                0.0
            };
            let scale = t.scale[0] + (t.scale[1] - t.scale[0]) * hash01(key, cell, s + 4);
            let a = t.align_to_normal;
            let up = [n[0] * a, 1.0 - a + n[1] * a, n[2] * a];
            let l = (up[0] * up[0] + up[1] * up[1] + up[2] * up[2])
                .sqrt()
                .max(1e-6);
            out.push(FoliageInstance {
                position: [x, y - t.sink, z],
                yaw,
                scale,
                up: [up[0] / l, up[1] / l, up[2] / l],
            });
        }
    }
    out
}

/// [`place_chunk`] for every rectangle of `rects`, in parallel; the result is identical on any
/// thread count.
pub fn place_chunks(
    t: &FoliageType,
    seed: u64,
    fe: &FoliageEnv,
    rects: &[[f32; 4]],
) -> Vec<Vec<FoliageInstance>> {
    use rayon::prelude::*;
    rects
        .par_iter()
        .map(|r| place_chunk(t, seed, fe, *r))
        .collect()
}

#[cfg(test)]
#[path = "foliage_place_tests.rs"]
mod tests;
