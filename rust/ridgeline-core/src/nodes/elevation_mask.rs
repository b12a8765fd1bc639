//! Elevation mask node (`elevation_mask`): 1 inside a height band, fading to 0 over `falloff`
//! outside it.

use super::util::{fade_out, input, non_negative, put_f64};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, pin};
use crate::error::{Diagnostics, Result};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Parameters: `min` (0), `max` (100), `falloff` (10, ≥ 0) in world units.
#[derive(Debug, Clone, PartialEq)]
pub struct ElevationMask {
    /// Lower edge of the band.
    pub min: f64,
    /// Upper edge of the band.
    pub max: f64,
    /// Fade width outside the band.
    pub falloff: f64,
}

impl ElevationMask {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let min = r.f64(d, "min", 0.0, |_| None);
        let max = r.f64(d, "max", 100.0, |_| None);
        let falloff = r.f64(d, "falloff", 10.0, non_negative);
        if max < min {
            d.push(r.at("max"), format!("must be ≥ min ({min}), got {max}"));
        }
        r.finish(d);
        Self { min, max, falloff }
    }
}

const INPUTS: &[PinSpec] = &[pin("field", PinKind::Heightfield)];
const OUTPUTS: &[PinSpec] = &[pin("mask", PinKind::Mask)];

impl NodeImpl for ElevationMask {
    fn type_id(&self) -> &'static str {
        "elevation_mask"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put_f64(&mut m, "min", self.min, Some(0.0));
        put_f64(&mut m, "max", self.max, Some(100.0));
        put_f64(&mut m, "falloff", self.falloff, Some(10.0));
        m
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let (lo, hi, f) = (self.min as f32, self.max as f32, self.falloff as f32);
        let w = field.width();
        let src = field.as_slice();
        let mask = ctx.par_rows(|z, out| {
            for (o, &h) in out.iter_mut().zip(&src[z * w..(z + 1) * w]) {
                *o = fade_out((lo - h).max(h - hi), f);
            }
        })?;
        Ok(vec![PinValue::Mask(Arc::new(mask))].into())
    }
}
