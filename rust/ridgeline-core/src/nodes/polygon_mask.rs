//! Polygon Mask node (`polygon_mask`): 1 inside a closed polygon and on its boundary, fading
//! smoothly to 0 over `falloff` outside. Either winding and concave shapes work;
//! self-intersections use the even-odd rule (crossing an edge switches inside/outside).

use super::path_distance_mask::{MAX_POINTS, segment_distance};
use super::util::{check_segment_work, fade_out, input, mask_from};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, pin,
};
use crate::doc::params::{Initial, ParamSpec, ParamType, Range};
use crate::error::Result;

const DEFAULT_POINTS: &[[f64; 2]] = &[[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]];

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "polygon_mask",
    title: "Polygon Mask",
    category: Category::Mask,
    description: "A closed polygon (even-odd fill)",
    icon: "mask_polygon",
    inputs: &[pin("field", PinKind::Heightfield)],
    outputs: &[pin("mask", PinKind::Mask)],
    params: &[&[
        ParamSpec::of(
            "points",
            ParamType::PointList {
                dims: 2,
                min: 3,
                max: MAX_POINTS,
            },
            Initial::Points(DEFAULT_POINTS),
        )
        .unit("m")
        .doc("vertices, terrain-local [x, z]; the last connects to the first; not all collinear"),
        ParamSpec::number("falloff", 20.0, Range::NonNegative)
            .unit("m")
            .doc("smooth transition outside the polygon"),
    ]],
    reads: &[],
    canonical: Canonical::OmitDefaults,
    build: |p, path, d| {
        let points = p.points2("points").unwrap_or_default();
        if points.len() >= 3 && collinear(&points) {
            d.push(
                crate::doc::reader::member(path, "points"),
                "all points lie on one line; a polygon needs at least three non-collinear points",
            );
        }
        Box::new(PolygonMask {
            points,
            falloff: p.number("falloff"),
        })
    },
};

/// Parameters: `points` (3..=65536 non-collinear `[x, z]`; the last connects to the first;
/// repeats and an explicit closing point are fine), `falloff` (20, ≥ 0).
#[derive(Debug, Clone, PartialEq)]
pub struct PolygonMask {
    /// Polygon vertices.
    pub points: Vec<[f64; 2]>,
    /// Smooth transition outside the polygon.
    pub falloff: f64,
}

impl PolygonMask {
    /// Parses the node's params (tests).
    #[cfg(test)]
    fn parse(params: &serde_json::Value, path: &str, d: &mut crate::error::Diagnostics) -> Self {
        let p = crate::doc::params::Params::read(SPEC.params, params, path, d);
        drop((SPEC.build)(&p, path, d));
        Self {
            points: p.points2("points").unwrap_or_default(),
            falloff: p.number("falloff"),
        }
    }

    /// Even-odd containment (boundary excluded; see [`PolygonMask::value_at`]).
    pub fn contains(&self, x: f64, z: f64) -> bool {
        let n = self.points.len();
        let mut inside = false;
        let mut j = n - 1;
        for i in 0..n {
            let (a, b) = (self.points[i], self.points[j]);
            if (a[1] > z) != (b[1] > z) {
                let cross_x = a[0] + (z - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
                if x < cross_x {
                    inside = !inside;
                }
            }
            j = i;
        }
        inside
    }

    /// Mask value at a terrain-local point.
    pub fn value_at(&self, x: f64, z: f64) -> f32 {
        if self.contains(x, z) {
            return 1.0;
        }
        let n = self.points.len();
        let mut best = f64::INFINITY;
        for i in 0..n {
            best = best.min(segment_distance(
                self.points[i],
                self.points[(i + 1) % n],
                [x, z],
            ));
        }
        fade_out(best as f32, self.falloff as f32)
    }
}

fn collinear(points: &[[f64; 2]]) -> bool {
    let a = points[0];
    let Some(b) = points.iter().find(|p| **p != a) else {
        return true;
    };
    let scale = points
        .iter()
        .map(|p| (p[0] - a[0]).abs().max((p[1] - a[1]).abs()))
        .fold(0.0, f64::max);
    points.iter().all(|p| {
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        cross.abs() <= 1e-12 * scale * scale
    })
}

impl NodeImpl for PolygonMask {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        input(inputs, 0, "field")?;
        check_segment_work(&ctx.grid, self.points.len(), "params.points")?;
        Ok(vec![mask_from(ctx, |x, z| self.value_at(x, z))?].into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Diagnostics;
    use serde_json::json;

    #[test]
    fn star_uses_even_odd_fill() {
        // A pentagram: its centre pentagon is covered twice, so even-odd leaves it outside.
        let pts: Vec<[f64; 2]> = (0..5)
            .map(|i| {
                let a = (i as f64 * 144.0 - 90.0).to_radians();
                [50.0 + 40.0 * a.cos(), 50.0 + 40.0 * a.sin()]
            })
            .collect();
        let m = PolygonMask {
            points: pts,
            falloff: 0.0,
        };
        assert!(!m.contains(50.0, 50.0), "centre is outside under even-odd");
        assert!(m.contains(50.0, 15.0), "a star tip is inside");
        assert_eq!(m.value_at(50.0, 15.0), 1.0);
        assert!(!m.contains(5.0, 5.0));
        assert_eq!(m.value_at(5.0, 5.0), 0.0);
    }

    #[test]
    fn falloff_and_boundary() {
        let m = PolygonMask {
            points: DEFAULT_POINTS.to_vec(),
            falloff: 20.0,
        };
        assert_eq!(m.value_at(50.0, 50.0), 1.0);
        assert_eq!(m.value_at(100.0, 50.0), 1.0, "boundary counts as inside");
        assert_eq!(m.value_at(110.0, 50.0), 0.5);
        assert_eq!(m.value_at(120.0, 50.0), 0.0);
        // Clockwise winding gives the same mask.
        let mut rev = DEFAULT_POINTS.to_vec();
        rev.reverse();
        let r = PolygonMask {
            points: rev,
            falloff: 20.0,
        };
        assert_eq!(r.value_at(110.0, 50.0), 0.5);
        assert!(r.contains(50.0, 50.0));
    }

    #[test]
    fn rejects_degenerate_polygons() {
        let mut d = Diagnostics::default();
        PolygonMask::parse(
            &json!({"points": [[0, 0], [1, 1], [2, 2]]}),
            "n.params",
            &mut d,
        );
        assert!(d.0[0].message.contains("non-collinear"), "{:?}", d.0);
        let mut d = Diagnostics::default();
        PolygonMask::parse(&json!({"points": [[0, 0], [1, 1]]}), "n.params", &mut d);
        assert_eq!(
            d.0[0].to_string(),
            "n.params.points: needs at least 3 points, got 2"
        );
    }
}
