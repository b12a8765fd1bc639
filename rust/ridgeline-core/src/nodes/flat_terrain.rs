//! Flat terrain node (`flat_terrain`): a constant-height base.

use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinSpec,
    PinValue, pin,
};
use crate::doc::params::{ParamSpec, Range};
use crate::error::Result;
use crate::grid::Field;
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "flat_terrain",
    title: "Flat Terrain",
    category: Category::Generator,
    description: "A constant height",
    icon: "flat",
    inputs: &[],
    outputs: OUTPUTS,
    params: &[&[ParamSpec::number("height", 0.0, Range::Magnitude(1.0e6))
        .unit("m")
        .doc("the constant height")]],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(FlatTerrain {
            height: p.number("height"),
        })
    },
};

const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

/// Parameters: `height` (default 0, within ±1000000).
#[derive(Debug, Clone, PartialEq)]
pub struct FlatTerrain {
    /// The constant height.
    pub height: f64,
}

impl NodeImpl for FlatTerrain {
    fn evaluate(&self, ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        let [w, h] = ctx.grid.samples();
        Ok(vec![PinValue::Heightfield(Arc::new(Field::filled(
            w,
            h,
            self.height as f32,
        )))]
        .into())
    }
}
