//! Placement properties: determinism, density, spacing, stable identities, thinning without
//! refills, the ceiling, refiltering.

use super::*;
use crate::grid::Grid;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::AtomicBool;

static NEVER: AtomicBool = AtomicBool::new(false);

fn palette(v: Value) -> Palette {
    Palette::parse(&v, "palette").unwrap()
}

fn forest() -> Palette {
    palette(
        json!({"format_version": 3, "name": "Forest", "placements": {
        "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.02, "spacing": 12,
                 "scale": [0.8, 1.2], "cluster": {"size": 40, "strength": 0.6}},
        "birch": {"prefab": "res://birch.tscn", "category": "tree", "density": 0.03, "spacing": 8,
                  "cluster": {"size": 24, "strength": 0.4}},
        "rock": {"prefab": "res://rock.tscn", "category": "rock", "density": 0.01, "spacing": 6},
        "boulder": {"prefab": "res://boulder.tscn", "category": "rock", "density": 0.05, "spacing": 4}}}),
    )
}

fn flat(size: f32, cells: u32) -> (Grid, Vec<f32>) {
    let g = Grid::new([size, size], [cells, cells], 16).unwrap();
    let n = g.sample_count();
    (g, vec![5.0; n])
}

fn run(p: &Palette, env: Option<&Environment>, size: f32) -> Scatter {
    place(p, 77, [size, size], env, &Budgets::default(), &NEVER).unwrap()
}

fn ids(s: &Scatter) -> BTreeMap<(String, [u32; 2]), Placement> {
    s.placements
        .iter()
        .map(|p| ((s.rules[p.rule as usize].clone(), p.cell), *p))
        .collect()
}

#[test]
fn bit_identical_on_any_thread_count() {
    let p = forest();
    let (g, h) = flat(300.0, 150);
    let env = Environment::open(g, &h);
    let runs: Vec<Scatter> = [1, 2, 5]
        .into_iter()
        .map(|t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
                .install(|| run(&p, Some(&env), 300.0))
        })
        .collect();
    assert!(runs[0].placements.len() > 1000);
    for r in &runs[1..] {
        assert_eq!(r, &runs[0]);
    }
}

#[test]
fn density_is_within_three_percent_on_flat_open_ground() {
    for (density, cs) in [(0.5, 1.0), (0.04, 4.0), (3.0, 0.5)] {
        let p = palette(json!({"format_version": 3, "name": "g", "placements": {
            "grass": {"model": "res://g.mesh", "collision": "none", "category": "grass",
                      "density": density, "candidate_spacing": cs}}}));
        let size = 400.0;
        let (g, h) = flat(size, 200);
        let s = run(&p, Some(&Environment::open(g, &h)), size);
        let expected = density * (size * size) as f64;
        let got = s.placements.len() as f64;
        assert!(
            (got / expected - 1.0).abs() < 0.03,
            "density {density}: {got} placements for {expected} expected"
        );
    }
}

#[test]
fn spacing_is_never_violated() {
    let p = forest();
    let s = run(&p, None, 400.0);
    for (k, rule) in p.rules.iter().enumerate() {
        let pts: Vec<[f32; 3]> = s
            .placements
            .iter()
            .filter(|q| q.rule as usize == k)
            .map(|q| q.position)
            .collect();
        assert!(pts.len() > 100, "{}", rule.id);
        // Bucket by spacing so the check is exhaustive and fast.
        let cell = rule.spacing as f32;
        let mut grid: BTreeMap<(i32, i32), Vec<[f32; 3]>> = BTreeMap::new();
        for q in &pts {
            grid.entry(((q[0] / cell) as i32, (q[2] / cell) as i32))
                .or_default()
                .push(*q);
        }
        for (&(bx, bz), list) in &grid {
            for a in list {
                for dz in -1..=1 {
                    for dx in -1..=1 {
                        for b in grid.get(&(bx + dx, bz + dz)).into_iter().flatten() {
                            if a == b {
                                continue;
                            }
                            let d = ((a[0] - b[0]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
                            assert!(
                                d as f64 >= rule.spacing - 1e-3,
                                "{}: {d} < {}",
                                rule.id,
                                rule.spacing
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn identities_survive_resolution_changes_and_unrelated_rule_edits() {
    let p = forest();
    let (g1, h1) = flat(256.0, 64);
    let (g2, h2) = flat(256.0, 512);
    let a = run(&p, Some(&Environment::open(g1, &h1)), 256.0);
    let b = run(&p, Some(&Environment::open(g2, &h2)), 256.0);
    assert_eq!(ids(&a), ids(&b), "resolution moved placements");
    // Another rule's density, a new rule and the authored order do not move pine.
    let mut v = p.to_value();
    v["placements"]["birch"]["density"] = json!(0.005);
    v["placements"]["aaa_first"] = json!({"prefab": "x", "density": 0.05, "spacing": 3});
    let c = run(&palette(v), Some(&Environment::open(g1, &h1)), 256.0);
    let pine = |s: &Scatter| -> Vec<Placement> {
        ids(s)
            .into_iter()
            .filter(|(k, _)| k.0 == "pine")
            .map(|(_, mut p)| {
                p.rule = 0;
                p
            })
            .collect()
    };
    assert!(!pine(&a).is_empty());
    assert_eq!(pine(&a), pine(&c));
    let key = a.key("Terrain", &a.placements[0]);
    assert!(key.starts_with("Terrain:Forest:"), "{key}");
}

#[test]
fn density_changes_thin_without_moving_survivors() {
    let mk = |d: f64| {
        palette(json!({"format_version": 3, "name": "g", "placements": {
            "rock": {"prefab": "r", "density": d, "candidate_spacing": 2}}}))
    };
    let hi = ids(&run(&mk(0.2), None, 200.0));
    let lo = ids(&run(&mk(0.1), None, 200.0));
    assert!(lo.len() < hi.len() * 6 / 10 && !lo.is_empty());
    for (k, p) in &lo {
        assert_eq!(hi.get(k), Some(p));
    }
}

#[test]
fn exclusions_thin_without_refills_elsewhere() {
    let p = forest();
    let size = 200.0;
    let (g, h) = flat(size, 100);
    let open = run(&p, Some(&Environment::open(g, &h)), size);
    let mut mask = vec![0.0f32; g.sample_count()];
    for z in 40..60 {
        for x in 40..60 {
            mask[g.index(x, z)] = 1.0;
        }
    }
    let mut env = Environment::open(g, &h);
    env.blocked.push(&mask);
    let excluded = run(&p, Some(&env), size);
    let (a, b) = (ids(&open), ids(&excluded));
    assert!(b.len() < a.len());
    for (k, q) in &b {
        assert_eq!(a.get(k), Some(q), "a placement appeared: {k:?}");
    }
    for (k, q) in &a {
        if !b.contains_key(k) {
            let [x, _, z] = q.position;
            assert!(
                (79.0..=121.0).contains(&x) && (79.0..=121.0).contains(&z),
                "{k:?} removed outside"
            );
        }
    }
}

#[test]
fn filters_water_slope_and_biomes() {
    let p = palette(json!({"format_version": 3, "name": "g", "placements": {
        "a": {"prefab": "a", "density": 0.5, "candidate_spacing": 1, "slope": [0, 20], "biomes": ["meadow"]}}}));
    let (g, _) = flat(100.0, 100);
    // A 45° ramp on the right half.
    let h: Vec<f32> = (0..g.sample_count())
        .map(|i| {
            let x = (i % 101) as f32;
            if x > 50.0 { x - 50.0 } else { 0.0 }
        })
        .collect();
    let mut covered = vec![0u8; g.sample_count()];
    for x in 0..20 {
        for z in 0..101 {
            covered[g.index(x, z)] = 1;
        }
    }
    struct Wet(Vec<u8>);
    impl filter::Surround for Wet {
        fn covered(&self, i: usize) -> bool {
            self.0[i] != 0
        }
        fn water_distance(&self, _: usize) -> f32 {
            f32::INFINITY
        }
        fn moisture(&self, _: usize) -> Option<f32> {
            None
        }
    }
    let wet = Wet(covered);
    let names = vec!["meadow".to_string(), "desert".to_string()];
    let biomes: Vec<u16> = (0..g.sample_count())
        .map(|i| u16::from((i / 101) >= 80))
        .collect();
    let classes = crate::biome::SampleClasses::from_ids(&biomes, &vec![0; biomes.len()]);
    let env = Environment {
        surround: Some(&wet),
        classes: Some(&classes),
        biome_names: &names,
        ..Environment::open(g, &h)
    };
    let s = run(&p, Some(&env), 100.0);
    assert!(!s.is_empty());
    for q in &s.placements {
        let [x, y, z] = q.position;
        assert!((19.5..=51.0).contains(&x) && z < 80.5, "({x}, {z})");
        assert!((y - env.height_at(x, z).unwrap()).abs() < 1e-6);
    }
}

#[test]
fn the_ceiling_truncates_and_reports() {
    let p = forest();
    let full = run(&p, None, 300.0);
    let b = Budgets {
        placements: 100,
        ..Budgets::default()
    };
    let t = place(&p, 77, [300.0, 300.0], None, &b, &NEVER).unwrap();
    assert_eq!(t.placements.len(), 100);
    assert_eq!(t.truncated, full.placements.len() - 100);
    assert!(
        t.report()["warning"]
            .as_str()
            .unwrap()
            .contains("placement ceiling dropped")
    );
    let kept: BTreeSet<_> = ids(&t).into_keys().collect();
    assert!(kept.iter().all(|k| ids(&full).contains_key(k)));
    let tight = Budgets {
        candidates: 1000,
        ..Budgets::default()
    };
    let e = place(&p, 77, [300.0, 300.0], None, &tight, &NEVER).unwrap_err();
    assert!(e.to_string().contains("lattice candidates"), "{e}");
}

#[test]
fn refiltering_snaps_heights_keeps_ids_and_never_invents() {
    let p = forest();
    let size = 200.0;
    let (g, h) = flat(size, 100);
    let base = run(&p, None, size);
    let env = Environment::open(g, &h);
    let before = refilter::refilter(&p, 77, &base, &env);
    assert_eq!(before.placements.len(), base.placements.len());
    assert!(before.placements.iter().all(|q| q.position[1] == 5.0));
    // Raise a bump, exclude a square.
    let mut h2 = h.clone();
    for z in 10..30 {
        for x in 10..30 {
            h2[g.index(x, z)] = 9.0;
        }
    }
    let mut mask = vec![0.0f32; g.sample_count()];
    for z in 60..70 {
        for x in 60..70 {
            mask[g.index(x, z)] = 1.0;
        }
    }
    let mut env2 = Environment::open(g, &h2);
    env2.blocked.push(&mask);
    let after = refilter::refilter(&p, 77, &base, &env2);
    let (a, b) = (ids(&before), ids(&after));
    assert!(b.len() < a.len());
    for (k, q) in &b {
        let old = a[k];
        assert_eq!(
            (
                old.cell,
                old.yaw,
                old.scale,
                old.position[0],
                old.position[2]
            ),
            (q.cell, q.yaw, q.scale, q.position[0], q.position[2])
        );
        assert_eq!(
            q.position[1],
            env2.height_at(q.position[0], q.position[2]).unwrap()
        );
    }
    // Only the edited rectangles re-checked: the same as a full refilter.
    let region = refilter::refilter_region(&p, 77, &base, &before, &env2, [0.0, 0.0, 142.0, 142.0]);
    assert_eq!(region, after);
    // Undo: the original environment gives the original placements back.
    assert_eq!(refilter::refilter(&p, 77, &base, &env), before);
}
