//! River Route node (`river_route`): routes a river down a Drainage result from a source point,
//! carving a channel and publishing a follow-bed river. The node id is the body id.

use super::util::{drainage_input, water_input};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue,
    Read, optional, pin,
};
use crate::doc::params::{ParamSpec, Range};
use crate::doc::reader::member;
use crate::error::{Error, Result};
use crate::hydrology::water::{WaterBody, WaterSet, carve_channel};
use serde_json::json;
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "river_route",
    title: "River Route",
    category: Category::Water,
    description: "Routes a river down a drainage result from a source point and carves it",
    icon: "river",
    inputs: &[
        pin("drainage", PinKind::Drainage),
        optional("water", PinKind::Water),
    ],
    outputs: &[
        pin("field", PinKind::Heightfield),
        pin("water", PinKind::Water),
    ],
    params: &[&[
        ParamSpec::number("source_x", 64.0, Range::Any)
            .unit("m")
            .doc("source X, inside the field (snapped to the nearest sample)"),
        ParamSpec::number("source_z", 64.0, Range::Any)
            .unit("m")
            .doc("source Z, inside the field (snapped to the nearest sample)"),
        ParamSpec::number("channel_width", 4.0, Range::Positive)
            .unit("m")
            .doc("carved channel width"),
        ParamSpec::number("channel_depth", 2.0, Range::Positive)
            .unit("m")
            .doc("channel depth below the traced ground"),
        ParamSpec::number("water_depth", 1.0, Range::Positive)
            .unit("m")
            .doc("water depth above the bed (≤ channel_depth)"),
        ParamSpec::number("flow_speed", 0.0, Range::NonNegative)
            .unit("m/s")
            .doc("prescribed flow speed along the route"),
    ]],
    // The sea level (where a route ends) comes from the landforms; the body id is the node id.
    reads: &[Read::Landforms, Read::NodeId],
    canonical: Canonical::OmitDefaults,
    build: |p, path, d| {
        let s = RiverRoute {
            source: [p.number("source_x"), p.number("source_z")],
            channel_width: p.number("channel_width"),
            channel_depth: p.number("channel_depth"),
            water_depth: p.number("water_depth"),
            flow_speed: p.number("flow_speed"),
        };
        if s.water_depth > s.channel_depth {
            d.push(
                member(path, "water_depth"),
                format!(
                    "must be ≤ channel_depth ({}), got {}",
                    s.channel_depth, s.water_depth
                ),
            );
        }
        Box::new(s)
    },
};

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

impl NodeImpl for RiverRoute {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let dr = drainage_input(inputs, 0)?;
        let grid = ctx.grid;
        let [w, h] = grid.samples();
        let [sx, sz] = grid.size();
        let outside_x = !(0.0..=sx as f64).contains(&self.source[0]);
        if outside_x || !(0.0..=sz as f64).contains(&self.source[1]) {
            return Err(Error::invalid(
                if outside_x {
                    "params.source_x"
                } else {
                    "params.source_z"
                },
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
        let sea = ctx.landforms()?.sea_level() as f32;
        let body_id = ctx.node_id()?;
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
        super::util::check_river_work(&grid, &path, self.channel_width as f32, "params")?;
        ctx.check_cancel()?;
        let cancelled = || ctx.cancelled();
        let mut carved = dr.source.clone();
        carve_channel(
            &mut carved,
            &grid,
            &path,
            self.channel_width as f32,
            &cancelled,
        )?;
        set.refresh_cancellable(&carved, &cancelled)?;
        set.add_cancellable(
            WaterBody::follow_bed_river(
                body_id,
                path.clone(),
                self.channel_width as f32,
                self.water_depth as f32,
                self.flow_speed as f32,
            ),
            &carved,
            &cancelled,
        )?;
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
