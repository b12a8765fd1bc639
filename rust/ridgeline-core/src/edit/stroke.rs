//! Strokes as data: one operation, shared brush settings, and ordered stamp positions.
//!
//! JSON shape (the recipe's `edits`, `exclusions` and `regions` lists):
//! ```json
//! { "type": "flatten", "target_height": 12, "radius": 8, "points": [[24, 32], [25.6, 32]] }
//! ```
//! A single stamp may use `"center": [x, z]` instead of `points`. A ramp has `from` and `to`
//! (`[x, z, height]`) and no points. Positions are terrain-local world units. A height patch
//! (`height_patch`, see [`super::height_patch`]) has neither brush nor stamps.

use super::brush::{Brush, MaskImage, Shape};
use super::byte_patch::BytePatch;
use super::height_patch::HeightPatch;
use super::layer::Layer;
use super::paint::{PaintPatch, PaintSurfaceOp, UserChannelOp};
use super::rect::Rect;
use super::water::WaterOp;
use crate::doc::write::json_number;
use crate::grid::Grid;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Which recipe list a stroke lives in (and which field it writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum List {
    /// Height edits (`edits`): sculpt and protection layers.
    Edits,
    /// The exclusion mask (`exclusions`).
    Exclusions,
    /// Painted biome regions (`regions`).
    Regions,
    /// Painted foliage density (`foliage_paint`, see [`super::foliage_density`]).
    Foliage,
}

impl List {
    /// The recipe key.
    pub fn key(self) -> &'static str {
        match self {
            List::Edits => "edits",
            List::Exclusions => "exclusions",
            List::Regions => "regions",
            List::Foliage => "foliage_paint",
        }
    }

    /// The list a stroke type belongs to.
    pub fn of_type(op: &str) -> Option<List> {
        match op {
            "raise"
            | "lower"
            | "flatten"
            | "smooth"
            | "set_height"
            | "ramp"
            | "protect"
            | "hole"
            | "height_patch"
            | super::byte_patch::WATER_TYPE
            | super::water::TYPE => Some(List::Edits),
            "exclude" | "erase" => Some(List::Exclusions),
            "region" => Some(List::Regions),
            super::foliage_density::TYPE | super::byte_patch::FOLIAGE_TYPE => Some(List::Foliage),
            // Painted layers (`super::paint`) live beside the painted regions.
            "user_channel" | "paint_surface" | "paint_patch" => Some(List::Regions),
            _ => None,
        }
    }
}

/// Every stroke type, for messages.
pub const STROKE_TYPES: [&str; 19] = [
    "raise",
    "lower",
    "flatten",
    "smooth",
    "set_height",
    "ramp",
    "protect",
    "hole",
    "exclude",
    "erase",
    "region",
    "height_patch",
    "foliage_density",
    "user_channel",
    "paint_surface",
    "paint_patch",
    "paint_water",
    "water_patch",
    "foliage_patch",
];

/// The operation of a stroke.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Adds `amount · weight`.
    Raise(f64),
    /// Subtracts `amount · weight`.
    Lower(f64),
    /// Moves toward the captured target height.
    Flatten(f64),
    /// Moves toward the 5-point mean of the surface before each stamp.
    Smooth,
    /// Moves toward a target height.
    SetHeight(f64),
    /// A band one brush wide from `from` to `to` (`[x, z, height]`), heights interpolated
    /// along it, then two edge-smoothing passes.
    Ramp {
        /// Start `[x, z, height]`.
        from: [f64; 3],
        /// End `[x, z, height]`.
        to: [f64; 3],
    },
    /// Absolute heights recorded on grid `grid` (cells), one per covered sample in stamp order.
    Protect {
        /// Cells of the grid the snapshot was taken on.
        grid: [u32; 2],
        /// The snapshot.
        heights: Vec<f32>,
    },
    /// Cuts holes (`erase`: false) or fills them again (`erase`: true): every cell whose
    /// centre the brush covers with weight ≥ `max(1 − strength, 0.05)` (see
    /// [`crate::edit::apply::apply_holes`]).
    Hole {
        /// Fills holes instead of cutting them (`"mode": "erase"`).
        erase: bool,
    },
    /// Adds exclusion weight (toward 1).
    Exclude,
    /// Clears exclusion weight (toward 0).
    Erase,
    /// Paints a biome.
    Region(String),
    /// Absolute heights over a sample rectangle (see [`super::height_patch`]).
    HeightPatch(HeightPatch),
    /// Moves foliage type `foliage`'s painted density multiplier toward `density` (0–1) by
    /// the brush weight (see [`super::foliage_density`]).
    FoliageDensity {
        /// The palette's foliage type id.
        foliage: String,
        /// Target multiplier 0..=1 (0 removes the foliage).
        density: f64,
    },
    /// Writes a user channel (see [`super::paint`]).
    UserChannel(UserChannelOp),
    /// Paints a surface role (see [`super::paint`]).
    PaintSurface(PaintSurfaceOp),
    /// Absolute painted-layer bytes over a sample rectangle (see [`super::paint`]).
    PaintPatch(PaintPatch),
    /// Paints water: the depth fraction moves toward a target, the height toward a level
    /// (see [`super::water`]).
    PaintWater(WaterOp),
    /// Absolute painted water depth fractions over a sample rectangle (see
    /// [`super::byte_patch`]).
    WaterPatch(BytePatch),
    /// Absolute painted foliage density over a sample rectangle (see [`super::byte_patch`]).
    FoliagePatch {
        /// The palette's foliage type id.
        foliage: String,
        /// The density bytes (`byte / 255` is the multiplier).
        patch: BytePatch,
    },
}

impl Op {
    /// The `type` string.
    pub fn type_id(&self) -> &'static str {
        match self {
            Op::Raise(_) => "raise",
            Op::Lower(_) => "lower",
            Op::Flatten(_) => "flatten",
            Op::Smooth => "smooth",
            Op::SetHeight(_) => "set_height",
            Op::Ramp { .. } => "ramp",
            Op::Protect { .. } => "protect",
            Op::Hole { .. } => "hole",
            Op::Exclude => "exclude",
            Op::Erase => "erase",
            Op::Region(_) => "region",
            Op::HeightPatch(_) => super::height_patch::TYPE,
            Op::FoliageDensity { .. } => super::foliage_density::TYPE,
            Op::UserChannel(_) => "user_channel",
            Op::PaintSurface(_) => "paint_surface",
            Op::PaintPatch(_) => "paint_patch",
            Op::PaintWater(_) => super::water::TYPE,
            Op::WaterPatch(_) => super::byte_patch::WATER_TYPE,
            Op::FoliagePatch { .. } => super::byte_patch::FOLIAGE_TYPE,
        }
    }
}

/// One stroke.
#[derive(Clone, Debug, PartialEq)]
pub struct Stroke {
    /// The operation.
    pub op: Op,
    /// Target layer id (`None`: the first layer of the right kind).
    pub layer: Option<String>,
    /// Brush settings.
    pub brush: Brush,
    /// Stamp centres in order (empty for a ramp).
    pub points: Vec<[f64; 2]>,
    /// Written as `center` (a single stamp) rather than `points`.
    pub center_form: bool,
}

/// Loads a mask image by reference.
pub type MaskFn = dyn Fn(&str) -> Result<Arc<MaskImage>, String>;

/// What parsing may check beyond the shape of a stroke.
pub struct ParseContext<'a> {
    /// The recipe's layers.
    pub layers: &'a [Layer],
    /// Whether a biome name exists.
    pub has_biome: &'a dyn Fn(&str) -> bool,
    /// The grid, when known: protection snapshots are checked against it.
    pub grid: Option<Grid>,
    /// Loads a mask image reference; `None` leaves references unchecked (a placeholder mask).
    pub masks: Option<&'a MaskFn>,
}

/// Largest brush radius (world units).
pub const MAX_RADIUS: f64 = 100_000.0;
/// Smallest brush radius (world units): smaller radii would round to zero once stored.
pub const MIN_RADIUS: f64 = 0.001;
/// Largest `amount` of a raise or lower stroke (world units per stamp at full weight).
pub const MAX_AMOUNT: f64 = 100_000.0;
/// Largest absolute target height of `flatten`, `set_height` and ramp ends (world units).
pub const MAX_TARGET_HEIGHT: f64 = 1.0e6;
/// Largest absolute stamp coordinate (`points`, `center`, ramp ends), in world units.
pub const MAX_POSITION: f64 = 1.0e7;
/// Largest number of stamps in one stroke.
pub const MAX_POINTS: usize = 1_000_000;
/// Largest number of sample updates one stroke may cost on its grid (stamps × footprint), so a
/// malformed stroke cannot freeze the editor or the game.
pub const MAX_SAMPLE_UPDATES: u64 = 400_000_000;

/// Layer kinds a stroke of `list`/`op` may target.
pub fn layer_kinds(list: List, op: &Op) -> &'static [&'static str] {
    match (list, op) {
        (List::Regions, _) => &["biomes"],
        (List::Exclusions, _) => &["exclusions"],
        (List::Foliage, _) => &["foliage"],
        (_, Op::Protect { .. }) => &["protection"],
        _ => &["sculpt"],
    }
}

impl Stroke {
    /// The list this stroke belongs to.
    pub fn list(&self) -> List {
        List::of_type(self.op.type_id()).unwrap_or(List::Edits)
    }

    /// Canonical JSON (defaults omitted; keys sorted on output).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::from(self.op.type_id()));
        if let Some(l) = &self.layer {
            m.insert("layer".into(), Value::from(l.clone()));
        }
        if let Op::HeightPatch(p) = &self.op {
            // A patch has no brush or stamps.
            p.write_fields(&mut m);
            return Value::Object(m);
        }
        if let Op::PaintPatch(p) = &self.op {
            super::paint_patch::write_fields(p, &mut m);
            return Value::Object(m);
        }
        if matches!(self.op, Op::WaterPatch(_) | Op::FoliagePatch { .. }) {
            super::byte_patch::write_op_fields(&self.op, &mut m);
            return Value::Object(m);
        }
        let num = |x: f64| json_number(x);
        let b = &self.brush;
        // Brush numbers are stored as written (f64 in JSON); the f32 copies only drive
        // evaluation, so print from the exact f32 value's shortest form.
        let f32n = |x: f32| json_number(shortest(x));
        m.insert("radius".into(), f32n(b.radius));
        if b.strength != 1.0 {
            m.insert("strength".into(), f32n(b.strength));
        }
        if b.falloff != 0.5 {
            m.insert("falloff".into(), f32n(b.falloff));
        }
        if let Some([lo, hi]) = b.slope {
            m.insert("slope_min".into(), f32n(lo));
            m.insert("slope_max".into(), f32n(hi));
        }
        match &b.shape {
            Shape::Circle => {}
            Shape::Square => {
                m.insert("mask".into(), Value::from("square"));
            }
            Shape::Image(name, _) => {
                m.insert("mask".into(), Value::from(name.clone()));
            }
        }
        let pts = |p: &[f64; 2]| Value::Array(vec![num(p[0]), num(p[1])]);
        if !matches!(self.op, Op::Ramp { .. }) {
            if self.center_form && self.points.len() == 1 {
                m.insert("center".into(), pts(&self.points[0]));
            } else {
                m.insert(
                    "points".into(),
                    Value::Array(self.points.iter().map(pts).collect()),
                );
            }
        }
        match &self.op {
            Op::Raise(a) | Op::Lower(a) => {
                if *a != 1.0 {
                    m.insert("amount".into(), num(*a));
                }
            }
            Op::Flatten(t) | Op::SetHeight(t) => {
                m.insert("target_height".into(), num(*t));
            }
            Op::Ramp { from, to } => {
                m.insert(
                    "from".into(),
                    Value::Array(from.iter().map(|&x| num(x)).collect()),
                );
                m.insert(
                    "to".into(),
                    Value::Array(to.iter().map(|&x| num(x)).collect()),
                );
            }
            Op::Protect { grid, heights } => {
                m.insert(
                    "grid".into(),
                    Value::Array(vec![Value::from(grid[0]), Value::from(grid[1])]),
                );
                m.insert(
                    "heights".into(),
                    Value::Array(heights.iter().map(|&h| f32n(h)).collect()),
                );
            }
            Op::Region(b) => {
                m.insert("biome".into(), Value::from(b.clone()));
            }
            Op::Hole { erase } => {
                if *erase {
                    m.insert("mode".into(), Value::from("erase"));
                }
            }
            Op::FoliageDensity { foliage, density } => {
                m.insert("foliage".into(), Value::from(foliage.clone()));
                m.insert("density".into(), num(*density));
            }
            Op::UserChannel(u) => {
                m.insert("channel".into(), Value::from(u.channel));
                m.insert("value".into(), f32n(u.value));
                if u.id {
                    m.insert("mode".into(), Value::from("id"));
                }
            }
            Op::PaintSurface(p) => {
                let name =
                    crate::biome::roles::Role::from_id(p.surface).map_or("ground", |r| r.name());
                m.insert("surface".into(), Value::from(name));
                if p.blend {
                    m.insert("mode".into(), Value::from("blend"));
                }
            }
            Op::PaintWater(w) => {
                m.insert("depth".into(), num(w.depth));
                if let Some(l) = w.level {
                    m.insert("level".into(), num(l));
                }
            }
            Op::Smooth
            | Op::Exclude
            | Op::Erase
            | Op::HeightPatch(_)
            | Op::PaintPatch(_)
            | Op::WaterPatch(_)
            | Op::FoliagePatch { .. } => {}
        }
        Value::Object(m)
    }

    /// The stamp centres as f32 world positions.
    pub fn stamps(&self) -> impl Iterator<Item = [f32; 2]> + '_ {
        self.points.iter().map(|p| [p[0] as f32, p[1] as f32])
    }

    /// Samples (conservatively) under one stamp centred at `c`, clipped to the grid.
    pub fn stamp_rect(&self, grid: &Grid, c: [f32; 2]) -> Rect {
        rect_around(
            grid,
            c[0] - self.brush.radius,
            c[1] - self.brush.radius,
            c[0] + self.brush.radius,
            c[1] + self.brush.radius,
        )
    }

    /// Samples under the ramp band, clipped to the grid (ramps only).
    pub fn ramp_rect(&self, grid: &Grid) -> Rect {
        match &self.op {
            Op::Ramp { from, to } => {
                let r = self.brush.radius;
                rect_around(
                    grid,
                    from[0].min(to[0]) as f32 - r,
                    from[1].min(to[1]) as f32 - r,
                    from[0].max(to[0]) as f32 + r,
                    from[1].max(to[1]) as f32 + r,
                )
            }
            _ => Rect::EMPTY,
        }
    }

    /// Every sample the stroke may write (bounding rectangle), clipped to the grid.
    pub fn footprint(&self, grid: &Grid) -> Rect {
        match &self.op {
            Op::Ramp { .. } => return self.ramp_rect(grid),
            Op::HeightPatch(p) => {
                let [w, h] = grid.samples();
                return p.rect.intersect(&Rect::new(0, 0, w, h));
            }
            Op::PaintPatch(p) => {
                let [w, h] = grid.samples();
                return p.rect.intersect(&Rect::new(0, 0, w, h));
            }
            Op::WaterPatch(p) | Op::FoliagePatch { patch: p, .. } => {
                let [w, h] = grid.samples();
                return p.rect.intersect(&Rect::new(0, 0, w, h));
            }
            _ => {}
        }
        self.stamps()
            .fold(Rect::EMPTY, |acc, c| acc.union(&self.stamp_rect(grid, c)))
    }

    /// True for a stroke that writes the painted layers (user channels, surface paint) and
    /// nothing else (see [`super::paint`]).
    pub fn is_paint(&self) -> bool {
        matches!(
            self.op,
            Op::UserChannel(_) | Op::PaintSurface(_) | Op::PaintPatch(_)
        )
    }

    /// True for a `hole` stroke (it writes the hole mask, not heights).
    pub fn is_hole(&self) -> bool {
        matches!(self.op, Op::Hole { .. })
    }

    /// Rings of neighbouring samples one stamp reads around each sample it writes.
    pub fn reads(&self) -> usize {
        match self.op {
            Op::Hole { .. }
            | Op::HeightPatch(_)
            | Op::UserChannel(_)
            | Op::PaintSurface(_)
            | Op::PaintPatch(_)
            | Op::WaterPatch(_)
            | Op::FoliagePatch { .. } => 0,
            Op::Smooth => 1,
            Op::Ramp { .. } => 2 + self.brush.slope_reads(),
            _ => self.brush.slope_reads(),
        }
    }

    /// Samples covered by the geometric brush (fade > 0) over all stamps, in stamp order —
    /// the length a protection snapshot must have on `grid`.
    pub fn covered_samples(&self, grid: &Grid) -> usize {
        let mut n = 0;
        self.for_each_covered(grid, |_, _| n += 1);
        n
    }

    /// Calls `f(x, z)` for every sample the geometric brush covers (fade > 0), stamp by stamp,
    /// row by row: the order protection snapshots are stored in.
    pub fn for_each_covered(&self, grid: &Grid, mut f: impl FnMut(usize, usize)) {
        for c in self.stamps() {
            let r = self.stamp_rect(grid, c);
            for z in r.z0..r.z1 {
                for x in r.x0..r.x1 {
                    let [px, pz] = grid.sample_position(x, z);
                    if self.brush.fade(px - c[0], pz - c[1]) > 0.0 {
                        f(x, z);
                    }
                }
            }
        }
    }

    /// True when `other` can share this entry: same operation, settings and layer, both in
    /// points form (compaction merges such neighbours). Protection snapshots never merge.
    pub fn mergeable(&self, other: &Stroke) -> bool {
        !matches!(
            self.op,
            Op::Protect { .. }
                | Op::Ramp { .. }
                | Op::HeightPatch(_)
                | Op::PaintPatch(_)
                | Op::WaterPatch(_)
                | Op::FoliagePatch { .. }
        ) && self.op == other.op
            && self.layer == other.layer
            && self.brush == other.brush
    }
}

/// The shortest decimal that reads back as `x` (f32), as an f64.
pub fn shortest(x: f32) -> f64 {
    format!("{x}").parse::<f64>().unwrap_or(x as f64)
}

/// Samples whose positions may lie in `[x0, x1] × [z0, z1]` (world), clipped to the grid.
fn rect_around(grid: &Grid, x0: f32, z0: f32, x1: f32, z1: f32) -> Rect {
    let [w, h] = grid.samples();
    let [ix, iz] = grid.inv_spacing();
    let lo = |v: f32, inv: f32| -> usize { ((v * inv).floor() as i64).max(0) as usize };
    let hi = |v: f32, inv: f32, n: usize| -> usize {
        (((v * inv).ceil() as i64) + 1).clamp(0, n as i64) as usize
    };
    let r = Rect::new(
        lo(x0, ix).min(w),
        lo(z0, iz).min(h),
        hi(x1, ix, w),
        hi(z1, iz, h),
    );
    if r.is_empty() { Rect::EMPTY } else { r }
}
