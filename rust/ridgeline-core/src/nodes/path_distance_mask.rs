//! Path Distance Mask node (`path_distance_mask`): 1 within `width` (half width) of a polyline,
//! fading smoothly to 0 over `falloff` beyond it.

use super::util::{check_segment_work, fade_out, input, mask_from};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, pin,
};
use crate::doc::params::{Initial, ParamSpec, ParamType, Range};
use crate::error::Result;

/// Default points: `[[0,0],[0,100]]`.
const DEFAULT_POINTS: &[[f64; 2]] = &[[0.0, 0.0], [0.0, 100.0]];

/// Most points in a path (each adds a segment tested at every sample).
pub const MAX_POINTS: usize = 65_536;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "path_distance_mask",
    title: "Path Distance Mask",
    category: Category::Mask,
    description: "A corridor around a polyline",
    icon: "mask_path",
    inputs: &[pin("field", PinKind::Heightfield)],
    outputs: &[pin("mask", PinKind::Mask)],
    params: &[&[
        ParamSpec::of(
            "points",
            ParamType::PointList {
                dims: 2,
                min: 2,
                max: MAX_POINTS,
            },
            Initial::Points(DEFAULT_POINTS),
        )
        .unit("m")
        .doc("the polyline, terrain-local [x, z]; may leave the terrain; repeats allowed"),
        ParamSpec::number("width", 20.0, Range::NonNegative)
            .unit("m")
            .doc("half width of the fully weighted core"),
        ParamSpec::number("falloff", 40.0, Range::NonNegative)
            .unit("m")
            .doc("smooth transition beyond the core"),
    ]],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |p, _, _| {
        Box::new(PathDistanceMask {
            points: p.points2("points").unwrap_or_default(),
            width: p.number("width"),
            falloff: p.number("falloff"),
        })
    },
};

/// Parameters: `points` (2..=65536 `[x, z]`, terrain-local; may leave the terrain; repeats
/// allowed), `width` (20, ≥ 0, fully weighted half width), `falloff` (40, ≥ 0).
#[derive(Debug, Clone, PartialEq)]
pub struct PathDistanceMask {
    /// The polyline.
    pub points: Vec<[f64; 2]>,
    /// Half width of the fully weighted core.
    pub width: f64,
    /// Smooth transition beyond the core.
    pub falloff: f64,
}

impl PathDistanceMask {
    /// Mask value at a terrain-local point.
    pub fn value_at(&self, x: f64, z: f64) -> f32 {
        let mut best = f64::INFINITY;
        for seg in self.points.windows(2) {
            best = best.min(segment_distance(seg[0], seg[1], [x, z]));
        }
        fade_out((best - self.width) as f32, self.falloff as f32)
    }
}

/// Distance from `p` to the segment `a`–`b` (a point when `a == b`).
pub fn segment_distance(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    let (abx, abz) = (b[0] - a[0], b[1] - a[1]);
    let (apx, apz) = (p[0] - a[0], p[1] - a[1]);
    let len2 = abx * abx + abz * abz;
    let t = if len2 > 0.0 {
        ((apx * abx + apz * abz) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dz) = (apx - t * abx, apz - t * abz);
    (dx * dx + dz * dz).sqrt()
}

impl NodeImpl for PathDistanceMask {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        input(inputs, 0, "field")?;
        check_segment_work(
            &ctx.grid,
            self.points.len().saturating_sub(1),
            "params.points",
        )?;
        Ok(vec![mask_from(ctx, |x, z| self.value_at(x, z))?].into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_and_falloff_are_exact_at_known_distances() {
        let m = PathDistanceMask {
            points: vec![[0.0, 0.0], [0.0, 100.0]],
            width: 20.0,
            falloff: 40.0,
        };
        assert_eq!(m.value_at(0.0, 50.0), 1.0);
        assert_eq!(
            m.value_at(20.0, 50.0),
            1.0,
            "the core's edge is fully weighted"
        );
        assert_eq!(m.value_at(-40.0, 50.0), 0.5, "half-way through the falloff");
        assert_eq!(m.value_at(60.0, 50.0), 0.0, "core + falloff");
        assert_eq!(m.value_at(0.0, 160.0), 0.0, "beyond the end cap");
        assert_eq!(m.value_at(0.0, -40.0), 0.5, "round end caps");
        let hard = PathDistanceMask { falloff: 0.0, ..m };
        assert_eq!(hard.value_at(20.0, 50.0), 1.0);
        assert_eq!(hard.value_at(20.001, 50.0), 0.0);
    }
}
