//! Noise terrain node (`noise_terrain`): a seeded noise heightfield with the landform controls
//! inline, plus `seed_offset` to decorrelate several noise sources.

use super::shape_params::{check_domain, parse_shape, shape_field, shape_json};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, pin};
use crate::error::{Diagnostics, Result};
use crate::noise::{ShapeParams, ShapeSeeds};
use crate::recipe::Recipe;
use crate::recipe::reader::ObjectReader;
use crate::seed::{splitmix64, sub_seed};
use serde_json::{Map, Value};
use std::sync::Arc;

/// Parameters: the landform shape controls and `seed_offset` (integer, default 0).
#[derive(Debug, Clone, PartialEq)]
pub struct NoiseTerrain {
    /// Shape controls.
    pub shape: ShapeParams,
    /// Mixed into the landform sub-seed.
    pub seed_offset: u64,
}

impl NoiseTerrain {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let shape = parse_shape(&mut r, d);
        let seed_offset = r.u64(d, "seed_offset", 0);
        r.finish(d);
        Self { shape, seed_offset }
    }
}

const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

impl NodeImpl for NoiseTerrain {
    fn type_id(&self) -> &'static str {
        "noise_terrain"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        &[]
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        shape_json(&self.shape, &mut m);
        if self.seed_offset != 0 {
            m.insert("seed_offset".into(), Value::from(self.seed_offset));
        }
        m
    }
    fn check(&self, recipe: &Recipe, path: &str, d: &mut Diagnostics) {
        check_domain(&self.shape, recipe.size_f32(), path, d);
    }
    fn evaluate(&self, ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        let seed = ctx.recipe.seed;
        let seeds = ShapeSeeds {
            landform: splitmix64(sub_seed(seed, "landform") ^ self.seed_offset),
            warp: splitmix64(sub_seed(seed, "landform_warp") ^ self.seed_offset),
        };
        let field = shape_field(ctx, &self.shape, seeds)?;
        Ok(vec![PinValue::Heightfield(Arc::new(field))].into())
    }
}
