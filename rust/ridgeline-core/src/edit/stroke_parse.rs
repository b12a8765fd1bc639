//! Parsing and validating strokes from their JSON shape (see [`super::stroke`]): every
//! problem is located (`recipe.edits[3].radius: must be > 0, got -1`), and a stroke that would
//! cost more than [`MAX_SAMPLE_UPDATES`] sample updates on its grid is refused.

use super::brush::{Brush, MaskImage, Shape};
use super::stroke::{
    List, MAX_AMOUNT, MAX_POINTS, MAX_POSITION, MAX_RADIUS, MAX_SAMPLE_UPDATES, MAX_TARGET_HEIGHT,
    MIN_RADIUS, Op, ParseContext, STROKE_TYPES, Stroke, layer_kinds,
};
use crate::doc::reader::{
    ObjectReader, non_negative, positive, read_numbers, read_points, show, type_name, within,
};
use crate::error::Diagnostics;
use serde_json::Value;
use std::sync::Arc;

impl Stroke {
    /// Parses and validates one stroke at `path` in `list`; problems go to `d`.
    pub fn parse(
        v: &Value,
        path: &str,
        list: List,
        ctx: &ParseContext,
        d: &mut Diagnostics,
    ) -> Option<Stroke> {
        let before = d.0.len();
        if list == List::Edits
            && v.get("type").and_then(Value::as_str) == Some(super::height_patch::TYPE)
        {
            return super::height_patch::parse(v, path, ctx, d);
        }
        if list == List::Regions
            && v.get("type").and_then(Value::as_str) == Some(super::paint_patch::TYPE)
        {
            return super::paint_patch::parse(v, path, ctx, d);
        }
        if let Some(ty @ (super::byte_patch::WATER_TYPE | super::byte_patch::FOLIAGE_TYPE)) =
            v.get("type").and_then(Value::as_str)
            && List::of_type(ty) == Some(list)
        {
            return super::byte_patch::parse(v, path, ty, ctx, d);
        }
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
            super::foliage_density::TYPE => {
                if slope.is_some() {
                    d.push(
                        r.at("slope_min"),
                        "slope limits do not apply to foliage_density strokes (a foliage type has its own slope_max)",
                    );
                }
                let foliage = match r.opt_str(d, "foliage") {
                    Some(f) if !f.is_empty() => f,
                    _ => {
                        d.push(
                            r.at("foliage"),
                            "is required: the palette's foliage type this stroke paints",
                        );
                        String::new()
                    }
                };
                if !r.has("density") {
                    d.push(
                        r.at("density"),
                        "is required: the density multiplier 0..=1 to paint (0 removes the foliage)",
                    );
                }
                let density = r.f64(d, "density", 1.0, within(0.0, 1.0));
                Op::FoliageDensity { foliage, density }
            }
            super::water::TYPE => {
                if slope.is_some() {
                    d.push(
                        r.at("slope_min"),
                        "slope limits do not apply to paint_water strokes",
                    );
                }
                if !r.has("depth") {
                    d.push(
                        r.at("depth"),
                        format!(
                            "is required: the water depth in metres, 0..={} (0 removes water)",
                            super::water::MAX_WATER_DEPTH
                        ),
                    );
                }
                let depth = r.f64(
                    d,
                    "depth",
                    0.0,
                    within(0.0, super::water::MAX_WATER_DEPTH as f64),
                );
                let level = r.has("level").then(|| r.f64(d, "level", 0.0, target_range));
                Op::PaintWater(super::water::WaterOp { depth, level })
            }
            "user_channel" | "paint_surface" => {
                if slope.is_some() {
                    d.push(
                        r.at("slope_min"),
                        format!("slope limits do not apply to {type_id} strokes"),
                    );
                }
                super::paint_patch::parse_brush_op(&type_id, &mut r, d)
            }
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
