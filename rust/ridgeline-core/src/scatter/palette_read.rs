//! Reading a palette document ([`Palette::parse`], [`Palette::read`]): every field validated
//! with located messages, versions 1 and 2 refused with a migration message, each placement
//! rule's scaled density checked against its candidate lattice.

use super::palette::*;
use crate::doc::reader::{ObjectReader, entry, number, read_numbers, show, type_name};
use crate::error::{Diagnostics, Error, Result};
use serde_json::Value;

impl Palette {
    /// Parses a palette document at `path` (e.g. `palette` or a file name). Every problem is
    /// reported, located.
    pub fn parse(v: &Value, path: &str) -> Result<Palette> {
        let mut d = Diagnostics::default();
        let p = Self::read(v, path, &mut d);
        d.into_result()?;
        p.ok_or_else(|| Error::invalid(path, "is not a palette"))
    }

    /// Reads a palette, recording problems in `d`; `None` when it cannot be used at all.
    pub fn read(v: &Value, path: &str, d: &mut Diagnostics) -> Option<Palette> {
        let start = d.0.len();
        let mut r = ObjectReader::new(path, v, d);
        if !v.is_object() {
            return None;
        }
        let at_version = r.at("format_version");
        match r.raw("format_version") {
            None => {
                d.push(at_version, "is required: palettes use format_version 3");
                return None;
            }
            Some(fv) => match crate::doc::reader::whole_u64(fv) {
                Some(PALETTE_VERSION) => {}
                Some(1) => {
                    d.push(
                        at_version,
                        "palette format version 1 is no longer read: move ground bindings into a material set (`material_set`, a terrain_material_set) and object entries into named `placements` with a physical `density` and `candidate_spacing`, then set format_version 3",
                    );
                    return None;
                }
                Some(2) => {
                    d.push(
                        at_version,
                        "palette format version 2 is no longer read: placement `weight` has been replaced by physical `density` (instances per square unit); choose density and candidate_spacing for the intended landscape scale, remove `weight` and `lod`, then set format_version 3",
                    );
                    return None;
                }
                _ => {
                    d.push(
                        at_version,
                        format!(
                            "must be 3 (this build reads palette format 3), got {}",
                            show(fv)
                        ),
                    );
                    return None;
                }
            },
        }
        let name = match r.opt_str(d, "name") {
            Some(n) if !n.trim().is_empty() => n,
            Some(_) => {
                d.push(r.at("name"), "must not be empty");
                String::new()
            }
            None => {
                if !r.has("name") {
                    d.push(r.at("name"), "is required (the palette's display name)");
                }
                String::new()
            }
        };
        let material_set = r.opt_str(d, "material_set");
        let multiplier = |r: &mut ObjectReader, d: &mut Diagnostics, key: &'static str| {
            r.f64(d, key, 1.0, |x| {
                (!(0.0..=1000.0).contains(&x)).then(|| format!("must be 0..=1000, got {x}"))
            })
        };
        let art_density = multiplier(&mut r, d, "art_density");
        let grass_density = multiplier(&mut r, d, "grass_density");
        let tree_density = multiplier(&mut r, d, "tree_density");
        let rock_density = multiplier(&mut r, d, "rock_density");
        let mut palette = Palette {
            name,
            material_set,
            art_density,
            grass_density,
            tree_density,
            rock_density,
            rules: Vec::new(),
            foliage: Vec::new(),
            source: v.clone(),
        };
        let at_placements = r.at("placements");
        match r.raw("placements") {
            None => {}
            Some(Value::Object(m)) => {
                for (id, rv) in m {
                    let rpath = entry(&at_placements, id);
                    if !valid_id(id) {
                        d.push(
                            &rpath,
                            "rule ids use letters, digits, underscores or hyphens only (the id is part of every placement's identity)",
                        );
                        continue;
                    }
                    if let Some(rule) = read_rule(id, rv, &rpath, d) {
                        palette.rules.push(rule);
                    }
                }
            }
            Some(other) => d.push(
                &at_placements,
                format!("must be an object of named rules, got {}", type_name(other)),
            ),
        }
        if let Some(fv) = r.raw("foliage") {
            palette.foliage = super::foliage::read_section(fv, &r.at("foliage"), d);
        }
        r.finish(d);
        if palette.material_set.is_none()
            && !v.get("placements").is_some_and(has_entries)
            && !v.get("foliage").is_some_and(has_entries)
        {
            d.push(
                path,
                "a palette must supply a material_set or at least one placement (or foliage type)",
            );
        }
        // Densities against the lattice, once the multipliers are known.
        for rule in &palette.rules {
            let eff = rule.effective_density(&palette);
            let per_square = eff * rule.candidate_spacing * rule.candidate_spacing;
            if per_square > 1.0 + 1e-9 {
                let cat = match rule.category {
                    RuleCategory::Prop => String::new(),
                    c => format!(" × {}_density {}", c.name(), {
                        match c {
                            RuleCategory::Grass => palette.grass_density,
                            RuleCategory::Tree => palette.tree_density,
                            _ => palette.rock_density,
                        }
                    }),
                };
                d.push(
                    format!("{}.density", entry(&at_placements, &rule.id)),
                    format!(
                        "density {} × art_density {}{cat} = {eff} per square unit asks for {per_square:.3} instances per candidate lattice square (candidate_spacing {}), more than one; reduce density to at most {} or candidate_spacing to at most {:.4}",
                        rule.density,
                        palette.art_density,
                        rule.candidate_spacing,
                        rule.density / per_square,
                        (1.0 / eff).sqrt()
                    ),
                );
            }
        }
        (d.0.len() == start).then_some(palette)
    }
}

fn range(
    r: &mut ObjectReader,
    d: &mut Diagnostics,
    key: &'static str,
    default: [f64; 2],
    bounds: Option<[f64; 2]>,
) -> [f64; 2] {
    let Some(v) = r.raw(key) else {
        return default;
    };
    let path = r.at(key);
    let Some([a, b]) = read_numbers::<2>(&path, v, d) else {
        return default;
    };
    if a > b {
        d.push(
            &path,
            format!("must be [min, max] with min ≤ max, got {}", show(v)),
        );
        return default;
    }
    if let Some([lo, hi]) = bounds
        && (a < lo || b > hi)
    {
        d.push(
            &path,
            format!("must lie within [{lo}, {hi}], got {}", show(v)),
        );
        return default;
    }
    [a, b]
}

/// The one geometry reference of a placement rule or foliage type at `path`: `model` or
/// `prefab`, exactly one, not empty (each problem reported at `path`).
pub(crate) fn read_geometry(
    r: &mut ObjectReader,
    path: &str,
    d: &mut Diagnostics,
) -> Option<Geometry> {
    let model = r.opt_str(d, "model");
    let prefab = r.opt_str(d, "prefab");
    let problem = match (model, prefab) {
        (Some(m), None) if !m.is_empty() => return Some(Geometry::Model(m)),
        (None, Some(p)) if !p.is_empty() => return Some(Geometry::Prefab(p)),
        (Some(_), Some(_)) => "needs exactly one geometry reference: `model` or `prefab`, not both",
        (Some(_), None) | (None, Some(_)) => "the geometry reference must not be empty",
        (None, None) => {
            "needs exactly one geometry reference: `model` (a Model3D / mesh) or `prefab` (a scene)"
        }
    };
    d.push(path, problem);
    None
}

fn has_entries(v: &Value) -> bool {
    v.as_object().is_some_and(|m| !m.is_empty())
}

fn read_rule(id: &str, v: &Value, path: &str, d: &mut Diagnostics) -> Option<PlacementRule> {
    let start = d.0.len();
    let mut r = ObjectReader::new(path, v, d);
    if !v.is_object() {
        return None;
    }
    for (key, msg) in [
        (
            "weight",
            "is a version-2 key: placement weight has been replaced by physical `density` (instances per square unit)",
        ),
        (
            "lod",
            "the former palette integer lod was unused and is rejected in version 3; author distance LOD and culling on the referenced model or prefab",
        ),
    ] {
        if r.has(key) {
            d.push(r.at(key), msg);
        }
    }
    let _ = (r.raw("weight"), r.raw("lod"));
    let geometry = read_geometry(&mut r, path, d);
    let category = match r.opt_str(d, "category") {
        None => RuleCategory::Prop,
        Some(c) => match RuleCategory::ALL.iter().find(|k| k.name() == c) {
            Some(k) => *k,
            None => {
                d.push(
                    r.at("category"),
                    format!("must be one of grass, tree, rock, prop, got \"{c}\""),
                );
                RuleCategory::Prop
            }
        },
    };
    let density = match r.raw("density") {
        None => {
            d.push(
                r.at("density"),
                "is required (instances per square unit; 0 disables the rule)",
            );
            0.0
        }
        Some(x) => match number(x) {
            Some(x) if x >= 0.0 => x,
            _ => {
                d.push(
                    r.at("density"),
                    format!("must be a number ≥ 0, got {}", show(x)),
                );
                0.0
            }
        },
    };
    let spacing = r.f64(d, "spacing", 0.0, |x| {
        (!(0.0..=10_000.0).contains(&x)).then(|| format!("must be 0..=10000, got {x}"))
    });
    let default_cs = if spacing > 0.0 { spacing / 2.0 } else { 0.25 };
    let candidate_spacing = r.f64(d, "candidate_spacing", default_cs, |x| {
        (!(0.01..=10_000.0).contains(&x)).then(|| format!("must be 0.01..=10000, got {x}"))
    });
    if spacing / candidate_spacing > MAX_SPACING_REACH {
        d.push(
            r.at("spacing"),
            format!(
                "{spacing} is {:.0} candidate spacings of {candidate_spacing}; at most \
                 {MAX_SPACING_REACH} (raise candidate_spacing to at least {})",
                spacing / candidate_spacing,
                spacing / MAX_SPACING_REACH
            ),
        );
    }
    let scale = range(&mut r, d, "scale", [1.0, 1.0], Some([1e-4, 1e4]));
    let yaw = range(&mut r, d, "yaw", [0.0, 360.0], Some([-720.0, 720.0]));
    let biomes = match r.raw("biomes") {
        None => None,
        Some(Value::Array(a)) => {
            let mut names = Vec::new();
            for (i, b) in a.iter().enumerate() {
                match b.as_str() {
                    Some(s) if !s.is_empty() => names.push(s.to_string()),
                    _ => d.push(
                        format!("{}[{i}]", r.at("biomes")),
                        format!("must be a biome name, got {}", show(b)),
                    ),
                }
            }
            Some(names)
        }
        Some(other) => {
            d.push(
                r.at("biomes"),
                format!("must be an array of biome names, got {}", type_name(other)),
            );
            None
        }
    };
    let slope = range(&mut r, d, "slope", [0.0, 90.0], Some([0.0, 90.0]));
    let moisture = range(&mut r, d, "moisture", [0.0, 1.0], Some([0.0, 1.0]));
    let water_distance = r.has("water_distance").then(|| {
        range(
            &mut r,
            d,
            "water_distance",
            [0.0, f64::MAX],
            Some([0.0, 1e9]),
        )
    });
    let cluster = match r.raw("cluster") {
        None => Cluster::default(),
        Some(cv) => {
            let mut c = ObjectReader::new(r.at("cluster"), cv, d);
            let size = c.f64(d, "size", 16.0, |x| {
                (!(x > 0.0 && x <= 100_000.0)).then(|| format!("must be > 0 and ≤ 100000, got {x}"))
            });
            let strength = c.f64(d, "strength", 0.0, crate::doc::reader::within(0.0, 1.0));
            c.finish(d);
            Cluster { size, strength }
        }
    };
    let collision = match r.opt_str(d, "collision") {
        None => Collision::Static,
        Some(c) => match c.as_str() {
            "none" => Collision::None,
            "static" => Collision::Static,
            "trigger" => Collision::Trigger,
            _ => {
                d.push(
                    r.at("collision"),
                    format!("must be one of none, static, trigger, got \"{c}\""),
                );
                Collision::Static
            }
        },
    };
    if matches!(geometry, Some(Geometry::Model(_))) && collision != Collision::None {
        d.push(
            r.at("collision"),
            "model rules must explicitly use collision \"none\"; use a prefab with authored collider shapes for static or trigger collision (no box bounds are invented for models)",
        );
    }
    r.finish(d);
    let geometry = geometry?;
    (d.0.len() == start).then(|| PlacementRule {
        id: id.to_string(),
        geometry,
        category,
        density,
        candidate_spacing,
        spacing,
        scale,
        yaw,
        biomes,
        slope,
        moisture,
        water_distance,
        cluster,
        collision,
    })
}
