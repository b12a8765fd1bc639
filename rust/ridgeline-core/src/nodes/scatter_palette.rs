//! Scatter Palette node (`scatter_palette`): deterministic placements of the recipe's palette
//! on the connected field (see `scatter` for the algorithm).
//!
//! Candidates come from each rule's physical lattice, thinned by density and clusters, spaced
//! by local priority, then filtered by the field's environment: biomes (when the field comes
//! through Biome Rules; otherwise every sample is the default biome), slope, moisture (the
//! climate, raised by the field's drainage flow), water and water distance (connected water
//! replaces the inferred sea). The pipeline later refilters these placements against the
//! finished terrain (strokes, painted regions, exclusions); it never adds one.

use super::util::input;
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue,
    Read, optional, pin,
};
use crate::biome::coverage::WaterSource;
use crate::error::{Error, Result};
use crate::scatter::surroundings::Surroundings;
use crate::scatter::{Budgets, place};
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "scatter_palette",
    title: "Scatter Palette",
    category: Category::Placement,
    description: "Places the recipe's palette rules on the field: physical candidate lattice, density, clusters, spacing, biome, slope, moisture and water filters; stable identities",
    icon: "scatter",
    inputs: &[
        pin("field", PinKind::Heightfield),
        optional("water", PinKind::Water),
    ],
    outputs: &[pin("instances", PinKind::Instances)],
    params: &[],
    reads: &[Read::Seed, Read::Landforms, Read::Biomes, Read::Palette],
    canonical: Canonical::OmitDefaults,
    build: |_, _, _| Box::new(ScatterPalette),
};

/// No parameters: the palette is the recipe's `palette`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterPalette;

impl NodeImpl for ScatterPalette {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let Some(palette) = ctx.palette()? else {
            return Err(Error::invalid(
                "",
                "the recipe has no `palette`: add a format_version 3 palette to the recipe (or remove this node)",
            ));
        };
        let water = inputs.get(1).copied().flatten().and_then(PinValue::water);
        if let Some(w) = water
            && w.grid.samples() != ctx.grid.samples()
        {
            return Err(Error::invalid(
                "inputs.water",
                "connected water must match the input terrain grid",
            ));
        }
        let classified = match inputs.first().copied().flatten() {
            Some(PinValue::Classified(c)) => Some(c.clone()),
            _ => None,
        };
        let heights = field.as_slice();
        let sea = ctx.landforms()?.sea_level() as f32;
        let source = match water {
            Some(w) => WaterSource::Bodies(w.owner.as_slice()),
            None => WaterSource::InferredSea { level: sea },
        };
        let classifier = ctx.biomes()?;
        let flow = classified
            .as_ref()
            .and_then(|c| c.flow.as_deref())
            .map(Vec::as_slice);
        let s = Surroundings::compute(ctx.grid, heights, source, classifier, flow, palette);
        let env = s.environment(heights, classified.as_ref().map(|c| &c.classes));
        let seed = crate::seed::sub_seed(ctx.seed()?, "scatter");
        let out = place(
            palette,
            seed,
            ctx.grid.size(),
            Some(&env),
            &Budgets::default(),
            ctx.cancel,
        )?;
        let details = out.report();
        Ok(Evaluated {
            values: vec![PinValue::Instances(Arc::new(out))],
            details: Some(details),
        })
    }
}
