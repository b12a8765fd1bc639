//! Elevation mask node (`elevation_mask`): 1 inside a height band, fading to 0 over `falloff`
//! outside it.

use super::util::{fade_out, input};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue, pin,
};
use crate::doc::params::{ParamSpec, Range};
use crate::error::Result;
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "elevation_mask",
    title: "Elevation Mask",
    category: Category::Mask,
    description: "Selects a height band",
    icon: "mask_elevation",
    inputs: &[pin("field", PinKind::Heightfield)],
    outputs: &[pin("mask", PinKind::Mask)],
    params: &[&[
        ParamSpec::number("min", 0.0, Range::Any)
            .unit("m")
            .doc("lower edge of the band"),
        ParamSpec::number("max", 100.0, Range::Any)
            .unit("m")
            .doc("upper edge of the band (≥ min)"),
        ParamSpec::number("falloff", 10.0, Range::NonNegative)
            .unit("m")
            .doc("fade width outside the band"),
    ]],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |p, path, d| {
        let (min, max) = (p.number("min"), p.number("max"));
        if max < min {
            d.push(
                crate::doc::reader::member(path, "max"),
                format!("must be ≥ min ({min}), got {max}"),
            );
        }
        Box::new(ElevationMask {
            min,
            max,
            falloff: p.number("falloff"),
        })
    },
};

/// Parameters: `min` (0), `max` (100), `falloff` (10, ≥ 0) in world units.
#[derive(Debug, Clone, PartialEq)]
pub struct ElevationMask {
    /// Lower edge of the band.
    pub min: f64,
    /// Upper edge of the band.
    pub max: f64,
    /// Fade width outside the band.
    pub falloff: f64,
}

impl NodeImpl for ElevationMask {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let (lo, hi, f) = (self.min as f32, self.max as f32, self.falloff as f32);
        let w = field.width();
        let src = field.as_slice();
        let mask = ctx.par_rows(|z, out| {
            for (o, &h) in out.iter_mut().zip(&src[z * w..(z + 1) * w]) {
                *o = fade_out((lo - h).max(h - hi), f);
            }
        })?;
        Ok(vec![PinValue::Mask(Arc::new(mask))].into())
    }
}
