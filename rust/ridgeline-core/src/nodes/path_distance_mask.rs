//! Path Distance Mask node (`path_distance_mask`): 1 within `width` (half width) of a polyline,
//! fading smoothly to 0 over `falloff` beyond it.

use super::util::{fade_out, input, json_points, mask_from, non_negative, put_f64};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, pin};
use crate::error::{Diagnostics, Result};
use crate::recipe::reader::{ObjectReader, read_points};
use serde_json::{Map, Value};

/// Default points: `[[0,0],[0,100]]`.
const DEFAULT_POINTS: [[f64; 2]; 2] = [[0.0, 0.0], [0.0, 100.0]];

/// Parameters: `points` (≥ 2 `[x, z]`, terrain-local; may leave the terrain; repeats allowed),
/// `width` (20, ≥ 0, fully weighted half width), `falloff` (40, ≥ 0).
#[derive(Debug, Clone, PartialEq)]
pub struct PathDistanceMask {
    /// The polyline.
    pub points: Vec<[f64; 2]>,
    /// Half width of the fully weighted core.
    pub width: f64,
    /// Smooth transition beyond the core.
    pub falloff: f64,
}

impl PathDistanceMask {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let points = match r.raw("points") {
            Some(v) => read_points(&r.at("points"), v, 2, d).unwrap_or_default(),
            None => DEFAULT_POINTS.to_vec(),
        };
        let width = r.f64(d, "width", 20.0, non_negative);
        let falloff = r.f64(d, "falloff", 40.0, non_negative);
        r.finish(d);
        Self {
            points,
            width,
            falloff,
        }
    }

    /// Mask value at a terrain-local point.
    pub fn value_at(&self, x: f64, z: f64) -> f32 {
        let mut best = f64::INFINITY;
        for seg in self.points.windows(2) {
            best = best.min(segment_distance(seg[0], seg[1], [x, z]));
        }
        fade_out((best - self.width) as f32, self.falloff as f32)
    }
}

/// Distance from `p` to the segment `a`–`b` (a point when `a == b`).
pub fn segment_distance(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    let (abx, abz) = (b[0] - a[0], b[1] - a[1]);
    let (apx, apz) = (p[0] - a[0], p[1] - a[1]);
    let len2 = abx * abx + abz * abz;
    let t = if len2 > 0.0 {
        ((apx * abx + apz * abz) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dz) = (apx - t * abx, apz - t * abz);
    (dx * dx + dz * dz).sqrt()
}

const INPUTS: &[PinSpec] = &[pin("field", PinKind::Heightfield)];
const OUTPUTS: &[PinSpec] = &[pin("mask", PinKind::Mask)];

impl NodeImpl for PathDistanceMask {
    fn type_id(&self) -> &'static str {
        "path_distance_mask"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        if self.points != DEFAULT_POINTS {
            m.insert("points".into(), json_points(&self.points));
        }
        put_f64(&mut m, "width", self.width, Some(20.0));
        put_f64(&mut m, "falloff", self.falloff, Some(40.0));
        m
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        input(inputs, 0, "field")?;
        Ok(vec![mask_from(ctx, |x, z| self.value_at(x, z))?].into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_and_falloff_are_exact_at_known_distances() {
        let m = PathDistanceMask {
            points: vec![[0.0, 0.0], [0.0, 100.0]],
            width: 20.0,
            falloff: 40.0,
        };
        assert_eq!(m.value_at(0.0, 50.0), 1.0);
        assert_eq!(
            m.value_at(20.0, 50.0),
            1.0,
            "the core's edge is fully weighted"
        );
        assert_eq!(m.value_at(-40.0, 50.0), 0.5, "half-way through the falloff");
        assert_eq!(m.value_at(60.0, 50.0), 0.0, "core + falloff");
        assert_eq!(m.value_at(0.0, 160.0), 0.0, "beyond the end cap");
        assert_eq!(m.value_at(0.0, -40.0), 0.5, "round end caps");
        let hard = PathDistanceMask { falloff: 0.0, ..m };
        assert_eq!(hard.value_at(20.0, 50.0), 1.0);
        assert_eq!(hard.value_at(20.001, 50.0), 0.0);
    }
}
