//! Asset palettes (`format_version: 3`): a material-set reference and named object placement
//! rules, parsed with located errors.
//!
//! A rule requests a physical `density` (instances per square terrain-local unit) on a fixed
//! candidate lattice of `candidate_spacing`; the palette's `art_density` and the category
//! multiplier (`grass_density`, `tree_density`, `rock_density`) scale it. The scaled density
//! must not exceed one candidate per lattice square. Versions 1 and 2 are refused with a
//! migration message. [`Palette::check_budgets`] bounds the work a palette asks of a terrain
//! size.

use crate::doc::reader::{ObjectReader, entry, number, read_numbers, show, type_name};
use crate::error::{Diagnostics, Error, Result};
use serde_json::Value;

/// The palette format this build reads.
pub const PALETTE_VERSION: u64 = 3;

/// What a rule places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// A model (mesh) asset: decorative only (`collision: "none"`).
    Model(String),
    /// A prefab / scene: owns its materials and collider shapes.
    Prefab(String),
}

impl Geometry {
    /// The reference as written.
    pub fn reference(&self) -> &str {
        match self {
            Geometry::Model(s) | Geometry::Prefab(s) => s,
        }
    }
    /// `"model"` or `"prefab"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Geometry::Model(_) => "model",
            Geometry::Prefab(_) => "prefab",
        }
    }
}

/// A rule's category: selects the palette's category density multiplier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleCategory {
    /// Grass and small foliage (`grass_density`).
    Grass,
    /// Trees (`tree_density`).
    Tree,
    /// Rocks (`rock_density`).
    Rock,
    /// Anything else (no category multiplier; the default).
    Prop,
}

impl RuleCategory {
    /// Every category, in documentation order.
    pub const ALL: [RuleCategory; 4] = [Self::Grass, Self::Tree, Self::Rock, Self::Prop];
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Grass => "grass",
            Self::Tree => "tree",
            Self::Rock => "rock",
            Self::Prop => "prop",
        }
    }
}

/// Collision a placed instance gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collision {
    /// Decorative: no collision.
    None,
    /// The prefab's collider shapes as static bodies (the default).
    Static,
    /// The prefab's collider shapes as triggers (areas).
    Trigger,
}

impl Collision {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Static => "static",
            Self::Trigger => "trigger",
        }
    }
}

/// Smooth density patches: `size` (terrain-local units) and `strength` (0 uniform .. 1 patchy).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    /// Physical size of a patch.
    pub size: f64,
    /// Blend from uniform density (0) toward patches (1).
    pub strength: f64,
}

impl Default for Cluster {
    fn default() -> Self {
        Self {
            size: 16.0,
            strength: 0.0,
        }
    }
}

/// One placement rule.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacementRule {
    /// Stable id (letters, digits, `_`, `-`): part of every placement's identity.
    pub id: String,
    /// What it places.
    pub geometry: Geometry,
    /// Category (density multiplier).
    pub category: RuleCategory,
    /// Requested instances per square unit before filters, clusters and spacing.
    pub density: f64,
    /// Side of a candidate lattice square (terrain-local units).
    pub candidate_spacing: f64,
    /// Minimum separation within the rule (0 = none).
    pub spacing: f64,
    /// Uniform scale range.
    pub scale: [f64; 2],
    /// Yaw range in degrees.
    pub yaw: [f64; 2],
    /// Biome names the rule grows in (`None` = every biome).
    pub biomes: Option<Vec<String>>,
    /// Slope range in degrees from horizontal (inclusive).
    pub slope: [f64; 2],
    /// Moisture range (normalized saturation, inclusive).
    pub moisture: [f64; 2],
    /// Distance to the nearest wet sample (inclusive), `None` = unconstrained.
    pub water_distance: Option<[f64; 2]>,
    /// Density patches.
    pub cluster: Cluster,
    /// Collision of placed instances.
    pub collision: Collision,
}

/// A parsed, validated palette.
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    /// Display name (part of placement identities).
    pub name: String,
    /// The material set it binds, if any.
    pub material_set: Option<String>,
    /// Multiplies every rule's density.
    pub art_density: f64,
    /// Multiplies `grass` rules.
    pub grass_density: f64,
    /// Multiplies `tree` rules.
    pub tree_density: f64,
    /// Multiplies `rock` rules.
    pub rock_density: f64,
    /// Rules in id order (the order never affects placements).
    pub rules: Vec<PlacementRule>,
    /// Foliage types in id order (the `foliage` section, see [`super::foliage`]).
    pub foliage: Vec<super::foliage::FoliageType>,
    /// The document as authored (canonical JSON, cache keys).
    source: Value,
}

/// Work limits of one scatter run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Lattice candidates over all rules.
    pub candidates: u64,
    /// Spacing comparisons (potential sites × lattice neighbours) over all rules.
    pub spacing_checks: u64,
    /// Placements kept; more are truncated (and reported).
    pub placements: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Self {
            candidates: 64_000_000,
            spacing_checks: 1_000_000_000,
            placements: 4_000_000,
        }
    }
}

impl PlacementRule {
    /// The density after the palette's art and category multipliers.
    pub fn effective_density(&self, palette: &Palette) -> f64 {
        let category = match self.category {
            RuleCategory::Grass => palette.grass_density,
            RuleCategory::Tree => palette.tree_density,
            RuleCategory::Rock => palette.rock_density,
            RuleCategory::Prop => 1.0,
        };
        self.density * palette.art_density * category
    }

    /// Lattice squares within `spacing` along one axis.
    pub fn spacing_reach(&self) -> u64 {
        (self.spacing / self.candidate_spacing).ceil() as u64
    }
}

pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
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

    /// The document as authored.
    pub fn to_value(&self) -> Value {
        self.source.clone()
    }

    /// The foliage type with id `id`.
    pub fn foliage_type(&self, id: &str) -> Option<&super::foliage::FoliageType> {
        self.foliage.iter().find(|t| t.id == id)
    }

    /// The rule with id `id`.
    pub fn rule(&self, id: &str) -> Option<&PlacementRule> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// Reports, at `path`, a palette that asks more work of a terrain of `size` than `budgets`
    /// allow: lattice candidates and spacing comparisons, with what to change.
    pub fn check_budgets(
        &self,
        size: [f32; 2],
        budgets: &Budgets,
        path: &str,
        d: &mut Diagnostics,
    ) {
        let mut candidates = 0u64;
        let mut checks = 0u64;
        let mut worst_c: Option<(&str, u64)> = None;
        let mut worst_s: Option<(&str, u64)> = None;
        for rule in &self.rules {
            let eff = rule.effective_density(self);
            if eff <= 0.0 {
                continue;
            }
            let cs = rule.candidate_spacing;
            let n = ((size[0] as f64 / cs).ceil() as u64)
                .saturating_mul((size[1] as f64 / cs).ceil() as u64);
            candidates = candidates.saturating_add(n);
            if worst_c.is_none_or(|(_, w)| n > w) {
                worst_c = Some((&rule.id, n));
            }
            if rule.spacing > 0.0 {
                let reach = 2 * rule.spacing_reach() + 1;
                let sites = (n as f64 * (eff * cs * cs).min(1.0)) as u64;
                let s = sites.saturating_mul(reach * reach);
                checks = checks.saturating_add(s);
                if worst_s.is_none_or(|(_, w)| s > w) {
                    worst_s = Some((&rule.id, s));
                }
            }
        }
        if candidates > budgets.candidates {
            let (id, n) = worst_c.unwrap_or(("", 0));
            d.push(
                path,
                format!(
                    "the palette makes {candidates} lattice candidates on a {}×{} terrain, more than the budget of {}; rule `{id}` alone makes {n}: raise its candidate_spacing (or split the terrain)",
                    size[0], size[1], budgets.candidates
                ),
            );
        }
        if checks > budgets.spacing_checks {
            let (id, n) = worst_s.unwrap_or(("", 0));
            d.push(
                path,
                format!(
                    "the palette needs about {checks} spacing comparisons on a {}×{} terrain, more than the budget of {}; rule `{id}` alone needs {n}: raise its candidate_spacing toward half its spacing, or lower its density",
                    size[0], size[1], budgets.spacing_checks
                ),
            );
        }
    }
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
    let model = r.opt_str(d, "model");
    let prefab = r.opt_str(d, "prefab");
    let geometry = match (model, prefab) {
        (Some(m), None) if !m.is_empty() => Some(Geometry::Model(m)),
        (None, Some(p)) if !p.is_empty() => Some(Geometry::Prefab(p)),
        (Some(_), Some(_)) => {
            d.push(
                path,
                "needs exactly one geometry reference: `model` or `prefab`, not both",
            );
            None
        }
        (Some(_), None) | (None, Some(_)) => {
            d.push(path, "the geometry reference must not be empty");
            None
        }
        (None, None) => {
            d.push(
                path,
                "needs exactly one geometry reference: `model` (a Model3D / mesh) or `prefab` (a scene)",
            );
            None
        }
    };
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
