//! `biome_rules_1025`: Biome Rules on the 1025² bench field — rules, moisture, substrate and
//! surface roles with eight rules (goal ≤ 60 ms).

use super::line;
use ridgeline_core::Heightfield;
use std::hint::black_box;

pub fn run(b: &super::Bench, field: &Heightfield) {
    use ridgeline_core::biome::rules::BiomeLayer;
    use ridgeline_core::biome::{
        BiomeSpec, Classifier, RuleSpec, Substrate, SubstrateSet, SurfaceInput, SurfaceParams,
    };
    use ridgeline_core::grid::Field;
    use ridgeline_core::hydrology::Drainage;
    // The bench field (40 m rolling relief, per-sample roughness) with the sea at 16 m, drainage
    // connected (flow raises moisture) and an erosion change field: every input is live.
    let grid = *field.grid();
    let [w, h] = grid.samples();
    let heights = field.heights();
    let flow = Drainage::compute(
        grid,
        &Field::from_vec(w, h, heights.to_vec()).expect("field"),
    )
    .accumulation;
    let erosion: Vec<f32> = (0..w * h)
        .map(|i| (((i * 2654435761) >> 7) % 200) as f32 * 0.005 - 0.5)
        .collect();
    let names = [
        "meadow", "forest", "rock", "beach", "alpine", "marsh", "desert",
    ];
    let biomes: Vec<BiomeSpec> = names.iter().map(|n| BiomeSpec::named(*n)).collect();
    let rule = |id: &str, biome: &str, priority: f64| RuleSpec {
        id: Some(id.into()),
        priority,
        ..RuleSpec::new(biome)
    };
    let rules = [
        RuleSpec {
            water_distance: Some([0.0, 6.0]),
            elevation: Some([-100.0, 18.0]),
            ..rule("shoreline", "beach", 30.0)
        },
        RuleSpec {
            slope: Some([35.0, 90.0]),
            ..rule("crags", "rock", 20.0)
        },
        RuleSpec {
            elevation: Some([32.0, 1000.0]),
            blend: 3.0,
            ..rule("alpine", "alpine", 10.0)
        },
        RuleSpec {
            elevation: Some([26.0, 1000.0]),
            blend: 2.0,
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
            ..rule("marsh", "marsh", 5.0)
        },
        RuleSpec {
            moisture: Some([0.0, 0.3]),
            ..rule("desert", "desert", 1.0)
        },
        RuleSpec {
            elevation: Some([16.0, 24.0]),
            slope: Some([0.0, 15.0]),
            ..rule("lowland", "meadow", 1.0)
        },
    ];
    let layers = [BiomeLayer {
        id: "biomes".into(),
        enabled: true,
    }];
    let params = SurfaceParams {
        snow_line: SurfaceParams::snow_line_for(16.0, field.height_range()),
        ..Default::default()
    };
    let classifier =
        Classifier::new(3, biomes, "meadow", &rules, &layers, params).expect("classifier");
    let input = SurfaceInput {
        flow: Some(&flow),
        erosion: Some(&erosion),
        ..SurfaceInput::new(grid, heights, 16.0)
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let mut counts = [0usize; 9];
    let secs = b.median(|| {
        let cls = classifier.classify(&input, &never).expect("classifies");
        counts = [0; 9];
        for &r in cls.roles() {
            counts[r as usize] += 1;
        }
        black_box(cls);
    });
    let roles_used = counts.iter().filter(|&&n| n > 0).count();
    assert!(
        roles_used >= 6,
        "the bench must exercise most roles: {counts:?}"
    );
    line("biome_rules_1025", secs * 1e3, None, "ms");
    eprintln!("biome_rules_1025: role counts {counts:?}");
}
