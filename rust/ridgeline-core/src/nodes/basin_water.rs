//! Basin Water node (`basin_water`): proposes connected lakes at the measured spill levels of a
//! Drainage result's closed basins. Ids are `<node id>/basin/<sink x>_<sink z>`, so changing the
//! body budget never renumbers surviving lakes.

use super::util::{drainage_input, water_input};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue,
    Read, optional, pin,
};
use crate::doc::params::{ParamSpec, Range};
use crate::error::Result;
use crate::hydrology::water::{WaterBody, WaterSet};
use serde_json::json;
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "basin_water",
    title: "Basin Water",
    category: Category::Water,
    description: "Proposes lakes at the spill levels of a drainage result's closed basins",
    icon: "lake",
    inputs: &[
        pin("drainage", PinKind::Drainage),
        optional("water", PinKind::Water),
    ],
    outputs: &[pin("water", PinKind::Water)],
    params: &[&[
        ParamSpec::number("minimum_depth", 1.0, Range::NonNegative)
            .unit("m")
            .doc("shallowest basin that becomes a lake"),
        ParamSpec::number("minimum_area", 16.0, Range::NonNegative)
            .unit("m²")
            .doc("smallest basin area that becomes a lake"),
        ParamSpec::integer("maximum_bodies", 16, 0, 1024)
            .doc("most lakes proposed (deepest first)"),
        ParamSpec::number("level_offset", 0.0, Range::Magnitude(1e6))
            .unit("m")
            .doc("added to each spill level (negative lowers proposals)"),
    ]],
    // Body ids start with the node id.
    reads: &[Read::NodeId],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(BasinWater {
            minimum_depth: p.number("minimum_depth"),
            minimum_area: p.number("minimum_area"),
            maximum_bodies: p.integer("maximum_bodies") as u32,
            level_offset: p.number("level_offset"),
        })
    },
};

/// Parameters: `minimum_depth` (1), `minimum_area` (16 world units²), `maximum_bodies` (16),
/// `level_offset` (0; negative lowers proposals below the spill level).
#[derive(Debug, Clone, PartialEq)]
pub struct BasinWater {
    minimum_depth: f64,
    minimum_area: f64,
    maximum_bodies: u32,
    level_offset: f64,
}

impl NodeImpl for BasinWater {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let drainage = drainage_input(inputs, 0)?;
        let [dx, dz] = ctx.grid.spacing();
        let cell_area = (dx * dz) as f64;
        let mut eligible: Vec<_> = drainage
            .basins
            .iter()
            .filter(|b| {
                b.max_depth as f64 >= self.minimum_depth
                    && b.samples as f64 * cell_area >= self.minimum_area
            })
            .collect();
        // Deepest first, ties by sink position, so the budget keeps the most significant lakes.
        eligible.sort_by(|a, b| {
            b.max_depth
                .total_cmp(&a.max_depth)
                .then(a.sink.cmp(&b.sink))
        });
        let eligible_count = eligible.len();
        let truncated = eligible_count > self.maximum_bodies as usize;
        eligible.truncate(self.maximum_bodies as usize);
        eligible.sort_by_key(|b| (b.sink[1], b.sink[0]));
        let mut set = water_input(inputs, 1, &ctx.grid)?
            .cloned()
            .unwrap_or_else(|| WaterSet::empty(ctx.grid));
        let node_id = ctx.node_id()?;
        let mut ids = Vec::new();
        for b in &eligible {
            let [sx, sz] = b.sink;
            let pos = ctx.grid.sample_position(sx as usize, sz as usize);
            let id = format!("{node_id}/basin/{sx}_{sz}");
            let size = ctx.grid.size();
            set.add(
                WaterBody::still_lake(
                    id.clone(),
                    (b.spill_level as f64 + self.level_offset) as f32,
                    pos,
                    size[0].max(size[1]) * 2.0,
                ),
                &drainage.source,
            );
            ids.push(id);
        }
        let details =
            json!({ "proposed": ids, "truncated": truncated, "eligible": eligible_count });
        Ok(Evaluated {
            values: vec![PinValue::Water(Arc::new(set))],
            details: Some(details),
        })
    }
}
