//! Water Edit node (`water_edit`): removes bodies by id and patches others, resolving coverage
//! on its input terrain without carving again.

use super::util::input;
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, pin};
use crate::error::{Diagnostics, Error, Result};
use crate::hydrology::water::{Footprint, WaterSet};
use crate::recipe::reader::{ObjectReader, index, read_numbers, type_name};
use serde_json::{Map, Value};
use std::sync::Arc;

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
    params: Map<String, Value>,
}

impl WaterEdit {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let mut excluded = Vec::new();
        if let Some(v) = r.raw("excluded_ids") {
            match v.as_array() {
                Some(a) => {
                    for (i, x) in a.iter().enumerate() {
                        match x.as_str() {
                            Some(s) => excluded.push(s.to_string()),
                            None => d.push(
                                index(&r.at("excluded_ids"), i),
                                format!("must be a body id string, got {}", type_name(x)),
                            ),
                        }
                    }
                }
                None => d.push(
                    r.at("excluded_ids"),
                    format!("must be an array of ids, got {}", type_name(v)),
                ),
            }
        }
        let mut overrides: Vec<Override> = Vec::new();
        if let Some(v) = r.raw("overrides") {
            match v.as_array() {
                Some(a) => {
                    for (i, item) in a.iter().enumerate() {
                        let p = index(&r.at("overrides"), i);
                        let mut o = ObjectReader::new(&p, item, d);
                        let id = o.opt_str(d, "id").unwrap_or_default();
                        if id.is_empty() {
                            d.push(o.at("id"), "is required");
                        } else if overrides.iter().any(|x| x.id == id) {
                            d.push(o.at("id"), format!("duplicate override for `{id}`"));
                        } else if excluded.contains(&id) {
                            d.push(
                                o.at("id"),
                                format!("`{id}` is both excluded and overridden"),
                            );
                        }
                        let level = o
                            .has("level")
                            .then(|| o.f64(d, "level", 0.0, |_| None) as f32);
                        let flow_speed = o
                            .has("flow_speed")
                            .then(|| o.f64(d, "flow_speed", 0.0, super::util::non_negative) as f32);
                        let flow_direction = o.has("flow_direction").then(|| {
                            o.numbers::<2>(d, "flow_direction", [1.0, 0.0])
                                .map(|x| x as f32)
                        });
                        let river_path = o.raw("river_path").map(|v| match v.as_array() {
                            Some(items) => items
                                .iter()
                                .enumerate()
                                .filter_map(|(k, it)| {
                                    read_numbers::<3>(&index(&format!("{p}.river_path"), k), it, d)
                                        .map(|q| q.map(|x| x as f32))
                                })
                                .collect(),
                            None => {
                                d.push(format!("{p}.river_path"), "must be an array of [x, y, z]");
                                Vec::new()
                            }
                        });
                        for key in ["river_path_interpolation", "river_curve_steps"] {
                            if o.has(key) && river_path.is_none() {
                                d.push(o.at(key), "interpolation settings need an explicit replacement `river_path` in the same override");
                            }
                        }
                        let steps = o.int(d, "river_curve_steps", 8, 1..=64) as u32;
                        let catmull_rom_steps =
                            match o.opt_str(d, "river_path_interpolation").as_deref() {
                                None | Some("linear") => None,
                                Some("catmull_rom") => Some(steps),
                                Some(other) => {
                                    d.push(
                                        o.at("river_path_interpolation"),
                                        format!(
                                            "must be \"linear\" or \"catmull_rom\", got \"{other}\""
                                        ),
                                    );
                                    None
                                }
                            };
                        if let Some(p) = &river_path
                            && p.len() < 2
                        {
                            d.push(o.at("river_path"), "needs at least 2 [x, y, z] points");
                        }
                        o.finish(d);
                        overrides.push(Override {
                            id,
                            level,
                            flow_speed,
                            flow_direction,
                            river_path,
                            catmull_rom_steps,
                        });
                    }
                }
                None => d.push(
                    r.at("overrides"),
                    format!("must be an array, got {}", type_name(v)),
                ),
            }
        }
        r.finish(d);
        Self {
            excluded,
            overrides,
            params: params.as_object().cloned().unwrap_or_default(),
        }
    }
}

const INPUTS: &[PinSpec] = &[
    pin("field", PinKind::Heightfield),
    pin("water", PinKind::Water),
];
const OUTPUTS: &[PinSpec] = &[pin("water", PinKind::Water)];

impl NodeImpl for WaterEdit {
    fn type_id(&self) -> &'static str {
        "water_edit"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        self.params.clone()
    }
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
                if let (Some(p), Footprint::River { path, .. }) = (&o.river_path, &mut b.footprint)
                {
                    *path = match o.catmull_rom_steps {
                        Some(steps) => super::water_body::catmull_rom(p, steps),
                        None => p.clone(),
                    };
                }
            }
            out.add(b, field);
        }
        Ok(vec![PinValue::Water(Arc::new(out))].into())
    }
}
