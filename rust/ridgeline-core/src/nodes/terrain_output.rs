//! Terrain Output node (`terrain_output`): publishes the connected heightfield, and optional
//! water and instances, as the graph's result. The recipe's `graph.output` names it.

use super::util::input;
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, optional, pin};
use crate::error::{Diagnostics, Result};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};

/// No parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainOutput;

impl TerrainOutput {
    /// Parses the node's (empty) params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        ObjectReader::new(path, params, d).finish(d);
        Self
    }
}

const INPUTS: &[PinSpec] = &[
    pin("heightfield", PinKind::Heightfield),
    optional("water", PinKind::Water),
    optional("instances", PinKind::Instances),
];
const OUTPUTS: &[PinSpec] = &[
    pin("heightfield", PinKind::Heightfield),
    pin("water", PinKind::Water),
];

impl NodeImpl for TerrainOutput {
    fn type_id(&self) -> &'static str {
        "terrain_output"
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
        let field = input(inputs, 0, "heightfield")?;
        // Pass the heightfield through (shares the same buffer).
        let mut out: Vec<PinValue> = inputs[0].cloned().into_iter().collect();
        // Water is refreshed on the published ground: if nodes after the water changed it,
        // coverage follows without carving again.
        let water = match inputs.get(1).copied().flatten().and_then(PinValue::water) {
            Some(w) => {
                if w.grid.samples() != ctx.grid.samples() {
                    return Err(crate::error::Error::invalid(
                        "inputs.water",
                        "connected water must match the output terrain grid",
                    ));
                }
                let mut w = w.clone();
                w.refresh(field);
                w
            }
            None => crate::hydrology::water::WaterSet::empty(ctx.grid),
        };
        out.push(PinValue::Water(std::sync::Arc::new(water)));
        Ok(out.into())
    }
}
