//! Landform node (`landform`): the recipe's named landform shape as a heightfield.

use super::shape_params::{check_domain, shape_field};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, pin};
use crate::error::{Diagnostics, Result};
use crate::recipe::Recipe;
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Parameters: `landform` (name; default: the recipe's `default_landform`).
#[derive(Debug, Clone, PartialEq)]
pub struct Landform {
    /// The landform to sample; `None` = the recipe's default.
    pub landform: Option<String>,
}

impl Landform {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let landform = r.opt_str(d, "landform");
        r.finish(d);
        Self { landform }
    }
}

const OUTPUTS: &[PinSpec] = &[pin("heightfield", PinKind::Heightfield)];

impl NodeImpl for Landform {
    fn type_id(&self) -> &'static str {
        "landform"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        &[]
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        let mut m = Map::new();
        if let Some(l) = &self.landform {
            m.insert("landform".into(), Value::from(l.clone()));
        }
        m
    }
    fn check(&self, recipe: &Recipe, path: &str, d: &mut Diagnostics) {
        let name = self.landform.as_deref().unwrap_or(&recipe.default_landform);
        match recipe.landform(name) {
            Some(shape) => check_domain(&shape, recipe.size_f32(), path, d),
            None => d.push(
                format!("{path}.landform"),
                format!(
                    "names landform `{name}`, which the recipe does not define; defined: {}",
                    recipe.landform_names().join(", ")
                ),
            ),
        }
    }
    fn evaluate(&self, ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        let name = self
            .landform
            .as_deref()
            .unwrap_or(&ctx.recipe.default_landform);
        let shape = ctx.recipe.landform(name).ok_or_else(|| {
            crate::error::Error::invalid("landform", format!("unknown landform `{name}`"))
        })?;
        let field = shape_field(ctx, &shape, ctx.recipe.landform_seeds(name))?;
        Ok(vec![PinValue::Heightfield(Arc::new(field))].into())
    }
}
