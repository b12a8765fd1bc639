//! Slope mask node (`slope_mask`): 1 where the steepness is inside a band of degrees, fading
//! to 0 over `falloff_degrees` outside it. Steepness comes from central differences (one-sided
//! at the border), the same gradients as the terrain's smooth normals.

use super::util::{fade_out, input};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue, pin,
};
use crate::doc::params::{ParamSpec, Range};
use crate::error::Result;
use std::sync::Arc;

const DEGREES: Range = Range::Within(0.0, 90.0);

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "slope_mask",
    title: "Slope Mask",
    category: Category::Mask,
    description: "Selects a steepness band",
    icon: "mask_slope",
    inputs: &[pin("field", PinKind::Heightfield)],
    outputs: &[pin("mask", PinKind::Mask)],
    params: &[&[
        ParamSpec::number("min_degrees", 0.0, DEGREES)
            .unit("degrees")
            .doc("lower edge of the band"),
        ParamSpec::number("max_degrees", 30.0, DEGREES)
            .unit("degrees")
            .doc("upper edge of the band (≥ min_degrees)"),
        ParamSpec::number("falloff_degrees", 5.0, DEGREES)
            .unit("degrees")
            .doc("fade width outside the band"),
    ]],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |p, path, d| {
        let (min_degrees, max_degrees) = (p.number("min_degrees"), p.number("max_degrees"));
        if max_degrees < min_degrees {
            d.push(
                crate::doc::reader::member(path, "max_degrees"),
                format!("must be ≥ min_degrees ({min_degrees}), got {max_degrees}"),
            );
        }
        Box::new(SlopeMask {
            min_degrees,
            max_degrees,
            falloff_degrees: p.number("falloff_degrees"),
        })
    },
};

/// Parameters: `min_degrees` (0), `max_degrees` (30), `falloff_degrees` (5), all 0..=90.
#[derive(Debug, Clone, PartialEq)]
pub struct SlopeMask {
    /// Lower edge of the band.
    pub min_degrees: f64,
    /// Upper edge of the band.
    pub max_degrees: f64,
    /// Fade width outside the band.
    pub falloff_degrees: f64,
}

impl NodeImpl for SlopeMask {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let (w, h) = (field.width(), field.depth());
        let [dx, dz] = ctx.grid.spacing();
        let src = field.as_slice();
        let (lo, hi, f) = (
            self.min_degrees as f32,
            self.max_degrees as f32,
            self.falloff_degrees as f32,
        );
        let mask = ctx.par_rows(|z, out| {
            let (zl, zr) = (z.saturating_sub(1), (z + 1).min(h - 1));
            for (x, o) in out.iter_mut().enumerate() {
                let (xl, xr) = (x.saturating_sub(1), (x + 1).min(w - 1));
                let gx = (src[z * w + xr] - src[z * w + xl]) / ((xr - xl) as f32 * dx);
                let gz = (src[zr * w + x] - src[zl * w + x]) / ((zr - zl) as f32 * dz);
                let deg = (gx * gx + gz * gz).sqrt().atan().to_degrees();
                *o = fade_out((lo - deg).max(deg - hi), f);
            }
        })?;
        Ok(vec![PinValue::Mask(Arc::new(mask))].into())
    }
}
