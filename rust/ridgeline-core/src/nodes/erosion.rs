//! Erosion node (`erosion`): hydraulic droplet erosion plus thermal relaxation. See
//! `hydrology::erosion` for the model, determinism and the ledger.

use super::util::input;
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue,
    Quality, Read, optional, pin,
};
use crate::doc::params::{ParamSpec, Params, Range};
use crate::error::{Error, Result};
use crate::hydrology::erosion::{Budget, DEFAULT_PARAMS as DEF, ErosionParams, erode};
use crate::seed::sub_seed;
use serde_json::json;
use std::sync::Arc;

const UNIT: Range = Range::Within(0.0, 1.0);

/// The registry entry (defaults come from [`DEF`], the algorithm's own).
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "erosion",
    title: "Erosion",
    category: Category::Simulation,
    description: "Hydraulic droplet erosion plus thermal relaxation",
    icon: "erosion",
    inputs: &[
        pin("field", PinKind::Heightfield),
        optional("drainage", PinKind::Drainage),
    ],
    outputs: &[
        pin("heightfield", PinKind::Heightfield),
        pin("deposited", PinKind::Mask),
        pin("eroded", PinKind::Mask),
        pin("change", PinKind::Heightfield),
    ],
    params: &[&[
        ParamSpec::integer("iterations", DEF.iterations as i64, 0, 20_000_000)
            .doc("droplet count (0 skips hydraulic erosion); Preview runs 1/8"),
        ParamSpec::integer("droplet_lifetime", DEF.lifetime as i64, 1, 512)
            .doc("steps per droplet; Preview runs half"),
        ParamSpec::single("inertia", DEF.inertia as f64, UNIT)
            .doc("how much a droplet keeps its direction"),
        ParamSpec::single("capacity", DEF.capacity as f64, Range::PositiveUpTo(1000.0))
            .doc("sediment capacity factor"),
        ParamSpec::single("deposition", DEF.deposition as f64, UNIT)
            .doc("fraction of excess sediment deposited per step"),
        ParamSpec::single("erosion_rate", DEF.erosion_rate as f64, UNIT)
            .doc("fraction of free capacity eroded per step"),
        ParamSpec::single("evaporation", DEF.evaporation as f64, UNIT).doc("water lost per step"),
        ParamSpec::single(
            "min_slope",
            DEF.min_slope as f64,
            Range::NonNegativeUpTo(10.0),
        )
        .doc("smallest slope used for capacity (keeps flat ground erodible)"),
        ParamSpec::single("gravity", DEF.gravity as f64, Range::NonNegativeUpTo(100.0))
            .doc("acceleration along slopes"),
        ParamSpec::integer("brush_radius", DEF.brush_radius as i64, 1, 8)
            .unit("cells")
            .doc("erosion brush radius"),
        ParamSpec::single("thermal_strength", DEF.thermal_strength as f64, UNIT)
            .doc("fraction of the excess drop moved per thermal iteration"),
        ParamSpec::single(
            "talus_angle",
            DEF.talus_angle as f64,
            Range::Within(0.0, 89.0),
        )
        .unit("degrees")
        .doc("steeper neighbour drops relax"),
        ParamSpec::integer("thermal_iterations", DEF.thermal_iterations as i64, 0, 500)
            .doc("thermal iterations (Final only)"),
    ]],
    reads: &[Read::Seed, Read::Quality],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(Erosion {
            params: params_from(p),
        })
    },
};

fn params_from(p: &Params) -> ErosionParams {
    ErosionParams {
        iterations: p.integer("iterations") as u32,
        lifetime: p.integer("droplet_lifetime") as u32,
        inertia: p.single("inertia"),
        capacity: p.single("capacity"),
        deposition: p.single("deposition"),
        erosion_rate: p.single("erosion_rate"),
        evaporation: p.single("evaporation"),
        min_slope: p.single("min_slope"),
        gravity: p.single("gravity"),
        brush_radius: p.integer("brush_radius") as u32,
        thermal_strength: p.single("thermal_strength"),
        talus_angle: p.single("talus_angle"),
        thermal_iterations: p.integer("thermal_iterations") as u32,
    }
}

/// The erosion budget at `quality`: Final runs everything the parameters ask for; Preview runs
/// 1/8 of the droplets at half their lifetime and skips the thermal pass.
pub fn erosion_budget(params: &ErosionParams, quality: Quality) -> Budget {
    match quality {
        Quality::Final => Budget::full(params),
        Quality::Preview => Budget {
            droplets: params.iterations / 8,
            lifetime: (params.lifetime / 2).max(1),
            thermal_iterations: 0,
        },
    }
}

/// Parameters: see [`ErosionParams`] (defaults and ranges in `docs/nodes.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct Erosion {
    /// The parameters.
    pub params: ErosionParams,
}

impl NodeImpl for Erosion {
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
        let seed = sub_seed(ctx.seed()?, "erosion");
        let quality = ctx.quality()?;
        let e = erode(
            &ctx.grid,
            field,
            &self.params,
            erosion_budget(&self.params, quality),
            seed,
            ctx.cancel,
        )?;
        let l = e.ledger;
        let details = json!({
            "quality": if quality == Quality::Final { "final" } else { "preview" },
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
