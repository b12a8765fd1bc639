//! Drainage node (`drainage`): priority-flood drainage of a heightfield, with a Flow
//! accumulation mask. See `hydrology::drainage` for the algorithm.

use super::util::input;
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, pin};
use crate::error::{Diagnostics, Result};
use crate::hydrology::Drainage;
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// No parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct DrainageNode;

impl DrainageNode {
    /// Parses the node's (empty) params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        ObjectReader::new(path, params, d).finish(d);
        Self
    }
}

const INPUTS: &[PinSpec] = &[pin("field", PinKind::Heightfield)];
const OUTPUTS: &[PinSpec] = &[
    pin("drainage", PinKind::Drainage),
    pin("flow", PinKind::Mask),
];

impl NodeImpl for DrainageNode {
    fn type_id(&self) -> &'static str {
        "drainage"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        Map::new()
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        ctx.check_cancel()?;
        let d = Drainage::compute(ctx.grid, field);
        let flow = d.flow_mask();
        let details = json!({
            "basins": d.basins.iter().map(|b| json!({
                "sink": b.sink, "sink_height": b.sink_height, "spill_level": b.spill_level,
                "samples": b.samples, "max_depth": b.max_depth,
            })).collect::<Vec<_>>(),
        });
        Ok(Evaluated {
            values: vec![
                PinValue::Drainage(Arc::new(d)),
                PinValue::Mask(Arc::new(flow)),
            ],
            details: Some(details),
        })
    }
}
