//! The stroke JSON a brush drag in the Terrain dock produces: a tool, its brush and target
//! over the stamp points (and the Ramp's two ends). Pure Rust.

use super::tools::{Brush, Tool};
use serde_json::{Value, json};

/// Largest raise/lower per stamp at strength 1, as a share of the brush size.
const AMOUNT_PER_SIZE: f64 = 0.05;

/// What a stroke needs beyond the brush: the height flatten and set height move toward, the
/// biome biome paint paints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Target {
    /// Flatten / set height: terrain-local height.
    pub height: f64,
    /// Biome paint: the biome's name.
    pub biome: String,
    /// The brush mask: empty (circle), `square`, or a greyscale PNG (`res://…`).
    pub mask: String,
    /// The layer the stroke goes into (its `layer` key); empty: the first layer of the tool's
    /// kind (see [`Tool::layer_kind`]).
    pub layer: String,
    /// Foliage: the palette's foliage type painted.
    pub foliage: String,
}

/// The shared part of every stroke: type, radius, strength, falloff, slope limits.
fn brush_json(ty: &str, brush: &Brush) -> Value {
    let mut v = json!({
        "type": ty,
        "radius": brush.size / 2.0,
        "strength": brush.strength,
        "falloff": brush.falloff,
    });
    // Holes are cut per cell, foliage has its own slope limit and painted water reads no
    // heights: no brush slope limits.
    let unlimited = matches!(ty, "hole" | "foliage_density" | "paint_water");
    if let (Some([lo, hi]), false) = (brush.slope_band(), unlimited) {
        v["slope_min"] = json!(lo);
        v["slope_max"] = json!(hi);
    }
    v
}

/// The stroke JSON for `tool` with `brush` over `points` (terrain-local `[x, z]`). `None` for
/// tool None and for Ramp (see [`ramp_json`]).
pub fn stroke_json(
    tool: Tool,
    brush: &Brush,
    target: &Target,
    points: &[[f64; 2]],
) -> Option<Value> {
    let ty = tool.stroke_type()?;
    if tool == Tool::Ramp {
        return None;
    }
    let mut v = brush_json(ty, brush);
    v["points"] = json!(points);
    if !target.mask.is_empty() && target.mask != "circle" {
        v["mask"] = json!(target.mask);
    }
    if !target.layer.is_empty() {
        v["layer"] = json!(target.layer);
    }
    match tool {
        Tool::Raise | Tool::Lower => {
            // The strength scales the amount; the stamp weight stays 1 so a weak brush still
            // reaches its full footprint.
            v["amount"] = json!(brush.size * AMOUNT_PER_SIZE * brush.strength.max(0.0));
            v["strength"] = json!(1.0);
        }
        Tool::Flatten | Tool::SetHeight => v["target_height"] = json!(target.height),
        Tool::BiomePaint => v["biome"] = json!(target.biome),
        Tool::Hole => v["mode"] = json!("paint"),
        Tool::FillHole => v["mode"] = json!("erase"),
        Tool::FoliagePaint => {
            v["foliage"] = json!(target.foliage);
            v["density"] = json!(brush.density);
        }
        Tool::FoliageRestore => {
            v["foliage"] = json!(target.foliage);
            v["density"] = json!(1.0);
        }
        Tool::Water => {
            v["depth"] = json!(brush.water_depth);
            if brush.water_level >= 0.5 {
                v["level"] = json!(target.height);
            }
        }
        Tool::WaterRemove => v["depth"] = json!(0.0),
        _ => {}
    }
    Some(v)
}

/// The ramp stroke from `from` to `to` (terrain-local `[x, z, height]`), one brush wide.
pub fn ramp_json(brush: &Brush, from: [f64; 3], to: [f64; 3]) -> Value {
    let mut v = brush_json("ramp", brush);
    v["from"] = json!(from);
    v["to"] = json!(to);
    v
}

/// A ramp's grade from `from` to `to` (`[x, z, height]`): rise over run in percent and the
/// angle in degrees (positive uphill). `None` while both points share X and Z.
pub fn grade(from: [f64; 3], to: [f64; 3]) -> Option<(f64, f64)> {
    let run = ((to[0] - from[0]).powi(2) + (to[1] - from[1]).powi(2)).sqrt();
    let rise = to[2] - from[2];
    (run > 1e-9 && rise.is_finite()).then(|| (100.0 * rise / run, rise.atan2(run).to_degrees()))
}
