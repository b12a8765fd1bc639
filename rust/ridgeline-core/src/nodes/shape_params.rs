//! Landform shape controls, shared by recipe landforms and the Noise terrain node.

use super::util::{json_number, non_negative, positive, put_f64, within};
use crate::error::Diagnostics;
use crate::noise::{MAX_DOMAIN, Profile, ShapeParams};
use crate::recipe::reader::ObjectReader;
use serde_json::{Map, Value};

/// Defaults of the shape controls.
pub const DEFAULT_SHAPE: ShapeParams = ShapeParams {
    profile: Profile::Fbm,
    base_height: 0.0,
    height_variation: 40.0,
    feature_size: 256.0,
    roughness: 0.5,
    octaves: 5,
    warp_amplitude: 0.0,
    warp_feature_size: 128.0,
    stretch: 1.0,
    heading: 0.0,
};

/// Reads the shape controls from an object reader (other members are left to the caller).
pub fn parse_shape(r: &mut ObjectReader, d: &mut Diagnostics) -> ShapeParams {
    let s = DEFAULT_SHAPE;
    let profile = match r.opt_str(d, "profile").as_deref() {
        None | Some("fbm") => Profile::Fbm,
        Some("ridged") => Profile::Ridged,
        Some(other) => {
            d.push(
                r.at("profile"),
                format!("must be \"fbm\" or \"ridged\", got \"{other}\""),
            );
            Profile::Fbm
        }
    };
    let big = |x: f64| (x.abs() > 1.0e6).then(|| format!("must be within ±1000000, got {x}"));
    ShapeParams {
        profile,
        base_height: r.f64(d, "base_height", s.base_height as f64, big) as f32,
        height_variation: r.f64(d, "height_variation", s.height_variation as f64, |x| {
            non_negative(x).or_else(|| big(x))
        }) as f32,
        feature_size: r.f64(d, "feature_size", s.feature_size as f64, |x| {
            positive(x).or_else(|| big(x))
        }) as f32,
        roughness: r.f64(d, "roughness", s.roughness as f64, within(0.0, 1.0)) as f32,
        octaves: r.int(d, "octaves", s.octaves as i64, 1..=16) as u32,
        warp_amplitude: r.f64(d, "warp_amplitude", 0.0, |x| {
            non_negative(x).or_else(|| big(x))
        }) as f32,
        warp_feature_size: r.f64(d, "warp_feature_size", 128.0, |x| {
            positive(x).or_else(|| big(x))
        }) as f32,
        stretch: r.f64(d, "stretch", 1.0, within(0.01, 100.0)) as f32,
        heading: r.f64(d, "heading", 0.0, within(-360.0, 360.0)) as f32,
    }
}

/// Canonical JSON of shape controls: the five base controls always, the rest only when not at
/// their defaults (so omitting them reproduces plain fBm exactly).
pub fn shape_json(s: &ShapeParams, m: &mut Map<String, Value>) {
    if s.profile == Profile::Ridged {
        m.insert("profile".into(), Value::from("ridged"));
    }
    m.insert("base_height".into(), json_number(s.base_height as f64));
    m.insert(
        "height_variation".into(),
        json_number(s.height_variation as f64),
    );
    m.insert("feature_size".into(), json_number(s.feature_size as f64));
    m.insert("roughness".into(), json_number(s.roughness as f64));
    m.insert("octaves".into(), Value::from(s.octaves));
    put_f64(m, "warp_amplitude", s.warp_amplitude as f64, Some(0.0));
    put_f64(
        m,
        "warp_feature_size",
        s.warp_feature_size as f64,
        Some(128.0),
    );
    put_f64(m, "stretch", s.stretch as f64, Some(1.0));
    put_f64(m, "heading", s.heading as f64, Some(0.0));
}

/// Reports shapes that would sample noise beyond the precise domain for this terrain size.
pub fn check_domain(s: &ShapeParams, size: [f32; 2], path: &str, d: &mut Diagnostics) {
    let reach = s.max_domain(size);
    if reach > MAX_DOMAIN {
        d.push(
            path,
            format!(
                "sampling domain: feature_size {} with {} octaves{} over a {}×{} terrain samples noise coordinates up to {:.0}, beyond the supported {:.0}; raise feature_size, lower octaves or stretch less",
                s.feature_size,
                s.octaves,
                if s.warp_amplitude > 0.0 { " and warp" } else { "" },
                size[0],
                size[1],
                reach,
                MAX_DOMAIN
            ),
        );
    }
}

/// Samples a shape over the recipe grid (rows in parallel; identical for any thread count).
pub fn shape_field(
    ctx: &super::EvalContext,
    shape: &ShapeParams,
    seeds: crate::noise::ShapeSeeds,
) -> crate::error::Result<crate::grid::Field<f32>> {
    let [w, _] = ctx.grid.samples();
    let [dx, dz] = ctx.grid.spacing();
    let sampler = crate::noise::RowSampler::new(*shape, seeds, w, dx);
    ctx.par_rows(|z, out| {
        let mut scratch = crate::noise::RowScratch::default();
        sampler.fill_row(z as f32 * dz, out, &mut scratch);
    })
}
