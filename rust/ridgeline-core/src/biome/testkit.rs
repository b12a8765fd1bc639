//! Shared fixtures for the biome tests: a biome table, a rule list and synthetic terrains.

use super::rules::{BiomeLayer, RuleSpec};
use super::substrate::{Substrate, SubstrateSet};
use super::{BiomeSpec, Classifier, SurfaceParams};
use crate::grid::Grid;

/// meadow (default), forest, rock, beach (no snow), alpine, marsh, desert (no snow).
pub fn biomes() -> Vec<BiomeSpec> {
    let mut out: Vec<BiomeSpec> = [
        "meadow", "forest", "rock", "beach", "alpine", "marsh", "desert",
    ]
    .iter()
    .map(|n| BiomeSpec::named(*n))
    .collect();
    out[3].allow_snow = false;
    out[6].allow_snow = false;
    out
}

/// The two biome layers, both enabled.
pub fn layers() -> Vec<BiomeLayer> {
    vec![
        BiomeLayer {
            id: "biomes".into(),
            enabled: true,
        },
        BiomeLayer {
            id: "extra".into(),
            enabled: true,
        },
    ]
}

fn rule(id: &str, biome: &str, priority: f64) -> RuleSpec {
    RuleSpec {
        id: Some(id.into()),
        priority,
        ..RuleSpec::new(biome)
    }
}

/// Eight rules touching every band, with overlapping bands, equal priorities and blends.
pub fn eight_rules() -> Vec<RuleSpec> {
    vec![
        RuleSpec {
            water_distance: Some([0.0, 6.0]),
            elevation: Some([-100.0, 4.0]),
            ..rule("shoreline", "beach", 30.0)
        },
        RuleSpec {
            slope: Some([35.0, 90.0]),
            ..rule("crags", "rock", 20.0)
        },
        RuleSpec {
            elevation: Some([14.0, 1000.0]),
            blend: 3.0,
            ..rule("alpine", "alpine", 10.0)
        },
        RuleSpec {
            elevation: Some([10.0, 1000.0]),
            blend: 1.0,
            moisture: Some([0.5, 1.0]),
            ..rule("high_forest", "forest", 10.0)
        },
        RuleSpec {
            moisture: Some([0.55, 1.0]),
            slope: Some([0.0, 25.0]),
            ..rule("forest", "forest", 5.0)
        },
        RuleSpec {
            substrate: SubstrateSet::of(&[Substrate::Wet, Substrate::Sand]),
            moisture: Some([0.4, 1.0]),
            layer: Some("extra".into()),
            ..rule("marsh", "marsh", 5.0)
        },
        RuleSpec {
            moisture: Some([0.0, 0.3]),
            ..rule("desert", "desert", 1.0)
        },
        RuleSpec {
            elevation: Some([0.0, 8.0]),
            slope: Some([0.0, 15.0]),
            ..rule("lowland", "meadow", 1.0)
        },
    ]
}

/// A classifier over [`biomes`] and `rules` with a snow line at `snow_line`.
pub fn classifier(rules: &[RuleSpec], snow_line: f32) -> Classifier {
    Classifier::new(
        7,
        biomes(),
        "meadow",
        rules,
        &layers(),
        SurfaceParams {
            snow_line,
            ..Default::default()
        },
    )
    .expect("test classifier")
}

/// A rough terrain of `cells × cells` cells at 1 m spacing: heights about −4..=24 so part of it
/// is below a sea level of 0, with steep and flat parts.
pub fn terrain(cells: u32, seed: u64) -> (Grid, Vec<f32>) {
    let f =
        crate::testutil::rough_field([cells as f32, cells as f32], [cells, cells], 16, seed, 30.0);
    let heights = f.heights().iter().map(|h| h + 6.0).collect();
    (*f.grid(), heights)
}
