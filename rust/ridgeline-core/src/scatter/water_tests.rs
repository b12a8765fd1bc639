//! Water before spacing: a candidate in water is not a potential site, so it never suppresses
//! a dry neighbour within `spacing`.

use super::filter::Surround;
use super::*;
use crate::grid::Grid;
use serde_json::json;
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

static NEVER: AtomicBool = AtomicBool::new(false);

/// Water west of `shore` (terrain-local X).
struct West {
    w: usize,
    dx: f32,
    shore: f32,
}

impl Surround for West {
    fn covered(&self, i: usize) -> bool {
        ((i % self.w) as f32 * self.dx) < self.shore
    }
    fn water_distance(&self, _: usize) -> f32 {
        f32::INFINITY
    }
    fn moisture(&self, _: usize) -> Option<f32> {
        None
    }
}

fn setup() -> (Palette, Grid, Vec<f32>, West) {
    let p = Palette::parse(
        &json!({"format_version": 3, "name": "Shore", "placements": {
            "reed": {"prefab": "res://reed.tscn", "density": 0.05, "spacing": 8}}}),
        "palette",
    )
    .unwrap();
    let g = Grid::new([200.0, 200.0], [100, 100], 16).unwrap();
    let h = vec![1.0; g.sample_count()];
    let west = West {
        w: g.samples()[0],
        dx: g.spacing()[0],
        shore: 100.0,
    };
    (p, g, h, west)
}

fn cells(s: &Scatter) -> BTreeSet<[u32; 2]> {
    s.placements.iter().map(|p| p.cell).collect()
}

#[test]
fn a_candidate_in_water_no_longer_blocks_a_dry_neighbour() {
    let (p, g, h, west) = setup();
    let mut env = Environment::open(g, &h);
    env.surround = Some(&west);
    let wet = place(
        &p,
        77,
        [200.0, 200.0],
        Some(&env),
        &Budgets::default(),
        &NEVER,
    )
    .unwrap();
    // Every spaced site when water is ignored: what water-after-spacing would have filtered.
    let dry_spacing =
        cells(&place(&p, 77, [200.0, 200.0], None, &Budgets::default(), &NEVER).unwrap());
    assert!(wet.placements.len() > 50, "{}", wet.placements.len());
    let mut freed = 0;
    for q in &wet.placements {
        assert!(
            q.position[0] >= 99.0,
            "a placement in water: {:?}",
            q.position
        );
        if !dry_spacing.contains(&q.cell) {
            // Only a wet neighbour within `spacing` could have suppressed it.
            assert!(q.position[0] < 100.0 + 8.0 + 2.0, "{:?}", q.position);
            freed += 1;
        }
    }
    assert!(freed > 0, "no dry site was freed by a wet neighbour");
    // Far from the shore nothing changes.
    let far = |s: &BTreeSet<[u32; 2]>| -> BTreeSet<[u32; 2]> {
        s.iter()
            .copied()
            .filter(|c| c[0] as f32 * 4.0 > 120.0)
            .collect()
    };
    assert_eq!(far(&cells(&wet)), far(&dry_spacing));
    assert_eq!(wet.stats[0].placed, wet.placements.len() as u64);
    // The base a refilter starts from spaces around the same water.
    let base = place_spaced(
        &p,
        77,
        [200.0, 200.0],
        Some(&env),
        &Budgets::default(),
        &NEVER,
    )
    .unwrap();
    assert_eq!(cells(&base), cells(&wet));
    assert!(base.placements.iter().all(|q| q.position[1] == 0.0));
}

#[test]
fn water_before_spacing_is_bit_identical_on_any_thread_count() {
    let (p, g, h, west) = setup();
    let mut env = Environment::open(g, &h);
    env.surround = Some(&west);
    let runs: Vec<Scatter> = [1, 2, 5]
        .into_iter()
        .map(|t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
                .install(|| {
                    place(
                        &p,
                        77,
                        [200.0, 200.0],
                        Some(&env),
                        &Budgets::default(),
                        &NEVER,
                    )
                    .unwrap()
                })
        })
        .collect();
    assert!(runs.iter().all(|r| r == &runs[0]));
}
