//! Landform node (`landform`): the recipe's named landform shape as a heightfield.

use super::util::shape_field;
use super::{
    Canonical, Category, CheckContext, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind,
    PinSpec, PinValue, Read, pin,
};
use crate::doc::params::{Initial, ParamSpec, ParamType};
use crate::error::{Diagnostics, Result};
use crate::landform::{Landforms, check_domain};
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "landform",
    title: "Landform",
    category: Category::Generator,
    description: "The recipe's named landform shape",
    icon: "landform",
    inputs: &[],
    outputs: OUTPUTS,
    params: &[
        &[ParamSpec::of("landform", ParamType::String, Initial::Unset)
            .doc("landform name; default: the recipe's default_landform")],
    ],
    reads: &[Read::Seed, Read::Landforms],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(Landform {
            landform: p.text("landform").map(str::to_string),
        })
    },
};

const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

/// Parameters: `landform` (name; default: the recipe's `default_landform`).
#[derive(Debug, Clone, PartialEq)]
pub struct Landform {
    /// The landform to sample; `None` = the recipe's default.
    pub landform: Option<String>,
}

impl NodeImpl for Landform {
    fn check(&self, ctx: &CheckContext, path: &str, d: &mut Diagnostics) {
        let name = self
            .landform
            .as_deref()
            .unwrap_or(ctx.landforms.default_name);
        match ctx.landforms.get(name) {
            Some(shape) => check_domain(&shape, ctx.size, path, d),
            None => d.push(
                format!("{path}.landform"),
                format!(
                    "names landform `{name}`, which the recipe does not define; defined: {}",
                    ctx.landforms.names().join(", ")
                ),
            ),
        }
    }
    fn evaluate(&self, ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        let landforms = ctx.landforms()?;
        let name = self.landform.as_deref().unwrap_or(landforms.default_name);
        let shape = landforms.get(name).ok_or_else(|| {
            crate::error::Error::invalid("landform", format!("unknown landform `{name}`"))
        })?;
        let field = shape_field(ctx, &shape, Landforms::seeds(ctx.seed()?, name))?;
        Ok(vec![PinValue::Heightfield(Arc::new(field))].into())
    }
}
