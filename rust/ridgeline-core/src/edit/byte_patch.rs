//! Byte patches: a rectangle of absolute per-sample bytes, written as one replayable stroke.
//! Two stroke types share the shape (what a layer-file import records, see
//! `crate::formats::layer_import`):
//!
//! ```json
//! { "type": "water_patch", "grid": [64, 48], "origin": [10, 4], "size": [2, 1],
//!   "fractions": [0, 255] }
//! { "type": "foliage_patch", "foliage": "grass", "grid": [64, 48], "origin": [10, 4],
//!   "size": [2, 1], "density": [255, 128] }
//! ```
//!
//! - `water_patch` (recipe `edits`, sculpt layers, in order with the height strokes): sets the
//!   painted water depth fraction (see [`super::water`]) of every sample of the rectangle to
//!   `byte / 255` (0 dry, 255 [`super::water::MAX_WATER_DEPTH`] deep). It moves no height `h`;
//!   the bed follows the depth.
//! - `foliage_patch` (recipe `foliage_paint`): sets foliage type `foliage`'s painted density
//!   multiplier (see [`super::foliage_density`]) of every sample of the rectangle to
//!   `byte / 255`.
//!
//! `grid`, `origin` and `size` are as for a height patch ([`super::height_patch`]); the bytes
//! are row-major over the rectangle, one per sample. A patch reads nothing: each replay writes
//! the same values whatever lies under it.

use super::brush::{Brush, Shape};
use super::rect::Rect;
use super::stroke::{MAX_SAMPLE_UPDATES, Op, ParseContext, Stroke};
use crate::doc::reader::ObjectReader;
use crate::error::Diagnostics;
use serde_json::{Map, Value};

/// The water patch stroke type.
pub const WATER_TYPE: &str = "water_patch";
/// The foliage patch stroke type.
pub const FOLIAGE_TYPE: &str = "foliage_patch";

/// A rectangle of per-sample bytes on a grid of `grid` cells.
#[derive(Clone, Debug, PartialEq)]
pub struct BytePatch {
    /// Cells `[x, z]` of the grid the rectangle's indices refer to.
    pub grid: [u32; 2],
    /// The sample rectangle (half-open).
    pub rect: Rect,
    /// One byte per sample, row-major over `rect`.
    pub values: Vec<u8>,
}

impl BytePatch {
    /// Writes `byte / 255` into the part of `values` (row-major over `win`) the patch covers.
    pub fn write_fractions(&self, win: Rect, values: &mut [f32]) {
        let r = self.rect.intersect(&win);
        if r.is_empty() {
            return;
        }
        let (pw, ww) = (self.rect.width(), win.width());
        for z in r.z0..r.z1 {
            for x in r.x0..r.x1 {
                let b = self.values[(z - self.rect.z0) * pw + (x - self.rect.x0)];
                values[(z - win.z0) * ww + (x - win.x0)] = fraction(b);
            }
        }
    }

    /// The patch's fields of the canonical JSON under `key` (besides `type`, `layer` and
    /// `foliage`).
    pub fn write_fields(&self, key: &str, m: &mut Map<String, Value>) {
        let r = self.rect;
        let pair = |a: usize, b: usize| Value::Array(vec![Value::from(a), Value::from(b)]);
        m.insert(
            "grid".into(),
            Value::Array(vec![Value::from(self.grid[0]), Value::from(self.grid[1])]),
        );
        m.insert("origin".into(), pair(r.x0, r.z0));
        m.insert("size".into(), pair(r.width(), r.depth()));
        m.insert(
            key.into(),
            Value::Array(self.values.iter().map(|&b| Value::from(b)).collect()),
        );
    }
}

/// `byte / 255` as the f32 a layer stores (0 and 255 give 0 and 1 exactly).
#[inline]
pub fn fraction(b: u8) -> f32 {
    b as f32 / 255.0
}

/// The byte of a 0–1 fraction (rounded, clamped): the inverse of [`fraction`].
#[inline]
pub fn to_byte(f: f32) -> u8 {
    (f.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The key holding the bytes of patch type `ty`.
fn bytes_key(ty: &str) -> &'static str {
    if ty == WATER_TYPE {
        "fractions"
    } else {
        "density"
    }
}

/// The stroke JSON of a `water_patch` over `rect` on a grid of `grid` cells.
pub fn water_stroke_value(grid: [u32; 2], rect: Rect, fractions: &[u8]) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(WATER_TYPE));
    let p = BytePatch {
        grid,
        rect,
        values: fractions.to_vec(),
    };
    p.write_fields(bytes_key(WATER_TYPE), &mut m);
    Value::Object(m)
}

/// The stroke JSON of a `foliage_patch` of type `foliage` over `rect`.
pub fn foliage_stroke_value(grid: [u32; 2], rect: Rect, foliage: &str, density: &[u8]) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(FOLIAGE_TYPE));
    m.insert("foliage".into(), Value::from(foliage));
    let p = BytePatch {
        grid,
        rect,
        values: density.to_vec(),
    };
    p.write_fields(bytes_key(FOLIAGE_TYPE), &mut m);
    Value::Object(m)
}

/// The canonical JSON fields of a byte patch stroke `op` (besides `type` and `layer`).
pub fn write_op_fields(op: &Op, m: &mut Map<String, Value>) {
    match op {
        Op::WaterPatch(p) => p.write_fields(bytes_key(WATER_TYPE), m),
        Op::FoliagePatch { foliage, patch } => {
            m.insert("foliage".into(), Value::from(foliage.clone()));
            patch.write_fields(bytes_key(FOLIAGE_TYPE), m);
        }
        _ => {}
    }
}

/// Parses a `water_patch` or `foliage_patch` stroke (`ty`) at `path`; problems go to `d`.
pub fn parse(
    v: &Value,
    path: &str,
    ty: &str,
    ctx: &ParseContext,
    d: &mut Diagnostics,
) -> Option<Stroke> {
    let before = d.0.len();
    let mut r = ObjectReader::new(path, v, d);
    let _ = r.raw("type");
    let water = ty == WATER_TYPE;
    let layer = if water { r.opt_str(d, "layer") } else { None };
    let foliage = if water {
        String::new()
    } else {
        match r.opt_str(d, "foliage") {
            Some(f) if !f.is_empty() => f,
            _ => {
                d.push(
                    r.at("foliage"),
                    "is required: the palette's foliage type this patch paints",
                );
                String::new()
            }
        }
    };
    let [grid, origin, size] = super::height_patch::read_patch_rect(&mut r, d, ty);
    let key = bytes_key(ty);
    let values = super::height_patch::read_byte_array(&mut r, d, key).unwrap_or_else(|| {
        d.push(
            r.at(key),
            "is required: one byte per sample of the rectangle, row-major",
        );
        Vec::new()
    });
    let rect = super::height_patch::patch_rect(origin, size);
    if d.0.len() == before {
        if let Some(why) = super::height_patch::outside_grid(&rect, grid) {
            d.push(r.at("size"), why);
        } else if rect.area() as u64 > MAX_SAMPLE_UPDATES {
            d.push(
                r.at("size"),
                format!("at most {MAX_SAMPLE_UPDATES} samples per patch"),
            );
        } else if values.len() != rect.area() {
            d.push(
                r.at(key),
                format!(
                    "has {} bytes; the {}×{} rectangle has {} samples",
                    values.len(),
                    rect.width(),
                    rect.depth(),
                    rect.area()
                ),
            );
        }
    }
    super::height_patch::check_patch_target(
        &r,
        d,
        ctx,
        (d.0.len() == before).then_some(grid),
        "",
        layer.as_deref(),
        "sculpt",
    );
    r.finish(d);
    let patch = BytePatch {
        grid: [grid[0] as u32, grid[1] as u32],
        rect,
        values,
    };
    (d.0.len() == before).then(|| Stroke {
        op: if water {
            Op::WaterPatch(patch)
        } else {
            Op::FoliagePatch { foliage, patch }
        },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{Layer, List};
    use crate::grid::Grid;

    fn parse_in(v: &Value, list: List) -> Result<Stroke, String> {
        let layers = Layer::defaults();
        let none = |_: &str| false;
        let ctx = ParseContext {
            layers: &layers,
            has_biome: &none,
            grid: Some(Grid::new([16.0, 12.0], [8, 6], 4).expect("grid")),
            masks: None,
        };
        let mut d = Diagnostics::default();
        match Stroke::parse(v, "stroke", list, &ctx, &mut d) {
            Some(s) => Ok(s),
            None => Err(d
                .into_result()
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()),
        }
    }

    #[test]
    fn patches_round_trip_canonically_and_write_their_rectangle() {
        let rect = Rect::new(2, 1, 4, 2);
        let w = water_stroke_value([8, 6], rect, &[0, 255]);
        let s = parse_in(&w, List::Edits).expect("water patch");
        assert_eq!(s.to_value(), w);
        assert_eq!(s.reads(), 0);
        let f = foliage_stroke_value([8, 6], rect, "grass", &[128, 3]);
        let s = parse_in(&f, List::Foliage).expect("foliage patch");
        assert_eq!(s.to_value(), f);
        let Op::FoliagePatch { patch, .. } = &s.op else {
            panic!("a foliage patch")
        };
        let win = Rect::new(3, 0, 5, 3);
        let mut v = vec![9.0; win.area()];
        patch.write_fractions(win, &mut v);
        assert_eq!(v[2], fraction(3), "sample (3, 1)");
        assert_eq!(v[0], 9.0, "outside");
        assert_eq!(to_byte(fraction(128)), 128);
    }

    #[test]
    fn bad_patches_are_located() {
        let rect = Rect::new(0, 0, 2, 1);
        let mut v = water_stroke_value([8, 6], rect, &[0, 1]);
        v["fractions"] = serde_json::json!([0, 256]);
        let e = parse_in(&v, List::Edits).expect_err("byte");
        assert!(e.contains("stroke.fractions[1]: must be a byte"), "{e}");
        v["fractions"] = serde_json::json!([0]);
        let e = parse_in(&v, List::Edits).expect_err("length");
        assert!(e.contains("stroke.fractions: has 1 bytes"), "{e}");
        let mut v = foliage_stroke_value([8, 6], rect, "grass", &[0, 1]);
        v.as_object_mut().map(|m| m.remove("foliage"));
        let e = parse_in(&v, List::Foliage).expect_err("foliage");
        assert!(e.contains("stroke.foliage: is required"), "{e}");
        let v = water_stroke_value([9, 6], rect, &[0, 1]);
        let e = parse_in(&v, List::Edits).expect_err("grid");
        assert!(
            e.contains("stroke.grid: the patch was taken on a 9×6 grid"),
            "{e}"
        );
    }
}
