//! Comment node (`comment`): a note on the canvas. No pins; its text lives on the graph node
//! (`text`), not in params, and never affects generation or cache keys.

use super::{Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec};
use crate::error::Result;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "comment",
    title: "Comment",
    category: Category::Notes,
    description: "Text on the canvas; no pins, no effect on generation",
    icon: "comment",
    inputs: &[],
    outputs: &[],
    params: &[],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |_, _, _| Box::new(Comment),
};

/// No parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Comment;

impl NodeImpl for Comment {
    fn evaluate(&self, _ctx: &EvalContext, _inputs: &Inputs) -> Result<Evaluated> {
        Ok(Vec::new().into())
    }
}
