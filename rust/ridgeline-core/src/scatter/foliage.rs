//! Foliage types (seed 004's `FoliageType`): dense, decorative instances — grass, flowers,
//! small tufts — placed per physical cell, near the viewer only, with painted density maps.
//!
//! They live in the palette's `foliage` section, beside its placement rules:
//!
//! ```json
//! "foliage": {
//!   "grass": {
//!     "model": "res://scatter/grass_tuft.tres", "density": 2, "cell_size": 1,
//!     "jitter": 0.5, "random_yaw": true, "scale": [0.8, 1.25], "align_to_normal": 0.3,
//!     "sink": 0.03, "slope_max": 40, "height": [0, 200], "roles": ["grass", "ground"],
//!     "auto_density": 1, "channel_cutoff": {"channel": "cut", "value": 0.5},
//!     "full_density_distance": 40, "max_distance": 80, "density_floor": 0.15,
//!     "cast_shadows": false
//!   }
//! }
//! ```
//!
//! Placement is in [`super::foliage_place`]; painted density maps in
//! [`crate::edit::foliage_density`].

use super::palette::Geometry;
use super::palette_read::read_geometry;
use super::thinning::Thinning;
use crate::biome::Role;
use crate::doc::reader::{ObjectReader, entry, number, read_numbers, show, type_name, within};
use crate::error::Diagnostics;
use serde::Serialize;
use serde_json::Value;

/// Most instances one cell may ask for at full density.
pub const MAX_DENSITY_PER_CELL: f64 = 64.0;

/// A user-channel cutoff: no foliage where the channel is at or above `value` (cut grass).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelCutoff {
    /// User channel name.
    pub channel: String,
    /// Threshold (the channel's own units).
    pub value: f32,
}

/// One foliage type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FoliageType {
    /// Stable id (letters, digits, `_`, `-`): the key of its density map and of its randomness.
    pub id: String,
    /// What it draws (a mesh `model` or a `prefab` scene; foliage never collides).
    #[serde(serialize_with = "geometry_ref")]
    pub geometry: Geometry,
    /// Instances per cell at full effective density (`floor(n)` plus one more by hash).
    pub density: f32,
    /// Side of a foliage cell in terrain-local units (a physical lattice, independent of the
    /// terrain's resolution).
    pub cell_size: f32,
    /// Offset within the cell, as a fraction of the cell (0 = cell centre, 1 = anywhere).
    pub jitter: f32,
    /// A random heading about +Y (else every instance faces +Z).
    pub random_yaw: bool,
    /// Uniform scale range.
    pub scale: [f32; 2],
    /// Tilt toward the ground's normal: 0 stands upright, 1 follows the normal.
    pub align_to_normal: f32,
    /// Pushes the base this far into the ground (units).
    pub sink: f32,
    /// No foliage above this slope (degrees from horizontal).
    pub slope_max: f32,
    /// Height limits `[min, max]` (terrain-local units), `None` = off.
    pub height: Option<[f32; 2]>,
    /// Surface roles it grows on automatically (`None` = every role).
    #[serde(serialize_with = "role_names")]
    pub roles: Option<Vec<Role>>,
    /// Biomes it grows in automatically (`None` = every biome).
    pub biomes: Option<Vec<String>>,
    /// Density (0–1) where it grows automatically; painted density multiplies it.
    pub auto_density: f32,
    /// Absent where a user channel reaches a value.
    pub channel_cutoff: Option<ChannelCutoff>,
    /// Every instance of a chunk is drawn up to this distance.
    pub full_density_distance: f32,
    /// Nothing is drawn beyond this distance (chunks beyond are not built either).
    pub max_distance: f32,
    /// Fraction still drawn at `max_distance`.
    pub density_floor: f32,
    /// Whether instances cast shadows.
    pub cast_shadows: bool,
}

fn geometry_ref<S: serde::Serializer>(g: &Geometry, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(1))?;
    m.serialize_entry(g.kind(), g.reference())?;
    m.end()
}

fn role_names<S: serde::Serializer>(r: &Option<Vec<Role>>, s: S) -> Result<S::Ok, S::Error> {
    let names: Option<Vec<&str>> = r.as_ref().map(|v| v.iter().map(|r| r.name()).collect());
    names.serialize(s)
}

impl FoliageType {
    /// The type's distance thinning curve.
    pub fn thinning(&self) -> Thinning {
        Thinning {
            full_distance: self.full_density_distance,
            max_distance: self.max_distance,
            floor: self.density_floor,
        }
    }
}

/// Most foliage types one palette may define: each painted type keeps a density map as large
/// as the terrain's grid.
pub const MAX_FOLIAGE_TYPES: usize = 256;

/// Reads the palette's `foliage` section (an object of named types) at `path`; every problem
/// is recorded in `d`, located. Types come back in id order.
pub fn read_section(v: &Value, path: &str, d: &mut Diagnostics) -> Vec<FoliageType> {
    let mut out = Vec::new();
    let Value::Object(m) = v else {
        d.push(
            path,
            format!(
                "must be an object of named foliage types, got {}",
                type_name(v)
            ),
        );
        return out;
    };
    if m.len() > MAX_FOLIAGE_TYPES {
        d.push(
            path,
            format!(
                "defines {} foliage types; at most {MAX_FOLIAGE_TYPES} (each painted type keeps a \
                 density map the size of the terrain's grid)",
                m.len()
            ),
        );
        return out;
    }
    for (id, tv) in m {
        let tpath = entry(path, id);
        if !super::palette::valid_id(id) {
            d.push(
                &tpath,
                "foliage type ids use letters, digits, underscores or hyphens only",
            );
            continue;
        }
        if let Some(t) = read_type(id, tv, &tpath, d) {
            out.push(t);
        }
    }
    out
}

fn pair(
    r: &mut ObjectReader,
    d: &mut Diagnostics,
    key: &'static str,
    bounds: [f64; 2],
) -> Option<[f32; 2]> {
    let v = r.raw(key)?;
    let path = r.at(key);
    let [a, b] = read_numbers::<2>(&path, v, d)?;
    if a > b || a < bounds[0] || b > bounds[1] {
        d.push(
            &path,
            format!(
                "must be [min, max] with {} ≤ min ≤ max ≤ {}, got {}",
                bounds[0],
                bounds[1],
                show(v)
            ),
        );
        return None;
    }
    Some([a as f32, b as f32])
}

fn names(r: &mut ObjectReader, d: &mut Diagnostics, key: &'static str) -> Option<Vec<String>> {
    let v = r.raw(key)?;
    let path = r.at(key);
    let Value::Array(a) = v else {
        d.push(
            &path,
            format!("must be an array of names, got {}", type_name(v)),
        );
        return None;
    };
    let mut out = Vec::new();
    for (i, x) in a.iter().enumerate() {
        match x.as_str() {
            Some(s) if !s.is_empty() => out.push(s.to_string()),
            _ => d.push(
                format!("{path}[{i}]"),
                format!("must be a name, got {}", show(x)),
            ),
        }
    }
    Some(out)
}

fn read_type(id: &str, v: &Value, path: &str, d: &mut Diagnostics) -> Option<FoliageType> {
    let start = d.0.len();
    let mut r = ObjectReader::new(path, v, d);
    if !v.is_object() {
        return None;
    }
    let geometry = read_geometry(&mut r, path, d);
    let density = match r.raw("density") {
        None => 1.0,
        Some(x) => match number(x) {
            Some(x) if (0.0..=MAX_DENSITY_PER_CELL).contains(&x) => x,
            _ => {
                d.push(
                    r.at("density"),
                    format!(
                        "must be 0..={MAX_DENSITY_PER_CELL} instances per cell, got {}",
                        show(x)
                    ),
                );
                1.0
            }
        },
    };
    let cell_size = r.f64(d, "cell_size", 1.0, within(0.05, 1000.0));
    let jitter = r.f64(d, "jitter", 0.5, within(0.0, 1.0));
    let random_yaw = r.bool(d, "random_yaw", true);
    let scale = pair(&mut r, d, "scale", [1e-4, 1e4]).unwrap_or([0.8, 1.25]);
    let align_to_normal = r.f64(d, "align_to_normal", 0.3, within(0.0, 1.0));
    let sink = r.f64(d, "sink", 0.03, within(-1000.0, 1000.0));
    let slope_max = r.f64(d, "slope_max", 40.0, within(0.0, 90.0));
    let height = pair(&mut r, d, "height", [-1e6, 1e6]);
    let roles = names(&mut r, d, "roles").map(|list| {
        let at = r.at("roles");
        list.iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let role = Role::parse(n);
                if role.is_none() {
                    let known: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                    d.push(
                        format!("{at}[{i}]"),
                        format!("unknown role `{n}`; roles are {}", known.join(", ")),
                    );
                }
                role
            })
            .collect()
    });
    let biomes = names(&mut r, d, "biomes");
    let auto_density = r.f64(d, "auto_density", 1.0, within(0.0, 1.0));
    let channel_cutoff = r.raw("channel_cutoff").map(|cv| {
        let mut c = ObjectReader::new(r.at("channel_cutoff"), cv, d);
        let channel = match c.opt_str(d, "channel") {
            Some(s) if !s.is_empty() => s,
            _ => {
                d.push(c.at("channel"), "is required: the user channel's name");
                String::new()
            }
        };
        if !c.has("value") {
            d.push(
                c.at("value"),
                "is required: the channel value that cuts foliage",
            );
        }
        let value = c.f64(d, "value", 0.0, |_| None);
        c.finish(d);
        ChannelCutoff {
            channel,
            value: value as f32,
        }
    });
    let full = r.f64(d, "full_density_distance", 40.0, within(0.0, 1e6));
    let max = r.f64(d, "max_distance", 80.0, within(0.0, 1e6));
    if max < full {
        d.push(
            r.at("max_distance"),
            format!("must be ≥ full_density_distance {full}, got {max}"),
        );
    }
    let density_floor = r.f64(d, "density_floor", 0.15, within(0.0, 1.0));
    let cast_shadows = r.bool(d, "cast_shadows", false);
    if r.has("collision") {
        d.push(
            r.at("collision"),
            "foliage never collides; use a placement rule for objects with collision",
        );
        let _ = r.raw("collision");
    }
    r.finish(d);
    let geometry = geometry?;
    (d.0.len() == start).then(|| FoliageType {
        id: id.to_string(),
        geometry,
        density: density as f32,
        cell_size: cell_size as f32,
        jitter: jitter as f32,
        random_yaw,
        scale,
        align_to_normal: align_to_normal as f32,
        sink: sink as f32,
        slope_max: slope_max as f32,
        height,
        roles,
        biomes,
        auto_density: auto_density as f32,
        channel_cutoff,
        full_density_distance: full as f32,
        max_distance: max as f32,
        density_floor: density_floor as f32,
        cast_shadows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> (Vec<FoliageType>, Vec<String>) {
        let mut d = Diagnostics::default();
        let t = read_section(&v, "palette.foliage", &mut d);
        (t, d.0.iter().map(|x| x.to_string()).collect())
    }

    #[test]
    fn a_palette_holds_at_most_256_foliage_types() {
        let many: serde_json::Map<String, Value> = (0..=MAX_FOLIAGE_TYPES)
            .map(|i| (format!("t{i}"), json!({"model": "m"})))
            .collect();
        let (t, e) = read(Value::Object(many.clone()));
        assert!(t.is_empty());
        assert_eq!(
            e,
            [
                "palette.foliage: defines 257 foliage types; at most 256 (each painted type keeps a \
              density map the size of the terrain's grid)"
            ]
        );
        let fewer: serde_json::Map<String, Value> = many.into_iter().skip(1).collect();
        let (t, e) = read(Value::Object(fewer));
        assert_eq!((t.len(), e.len()), (256, 0));
    }

    #[test]
    fn defaults_follow_the_seed() {
        let (t, e) = read(json!({"grass": {"model": "grass.tres"}}));
        assert!(e.is_empty(), "{e:?}");
        let g = &t[0];
        assert_eq!(g.density, 1.0);
        assert_eq!((g.jitter, g.random_yaw), (0.5, true));
        assert_eq!(g.scale, [0.8, 1.25]);
        assert_eq!((g.align_to_normal, g.sink, g.slope_max), (0.3, 0.03, 40.0));
        assert_eq!((g.full_density_distance, g.max_distance), (40.0, 80.0));
        assert_eq!((g.density_floor, g.cast_shadows), (0.15, false));
        assert!(g.height.is_none() && g.roles.is_none() && g.channel_cutoff.is_none());
        let s = serde_json::to_value(g).unwrap();
        assert_eq!(s["geometry"], json!({"model": "grass.tres"}));
    }

    #[test]
    fn bad_values_are_located() {
        let (t, e) = read(json!({
            "grass": {"model": "g", "density": -1, "roles": ["grass", "lawn"],
                      "max_distance": 10, "jitter": 2, "collision": "static",
                      "channel_cutoff": {"value": 1}, "colour": 1},
            "bad id": {"model": "g"},
            "flower": {"model": "f", "prefab": "p"}
        }));
        assert!(t.is_empty());
        let all = e.join("\n");
        for want in [
            "palette.foliage[\"grass\"].density: must be 0..=64 instances per cell, got -1",
            "palette.foliage[\"grass\"].roles[1]: unknown role `lawn`",
            "palette.foliage[\"grass\"].max_distance: must be ≥ full_density_distance 40, got 10",
            "palette.foliage[\"grass\"].jitter",
            "palette.foliage[\"grass\"].collision: foliage never collides",
            "palette.foliage[\"grass\"].channel_cutoff.channel: is required",
            "palette.foliage[\"grass\"].colour: unknown field",
            "palette.foliage[\"bad id\"]: foliage type ids use letters",
            "palette.foliage[\"flower\"]: needs exactly one geometry reference",
        ] {
            assert!(all.contains(want), "missing `{want}` in:\n{all}");
        }
    }
}
