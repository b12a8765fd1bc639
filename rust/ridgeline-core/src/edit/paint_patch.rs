//! Parsing the painted-layer strokes (see [`super::paint`]) and the `paint_patch` stroke.
//!
//! Brush strokes (`points` or `center`, `radius`, `strength`, `falloff`, `mask` as for every
//! brush stroke):
//! ```json
//! { "type": "user_channel", "channel": 0, "value": 0.25, "radius": 2, "center": [10, 4] }
//! { "type": "user_channel", "channel": 1, "value": 3, "mode": "id", "radius": 8, "center": [10, 4] }
//! { "type": "paint_surface", "surface": "rock", "mode": "blend", "strength": 0.5, "radius": 3,
//!   "center": [10, 4] }
//! ```
//! `mode` is `"value"` (default: `value` 0–1 blends) or `"id"` (`value` a whole number 0–255,
//! painted crisply) for user channels, `"dither"` (default) or `"blend"` for surfaces.
//!
//! A patch (what `Terrain3D.set_cells` records) has no brush:
//! ```json
//! { "type": "paint_patch", "grid": [64, 48], "origin": [10, 4], "size": [2, 1],
//!   "user": [0, 0, 0, 0, 255, 0, 0, 0], "weights": [] }
//! ```
//! `user` holds 4 bytes per sample and `weights` 10 per sample (nine roles + generated, each
//! sample summing to 255), row-major over the rectangle; an empty or missing array leaves that
//! layer unchanged.

use super::brush::{Brush, Shape};
use super::paint::{PaintPatch, PaintSurfaceOp, USER_CHANNELS, UserChannelOp, WEIGHT_SLOTS};
use super::rect::Rect;
use super::stroke::{MAX_SAMPLE_UPDATES, Op, ParseContext, Stroke};
use crate::biome::roles::Role;
use crate::doc::reader::ObjectReader;
use crate::error::Diagnostics;
use serde_json::{Map, Value};

/// The patch stroke type.
pub const TYPE: &str = "paint_patch";

/// The surface names `paint_surface` accepts, for messages.
fn surface_names() -> String {
    Role::ALL.map(|r| r.name()).join(", ")
}

/// The op of a `user_channel` or `paint_surface` brush stroke.
pub(super) fn parse_brush_op(type_id: &str, r: &mut ObjectReader, d: &mut Diagnostics) -> Op {
    if type_id == "user_channel" {
        let mode = r.opt_str(d, "mode");
        let id = match mode.as_deref() {
            None | Some("value") => false,
            Some("id") => true,
            Some(other) => {
                d.push(
                    r.at("mode"),
                    format!("must be \"value\" or \"id\", got \"{other}\""),
                );
                false
            }
        };
        let channel = r.f64(d, "channel", f64::NAN, |x| {
            (!UserChannelOp::channel_ok(x))
                .then(|| format!("must be a user channel 0..={}, got {x}", USER_CHANNELS - 1))
        });
        if channel.is_nan() && !r.has("channel") {
            d.push(r.at("channel"), "is required: the user channel 0..=3");
        }
        let value = r.f64(d, "value", f64::NAN, |x| {
            (!UserChannelOp::value_ok(x, id)).then(|| {
                if id {
                    format!("must be a whole id 0..=255 in \"id\" mode, got {x}")
                } else {
                    format!("must be 0..=1, got {x}")
                }
            })
        });
        if value.is_nan() && !r.has("value") {
            d.push(r.at("value"), "is required: the value to write");
        }
        Op::UserChannel(UserChannelOp {
            channel: if channel.is_nan() { 0 } else { channel as u8 },
            value: if value.is_nan() { 0.0 } else { value as f32 },
            id,
        })
    } else {
        let blend = match r.opt_str(d, "mode").as_deref() {
            None | Some("dither") => false,
            Some("blend") => true,
            Some(other) => {
                d.push(
                    r.at("mode"),
                    format!("must be \"dither\" or \"blend\", got \"{other}\""),
                );
                false
            }
        };
        let surface = match r.opt_str(d, "surface") {
            Some(name) => match Role::parse(&name) {
                Some(role) => role as u8,
                None => {
                    d.push(
                        r.at("surface"),
                        format!(
                            "names no surface `{name}`; surfaces are {}",
                            surface_names()
                        ),
                    );
                    0
                }
            },
            None => {
                d.push(
                    r.at("surface"),
                    format!("is required: one of {}", surface_names()),
                );
                0
            }
        };
        Op::PaintSurface(PaintSurfaceOp { surface, blend })
    }
}

/// The patch's fields of the canonical JSON (besides `type` and `layer`).
pub fn write_fields(p: &PaintPatch, m: &mut Map<String, Value>) {
    let r = p.rect;
    let pair = |a: usize, b: usize| Value::Array(vec![Value::from(a), Value::from(b)]);
    m.insert(
        "grid".into(),
        Value::Array(vec![Value::from(p.grid[0]), Value::from(p.grid[1])]),
    );
    m.insert("origin".into(), pair(r.x0, r.z0));
    m.insert("size".into(), pair(r.width(), r.depth()));
    let bytes = |b: &[u8]| Value::Array(b.iter().map(|&v| Value::from(v)).collect());
    if !p.user.is_empty() {
        m.insert("user".into(), bytes(&p.user));
    }
    if !p.weights.is_empty() {
        m.insert("weights".into(), bytes(&p.weights));
    }
}

/// The stroke JSON of a patch on a grid of `grid` cells over the sample rectangle `rect`.
pub fn stroke_value(grid: [u32; 2], rect: Rect, user: &[u8], weights: &[u8]) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(TYPE));
    write_fields(
        &PaintPatch {
            grid,
            rect,
            user: user.to_vec(),
            weights: weights.to_vec(),
        },
        &mut m,
    );
    Value::Object(m)
}

/// Parses a `paint_patch` stroke at `path`; problems go to `d`.
pub fn parse(v: &Value, path: &str, ctx: &ParseContext, d: &mut Diagnostics) -> Option<Stroke> {
    let before = d.0.len();
    let mut r = ObjectReader::new(path, v, d);
    let _ = r.raw("type");
    let layer = r.opt_str(d, "layer");
    let [grid, origin, size] = super::height_patch::read_patch_rect(&mut r, d, TYPE);
    let mut bytes = |r: &mut ObjectReader, key: &'static str| -> Vec<u8> {
        super::height_patch::read_byte_array(r, d, key).unwrap_or_default()
    };
    let user = bytes(&mut r, "user");
    let weights = bytes(&mut r, "weights");
    let rect = super::height_patch::patch_rect(origin, size);
    if d.0.len() == before {
        let n = rect.area();
        if let Some(why) = super::height_patch::outside_grid(&rect, grid) {
            d.push(r.at("size"), why);
        } else if n as u64 > MAX_SAMPLE_UPDATES {
            d.push(
                r.at("size"),
                format!("at most {MAX_SAMPLE_UPDATES} samples per patch"),
            );
        } else {
            if !user.is_empty() && user.len() != n * USER_CHANNELS {
                d.push(
                    r.at("user"),
                    format!(
                        "has {} bytes; the {}×{} rectangle needs {} ({USER_CHANNELS} per sample)",
                        user.len(),
                        rect.width(),
                        rect.depth(),
                        n * USER_CHANNELS
                    ),
                );
            }
            if !weights.is_empty() && weights.len() != n * WEIGHT_SLOTS {
                d.push(
                    r.at("weights"),
                    format!(
                        "has {} bytes; the {}×{} rectangle needs {} ({WEIGHT_SLOTS} per sample)",
                        weights.len(),
                        rect.width(),
                        rect.depth(),
                        n * WEIGHT_SLOTS
                    ),
                );
            } else if let Some(k) = weights
                .chunks_exact(WEIGHT_SLOTS)
                .position(|s| s.iter().map(|&b| b as u32).sum::<u32>() != 255)
            {
                d.push(
                    r.at("weights"),
                    format!(
                        "sample {k} (bytes {}..{}) sums to {}; each sample's {WEIGHT_SLOTS} weights must sum to 255",
                        k * WEIGHT_SLOTS,
                        (k + 1) * WEIGHT_SLOTS,
                        weights[k * WEIGHT_SLOTS..(k + 1) * WEIGHT_SLOTS]
                            .iter()
                            .map(|&b| b as u32)
                            .sum::<u32>()
                    ),
                );
            }
        }
    }
    super::height_patch::check_patch_target(
        &r,
        d,
        ctx,
        (d.0.len() == before).then_some(grid),
        "",
        layer.as_deref(),
        "biomes",
    );
    r.finish(d);
    (d.0.len() == before).then(|| Stroke {
        op: Op::PaintPatch(PaintPatch {
            grid: [grid[0] as u32, grid[1] as u32],
            rect,
            user,
            weights,
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
