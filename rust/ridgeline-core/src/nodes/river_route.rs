//! River Route node (`river_route`): routes a river down a Drainage result from a source point,
//! carving a channel and publishing a follow-bed river. The node id is the body id.

use super::util::{drainage_input, non_negative, positive, put_f64, water_input};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, optional, pin};
use crate::error::{Diagnostics, Error, Result};
use crate::hydrology::water::{
    Appearance, Footprint, WaterBody, WaterKind, WaterSet, carve_channel,
};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Parameters: `source_x`, `source_z` (64, 64; inside the field, snapped to the nearest
/// sample), `channel_width` (4), `channel_depth` (2), `water_depth` (1, ≤ channel depth),
/// `flow_speed` (0).
#[derive(Debug, Clone, PartialEq)]
pub struct RiverRoute {
    source: [f64; 2],
    channel_width: f64,
    channel_depth: f64,
    water_depth: f64,
    flow_speed: f64,
}

impl RiverRoute {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let s = Self {
            source: [
                r.f64(d, "source_x", 64.0, |_| None),
                r.f64(d, "source_z", 64.0, |_| None),
            ],
            channel_width: r.f64(d, "channel_width", 4.0, positive),
            channel_depth: r.f64(d, "channel_depth", 2.0, positive),
            water_depth: r.f64(d, "water_depth", 1.0, positive),
            flow_speed: r.f64(d, "flow_speed", 0.0, non_negative),
        };
        if s.water_depth > s.channel_depth {
            d.push(
                r.at("water_depth"),
                format!(
                    "must be ≤ channel_depth ({}), got {}",
                    s.channel_depth, s.water_depth
                ),
            );
        }
        r.finish(d);
        s
    }
}

const INPUTS: &[PinSpec] = &[
    pin("drainage", PinKind::Drainage),
    optional("water", PinKind::Water),
];
const OUTPUTS: &[PinSpec] = &[
    pin("field", PinKind::Heightfield),
    pin("water", PinKind::Water),
];

impl NodeImpl for RiverRoute {
    fn type_id(&self) -> &'static str {
        "river_route"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put_f64(&mut m, "source_x", self.source[0], Some(64.0));
        put_f64(&mut m, "source_z", self.source[1], Some(64.0));
        put_f64(&mut m, "channel_width", self.channel_width, Some(4.0));
        put_f64(&mut m, "channel_depth", self.channel_depth, Some(2.0));
        put_f64(&mut m, "water_depth", self.water_depth, Some(1.0));
        put_f64(&mut m, "flow_speed", self.flow_speed, Some(0.0));
        m
    }
    fn depends_on_node_id(&self) -> bool {
        true
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let dr = drainage_input(inputs, 0)?;
        let grid = ctx.grid;
        let [w, h] = grid.samples();
        let [sx, sz] = grid.size();
        if !(0.0..=sx as f64).contains(&self.source[0])
            || !(0.0..=sz as f64).contains(&self.source[1])
        {
            return Err(Error::invalid(
                "params.source_x",
                format!(
                    "the source ({}, {}) must lie inside the {sx}×{sz} field",
                    self.source[0], self.source[1]
                ),
            ));
        }
        let mut set = water_input(inputs, 1, &grid)?
            .cloned()
            .unwrap_or_else(|| WaterSet::empty(grid));
        let ground = dr.source.as_slice();
        let [dx, dz] = grid.spacing();
        let snap = |v: f64, s: f32, n: usize| ((v / s as f64).round() as usize).min(n - 1);
        let start = snap(self.source[1], dz, h) * w + snap(self.source[0], dx, w);
        let sea = ctx.recipe.sea_level() as f32;
        let unchanged = |msg: String, set: WaterSet| -> Result<Evaluated> {
            Ok(Evaluated {
                values: vec![
                    PinValue::Heightfield(Arc::new(dr.source.clone())),
                    PinValue::Water(Arc::new(set)),
                ],
                details: Some(json!({ "route_samples": 0, "end": "none", "diagnostic": msg })),
            })
        };
        if set.owner_at(start) != 0 {
            return unchanged(
                "the source is already wet; existing water is kept and no river is added".into(),
                set,
            );
        }
        // Follow receivers while the ground does not rise (triangle edges by construction).
        let mut route = vec![start];
        let mut end = "field edge".to_string();
        let mut joined: Option<(String, f32)> = None;
        let mut cur = start;
        loop {
            if ground[cur] <= sea {
                end = "sea level".into();
                joined = Some(("sea".into(), sea));
                break;
            }
            let r = dr.receiver[cur];
            if r == u32::MAX {
                break;
            }
            let r = r as usize;
            if set.owner_at(r) != 0 {
                let body = &set.bodies[set.owner_at(r) as usize - 1];
                end = format!("joins `{}`", body.id);
                joined = Some((body.id.clone(), set.surface[r]));
                route.push(r);
                break;
            }
            if ground[r] > ground[cur] {
                end = "closed basin (the drainage climbs out of a depression here); the route ends"
                    .into();
                break;
            }
            route.push(r);
            cur = r;
        }
        if route.len() < 2 {
            return unchanged(
                format!("the route is shorter than two samples ({end}); the field is unchanged"),
                set,
            );
        }
        // Bed: traced height − channel depth, never rising downstream; at a receiving surface a
        // constant floor keeps the river surface from dropping below it (a flat backwater).
        let floor = joined.as_ref().map(|(_, s)| s - self.water_depth as f32);
        let mut path = Vec::with_capacity(route.len());
        let mut bed = f32::INFINITY;
        for &i in &route {
            bed = bed.min(ground[i] - self.channel_depth as f32);
            let b = floor.map_or(bed, |f| bed.max(f));
            let [x, z] = grid.sample_position(i % w, i / w);
            path.push([x, b, z]);
        }
        let mut carved = dr.source.clone();
        carve_channel(&mut carved, &grid, &path, self.channel_width as f32);
        set.refresh(&carved);
        set.add(
            WaterBody {
                id: ctx.node_id.to_string(),
                kind: WaterKind::River,
                level: path[path.len() - 1][1] + self.water_depth as f32,
                footprint: Footprint::River {
                    path: path.clone(),
                    width: self.channel_width as f32,
                    follow_bed: Some(self.water_depth as f32),
                },
                flow_speed: self.flow_speed as f32,
                flow_direction: [1.0, 0.0],
                appearance: Appearance::default(),
                wet_samples: 0,
                warnings: Vec::new(),
            },
            &carved,
        );
        let details = json!({
            "route_samples": route.len(),
            "end": end,
            "joined": joined.map(|(id, _)| id),
            "warnings": set.bodies.last().map(|b| b.warnings.clone()),
        });
        Ok(Evaluated {
            values: vec![
                PinValue::Heightfield(Arc::new(carved)),
                PinValue::Water(Arc::new(set)),
            ],
            details: Some(details),
        })
    }
}
