//! Biome Rules node (`biome_rules`): a biome and a surface role for every sample of the
//! connected field, from the recipe's biome table and rules (see `biome::rules` for the rule
//! semantics and `biome::roles` for the roles).
//!
//! The output is the same heights, carrying the resolved biome ids, roles and (when drainage
//! is connected and `use_flow` is on) the flow accumulation that raised moisture. When the
//! graph publishes this field (through Terrain Output, with no height change after it), the
//! recipe's rules assign the terrain's biomes; otherwise the terrain gets its default biome and
//! painted regions. Connected water replaces the inferred sea for wet substrate and water
//! distance here; without it the sea below the recipe's sea level, connected to the border,
//! is used. A connected `erosion` field (an Erosion node's signed `change`: + deposition,
//! − removal) drives the transport roles: a cut of `cut_depth` or more exposes rock, a deposit
//! of `deposit_depth` or more on gentle ground lays sediment. Where a Height Blend mixes eroded
//! and uneroded ground, its `change` output (the erosion change connected to its `b_change` or
//! `a_change`, weighted with the blend's amount and mask) is the transport to connect here.

use super::util::{input, optional_input};
use super::{
    Canonical, Category, ClassifiedField, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec,
    PinKind, PinValue, Read, optional, pin,
};
use crate::biome::{Role, SurfaceInput, SurfaceParams};
use crate::doc::params::{Initial, ParamSpec, ParamType};
use crate::error::{Error, Result};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "biome_rules",
    title: "Biome Rules",
    category: Category::Appearance,
    description: "Assigns every sample a biome (the recipe's rules: slope, moisture, water distance, elevation, substrate; painted regions win) and a surface role",
    icon: "biome",
    inputs: &[
        pin("field", PinKind::Heightfield),
        optional("water", PinKind::Water),
        optional("drainage", PinKind::Drainage),
        optional("erosion", PinKind::Heightfield),
    ],
    outputs: &[pin("field", PinKind::Heightfield)],
    params: &[&[ParamSpec::of("use_flow", ParamType::Bool, Initial::Bool(true)).doc(
        "connected drainage raises moisture along flow paths and marks stream beds (wet substrate, sediment)",
    )]],
    reads: &[Read::Seed, Read::Landforms, Read::Biomes],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(BiomeRules {
            use_flow: p.flag("use_flow"),
        })
    },
};

/// Parameters: `use_flow` (true).
#[derive(Debug, Clone, PartialEq)]
pub struct BiomeRules {
    /// Read connected drainage's flow accumulation.
    pub use_flow: bool,
}

impl NodeImpl for BiomeRules {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let water = inputs.get(1).copied().flatten().and_then(PinValue::water);
        let drainage = inputs
            .get(2)
            .copied()
            .flatten()
            .and_then(PinValue::drainage);
        let n = ctx.grid.sample_count();
        if field.as_slice().len() != n {
            return Err(Error::invalid(
                "inputs.field",
                "the field must be on the terrain grid",
            ));
        }
        if let Some(w) = water
            && w.grid.samples() != ctx.grid.samples()
        {
            return Err(Error::invalid(
                "inputs.water",
                "connected water must match the input terrain grid",
            ));
        }
        let (flow, flow_ground) = match drainage {
            Some(d) if self.use_flow => {
                if d.accumulation.len() != n || d.source.as_slice().len() != n {
                    return Err(Error::invalid(
                        "inputs.drainage",
                        "connected drainage must match the input terrain grid",
                    ));
                }
                (
                    Some(Arc::new(d.accumulation.clone())),
                    Some(Arc::new(d.source.as_slice().to_vec())),
                )
            }
            _ => (None, None),
        };
        let _ = ctx.seed()?;
        let sea = ctx.landforms()?.sea_level() as f32;
        let heights = field.as_slice();
        let range = heights
            .iter()
            .fold([f32::INFINITY, f32::NEG_INFINITY], |[a, b], &h| {
                [a.min(h), b.max(h)]
            });
        let c = ctx
            .biomes()?
            .with_snow_line(SurfaceParams::snow_line_for(sea, range));
        let erosion = match optional_input(inputs, 3)? {
            Some(e) => {
                if e.as_slice().len() != n {
                    return Err(Error::invalid(
                        "inputs.erosion",
                        "connected erosion change must match the input terrain grid",
                    ));
                }
                Some(Arc::new(e.as_slice().to_vec()))
            }
            None => None,
        };
        let surface = SurfaceInput {
            water: water.map(|w| w.owner.as_slice()),
            flow: flow.as_deref().map(Vec::as_slice),
            erosion: erosion.as_deref().map(Vec::as_slice),
            ..SurfaceInput::new(ctx.grid, heights, sea)
        };
        let cls = c.classify(&surface, ctx.cancel)?;
        let shared = match inputs.first().copied().flatten() {
            Some(PinValue::Heightfield(f)) => f.clone(),
            Some(PinValue::Classified(c)) => c.field.clone(),
            _ => Arc::new(field.clone()),
        };
        let mut roles = Map::new();
        let mut counts = [0usize; 9];
        for &r in cls.roles() {
            counts[r as usize] += 1;
        }
        for r in Role::ALL {
            if counts[r as usize] > 0 {
                roles.insert(r.name().into(), json!(counts[r as usize]));
            }
        }
        let mut biomes = Map::new();
        let mut per = vec![0usize; c.biomes().len()];
        for &b in cls.biome_ids() {
            per[b as usize] += 1;
        }
        for (b, k) in c.biomes().iter().zip(per) {
            if k > 0 {
                biomes.insert(b.name.clone(), json!(k));
            }
        }
        let details = json!({ "biomes": Value::Object(biomes), "roles": Value::Object(roles) });
        Ok(Evaluated {
            values: vec![PinValue::Classified(Arc::new(ClassifiedField {
                field: shared,
                classes: cls.classes(),
                flow,
                flow_ground,
                erosion,
            }))],
            details: Some(details),
        })
    }
}
