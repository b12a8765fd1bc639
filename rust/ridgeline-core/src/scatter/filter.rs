//! Environment filters: where a spaced site may actually stand.
//!
//! A site reads the terrain at its nearest sample (the environment reference) for biome,
//! slope, moisture, water coverage, water distance and the blocking masks (exclusions,
//! protection), and the exact drawn triangle for its height. Water and blocking masks always
//! block; a partial mask weight `w` blocks a site when `w` exceeds the site's own dither value,
//! so a soft brush edge thins placements evenly and the same sites return when it is erased.

use super::lattice::{Candidate, Stream};
use super::palette::PlacementRule;
use crate::biome::SampleClasses;
use crate::grid::{Grid, HoleMask};

/// Per-sample water and moisture, by sample index (row-major on the grid).
pub trait Surround: Sync {
    /// True when sample `i` is under water.
    fn covered(&self, i: usize) -> bool;
    /// Distance from sample `i` to the nearest wet sample (infinite when none is wet).
    fn water_distance(&self, i: usize) -> f32;
    /// Moisture of sample `i` (`None`: moisture ranges are not checked).
    fn moisture(&self, i: usize) -> Option<f32>;
}

/// What the filters read. Every per-sample slice is row-major on `grid`.
pub struct Environment<'a> {
    /// The terrain grid.
    pub grid: Grid,
    /// Heights per sample.
    pub heights: &'a [f32],
    /// Holes (a site in a hole cell is rejected).
    pub holes: Option<&'a HoleMask>,
    /// Biome id (indexing `biome_names`) and role per sample; `None`: every sample is
    /// `default_biome`.
    pub classes: Option<&'a SampleClasses>,
    /// Biome names by id.
    pub biome_names: &'a [String],
    /// The biome of every sample when `classes` is `None`.
    pub default_biome: &'a str,
    /// Water coverage, water distance and moisture (`None`: dry everywhere, infinitely far
    /// from water, moisture unchecked).
    pub surround: Option<&'a dyn Surround>,
    /// Blocking weights 0..1 per sample (exclusions, protection).
    pub blocked: Vec<&'a [f32]>,
}

impl<'a> Environment<'a> {
    /// An open environment: heights only (no biomes, water or masks).
    pub fn open(grid: Grid, heights: &'a [f32]) -> Self {
        Self {
            grid,
            heights,
            holes: None,
            classes: None,
            biome_names: &[],
            default_biome: "",
            surround: None,
            blocked: Vec::new(),
        }
    }

    /// True when the sample nearest terrain-local (x, z) is under water (false outside the
    /// terrain or without water). Placement checks it before spacing.
    #[inline]
    pub fn wet_at(&self, x: f32, z: f32) -> bool {
        let Some(s) = self.surround else {
            return false;
        };
        self.grid
            .nearest_sample(x, z)
            .is_some_and(|(sx, sz)| s.covered(self.grid.index(sx, sz)))
    }

    /// The exact height at terrain-local (x, z) on the drawn triangle (the grid's diagonal from
    /// (x+1, z) to (x, z+1)).
    #[inline]
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        let (ix, iz, u, v) = self.grid.locate(x, z)?;
        let w = self.grid.samples()[0];
        let h = |a: usize, b: usize| self.heights[b * w + a];
        let (h00, h10, h01, h11) = (h(ix, iz), h(ix + 1, iz), h(ix, iz + 1), h(ix + 1, iz + 1));
        Some(if u + v <= 1.0 {
            h00 + u * (h10 - h00) + v * (h01 - h00)
        } else {
            h11 + (1.0 - u) * (h01 - h11) + (1.0 - v) * (h10 - h11)
        })
    }
}

/// A rule's filters, resolved against an environment's biome table.
#[derive(Clone, Debug)]
pub struct RuleFilter {
    biome_ok: Option<Vec<bool>>,
    default_ok: bool,
    slope: [f32; 2],
    moisture: [f32; 2],
    water_distance: Option<[f32; 2]>,
}

impl RuleFilter {
    /// The filters of `rule` in `env`.
    pub fn new(rule: &PlacementRule, env: &Environment) -> Self {
        let allowed = |name: &str| {
            rule.biomes
                .as_ref()
                .is_none_or(|b| b.iter().any(|n| n == name))
        };
        Self {
            biome_ok: rule
                .biomes
                .as_ref()
                .map(|_| env.biome_names.iter().map(|n| allowed(n)).collect()),
            default_ok: allowed(env.default_biome),
            slope: rule.slope.map(|v| v as f32),
            moisture: rule.moisture.map(|v| v as f32),
            water_distance: rule.water_distance.map(|r| r.map(|v| v as f32)),
        }
    }

    /// The height a site at (x, z) stands at, or `None` when the environment rejects it.
    #[inline]
    pub fn accept(&self, env: &Environment, c: Candidate, x: f32, z: f32) -> Option<f32> {
        let (ix, iz, _, _) = env.grid.locate(x, z)?;
        if env.holes.is_some_and(|h| h.is_hole(ix, iz)) {
            return None;
        }
        let (sx, sz) = env.grid.nearest_sample(x, z)?;
        let i = env.grid.index(sx, sz);
        if env.surround.is_some_and(|s| s.covered(i)) {
            return None;
        }
        if !env.blocked.is_empty() {
            let dither = c.unit(Stream::Exclude) as f32;
            if env.blocked.iter().any(|m| m[i] > dither) {
                return None;
            }
        }
        let biome_ok = match (&self.biome_ok, env.classes) {
            (None, _) => true,
            (Some(ok), Some(c)) => c
                .biome(i)
                .and_then(|b| ok.get(b as usize).copied())
                .unwrap_or(false),
            (Some(_), None) => self.default_ok,
        };
        if !biome_ok {
            return None;
        }
        if let Some([lo, hi]) = self.water_distance {
            let d = env.surround.map_or(f32::INFINITY, |s| s.water_distance(i));
            if d < lo || d > hi {
                return None;
            }
        }
        if self.slope != [0.0, 90.0] {
            let s = crate::biome::slope::slope_degrees(&env.grid, env.heights, sx, sz);
            if s < self.slope[0] || s > self.slope[1] {
                return None;
            }
        }
        if self.moisture != [0.0, 1.0]
            && let Some(m) = env.surround.and_then(|s| s.moisture(i))
            && (m < self.moisture[0] || m > self.moisture[1])
        {
            return None;
        }
        env.height_at(x, z)
    }
}
