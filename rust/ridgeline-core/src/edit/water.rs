//! Painted water (seed 004's water layer): a depth fraction `d` (0–1) per height sample. The
//! **bed** — what meshes, collision, `get_height` and every other height query see — is
//! `h − d · MAX_WATER_DEPTH`, where `h` is the height the other strokes make; the **water
//! surface** is `h`. Queries interpolate the depth `d · MAX_WATER_DEPTH` on the same triangle as
//! the bed, so bed + depth is the surface (see `hydrology::water::query`).
//!
//! Only `paint_water` strokes write the layer. They live in the recipe's `edits` list (sculpt
//! layers), in evaluation order with the height strokes, because their "level" mode also moves
//! `h`:
//!
//! ```json
//! { "type": "paint_water", "center": [40, 40], "radius": 8, "depth": 2, "level": 12 }
//! ```
//!
//! - `depth` (metres, 0..=[`MAX_WATER_DEPTH`], required): each sample's `d` moves toward
//!   `depth / MAX_WATER_DEPTH` by the brush weight `w = strength · fade` (lerp). `depth: 0`
//!   removes water.
//! - `level` (optional, world units): `h` moves toward `level` by the same weight, so a pond
//!   painted into a dip comes out flat and full (its surface at `level`, its bed `depth` below).
//!
//! The layer is a pure function of the `paint_water` strokes in order (it never reads heights),
//! so the edit session replays it on any rectangle from all-dry, and undo, redo and
//! regeneration are exact.

use super::rect::Rect;
use super::stroke::{Op, Stroke};
use crate::grid::Grid;

/// The stroke type.
pub const TYPE: &str = "paint_water";

/// The depth (metres) of a sample whose fraction `d` is 1: the deepest painted water. Fixed
/// in this version (TerraBrush's "max water depth"); a per-terrain setting may follow.
pub const MAX_WATER_DEPTH: f32 = 8.0;

/// A `paint_water` stroke's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterOp {
    /// Target depth in metres (0..=[`MAX_WATER_DEPTH`]; 0 removes water).
    pub depth: f64,
    /// Water level the height `h` moves toward ("level" mode), or `None`.
    pub level: Option<f64>,
}

impl WaterOp {
    /// The target depth fraction.
    pub fn fraction(&self) -> f32 {
        (self.depth as f32 / MAX_WATER_DEPTH).clamp(0.0, 1.0)
    }
}

/// The per-sample depth fractions of a grid (unallocated until water is painted: all dry).
#[derive(Clone, Debug, Default)]
pub struct WaterLayer {
    samples: usize,
    d: Vec<f32>,
}

impl PartialEq for WaterLayer {
    fn eq(&self, other: &Self) -> bool {
        let dry = |v: &[f32]| v.iter().all(|&x| x == 0.0);
        self.samples == other.samples
            && match (self.d.is_empty(), other.d.is_empty()) {
                (true, true) => true,
                (false, false) => self.d == other.d,
                (true, false) => dry(&other.d),
                (false, true) => dry(&self.d),
            }
    }
}

impl WaterLayer {
    /// An all-dry layer of `samples` samples.
    pub fn new(samples: usize) -> Self {
        Self {
            samples,
            d: Vec::new(),
        }
    }

    /// A layer holding `depths` (metres per sample, clamped to 0..=[`MAX_WATER_DEPTH`]); an
    /// empty vector is all-dry.
    pub fn from_depths(samples: usize, depths: &[f32]) -> Self {
        let d = if depths.iter().any(|&x| x > 0.0) {
            depths
                .iter()
                .map(|&x| (x / MAX_WATER_DEPTH).clamp(0.0, 1.0))
                .collect()
        } else {
            Vec::new()
        };
        Self { samples, d }
    }

    /// True when no sample holds water.
    pub fn is_dry(&self) -> bool {
        self.d.iter().all(|&x| x == 0.0)
    }

    /// The fractions (empty when never painted).
    pub fn fractions(&self) -> &[f32] {
        &self.d
    }

    /// The fraction of sample `i` (0 where never painted).
    #[inline]
    pub fn fraction(&self, i: usize) -> f32 {
        self.d.get(i).copied().unwrap_or(0.0)
    }

    /// The painted depth (metres) of sample `i`.
    #[inline]
    pub fn depth(&self, i: usize) -> f32 {
        self.fraction(i) * MAX_WATER_DEPTH
    }

    /// The depths (metres) of every sample, or an empty vector when the layer is dry.
    pub fn depths(&self) -> Vec<f32> {
        if self.is_dry() {
            return Vec::new();
        }
        self.d.iter().map(|&f| f * MAX_WATER_DEPTH).collect()
    }

    /// The depths (metres) of every sample once water was ever painted (zeros where dry), or
    /// an empty vector when the layer was never written.
    pub fn all_depths(&self) -> Vec<f32> {
        self.d.iter().map(|&f| f * MAX_WATER_DEPTH).collect()
    }

    /// Writes `values` (row-major over `rect` of a `w`-column grid) into the layer.
    pub fn write_rect(&mut self, rect: Rect, w: usize, values: &[f32]) {
        if self.d.is_empty() {
            if values.iter().all(|&x| x == 0.0) {
                return;
            }
            self.d = vec![0.0; self.samples];
        }
        let n = rect.width();
        for (row, z) in (rect.z0..rect.z1).enumerate() {
            let a = z * w + rect.x0;
            self.d[a..a + n].copy_from_slice(&values[row * n..row * n + n]);
        }
    }

    /// The fractions of `rect` (row-major).
    pub fn read_rect(&self, rect: Rect, w: usize) -> Vec<f32> {
        let mut out = Vec::with_capacity(rect.area());
        for z in rect.z0..rect.z1 {
            for x in rect.x0..rect.x1 {
                out.push(self.fraction(z * w + x));
            }
        }
        out
    }
}

/// Replays the `paint_water` and `water_patch` strokes of `strokes` (in evaluation order) on `rect` from
/// all-dry: the fractions of `rect`, row-major.
pub fn replay<'a>(strokes: impl Iterator<Item = &'a Stroke>, grid: &Grid, rect: Rect) -> Vec<f32> {
    replay_from(vec![0.0f32; rect.area()], strokes, grid, rect)
}

/// Replays like [`replay`] from `start` (the fractions of `rect`, row-major: a cooked
/// terrain's painted water) instead of all-dry.
pub fn replay_from<'a>(
    start: Vec<f32>,
    strokes: impl Iterator<Item = &'a Stroke>,
    grid: &Grid,
    rect: Rect,
) -> Vec<f32> {
    let mut out = start;
    for s in strokes {
        if let Op::WaterPatch(p) = &s.op {
            p.write_fractions(rect, &mut out);
            continue;
        }
        if let Op::PaintWater(op) = &s.op
            && s.footprint(grid).intersects(&rect)
        {
            let target = op.fraction();
            for c in s.stamps() {
                let r = s.stamp_rect(grid, c).intersect(&rect);
                for z in r.z0..r.z1 {
                    for x in r.x0..r.x1 {
                        let [px, pz] = grid.sample_position(x, z);
                        let fade = s.brush.fade(px - c[0], pz - c[1]);
                        if fade <= 0.0 {
                            continue;
                        }
                        let w = s.brush.strength * fade;
                        let slot = &mut out[(z - rect.z0) * rect.width() + (x - rect.x0)];
                        *slot = (*slot + (target - *slot) * w).clamp(0.0, 1.0);
                    }
                }
            }
        }
    }
    out
}

/// Lowers `heights` (row-major over `rect`) to the bed: `h − d · MAX_WATER_DEPTH`.
pub fn lower_to_bed(heights: &mut [f32], fractions: &[f32]) {
    for (h, &d) in heights.iter_mut().zip(fractions) {
        if d > 0.0 {
            *h -= d * MAX_WATER_DEPTH;
        }
    }
}
