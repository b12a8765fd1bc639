//! A recipe and the editor's draft graph ([`crate::graph::draft::Draft`]): the draft of a
//! recipe's graph, and a recipe with a draft applied, validated as a whole.

use super::Recipe;
use crate::error::{Diagnostics, Error, Result};
use crate::graph::Graph;
use crate::graph::draft::Draft;
use serde_json::Value;

impl Recipe {
    /// The draft of this recipe's graph (the conventional graph when it has none).
    pub fn draft(&self) -> Draft {
        match &self.graph {
            Some(g) => Draft::from_graph(g),
            None => Draft::from_graph(&Graph::conventional()),
        }
    }

    /// This recipe with `draft` as its graph, validated as a whole (graph structure, node
    /// parameters against the recipe's landforms and size, required inputs connected). `self`
    /// is unchanged either way.
    pub fn with_draft(&self, draft: &Draft) -> Result<Recipe> {
        let mut d = Diagnostics::default();
        let mut v = self.to_value();
        if let Value::Object(m) = &mut v {
            m.insert("graph".into(), draft.to_value());
        }
        let merged = Recipe::from_value(&v, "recipe", &mut d);
        if let Some(r) = merged.filter(|_| d.is_empty()) {
            if let Some(g) = &r.graph {
                g.check_ready("recipe.graph")?;
            }
            return Ok(r);
        }
        Err(Error::Invalid(d.0))
    }
}
