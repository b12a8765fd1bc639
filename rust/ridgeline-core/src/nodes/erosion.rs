//! Erosion node (`erosion`): hydraulic droplet erosion plus thermal relaxation. See
//! `hydrology::erosion` for the model, determinism and the ledger.

use super::util::{input, non_negative, positive, put_f64, within};
use super::{
    EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, Quality, optional, pin,
};
use crate::error::{Diagnostics, Error, Result};
use crate::hydrology::erosion::{ErosionParams, erode};
use crate::recipe::reader::ObjectReader;
use crate::seed::sub_seed;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Parameters: see [`ErosionParams`] (defaults and ranges in `docs/nodes.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct Erosion {
    /// The parameters.
    pub params: ErosionParams,
}

impl Erosion {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let def = ErosionParams::default();
        let mut r = ObjectReader::new(path, params, d);
        let p = ErosionParams {
            iterations: r.int(d, "iterations", def.iterations as i64, 0..=20_000_000) as u32,
            lifetime: r.int(d, "droplet_lifetime", def.lifetime as i64, 1..=512) as u32,
            inertia: r.f64(d, "inertia", def.inertia as f64, within(0.0, 1.0)) as f32,
            capacity: r.f64(d, "capacity", def.capacity as f64, |x| {
                positive(x).or_else(|| within(0.0, 1000.0)(x))
            }) as f32,
            deposition: r.f64(d, "deposition", def.deposition as f64, within(0.0, 1.0)) as f32,
            erosion_rate: r.f64(d, "erosion_rate", def.erosion_rate as f64, within(0.0, 1.0))
                as f32,
            evaporation: r.f64(d, "evaporation", def.evaporation as f64, within(0.0, 1.0)) as f32,
            min_slope: r.f64(d, "min_slope", def.min_slope as f64, |x| {
                non_negative(x).or_else(|| within(0.0, 10.0)(x))
            }) as f32,
            gravity: r.f64(d, "gravity", def.gravity as f64, |x| {
                non_negative(x).or_else(|| within(0.0, 100.0)(x))
            }) as f32,
            brush_radius: r.int(d, "brush_radius", def.brush_radius as i64, 1..=8) as u32,
            thermal_strength: r.f64(
                d,
                "thermal_strength",
                def.thermal_strength as f64,
                within(0.0, 1.0),
            ) as f32,
            talus_angle: r.f64(d, "talus_angle", def.talus_angle as f64, within(0.0, 89.0)) as f32,
            thermal_iterations: r.int(
                d,
                "thermal_iterations",
                def.thermal_iterations as i64,
                0..=500,
            ) as u32,
        };
        r.finish(d);
        Self { params: p }
    }
}

const INPUTS: &[PinSpec] = &[
    pin("field", PinKind::Heightfield),
    optional("drainage", PinKind::Drainage),
];
const OUTPUTS: &[PinSpec] = &[
    pin("heightfield", PinKind::Heightfield),
    pin("deposited", PinKind::Mask),
    pin("eroded", PinKind::Mask),
    pin("change", PinKind::Heightfield),
];

impl NodeImpl for Erosion {
    fn type_id(&self) -> &'static str {
        "erosion"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let (p, def) = (&self.params, ErosionParams::default());
        let mut m = Map::new();
        let int = |m: &mut Map<String, Value>, k: &str, v: u32, d: u32| {
            if v != d {
                m.insert(k.into(), Value::from(v));
            }
        };
        int(&mut m, "iterations", p.iterations, def.iterations);
        int(&mut m, "droplet_lifetime", p.lifetime, def.lifetime);
        put_f64(
            &mut m,
            "inertia",
            p.inertia as f64,
            Some(def.inertia as f64),
        );
        put_f64(
            &mut m,
            "capacity",
            p.capacity as f64,
            Some(def.capacity as f64),
        );
        put_f64(
            &mut m,
            "deposition",
            p.deposition as f64,
            Some(def.deposition as f64),
        );
        put_f64(
            &mut m,
            "erosion_rate",
            p.erosion_rate as f64,
            Some(def.erosion_rate as f64),
        );
        put_f64(
            &mut m,
            "evaporation",
            p.evaporation as f64,
            Some(def.evaporation as f64),
        );
        put_f64(
            &mut m,
            "min_slope",
            p.min_slope as f64,
            Some(def.min_slope as f64),
        );
        put_f64(
            &mut m,
            "gravity",
            p.gravity as f64,
            Some(def.gravity as f64),
        );
        int(&mut m, "brush_radius", p.brush_radius, def.brush_radius);
        put_f64(
            &mut m,
            "thermal_strength",
            p.thermal_strength as f64,
            Some(def.thermal_strength as f64),
        );
        put_f64(
            &mut m,
            "talus_angle",
            p.talus_angle as f64,
            Some(def.talus_angle as f64),
        );
        int(
            &mut m,
            "thermal_iterations",
            p.thermal_iterations,
            def.thermal_iterations,
        );
        m
    }
    fn depends_on_quality(&self) -> bool {
        true
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        if let Some(d) = inputs
            .get(1)
            .copied()
            .flatten()
            .and_then(PinValue::drainage)
            && (d.source.width() != field.width() || d.source.depth() != field.depth())
        {
            return Err(Error::invalid(
                "inputs.drainage",
                "the connected drainage was computed on a different grid than `field`",
            ));
        }
        let seed = sub_seed(ctx.recipe.seed, "erosion");
        let e = erode(
            &ctx.grid,
            field,
            &self.params,
            ctx.quality,
            seed,
            ctx.cancel,
        )?;
        let l = e.ledger;
        let details = json!({
            "quality": if ctx.quality == Quality::Final { "final" } else { "preview" },
            "ledger": { "eroded": l.eroded, "deposited": l.deposited, "exported": l.exported, "suspended": l.suspended },
        });
        Ok(Evaluated {
            values: vec![
                PinValue::Heightfield(Arc::new(e.heights)),
                PinValue::Mask(Arc::new(e.deposited_mask)),
                PinValue::Mask(Arc::new(e.eroded_mask)),
                PinValue::Heightfield(Arc::new(e.change)),
            ],
            details: Some(details),
        })
    }
}
