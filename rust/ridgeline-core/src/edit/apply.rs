//! Applying strokes to a window of samples. Full regeneration and incremental updates run this
//! same code — a full replay is a window covering the grid — so both give identical bits.
//!
//! Every operation reads only the window: a stamp that reads neighbours (smooth, ramp edge
//! smoothing, slope limits) sees the window's own values, clamped at its edge. Callers choose
//! windows wide enough that those clamped reads never reach the samples they keep
//! ([`crate::pipeline::session`] grows them by each later stamp's read distance).

use super::brush::Brush;
use super::rect::Rect;
use super::stroke::{Op, Stroke};
use crate::grid::Grid;
use crate::heightfield::MAX_HEIGHT;

/// A sample a stroke would move out of the height range (non-finite, or beyond
/// ±[`MAX_HEIGHT`]): the stroke is refused, nothing is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutOfRange {
    /// Sample column.
    pub x: usize,
    /// Sample row.
    pub z: usize,
    /// The value the stroke would write.
    pub value: f32,
}

impl OutOfRange {
    /// What went wrong, for a message located at the stroke.
    pub fn describe(&self) -> String {
        format!(
            "would make the height of sample ({}, {}) {}, but heights must stay finite and within ±{MAX_HEIGHT} m; lower `amount`, use fewer stamps or a smaller strength",
            self.x, self.z, self.value
        )
    }
}

/// `Err` when `v` may not be written at sample (x, z).
#[inline]
fn checked(x: usize, z: usize, v: f32) -> Result<f32, OutOfRange> {
    // `!(a <= b)` also catches NaN.
    if v.abs() <= MAX_HEIGHT {
        Ok(v)
    } else {
        Err(OutOfRange { x, z, value: v })
    }
}

/// A window of per-sample values.
pub struct Window {
    /// Samples covered.
    pub rect: Rect,
    /// Values, row-major over `rect`.
    pub values: Vec<f32>,
}

impl Window {
    /// Copies `rect` out of a full-grid array of `w` columns.
    pub fn copy(all: &[f32], w: usize, rect: Rect) -> Self {
        let grid = Rect::new(0, 0, w, all.len() / w.max(1));
        Self {
            rect,
            values: rect.copy_from(all, &grid),
        }
    }

    #[inline]
    fn at(&self, x: usize, z: usize) -> usize {
        (z - self.rect.z0) * self.rect.width() + (x - self.rect.x0)
    }
}

#[inline]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// A copy of part of a window taken before a stamp writes: the 5-point mean and the slope at
/// (x, z), with neighbours clamped to the *window* (`bounds`), read from the copied part
/// (`part`, which holds every in-window neighbour of the samples the stamp writes).
struct Snapshot<'a> {
    bounds: Rect,
    part: Rect,
    vals: &'a [f32],
    dx: f32,
    dz: f32,
}

impl<'a> Snapshot<'a> {
    /// Copies `part` of `win` into `scratch`.
    fn take(win: &Window, part: Rect, scratch: &'a mut Vec<f32>, dx: f32, dz: f32) -> Self {
        scratch.clear();
        for z in part.z0..part.z1 {
            let i = win.at(part.x0, z);
            scratch.extend_from_slice(&win.values[i..i + part.width()]);
        }
        Snapshot {
            bounds: win.rect,
            part,
            vals: scratch,
            dx,
            dz,
        }
    }

    #[inline]
    fn get(&self, x: usize, z: usize) -> f32 {
        self.vals[(z - self.part.z0) * self.part.width() + (x - self.part.x0)]
    }

    fn mean5(&self, x: usize, z: usize) -> f32 {
        let r = self.bounds;
        let mut sum = self.get(x, z);
        let mut n = 1.0f32;
        if x > r.x0 {
            sum += self.get(x - 1, z);
            n += 1.0;
        }
        if x + 1 < r.x1 {
            sum += self.get(x + 1, z);
            n += 1.0;
        }
        if z > r.z0 {
            sum += self.get(x, z - 1);
            n += 1.0;
        }
        if z + 1 < r.z1 {
            sum += self.get(x, z + 1);
            n += 1.0;
        }
        sum / n
    }

    fn slope_degrees(&self, x: usize, z: usize) -> f32 {
        let r = self.bounds;
        let (xa, xb) = (
            if x > r.x0 { x - 1 } else { x },
            if x + 1 < r.x1 { x + 1 } else { x },
        );
        let (za, zb) = (
            if z > r.z0 { z - 1 } else { z },
            if z + 1 < r.z1 { z + 1 } else { z },
        );
        let gx = if xb > xa {
            (self.get(xb, z) - self.get(xa, z)) / ((xb - xa) as f32 * self.dx)
        } else {
            0.0
        };
        let gz = if zb > za {
            (self.get(x, zb) - self.get(x, za)) / ((zb - za) as f32 * self.dz)
        } else {
            0.0
        };
        (gx * gx + gz * gz).sqrt().atan().to_degrees()
    }
}

/// Applies every stamp of a height stroke to the window. `scratch` is reused between calls.
/// A stroke that would write a non-finite height or one beyond ±[`MAX_HEIGHT`] stops with
/// [`OutOfRange`] (the window is then partly written: discard it).
pub fn apply_heights(
    stroke: &Stroke,
    grid: &Grid,
    win: &mut Window,
    scratch: &mut Vec<f32>,
) -> Result<(), OutOfRange> {
    let [dx, dz] = grid.spacing();
    let b = &stroke.brush;
    let needs_snapshot = stroke.reads() > 0;
    if let Op::Ramp { .. } = stroke.op {
        return apply_ramp(stroke, grid, win, scratch);
    }
    if stroke.is_hole() {
        // Holes write the hole mask ([`apply_holes`]), never heights.
        return Ok(());
    }
    if let Op::HeightPatch(p) = &stroke.op {
        // Values were range-checked when the stroke was parsed.
        p.apply(win);
        return Ok(());
    }
    if let Op::WaterPatch(_) = stroke.op {
        // A water patch writes the water layer ([`super::water::replay_from`]), never `h`.
        return Ok(());
    }
    let is_protect = matches!(stroke.op, Op::Protect { .. });
    let mut protect_index = 0usize;
    let mut writes: Vec<(usize, f32)> = Vec::new();
    for c in stroke.stamps() {
        let full = stroke.stamp_rect(grid, c);
        let r = full.intersect(&win.rect);
        // Protection snapshots are indexed over the whole stamp in scan order, so a protect
        // stamp scans its full rectangle and only writes inside the window.
        let scan = if is_protect { full } else { r };
        if r.is_empty() && !is_protect {
            continue;
        }
        let part = if needs_snapshot {
            r.grow(1, usize::MAX, usize::MAX).intersect(&win.rect)
        } else {
            Rect::EMPTY
        };
        let snap = Snapshot::take(win, part, scratch, dx, dz);
        writes.clear();
        for z in scan.z0..scan.z1 {
            for x in scan.x0..scan.x1 {
                let [px, pz] = grid.sample_position(x, z);
                let fade = b.fade(px - c[0], pz - c[1]);
                if fade <= 0.0 {
                    continue;
                }
                let slot = protect_index;
                if is_protect {
                    protect_index += 1;
                    if !r.contains(x, z) {
                        continue;
                    }
                }
                if b.slope.is_some() && !b.slope_pass(snap.slope_degrees(x, z)) {
                    continue;
                }
                let w = b.strength * fade;
                let i = win.at(x, z);
                let h = win.values[i];
                let v = match &stroke.op {
                    Op::Raise(a) => h + *a as f32 * w,
                    Op::Lower(a) => h - *a as f32 * w,
                    Op::Flatten(t) | Op::SetHeight(t) => lerp(h, *t as f32, w),
                    // Level mode: the water surface moves toward the level (the depth
                    // fraction is replayed by `edit::water`).
                    Op::PaintWater(p) => match p.level {
                        Some(l) => lerp(h, l as f32, w),
                        None => continue,
                    },
                    Op::Smooth => lerp(h, snap.mean5(x, z), w),
                    Op::Protect { heights, .. } => match heights.get(slot) {
                        Some(&s) => lerp(h, s, w),
                        None => h,
                    },
                    _ => h,
                };
                writes.push((i, checked(x, z, v)?));
            }
        }
        for &(i, v) in &writes {
            win.values[i] = v;
        }
    }
    Ok(())
}

/// Ramp weight and target height at sample position `p` (`None` outside the band).
fn ramp_at(stroke: &Stroke, p: [f32; 2]) -> Option<(f32, f32)> {
    let Op::Ramp { from, to } = &stroke.op else {
        return None;
    };
    let (ax, az, ah) = (from[0] as f32, from[1] as f32, from[2] as f32);
    let (bx, bz, bh) = (to[0] as f32, to[1] as f32, to[2] as f32);
    let (ux, uz) = (bx - ax, bz - az);
    let l2 = ux * ux + uz * uz;
    let t = if l2 > 0.0 {
        ((p[0] - ax) * ux + (p[1] - az) * uz) / l2
    } else {
        0.0
    };
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let (qx, qz) = (ax + ux * t, az + uz * t);
    let fade = stroke.brush.fade(p[0] - qx, p[1] - qz);
    (fade > 0.0).then_some((stroke.brush.strength * fade, ah + (bh - ah) * t))
}

fn apply_ramp(
    stroke: &Stroke,
    grid: &Grid,
    win: &mut Window,
    scratch: &mut Vec<f32>,
) -> Result<(), OutOfRange> {
    let [dx, dz] = grid.spacing();
    let b = &stroke.brush;
    let r = stroke.ramp_rect(grid).intersect(&win.rect);
    if r.is_empty() {
        return Ok(());
    }
    // Pass 1: move toward the interpolated height (slope read from the pre-stamp surface).
    let part = r.grow(1, usize::MAX, usize::MAX).intersect(&win.rect);
    let mut writes: Vec<(usize, f32)> = Vec::new();
    {
        let snap = Snapshot::take(win, part, scratch, dx, dz);
        for z in r.z0..r.z1 {
            for x in r.x0..r.x1 {
                let Some((w, target)) = ramp_at(stroke, grid.sample_position(x, z)) else {
                    continue;
                };
                if b.slope.is_some() && !b.slope_pass(snap.slope_degrees(x, z)) {
                    continue;
                }
                let i = win.at(x, z);
                writes.push((i, checked(x, z, lerp(win.values[i], target, w))?));
            }
        }
    }
    for (i, v) in writes.drain(..) {
        win.values[i] = v;
    }
    // Passes 2 and 3: smooth the band's edges (weight 4w(1−w): zero in the core and outside).
    for _ in 0..2 {
        let snap = Snapshot::take(win, part, scratch, dx, dz);
        for z in r.z0..r.z1 {
            for x in r.x0..r.x1 {
                let Some((w, _)) = ramp_at(stroke, grid.sample_position(x, z)) else {
                    continue;
                };
                let e = 4.0 * w * (1.0 - w);
                if e <= 0.0 {
                    continue;
                }
                let i = win.at(x, z);
                writes.push((i, checked(x, z, lerp(win.values[i], snap.mean5(x, z), e))?));
            }
        }
        for (i, v) in writes.drain(..) {
            win.values[i] = v;
        }
    }
    Ok(())
}

/// Applies an exclusion stroke to a window of the 0–1 mask; slope limits read `heights` (the
/// final surface, full grid with `w` columns). A `protect` stroke adds its brush weight the
/// way `exclude` does: the protection mask that blocks scatter and foliage (the protected
/// heights themselves are written by [`apply_heights`]).
pub fn apply_exclusion(stroke: &Stroke, grid: &Grid, win: &mut Window, heights: &[f32]) {
    let b = &stroke.brush;
    for c in stroke.stamps() {
        let r = stroke.stamp_rect(grid, c).intersect(&win.rect);
        for z in r.z0..r.z1 {
            for x in r.x0..r.x1 {
                let [px, pz] = grid.sample_position(x, z);
                let fade = b.fade(px - c[0], pz - c[1]);
                if fade <= 0.0 || !slope_ok(b, grid, heights, x, z) {
                    continue;
                }
                let w = b.strength * fade;
                let i = win.at(x, z);
                let m = win.values[i];
                win.values[i] = match stroke.op {
                    Op::Exclude | Op::Protect { .. } => m + (1.0 - m) * w,
                    Op::Erase => m - m * w,
                    _ => m,
                };
            }
        }
    }
}

/// Paints a region stroke's biome id into a window of per-sample ids: a sample takes the id
/// where its brush weight reaches `max(1 − strength, 0.05)` (crisp regions, no blending).
pub fn apply_region(
    stroke: &Stroke,
    grid: &Grid,
    rect: Rect,
    ids: &mut [u16],
    id: u16,
    heights: &[f32],
) {
    let b = &stroke.brush;
    let threshold = (1.0 - b.strength).max(0.05);
    for c in stroke.stamps() {
        let r = stroke.stamp_rect(grid, c).intersect(&rect);
        for z in r.z0..r.z1 {
            for x in r.x0..r.x1 {
                let [px, pz] = grid.sample_position(x, z);
                let fade = b.fade(px - c[0], pz - c[1]);
                if fade < threshold || fade <= 0.0 || !slope_ok(b, grid, heights, x, z) {
                    continue;
                }
                ids[(z - rect.z0) * rect.width() + (x - rect.x0)] = id;
            }
        }
    }
}

/// The cells `[x0, x1) × [z0, z1)` whose centres may lie under `stroke` (every cell between
/// the samples of its footprint), clipped to the grid's cells.
pub fn hole_cells(stroke: &Stroke, grid: &Grid) -> Rect {
    cells_of(stroke.footprint(grid), grid)
}

/// The cells whose four corners are all samples of `samples`, plus the ring around them: every
/// cell a sample rectangle may decide.
pub fn cells_of(samples: Rect, grid: &Grid) -> Rect {
    if samples.is_empty() {
        return Rect::EMPTY;
    }
    let [cx, cz] = grid.cells().map(|c| c as usize);
    let r = Rect::new(
        samples.x0.saturating_sub(1),
        samples.z0.saturating_sub(1),
        samples.x1.min(cx),
        samples.z1.min(cz),
    );
    if r.is_empty() { Rect::EMPTY } else { r }
}

/// Applies a hole stroke to a window of per-cell hole flags over the cell rectangle `rect`
/// (`holes[(z − z0) · width + (x − x0)]`): a cell is cut (or, erasing, filled) where the
/// brush's weight at its centre reaches `max(1 − strength, 0.05)` — crisp like painted
/// regions. Heights and slopes are not read.
pub fn apply_holes(stroke: &Stroke, grid: &Grid, rect: Rect, holes: &mut [bool]) {
    let Op::Hole { erase } = stroke.op else {
        return;
    };
    let b = &stroke.brush;
    let threshold = (1.0 - b.strength).max(0.05);
    let [dx, dz] = grid.spacing();
    for c in stroke.stamps() {
        let r = cells_of(stroke.stamp_rect(grid, c), grid).intersect(&rect);
        for z in r.z0..r.z1 {
            for x in r.x0..r.x1 {
                let (px, pz) = ((x as f32 + 0.5) * dx, (z as f32 + 0.5) * dz);
                let fade = b.fade(px - c[0], pz - c[1]);
                if fade < threshold || fade <= 0.0 {
                    continue;
                }
                holes[(z - rect.z0) * rect.width() + (x - rect.x0)] = !erase;
            }
        }
    }
}

/// Slope limits against the full surface (central differences, one-sided at the border).
fn slope_ok(b: &Brush, grid: &Grid, heights: &[f32], x: usize, z: usize) -> bool {
    if b.slope.is_none() {
        return true;
    }
    let [w, h] = grid.samples();
    let [dx, dz] = grid.spacing();
    let all = Rect::new(0, 0, w, h);
    let snap = Snapshot {
        bounds: all,
        part: all,
        vals: heights,
        dx,
        dz,
    };
    b.slope_pass(snap.slope_degrees(x, z))
}
