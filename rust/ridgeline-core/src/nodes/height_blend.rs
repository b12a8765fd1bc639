//! Height Blend node (`height_blend`): `a + (b - a) × amount × mask` per sample (mask = 1 when
//! not connected).

use super::util::{input, put_f64, within};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, optional, pin};
use crate::error::{Diagnostics, Error, Result};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Parameters: `amount` (1, 0..=1).
#[derive(Debug, Clone, PartialEq)]
pub struct HeightBlend {
    /// Blend strength.
    pub amount: f64,
}

impl HeightBlend {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let amount = r.f64(d, "amount", 1.0, within(0.0, 1.0));
        r.finish(d);
        Self { amount }
    }
}

const INPUTS: &[PinSpec] = &[
    pin("a", PinKind::Heightfield),
    pin("b", PinKind::Heightfield),
    optional("mask", PinKind::Mask),
];
const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

/// Inputs of a modifier must share the recipe grid.
pub(crate) fn same_grid(fields: &[&crate::grid::Field<f32>]) -> Result<()> {
    let (w, h) = (fields[0].width(), fields[0].depth());
    if fields.iter().any(|f| f.width() != w || f.depth() != h) {
        return Err(Error::invalid(
            "inputs",
            "connected fields have different grids; all inputs of a modifier must share one grid",
        ));
    }
    Ok(())
}

impl NodeImpl for HeightBlend {
    fn type_id(&self) -> &'static str {
        "height_blend"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put_f64(&mut m, "amount", self.amount, Some(1.0));
        m
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let a = input(inputs, 0, "a")?;
        let b = input(inputs, 1, "b")?;
        let mask = inputs.get(2).copied().flatten().map(PinValue::field);
        let mut all = vec![a, b];
        all.extend(mask);
        same_grid(&all)?;
        let w = a.width();
        let amount = self.amount as f32;
        let (sa, sb) = (a.as_slice(), b.as_slice());
        let out = ctx.par_rows(|z, out| {
            let r = z * w..(z + 1) * w;
            for (i, o) in r.clone().zip(out.iter_mut()) {
                let m = mask.map_or(1.0, |m| m.as_slice()[i]);
                *o = sa[i] + (sb[i] - sa[i]) * (amount * m);
            }
        })?;
        Ok(vec![PinValue::Heightfield(Arc::new(out))].into())
    }
}
