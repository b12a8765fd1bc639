use super::*;
use crate::biome::testkit::{biomes, classifier, eight_rules, layers, terrain};
use crate::grid::Field;
use crate::hydrology::Drainage;
use crate::hydrology::water::{WaterBody, WaterSet};

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

fn flat(cells: u32, height: f32) -> (Grid, Vec<f32>) {
    let g = Grid::new([cells as f32, cells as f32], [cells, cells], 16).unwrap();
    (g, vec![height; g.sample_count()])
}

#[test]
fn cliffs_on_sixty_degree_slopes() {
    let (g, _) = flat(40, 0.0);
    let [w, h] = g.samples();
    let rise = 60f32.to_radians().tan();
    // Flat until x = 10, a 60° face up to x = 30, flat on top.
    let heights: Vec<f32> = (0..w * h)
        .map(|i| rise * ((i % w) as f32 - 10.0).clamp(0.0, 20.0))
        .collect();
    let c = classifier(&[], f32::INFINITY);
    let cls = c
        .classify(&SurfaceInput::new(g, &heights, -100.0), &never())
        .unwrap();
    for z in 0..h {
        for x in 0..w {
            let role = cls.roles()[g.index(x, z)];
            if (11..30).contains(&x) {
                assert_eq!(role, Role::Cliff, "({x},{z})");
            } else if !(9..=31).contains(&x) {
                assert_ne!(role, Role::Cliff, "({x},{z})");
                assert_ne!(role, Role::Rock, "({x},{z})");
            }
        }
    }
    // Triangles on the face are cliff too.
    assert_eq!(cls.triangle_role(20, 20, false), Role::Cliff);
    assert_eq!(cls.triangle_role(20, 20, true), Role::Cliff);
}

fn lake(center: [f32; 2], radius: f32, level: f32) -> WaterBody {
    WaterBody::still_lake("lake", level, center, radius)
}

#[test]
fn underwater_below_a_raised_lake_uses_its_own_coverage() {
    let (g, _) = flat(40, 0.0);
    let [w, h] = g.samples();
    // Ground at 50 (far above the sea at 0) with two shallow round pits at 49.6: the lake (level
    // 49.8) fills one.
    let pit = |x: f32, z: f32, cx: f32, cz: f32| (x - cx).powi(2) + (z - cz).powi(2) <= 16.0;
    let heights: Vec<f32> = (0..w * h)
        .map(|i| {
            let (x, z) = ((i % w) as f32, (i / w) as f32);
            if pit(x, z, 10.0, 10.0) || pit(x, z, 30.0, 30.0) {
                49.6
            } else {
                50.0
            }
        })
        .collect();
    let ground = Field::from_vec(w, h, heights.clone()).unwrap();
    let mut water = WaterSet::empty(g);
    water.add(lake([10.0, 10.0], 8.0, 49.8), &ground);
    let c = classifier(&[], f32::INFINITY);
    let input = SurfaceInput {
        water: Some(&water.owner),
        ..SurfaceInput::new(g, &heights, 0.0)
    };
    let cls = c.classify(&input, &never()).unwrap();
    let role = |x, z| cls.roles()[g.index(x, z)];
    assert_eq!(role(10, 10), Role::Underwater);
    assert!(
        matches!(role(30, 30), Role::Ground | Role::Grass),
        "the other pit is below the level but dry"
    );
    assert!(cls.covered(g.index(10, 10)) && !cls.covered(g.index(30, 30)));
    // The bank next to the lake is shore (sand or wet ground), the far field is not.
    assert!(
        matches!(role(10, 15), Role::Sand | Role::WetGround),
        "{:?}",
        role(10, 15)
    );
    assert_eq!(cls.water_distance(g.index(10, 15)), 1.0);
    // The same terrain with the inferred sea at 49.8 instead: nothing touches the border.
    let sea = c
        .classify(&SurfaceInput::new(g, &heights, 49.8), &never())
        .unwrap();
    assert!(!sea.covered(g.index(10, 10)), "a closed pit is not sea");
}

#[test]
fn erosion_deposits_give_sediment_and_cuts_expose_rock() {
    let (g, heights) = flat(30, 5.0);
    let [w, _] = g.samples();
    let change: Vec<f32> = (0..g.sample_count())
        .map(|i| match i % w {
            0..=9 => 0.4,
            10..=19 => 0.0,
            _ => -0.6,
        })
        .collect();
    let c = classifier(&[], f32::INFINITY);
    let input = SurfaceInput {
        erosion: Some(&change),
        ..SurfaceInput::new(g, &heights, 0.0)
    };
    let cls = c.classify(&input, &never()).unwrap();
    for z in 0..=30 {
        assert_eq!(cls.roles()[g.index(5, z)], Role::Sediment);
        assert!(matches!(
            cls.roles()[g.index(15, z)],
            Role::Ground | Role::Grass
        ));
        assert_eq!(cls.roles()[g.index(25, z)], Role::Rock);
    }
    let ctx = c.context_at(&input, &cls, 25, 3);
    assert_eq!(ctx.substrate, Substrate::Rock);
    assert_eq!(c.context_at(&input, &cls, 5, 3).substrate, Substrate::Sand);
}

#[test]
fn snow_only_where_the_biome_allows_it() {
    let (g, heights) = flat(20, 100.0);
    let [w, _] = g.samples();
    // Left half painted beach (no snow), right half meadow (the default, snow allowed).
    let painted: Vec<u16> = (0..g.sample_count())
        .map(|i| if i % w < 10 { 4 } else { 0 })
        .collect();
    let input = SurfaceInput {
        painted: Some(&painted),
        ..SurfaceInput::new(g, &heights, 0.0)
    };
    let snowy = classifier(&[], 80.0);
    let cls = snowy.classify(&input, &never()).unwrap();
    for (i, &r) in cls.roles().iter().enumerate() {
        if i % w < 10 {
            assert_ne!(r, Role::Snow);
            assert_eq!(cls.biome_ids()[i], 3, "painted beach");
        } else {
            assert_eq!(r, Role::Snow);
            assert_eq!(cls.biome_ids()[i], 0, "default meadow");
        }
    }
    // Below the snow line nothing is snow.
    let low = classifier(&[], 120.0).classify(&input, &never()).unwrap();
    assert!(low.roles().iter().all(|&r| r != Role::Snow));
}

#[test]
fn no_rules_means_the_default_biome_plus_regions() {
    let (g, heights) = terrain(32, 3);
    let painted: Vec<u16> = (0..g.sample_count())
        .map(|i| u16::from(i % 7 == 0) * 3)
        .collect();
    let input = SurfaceInput {
        painted: Some(&painted),
        ..SurfaceInput::new(g, &heights, 0.0)
    };
    let cls = classifier(&[], f32::INFINITY)
        .classify(&input, &never())
        .unwrap();
    for (i, &b) in cls.biome_ids().iter().enumerate() {
        assert_eq!(b, if i % 7 == 0 { 2 } else { 0 });
    }
}

#[test]
fn rules_assign_several_biomes_and_painted_regions_override_them() {
    let (g, heights) = terrain(64, 5);
    let c = classifier(&eight_rules(), 20.0);
    let cls = c
        .classify(&SurfaceInput::new(g, &heights, 0.0), &never())
        .unwrap();
    let mut seen = [0usize; 7];
    for &b in cls.biome_ids() {
        seen[b as usize] += 1;
    }
    assert!(seen.iter().filter(|&&n| n > 0).count() >= 4, "{seen:?}");
    let painted = vec![6u16; g.sample_count()];
    let all_desert = c
        .classify(
            &SurfaceInput {
                painted: Some(&painted),
                ..SurfaceInput::new(g, &heights, 0.0)
            },
            &never(),
        )
        .unwrap();
    assert!(all_desert.biome_ids().iter().all(|&b| b == 5));
}

#[test]
fn flow_raises_moisture_and_marks_streams() {
    let (g, _) = flat(64, 0.0);
    let [w, h] = g.samples();
    // A valley along x = 32 draining towards z = 0.
    let heights: Vec<f32> = (0..w * h)
        .map(|i| {
            let (x, z) = ((i % w) as f32, (i / w) as f32);
            (x - 32.0).abs() * 0.3 + z * 0.05 + 10.0
        })
        .collect();
    let d = Drainage::compute(g, &Field::from_vec(w, h, heights.clone()).unwrap());
    let c = classifier(&[], f32::INFINITY);
    let dry = SurfaceInput::new(g, &heights, 0.0);
    let wet = SurfaceInput {
        flow: Some(&d.accumulation),
        ..dry
    };
    let (a, b) = (
        c.classify(&dry, &never()).unwrap(),
        c.classify(&wet, &never()).unwrap(),
    );
    let (m_dry, m_wet) = (
        c.context_at(&dry, &a, 32, 5).moisture,
        c.context_at(&wet, &b, 32, 5).moisture,
    );
    assert!(m_wet - m_dry >= (1.0 - m_dry) * 0.5, "{m_dry} → {m_wet}");
    let ridge = c.context_at(&wet, &b, 2, 60);
    assert!(!ridge.river);
    let params = SurfaceParams {
        river_area: 500.0,
        ..Default::default()
    };
    let streams = Classifier::new(7, biomes(), "meadow", &[], &layers(), params).unwrap();
    let s = streams.classify(&wet, &never()).unwrap();
    assert_eq!(s.roles()[g.index(32, 5)], Role::Sediment, "a stream bed");
    assert_eq!(
        streams.context_at(&wet, &s, 32, 5).substrate,
        Substrate::Wet
    );
}

#[test]
fn same_bytes_on_one_and_two_threads() {
    let (g, heights) = terrain(96, 11);
    let [w, h] = g.samples();
    let d = Drainage::compute(g, &Field::from_vec(w, h, heights.clone()).unwrap());
    let change: Vec<f32> = (0..w * h)
        .map(|i| ((i * 37) % 11) as f32 * 0.05 - 0.25)
        .collect();
    let c = classifier(&eight_rules(), 18.0);
    let input = SurfaceInput {
        flow: Some(&d.accumulation),
        erosion: Some(&change),
        ..SurfaceInput::new(g, &heights, 0.0)
    };
    let run = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
            .install(|| c.classify(&input, &never()).unwrap())
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one, two);
    assert!(one.distance.is_some(), "the fixture has sea");
}

#[test]
fn bad_inputs_are_reported_and_cancellation_stops() {
    let (g, heights) = flat(8, 0.0);
    let c = classifier(&[], f32::INFINITY);
    let short = vec![0.0f32; 5];
    let painted = vec![99u16; g.sample_count()];
    let input = SurfaceInput {
        flow: Some(&short),
        painted: Some(&painted),
        ..SurfaceInput::new(g, &heights, 0.0)
    };
    let e = c.classify(&input, &never()).unwrap_err();
    let paths: Vec<_> = e.diagnostics().iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["flow", "painted[0]"]);
    let cancelled = AtomicBool::new(true);
    assert!(matches!(
        c.classify(&SurfaceInput::new(g, &heights, 0.0), &cancelled),
        Err(Error::Cancelled)
    ));
    let e = Classifier::new(
        1,
        biomes(),
        "lava",
        &[],
        &layers(),
        SurfaceParams::default(),
    )
    .unwrap_err();
    assert_eq!(e.diagnostics()[0].path, "default_biome");
}
