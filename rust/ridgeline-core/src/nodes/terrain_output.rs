//! Terrain Output node (`terrain_output`): publishes the connected heightfield, and optional
//! water and instances, as the graph's result. The recipe's `graph.output` names it.

use super::util::input;
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue,
    optional, pin,
};
use crate::error::Result;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "terrain_output",
    title: "Terrain Output",
    category: Category::Output,
    description: "Publishes a heightfield and optional water and instances",
    icon: "output",
    inputs: &[
        pin("heightfield", PinKind::Heightfield),
        optional("water", PinKind::Water),
        optional("instances", PinKind::Instances),
    ],
    outputs: &[
        pin("heightfield", PinKind::Heightfield),
        pin("water", PinKind::Water),
        pin("instances", PinKind::Instances),
    ],
    params: &[],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |_, _, _| Box::new(TerrainOutput),
};

/// No parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainOutput;

impl NodeImpl for TerrainOutput {
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
        let instances = match inputs
            .get(2)
            .copied()
            .flatten()
            .and_then(PinValue::instances)
        {
            Some(s) => s.clone(),
            None => std::sync::Arc::new(crate::scatter::Scatter::default()),
        };
        out.push(PinValue::Instances(instances));
        Ok(out.into())
    }
}
