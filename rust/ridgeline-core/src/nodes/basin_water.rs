//! Basin Water node (`basin_water`): proposes connected lakes at the measured spill levels of a
//! Drainage result's closed basins. Ids are `<node id>/basin/<sink x>_<sink z>`, so changing the
//! body budget never renumbers surviving lakes.

use super::util::{drainage_input, non_negative, put_f64, water_input};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, optional, pin};
use crate::error::{Diagnostics, Result};
use crate::hydrology::water::{Appearance, Footprint, WaterBody, WaterKind, WaterSet};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Parameters: `minimum_depth` (1), `minimum_area` (16 world units²), `maximum_bodies` (16),
/// `level_offset` (0; negative lowers proposals below the spill level).
#[derive(Debug, Clone, PartialEq)]
pub struct BasinWater {
    minimum_depth: f64,
    minimum_area: f64,
    maximum_bodies: u32,
    level_offset: f64,
}

impl BasinWater {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let s = Self {
            minimum_depth: r.f64(d, "minimum_depth", 1.0, non_negative),
            minimum_area: r.f64(d, "minimum_area", 16.0, non_negative),
            maximum_bodies: r.int(d, "maximum_bodies", 16, 0..=1024) as u32,
            level_offset: r.f64(d, "level_offset", 0.0, |x| {
                (x.abs() > 1e6).then(|| format!("must be within ±1000000, got {x}"))
            }),
        };
        r.finish(d);
        s
    }
}

const INPUTS: &[PinSpec] = &[
    pin("drainage", PinKind::Drainage),
    optional("water", PinKind::Water),
];
const OUTPUTS: &[PinSpec] = &[pin("water", PinKind::Water)];

impl NodeImpl for BasinWater {
    fn type_id(&self) -> &'static str {
        "basin_water"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put_f64(&mut m, "minimum_depth", self.minimum_depth, Some(1.0));
        put_f64(&mut m, "minimum_area", self.minimum_area, Some(16.0));
        if self.maximum_bodies != 16 {
            m.insert("maximum_bodies".into(), Value::from(self.maximum_bodies));
        }
        put_f64(&mut m, "level_offset", self.level_offset, Some(0.0));
        m
    }
    fn depends_on_node_id(&self) -> bool {
        true
    }
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
        let mut ids = Vec::new();
        for b in &eligible {
            let [sx, sz] = b.sink;
            let pos = ctx.grid.sample_position(sx as usize, sz as usize);
            let id = format!("{}/basin/{sx}_{sz}", ctx.node_id);
            let size = ctx.grid.size();
            set.add(
                WaterBody {
                    id: id.clone(),
                    kind: WaterKind::Lake,
                    level: (b.spill_level as f64 + self.level_offset) as f32,
                    footprint: Footprint::Lake {
                        center: pos,
                        radius: size[0].max(size[1]) * 2.0,
                        boundary: None,
                    },
                    flow_speed: 0.0,
                    flow_direction: [1.0, 0.0],
                    appearance: Appearance::default(),
                    wet_samples: 0,
                    warnings: Vec::new(),
                },
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
