//! The per-sample water and biome context the filters read, built from the biome module's
//! own definitions (coverage, exact water distance, climate moisture raised by flow), so a
//! rule's `moisture` and `water_distance` mean what a biome rule's do.

use super::filter::Environment;
use super::palette::Palette;
use crate::biome::Classifier;
use crate::biome::coverage::{self, COVERED, WaterSource};
use crate::grid::Grid;

/// Owned data an [`Environment`] borrows.
pub struct Surroundings<'c> {
    grid: Grid,
    covered: Vec<u8>,
    distance: Option<Vec<f32>>,
    names: Vec<String>,
    default_biome: String,
    classifier: &'c Classifier,
    flow: Option<&'c [f32]>,
}

impl<'c> Surroundings<'c> {
    /// Coverage from `water` on `heights` (distance only when a rule of `palette` reads it),
    /// biome names and moisture from `classifier`, flow from connected drainage.
    pub fn compute(
        grid: Grid,
        heights: &[f32],
        water: WaterSource,
        classifier: &'c Classifier,
        flow: Option<&'c [f32]>,
        palette: &Palette,
    ) -> Self {
        let flags = coverage::flags(&grid, heights, water);
        let distance = if palette.rules.iter().any(|r| r.water_distance.is_some()) {
            crate::biome::water_distance::distance_transform(&grid, &flags)
        } else {
            None
        };
        Self::from_parts(grid, flags, distance, classifier, flow)
    }

    /// From an existing classification's coverage and distances.
    pub fn from_classification(
        cls: &crate::biome::Classification,
        classifier: &'c Classifier,
        flow: Option<&'c [f32]>,
    ) -> Self {
        let grid = *cls.grid();
        let n = grid.sample_count();
        let flags: Vec<u8> = (0..n).map(|i| u8::from(cls.covered(i))).collect();
        let distance = cls
            .water_distance(0)
            .is_finite()
            .then(|| (0..n).map(|i| cls.water_distance(i)).collect());
        Self::from_parts(grid, flags, distance, classifier, flow)
    }

    fn from_parts(
        grid: Grid,
        flags: Vec<u8>,
        distance: Option<Vec<f32>>,
        classifier: &'c Classifier,
        flow: Option<&'c [f32]>,
    ) -> Self {
        let names: Vec<String> = classifier.biomes().iter().map(|b| b.name.clone()).collect();
        let default_biome = names
            .get(classifier.default_biome() as usize)
            .cloned()
            .unwrap_or_default();
        Self {
            grid,
            covered: flags.into_iter().map(|f| f & COVERED).collect(),
            distance,
            names,
            default_biome,
            classifier,
            flow,
        }
    }

    /// Moisture of sample `i`: the climate, raised by flow when drainage was connected.
    pub fn moisture(&self, i: usize) -> f32 {
        let w = self.grid.samples()[0];
        let [px, pz] = self.grid.sample_position(i % w, i / w);
        let p = self.classifier.params();
        let [dx, dz] = self.grid.spacing();
        let wet = self.flow.map_or(0.0, |f| p.flow.wetness(f[i], dx * dz));
        p.flow.apply(self.classifier.climate().at(px, pz), wet)
    }

    /// The environment on `heights` with `biome_ids` (by this classifier's table) and
    /// `moisture` (usually `&|i| self.moisture(i)`).
    pub fn environment<'a>(
        &'a self,
        heights: &'a [f32],
        biome_ids: Option<&'a [u16]>,
        moisture: &'a (dyn Fn(usize) -> f32 + Sync),
    ) -> Environment<'a> {
        Environment {
            biome_ids,
            biome_names: &self.names,
            default_biome: &self.default_biome,
            moisture: Some(moisture),
            covered: Some(&self.covered),
            water_distance: self.distance.as_deref(),
            ..Environment::open(self.grid, heights)
        }
    }
}
