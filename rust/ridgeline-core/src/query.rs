//! Point queries and ray casts on a [`Heightfield`], all in terrain-local coordinates.
//!
//! Semantics (documented in `docs/grid.md`):
//! - Outside the terrain rectangle `[0, size_x] × [0, size_z]` and inside hole cells every query
//!   returns `None` (batch queries write `NaN`). Nothing is clamped.
//! - `height_at` is exact on the drawn full-detail triangle; `normal_at` is that triangle's face
//!   normal; `smooth_normal_at` interpolates the stored vertex normals with the same barycentric
//!   weights (identical on both sides of a chunk seam).
//! - Ray casts hit both faces of the surface, like Godot's physics ray queries with their default
//!   `hit_back_faces = true`: a ray starting below the ground hits it from below. The returned
//!   normal is the hit triangle's face normal turned to face the ray (`dot(normal, dir) <= 0`).

use crate::grid::Grid;
use crate::heightfield::Heightfield;
use glam::{DVec3, Vec3};
use rayon::prelude::*;

pub mod surface_index;

/// A ray hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Terrain-local hit position.
    pub position: Vec3,
    /// Face normal of the hit triangle, facing the ray.
    pub normal: Vec3,
    /// Distance from the ray origin along the normalised direction.
    pub distance: f32,
    /// The hit cell (x, z).
    pub cell: [u32; 2],
}

/// Which triangle of a cell a point lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Half {
    /// `(x,z) (x+1,z) (x,z+1)`, where `u + v <= 1`.
    Lower,
    /// `(x+1,z) (x+1,z+1) (x,z+1)`, where `u + v > 1`.
    Upper,
}

/// Height on a cell's drawn triangle from its corners `[h00, h10, h01, h11]` and the position
/// (u, v) inside it. Branch-free (both halves are computed and one is selected bit for bit), so
/// random batches do not stall on mispredicted branches.
#[inline(always)]
fn triangle_height(h: [f32; 4], u: f32, v: f32) -> f32 {
    let [h00, h10, h01, h11] = h;
    let lower = h00 + u * (h10 - h00) + v * (h01 - h00);
    let upper = h11 + (1.0 - u) * (h01 - h11) + (1.0 - v) * (h10 - h11);
    let mask = ((u + v > 1.0) as u32).wrapping_neg();
    f32::from_bits((lower.to_bits() & !mask) | (upper.to_bits() & mask))
}

#[inline]
fn half(u: f32, v: f32) -> Half {
    if u + v <= 1.0 {
        Half::Lower
    } else {
        Half::Upper
    }
}

impl Heightfield {
    #[inline(always)]
    fn corners(&self, ix: usize, iz: usize) -> [f32; 4] {
        let w = self.grid().samples()[0];
        let i = iz * w + ix;
        let h = self.heights();
        let (r0, r1) = (&h[i..i + 2], &h[i + w..i + w + 2]);
        [r0[0], r0[1], r1[0], r1[1]]
    }

    /// Exact height of the drawn surface at terrain-local (x, z), or `None` outside or in a hole.
    #[inline]
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        let (ix, iz, u, v) = self.grid().locate(x, z)?;
        if self.holes().count() != 0 && self.holes().is_hole(ix, iz) {
            return None;
        }
        Some(triangle_height(self.corners(ix, iz), u, v))
    }

    /// Face normal of the triangle under (x, z), or `None` outside or in a hole.
    pub fn normal_at(&self, x: f32, z: f32) -> Option<Vec3> {
        let (ix, iz, u, v) = self.grid().locate(x, z)?;
        if self.holes().is_hole(ix, iz) {
            return None;
        }
        let [dx, dz] = self.grid().spacing();
        let [h00, h10, h01, h11] = self.corners(ix, iz);
        let (gx, gz) = match half(u, v) {
            Half::Lower => ((h10 - h00) / dx, (h01 - h00) / dz),
            Half::Upper => ((h11 - h01) / dx, (h11 - h10) / dz),
        };
        Some(crate::heightfield::surface_normal(gx, gz))
    }

    /// Vertex normals interpolated over the triangle under (x, z), or `None` outside or in a
    /// hole.
    pub fn smooth_normal_at(&self, x: f32, z: f32) -> Option<Vec3> {
        let (ix, iz, u, v) = self.grid().locate(x, z)?;
        if self.holes().is_hole(ix, iz) {
            return None;
        }
        let n = |dx: usize, dz: usize| self.vertex_normal(ix + dx, iz + dz);
        let blended = match half(u, v) {
            Half::Lower => n(0, 0) * (1.0 - u - v) + n(1, 0) * u + n(0, 1) * v,
            Half::Upper => n(1, 1) * (u + v - 1.0) + n(0, 1) * (1.0 - u) + n(1, 0) * (1.0 - v),
        };
        Some(blended.normalize())
    }

    /// `height_at` for many points; `NaN` where a point is outside or in a hole. `out` must be
    /// as long as `points`. Allocates nothing; large batches are split across rayon's threads
    /// (results are identical to single queries).
    pub fn heights_at(&self, points: &[[f32; 2]], out: &mut [f32]) {
        assert_eq!(
            points.len(),
            out.len(),
            "heights_at: output length mismatch"
        );
        const PER_TASK: usize = 1 << 14;
        if points.len() >= 2 * PER_TASK {
            points
                .par_chunks(PER_TASK)
                .zip(out.par_chunks_mut(PER_TASK))
                .for_each(|(p, o)| self.heights_at_serial(p, o));
        } else {
            self.heights_at_serial(points, out);
        }
    }

    fn heights_at_serial(&self, points: &[[f32; 2]], out: &mut [f32]) {
        // Blocks of points in two passes: the first (vectorisable, no memory dependence) finds
        // each point's cell and position with exactly `Grid::locate`'s arithmetic; the second
        // gathers corners and interpolates. Results equal `height_at` bit for bit.
        const BLOCK: usize = 64;
        let grid = self.grid();
        let [sx, sz] = grid.size();
        let [cx, cz] = grid.cells();
        let w = grid.samples()[0];
        let (ix_max, iz_max) = (cx - 1, cz - 1);
        let [inv_x, inv_z] = grid.inv_spacing();
        let heights = self.heights();
        let holes = self.holes();
        let any_holes = holes.count() != 0;
        let mut cell = [0u32; BLOCK];
        let mut uv = [[0.0f32; 2]; BLOCK];
        let mut inside = [false; BLOCK];
        for (pb, ob) in points.chunks(BLOCK).zip(out.chunks_mut(BLOCK)) {
            for (k, p) in pb.iter().enumerate() {
                let (x, z) = (p[0], p[1]);
                inside[k] = x >= 0.0 && x <= sx && z >= 0.0 && z <= sz;
                let (fx, fz) = (x * inv_x, z * inv_z);
                let ix = (fx as u32).min(ix_max);
                let iz = (fz as u32).min(iz_max);
                cell[k] = iz * (ix_max + 2) + ix;
                uv[k] = [fx - ix as f32, fz - iz as f32];
            }
            for (k, o) in ob.iter_mut().enumerate() {
                let i = cell[k] as usize;
                let (r0, r1) = (&heights[i..i + 2], &heights[i + w..i + w + 2]);
                let h = triangle_height([r0[0], r0[1], r1[0], r1[1]], uv[k][0], uv[k][1]);
                let hole = any_holes && {
                    let (ix, iz) = (i % w, i / w);
                    ix < cx as usize && iz < cz as usize && holes.is_hole(ix, iz)
                };
                *o = if inside[k] && !hole { h } else { f32::NAN };
            }
        }
    }

    /// `normal_at` for many points; `NaN` vectors where a point is outside or in a hole.
    pub fn normals_at(&self, points: &[[f32; 2]], out: &mut [Vec3]) {
        assert_eq!(
            points.len(),
            out.len(),
            "normals_at: output length mismatch"
        );
        for (p, o) in points.iter().zip(out.iter_mut()) {
            *o = self.normal_at(p[0], p[1]).unwrap_or(Vec3::NAN);
        }
    }

    /// Casts a ray from `origin` along `dir` (any finite, non-zero length: only the direction
    /// matters, `(0, -1e20, 0)` and `(0, -1e-20, 0)` cast the same ray) up to `max_distance`.
    /// Returns the first crossing of the drawn surface from either side, or `None` (also for a
    /// zero or non-finite direction).
    pub fn raycast(&self, origin: Vec3, dir: Vec3, max_distance: f32) -> Option<Hit> {
        if !origin.is_finite() || max_distance.is_nan() || max_distance <= 0.0 {
            return None;
        }
        let o = origin.as_dvec3();
        let d = unit_direction_f64(dir)?;
        let grid = *self.grid();
        let [sx, sz] = grid.size();
        let [lo, hi] = self.height_range();
        let (t0, t1) = clip_box(
            o,
            d,
            max_distance as f64,
            DVec3::new(0.0, lo as f64, 0.0),
            DVec3::new(sx as f64, hi as f64, sz as f64),
        )?;
        let [dx, dz] = grid.spacing();
        let chunk = grid.chunk_cells() as f64;
        let [ncx, ncz] = grid.chunks();
        let ray = Ray::new(o, d);
        let mut found = None;
        dda(
            &ray,
            t0,
            t1,
            dx as f64 * chunk,
            dz as f64 * chunk,
            [0, 0],
            [ncx, ncz],
            |cx, cz, ta, tb| {
                let [blo, bhi] = self.chunk_bounds(cx, cz);
                let (ya, yb) = (o.y + d.y * ta, o.y + d.y * tb);
                if outside(ya, yb, blo as f64 - 1e-6, bhi as f64 + 1e-6) {
                    return false;
                }
                let r = grid.chunk_cells_range(cx, cz);
                // Blocks overlapping this chunk, then cells of each block inside the chunk.
                let block = crate::heightfield::BLOCK;
                dda(
                    &ray,
                    ta,
                    tb,
                    dx as f64 * block as f64,
                    dz as f64 * block as f64,
                    [r.x0 / block, r.z0 / block],
                    [r.x1.div_ceil(block), r.z1.div_ceil(block)],
                    |bx, bz, ba, bb| {
                        let [blo, bhi] = self.block_bounds(bx, bz);
                        let (ya, yb) = (o.y + d.y * ba, o.y + d.y * bb);
                        if outside(ya, yb, blo as f64 - 1e-6, bhi as f64 + 1e-6) {
                            return false;
                        }
                        let lo = [(bx * block).max(r.x0), (bz * block).max(r.z0)];
                        let hi = [((bx + 1) * block).min(r.x1), ((bz + 1) * block).min(r.z1)];
                        dda(
                            &ray,
                            ba,
                            bb,
                            dx as f64,
                            dz as f64,
                            lo,
                            hi,
                            |ix, iz, ca, cb| {
                                if let Some(hit) = self.cell_hit(&grid, o, d, ix, iz, ca, cb) {
                                    found = Some(hit);
                                    true
                                } else {
                                    false
                                }
                            },
                        )
                    },
                )
            },
        );
        found
    }

    /// Exact ray/triangle test in one cell over the ray interval `[ta, tb]`.
    #[allow(clippy::too_many_arguments)]
    fn cell_hit(
        &self,
        grid: &Grid,
        o: DVec3,
        d: DVec3,
        ix: u32,
        iz: u32,
        ta: f64,
        tb: f64,
    ) -> Option<Hit> {
        let (ix, iz) = (ix as usize, iz as usize);
        let corners = self.corners(ix, iz);
        // Heights are finite: plain comparisons (no NaN handling) in f32, widened once.
        let [lo, hi] = corners.iter().fold([corners[0]; 2], |[lo, hi], &h| {
            [if h < lo { h } else { lo }, if h > hi { h } else { hi }]
        });
        let (cmin, cmax) = (lo as f64, hi as f64);
        let (ya, yb) = (o.y + d.y * ta, o.y + d.y * tb);
        let eps_y = 1e-6 * (1.0 + cmax.abs());
        if outside(ya, yb, cmin - eps_y, cmax + eps_y) {
            return None;
        }
        let [h00, h10, h01, h11] = corners.map(f64::from);
        if self.holes().count() != 0 && self.holes().is_hole(ix, iz) {
            return None;
        }
        let [sdx, sdz] = grid.spacing().map(f64::from);
        let (x0, z0) = (ix as f64 * sdx, iz as f64 * sdz);
        // u(t) = ua + ub t, v(t) = va + vb t
        let (ua, ub) = ((o.x - x0) / sdx, d.x / sdx);
        let (va, vb) = ((o.z - z0) / sdz, d.z / sdz);
        const E: f64 = 1e-7;
        let t_eps = 1e-7 * (1.0 + tb.abs());
        let mut best: Option<(f64, Half)> = None;
        // Lower: y = h00 + u (h10 - h00) + v (h01 - h00)
        // Upper: y = h11 + (1 - u)(h01 - h11) + (1 - v)(h10 - h11)
        for half in [Half::Lower, Half::Upper] {
            let (c0, cu, cv) = match half {
                Half::Lower => (h00, h10 - h00, h01 - h00),
                Half::Upper => (h11 + (h01 - h11) + (h10 - h11), -(h01 - h11), -(h10 - h11)),
            };
            // f(t) = o.y + d.y t - (c0 + cu u(t) + cv v(t)) = a + b t
            let a = o.y - c0 - cu * ua - cv * va;
            let b = d.y - cu * ub - cv * vb;
            if b.abs() < 1e-15 {
                continue;
            }
            let t = -a / b;
            if t < ta - t_eps || t > tb + t_eps {
                continue;
            }
            let (u, v) = (ua + ub * t, va + vb * t);
            let inside = match half {
                Half::Lower => u >= -E && v >= -E && u + v <= 1.0 + E,
                Half::Upper => u <= 1.0 + E && v <= 1.0 + E && u + v >= 1.0 - E,
            };
            if inside && best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, half));
            }
        }
        let (t, half) = best?;
        let (gx, gz) = match half {
            Half::Lower => ((h10 - h00) / sdx, (h01 - h00) / sdz),
            Half::Upper => ((h11 - h01) / sdx, (h11 - h10) / sdz),
        };
        let mut n = DVec3::new(-gx, 1.0, -gz).normalize();
        if n.dot(d) > 0.0 {
            n = -n;
        }
        let p = o + d * t;
        Some(Hit {
            position: p.as_vec3(),
            normal: n.as_vec3(),
            distance: t as f32,
            cell: [ix as u32, iz as u32],
        })
    }
}

/// `dir` scaled to unit length, for any finite non-zero `dir` (tiny, huge or subnormal
/// components included: it is scaled by its largest component before squaring, so nothing
/// overflows or underflows). `None` for a zero, NaN or infinite direction. Ray casts (here and in
/// Godot) normalise their direction with this.
pub fn unit_direction(dir: Vec3) -> Option<Vec3> {
    unit_direction_f64(dir).map(|d| d.as_vec3())
}

fn unit_direction_f64(dir: Vec3) -> Option<DVec3> {
    if !dir.is_finite() {
        return None;
    }
    let d = dir.as_dvec3();
    let m = d.abs().max_element();
    if m == 0.0 {
        return None;
    }
    let s = d / m;
    Some(s / s.length())
}

/// Clips the ray segment `[0, max]` to an axis-aligned box; returns the `[t0, t1]` inside.
fn clip_box(o: DVec3, d: DVec3, max: f64, lo: DVec3, hi: DVec3) -> Option<(f64, f64)> {
    let mut t0 = 0.0f64;
    let mut t1 = max;
    for axis in 0..3 {
        let (oa, da, la, ha) = (o[axis], d[axis], lo[axis], hi[axis]);
        if da.abs() < 1e-15 {
            if oa < la || oa > ha {
                return None;
            }
            continue;
        }
        let (mut a, mut b) = ((la - oa) / da, (ha - oa) / da);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        t0 = t0.max(a);
        t1 = t1.min(b);
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}

/// A ray in `f64` with what every DDA level reuses: the reciprocals of its X and Z direction
/// (infinite along an axis it does not move on), so stepping needs no division.
struct Ray {
    o: DVec3,
    d: DVec3,
    inv: [f64; 2],
}

impl Ray {
    fn new(o: DVec3, d: DVec3) -> Self {
        let inv = |a: f64| {
            if a.abs() < 1e-15 {
                f64::INFINITY
            } else {
                1.0 / a
            }
        };
        Ray {
            o,
            d,
            inv: [inv(d.x), inv(d.z)],
        }
    }
}

/// The smaller of two numbers that are not NaN (no NaN handling, unlike `f64::min`).
#[inline(always)]
fn min_f64(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

/// Whether the ray's height over a stretch, from `ya` to `yb`, stays wholly below `lo` or
/// wholly above `hi` (none of them NaN).
#[inline(always)]
fn outside(ya: f64, yb: f64, lo: f64, hi: f64) -> bool {
    let (y0, y1) = if ya < yb { (ya, yb) } else { (yb, ya) };
    y1 < lo || y0 > hi
}

/// `floor(p)` as an integer (saturating), without a call into libm.
#[inline(always)]
fn floor_i64(p: f64) -> i64 {
    let i = p as i64;
    i - ((i as f64) > p) as i64
}

/// 2D DDA over a regular grid of `cw × ch` cells covering index range `[lo, hi)`, visiting the
/// cells the ray passes during `[t0, t1]` in order with their own `[ta, tb]`. Stops when
/// `visit` returns true; returns whether it did.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn dda(
    ray: &Ray,
    t0: f64,
    t1: f64,
    cw: f64,
    ch: f64,
    lo: [u32; 2],
    hi: [u32; 2],
    mut visit: impl FnMut(u32, u32, f64, f64) -> bool,
) -> bool {
    let (o, d) = (ray.o, ray.d);
    let cell_of = |p: f64, size: f64, lo: u32, hi: u32| -> i64 {
        floor_i64(p / size).clamp(lo as i64, hi as i64 - 1)
    };
    // Nudge the start inside the segment so a start exactly on a boundary picks the cell the
    // ray enters.
    let probe = o + d * (t0 + (t1 - t0).min(1e-9));
    let mut ix = cell_of(probe.x, cw, lo[0], hi[0]);
    let mut iz = cell_of(probe.z, ch, lo[1], hi[1]);
    let step_x: i64 = if d.x > 0.0 { 1 } else { -1 };
    let step_z: i64 = if d.z > 0.0 { 1 } else { -1 };
    // Time of the next boundary of cell `i` along an axis (infinite when the ray does not move
    // along it), and the time between two boundaries.
    let next_boundary = |i: i64, step: i64, size: f64, oa: f64, inv: f64| -> f64 {
        if inv.is_infinite() {
            return f64::INFINITY;
        }
        let edge = if step > 0 { i + 1 } else { i };
        (edge as f64 * size - oa) * inv
    };
    let delta_x = cw * ray.inv[0].abs();
    let delta_z = ch * ray.inv[1].abs();
    let mut tmax_x = next_boundary(ix, step_x, cw, o.x, ray.inv[0]);
    let mut tmax_z = next_boundary(iz, step_z, ch, o.z, ray.inv[1]);
    let mut t = t0;
    loop {
        // Plain comparisons: no time is NaN (finite origin, unit direction, clipped range).
        let tnext = min_f64(min_f64(tmax_x, tmax_z), t1);
        if visit(ix as u32, iz as u32, t, if tnext > t { tnext } else { t }) {
            return true;
        }
        if tnext >= t1 {
            return false;
        }
        if tmax_x < tmax_z {
            ix += step_x;
            tmax_x += delta_x;
        } else {
            iz += step_z;
            tmax_z += delta_z;
        }
        if ix < lo[0] as i64 || ix >= hi[0] as i64 || iz < lo[1] as i64 || iz >= hi[1] as i64 {
            return false;
        }
        t = tnext;
    }
}

#[cfg(test)]
mod tests;
