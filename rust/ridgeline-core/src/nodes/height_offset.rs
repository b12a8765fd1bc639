//! Height Offset node (`height_offset`): `field + offset × mask` per sample (mask = 1 when not
//! connected).

use super::util::{input, optional_input, same_grid};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue,
    optional, pin,
};
use crate::doc::params::{ParamSpec, Range};
use crate::error::Result;
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "height_offset",
    title: "Height Offset",
    category: Category::Modifier,
    description: "Raises or lowers a heightfield, optionally by mask",
    icon: "offset",
    inputs: &[
        pin("field", PinKind::Heightfield),
        optional("mask", PinKind::Mask),
    ],
    outputs: &[pin("heightfield", PinKind::Heightfield)],
    params: &[&[ParamSpec::number("offset", 0.0, Range::Magnitude(1.0e6))
        .unit("m")
        .doc("height added where the mask is 1")]],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(HeightOffset {
            offset: p.number("offset"),
        })
    },
};

/// Parameters: `offset` (0, world units, within ±1000000).
#[derive(Debug, Clone, PartialEq)]
pub struct HeightOffset {
    /// Height added where the mask is 1.
    pub offset: f64,
}

impl NodeImpl for HeightOffset {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let mask = optional_input(inputs, 1)?;
        let mut all = vec![field];
        all.extend(mask);
        same_grid(&all)?;
        let w = field.width();
        let offset = self.offset as f32;
        let src = field.as_slice();
        let out = ctx.par_rows(|z, out| {
            for (i, o) in (z * w..(z + 1) * w).zip(out.iter_mut()) {
                let m = mask.map_or(1.0, |m| m.as_slice()[i]);
                *o = src[i] + offset * m;
            }
        })?;
        Ok(vec![PinValue::Heightfield(Arc::new(out))].into())
    }
}
