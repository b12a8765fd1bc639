//! Biome rules: which biome a sample gets from its context.
//!
//! A rule names a target biome and may band five conditions; an omitted condition is
//! unconstrained. Bands are **inclusive** `[minimum, maximum]` pairs:
//!
//! | band | value |
//! |---|---|
//! | `slope` | degrees, 0 flat to 90 vertical |
//! | `moisture` | the climate field, 0..=1 |
//! | `water_distance` | terrain-local distance to the nearest covered sample (infinite without water: every band rejects) |
//! | `elevation` | world height |
//! | `substrate` | a set of soil, rock, sand, wet (empty: any) |
//!
//! Conditions are checked in that order; the first that fails is the rule's *first rejecting
//! condition* (what `explain` reports).
//!
//! **Blend.** A rule's strength at a sample is 1, except when it has `blend > 0` and an
//! elevation band: then `clamp((height − elevation.min) · (1 / blend), 0, 1)`, a ramp over `blend`
//! world units above the band's lower edge. Strength never cross-fades colours (the biome is
//! discrete per sample); it only breaks priority ties.
//!
//! **Conflicts.** Among the matching rules of enabled layers the highest `priority` wins; equal
//! priorities go to the higher strength; a full tie goes to the rule listed first. This is a
//! total order on (priority, strength, list position), so the result never depends on the order
//! rules are evaluated in. Painted regions win over every rule; with no matching rule the
//! default biome applies.
//!
//! **Layers.** A rule belongs to its `layer`, or to the first biome layer when it names none.
//! A rule on a disabled layer is not evaluated (its layer's painted regions are dropped by the
//! editing stage the same way).

use super::BiomeSpec;
use super::context::SampleContext;
use super::substrate::{Substrate, SubstrateSet};
use crate::error::{Diagnostics, Result};
use flat::FlatRule;

/// One condition of a rule, in checking (and reporting) order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// Slope in degrees.
    Slope,
    /// Moisture 0..=1.
    Moisture,
    /// Distance to water.
    WaterDistance,
    /// World height.
    Elevation,
    /// Substrate set.
    Substrate,
}

impl Band {
    /// Every band in checking order.
    pub const ALL: [Band; 5] = [
        Band::Slope,
        Band::Moisture,
        Band::WaterDistance,
        Band::Elevation,
        Band::Substrate,
    ];

    /// The recipe key.
    pub fn key(self) -> &'static str {
        match self {
            Band::Slope => "slope",
            Band::Moisture => "moisture",
            Band::WaterDistance => "water_distance",
            Band::Elevation => "elevation",
            Band::Substrate => "substrate",
        }
    }

    /// Human label (`explain` text).
    pub fn label(self) -> &'static str {
        match self {
            Band::WaterDistance => "water distance",
            other => other.key(),
        }
    }
}

/// A rule as authored: mirrors the recipe's rule fields.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSpec {
    /// Optional id (reported by `explain`).
    pub id: Option<String>,
    /// Target biome name.
    pub biome: String,
    /// Target biome layer; `None` = the first biome layer.
    pub layer: Option<String>,
    /// Higher wins.
    pub priority: f64,
    /// Transition width (≥ 0) above the elevation band's lower edge.
    pub blend: f64,
    /// `[min, max]` world height.
    pub elevation: Option<[f64; 2]>,
    /// `[min, max]` degrees.
    pub slope: Option<[f64; 2]>,
    /// `[min, max]` 0..=1.
    pub moisture: Option<[f64; 2]>,
    /// `[min, max]` world units.
    pub water_distance: Option<[f64; 2]>,
    /// Allowed substrates (empty = any).
    pub substrate: SubstrateSet,
}

impl RuleSpec {
    /// An unconstrained rule for `biome` (priority 0, blend 0, first biome layer).
    pub fn new(biome: impl Into<String>) -> Self {
        Self {
            id: None,
            biome: biome.into(),
            layer: None,
            priority: 0.0,
            blend: 0.0,
            elevation: None,
            slope: None,
            moisture: None,
            water_distance: None,
            substrate: SubstrateSet::ANY,
        }
    }

    /// A rule from the recipe's representation: bands as `(key, [min, max])` pairs and
    /// substrates by name. Unknown band keys or substrate names are reported at `path`.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        id: Option<String>,
        biome: String,
        layer: Option<String>,
        priority: f64,
        blend: f64,
        bands: &[(&str, [f64; 2])],
        substrate: &[String],
        path: &str,
        d: &mut Diagnostics,
    ) -> Self {
        let mut r = Self {
            id,
            layer,
            priority,
            blend,
            ..Self::new(biome)
        };
        for &(key, range) in bands {
            match key {
                "elevation" => r.elevation = Some(range),
                "slope" => r.slope = Some(range),
                "moisture" => r.moisture = Some(range),
                "water_distance" => r.water_distance = Some(range),
                other => d.push(format!("{path}.{other}"), "is not a rule band"),
            }
        }
        let mut items = Vec::new();
        for (k, s) in substrate.iter().enumerate() {
            match Substrate::parse(s) {
                Some(x) => items.push(x),
                None => d.push(
                    format!("{path}.substrate[{k}]"),
                    format!("must be one of soil, rock, sand, wet, got \"{s}\""),
                ),
            }
        }
        r.substrate = SubstrateSet::of(&items);
        r
    }

    /// The band of `b` (`None` for the substrate and unconstrained bands).
    pub fn range(&self, b: Band) -> Option<[f64; 2]> {
        match b {
            Band::Slope => self.slope,
            Band::Moisture => self.moisture,
            Band::WaterDistance => self.water_distance,
            Band::Elevation => self.elevation,
            Band::Substrate => None,
        }
    }
}

/// A biome layer's id and toggle, in the recipe's layer order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BiomeLayer {
    /// Layer id.
    pub id: String,
    /// Disabled layers drop their rules.
    pub enabled: bool,
}

/// A validated rule, its biome resolved to an id.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledRule {
    /// Position in the rule list (the final tie-break).
    pub index: usize,
    /// The authored rule.
    pub spec: RuleSpec,
    /// Target biome id.
    pub biome: u16,
    /// The layer it belongs to (`None` when the recipe has no biome layer).
    pub layer: Option<String>,
    /// False when its layer is disabled.
    pub active: bool,
}

impl CompiledRule {
    /// Whether `b` contains the sample: `None` when unconstrained.
    #[inline]
    pub fn check(&self, b: Band, ctx: &SampleContext) -> Option<bool> {
        if b == Band::Substrate {
            let s = self.spec.substrate;
            return (!s.is_empty()).then(|| s.contains(ctx.substrate));
        }
        let [lo, hi] = self.spec.range(b)?;
        let v = band_value(b, ctx)?;
        Some(lo <= v && v <= hi)
    }

    /// The first condition that rejects the sample, `None` when the rule matches.
    pub fn first_rejection(&self, ctx: &SampleContext) -> Option<Band> {
        Band::ALL
            .into_iter()
            .find(|&b| self.check(b, ctx) == Some(false))
    }

    /// True when every condition contains the sample.
    #[inline]
    pub fn matches(&self, ctx: &SampleContext) -> bool {
        self.first_rejection(ctx).is_none()
    }

    /// Strength at the sample (see the module docs), 0..=1.
    #[inline]
    pub fn strength(&self, ctx: &SampleContext) -> f64 {
        match self.spec.elevation {
            Some([lo, _]) if self.spec.blend > 0.0 => {
                ((ctx.height as f64 - lo) * (1.0 / self.spec.blend)).clamp(0.0, 1.0)
            }
            _ => 1.0,
        }
    }

    /// Display name: the id, else `#index`.
    pub fn label(&self) -> String {
        match &self.spec.id {
            Some(id) => id.clone(),
            None => format!("#{}", self.index),
        }
    }
}

/// The sample value a numeric band compares (`f64`, as bands are stored); `None` for the
/// substrate.
#[inline]
pub fn band_value(b: Band, ctx: &SampleContext) -> Option<f64> {
    match b {
        Band::Slope => Some(ctx.slope as f64),
        Band::Moisture => Some(ctx.moisture as f64),
        Band::WaterDistance => Some(ctx.water_distance as f64),
        Band::Elevation => Some(ctx.height as f64),
        Band::Substrate => None,
    }
}

/// Where a sample's biome came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The rule at this list position.
    Rule(usize),
    /// A painted region.
    Painted,
    /// The default biome (no rule matched).
    Default,
}

/// A sample's biome and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Biome id.
    pub biome: u16,
    /// Its source.
    pub source: Source,
}

/// The compiled rule list.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RuleSet {
    rules: Vec<CompiledRule>,
    /// The active rules by (priority descending, list position ascending), flattened for the
    /// per-sample loop: the evaluation order that allows an early exit. Any other order gives
    /// the same winner.
    flat: Vec<FlatRule>,
}

impl RuleSet {
    /// Validates `specs` against the biome table and the biome layers; problems are located at
    /// `path[i].field`.
    pub fn compile(
        specs: &[RuleSpec],
        biomes: &[BiomeSpec],
        layers: &[BiomeLayer],
        path: &str,
    ) -> Result<Self> {
        let mut d = Diagnostics::default();
        let mut rules = Vec::with_capacity(specs.len());
        for (i, spec) in specs.iter().enumerate() {
            let at = |field: &str| format!("{path}[{i}].{field}");
            let biome = match biomes.iter().position(|b| b.name == spec.biome) {
                Some(k) => k as u16,
                None => {
                    d.push(
                        at("biome"),
                        format!("names biome `{}`, which is not defined", spec.biome),
                    );
                    0
                }
            };
            let layer = match &spec.layer {
                Some(l) => match layers.iter().find(|x| &x.id == l) {
                    Some(x) => Some(x.clone()),
                    None => {
                        d.push(
                            at("layer"),
                            format!("names `{l}`, which is not a biome layer"),
                        );
                        None
                    }
                },
                None => layers.first().cloned(),
            };
            if !spec.priority.is_finite() {
                d.push(
                    at("priority"),
                    format!("must be finite, got {}", spec.priority),
                );
            }
            if !(spec.blend.is_finite() && spec.blend >= 0.0) {
                d.push(
                    at("blend"),
                    format!("must be a finite number ≥ 0, got {}", spec.blend),
                );
            }
            for b in Band::ALL {
                if let Some([lo, hi]) = spec.range(b) {
                    if lo.is_nan() || hi.is_nan() {
                        d.push(at(b.key()), "limits must be numbers");
                    } else if lo > hi {
                        d.push(at(b.key()), format!("minimum {lo} is above maximum {hi}"));
                    }
                }
            }
            rules.push(CompiledRule {
                index: i,
                spec: spec.clone(),
                biome,
                active: layer.as_ref().is_none_or(|l| l.enabled),
                layer: layer.map(|l| l.id),
            });
        }
        d.into_result()?;
        let mut order: Vec<usize> = (0..rules.len()).filter(|&i| rules[i].active).collect();
        // Priorities are finite here; equal priorities keep list order.
        order.sort_by(|&a, &b| {
            let (pa, pb) = (rules[a].spec.priority, rules[b].spec.priority);
            pb.partial_cmp(&pa)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        });
        let flat = order.iter().map(|&i| FlatRule::new(&rules[i])).collect();
        Ok(Self { rules, flat })
    }

    /// Every rule, in list order (disabled ones included).
    pub fn rules(&self) -> &[CompiledRule] {
        &self.rules
    }

    /// True when no rule is active.
    pub fn is_empty(&self) -> bool {
        self.flat.is_empty()
    }

    /// True when rule `a` (with its strength) outranks rule `b`: higher priority, then higher
    /// strength, then the earlier list position.
    #[inline]
    pub fn beats(&self, a: (usize, f64), b: (usize, f64)) -> bool {
        let (pa, pb) = (self.rules[a.0].spec.priority, self.rules[b.0].spec.priority);
        if pa != pb {
            return pa > pb;
        }
        if a.1 != b.1 {
            return a.1 > b.1;
        }
        a.0 < b.0
    }

    /// The biome of a sample: the painted region (`painted` = biome id + 1, 0 = none), else the
    /// winning rule, else `default`.
    #[inline(always)]
    pub fn decide(&self, ctx: &SampleContext, painted: u16, default: u16) -> Decision {
        if painted != 0 {
            return Decision {
                biome: painted - 1,
                source: Source::Painted,
            };
        }
        match self.winner(ctx) {
            Some((i, _)) => Decision {
                biome: self.rules[i].biome,
                source: Source::Rule(i),
            },
            None => Decision {
                biome: default,
                source: Source::Default,
            },
        }
    }

    /// The winner when the active rules are evaluated in `order` (any permutation), without
    /// early exit: what [`RuleSet::winner`] must equal.
    pub fn winner_in_order(&self, ctx: &SampleContext, order: &[usize]) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for &i in order {
            let r = &self.rules[i];
            if r.active && r.matches(ctx) {
                let s = r.strength(ctx);
                if best.is_none_or(|b| self.beats((i, s), b)) {
                    best = Some((i, s));
                }
            }
        }
        best
    }
}

mod flat;

#[cfg(test)]
mod tests;
