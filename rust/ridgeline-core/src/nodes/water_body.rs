//! Water Body node (`water_body`): a lake, ocean or river. Rivers carve their channel; lakes and
//! oceans leave the ground unchanged. An existing water input chains bodies.

use super::util::{check_river_work, input, water_input};
use super::{
    Canonical, Category, EvalContext, Evaluated, Inputs, NodeImpl, NodeSpec, PinKind, PinValue,
    optional, pin,
};
use crate::doc::params::{Initial, ParamSpec, ParamType, Params, Range};
use crate::doc::reader::{index, member};
use crate::error::{Diagnostics, Error, Result};
use crate::hydrology::water::{
    Appearance, DEFAULT_APPEARANCE as APP, Footprint, WaterBody, WaterKind, WaterSet,
    carve_channel, polygon_contains,
};
use serde_json::json;
use std::sync::Arc;

/// Most control points in a river path.
pub const MAX_RIVER_POINTS: usize = 4096;

const fn c64(c: [f32; 4]) -> [f64; 4] {
    [c[0] as f64, c[1] as f64, c[2] as f64, c[3] as f64]
}

const UNIT: Range = Range::Within(0.0, 1.0);

/// A river path parameter (`[x, y, z]` control points, Y = bed).
pub(crate) const fn river_path_spec() -> ParamSpec {
    ParamSpec::of(
        "river_path",
        ParamType::PointList {
            dims: 3,
            min: 2,
            max: MAX_RIVER_POINTS,
        },
        Initial::Unset,
    )
    .unit("m")
    .doc("river control points [x, y, z] (Y = bed height); a river needs one")
}

/// The interpolation parameters of a river path.
pub(crate) const INTERPOLATION: [ParamSpec; 2] = [
    ParamSpec::of(
        "river_path_interpolation",
        ParamType::Enum(&["linear", "catmull_rom"]),
        Initial::Text("linear"),
    )
    .doc("how the path runs between control points"),
    ParamSpec::integer("river_curve_steps", 8, 1, 64)
        .doc("Catmull-Rom segments per control-point interval"),
];

/// `kind` values whose parameters only they read (editors hide the others).
const LAKE: &[&str] = &["lake"];
const STANDING: &[&str] = &["lake", "ocean"];
const RIVER: &[&str] = &["river"];

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "water_body",
    title: "Water Body",
    category: Category::Water,
    description: "A lake, ocean or river; rivers carve their channel",
    icon: "water",
    inputs: &[
        pin("field", PinKind::Heightfield),
        optional("water", PinKind::Water),
    ],
    outputs: &[
        pin("heightfield", PinKind::Heightfield),
        pin("water", PinKind::Water),
    ],
    params: &[
        &[
            ParamSpec::of("id", ParamType::String, Initial::Text("water"))
                .doc("stable body id (unique in the graph)"),
            ParamSpec::of(
                "kind",
                ParamType::Enum(&["lake", "ocean", "river"]),
                Initial::Text("lake"),
            )
            .doc("lake (flood fill from the centre), ocean (below level everywhere) or river"),
            ParamSpec::number("level", 0.0, Range::Magnitude(1e6))
                .unit("m")
                .doc("water surface height (lakes, oceans, level rivers)"),
            ParamSpec::of("center", ParamType::Point, Initial::Point([64.0, 64.0]))
                .unit("m")
                .doc("lake centre [x, z] (inside the boundary when one is given)")
                .applies_when("kind", LAKE),
            ParamSpec::number("radius", 100.0, Range::Positive)
                .unit("m")
                .doc("largest lake reach from the centre")
                .applies_when("kind", LAKE),
            ParamSpec::of(
                "boundary",
                ParamType::PointList {
                    dims: 2,
                    min: 3,
                    max: super::path_distance_mask::MAX_POINTS,
                },
                Initial::Unset,
            )
            .unit("m")
            .doc("optional simple polygon limiting a lake or ocean")
            .applies_when("kind", STANDING),
            river_path_spec().applies_when("kind", RIVER),
            INTERPOLATION[0].applies_when("kind", RIVER),
            INTERPOLATION[1].applies_when("kind", RIVER),
            ParamSpec::of(
                "river_surface_mode",
                ParamType::Enum(&["level", "follow_bed"]),
                Initial::Text("level"),
            )
            .doc("level: flat at `level`; follow_bed: river_depth above the bed")
            .applies_when("kind", RIVER),
            ParamSpec::number("river_depth", 1.0, Range::Positive)
                .unit("m")
                .doc("water depth above the bed (follow_bed)")
                .applies_when("kind", RIVER),
            ParamSpec::number("river_width", 4.0, Range::Positive)
                .unit("m")
                .doc("river (and carved channel) width")
                .applies_when("kind", RIVER),
            ParamSpec::number("flow_speed", 0.0, Range::NonNegative)
                .unit("m/s")
                .doc("prescribed flow speed"),
            ParamSpec::of(
                "flow_direction",
                ParamType::Point,
                Initial::Point([1.0, 0.0]),
            )
            .doc("flow direction [x, z] of lakes and oceans (rivers follow their path)")
            .applies_when("kind", STANDING),
        ],
        APPEARANCE,
    ],
    reads: &[],
    canonical: Canonical::AsAuthored,
    build: |p, path, d| Box::new(WaterBodyNode::build(p, path, d)),
};

/// Appearance parameters (shading only).
const APPEARANCE: &[ParamSpec] = &[
    ParamSpec::of(
        "shallow_color",
        ParamType::Colour,
        Initial::Colour(c64(APP.shallow_color)),
    )
    .doc("colour in shallow water (alpha = opacity)"),
    ParamSpec::of(
        "deep_color",
        ParamType::Colour,
        Initial::Colour(c64(APP.deep_color)),
    )
    .doc("colour in deep water"),
    ParamSpec::number(
        "absorption_distance",
        APP.absorption_distance as f64,
        Range::Positive,
    )
    .unit("m")
    .doc("depth at which the shallow contribution falls to about 37 %"),
    ParamSpec::number("roughness", APP.roughness as f64, UNIT).doc("surface roughness"),
    ParamSpec::number(
        "wave_amplitude",
        APP.wave_amplitude as f64,
        Range::NonNegative,
    )
    .doc("slope of animated shading normals"),
    ParamSpec::number("wave_length", APP.wave_length as f64, Range::Positive)
        .unit("m")
        .doc("wave length"),
    ParamSpec::number("wave_speed", APP.wave_speed as f64, Range::NonNegative)
        .unit("m/s")
        .doc("wave speed"),
    ParamSpec::number(
        "normal_strength",
        APP.normal_strength as f64,
        Range::NonNegative,
    )
    .doc("normal strength"),
    ParamSpec::number("foam_width", APP.foam_width as f64, Range::NonNegative)
        .unit("m")
        .doc("shallow foam band width (0 disables)"),
    ParamSpec::number("foam_strength", APP.foam_strength as f64, UNIT).doc("foam strength"),
    ParamSpec::of(
        "foam_color",
        ParamType::Colour,
        Initial::Colour(c64(APP.foam_color)),
    )
    .doc("foam colour"),
];

/// Parameters (see `docs/nodes.md`). Stored canonically as the parsed JSON (defaults
/// omitted by the author are not invented).
#[derive(Debug, Clone, PartialEq)]
pub struct WaterBodyNode {
    body: WaterBody,
    interpolation_catmull_rom: bool,
    curve_steps: u32,
    control_points: Vec<[f32; 3]>,
}

/// Validates a simple polygon: ≥ 3 points, no zero-length edges, no self-intersections, not
/// degenerate. A repeated closing point is dropped.
pub(crate) fn simple_polygon(
    points: &[[f64; 2]],
    path: &str,
    d: &mut Diagnostics,
) -> Option<Vec<[f32; 2]>> {
    let mut p: Vec<[f32; 2]> = points.iter().map(|q| [q[0] as f32, q[1] as f32]).collect();
    if p.len() > 3 && p.first() == p.last() {
        p.pop();
    }
    if p.len() < 3 {
        d.push(path, "a boundary needs at least 3 distinct points");
        return None;
    }
    let n = p.len();
    for i in 0..n {
        if p[i] == p[(i + 1) % n] {
            d.push(index(path, i), "zero-length edge (repeated point)");
            return None;
        }
    }
    let cross = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    };
    for i in 0..n {
        for j in i + 1..n {
            if j == i + 1 || (i == 0 && j == n - 1) {
                continue;
            }
            let (a, b, c, e) = (p[i], p[(i + 1) % n], p[j], p[(j + 1) % n]);
            let (d1, d2, d3, d4) = (
                cross(a, b, c),
                cross(a, b, e),
                cross(c, e, a),
                cross(c, e, b),
            );
            if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
                d.push(
                    path,
                    format!(
                        "the boundary intersects itself (edges {i} and {j}); use a simple polygon"
                    ),
                );
                return None;
            }
        }
    }
    let area: f32 = (0..n)
        .map(|i| p[i][0] * p[(i + 1) % n][1] - p[(i + 1) % n][0] * p[i][1])
        .sum::<f32>()
        / 2.0;
    if area.abs() < 1e-6 {
        d.push(path, "the boundary is degenerate (no area)");
        return None;
    }
    Some(p)
}

/// Uniform Catmull-Rom through `points`, `steps` segments per interval (ends kept exactly).
pub(crate) fn catmull_rom(points: &[[f32; 3]], steps: u32) -> Vec<[f32; 3]> {
    let n = points.len();
    let mut out = vec![points[0]];
    for i in 0..n - 1 {
        let p0 = points[i.saturating_sub(1)];
        let (p1, p2) = (points[i], points[i + 1]);
        let p3 = points[(i + 2).min(n - 1)];
        for s in 1..=steps {
            let t = s as f32 / steps as f32;
            let (t2, t3) = (t * t, t * t * t);
            let c = |k: usize| {
                0.5 * (2.0 * p1[k]
                    + (-p0[k] + p2[k]) * t
                    + (2.0 * p0[k] - 5.0 * p1[k] + 4.0 * p2[k] - p3[k]) * t2
                    + (-p0[k] + 3.0 * p1[k] - 3.0 * p2[k] + p3[k]) * t3)
            };
            out.push(if s == steps { p2 } else { [c(0), c(1), c(2)] });
        }
    }
    out
}

fn colour(p: &Params, name: &str) -> [f32; 4] {
    p.colour(name).map(|c| c as f32)
}

impl WaterBodyNode {
    fn build(p: &Params, path: &str, d: &mut Diagnostics) -> Self {
        let id = p.text("id").unwrap_or("water").to_string();
        if id.is_empty() {
            d.push(member(path, "id"), "must not be empty");
        }
        let kind = match p.text("kind") {
            Some("ocean") => WaterKind::Ocean,
            Some("river") => WaterKind::River,
            _ => WaterKind::Lake,
        };
        let level = p.single("level");
        let center = p.point("center").map(|v| v as f32);
        let radius = p.single("radius");
        let boundary = p
            .points2("boundary")
            .and_then(|b| simple_polygon(&b, &member(path, "boundary"), d));
        if kind == WaterKind::Lake
            && let Some(b) = &boundary
            && !polygon_contains(b, center[0], center[1])
        {
            d.push(
                member(path, "center"),
                "a lake's centre must lie inside its boundary",
            );
        }
        let control_points: Vec<[f32; 3]> = p
            .points3("river_path")
            .unwrap_or_default()
            .iter()
            .map(|q| q.map(|v| v as f32))
            .collect();
        if kind == WaterKind::River && !p.present("river_path") {
            d.push(
                member(path, "river_path"),
                "is required for a river: [[x, y, z], …]",
            );
        }
        let interpolation_catmull_rom = p.text("river_path_interpolation") == Some("catmull_rom");
        let curve_steps = p.integer("river_curve_steps") as u32;
        let follow_bed = p.text("river_surface_mode") == Some("follow_bed");
        let river_depth = p.single("river_depth");
        let river_width = p.single("river_width");
        let flow_speed = p.single("flow_speed");
        let flow_direction = p.point("flow_direction").map(|v| v as f32);
        if flow_speed > 0.0 && kind != WaterKind::River && flow_direction == [0.0, 0.0] {
            d.push(
                member(path, "flow_direction"),
                "a moving lake or ocean needs a nonzero flow direction",
            );
        }
        let appearance = Appearance {
            shallow_color: colour(p, "shallow_color"),
            deep_color: colour(p, "deep_color"),
            absorption_distance: p.single("absorption_distance"),
            roughness: p.single("roughness"),
            wave_amplitude: p.single("wave_amplitude"),
            wave_length: p.single("wave_length"),
            wave_speed: p.single("wave_speed"),
            normal_strength: p.single("normal_strength"),
            foam_width: p.single("foam_width"),
            foam_strength: p.single("foam_strength"),
            foam_color: colour(p, "foam_color"),
        };
        let footprint = match kind {
            // `kind` is never Painted here (see above).
            WaterKind::Lake | WaterKind::Painted => Footprint::Lake {
                center,
                radius,
                boundary,
            },
            WaterKind::Ocean => Footprint::Ocean { boundary },
            WaterKind::River => Footprint::River {
                path: Vec::new(),
                width: river_width,
                follow_bed: follow_bed.then_some(river_depth),
            },
        };
        let body = WaterBody {
            id,
            kind,
            level,
            footprint,
            flow_speed,
            flow_direction,
            appearance,
            wet_samples: 0,
            warnings: Vec::new(),
        };
        Self {
            body,
            interpolation_catmull_rom,
            curve_steps,
            control_points,
        }
    }

    fn sampled_path(&self) -> Vec<[f32; 3]> {
        if self.control_points.len() < 2 {
            return self.control_points.clone();
        }
        if self.interpolation_catmull_rom {
            catmull_rom(&self.control_points, self.curve_steps)
        } else {
            self.control_points.clone()
        }
    }
}

impl NodeImpl for WaterBodyNode {
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let mut ground = field.clone();
        let mut body = self.body.clone();
        if let Footprint::River { path, width, .. } = &mut body.footprint {
            *path = self.sampled_path();
            check_river_work(&ctx.grid, path, *width, "params.river_path")?;
            carve_channel(&mut ground, &ctx.grid, path, *width, &|| ctx.cancelled())?;
        }
        let mut set = match water_input(inputs, 1, &ctx.grid)? {
            Some(existing) => {
                if existing.bodies.iter().any(|b| b.id == body.id) {
                    return Err(Error::invalid(
                        "params.id",
                        format!("a water body with id `{}` already exists upstream", body.id),
                    ));
                }
                let mut s = existing.clone();
                s.refresh_cancellable(&ground, &|| ctx.cancelled())?;
                s
            }
            None => WaterSet::empty(ctx.grid),
        };
        set.add_cancellable(body, &ground, &|| ctx.cancelled())?;
        let added = set.bodies.last().map(|b| json!({ "id": b.id, "kind": b.kind.name(), "level": b.level, "wet_samples": b.wet_samples, "warnings": b.warnings }));
        Ok(Evaluated {
            values: vec![
                PinValue::Heightfield(Arc::new(ground)),
                PinValue::Water(Arc::new(set)),
            ],
            details: added,
        })
    }
}
