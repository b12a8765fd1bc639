//! Height patches: a rectangle of absolute sample heights, written as one replayable stroke in
//! `edits` (what `Terrain3D.set_height_rect` records), so a game's or tool's direct height
//! writes undo exactly, survive regeneration and replay identically.
//!
//! JSON shape:
//! ```json
//! { "type": "height_patch", "grid": [64, 48], "origin": [10, 4], "size": [2, 2],
//!   "heights": [1.5, 1.5, 2, 2.25] }
//! ```
//! `origin` (first sample column and row) and `size` (columns, rows) are sample indices of the
//! grid the patch was taken on (`grid`, in cells, checked like a protection snapshot's);
//! `heights` are row-major over the rectangle. The patch reads nothing: each replay writes
//! the same values, whatever lies under it.

use super::apply::Window;
use super::brush::{Brush, Shape};
use super::rect::Rect;
use super::stroke::{MAX_SAMPLE_UPDATES, Op, ParseContext, Stroke};
use crate::doc::reader::{ObjectReader, index, show, type_name, whole_u64};
use crate::doc::write::json_number;
use crate::error::Diagnostics;
use crate::grid::MAX_CELLS_PER_AXIS;
use crate::heightfield::MAX_HEIGHT;
use serde_json::{Map, Value};

/// The stroke type.
pub const TYPE: &str = "height_patch";

/// A rectangle of absolute heights on a grid of `grid` cells.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightPatch {
    /// Cells `[x, z]` of the grid the rectangle's indices refer to.
    pub grid: [u32; 2],
    /// The sample rectangle (half-open).
    pub rect: Rect,
    /// Heights, row-major over `rect`.
    pub heights: Vec<f32>,
}

impl HeightPatch {
    /// Writes the patch's heights into the part of `win` it covers.
    pub fn apply(&self, win: &mut Window) {
        let r = self.rect.intersect(&win.rect);
        if r.is_empty() {
            return;
        }
        let (pw, ww) = (self.rect.width(), win.rect.width());
        for z in r.z0..r.z1 {
            let src = (z - self.rect.z0) * pw + (r.x0 - self.rect.x0);
            let dst = (z - win.rect.z0) * ww + (r.x0 - win.rect.x0);
            win.values[dst..dst + r.width()].copy_from_slice(&self.heights[src..src + r.width()]);
        }
    }

    /// The patch's fields of the canonical JSON (besides `type` and `layer`).
    pub fn write_fields(&self, m: &mut Map<String, Value>) {
        let r = self.rect;
        let pair = |a: usize, b: usize| Value::Array(vec![Value::from(a), Value::from(b)]);
        m.insert(
            "grid".into(),
            Value::Array(vec![Value::from(self.grid[0]), Value::from(self.grid[1])]),
        );
        m.insert("origin".into(), pair(r.x0, r.z0));
        m.insert("size".into(), pair(r.width(), r.depth()));
        // f32 → f64 is exact, and reading back rounds to the same f32.
        m.insert(
            "heights".into(),
            Value::Array(
                self.heights
                    .iter()
                    .map(|&h| json_number(h as f64))
                    .collect(),
            ),
        );
    }
}

/// The stroke JSON of a patch (what `Terrain3D.set_height_rect` applies): `heights` row-major
/// over `rect` on a grid of `grid` cells. Negative zero is written as zero.
pub fn stroke_value(grid: [u32; 2], rect: Rect, heights: &[f32]) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(TYPE));
    HeightPatch {
        grid,
        rect,
        heights: heights.to_vec(),
    }
    .write_fields(&mut m);
    Value::Object(m)
}

/// Parses a `height_patch` stroke at `path` (its `type` already checked); problems go to `d`.
pub fn parse(v: &Value, path: &str, ctx: &ParseContext, d: &mut Diagnostics) -> Option<Stroke> {
    let before = d.0.len();
    let mut r = ObjectReader::new(path, v, d);
    let _ = r.raw("type");
    let layer = r.opt_str(d, "layer");
    let [grid, origin, size] = read_patch_rect(&mut r, d, TYPE);
    let mut heights = Vec::new();
    match r.raw("heights") {
        Some(Value::Array(items)) => {
            heights.reserve(items.len());
            for (i, h) in items.iter().enumerate() {
                match h.as_f64().filter(|x| x.abs() <= MAX_HEIGHT as f64) {
                    // + 0.0 turns −0 into +0, what the canonical JSON writes back.
                    Some(x) => heights.push(x as f32 + 0.0),
                    None => {
                        d.push(
                            index(&r.at("heights"), i),
                            format!("must be a number within ±{MAX_HEIGHT}, got {}", show(h)),
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
            "is required: the patch's heights, row-major",
        ),
    }
    let rect = patch_rect(origin, size);
    if d.0.len() == before {
        if let Some(why) = outside_grid(&rect, grid) {
            d.push(r.at("size"), why);
        } else if heights.len() != rect.area() {
            d.push(
                r.at("heights"),
                format!(
                    "has {} heights; the {}×{} rectangle has {} samples",
                    heights.len(),
                    rect.width(),
                    rect.depth(),
                    rect.area()
                ),
            );
        } else if rect.area() as u64 > MAX_SAMPLE_UPDATES {
            d.push(
                r.at("size"),
                format!("at most {MAX_SAMPLE_UPDATES} samples per patch"),
            );
        }
    }
    check_patch_target(
        &r,
        d,
        ctx,
        (d.0.len() == before).then_some(grid),
        "; keep that grid or clear the edits explicitly",
        layer.as_deref(),
        "sculpt",
    );
    r.finish(d);
    (d.0.len() == before).then(|| Stroke {
        op: Op::HeightPatch(HeightPatch {
            grid: [grid[0] as u32, grid[1] as u32],
            rect,
            heights,
        }),
        layer,
        brush: Brush {
            radius: 1.0,
            strength: 1.0,
            falloff: 0.5,
            slope: None,
            shape: Shape::Circle,
        },
        points: Vec::new(),
        center_form: false,
    })
}

/// Reads a patch's `grid` (cells, 1..=max), `origin` (first sample) and `size` (samples) —
/// each two whole numbers — for the patch stroke `ty`; a missing or bad pair is reported and
/// reads as `[0, 0]`.
pub(super) fn read_patch_rect(
    r: &mut ObjectReader,
    d: &mut Diagnostics,
    ty: &str,
) -> [[u64; 2]; 3] {
    let max = MAX_CELLS_PER_AXIS as u64;
    let mut whole = |key: &'static str, lo: u64, hi: u64| -> [u64; 2] {
        let Some(pv) = r.raw(key) else {
            d.push(
                r.at(key),
                format!("is required for a {ty}: two whole numbers"),
            );
            return [0, 0];
        };
        match pv.as_array().map(|a| a.as_slice()) {
            // Whole numbers written as floats (`64.0`, as GDScript passes them) are accepted.
            Some([a, b]) => match (whole_u64(a), whole_u64(b)) {
                (Some(a), Some(b)) if (lo..=hi).contains(&a) && (lo..=hi).contains(&b) => [a, b],
                _ => {
                    d.push(
                        r.at(key),
                        format!("must be two whole numbers {lo}..={hi}, got {}", show(pv)),
                    );
                    [0, 0]
                }
            },
            _ => {
                d.push(
                    r.at(key),
                    format!("must be an array of two whole numbers, got {}", show(pv)),
                );
                [0, 0]
            }
        }
    };
    [
        whole("grid", 1, max),
        whole("origin", 0, max),
        whole("size", 1, max + 1),
    ]
}

/// Refuses a patch taken on another grid than the terrain's (`grid`, checked when given and the
/// context knows the terrain's; `hint` ends the message) and a `layer` that is not a `kind`
/// layer.
pub(super) fn check_patch_target(
    r: &ObjectReader,
    d: &mut Diagnostics,
    ctx: &ParseContext,
    grid: Option<[u64; 2]>,
    hint: &str,
    layer: Option<&str>,
    kind: &str,
) {
    if let (Some(grid), Some(g)) = (grid, ctx.grid)
        && g.cells() != [grid[0] as u32, grid[1] as u32]
    {
        let c = g.cells();
        d.push(
            r.at("grid"),
            format!(
                "the patch was taken on a {}×{} grid, this terrain has {}×{} cells{hint}",
                grid[0], grid[1], c[0], c[1]
            ),
        );
    }
    if let Some(l) = layer
        && !ctx.layers.iter().any(|x| x.id == l && x.kind == kind)
    {
        d.push(
            r.at("layer"),
            format!("names `{l}`, which is not a {kind} layer"),
        );
    }
}

/// The sample rectangle `[origin, origin + size)` a patch reads from `read_patch_rect`.
pub(super) fn patch_rect(origin: [u64; 2], size: [u64; 2]) -> Rect {
    Rect::new(
        origin[0] as usize,
        origin[1] as usize,
        (origin[0] + size[0]) as usize,
        (origin[1] + size[1]) as usize,
    )
}

/// Why `rect` does not fit the samples of a `grid`-cell grid, or `None` when it does (the
/// message goes at the patch's `size`).
pub(super) fn outside_grid(rect: &Rect, grid: [u64; 2]) -> Option<String> {
    (rect.x1 > grid[0] as usize + 1 || rect.z1 > grid[1] as usize + 1).then(|| {
        format!(
            "the rectangle [{}, {}) × [{}, {}) leaves the {}×{}-cell grid's samples (0..={} × 0..={})",
            rect.x0, rect.x1, rect.z0, rect.z1, grid[0], grid[1], grid[0], grid[1]
        )
    })
}

/// The bytes (0..=255, row-major, one per sample) of array `key`, `None` when `key` is absent.
/// A non-array or a bad entry is reported to `d` (with the entry's index); the bytes read
/// before it are returned.
pub(super) fn read_byte_array(
    r: &mut ObjectReader,
    d: &mut Diagnostics,
    key: &'static str,
) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    match r.raw(key)? {
        Value::Array(items) => {
            out.reserve(items.len());
            for (i, b) in items.iter().enumerate() {
                match b
                    .as_f64()
                    .filter(|x| x.fract() == 0.0 && (0.0..=255.0).contains(x))
                {
                    Some(x) => out.push(x as u8),
                    None => {
                        d.push(
                            index(&r.at(key), i),
                            format!("must be a byte 0..=255, got {}", show(b)),
                        );
                        break;
                    }
                }
            }
        }
        other => d.push(
            r.at(key),
            format!("must be an array of bytes, got {}", type_name(other)),
        ),
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Layer;
    use crate::grid::Grid;

    fn ctx_parse(v: &Value, grid: Option<Grid>) -> Result<Stroke, Diagnostics> {
        let layers = Layer::defaults();
        let none = |_: &str| false;
        let ctx = ParseContext {
            layers: &layers,
            has_biome: &none,
            grid,
            masks: None,
        };
        let mut d = Diagnostics::default();
        match Stroke::parse(v, "stroke", crate::edit::List::Edits, &ctx, &mut d) {
            Some(s) => Ok(s),
            None => Err(d),
        }
    }

    fn grid() -> Grid {
        Grid::new([16.0, 12.0], [8, 6], 4).expect("grid")
    }

    #[test]
    fn round_trips_and_applies_only_its_rectangle() {
        let rect = Rect::new(2, 1, 4, 3);
        let v = stroke_value([8, 6], rect, &[1.0, 0.1, -2.5, 3.0e6]);
        let s = ctx_parse(&v, Some(grid())).expect("valid");
        assert_eq!(s.to_value(), v, "canonical");
        assert_eq!(s.footprint(&grid()), rect);
        assert_eq!(s.reads(), 0);
        let mut win = Window {
            rect: Rect::new(3, 0, 9, 7),
            values: vec![7.0; 6 * 7],
        };
        let Op::HeightPatch(p) = &s.op else {
            panic!("a patch")
        };
        p.apply(&mut win);
        let at = |x: usize, z: usize| win.values[(z * 6) + (x - 3)];
        assert_eq!(at(3, 1), 0.1);
        assert_eq!(at(3, 2), 3.0e6);
        assert_eq!(at(4, 1), 7.0, "outside the patch");
        assert_eq!(at(3, 0), 7.0, "outside the patch");
    }

    #[test]
    fn bad_patches_are_located() {
        let msg = |v: Value| {
            ctx_parse(&v, Some(grid()))
                .err()
                .and_then(|d| d.into_result().err())
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        let base = || stroke_value([8, 6], Rect::new(0, 0, 2, 1), &[1.0, 2.0]);
        let mut v = base();
        v["heights"] = serde_json::json!([1.0]);
        assert!(msg(v).contains("stroke.heights: has 1 heights; the 2×1 rectangle has 2"));
        let mut v = base();
        v["heights"] = serde_json::json!([1.0, null]);
        assert!(msg(v).contains("stroke.heights[1]: must be a number"));
        let mut v = base();
        v["origin"] = serde_json::json!([8, 0]);
        assert!(msg(v).contains("stroke.size: the rectangle [8, 10)"));
        let mut v = base();
        v["grid"] = serde_json::json!([16, 6]);
        assert!(msg(v).contains("stroke.grid: the patch was taken on a 16×6 grid"));
        let mut v = base();
        v["size"] = serde_json::json!([0, 1]);
        assert!(msg(v).contains("stroke.size: must be two whole numbers 1..="));
        let mut v = base();
        v["origin"] = serde_json::json!([1.0, 0.0]);
        assert!(
            ctx_parse(&v, Some(grid())).is_ok(),
            "whole floats are whole numbers"
        );
        v["origin"] = serde_json::json!([0.5, 0.0]);
        assert!(msg(v).contains("stroke.origin: must be two whole numbers"));
        let mut v = base();
        v["radius"] = serde_json::json!(3);
        assert!(msg(v).contains("stroke.radius: unknown field"));
    }
}
