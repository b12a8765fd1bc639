//! Water Body node (`water_body`): a lake, ocean or river. Rivers carve their channel; lakes and
//! oceans leave the ground unchanged. An existing water input chains bodies.

use super::util::{input, non_negative, positive, water_input, within};
use super::{EvalContext, Evaluated, Inputs, NodeImpl, PinKind, PinSpec, PinValue, optional, pin};
use crate::error::{Diagnostics, Error, Result};
use crate::hydrology::water::{
    Appearance, Footprint, WaterBody, WaterKind, WaterSet, carve_channel, polygon_contains,
};
use crate::recipe::reader::{ObjectReader, index, read_numbers, read_points, type_name};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Parameters (see `docs/nodes.md`). Stored canonically as the parsed JSON (defaults
/// omitted by the author are not invented).
#[derive(Debug, Clone, PartialEq)]
pub struct WaterBodyNode {
    body: WaterBody,
    interpolation_catmull_rom: bool,
    curve_steps: u32,
    control_points: Vec<[f32; 3]>,
    params: Map<String, Value>,
}

fn read_color(
    r: &mut ObjectReader,
    d: &mut Diagnostics,
    key: &'static str,
    default: [f32; 4],
) -> [f32; 4] {
    let c = r.numbers::<4>(d, key, default.map(f64::from));
    for (i, v) in c.iter().enumerate() {
        if !(0.0..=1.0).contains(v) {
            d.push(index(&r.at(key), i), format!("must be 0..=1, got {v}"));
        }
    }
    c.map(|v| v as f32)
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

impl WaterBodyNode {
    /// Parses the node's params.
    pub fn parse(params: &Value, path: &str, d: &mut Diagnostics) -> Self {
        let mut r = ObjectReader::new(path, params, d);
        let id = r.opt_str(d, "id").unwrap_or_else(|| "water".into());
        if id.is_empty() {
            d.push(r.at("id"), "must not be empty");
        }
        let kind = match r.opt_str(d, "kind").as_deref() {
            None | Some("lake") => WaterKind::Lake,
            Some("ocean") => WaterKind::Ocean,
            Some("river") => WaterKind::River,
            Some(other) => {
                d.push(
                    r.at("kind"),
                    format!("must be \"lake\", \"ocean\" or \"river\", got \"{other}\""),
                );
                WaterKind::Lake
            }
        };
        let level = r.f64(d, "level", 0.0, |x| {
            (x.abs() > 1e6).then(|| format!("must be within ±1000000, got {x}"))
        }) as f32;
        let center = r.numbers::<2>(d, "center", [64.0, 64.0]).map(|v| v as f32);
        let radius = r.f64(d, "radius", 100.0, positive) as f32;
        let boundary = match r.raw("boundary") {
            Some(v) => read_points(&r.at("boundary"), v, 3, d)
                .and_then(|p| simple_polygon(&p, &r.at("boundary"), d)),
            None => None,
        };
        if kind == WaterKind::Lake
            && let Some(b) = &boundary
            && !polygon_contains(b, center[0], center[1])
        {
            d.push(
                r.at("center"),
                "a lake's centre must lie inside its boundary",
            );
        }
        let mut control_points = Vec::new();
        match r.raw("river_path") {
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if let Some(p) = read_numbers::<3>(&index(&r.at("river_path"), i), item, d) {
                        control_points.push(p.map(|v| v as f32));
                    }
                }
                if items.len() < 2 {
                    d.push(r.at("river_path"), "needs at least 2 [x, y, z] points");
                }
            }
            Some(other) => d.push(
                r.at("river_path"),
                format!("must be an array of [x, y, z], got {}", type_name(other)),
            ),
            None if kind == WaterKind::River => d.push(
                r.at("river_path"),
                "is required for a river: [[x, y, z], …]",
            ),
            None => {}
        }
        let interp = r.opt_str(d, "river_path_interpolation");
        let interpolation_catmull_rom = match interp.as_deref() {
            None | Some("linear") => false,
            Some("catmull_rom") => true,
            Some(o) => {
                d.push(
                    r.at("river_path_interpolation"),
                    format!("must be \"linear\" or \"catmull_rom\", got \"{o}\""),
                );
                false
            }
        };
        let curve_steps = r.int(d, "river_curve_steps", 8, 1..=64) as u32;
        let follow_bed = match r.opt_str(d, "river_surface_mode").as_deref() {
            None | Some("level") => false,
            Some("follow_bed") => true,
            Some(o) => {
                d.push(
                    r.at("river_surface_mode"),
                    format!("must be \"level\" or \"follow_bed\", got \"{o}\""),
                );
                false
            }
        };
        let river_depth = r.f64(d, "river_depth", 1.0, positive) as f32;
        let river_width = r.f64(d, "river_width", 4.0, positive) as f32;
        let flow_speed = r.f64(d, "flow_speed", 0.0, non_negative) as f32;
        let flow_direction = r
            .numbers::<2>(d, "flow_direction", [1.0, 0.0])
            .map(|v| v as f32);
        if flow_speed > 0.0 && kind != WaterKind::River && flow_direction == [0.0, 0.0] {
            d.push(
                r.at("flow_direction"),
                "a moving lake or ocean needs a nonzero flow direction",
            );
        }
        let def = Appearance::default();
        let appearance = Appearance {
            shallow_color: read_color(&mut r, d, "shallow_color", def.shallow_color),
            deep_color: read_color(&mut r, d, "deep_color", def.deep_color),
            absorption_distance: r.f64(
                d,
                "absorption_distance",
                def.absorption_distance as f64,
                positive,
            ) as f32,
            roughness: r.f64(d, "roughness", def.roughness as f64, within(0.0, 1.0)) as f32,
            wave_amplitude: r.f64(d, "wave_amplitude", 0.05, non_negative) as f32,
            wave_length: r.f64(d, "wave_length", 2.0, positive) as f32,
            wave_speed: r.f64(d, "wave_speed", 0.5, non_negative) as f32,
            normal_strength: r.f64(d, "normal_strength", 1.0, non_negative) as f32,
            foam_width: r.f64(d, "foam_width", 0.5, non_negative) as f32,
            foam_strength: r.f64(d, "foam_strength", 0.5, within(0.0, 1.0)) as f32,
            foam_color: read_color(&mut r, d, "foam_color", def.foam_color),
        };
        r.finish(d);
        let footprint = match kind {
            WaterKind::Lake => Footprint::Lake {
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
            params: params.as_object().cloned().unwrap_or_default(),
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

const INPUTS: &[PinSpec] = &[
    pin("field", PinKind::Heightfield),
    optional("water", PinKind::Water),
];
const OUTPUTS: &[PinSpec] = &[
    pin("heightfield", PinKind::Heightfield),
    pin("water", PinKind::Water),
];

impl NodeImpl for WaterBodyNode {
    fn type_id(&self) -> &'static str {
        "water_body"
    }
    fn inputs(&self) -> &'static [PinSpec] {
        INPUTS
    }
    fn outputs(&self) -> &'static [PinSpec] {
        OUTPUTS
    }
    fn params(&self) -> Map<String, Value> {
        self.params.clone()
    }
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let field = input(inputs, 0, "field")?;
        let mut ground = field.clone();
        let mut body = self.body.clone();
        if let Footprint::River { path, width, .. } = &mut body.footprint {
            *path = self.sampled_path();
            carve_channel(&mut ground, &ctx.grid, path, *width);
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
                s.refresh(&ground);
                s
            }
            None => WaterSet::empty(ctx.grid),
        };
        set.add(body, &ground);
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
