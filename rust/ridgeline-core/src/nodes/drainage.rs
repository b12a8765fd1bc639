//! Drainage node (`drainage`): priority-flood drainage of a heightfield, with a Flow
//! accumulation mask. See `hydrology::drainage` for the algorithm.

use super::util::input;
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue, pin,
};
use crate::error::Result;
use crate::hydrology::Drainage;
use serde_json::json;
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "drainage",
    title: "Drainage",
    category: Category::Simulation,
    description: "Priority-flood drainage: receivers, flow accumulation and closed basins",
    icon: "drainage",
    inputs: &[pin("field", PinKind::Heightfield)],
    outputs: &[
        pin("drainage", PinKind::Drainage),
        pin("flow", PinKind::Mask),
    ],
    params: &[],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |_, _, _| Box::new(DrainageNode),
};

/// No parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct DrainageNode;

impl NodeImpl for DrainageNode {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        ctx.check_cancel()?;
        let d = Drainage::compute_cancellable(ctx.grid, field, &|| ctx.cancelled())?;
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
