//! Landform shapes: the shape controls (one parameter spec, shared by recipe landforms and the
//! Noise terrain node), their canonical JSON, the sampling-domain check, and [`Landforms`], the
//! read-only view of a recipe's named landforms that graph nodes see.

use crate::doc::params::{Initial, ParamSpec, ParamType, ParamValue, Params, Range};
use crate::doc::reader::ObjectReader;
use crate::error::Diagnostics;
use crate::noise::{MAX_DOMAIN, Profile, ShapeParams, ShapeSeeds};
use crate::seed::{StableHasher, fnv1a, splitmix64, sub_seed};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Landform name used when a recipe defines none.
pub const DEFAULT_NAME: &str = "default";

const BIG: Range = Range::Magnitude(1.0e6);

/// The shape controls (defaults and ranges written once, here).
pub const SHAPE_PARAMS: &[ParamSpec] = &[
    ParamSpec::of(
        "profile",
        ParamType::Enum(&["fbm", "ridged"]),
        Initial::Text("fbm"),
    )
    .doc("fbm: smooth fractal relief; ridged: sharp crests, each octave (1 − abs n)²"),
    ParamSpec::single("base_height", 0.0, BIG)
        .unit("m")
        .always()
        .doc("height of the lowest relief"),
    ParamSpec::single("height_variation", 40.0, Range::NonNegativeMagnitude(1.0e6))
        .unit("m")
        .always()
        .doc("relief range above base_height"),
    ParamSpec::single("feature_size", 256.0, Range::PositiveMagnitude(1.0e6))
        .unit("m")
        .always()
        .doc("wavelength of the first octave"),
    ParamSpec::single("roughness", 0.5, Range::Within(0.0, 1.0))
        .always()
        .doc("amplitude multiplier per octave (gain)"),
    ParamSpec::integer("octaves", 5, 1, 16)
        .always()
        .doc("octave count"),
    ParamSpec::single("warp_amplitude", 0.0, Range::NonNegativeMagnitude(1.0e6))
        .unit("m")
        .doc("domain warp displacement (0 = off)"),
    ParamSpec::single("warp_feature_size", 128.0, Range::PositiveMagnitude(1.0e6))
        .unit("m")
        .doc("width of warp features"),
    ParamSpec::single("stretch", 1.0, Range::Within(0.01, 100.0))
        .doc("elongation along heading (1 = none)"),
    ParamSpec::single("heading", 0.0, Range::Within(-360.0, 360.0))
        .unit("degrees")
        .doc("direction of stretch, from +X toward +Z"),
];

/// Defaults of the shape controls (from [`SHAPE_PARAMS`]).
pub fn default_shape() -> ShapeParams {
    shape_from(&Params::defaults(&[SHAPE_PARAMS]))
}

/// The shape held by parameters read with [`SHAPE_PARAMS`].
pub fn shape_from(p: &Params) -> ShapeParams {
    ShapeParams {
        profile: match p.text("profile") {
            Some("ridged") => Profile::Ridged,
            _ => Profile::Fbm,
        },
        base_height: p.single("base_height"),
        height_variation: p.single("height_variation"),
        feature_size: p.single("feature_size"),
        roughness: p.single("roughness"),
        octaves: p.integer("octaves") as u32,
        warp_amplitude: p.single("warp_amplitude"),
        warp_feature_size: p.single("warp_feature_size"),
        stretch: p.single("stretch"),
        heading: p.single("heading"),
    }
}

/// Reads the shape controls from an object reader (other members are left to the caller).
pub fn parse_shape(r: &mut ObjectReader, d: &mut Diagnostics) -> ShapeParams {
    shape_from(&Params::read_members(&[SHAPE_PARAMS], r, d))
}

/// Canonical JSON of shape controls: the five base controls always, the rest only when not at
/// their defaults (so omitting them reproduces plain fBm exactly).
pub fn shape_json(s: &ShapeParams, m: &mut Map<String, Value>) {
    let mut p = Params::defaults(&[SHAPE_PARAMS]);
    let profile = match s.profile {
        Profile::Fbm => "fbm",
        Profile::Ridged => "ridged",
    };
    p.set("profile", ParamValue::Text(profile.into()));
    for (k, v) in [
        ("base_height", s.base_height),
        ("height_variation", s.height_variation),
        ("feature_size", s.feature_size),
        ("roughness", s.roughness),
        ("warp_amplitude", s.warp_amplitude),
        ("warp_feature_size", s.warp_feature_size),
        ("stretch", s.stretch),
        ("heading", s.heading),
    ] {
        p.set(k, ParamValue::Number(v as f64));
    }
    p.set("octaves", ParamValue::Integer(s.octaves as i64));
    p.write(m);
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

/// A recipe's named landforms as graph nodes see them (read-only).
#[derive(Clone, Copy, Debug)]
pub struct Landforms<'a> {
    /// The fallback landform's name.
    pub default_name: &'a str,
    /// Named shapes; empty means the implicit `default` landform.
    pub shapes: &'a BTreeMap<String, ShapeParams>,
}

impl Landforms<'_> {
    /// The shape of landform `name` (the implicit default when none are defined).
    pub fn get(&self, name: &str) -> Option<ShapeParams> {
        if self.shapes.is_empty() {
            (name == DEFAULT_NAME).then(default_shape)
        } else {
            self.shapes.get(name).copied()
        }
    }

    /// Names of the landforms (the implicit default when none are defined).
    pub fn names(&self) -> Vec<String> {
        if self.shapes.is_empty() {
            vec![DEFAULT_NAME.to_string()]
        } else {
            self.shapes.keys().cloned().collect()
        }
    }

    /// Derived sea level: the default landform's base height.
    pub fn sea_level(&self) -> f64 {
        self.get(self.default_name)
            .map_or(0.0, |s| s.base_height as f64)
    }

    /// Noise seeds of landform `name` under `world_seed`: the landform and landform_warp
    /// channels, mixed with the name so different landforms get different patterns.
    pub fn seeds(world_seed: u64, name: &str) -> ShapeSeeds {
        let n = fnv1a(name.as_bytes());
        ShapeSeeds {
            landform: splitmix64(sub_seed(world_seed, "landform") ^ n),
            warp: splitmix64(sub_seed(world_seed, "landform_warp") ^ n),
        }
    }

    /// Canonical JSON of the authored landforms (`None` when none are defined).
    pub fn to_value(&self) -> Option<Value> {
        if self.shapes.is_empty() {
            return None;
        }
        let mut lm = Map::new();
        for (name, shape) in self.shapes {
            let mut sm = Map::new();
            shape_json(shape, &mut sm);
            lm.insert(name.clone(), Value::Object(sm));
        }
        Some(Value::Object(lm))
    }

    /// Content hash of everything a node can read here (default name and every shape).
    pub fn key(&self) -> u64 {
        let mut h = StableHasher::default();
        h.str(self.default_name);
        h.str(&self.to_value().map(|l| l.to_string()).unwrap_or_default());
        h.finish()
    }
}
