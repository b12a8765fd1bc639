//! Height Blend node (`height_blend`): `a + (b - a) × amount × mask` per sample (mask = 1 when
//! not connected).
//!
//! Erosion transport is weighted like the heights: the optional `a_change` and `b_change`
//! inputs (an Erosion node's signed `change` for the eroded side; missing = no transport) are
//! blended with the same amount and mask into the `change` output, which Biome Rules reads as
//! its `erosion` input — so where the blend keeps half the eroded ground, half the cut and
//! half the deposit count.

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
        optional("a_change", PinKind::Heightfield),
        optional("b_change", PinKind::Heightfield),
    ],
    outputs: &[
        pin("heightfield", PinKind::Heightfield),
        pin("change", PinKind::Heightfield),
    ],
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
        let (ca, cb) = (optional_input(inputs, 3)?, optional_input(inputs, 4)?);
        let mut all = vec![a, b];
        all.extend(mask);
        all.extend(ca);
        all.extend(cb);
        same_grid(&all)?;
        let w = a.width();
        let amount = self.amount as f32;
        let blend = |sa: Option<&[f32]>, sb: Option<&[f32]>| {
            ctx.par_rows(|z, out| {
                let r = z * w..(z + 1) * w;
                for (i, o) in r.clone().zip(out.iter_mut()) {
                    let m = mask.map_or(1.0, |m| m.as_slice()[i]);
                    let (va, vb) = (sa.map_or(0.0, |s| s[i]), sb.map_or(0.0, |s| s[i]));
                    *o = va + (vb - va) * (amount * m);
                }
            })
        };
        let out = blend(Some(a.as_slice()), Some(b.as_slice()))?;
        // No transport on either side: zeros (a lazily zeroed allocation, no pass).
        let change = if ca.is_none() && cb.is_none() {
            crate::grid::Field::from_vec(w, a.depth(), vec![0.0; w * a.depth()])?
        } else {
            blend(ca.map(|f| f.as_slice()), cb.map(|f| f.as_slice()))?
        };
        Ok(vec![
            PinValue::Heightfield(Arc::new(out)),
            PinValue::Heightfield(Arc::new(change)),
        ]
        .into())
    }
}
