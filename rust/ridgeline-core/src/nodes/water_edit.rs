//! Water Edit node (`water_edit`): removes bodies by id and patches others, resolving coverage
//! on its input terrain without carving again.

use super::util::{check_river_work, input};
use super::water_body::{INTERPOLATION, river_path_spec};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue, pin,
};
use crate::doc::params::{Initial, ParamSpec, ParamType, Params, Range};
use crate::doc::reader::member;
use crate::error::{Diagnostics, Error, Result};
use crate::hydrology::water::{Footprint, WaterSet};
use std::sync::Arc;

/// Fields of one override.
const OVERRIDE: &[ParamSpec] = &[
    ParamSpec::of("id", ParamType::String, Initial::Unset)
        .required()
        .doc("the body to patch"),
    ParamSpec::number("level", 0.0, Range::Any)
        .unset()
        .unit("m")
        .doc("new water level (absent: kept)"),
    ParamSpec::number("flow_speed", 0.0, Range::NonNegative)
        .unset()
        .unit("m/s")
        .doc("new flow speed (absent: kept)"),
    ParamSpec::of("flow_direction", ParamType::Point, Initial::Unset)
        .doc("new flow direction [x, z] (absent: kept)"),
    river_path_spec(),
    INTERPOLATION[0],
    INTERPOLATION[1],
];

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "water_edit",
    title: "Water Edit",
    category: Category::Water,
    description: "Removes water bodies by id and patches others",
    icon: "water_edit",
    inputs: &[
        pin("field", PinKind::Heightfield),
        pin("water", PinKind::Water),
    ],
    outputs: &[pin("water", PinKind::Water)],
    params: &[&[
        ParamSpec::of("excluded_ids", ParamType::IdList, Initial::Empty)
            .doc("bodies to remove"),
        ParamSpec::of("overrides", ParamType::Records(OVERRIDE), Initial::Empty).doc(
            "patches by body id (omitted fields are kept; interpolation needs a replacement river_path)",
        ),
    ]],
    reads: &[],
    canonical: Canonical::AsAuthored,
    build: |p, path, d| Box::new(WaterEdit::build(p, path, d)),
};

/// One override: the body id and the fields to patch (omitted fields are kept).
#[derive(Debug, Clone, PartialEq)]
struct Override {
    id: String,
    level: Option<f32>,
    flow_speed: Option<f32>,
    flow_direction: Option<[f32; 2]>,
    river_path: Option<Vec<[f32; 3]>>,
    /// Catmull-Rom steps when the replacement path is interpolated.
    catmull_rom_steps: Option<u32>,
}

/// Parameters: `excluded_ids` (array of body ids), `overrides` (array of `{ "id", "level",
/// "flow_speed", "flow_direction", "river_path" }`; interpolation settings are accepted only
/// with an explicit replacement `river_path`).
#[derive(Debug, Clone, PartialEq)]
pub struct WaterEdit {
    excluded: Vec<String>,
    overrides: Vec<Override>,
}

impl WaterEdit {
    fn build(p: &Params, path: &str, d: &mut Diagnostics) -> Self {
        let excluded = p.ids("excluded_ids").to_vec();
        let mut overrides: Vec<Override> = Vec::new();
        for (i, o) in p.records("overrides").iter().enumerate() {
            let at = crate::doc::reader::index(&member(path, "overrides"), i);
            let id = o.text("id").unwrap_or_default().to_string();
            if id.is_empty() {
                if o.present("id") {
                    d.push(member(&at, "id"), "is required");
                }
            } else if overrides.iter().any(|x| x.id == id) {
                d.push(member(&at, "id"), format!("duplicate override for `{id}`"));
            } else if excluded.contains(&id) {
                d.push(
                    member(&at, "id"),
                    format!("`{id}` is both excluded and overridden"),
                );
            }
            let river_path = o
                .present("river_path")
                .then(|| o.points3("river_path").unwrap_or_default())
                .map(|pts| pts.iter().map(|q| q.map(|x| x as f32)).collect::<Vec<_>>());
            for key in ["river_path_interpolation", "river_curve_steps"] {
                if o.present(key) && river_path.is_none() {
                    d.push(member(&at, key), "interpolation settings need an explicit replacement `river_path` in the same override");
                }
            }
            let catmull_rom_steps = (o.text("river_path_interpolation") == Some("catmull_rom"))
                .then(|| o.integer("river_curve_steps") as u32);
            overrides.push(Override {
                id,
                level: o.present("level").then(|| o.single("level")),
                flow_speed: o.present("flow_speed").then(|| o.single("flow_speed")),
                flow_direction: o
                    .present("flow_direction")
                    .then(|| o.point("flow_direction").map(|x| x as f32)),
                river_path,
                catmull_rom_steps,
            });
        }
        Self {
            excluded,
            overrides,
        }
    }
}

impl NodeImpl for WaterEdit {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let water = inputs
            .get(1)
            .copied()
            .flatten()
            .and_then(PinValue::water)
            .ok_or_else(|| Error::invalid("inputs.water", "input is not connected"))?;
        if water.grid.samples() != ctx.grid.samples() {
            return Err(Error::invalid(
                "inputs.water",
                "connected water must match the field's grid",
            ));
        }
        let known: Vec<&str> = water.bodies.iter().map(|b| b.id.as_str()).collect();
        let mut d = Diagnostics::default();
        for id in self
            .excluded
            .iter()
            .chain(self.overrides.iter().map(|o| &o.id))
        {
            if !known.contains(&id.as_str()) {
                d.push(
                    "params",
                    format!("unknown water body id `{id}`; known: {}", known.join(", ")),
                );
            }
        }
        d.into_result()?;
        let mut out = WaterSet::empty(ctx.grid);
        for body in &water.bodies {
            if self.excluded.contains(&body.id) {
                continue;
            }
            let mut b = body.clone();
            if let Some(o) = self.overrides.iter().find(|o| o.id == b.id) {
                if let Some(l) = o.level {
                    b.level = l;
                }
                if let Some(s) = o.flow_speed {
                    b.flow_speed = s;
                }
                if let Some(dir) = o.flow_direction {
                    b.flow_direction = dir;
                }
                if let (Some(p), Footprint::River { path, width, .. }) =
                    (&o.river_path, &mut b.footprint)
                {
                    *path = match o.catmull_rom_steps {
                        Some(steps) => super::water_body::catmull_rom(p, steps),
                        None => p.clone(),
                    };
                    check_river_work(&ctx.grid, path, *width, "params.overrides")?;
                }
            }
            ctx.check_cancel()?;
            out.add_cancellable(b, field, &|| ctx.cancelled())?;
        }
        Ok(vec![PinValue::Water(Arc::new(out))].into())
    }
}
