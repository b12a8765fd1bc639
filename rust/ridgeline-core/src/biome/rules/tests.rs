use super::*;
use crate::biome::testkit::{biomes, eight_rules, layers};
use proptest::prelude::*;

fn ctx(height: f32, slope: f32, moisture: f32) -> SampleContext {
    SampleContext {
        height,
        slope,
        moisture,
        water_distance: f32::INFINITY,
        covered: false,
        river: false,
        erosion: 0.0,
        substrate: Substrate::Soil,
    }
}

fn compile(specs: &[RuleSpec]) -> RuleSet {
    RuleSet::compile(specs, &biomes(), &layers(), "rules").unwrap()
}

fn named(biome: &str, priority: f64) -> RuleSpec {
    RuleSpec {
        priority,
        ..RuleSpec::new(biome)
    }
}

#[test]
fn highest_priority_wins_wherever_it_is_listed() {
    for specs in [
        vec![named("forest", 1.0), named("rock", 5.0)],
        vec![named("rock", 5.0), named("forest", 1.0)],
    ] {
        let set = compile(&specs);
        let d = set.decide(&ctx(0.0, 0.0, 0.5), 0, 0);
        assert_eq!(d.biome, 2, "rock (id 2) has the higher priority");
    }
}

#[test]
fn equal_priority_goes_to_the_stronger_blend_then_the_earlier_rule() {
    // Both bands start at 10; A ramps over 10 m, B over 2 m. At 12 m: A 0.2, B 1.0.
    let a = RuleSpec {
        elevation: Some([10.0, 100.0]),
        blend: 10.0,
        ..named("forest", 3.0)
    };
    let b = RuleSpec {
        elevation: Some([10.0, 100.0]),
        blend: 2.0,
        ..named("rock", 3.0)
    };
    let set = compile(&[a.clone(), b.clone()]);
    let at = |h| set.decide(&ctx(h, 0.0, 0.5), 0, 0);
    assert_eq!(at(12.0).source, Source::Rule(1), "B is stronger at 12 m");
    assert_eq!(at(11.0).source, Source::Rule(1), "0.1 vs 0.5");
    // At 30 m both are at full strength: a full tie keeps the earlier rule.
    assert_eq!(at(30.0).source, Source::Rule(0));
    let swapped = compile(&[b, a]);
    assert_eq!(
        swapped.decide(&ctx(30.0, 0.0, 0.5), 0, 0).source,
        Source::Rule(0),
        "the earlier rule, whichever it is"
    );
    assert_eq!(
        swapped.decide(&ctx(12.0, 0.0, 0.5), 0, 0).source,
        Source::Rule(0)
    );
    // At the lower edge both have strength 0 but still match: tie → earlier.
    assert_eq!(at(10.0).source, Source::Rule(0));
    // A blend without an elevation band is full strength.
    let r = &set.rules()[0];
    let no_band = CompiledRule {
        spec: RuleSpec {
            elevation: None,
            ..r.spec.clone()
        },
        ..r.clone()
    };
    assert_eq!(no_band.strength(&ctx(0.0, 0.0, 0.0)), 1.0);
}

#[test]
fn bands_are_inclusive_and_the_first_rejection_follows_the_checking_order() {
    let r = RuleSpec {
        slope: Some([10.0, 20.0]),
        elevation: Some([0.0, 5.0]),
        substrate: SubstrateSet::of(&[Substrate::Rock]),
        ..named("rock", 0.0)
    };
    let set = compile(&[r]);
    let rule = &set.rules()[0];
    let rock = |h, s| SampleContext {
        substrate: Substrate::Rock,
        ..ctx(h, s, 0.5)
    };
    assert!(rule.matches(&rock(0.0, 10.0)));
    assert!(rule.matches(&rock(5.0, 20.0)));
    assert_eq!(rule.first_rejection(&rock(6.0, 21.0)), Some(Band::Slope));
    assert_eq!(
        rule.first_rejection(&rock(6.0, 15.0)),
        Some(Band::Elevation)
    );
    assert_eq!(
        rule.first_rejection(&ctx(1.0, 15.0, 0.5)),
        Some(Band::Substrate)
    );
    assert_eq!(rule.check(Band::Moisture, &ctx(1.0, 15.0, 0.5)), None);
    // Without water every water_distance band rejects.
    let wet = compile(&[RuleSpec {
        water_distance: Some([0.0, f64::MAX]),
        ..named("beach", 0.0)
    }]);
    assert_eq!(
        wet.rules()[0].first_rejection(&ctx(0.0, 0.0, 0.0)),
        Some(Band::WaterDistance)
    );
}

#[test]
fn painted_regions_win_and_nothing_matching_gives_the_default() {
    let set = compile(&[named("rock", 100.0)]);
    let c = ctx(0.0, 0.0, 0.5);
    assert_eq!(
        set.decide(&c, 4, 0),
        Decision {
            biome: 3,
            source: Source::Painted
        }
    );
    let none = compile(&[]);
    assert!(none.is_empty());
    assert_eq!(
        none.decide(&c, 0, 5),
        Decision {
            biome: 5,
            source: Source::Default
        }
    );
    assert_eq!(
        none.decide(&c, 2, 5).biome,
        1,
        "no rules: regions still apply"
    );
}

#[test]
fn rules_on_disabled_layers_are_dropped() {
    let specs = [
        RuleSpec {
            layer: Some("extra".into()),
            ..named("rock", 9.0)
        },
        named("forest", 1.0),
    ];
    let mut l = layers();
    let on = RuleSet::compile(&specs, &biomes(), &l, "rules").unwrap();
    assert_eq!(on.decide(&ctx(0.0, 0.0, 0.5), 0, 0).source, Source::Rule(0));
    l[1].enabled = false;
    let off = RuleSet::compile(&specs, &biomes(), &l, "rules").unwrap();
    assert!(!off.rules()[0].active);
    assert_eq!(
        off.decide(&ctx(0.0, 0.0, 0.5), 0, 0).source,
        Source::Rule(1)
    );
    // A rule without a layer belongs to the first biome layer.
    l[0].enabled = false;
    let none = RuleSet::compile(&specs, &biomes(), &l, "rules").unwrap();
    assert_eq!(none.rules()[1].layer.as_deref(), Some("biomes"));
    assert!(none.is_empty());
    assert_eq!(
        none.decide(&ctx(0.0, 0.0, 0.5), 0, 6).source,
        Source::Default
    );
}

#[test]
fn compile_errors_are_located() {
    let specs = [
        RuleSpec {
            layer: Some("nope".into()),
            ..named("lava", 0.0)
        },
        RuleSpec {
            slope: Some([30.0, 10.0]),
            blend: -1.0,
            ..named("rock", f64::NAN)
        },
    ];
    let e = RuleSet::compile(&specs, &biomes(), &layers(), "rules").unwrap_err();
    let paths: Vec<_> = e.diagnostics().iter().map(|d| d.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "rules[0].biome",
            "rules[0].layer",
            "rules[1].priority",
            "rules[1].blend",
            "rules[1].slope"
        ]
    );
    let mut d = Diagnostics::default();
    let r = RuleSpec::from_parts(
        Some("x".into()),
        "rock".into(),
        None,
        2.0,
        0.5,
        &[("slope", [1.0, 2.0]), ("height", [0.0, 1.0])],
        &["rock".into(), "mud".into()],
        "rules[3]",
        &mut d,
    );
    assert_eq!(r.slope, Some([1.0, 2.0]));
    assert_eq!(r.substrate, SubstrateSet::of(&[Substrate::Rock]));
    let paths: Vec<_> = d.0.iter().map(|x| x.path.as_str()).collect();
    assert_eq!(paths, ["rules[3].height", "rules[3].substrate[1]"]);
}

fn arb_rule() -> impl Strategy<Value = RuleSpec> {
    let band = |lo: f64, hi: f64| {
        prop::option::of((lo..hi, lo..hi).prop_map(|(a, b)| [a.min(b), a.max(b)]))
    };
    (
        0usize..7,
        0u8..4,
        prop::sample::select(vec![0.0, 0.5, 2.0, 6.0]),
        band(-5.0, 30.0),
        band(0.0, 90.0),
        band(0.0, 1.0),
        band(0.0, 20.0),
        0u8..16,
        any::<bool>(),
    )
        .prop_map(
            |(b, p, blend, elevation, slope, moisture, water, subs, extra)| {
                let items: Vec<Substrate> = Substrate::ALL
                    .into_iter()
                    .filter(|s| subs & (1 << *s as u8) != 0)
                    .collect();
                RuleSpec {
                    id: None,
                    biome: biomes()[b].name.clone(),
                    layer: extra.then(|| "extra".to_string()),
                    priority: p as f64,
                    blend,
                    elevation,
                    slope,
                    moisture,
                    water_distance: water,
                    substrate: SubstrateSet::of(&items),
                }
            },
        )
}

fn arb_ctx() -> impl Strategy<Value = SampleContext> {
    (
        -5.0f32..30.0,
        0.0f32..90.0,
        0.0f32..=1.0,
        prop::option::of(0.0f32..20.0),
        0usize..4,
    )
        .prop_map(|(h, s, m, d, sub)| SampleContext {
            water_distance: d.unwrap_or(f32::INFINITY),
            substrate: Substrate::ALL[sub],
            ..ctx(h, s, m)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Permuting the evaluation order never changes the winner (nor does the early exit).
    #[test]
    fn evaluation_order_never_changes_the_result(
        specs in prop::collection::vec(arb_rule(), 0..10),
        contexts in prop::collection::vec(arb_ctx(), 1..20),
        perm_seed in any::<u64>(),
    ) {
        let set = compile(&specs);
        let mut order: Vec<usize> = (0..specs.len()).collect();
        fastrand::Rng::with_seed(perm_seed).shuffle(&mut order);
        let listed: Vec<usize> = (0..specs.len()).collect();
        let reversed: Vec<usize> = (0..specs.len()).rev().collect();
        for c in &contexts {
            let w = set.winner(c);
            prop_assert_eq!(w, set.winner_in_order(c, &order));
            prop_assert_eq!(w, set.winner_in_order(c, &listed));
            prop_assert_eq!(w, set.winner_in_order(c, &reversed));
        }
    }
}

#[test]
fn the_fixture_rules_compile() {
    let set = compile(&eight_rules());
    assert_eq!(set.rules().len(), 8);
    assert!(!set.is_empty());
}

/// The flat `f32` bounds decide exactly like the `f64` bands at the edges, on the per-sample
/// path and the row path.
#[test]
fn flat_bounds_agree_with_the_bands_at_their_edges() {
    let edges = [
        0.1,
        1.0 / 3.0,
        0.7,
        1e-40,
        -0.0,
        35.0,
        89.999_999_9,
        1e300,
        -1e300,
    ];
    let mut values = Vec::new();
    for &e in &edges {
        let c = e as f32;
        for v in [c, c.next_up(), c.next_down(), c.next_up().next_up()] {
            values.push(v);
        }
    }
    values.push(f32::INFINITY);
    for &lo in &edges {
        for &hi in &edges {
            if lo > hi {
                continue;
            }
            for band in ["slope", "moisture", "water_distance", "elevation"] {
                let mut d = Diagnostics::default();
                let spec = RuleSpec::from_parts(
                    None,
                    "rock".into(),
                    None,
                    0.0,
                    0.0,
                    &[(band, [lo, hi])],
                    &[],
                    "r",
                    &mut d,
                );
                let set = compile(&[spec]);
                let rule = &set.rules()[0];
                let n = values.len();
                let ctxs: Vec<SampleContext> = values
                    .iter()
                    .map(|&v| match band {
                        "slope" => SampleContext {
                            slope: v,
                            ..ctx(0.0, 0.0, 0.0)
                        },
                        "moisture" => SampleContext {
                            moisture: v,
                            ..ctx(0.0, 0.0, 0.0)
                        },
                        "water_distance" => SampleContext {
                            water_distance: v,
                            ..ctx(0.0, 0.0, 0.0)
                        },
                        _ => ctx(v, 0.0, 0.0),
                    })
                    .collect();
                let col = |f: fn(&SampleContext) -> f32| ctxs.iter().map(f).collect::<Vec<_>>();
                let (a, b, c, e) = (
                    col(|c| c.slope),
                    col(|c| c.moisture),
                    col(|c| c.water_distance),
                    col(|c| c.height),
                );
                let subs = vec![1u32; n];
                let mut masks = vec![0u32; n];
                set.row_masks([&a, &b, &c, &e], &subs, &mut masks);
                for (k, c) in ctxs.iter().enumerate() {
                    let want = rule.matches(c);
                    assert_eq!(
                        set.winner(c).is_some(),
                        want,
                        "{band} [{lo}, {hi}] at {c:?}"
                    );
                    assert_eq!(
                        masks[k] != 0,
                        want,
                        "row path, {band} [{lo}, {hi}] at {c:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn mask_winner_equals_the_sample_winner() {
    let mut rng = fastrand::Rng::with_seed(8);
    let specs = eight_rules();
    let set = compile(&specs);
    let n = 5000;
    let ctxs: Vec<SampleContext> = (0..n)
        .map(|_| SampleContext {
            water_distance: if rng.bool() {
                rng.f32() * 10.0
            } else {
                f32::INFINITY
            },
            substrate: Substrate::ALL[rng.usize(0..4)],
            ..ctx(rng.f32() * 30.0 - 5.0, rng.f32() * 90.0, rng.f32())
        })
        .collect();
    let col = |f: fn(&SampleContext) -> f32| ctxs.iter().map(f).collect::<Vec<_>>();
    let subs: Vec<u32> = ctxs.iter().map(|c| 1 << c.substrate as u32).collect();
    let mut masks = vec![0u32; n];
    set.row_masks(
        [
            &col(|c| c.slope),
            &col(|c| c.moisture),
            &col(|c| c.water_distance),
            &col(|c| c.height),
        ],
        &subs,
        &mut masks,
    );
    let mut matched = 0;
    for (c, &m) in ctxs.iter().zip(&masks) {
        let w = set.winner(c);
        assert_eq!(set.winner_from_mask(m, c.height), w, "{c:?}");
        matched += usize::from(w.is_some());
    }
    assert!(matched > n / 4 && matched < n, "{matched}");
}
