//! Slope mask node (`slope_mask`): 1 where the steepness is inside a band of degrees, fading
//! to 0 over `falloff_degrees` outside it. Steepness comes from central differences (one-sided
//! at the border), the same gradients as the terrain's smooth normals.

use super::util::{fade_out, input, put_f64, within};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, pin};
use crate::error::{Diagnostics, Result};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Parameters: `min_degrees` (0), `max_degrees` (30), `falloff_degrees` (5), all 0..=90.
#[derive(Debug, Clone, PartialEq)]
pub struct SlopeMask {
    /// Lower edge of the band.
    pub min_degrees: f64,
    /// Upper edge of the band.
    pub max_degrees: f64,
    /// Fade width outside the band.
    pub falloff_degrees: f64,
}

impl SlopeMask {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let min_degrees = r.f64(d, "min_degrees", 0.0, within(0.0, 90.0));
        let max_degrees = r.f64(d, "max_degrees", 30.0, within(0.0, 90.0));
        let falloff_degrees = r.f64(d, "falloff_degrees", 5.0, within(0.0, 90.0));
        if max_degrees < min_degrees {
            d.push(
                r.at("max_degrees"),
                format!("must be ≥ min_degrees ({min_degrees}), got {max_degrees}"),
            );
        }
        r.finish(d);
        Self {
            min_degrees,
            max_degrees,
            falloff_degrees,
        }
    }
}

const INPUTS: &[PinSpec] = &[pin("field", PinKind::Heightfield)];
const OUTPUTS: &[PinSpec] = &[pin("mask", PinKind::Mask)];

impl NodeImpl for SlopeMask {
    fn type_id(&self) -> &'static str {
        "slope_mask"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put_f64(&mut m, "min_degrees", self.min_degrees, Some(0.0));
        put_f64(&mut m, "max_degrees", self.max_degrees, Some(30.0));
        put_f64(&mut m, "falloff_degrees", self.falloff_degrees, Some(5.0));
        m
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let (w, h) = (field.width(), field.depth());
        let [dx, dz] = ctx.grid.spacing();
        let src = field.as_slice();
        let (lo, hi, f) = (
            self.min_degrees as f32,
            self.max_degrees as f32,
            self.falloff_degrees as f32,
        );
        let mask = ctx.par_rows(|z, out| {
            let (zl, zr) = (z.saturating_sub(1), (z + 1).min(h - 1));
            for (x, o) in out.iter_mut().enumerate() {
                let (xl, xr) = (x.saturating_sub(1), (x + 1).min(w - 1));
                let gx = (src[z * w + xr] - src[z * w + xl]) / ((xr - xl) as f32 * dx);
                let gz = (src[zr * w + x] - src[zl * w + x]) / ((zr - zl) as f32 * dz);
                let deg = (gx * gx + gz * gz).sqrt().atan().to_degrees();
                *o = fade_out((lo - deg).max(deg - hi), f);
            }
        })?;
        Ok(vec![PinValue::Mask(Arc::new(mask))].into())
    }
}
