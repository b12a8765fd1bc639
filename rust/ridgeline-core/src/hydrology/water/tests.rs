use super::*;
use crate::Heightfield;

fn grid(n: usize) -> Grid {
    Grid::new(
        [(n - 1) as f32, (n - 1) as f32],
        [(n - 1) as u32, (n - 1) as u32],
        16,
    )
    .unwrap()
}

fn field(n: usize, f: impl Fn(f32, f32) -> f32) -> Field<f32> {
    Field::from_vec(
        n,
        n,
        (0..n * n)
            .map(|i| f((i % n) as f32, (i / n) as f32))
            .collect(),
    )
    .unwrap()
}

fn lake(id: &str, level: f32, center: [f32; 2], radius: f32) -> WaterBody {
    WaterBody::still_lake(id, level, center, radius)
}

/// Two bowls separated by a ridge of height `ridge`.
fn two_bowls(ridge: f32) -> (Grid, Field<f32>) {
    let n = 41;
    let f = field(n, |x, z| {
        if x == 20.0 {
            return ridge;
        }
        let cx = if x < 20.0 { 10.0 } else { 30.0 };
        (((x - cx).powi(2) + (z - 20.0).powi(2)).sqrt() * 0.45).min(12.0)
    });
    (grid(n), f)
}

#[test]
fn a_lake_does_not_leak_across_a_ridge_at_or_above_its_level() {
    for ridge in [5.0, 6.0] {
        let (g, f) = two_bowls(ridge);
        let mut set = WaterSet::empty(g);
        set.add(lake("west", 5.0, [10.0, 20.0], 100.0), &f);
        let [w, _] = g.samples();
        let east_wet = (0..w * w)
            .filter(|&i| set.owner[i] != 0 && i % w > 20)
            .count();
        assert_eq!(east_wet, 0, "ridge {ridge}: the east bowl stays dry");
        assert!(set.bodies[0].wet_samples > 20);
    }
    // A ridge below the level lets the lake through: the basin is connected.
    let (g, f) = two_bowls(4.0);
    let mut set = WaterSet::empty(g);
    set.add(lake("west", 5.0, [10.0, 20.0], 100.0), &f);
    let w = g.samples()[0];
    assert!((0..w * w).any(|i| set.owner[i] != 0 && i % w > 20));
}

#[test]
fn separate_depressions_need_their_own_body() {
    let (g, f) = two_bowls(8.0);
    let mut set = WaterSet::empty(g);
    set.add(lake("west", 5.0, [10.0, 20.0], 100.0), &f);
    set.add(lake("east", 5.0, [30.0, 20.0], 100.0), &f);
    assert!(set.bodies.iter().all(|b| b.wet_samples > 20));
    let w = g.samples()[0];
    assert!((0..w * w).all(|i| set.owner[i] == 0 || (set.owner[i] == 1) == (i % w < 20)));
}

#[test]
fn a_dry_centre_selects_the_nearest_wet_sample() {
    let (g, f) = two_bowls(8.0);
    let mut set = WaterSet::empty(g);
    // Centre on the ridge (dry): the nearest submerged sample picks one bowl.
    set.add(lake("l", 3.0, [20.0, 20.0], 40.0), &f);
    assert!(set.bodies[0].wet_samples > 0);
}

#[test]
fn lakes_warn_when_wet_ground_reaches_their_boundary() {
    let (g, f) = two_bowls(8.0);
    let mut set = WaterSet::empty(g);
    set.add(lake("small", 5.0, [10.0, 20.0], 3.0), &f);
    assert!(
        set.bodies[0].warnings[0].contains("reaches the boundary below level 5"),
        "{:?}",
        set.bodies[0].warnings
    );
    assert_eq!(set.bodies[0].level, 5.0, "never lowered silently");
}

#[test]
fn water_queries_use_triangle_interpolation_and_report_depth() {
    let n = 33;
    let g = grid(n);
    let f = field(n, |x, _| x * 0.5); // ground rises to the east
    let hf = Heightfield::new(g, f.as_slice().to_vec(), None).unwrap();
    let mut set = WaterSet::empty(g);
    set.add(
        WaterBody {
            kind: WaterKind::Ocean,
            footprint: Footprint::Ocean { boundary: None },
            flow_speed: 2.0,
            flow_direction: [0.0, 3.0],
            ..lake("sea", 6.0, [0.0, 0.0], 1.0)
        },
        &f,
    );
    let s = set.sample(&hf, 4.25, 10.5).expect("wet at x=4.25");
    assert_eq!(s.body_id, "sea");
    assert!((s.surface - 6.0).abs() < 1e-5);
    assert!((s.depth - (6.0 - 4.25 * 0.5)).abs() < 1e-4, "{}", s.depth);
    assert!(
        (s.flow[1] - 2.0).abs() < 1e-6 && s.flow[0] == 0.0,
        "flow normalised × speed"
    );
    assert!(
        set.sample(&hf, 20.0, 10.0).is_none(),
        "dry where the ground is above the level"
    );
    assert!(set.is_underwater(&hf, 4.0, 3.0, 10.0));
    assert!(!set.is_underwater(&hf, 4.0, 6.5, 10.0), "above the surface");
    assert!(!set.is_underwater(&hf, 4.0, 1.0, 10.0), "below the bed");
}

#[test]
fn refresh_follows_changed_ground_without_new_definitions() {
    let (g, f) = two_bowls(8.0);
    let mut set = WaterSet::empty(g);
    set.add(lake("west", 5.0, [10.0, 20.0], 100.0), &f);
    let before = set.bodies[0].wet_samples;
    let raised = Field::from_vec(41, 41, f.as_slice().iter().map(|h| h + 2.0).collect()).unwrap();
    set.refresh(&raised);
    assert!(set.bodies[0].wet_samples < before);
    assert_eq!(set.bodies[0].level, 5.0);
}

#[test]
fn depth_at_and_point_match_sample_everywhere_and_are_dry_when_it_is() {
    let n = 33;
    let g = grid(n);
    let f = field(n, |x, z| x * 0.5 + (z * 0.7).sin());
    let hf = Heightfield::new(g, f.as_slice().to_vec(), None).unwrap();
    let mut set = WaterSet::empty(g);
    assert_eq!(set.depth_at(&hf, 4.0, 4.0), 0.0, "no water at all");
    set.add(
        WaterBody {
            kind: WaterKind::Ocean,
            footprint: Footprint::Ocean { boundary: None },
            ..lake("sea", 6.0, [0.0, 0.0], 1.0)
        },
        &f,
    );
    let (mut wet, mut dry) = (0, 0);
    for i in 0..=200 {
        for j in 0..=40 {
            let (x, z) = (i as f32 * 0.165 - 0.5, j as f32 * 0.81 - 0.5);
            let d = set.depth_at(&hf, x, z);
            let p = set.point(&hf, x, z);
            match set.sample(&hf, x, z) {
                Some(s) => {
                    assert_eq!(d.to_bits(), s.depth.to_bits(), "at ({x}, {z})");
                    let p = p.expect("point() is wet where sample() is");
                    assert_eq!(set.bodies[p.body].id, s.body_id, "at ({x}, {z})");
                    assert_eq!(
                        (
                            p.kind,
                            p.surface.to_bits(),
                            p.depth.to_bits(),
                            p.normal,
                            p.flow
                        ),
                        (
                            s.kind,
                            s.surface.to_bits(),
                            s.depth.to_bits(),
                            s.normal,
                            s.flow
                        ),
                        "point() and sample() agree at ({x}, {z})"
                    );
                    wet += 1;
                }
                None => {
                    assert_eq!(d, 0.0, "dry or outside at ({x}, {z})");
                    assert_eq!(p, None, "point() dry where sample() is at ({x}, {z})");
                    dry += 1;
                }
            }
        }
    }
    assert!(
        wet > 1000 && dry > 1000,
        "both cases covered: {wet} wet, {dry} dry"
    );
}

#[test]
fn refresh_from_coverage_dries_raised_ground_and_spreads_lakes_into_lowered_ground() {
    let n = 21;
    // A pit (ground −2) in a plateau (ground 2), lake level 0.
    let ground = field(n, |x, _| if x < 10.0 { -2.0 } else { 2.0 });
    let mut set = WaterSet::empty(grid(n));
    set.add(lake("pit", 0.0, [4.0, 10.0], 30.0), &ground);
    let before = set.bodies[0].wet_samples;
    assert_eq!(before, 10 * n as u32);
    // Without its definition (as loaded from a payload), the lake keeps its coverage rules.
    if let Footprint::Lake { radius, .. } = &mut set.bodies[0].footprint {
        *radius = 0.0;
    }
    assert!(!set.definitions_complete());
    // Lower a strip of the plateau next to the pit and raise a corner of the pit.
    let edited = field(n, |x, z| {
        if x < 2.0 && z < 2.0 {
            1.0
        } else if x < 14.0 {
            -2.0
        } else {
            2.0
        }
    });
    set.refresh_from_coverage(&edited);
    let g = edited.as_slice();
    for (i, &ground) in g.iter().enumerate() {
        assert_eq!(set.owner[i] == 1, ground < 0.0, "sample {i}");
    }
    assert_eq!(set.bodies[0].wet_samples, (14 * n - 4) as u32);
}
