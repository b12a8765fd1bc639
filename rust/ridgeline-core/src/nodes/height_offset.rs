//! Height Offset node (`height_offset`): `field + offset × mask` per sample (mask = 1 when not
//! connected).

use super::height_blend::same_grid;
use super::util::{input, put_f64};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, optional, pin};
use crate::error::{Diagnostics, Result};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Parameters: `offset` (0, world units, within ±1000000).
#[derive(Debug, Clone, PartialEq)]
pub struct HeightOffset {
    /// Height added where the mask is 1.
    pub offset: f64,
}

impl HeightOffset {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let offset = r.f64(d, "offset", 0.0, |x| {
            (x.abs() > 1.0e6).then(|| format!("must be within ±1000000, got {x}"))
        });
        r.finish(d);
        Self { offset }
    }
}

const INPUTS: &[PinSpec] = &[
    pin("field", PinKind::Heightfield),
    optional("mask", PinKind::Mask),
];
const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

impl NodeImpl for HeightOffset {
    fn type_id(&self) -> &'static str {
        "height_offset"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put_f64(&mut m, "offset", self.offset, Some(0.0));
        m
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let mask = inputs.get(1).copied().flatten().map(PinValue::field);
        let mut all = vec![field];
        all.extend(mask);
        same_grid(&all)?;
        let w = field.width();
        let offset = self.offset as f32;
        let src = field.as_slice();
        let out = ctx.par_rows(|z, out| {
            for (i, o) in (z * w..(z + 1) * w).zip(out.iter_mut()) {
                let m = mask.map_or(1.0, |m| m.as_slice()[i]);
                *o = src[i] + offset * m;
            }
        })?;
        Ok(vec![PinValue::Heightfield(Arc::new(out))].into())
    }
}
