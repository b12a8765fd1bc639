//! Flat terrain node (`flat_terrain`): a constant-height base.

use super::util::put_f64;
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, pin};
use crate::error::{Diagnostics, Result};
use crate::grid::Field;
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Parameters: `height` (default 0, within ±1000000).
#[derive(Debug, Clone, PartialEq)]
pub struct FlatTerrain {
    /// The constant height.
    pub height: f64,
}

impl FlatTerrain {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let height = r.f64(d, "height", 0.0, |x| {
            (x.abs() > 1.0e6).then(|| format!("must be within ±1000000, got {x}"))
        });
        r.finish(d);
        Self { height }
    }
}

const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

impl NodeImpl for FlatTerrain {
    fn type_id(&self) -> &'static str {
        "flat_terrain"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        &[]
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put_f64(&mut m, "height", self.height, Some(0.0));
        m
    }
    fn evaluate(&self, ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        let [w, h] = ctx.grid.samples();
        Ok(vec![PinValue::Heightfield(Arc::new(Field::filled(
            w,
            h,
            self.height as f32,
        )))]
        .into())
    }
}
