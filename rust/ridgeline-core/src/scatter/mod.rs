//! Scatter: deterministic placement of a palette's object rules on a terrain.
//!
//! - [`palette`]: the `format_version: 3` palette document (rules, densities, validation,
//!   work budgets).
//! - [`lattice`]: the physical candidate lattice and the per-candidate random streams
//!   (SplitMix64 of the scatter sub-seed, the rule id and the lattice square only).
//! - [`cluster`]: smooth density patches.
//! - [`spacing`]: minimum spacing by local priority against fixed potential sites (candidates
//!   in water are not potential sites).
//! - [`filter`]: the environment a site must suit (biome, slope, moisture, water, masks).
//! - [`surroundings`]: the water, biome and moisture context, from the biome module.
//! - [`place`]: the whole placement, tiled and parallel, bit-identical on any thread count.
//! - [`refilter`]: retained placements re-checked after edits (heights snap, filters re-run,
//!   nothing is invented).
//! - [`chunks`]: placements grouped by render chunk and rule, in an even thinning order.
//! - [`thinning`]: how many of a chunk's placements to draw at a distance.
//! - [`foliage`]: seed-004 foliage types (the palette's `foliage` section).
//! - [`foliage_cutoff`]: a foliage type's `channel_cutoff` resolved against the terrain's
//!   named user channels.
//! - [`foliage_place`]: per-chunk foliage placement (per cell `floor(n)` plus one by hash, one
//!   fixed even order per chunk).
//!
//! A placement's identity is its owner, palette, rule and lattice square ([`Scatter::key`]):
//! changing the terrain resolution, other rules or the rule order never changes it.

pub mod chunks;
pub mod cluster;
pub mod filter;
pub mod foliage;
pub mod foliage_cutoff;
pub mod foliage_place;
pub mod lattice;
pub mod palette;
mod palette_read;
pub mod place;
pub mod refilter;
pub mod spacing;
pub mod surroundings;
pub mod thinning;

pub use filter::Environment;
pub use palette::{Budgets, Palette, PlacementRule};
pub use place::{place, place_spaced};

/// One placed instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Index of its rule in the palette's rule list (id order).
    pub rule: u16,
    /// Its lattice square (i along X, j along Z): with the rule, its identity.
    pub cell: [u32; 2],
    /// Terrain-local position; Y stands on the surface.
    pub position: [f32; 3],
    /// Heading in degrees about +Y.
    pub yaw: f32,
    /// Uniform scale.
    pub scale: f32,
}

/// Counts of one rule's run, stage by stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    /// Lattice squares visited.
    pub candidates: u64,
    /// Sites that survived density and cluster thinning and are not in water.
    pub potential: u64,
    /// Potential sites that won their spacing neighbourhood.
    pub spaced: u64,
    /// Spaced sites the environment accepted.
    pub placed: u64,
    /// Placements kept under the placement ceiling.
    pub kept: u64,
    /// Spacing comparisons made.
    pub spacing_checks: u64,
}

impl RuleStats {
    fn add(&mut self, o: &RuleStats) {
        self.candidates += o.candidates;
        self.potential += o.potential;
        self.spaced += o.spaced;
        self.placed += o.placed;
        self.kept += o.kept;
        self.spacing_checks += o.spacing_checks;
    }
}

/// A palette's placements on one terrain.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scatter {
    /// The palette's name.
    pub palette: String,
    /// Rule ids by rule index.
    pub rules: Vec<String>,
    /// The placements: rules in id order, each rule's in tile order.
    pub placements: Vec<Placement>,
    /// Per-rule counts (by rule index).
    pub stats: Vec<RuleStats>,
    /// Placements dropped by the placement ceiling.
    pub truncated: usize,
}

impl Scatter {
    /// No placements.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// The stable identity key of `p` under terrain `owner` (empty for none):
    /// `owner:palette:rule:i:j`.
    pub fn key(&self, owner: &str, p: &Placement) -> String {
        let rule = self.rules.get(p.rule as usize).map_or("?", String::as_str);
        format!(
            "{owner}:{}:{rule}:{}:{}",
            self.palette, p.cell[0], p.cell[1]
        )
    }

    /// Counts and truncation as JSON (run reports, `ridgeline` output).
    pub fn report(&self) -> serde_json::Value {
        let mut rules = serde_json::Map::new();
        for (id, s) in self.rules.iter().zip(&self.stats) {
            rules.insert(
                id.clone(),
                serde_json::json!({
                    "candidates": s.candidates, "potential": s.potential, "spaced": s.spaced,
                    "placed": s.placed, "kept": s.kept, "spacing_checks": s.spacing_checks,
                }),
            );
        }
        let mut v = serde_json::json!({
            "palette": self.palette, "placements": self.placements.len(), "rules": rules,
        });
        if self.truncated > 0 {
            v["truncated"] = serde_json::json!(self.truncated);
            v["warning"] = serde_json::json!(format!(
                "the placement ceiling dropped {} placements (the lowest-priority ones); lower densities or split the terrain",
                self.truncated
            ));
        }
        v
    }
}

#[cfg(test)]
mod palette_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod water_tests;
