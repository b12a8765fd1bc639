//! The per-sample water and moisture context the filters read ([`Surround`]), built from the
//! biome module's own definitions (coverage, exact water distance, climate moisture raised by
//! flow), so a rule's `moisture` and `water_distance` mean what a biome rule's do.

use super::filter::{Environment, Surround};
use super::palette::Palette;
use crate::biome::coverage::{self, COVERED, WaterSource};
use crate::biome::{Classification, Classifier, SampleClasses};
use crate::grid::Grid;

enum Water<'c> {
    /// Computed here (the Scatter Palette node).
    Owned {
        covered: Vec<u8>,
        distance: Option<Vec<f32>>,
    },
    /// A classification's own coverage and distances (the finished terrain), borrowed.
    Classified(&'c Classification),
}

/// Water, biome names and moisture for an [`Environment`].
pub struct Surroundings<'c> {
    grid: Grid,
    water: Water<'c>,
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
        let covered = flags.into_iter().map(|f| f & COVERED).collect();
        Self::with(grid, Water::Owned { covered, distance }, classifier, flow)
    }

    /// From an existing classification's coverage and distances (nothing is copied).
    pub fn from_classification(
        cls: &'c Classification,
        classifier: &'c Classifier,
        flow: Option<&'c [f32]>,
    ) -> Self {
        Self::with(*cls.grid(), Water::Classified(cls), classifier, flow)
    }

    fn with(
        grid: Grid,
        water: Water<'c>,
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
            water,
            names,
            default_biome,
            classifier,
            flow,
        }
    }

    /// The environment on `heights` with the biomes of `classes` (by this classifier's table).
    pub fn environment<'a>(
        &'a self,
        heights: &'a [f32],
        classes: Option<&'a SampleClasses>,
    ) -> Environment<'a> {
        Environment {
            classes,
            biome_names: &self.names,
            default_biome: &self.default_biome,
            surround: Some(self),
            ..Environment::open(self.grid, heights)
        }
    }
}

impl Surround for Surroundings<'_> {
    fn covered(&self, i: usize) -> bool {
        match &self.water {
            Water::Owned { covered, .. } => covered[i] != 0,
            Water::Classified(c) => c.covered(i),
        }
    }

    fn water_distance(&self, i: usize) -> f32 {
        match &self.water {
            Water::Owned { distance, .. } => distance.as_ref().map_or(f32::INFINITY, |d| d[i]),
            Water::Classified(c) => c.water_distance(i),
        }
    }

    /// The climate, raised by flow when drainage was connected.
    fn moisture(&self, i: usize) -> Option<f32> {
        let w = self.grid.samples()[0];
        let [px, pz] = self.grid.sample_position(i % w, i / w);
        let p = self.classifier.params();
        let [dx, dz] = self.grid.spacing();
        let wet = self.flow.map_or(0.0, |f| p.flow.wetness(f[i], dx * dz));
        Some(p.flow.apply(self.classifier.climate().at(px, pz), wet))
    }
}
