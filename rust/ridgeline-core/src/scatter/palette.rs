//! Asset palettes (`format_version: 3`): a material-set reference and named object placement
//! rules, parsed with located errors.
//!
//! A rule requests a physical `density` (instances per square terrain-local unit) on a fixed
//! candidate lattice of `candidate_spacing`; the palette's `art_density` and the category
//! multiplier (`grass_density`, `tree_density`, `rock_density`) scale it. The scaled density
//! must not exceed one candidate per lattice square. Versions 1 and 2 are refused with a
//! migration message (reading is in `palette_read.rs`). [`Palette::check_budgets`] bounds the
//! work a palette asks of a terrain size.

use crate::error::Diagnostics;
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
    pub(super) source: Value,
}

/// Most lattice squares a rule's `spacing` may reach (`spacing / candidate_spacing`): the
/// spacing check keeps a window of that many squares around every lattice tile and compares
/// each site with the squares within reach, so an unbounded ratio (10000 / 0.01) would ask for
/// terabytes or run for days.
pub const MAX_SPACING_REACH: f64 = 256.0;

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

impl Palette {
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
