//! Moisture: a stable climate field in `[0, 1]`, optionally raised by flow accumulation.
//!
//! **Climate.** Four octaves of fBm gradient noise (feature size [`CLIMATE_FEATURE_SIZE`]
//! world units, gain 0.5) seeded from the world seed's `biome_placement` sub-seed, sampled at
//! the terrain-local position of each sample and stretched around 0.5 by [`CLIMATE_CONTRAST`]
//! (then clamped), so most of the terrain spans roughly 0.1–0.9. It depends on nothing but the
//! seed and the position: not on the biome list, the rules, the heights or the grid resolution
//! (the same world position has the same climate at any resolution).
//!
//! **Flow.** When drainage is connected, the upstream catchment of a sample (its flow
//! accumulation in samples × cell area, in world units²) wets it:
//!
//! ```text
//! wetness  = clamp(ln(area / flow_area_start) / ln(flow_area_full / flow_area_start), 0, 1)
//! moisture = climate + (1 − climate) · flow_moisture_gain · wetness
//! ```
//!
//! so valleys and streams are moister than the ridges around them while the result stays in
//! `[0, 1]` and never drops below the climate. Without drainage, moisture is the climate.

use crate::grid::Grid;
use crate::noise::{Profile, RowSampler, RowScratch, ShapeParams, ShapeSeeds};
use crate::seed::{splitmix64, sub_seed};

/// Wavelength of the climate's first octave, in world units.
pub const CLIMATE_FEATURE_SIZE: f32 = 256.0;
/// Stretch of the raw fBm value around 0.5 (fBm concentrates near its mean).
pub const CLIMATE_CONTRAST: f32 = 2.4;

/// How flow accumulation raises moisture (see the module docs for the formula).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowWetting {
    /// Catchment area (world units²) where flow starts to wet the ground.
    pub flow_area_start: f32,
    /// Catchment area (world units²) where the flow wetness reaches 1.
    pub flow_area_full: f32,
    /// Largest share of the remaining dryness flow removes, 0..=1.
    pub flow_moisture_gain: f32,
}

impl Default for FlowWetting {
    fn default() -> Self {
        Self {
            flow_area_start: 50.0,
            flow_area_full: 5000.0,
            flow_moisture_gain: 0.6,
        }
    }
}

impl FlowWetting {
    /// Flow wetness 0..=1 of a sample whose accumulation is `accumulation` samples (including
    /// itself) on cells of `cell_area` world units².
    #[inline]
    pub fn wetness(&self, accumulation: f32, cell_area: f32) -> f32 {
        self.wetness_with(accumulation, cell_area, self.inv_span())
    }

    /// `1 / ln(flow_area_full / flow_area_start)`, or infinity when the span is not positive.
    pub fn inv_span(&self) -> f32 {
        let span = (self.flow_area_full / self.flow_area_start).ln();
        if span > 0.0 {
            1.0 / span
        } else {
            f32::INFINITY
        }
    }

    /// [`FlowWetting::wetness`] with [`FlowWetting::inv_span`] computed once.
    #[inline(always)]
    pub fn wetness_with(&self, accumulation: f32, cell_area: f32, inv_span: f32) -> f32 {
        let area = accumulation * cell_area;
        if area <= self.flow_area_start {
            return 0.0;
        }
        if area >= self.flow_area_full || inv_span.is_infinite() {
            return 1.0;
        }
        ((area / self.flow_area_start).ln() * inv_span).clamp(0.0, 1.0)
    }

    /// Moisture from a climate value and a flow wetness.
    #[inline]
    pub fn apply(&self, climate: f32, wetness: f32) -> f32 {
        climate + (1.0 - climate) * self.flow_moisture_gain * wetness
    }
}

/// The climate field of one world seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Climate {
    params: ShapeParams,
    seeds: ShapeSeeds,
}

impl Climate {
    /// The climate of world seed `seed` (its `biome_placement` sub-seed).
    pub fn new(seed: u64) -> Self {
        Self::from_sub_seed(sub_seed(seed, "biome_placement"))
    }

    /// The climate of a `biome_placement` sub-seed (what a cooked payload stores).
    pub fn from_sub_seed(s: u64) -> Self {
        Self {
            params: ShapeParams {
                profile: Profile::Fbm,
                base_height: 0.0,
                height_variation: 1.0,
                feature_size: CLIMATE_FEATURE_SIZE,
                roughness: 0.5,
                octaves: 4,
                warp_amplitude: 0.0,
                warp_feature_size: 128.0,
                stretch: 1.0,
                heading: 0.0,
            },
            seeds: ShapeSeeds {
                landform: s,
                warp: splitmix64(s),
            },
        }
    }

    #[inline]
    fn stretch(raw: f32) -> f32 {
        (0.5 + (raw - 0.5) * CLIMATE_CONTRAST).clamp(0.0, 1.0)
    }

    /// Climate at terrain-local (x, z).
    pub fn at(&self, x: f32, z: f32) -> f32 {
        Self::stretch(self.params.height_at(self.seeds, x, z))
    }

    /// A row sampler for rows of `grid` (bit-identical to [`Climate::at`] at sample positions).
    pub fn rows(&self, grid: &Grid) -> ClimateRows {
        self.segments(grid, 0, grid.samples()[0])
    }

    /// A row sampler for the samples `x0..x1` of each row of `grid` (bit-identical to
    /// [`Climate::at`] there): what an edited rectangle needs, at its cost.
    pub fn segments(&self, grid: &Grid, x0: usize, x1: usize) -> ClimateRows {
        ClimateRows {
            sampler: RowSampler::segment(
                self.params,
                self.seeds,
                x0,
                x1.saturating_sub(x0),
                grid.spacing()[0],
            ),
            dz: grid.spacing()[1],
        }
    }
}

/// Fills whole rows of climate values (see [`Climate::rows`]).
#[derive(Clone, Debug)]
pub struct ClimateRows {
    sampler: RowSampler,
    dz: f32,
}

impl ClimateRows {
    /// Climate of every sample of row `z` (or of its segment) into `out` (one value per
    /// sample).
    pub fn fill(&self, z: usize, out: &mut [f32], scratch: &mut RowScratch) {
        self.sampler.fill_row(z as f32 * self.dz, out, scratch);
        for v in out.iter_mut() {
            *v = Climate::stretch(*v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_equal_points_bit_for_bit() {
        let g = Grid::new([300.0, 200.0], [150, 80], 16).unwrap();
        let c = Climate::new(42);
        let rows = c.rows(&g);
        let mut out = vec![0.0; g.samples()[0]];
        let mut scratch = RowScratch::default();
        for z in [0usize, 7, 80] {
            rows.fill(z, &mut out, &mut scratch);
            for (x, v) in out.iter().enumerate() {
                let [px, pz] = g.sample_position(x, z);
                assert_eq!(v.to_bits(), c.at(px, pz).to_bits(), "({x},{z})");
            }
        }
    }

    #[test]
    fn segments_equal_points_bit_for_bit() {
        let g = Grid::new([300.0, 200.0], [150, 80], 16).unwrap();
        let c = Climate::new(42);
        let mut scratch = RowScratch::default();
        for (x0, x1) in [(0, 1), (13, 40), (140, 151)] {
            let rows = c.segments(&g, x0, x1);
            let mut out = vec![0.0; x1 - x0];
            for z in [0usize, 7, 80] {
                rows.fill(z, &mut out, &mut scratch);
                for (k, v) in out.iter().enumerate() {
                    let [px, pz] = g.sample_position(x0 + k, z);
                    assert_eq!(v.to_bits(), c.at(px, pz).to_bits(), "({},{z})", x0 + k);
                }
            }
        }
    }

    #[test]
    fn climate_is_seeded_stable_spread_and_resolution_independent() {
        let a = Climate::new(1);
        assert_eq!(a, Climate::new(1));
        let b = Climate::new(2);
        let mut values = Vec::new();
        let mut differs = 0;
        for i in 0..4000 {
            let (x, z) = ((i % 64) as f32 * 16.0, (i / 64) as f32 * 16.0);
            let v = a.at(x, z);
            assert!((0.0..=1.0).contains(&v));
            values.push(v);
            differs += usize::from(v != b.at(x, z));
        }
        assert!(differs > 3900, "another seed gives another climate");
        values.sort_by(f32::total_cmp);
        let (p10, p90) = (values[400], values[3600]);
        assert!(p10 < 0.3 && p90 > 0.7, "spread: p10 {p10}, p90 {p90}");
        // The same world position at two resolutions.
        let coarse = Grid::new([256.0, 256.0], [64, 64], 16).unwrap();
        let fine = Grid::new([256.0, 256.0], [256, 256], 16).unwrap();
        let (mut rc, mut rf) = (vec![0.0; 65], vec![0.0; 257]);
        let mut s = RowScratch::default();
        a.rows(&coarse).fill(10, &mut rc, &mut s);
        a.rows(&fine).fill(40, &mut rf, &mut s);
        for k in 0..65 {
            assert!((rc[k] - rf[4 * k]).abs() < 1e-5);
        }
    }

    #[test]
    fn flow_raises_moisture_within_the_unit_range() {
        let f = FlowWetting::default();
        assert_eq!(f.wetness(1.0, 1.0), 0.0);
        assert_eq!(f.wetness(50.0, 1.0), 0.0);
        assert_eq!(f.wetness(5000.0, 1.0), 1.0);
        assert_eq!(f.wetness(1e9, 1.0), 1.0);
        let mid = f.wetness(500.0, 1.0);
        assert!((mid - 0.5).abs() < 1e-5, "{mid}");
        // A 2 m grid: 4 m² per sample.
        assert_eq!(f.wetness(1250.0, 4.0), 1.0);
        for c in [0.0, 0.3, 1.0] {
            assert_eq!(f.apply(c, 0.0), c);
            let m = f.apply(c, 1.0);
            assert!(m >= c && m <= 1.0);
        }
        assert!((f.apply(0.0, 1.0) - 0.6).abs() < 1e-6);
    }
}
