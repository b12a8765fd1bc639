//! Hydraulic droplet erosion plus thermal relaxation.
//!
//! **Droplets** (the classic particle model): each droplet follows the surface gradient with
//! inertia, picks up sediment up to a capacity that grows with slope, speed and water, deposits
//! where it slows or climbs, and evaporates. Heights and gradients come from bilinear
//! interpolation of the cell under the droplet; erosion uses a round brush.
//!
//! **Determinism for any thread count**: droplets run in square tiles coloured 2×2. All tiles of
//! one colour run in parallel, each on a private copy of its cells, and droplets never leave
//! their tile's interior (inset by the brush radius), so same-coloured tiles cannot touch each
//! other's samples; copies are written back in tile order. Each tile's droplets come from a
//! counter-based seed (world seed, round, tile). Two rounds with shifted tile grids hide tile
//! borders. A droplet that reaches the field edge **exports** its sediment; one stopped at a tile
//! border or at the end of its lifetime leaves its sediment **suspended** (removed). So
//! `eroded = deposited + exported + suspended` exactly, in sample-height units.
//!
//! **Thermal relaxation** moves material from each sample to lower triangle-edge neighbours
//! where the drop exceeds the talus angle, as Jacobi iterations (every transfer computed from
//! the previous state, antisymmetric per pair): it conserves material and is order-free.
//!
//! **Stability**: no sample ever leaves the input's height range. A droplet's brush lowers a
//! sample at most to the height the droplet flows on to (`new_h`), and sediment is laid no
//! higher than the highest corner of the cell it settles in; a thermal step moves each sample
//! by at most half the way to a convex combination of its neighbours (`thermal_strength ≤ 1`).
//! Each step therefore keeps every sample within the current range, for any grid, droplet count
//! and parameters (property-tested).

use super::drainage::NEIGHBOURS;
use crate::error::{Error, Result};
use crate::grid::{Field, Grid};
use crate::seed::splitmix64;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Erosion parameters (documented with defaults and ranges in `docs/nodes.md`).
#[derive(Clone, Debug, PartialEq)]
pub struct ErosionParams {
    /// Droplet count (0 skips hydraulic erosion).
    pub iterations: u32,
    /// Steps per droplet.
    pub lifetime: u32,
    /// 0..1: how much a droplet keeps its direction.
    pub inertia: f32,
    /// Sediment capacity factor.
    pub capacity: f32,
    /// 0..1: fraction of excess sediment deposited per step.
    pub deposition: f32,
    /// 0..1: fraction of free capacity eroded per step.
    pub erosion_rate: f32,
    /// 0..1: water lost per step.
    pub evaporation: f32,
    /// Smallest slope used for capacity (keeps flat ground erodible).
    pub min_slope: f32,
    /// Acceleration along slopes.
    pub gravity: f32,
    /// Erosion brush radius in cells.
    pub brush_radius: u32,
    /// 0..1: fraction of the excess drop moved per thermal iteration.
    pub thermal_strength: f32,
    /// Degrees: steeper neighbour drops relax.
    pub talus_angle: f32,
    /// Thermal iterations (Final only).
    pub thermal_iterations: u32,
}

impl Default for ErosionParams {
    fn default() -> Self {
        DEFAULT_PARAMS
    }
}

/// How much work one run may do: the caller (the Erosion node) decides, e.g. a shorter budget
/// for previews.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Droplets to simulate.
    pub droplets: u32,
    /// Steps per droplet.
    pub lifetime: u32,
    /// Thermal iterations.
    pub thermal_iterations: u32,
}

impl Budget {
    /// Everything the parameters ask for.
    pub fn full(params: &ErosionParams) -> Self {
        Self {
            droplets: params.iterations,
            lifetime: params.lifetime,
            thermal_iterations: params.thermal_iterations,
        }
    }
}

/// The default parameters (documented in `docs/nodes.md`).
pub const DEFAULT_PARAMS: ErosionParams = ErosionParams {
    iterations: 100_000,
    lifetime: 30,
    inertia: 0.05,
    capacity: 4.0,
    deposition: 0.3,
    erosion_rate: 0.3,
    evaporation: 0.01,
    min_slope: 0.01,
    gravity: 4.0,
    brush_radius: 3,
    thermal_strength: 0.5,
    talus_angle: 35.0,
    thermal_iterations: 20,
};

/// Totals in sample-height units (sum of height changes over samples).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ledger {
    /// Material taken from the ground by droplets.
    pub eroded: f64,
    /// Material laid down by droplets.
    pub deposited: f64,
    /// Sediment carried off open field edges.
    pub exported: f64,
    /// Sediment still carried when droplets stopped (lifetime end or tile border).
    pub suspended: f64,
}

/// The outputs of an erosion run.
#[derive(Clone, Debug)]
pub struct Eroded {
    /// Eroded heights.
    pub heights: Field<f32>,
    /// Signed height change per sample (+ deposition, − removal), hydraulic and thermal.
    pub change: Field<f32>,
    /// Net deposition normalised so its largest value is 1.
    pub deposited_mask: Field<f32>,
    /// Net removal normalised so its largest value is 1.
    pub eroded_mask: Field<f32>,
    /// Hydraulic transport totals.
    pub ledger: Ledger,
}

/// Tile side in cells for parallel droplets.
const TILE: usize = 64;

/// Precomputed brush offsets and weights (sum 1).
fn brush(radius: u32) -> Vec<(i32, i32, f32)> {
    let r = radius as i32;
    let mut out = Vec::new();
    let mut sum = 0.0;
    for dz in -r..=r {
        for dx in -r..=r {
            let d = ((dx * dx + dz * dz) as f32).sqrt();
            if d <= radius as f32 {
                let w = 1.0 - d / (radius as f32 + 1.0);
                out.push((dx, dz, w));
                sum += w;
            }
        }
    }
    for b in &mut out {
        b.2 /= sum;
    }
    out
}

/// A tile's private copy of its samples.
struct Tile {
    x0: usize,
    z0: usize,
    w: usize,
    h: usize,
    data: Vec<f32>,
    ledger: Ledger,
}

/// Runs erosion within `budget`. `seed` should come from the `erosion` channel.
pub fn erode(
    grid: &Grid,
    input: &Field<f32>,
    params: &ErosionParams,
    budget: Budget,
    seed: u64,
    cancel: &AtomicBool,
) -> Result<Eroded> {
    let (w, h) = (input.width(), input.depth());
    let mut heights = input.as_slice().to_vec();
    let (droplets, lifetime, thermal) =
        (budget.droplets, budget.lifetime, budget.thermal_iterations);
    let brush = brush(params.brush_radius);
    let margin = params.brush_radius as usize + 1;
    let mut ledger = Ledger::default();
    let rounds = 2usize;
    let cells_total = ((w - 1) * (h - 1)).max(1) as u64;
    for round in 0..rounds {
        let offset = round * TILE / 2;
        // Tile origins along each axis (the first tile may be short when shifted).
        let starts = |n: usize| -> Vec<usize> {
            let mut v = vec![0];
            let mut s = if offset > 0 { offset } else { TILE };
            while s < n - 1 {
                v.push(s);
                s += TILE;
            }
            v
        };
        let (xs, zs) = (starts(w), starts(h));
        for color in 0..4 {
            if cancel.load(Ordering::Relaxed) {
                return Err(Error::Cancelled);
            }
            let mut tiles: Vec<(usize, Tile)> = Vec::new();
            for (tz, &z0) in zs.iter().enumerate() {
                for (tx, &x0) in xs.iter().enumerate() {
                    if (tx % 2) + 2 * (tz % 2) != color {
                        continue;
                    }
                    let x1 = xs.get(tx + 1).copied().unwrap_or(w - 1) + 1;
                    let z1 = zs.get(tz + 1).copied().unwrap_or(h - 1) + 1;
                    let (tw, th) = (x1 - x0, z1 - z0);
                    let mut data = Vec::with_capacity(tw * th);
                    for z in z0..z1 {
                        data.extend_from_slice(&heights[z * w + x0..z * w + x1]);
                    }
                    let id = (round * 4096 + tz) * 4096 + tx;
                    tiles.push((
                        id,
                        Tile {
                            x0,
                            z0,
                            w: tw,
                            h: th,
                            data,
                            ledger: Ledger::default(),
                        },
                    ));
                }
            }
            tiles.par_iter_mut().for_each(|(id, tile)| {
                let cells = ((tile.w - 1) * (tile.h - 1)) as u64;
                let share = (droplets as u64 * cells / cells_total) as usize / rounds;
                run_droplets(
                    tile,
                    (w, h),
                    share,
                    lifetime,
                    params,
                    &brush,
                    margin,
                    seed ^ splitmix64(*id as u64),
                );
            });
            for (_, tile) in tiles {
                for z in 0..tile.h {
                    let row = (tile.z0 + z) * w + tile.x0;
                    heights[row..row + tile.w]
                        .copy_from_slice(&tile.data[z * tile.w..(z + 1) * tile.w]);
                }
                ledger.eroded += tile.ledger.eroded;
                ledger.deposited += tile.ledger.deposited;
                ledger.exported += tile.ledger.exported;
                ledger.suspended += tile.ledger.suspended;
            }
        }
    }
    if thermal > 0 && params.thermal_strength > 0.0 {
        relax(grid, &mut heights, w, h, params, thermal, cancel)?;
    }
    let change: Vec<f32> = heights
        .iter()
        .zip(input.as_slice())
        .map(|(a, b)| a - b)
        .collect();
    let max_pos = change.iter().cloned().fold(0.0f32, f32::max);
    let max_neg = change.iter().cloned().fold(0.0f32, |m, c| m.max(-c));
    let dep: Vec<f32> = change
        .iter()
        .map(|&c| {
            if max_pos > 0.0 {
                c.max(0.0) / max_pos
            } else {
                0.0
            }
        })
        .collect();
    let ero: Vec<f32> = change
        .iter()
        .map(|&c| {
            if max_neg > 0.0 {
                (-c).max(0.0) / max_neg
            } else {
                0.0
            }
        })
        .collect();
    Ok(Eroded {
        heights: Field::from_vec(w, h, heights)?,
        change: Field::from_vec(w, h, change)?,
        deposited_mask: Field::from_vec(w, h, dep)?,
        eroded_mask: Field::from_vec(w, h, ero)?,
        ledger,
    })
}

#[allow(clippy::too_many_arguments)]
fn run_droplets(
    tile: &mut Tile,
    field: (usize, usize),
    count: usize,
    lifetime: u32,
    p: &ErosionParams,
    brush: &[(i32, i32, f32)],
    margin: usize,
    seed: u64,
) {
    let (tw, th) = (tile.w, tile.h);
    if tw <= 2 * margin + 1 || th <= 2 * margin + 1 {
        return;
    }
    // Allowed droplet area (tile-local cell coordinates): inset so the brush stays inside.
    let (lo_x, hi_x) = (margin as f32, (tw - 1 - margin) as f32);
    let (lo_z, hi_z) = (margin as f32, (th - 1 - margin) as f32);
    // Edges of the tile that are field edges: leaving there exports sediment.
    let open = [
        tile.x0 == 0,
        tile.z0 == 0,
        tile.x0 + tw >= field.0,
        tile.z0 + th >= field.1,
    ];
    let mut rng = fastrand::Rng::with_seed(seed);
    // Brush taps as offsets into this tile's rows.
    let taps: Vec<(isize, f32)> = brush
        .iter()
        .map(|&(bx, bz, bw)| (bz as isize * tw as isize + bx as isize, bw))
        .collect();
    let data = &mut tile.data;
    let at = |data: &[f32], x: usize, z: usize| data[z * tw + x];
    for _ in 0..count {
        let mut px = lo_x + rng.f32() * (hi_x - lo_x);
        let mut pz = lo_z + rng.f32() * (hi_z - lo_z);
        let (mut dx, mut dz) = (0.0f32, 0.0f32);
        let (mut speed, mut water, mut sediment) = (1.0f32, 1.0f32, 0.0f32);
        let mut ended = false;
        for _ in 0..lifetime {
            let (ix, iz) = (px as usize, pz as usize);
            let (u, v) = (px - ix as f32, pz - iz as f32);
            let (h00, h10, h01, h11) = (
                at(data, ix, iz),
                at(data, ix + 1, iz),
                at(data, ix, iz + 1),
                at(data, ix + 1, iz + 1),
            );
            let gx = (h10 - h00) * (1.0 - v) + (h11 - h01) * v;
            let gz = (h01 - h00) * (1.0 - u) + (h11 - h10) * u;
            let height = h00 * (1.0 - u) * (1.0 - v)
                + h10 * u * (1.0 - v)
                + h01 * (1.0 - u) * v
                + h11 * u * v;
            dx = dx * p.inertia - gx * (1.0 - p.inertia);
            dz = dz * p.inertia - gz * (1.0 - p.inertia);
            let len = (dx * dx + dz * dz).sqrt();
            if len < 1e-9 {
                // Flat: pick a deterministic random direction.
                let a = rng.f32() * std::f32::consts::TAU;
                dx = a.cos();
                dz = a.sin();
            } else {
                dx /= len;
                dz /= len;
            }
            let (nx, nz) = (px + dx, pz + dz);
            if nx < lo_x || nx > hi_x || nz < lo_z || nz > hi_z {
                let exits_field = (nx < lo_x && open[0])
                    || (nz < lo_z && open[1])
                    || (nx > hi_x && open[2])
                    || (nz > hi_z && open[3]);
                if exits_field {
                    tile.ledger.exported += sediment as f64;
                } else {
                    tile.ledger.suspended += sediment as f64;
                }
                ended = true;
                break;
            }
            let (jx, jz) = (nx as usize, nz as usize);
            let (uu, vv) = (nx - jx as f32, nz - jz as f32);
            let new_h = at(data, jx, jz) * (1.0 - uu) * (1.0 - vv)
                + at(data, jx + 1, jz) * uu * (1.0 - vv)
                + at(data, jx, jz + 1) * (1.0 - uu) * vv
                + at(data, jx + 1, jz + 1) * uu * vv;
            let dh = new_h - height;
            let capacity = (-dh).max(p.min_slope) * speed * water * p.capacity;
            if sediment > capacity || dh > 0.0 {
                let amount = if dh > 0.0 {
                    dh.min(sediment)
                } else {
                    (sediment - capacity) * p.deposition
                };
                // Sediment settles into the cell: no corner rises above the cell's highest
                // corner, so deposits never build above the surface they settle on.
                let ceiling = h00.max(h10).max(h01).max(h11);
                let i = iz * tw + ix;
                let mut settle = |k: usize, wk: f32| -> f32 {
                    let h = data[k];
                    // min(h + amount·wk, ceiling), never below h.
                    let a = h + amount * wk;
                    let a = if a < ceiling { a } else { ceiling };
                    let raised = if a > h { a } else { h };
                    data[k] = raised;
                    raised - h
                };
                let laid = (settle(i, (1.0 - u) * (1.0 - v)) + settle(i + 1, u * (1.0 - v)))
                    + (settle(i + tw, (1.0 - u) * v) + settle(i + tw + 1, u * v));
                sediment -= laid;
                tile.ledger.deposited += laid as f64;
            } else {
                // Water cannot cut below the height it flows on to: a brush sample is lowered at
                // most to `new_h`. Without this bound the brush dug samples that lay below the
                // droplet's next position, each cut steepening the next droplet's drop, and on
                // grids with many droplets per cell the feedback grew without limit (millions
                // of metres below a 0..40 m input).
                let amount = ((capacity - sediment) * p.erosion_rate).min(-dh);
                let centre = (iz * tw + ix) as isize;
                let mut cut = |off: isize, bw: f32| -> f32 {
                    let s = &mut data[(centre + off) as usize];
                    let h = *s;
                    // max(h − amount·bw, new_h), never above h (heights are finite here).
                    let a = h - amount * bw;
                    let a = if a > new_h { a } else { new_h };
                    let lowered = if a < h { a } else { h };
                    *s = lowered;
                    h - lowered
                };
                // Four running sums in a fixed order (bit-identical for any thread count) keep
                // the additions from forming one long dependency chain.
                let mut taken = [0.0f32; 4];
                let mut quads = taps.chunks_exact(4);
                for q in &mut quads {
                    taken[0] += cut(q[0].0, q[0].1);
                    taken[1] += cut(q[1].0, q[1].1);
                    taken[2] += cut(q[2].0, q[2].1);
                    taken[3] += cut(q[3].0, q[3].1);
                }
                for (j, &(off, bw)) in quads.remainder().iter().enumerate() {
                    taken[j] += cut(off, bw);
                }
                let taken = (taken[0] + taken[1]) + (taken[2] + taken[3]);
                sediment += taken;
                tile.ledger.eroded += taken as f64;
            }
            speed = (speed * speed + dh * p.gravity).max(0.0).sqrt();
            water *= 1.0 - p.evaporation;
            px = nx;
            pz = nz;
        }
        if !ended {
            tile.ledger.suspended += sediment as f64;
        }
    }
}

/// Thermal relaxation by Jacobi iterations over triangle-edge neighbours.
fn relax(
    grid: &Grid,
    heights: &mut [f32],
    w: usize,
    h: usize,
    p: &ErosionParams,
    iterations: u32,
    cancel: &AtomicBool,
) -> Result<()> {
    let [sx, sz] = grid.spacing();
    let tan = p.talus_angle.to_radians().tan();
    // Largest stable drop to each neighbour (distance × tan(talus)).
    let talus: Vec<f32> = NEIGHBOURS
        .iter()
        .map(|&(dx, dz)| {
            let (ex, ez) = (dx as f32 * sx, dz as f32 * sz);
            (ex * ex + ez * ez).sqrt() * tan
        })
        .collect();
    let k = p.thermal_strength / (2.0 * NEIGHBOURS.len() as f32);
    let mut next = heights.to_vec();
    for _ in 0..iterations {
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let prev = &*heights;
        next.par_chunks_mut(w).enumerate().for_each(|(z, row)| {
            for (x, out) in row.iter_mut().enumerate() {
                let hi = prev[z * w + x];
                let mut delta = 0.0f32;
                for (n, &(dx, dz)) in NEIGHBOURS.iter().enumerate() {
                    let (nx, nz) = (x as i32 + dx, z as i32 + dz);
                    if nx < 0 || nz < 0 || nx >= w as i32 || nz >= h as i32 {
                        continue;
                    }
                    let hj = prev[nz as usize * w + nx as usize];
                    let d = hi - hj;
                    if d > talus[n] {
                        delta -= k * (d - talus[n]);
                    } else if -d > talus[n] {
                        delta += k * (-d - talus[n]);
                    }
                }
                *out = hi + delta;
            }
        });
        heights.copy_from_slice(&next);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
