//! Comment node (`comment`): a note on the canvas. No pins; its text lives on the graph node
//! (`text`), not in params, and never affects generation or cache keys.

use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinSpec};
use crate::error::{Diagnostics, Result};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};

/// No parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Comment;

impl Comment {
    /// Parses the node's (empty) params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        ObjectReader::new(path, params, d).finish(d);
        Self
    }
}

impl NodeImpl for Comment {
    fn type_id(&self) -> &'static str {
        "comment"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        &[]
    }
    fn outputs(&self) -> &'static [PinSpec] {
        &[]
    }
    fn params(&self) -> Map<String, Value> {
        Map::new()
    }
    fn evaluate(&self, _ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        Ok(Vec::new().into())
    }
}
