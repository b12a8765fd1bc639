use super::*;
use crate::biome::SurfaceParams;
use crate::biome::rules::{BiomeLayer, RuleSpec};
use crate::biome::testkit::{biomes, classifier, eight_rules, layers, terrain};
use crate::biome::{BiomeSpec, Classifier};
use crate::grid::Grid;
use std::sync::atomic::AtomicBool;

#[test]
fn explain_agrees_with_the_runtime_on_every_sample() {
    let (g, heights) = terrain(48, 21);
    let [w, _] = g.samples();
    let painted: Vec<u16> = (0..g.sample_count())
        .map(|i| if i % w < 6 && i / w < 6 { 2 } else { 0 })
        .collect();
    let mut specs = eight_rules();
    specs[7].layer = Some("extra".into());
    let mut l = layers();
    l[1].enabled = false;
    let c = Classifier::new(
        3,
        biomes(),
        "meadow",
        &specs,
        &l,
        SurfaceParams {
            snow_line: 16.0,
            ..Default::default()
        },
    )
    .unwrap();
    let input = SurfaceInput {
        painted: Some(&painted),
        ..SurfaceInput::new(g, &heights, 0.0)
    };
    let cls = c.classify(&input, &AtomicBool::new(false)).unwrap();
    let mut sources = [0usize; 3];
    for z in 0..=48 {
        for x in 0..=48 {
            let i = g.index(x, z);
            let e = c.explain(&input, &cls, x as f32, z as f32).unwrap();
            assert_eq!(e.sample, i);
            assert_eq!(e.biome, c.biomes()[cls.biome_ids()[i] as usize].name);
            assert_eq!(e.role, cls.roles()[i]);
            assert_eq!(
                e.inactive_rules, 2,
                "marsh and lowland sit on the disabled layer"
            );
            match &e.source {
                ExplainedSource::Rule(k, _, _) => {
                    sources[0] += 1;
                    let rule = &c.rules().rules()[*k];
                    assert_eq!(e.biome, c.biomes()[rule.biome as usize].name);
                    assert_eq!(e.rules.len(), 1);
                    let r = &e.rules[0];
                    assert_eq!(r.first_rejection, None);
                    assert!(r.conditions.iter().all(|c| c.inside != Some(false)));
                    // No higher-priority active rule matched.
                    for other in e_rules_matching(&c, &e.context) {
                        assert!(
                            other.spec.priority <= rule.spec.priority,
                            "rule {} outranks the winner",
                            other.index
                        );
                    }
                }
                ExplainedSource::PaintedRegion => {
                    sources[1] += 1;
                    assert_eq!(painted[i], cls.biome_ids()[i] + 1);
                    assert_eq!(e.rules.len(), 6, "every active rule is listed");
                }
                ExplainedSource::Default => {
                    sources[2] += 1;
                    assert_eq!(e.biome, "meadow");
                    assert_eq!(e.rules.len(), 6);
                    for r in &e.rules {
                        let first = r.first_rejection.expect("nothing matched");
                        let at = Band::ALL.iter().position(|&b| b == first).unwrap();
                        assert_eq!(r.conditions[at].inside, Some(false));
                        assert!(r.conditions[..at].iter().all(|c| c.inside != Some(false)));
                    }
                }
            }
        }
    }
    assert!(
        sources.iter().all(|&n| n > 0),
        "every source occurs: {sources:?}"
    );
}

fn e_rules_matching<'a>(
    c: &'a Classifier,
    ctx: &'a SampleContext,
) -> impl Iterator<Item = &'a CompiledRule> + 'a {
    c.rules()
        .rules()
        .iter()
        .filter(move |r| r.active && r.matches(ctx))
}

/// The seed's example: a shoreline rule matched on a wet sample.
#[test]
fn text_has_the_documented_layout() {
    let g = Grid::new([128.0, 128.0], [128, 128], 32).unwrap();
    let [w, _] = g.samples();
    // Sea along x < 12 at height 0.274 below a sea level of 8.5; land rises beyond.
    let heights: Vec<f32> = (0..g.sample_count())
        .map(|i| {
            let x = (i % w) as f32;
            if x <= 12.0 {
                0.274
            } else {
                0.274 + (x - 12.0) * 10.0
            }
        })
        .collect();
    let mut sand = BiomeSpec::named("sand");
    sand.allow_snow = false;
    let rules = [RuleSpec {
        id: Some("shoreline".into()),
        priority: 30.0,
        blend: 1.5,
        water_distance: Some([0.0, 6.0]),
        ..RuleSpec::new("sand")
    }];
    let c = Classifier::new(
        1,
        vec![BiomeSpec::named("meadow"), sand],
        "meadow",
        &rules,
        &[BiomeLayer {
            id: "biomes".into(),
            enabled: true,
        }],
        SurfaceParams::default(),
    )
    .unwrap();
    let input = SurfaceInput::new(g, &heights, 8.5);
    let cls = c.classify(&input, &AtomicBool::new(false)).unwrap();
    let e = c.explain(&input, &cls, 10.0, 110.0).unwrap();
    let text = e.to_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Position: 10.000,110.000 in terrain 128.000 x 128.000"
    );
    assert_eq!(lines[1], "Cell: 10,110 (sample 14200 of 16641)");
    assert_eq!(lines[2], "Sea level: 8.500");
    assert_eq!(lines[3], "Biome: sand");
    assert_eq!(lines[4], "Source: rule \"shoreline\"");
    assert_eq!(lines[5], "Context:");
    assert_eq!(lines[6], "  height 0.274");
    assert_eq!(lines[7], "  slope 0.000 deg");
    assert!(lines[8].starts_with("  moisture "));
    assert_eq!(lines[9], "  water distance 0.000");
    assert_eq!(lines[10], "  substrate wet");
    assert_eq!(
        lines[11],
        "Rule \"shoreline\" biome=sand priority=30 blend=1.500"
    );
    assert_eq!(
        &lines[12..],
        [
            "  slope unconstrained",
            "  moisture unconstrained",
            "  water distance [0.000,6.000] sample 0.000 -> INSIDE",
            "  elevation unconstrained",
            "  substrate unconstrained",
        ]
    );
    // Far inland nothing matches: every active rule with its first rejection.
    let far = c.explain(&input, &cls, 100.0, 5.0).unwrap().to_text();
    assert!(far.contains("Source: default biome"), "{far}");
    assert!(
        far.contains("  water distance [0.000,6.000] sample 88.000 -> OUTSIDE"),
        "{far}"
    );
    assert!(far.contains("  rejected by water distance"), "{far}");
    // JSON carries the same facts.
    let j = e.to_json();
    assert_eq!(j["sample"], 14200);
    assert_eq!(j["cell"], serde_json::json!([10, 110]));
    assert_eq!(j["source"]["kind"], "rule");
    assert_eq!(j["source"]["rule"], "shoreline");
    assert_eq!(j["context"]["height"], 0.274);
    assert_eq!(j["context"]["substrate"], "wet");
    assert_eq!(j["context"]["role"], "underwater");
    assert_eq!(j["rules"][0]["conditions"][2]["band"], "water_distance");
    assert_eq!(j["rules"][0]["conditions"][2]["inside"], true);
    assert_eq!(j["rules"][0]["matched"], true);
    let reparsed: serde_json::Value = serde_json::from_str(&j.to_string()).unwrap();
    assert_eq!(reparsed, j);
    assert!(c.explain(&input, &cls, -1.0, 5.0).is_err());
    assert!(c.explain(&input, &cls, 5.0, f32::NAN).is_err());
}

#[test]
fn painted_and_dry_samples_report_none_and_substrate_sets() {
    let (g, heights) = terrain(16, 1);
    let rules = [RuleSpec {
        substrate: crate::biome::SubstrateSet::of(&[Substrate::Rock, Substrate::Sand]),
        water_distance: Some([0.0, 1e300]),
        ..RuleSpec::new("rock")
    }];
    let c = classifier(&rules, f32::INFINITY);
    let painted = vec![2u16; g.sample_count()];
    let input = SurfaceInput {
        painted: Some(&painted),
        ..SurfaceInput::new(g, &heights, -1000.0)
    };
    let cls = c.classify(&input, &AtomicBool::new(false)).unwrap();
    let e = c.explain(&input, &cls, 3.0, 3.0).unwrap();
    assert_eq!(e.source, ExplainedSource::PaintedRegion);
    assert_eq!(e.biome, "forest");
    let text = e.to_text();
    assert!(text.contains("Source: painted region"), "{text}");
    assert!(text.contains("  water distance none"), "{text}");
    assert!(
        text.contains("Rule #0 biome=rock priority=0 blend=0.000"),
        "{text}"
    );
    assert!(
        text.contains("  water distance [0.000,1e300] sample none -> OUTSIDE"),
        "{text}"
    );
    assert!(text.contains("  substrate [rock,sand] sample "), "{text}");
    let j = e.to_json();
    assert_eq!(j["context"]["water_distance"], serde_json::Value::Null);
    assert_eq!(
        j["rules"][0]["conditions"][4]["allowed"],
        serde_json::json!(["rock", "sand"])
    );
    assert_eq!(j["rules"][0]["id"], serde_json::Value::Null);
}
