//! Noise terrain node (`noise_terrain`): a seeded noise heightfield with the landform controls
//! inline, plus `seed_offset` to decorrelate several noise sources.

use super::util::shape_field;
use super::{
    Canonical, Category, CheckContext, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind,
    PinSpec, PinValue, Read, pin,
};
use crate::doc::params::{Initial, ParamSpec, ParamType, Range};
use crate::error::{Diagnostics, Result};
use crate::landform::{SHAPE_PARAMS, check_domain, shape_from};
use crate::noise::{ShapeParams, ShapeSeeds};
use crate::seed::{splitmix64, sub_seed};
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "noise_terrain",
    title: "Noise Terrain",
    category: Category::Generator,
    description: "A seeded noise heightfield with inline landform controls",
    icon: "noise",
    inputs: &[],
    outputs: OUTPUTS,
    params: &[
        SHAPE_PARAMS,
        &[ParamSpec {
            range: Range::Any,
            ..ParamSpec::of("seed_offset", ParamType::Integer, Initial::Integer(0))
        }
        .doc("mixed into the landform sub-seed to decorrelate noise sources")],
    ],
    reads: &[Read::Seed],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(NoiseTerrain {
            shape: shape_from(p),
            seed_offset: p.unsigned("seed_offset"),
        })
    },
};

const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

/// Parameters: the landform shape controls and `seed_offset` (integer, default 0).
#[derive(Debug, Clone, PartialEq)]
pub struct NoiseTerrain {
    /// Shape controls.
    pub shape: ShapeParams,
    /// Mixed into the landform sub-seed.
    pub seed_offset: u64,
}

impl NodeImpl for NoiseTerrain {
    fn check(&self, ctx: &CheckContext, path: &str, d: &mut Diagnostics) {
        check_domain(&self.shape, ctx.size, path, d);
    }
    fn evaluate(&self, ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        let seed = ctx.seed()?;
        let seeds = ShapeSeeds {
            landform: splitmix64(sub_seed(seed, "landform") ^ self.seed_offset),
            warp: splitmix64(sub_seed(seed, "landform_warp") ^ self.seed_offset),
        };
        let field = shape_field(ctx, &self.shape, seeds)?;
        Ok(vec![PinValue::Heightfield(Arc::new(field))].into())
    }
}
