//! `explain`: why is this point this biome?
//!
//! For one position the explanation reports the nearest sample (position, cell, sample index),
//! the sea level, the assigned biome and where it came from (a named rule, a painted region or
//! the default biome), the full rule context of the sample (height, slope, moisture, water
//! distance, substrate), then either the winning rule's conditions or — when a painted region
//! or the default decided — every active rule with each band marked INSIDE or OUTSIDE and the
//! first condition that rejected it.
//!
//! The biome is the runtime's (read from the classification); the source and the band facts
//! come from the same functions the runtime uses, so explain cannot disagree with it (a test
//! checks every sample of a terrain). Blend strengths appear only in the JSON form, and only
//! for rules that matched.

use super::classify::{Classification, Classifier, SurfaceInput};
use super::context::SampleContext;
use super::roles::Role;
use super::rules::{Band, CompiledRule, Source, band_value};
use super::substrate::Substrate;
use crate::error::{Error, Result};
use serde_json::{Value, json};
use std::fmt::Write;

/// One band of one rule against the sample.
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionReport {
    /// The band.
    pub band: Band,
    /// Its `[min, max]` (numeric bands; `None` when unconstrained or the substrate band).
    pub range: Option<[f64; 2]>,
    /// Allowed substrates (the substrate band; empty = unconstrained).
    pub substrates: Vec<Substrate>,
    /// `Some(true)` INSIDE, `Some(false)` OUTSIDE, `None` unconstrained.
    pub inside: Option<bool>,
}

/// One rule against the sample.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleReport {
    /// Position in the rule list.
    pub index: usize,
    /// Id, else `#index`.
    pub label: String,
    /// Whether the rule has an id (text quotes ids).
    pub has_id: bool,
    /// Target biome name.
    pub biome: String,
    /// Its layer.
    pub layer: Option<String>,
    /// Priority.
    pub priority: f64,
    /// Blend width.
    pub blend: f64,
    /// Every band, in checking order.
    pub conditions: Vec<ConditionReport>,
    /// The first condition that rejected the sample (`None`: the rule matched).
    pub first_rejection: Option<Band>,
    /// The runtime's strength when the rule matched.
    pub strength: Option<f64>,
}

/// Where the biome came from, by name.
#[derive(Clone, Debug, PartialEq)]
pub enum ExplainedSource {
    /// A rule (list position, label, whether the label is an id).
    Rule(usize, String, bool),
    /// A painted region.
    PaintedRegion,
    /// The default biome.
    Default,
}

/// The explanation of one sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The position asked about (terrain-local X, Z).
    pub position: [f32; 2],
    /// Terrain size.
    pub terrain_size: [f32; 2],
    /// The nearest sample's grid coordinates.
    pub cell: [usize; 2],
    /// Its row-major index.
    pub sample: usize,
    /// Samples in the grid.
    pub sample_count: usize,
    /// Sea level.
    pub sea_level: f32,
    /// Assigned biome name.
    pub biome: String,
    /// Where it came from.
    pub source: ExplainedSource,
    /// The sample's context.
    pub context: SampleContext,
    /// The sample's surface role.
    pub role: Role,
    /// The winning rule, or every active rule.
    pub rules: Vec<RuleReport>,
    /// Rules on disabled layers (not evaluated).
    pub inactive_rules: usize,
}

impl Classifier {
    /// Explains the sample nearest to terrain-local (x, z) of a classified surface.
    pub fn explain(
        &self,
        input: &SurfaceInput,
        cls: &Classification,
        x: f32,
        z: f32,
    ) -> Result<Explanation> {
        let grid = input.grid;
        let Some((sx, sz)) = grid.nearest_sample(x, z) else {
            let [w, h] = grid.size();
            return Err(Error::invalid(
                "at",
                format!("({x}, {z}) is outside the terrain (0..={w} × 0..={h})"),
            ));
        };
        if cls.grid.samples() != grid.samples() || input.heights.len() != grid.sample_count() {
            return Err(Error::invalid(
                "grid",
                "the classification was made on another grid",
            ));
        }
        let i = grid.index(sx, sz);
        let ctx = self.context_at(input, cls, sx, sz);
        let (decision, _) = self.decision_at(input, cls, &ctx, sx, sz);
        let rules = self.rules().rules();
        let report = |r: &CompiledRule| rule_report(self, r, &ctx);
        let (source, reports) = match decision.source {
            Source::Rule(k) => {
                let r = &rules[k];
                (
                    ExplainedSource::Rule(k, r.label(), r.spec.id.is_some()),
                    vec![report(r)],
                )
            }
            other => (
                if other == Source::Painted {
                    ExplainedSource::PaintedRegion
                } else {
                    ExplainedSource::Default
                },
                rules.iter().filter(|r| r.active).map(report).collect(),
            ),
        };
        let biome_id = cls.biome[i];
        Ok(Explanation {
            position: [x, z],
            terrain_size: grid.size(),
            cell: [sx, sz],
            sample: i,
            sample_count: grid.sample_count(),
            sea_level: input.sea_level,
            biome: self.biomes()[biome_id as usize].name.clone(),
            source,
            context: ctx,
            role: cls.role[i],
            rules: reports,
            inactive_rules: rules.iter().filter(|r| !r.active).count(),
        })
    }
}

fn rule_report(c: &Classifier, r: &CompiledRule, ctx: &SampleContext) -> RuleReport {
    let conditions = Band::ALL
        .into_iter()
        .map(|b| ConditionReport {
            band: b,
            range: r.spec.range(b),
            substrates: if b == Band::Substrate {
                r.spec.substrate.iter().collect()
            } else {
                Vec::new()
            },
            inside: r.check(b, ctx),
        })
        .collect();
    let first_rejection = r.first_rejection(ctx);
    RuleReport {
        index: r.index,
        label: r.label(),
        has_id: r.spec.id.is_some(),
        biome: c.biomes()[r.biome as usize].name.clone(),
        layer: r.layer.clone(),
        priority: r.spec.priority,
        blend: r.spec.blend,
        conditions,
        first_rejection,
        strength: first_rejection.is_none().then(|| r.strength(ctx)),
    }
}

fn quoted(label: &str, has_id: bool) -> String {
    if has_id {
        format!("\"{label}\"")
    } else {
        label.to_string()
    }
}

/// Three decimals; huge limits in exponent form; non-finite values as `none`.
fn fmt3(v: f64) -> String {
    if !v.is_finite() {
        "none".to_string()
    } else if v.abs() >= 1e9 {
        format!("{v:e}")
    } else {
        format!("{v:.3}")
    }
}

/// A finite `f32` as the shortest JSON number that reads back to it; non-finite → null.
fn num(v: f32) -> Value {
    if v.is_finite() {
        v.to_string()
            .parse::<f64>()
            .map_or(Value::Null, Value::from)
    } else {
        Value::Null
    }
}

impl Explanation {
    /// The text report (the `explain --format text` output).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let c = &self.context;
        let [px, pz] = self.position;
        let [w, h] = self.terrain_size;
        let _ = writeln!(s, "Position: {px:.3},{pz:.3} in terrain {w:.3} x {h:.3}");
        let _ = writeln!(
            s,
            "Cell: {},{} (sample {} of {})",
            self.cell[0], self.cell[1], self.sample, self.sample_count
        );
        let _ = writeln!(s, "Sea level: {:.3}", self.sea_level);
        let _ = writeln!(s, "Biome: {}", self.biome);
        let source = match &self.source {
            ExplainedSource::Rule(_, label, has_id) => format!("rule {}", quoted(label, *has_id)),
            ExplainedSource::PaintedRegion => "painted region".to_string(),
            ExplainedSource::Default => "default biome".to_string(),
        };
        let _ = writeln!(s, "Source: {source}");
        let _ = writeln!(s, "Context:");
        let _ = writeln!(s, "  height {:.3}", c.height);
        let _ = writeln!(s, "  slope {:.3} deg", c.slope);
        let _ = writeln!(s, "  moisture {:.3}", c.moisture);
        let _ = writeln!(s, "  water distance {}", fmt3(c.water_distance as f64));
        let _ = writeln!(s, "  substrate {}", c.substrate.name());
        if self.rules.is_empty() {
            let _ = writeln!(s, "No active rules.");
        }
        for r in &self.rules {
            let _ = writeln!(
                s,
                "Rule {} biome={} priority={} blend={:.3}",
                quoted(&r.label, r.has_id),
                r.biome,
                r.priority,
                r.blend
            );
            for cond in &r.conditions {
                let _ = writeln!(s, "  {}", condition_text(cond, c));
            }
            if let Some(b) = r.first_rejection {
                let _ = writeln!(s, "  rejected by {}", b.label());
            }
        }
        if self.inactive_rules > 0 {
            let _ = writeln!(
                s,
                "({} rule(s) on disabled layers not evaluated)",
                self.inactive_rules
            );
        }
        s
    }

    /// The JSON report (the `explain --format json` output).
    pub fn to_json(&self) -> Value {
        let c = &self.context;
        let source = match &self.source {
            ExplainedSource::Rule(index, label, _) => {
                json!({"kind": "rule", "rule": label, "index": index})
            }
            ExplainedSource::PaintedRegion => json!({"kind": "painted_region"}),
            ExplainedSource::Default => json!({"kind": "default"}),
        };
        let rules: Vec<Value> = self
            .rules
            .iter()
            .map(|r| {
                let conditions: Vec<Value> = r
                    .conditions
                    .iter()
                    .map(|cond| {
                        if cond.band == Band::Substrate {
                            let allowed: Vec<&str> =
                                cond.substrates.iter().map(|s| s.name()).collect();
                            json!({"band": "substrate",
                                "allowed": if allowed.is_empty() { Value::Null } else { json!(allowed) },
                                "value": c.substrate.name(), "inside": cond.inside})
                        } else {
                            let value = band_value(cond.band, c).unwrap_or(f64::NAN) as f32;
                            json!({"band": cond.band.key(), "range": cond.range,
                                "value": num(value), "inside": cond.inside})
                        }
                    })
                    .collect();
                json!({"index": r.index, "id": if r.has_id { json!(r.label) } else { Value::Null },
                    "biome": r.biome, "layer": r.layer, "priority": r.priority, "blend": r.blend,
                    "matched": r.first_rejection.is_none(),
                    "first_rejection": r.first_rejection.map(|b| b.key()),
                    "strength": r.strength, "conditions": conditions})
            })
            .collect();
        json!({
            "position": [num(self.position[0]), num(self.position[1])],
            "terrain_size": [num(self.terrain_size[0]), num(self.terrain_size[1])],
            "cell": self.cell,
            "sample": self.sample,
            "sample_count": self.sample_count,
            "sea_level": num(self.sea_level),
            "biome": self.biome,
            "source": source,
            "context": {
                "height": num(c.height),
                "slope": num(c.slope),
                "moisture": num(c.moisture),
                "water_distance": num(c.water_distance),
                "substrate": c.substrate.name(),
                "covered": c.covered,
                "role": self.role.name(),
            },
            "rules": rules,
            "inactive_rules": self.inactive_rules,
        })
    }
}

fn condition_text(cond: &ConditionReport, c: &SampleContext) -> String {
    let label = cond.band.label();
    let verdict = |inside: bool| if inside { "INSIDE" } else { "OUTSIDE" };
    match (cond.band, cond.inside) {
        (_, None) => format!("{label} unconstrained"),
        (Band::Substrate, Some(inside)) => {
            let allowed: Vec<&str> = cond.substrates.iter().map(|s| s.name()).collect();
            format!(
                "substrate [{}] sample {} -> {}",
                allowed.join(","),
                c.substrate.name(),
                verdict(inside)
            )
        }
        (b, Some(inside)) => {
            let [lo, hi] = cond.range.unwrap_or([f64::NAN; 2]);
            let value = band_value(b, c).unwrap_or(f64::NAN);
            format!(
                "{label} [{},{}] sample {} -> {}",
                fmt3(lo),
                fmt3(hi),
                fmt3(value),
                verdict(inside)
            )
        }
    }
}

#[cfg(test)]
mod tests;
