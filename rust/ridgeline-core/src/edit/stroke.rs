//! Strokes as data: one operation, shared brush settings, and ordered stamp positions.
//!
//! JSON shape (the recipe's `edits`, `exclusions` and `regions` lists):
//! ```json
//! { "type": "flatten", "target_height": 12, "radius": 8, "points": [[24, 32], [25.6, 32]] }
//! ```
//! A single stamp may use `"center": [x, z]` instead of `points`. A ramp has `from` and `to`
//! (`[x, z, height]`) and no points. Positions are terrain-local world units.

use super::brush::{Brush, MaskImage, Shape};
use super::layer::Layer;
use super::rect::Rect;
use crate::doc::reader::{
    ObjectReader, non_negative, positive, read_numbers, read_points, show, type_name, within,
};
use crate::doc::write::json_number;
use crate::error::Diagnostics;
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
}

impl List {
    /// The recipe key.
    pub fn key(self) -> &'static str {
        match self {
            List::Edits => "edits",
            List::Exclusions => "exclusions",
            List::Regions => "regions",
        }
    }

    /// The list a stroke type belongs to.
    pub fn of_type(op: &str) -> Option<List> {
        match op {
            "raise" | "lower" | "flatten" | "smooth" | "set_height" | "ramp" | "protect"
            | "hole" => Some(List::Edits),
            "exclude" | "erase" => Some(List::Exclusions),
            "region" => Some(List::Regions),
            _ => None,
        }
    }
}

/// Every stroke type, for messages.
pub const STROKE_TYPES: [&str; 11] = [
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
        (_, Op::Protect { .. }) => &["protection"],
        _ => &["sculpt"],
    }
}

impl Stroke {
    /// The list this stroke belongs to.
    pub fn list(&self) -> List {
        List::of_type(self.op.type_id()).unwrap_or(List::Edits)
    }

    /// Parses and validates one stroke at `path` in `list`; problems go to `d`.
    pub fn parse(
        v: &Value,
        path: &str,
        list: List,
        ctx: &ParseContext,
        d: &mut Diagnostics,
    ) -> Option<Stroke> {
        let before = d.0.len();
        if !v.is_object() {
            d.push(
                path,
                format!("must be a stroke object, got {}", type_name(v)),
            );
            return None;
        }
        let mut r = ObjectReader::new(path, v, d);
        let type_id = r.opt_str(d, "type").unwrap_or_default();
        if List::of_type(&type_id) != Some(list) {
            let allowed: Vec<&str> = STROKE_TYPES
                .iter()
                .copied()
                .filter(|t| List::of_type(t) == Some(list))
                .collect();
            d.push(
                r.at("type"),
                format!(
                    "must be one of {} in `{}`, got \"{type_id}\"",
                    allowed.join(", "),
                    list.key()
                ),
            );
        }
        let layer = r.opt_str(d, "layer");
        let is_ramp = type_id == "ramp";
        let mut points = Vec::new();
        let mut center_form = false;
        let (has_points, has_center) = (r.has("points"), r.has("center"));
        if is_ramp {
            if has_points || has_center {
                d.push(path, "a ramp has `from` and `to`, not `points` or `center`");
            }
        } else if has_points == has_center {
            d.push(
                path,
                "needs exactly one of `points` (a list of [x, z]) or `center` ([x, z])",
            );
        }
        if let Some(pv) = r.raw("points")
            && let Some(p) = read_points(&r.at("points"), pv, 1, d)
        {
            if let Some(i) = p.iter().position(|c| !in_position_range(c)) {
                d.push(
                    crate::doc::reader::index(&r.at("points"), i),
                    format!("coordinates must be within ±{MAX_POSITION} world units"),
                );
            } else if p.len() > MAX_POINTS {
                d.push(
                    r.at("points"),
                    format!("at most {MAX_POINTS} stamps per stroke, got {}", p.len()),
                );
            } else {
                points = p;
            }
        }
        if let Some(cv) = r.raw("center")
            && let Some(c) = read_numbers::<2>(&r.at("center"), cv, d)
        {
            if in_position_range(&c) {
                points = vec![c];
                center_form = true;
            } else {
                d.push(
                    r.at("center"),
                    format!("coordinates must be within ±{MAX_POSITION} world units"),
                );
            }
        }
        let radius = r.f64(d, "radius", f64::NAN, |x| {
            positive(x)
                .or_else(|| (x < MIN_RADIUS).then(|| format!("must be ≥ {MIN_RADIUS}, got {x}")))
                .or_else(|| (x > MAX_RADIUS).then(|| format!("must be ≤ {MAX_RADIUS}, got {x}")))
        });
        if radius.is_nan() && !r.has("radius") {
            d.push(
                r.at("radius"),
                "is required: the brush radius in world units (> 0)",
            );
        }
        let strength = r.f64(d, "strength", 1.0, within(0.0, 1.0));
        let falloff = r.f64(d, "falloff", 0.5, within(0.0, 1.0));
        let slope_min = r
            .has("slope_min")
            .then(|| r.f64(d, "slope_min", 0.0, within(0.0, 90.0)));
        let slope_max = r
            .has("slope_max")
            .then(|| r.f64(d, "slope_max", 90.0, within(0.0, 90.0)));
        let slope = match (slope_min, slope_max) {
            (None, None) => None,
            (lo, hi) => {
                let (lo, hi) = (lo.unwrap_or(0.0), hi.unwrap_or(90.0));
                if lo > hi {
                    d.push(
                        r.at("slope_min"),
                        format!("slope_min {lo} is above slope_max {hi}"),
                    );
                }
                Some([lo as f32, hi as f32])
            }
        };
        let shape = match r.opt_str(d, "mask").as_deref() {
            None | Some("circle") => Shape::Circle,
            Some("square") => Shape::Square,
            Some(reference) => match ctx.masks {
                Some(load) => match load(reference) {
                    Ok(img) if img.width > 0 && img.depth > 0 => {
                        Shape::Image(reference.to_string(), img)
                    }
                    Ok(_) => {
                        d.push(r.at("mask"), format!("mask `{reference}` is empty"));
                        Shape::Circle
                    }
                    Err(e) => {
                        d.push(r.at("mask"), format!("cannot load mask `{reference}`: {e}"));
                        Shape::Circle
                    }
                },
                None => Shape::Image(
                    reference.to_string(),
                    Arc::new(MaskImage {
                        width: 1,
                        depth: 1,
                        values: vec![1.0],
                    }),
                ),
            },
        };
        let op = match type_id.as_str() {
            "raise" => Op::Raise(r.f64(d, "amount", 1.0, amount_range)),
            "lower" => Op::Lower(r.f64(d, "amount", 1.0, amount_range)),
            "flatten" | "set_height" => {
                if !r.has("target_height") {
                    d.push(r.at("target_height"), format!("is required for {type_id}"));
                }
                let t = r.f64(d, "target_height", 0.0, target_range);
                if type_id == "flatten" {
                    Op::Flatten(t)
                } else {
                    Op::SetHeight(t)
                }
            }
            "smooth" => Op::Smooth,
            "ramp" => {
                let mut ends = [[0.0; 3]; 2];
                for (k, key) in ["from", "to"].into_iter().enumerate() {
                    match r.raw(key) {
                        Some(pv) => {
                            if let Some(p) = read_numbers::<3>(&r.at(key), pv, d) {
                                if !in_position_range(&[p[0], p[1]]) {
                                    d.push(
                                        r.at(key),
                                        format!(
                                            "x and z must be within ±{MAX_POSITION} world units"
                                        ),
                                    );
                                } else if let Some(msg) = target_range(p[2]) {
                                    d.push(crate::doc::reader::index(&r.at(key), 2), msg);
                                } else {
                                    ends[k] = p;
                                }
                            }
                        }
                        None => d.push(r.at(key), "is required for a ramp: [x, z, height]"),
                    }
                }
                Op::Ramp {
                    from: ends[0],
                    to: ends[1],
                }
            }
            "protect" => {
                let grid = r.numbers::<2>(d, "grid", [f64::NAN; 2]);
                if grid[0].is_nan() && !r.has("grid") {
                    d.push(
                        r.at("grid"),
                        "is required: the grid cells [x, z] the snapshot was taken on",
                    );
                }
                let max_cells = crate::grid::MAX_CELLS_PER_AXIS as f64;
                if !grid[0].is_nan()
                    && grid
                        .iter()
                        .any(|&c| c.fract() != 0.0 || !(1.0..=max_cells).contains(&c))
                {
                    d.push(
                        r.at("grid"),
                        format!(
                            "must be two whole cell counts 1..={max_cells}, got [{}, {}]",
                            grid[0], grid[1]
                        ),
                    );
                }
                let cells = [grid[0].max(0.0) as u32, grid[1].max(0.0) as u32];
                let mut heights = Vec::new();
                match r.raw("heights") {
                    Some(Value::Array(items)) => {
                        for (i, h) in items.iter().enumerate() {
                            let max = crate::heightfield::MAX_HEIGHT as f64;
                            match h.as_f64().filter(|x| x.abs() <= max) {
                                Some(x) => heights.push(x as f32),
                                None => {
                                    d.push(
                                        crate::doc::reader::index(&r.at("heights"), i),
                                        format!("must be a number within ±{max}, got {}", show(h)),
                                    );
                                    break;
                                }
                            }
                        }
                    }
                    Some(other) => d.push(
                        r.at("heights"),
                        format!("must be an array of heights, got {}", type_name(other)),
                    ),
                    None => d.push(
                        r.at("heights"),
                        "is required: the protected height snapshot",
                    ),
                }
                Op::Protect {
                    grid: cells,
                    heights,
                }
            }
            "hole" => {
                if slope.is_some() {
                    d.push(
                        r.at("slope_min"),
                        "slope limits do not apply to hole strokes (holes are cut per cell)",
                    );
                }
                match r.opt_str(d, "mode").as_deref() {
                    None | Some("paint") => Op::Hole { erase: false },
                    Some("erase") => Op::Hole { erase: true },
                    Some(other) => {
                        d.push(
                            r.at("mode"),
                            format!("must be \"paint\" or \"erase\", got \"{other}\""),
                        );
                        Op::Hole { erase: false }
                    }
                }
            }
            "exclude" => Op::Exclude,
            "erase" => Op::Erase,
            "region" => match r.opt_str(d, "biome") {
                Some(b) => {
                    if !(ctx.has_biome)(&b) {
                        d.push(
                            r.at("biome"),
                            format!("names biome `{b}`, which `biomes` does not define"),
                        );
                    }
                    Op::Region(b)
                }
                None => {
                    d.push(r.at("biome"), "is required: the biome this region paints");
                    Op::Region(String::new())
                }
            },
            _ => Op::Smooth,
        };
        if let Some(l) = &layer {
            let kinds = layer_kinds(list, &op);
            if !ctx
                .layers
                .iter()
                .any(|x| &x.id == l && kinds.contains(&x.kind.as_str()))
            {
                d.push(
                    r.at("layer"),
                    format!("names `{l}`, which is not a {} layer", kinds.join("/")),
                );
            }
        }
        r.finish(d);
        let stroke = Stroke {
            op,
            layer,
            brush: Brush {
                radius: radius as f32,
                strength: strength as f32,
                falloff: falloff as f32,
                slope,
                shape,
            },
            points,
            center_form,
        };
        if d.0.len() == before
            && let Some(grid) = ctx.grid
        {
            let work: u64 = if matches!(stroke.op, Op::Ramp { .. }) {
                3 * stroke.ramp_rect(&grid).area() as u64
            } else {
                stroke
                    .stamps()
                    .map(|c| stroke.stamp_rect(&grid, c).area() as u64)
                    .sum()
            };
            if work > MAX_SAMPLE_UPDATES {
                d.push(
                    path,
                    format!(
                        "the stroke would update {work} samples (limit {MAX_SAMPLE_UPDATES}); use fewer points or a smaller radius, or split it"
                    ),
                );
            }
        }
        if d.0.len() == before
            && let (
                Some(grid),
                Op::Protect {
                    grid: cells,
                    heights,
                },
            ) = (ctx.grid, &stroke.op)
        {
            if *cells != grid.cells() {
                d.push(
                    format!("{path}.grid"),
                    format!(
                        "protection snapshot was taken on a {}×{} grid, this terrain has {}×{} cells; keep that grid or clear the edits explicitly",
                        cells[0], cells[1], grid.cells()[0], grid.cells()[1]
                    ),
                );
            } else {
                let need = stroke.covered_samples(&grid);
                if need != heights.len() {
                    d.push(
                        format!("{path}.heights"),
                        format!(
                            "the snapshot has {} heights, the stroke covers {need} samples",
                            heights.len()
                        ),
                    );
                }
            }
        }
        (d.0.len() == before).then_some(stroke)
    }

    /// Canonical JSON (defaults omitted; keys sorted on output).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::from(self.op.type_id()));
        if let Some(l) = &self.layer {
            m.insert("layer".into(), Value::from(l.clone()));
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
            Op::Smooth | Op::Exclude | Op::Erase => {}
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
        if matches!(self.op, Op::Ramp { .. }) {
            return self.ramp_rect(grid);
        }
        self.stamps()
            .fold(Rect::EMPTY, |acc, c| acc.union(&self.stamp_rect(grid, c)))
    }

    /// True for a `hole` stroke (it writes the hole mask, not heights).
    pub fn is_hole(&self) -> bool {
        matches!(self.op, Op::Hole { .. })
    }

    /// Rings of neighbouring samples one stamp reads around each sample it writes.
    pub fn reads(&self) -> usize {
        match self.op {
            Op::Hole { .. } => 0,
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
        !matches!(self.op, Op::Protect { .. } | Op::Ramp { .. })
            && self.op == other.op
            && self.layer == other.layer
            && self.brush == other.brush
    }
}

fn in_position_range(c: &[f64; 2]) -> bool {
    c.iter().all(|v| v.abs() <= MAX_POSITION)
}

fn amount_range(x: f64) -> Option<String> {
    non_negative(x).or_else(|| {
        (x > MAX_AMOUNT).then(|| format!("must be 0..={MAX_AMOUNT} world units, got {x}"))
    })
}

fn target_range(x: f64) -> Option<String> {
    (x.abs() > MAX_TARGET_HEIGHT)
        .then(|| format!("must be within ±{MAX_TARGET_HEIGHT} world units, got {x}"))
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
