//! Height Blend node (`height_blend`): `a + (b - a) × amount × mask` per sample (mask = 1 when
//! not connected).

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
    id: "height_blend",
    title: "Height Blend",
    category: Category::Modifier,
    description: "Mixes heightfields A and B by mask and amount",
    icon: "blend",
    inputs: &[
        pin("a", PinKind::Heightfield),
        pin("b", PinKind::Heightfield),
        optional("mask", PinKind::Mask),
    ],
    outputs: &[pin("heightfield", PinKind::Heightfield)],
    params: &[&[ParamSpec::number("amount", 1.0, Range::Within(0.0, 1.0))
        .doc("blend strength (0 = a, 1 = b where the mask is 1)")]],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(HeightBlend {
            amount: p.number("amount"),
        })
    },
};

/// Parameters: `amount` (1, 0..=1).
#[derive(Debug, Clone, PartialEq)]
pub struct HeightBlend {
    /// Blend strength.
    pub amount: f64,
}

impl NodeImpl for HeightBlend {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let a = input(inputs, 0, "a")?;
        let b = input(inputs, 1, "b")?;
        let mask = optional_input(inputs, 2)?;
        let mut all = vec![a, b];
        all.extend(mask);
        same_grid(&all)?;
        let w = a.width();
        let amount = self.amount as f32;
        let (sa, sb) = (a.as_slice(), b.as_slice());
        let out = ctx.par_rows(|z, out| {
            let r = z * w..(z + 1) * w;
            for (i, o) in r.clone().zip(out.iter_mut()) {
                let m = mask.map_or(1.0, |m| m.as_slice()[i]);
                *o = sa[i] + (sb[i] - sa[i]) * (amount * m);
            }
        })?;
        Ok(vec![PinValue::Heightfield(Arc::new(out))].into())
    }
}
