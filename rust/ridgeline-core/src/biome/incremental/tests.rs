use super::*;
use crate::biome::testkit::{classifier, eight_rules, terrain};
use crate::grid::Field;
use crate::hydrology::water::{Appearance, Footprint, WaterBody, WaterKind, WaterSet};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Edit {
    rect: [usize; 4],
    delta: f32,
    paint: u16,
    erode: f32,
}

fn arb_edit(n: usize) -> impl Strategy<Value = Edit> {
    (
        0..n,
        0..n,
        1usize..12,
        1usize..12,
        prop::sample::select(vec![-12.0f32, -3.0, -0.5, 0.0, 0.7, 4.0, 15.0]),
        0u16..4,
        prop::sample::select(vec![0.0f32, -0.5, 0.3]),
    )
        .prop_map(move |(x, z, dw, dh, delta, paint, erode)| Edit {
            rect: [x, z, (x + dw).min(n), (z + dh).min(n)],
            delta,
            paint,
            erode,
        })
}

/// Applies an edit to the per-sample inputs; returns the changed rectangle.
fn apply(
    e: &Edit,
    w: usize,
    heights: &mut [f32],
    painted: &mut [u16],
    erosion: &mut [f32],
) -> SampleRect {
    let [x0, z0, x1, z1] = e.rect;
    for z in z0..z1 {
        for x in x0..x1 {
            let i = z * w + x;
            // A dome, so slopes change inside and at the border of the rectangle.
            let t = 1.0 + ((x - x0).min(x1 - 1 - x) + (z - z0).min(z1 - 1 - z)) as f32;
            heights[i] += e.delta * t.min(3.0) / 3.0;
            if e.paint > 0 {
                painted[i] = e.paint;
            }
            erosion[i] += e.erode;
        }
    }
    SampleRect::new(x0, z0, x1, z1)
}

fn check_bounds(before: &Classification, after: &Classification, bounds: Option<SampleRect>) {
    let w = after.grid.samples()[0];
    for i in 0..after.biome.len() {
        if before.biome[i] != after.biome[i] || before.role[i] != after.role[i] {
            let b = bounds.expect("something changed, bounds must say so");
            assert!(b.contains(i % w, i / w), "sample {i} changed outside {b:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Reclassifying edited rectangles gives exactly the full pass, edit after edit
    /// (inferred sea: edits that cross the sea level move the coast).
    #[test]
    fn incremental_equals_full_with_the_inferred_sea(
        seed in 0u64..1000,
        edits in prop::collection::vec(arb_edit(41), 1..6),
    ) {
        let (g, mut heights) = terrain(40, seed);
        let n = g.sample_count();
        let w = g.samples()[0];
        let mut painted = vec![0u16; n];
        let mut erosion = vec![0.0f32; n];
        let c = classifier(&eight_rules(), 16.0);
        let never = AtomicBool::new(false);
        let input = |h: &[f32], p: &[u16], e: &[f32]| -> Classification {
            let inp = SurfaceInput {
                painted: Some(p),
                erosion: Some(e),
                ..SurfaceInput::new(g, h, 0.0)
            };
            c.classify(&inp, &never).unwrap()
        };
        let mut cls = input(&heights, &painted, &erosion);
        for e in &edits {
            let before = cls.clone();
            let rect = apply(e, w, &mut heights, &mut painted, &mut erosion);
            let inp = SurfaceInput {
                painted: Some(&painted),
                erosion: Some(&erosion),
                ..SurfaceInput::new(g, &heights, 0.0)
            };
            let bounds = c.reclassify(&mut cls, &inp, rect).unwrap();
            let full = input(&heights, &painted, &erosion);
            prop_assert!(cls == full, "edit {:?}", e);
            check_bounds(&before, &cls, bounds);
        }
    }

    /// The same with connected water refreshed on the edited ground.
    #[test]
    fn incremental_equals_full_with_connected_water(
        seed in 0u64..1000,
        edits in prop::collection::vec(arb_edit(41), 1..5),
    ) {
        let (g, mut heights) = terrain(40, seed);
        let [w, h] = g.samples();
        let n = w * h;
        let mut painted = vec![0u16; n];
        let mut erosion = vec![0.0f32; n];
        let mut water = WaterSet::empty(g);
        let body = WaterBody {
            id: "lake".into(),
            kind: WaterKind::Lake,
            level: 2.0,
            footprint: Footprint::Lake { center: [20.0, 20.0], radius: 15.0, boundary: None },
            flow_speed: 0.0,
            flow_direction: [1.0, 0.0],
            appearance: Appearance::default(),
            wet_samples: 0,
            warnings: Vec::new(),
        };
        water.add(body, &Field::from_vec(w, h, heights.clone()).unwrap());
        let c = classifier(&eight_rules(), 16.0);
        let never = AtomicBool::new(false);
        let mut cls = {
            let inp = SurfaceInput {
                water: Some(&water.owner),
                ..SurfaceInput::new(g, &heights, 0.0)
            };
            c.classify(&inp, &never).unwrap()
        };
        for e in &edits {
            let before = cls.clone();
            let rect = apply(e, w, &mut heights, &mut painted, &mut erosion);
            water.refresh(&Field::from_vec(w, h, heights.clone()).unwrap());
            let inp = SurfaceInput {
                water: Some(&water.owner),
                painted: Some(&painted),
                erosion: Some(&erosion),
                ..SurfaceInput::new(g, &heights, 0.0)
            };
            let bounds = c.reclassify(&mut cls, &inp, rect).unwrap();
            let full = c.classify(&inp, &never).unwrap();
            prop_assert!(cls == full, "edit {:?}", e);
            check_bounds(&before, &cls, bounds);
        }
    }
}

#[test]
fn a_local_edit_reports_a_local_change_and_mode_switches_run_a_full_pass() {
    let (g, mut heights) = terrain(64, 2);
    let w = g.samples()[0];
    let c = classifier(&eight_rules(), 16.0);
    let never = AtomicBool::new(false);
    let mut cls = c
        .classify(&SurfaceInput::new(g, &heights, -50.0), &never)
        .unwrap();
    for z in 30..34 {
        for x in 30..34 {
            heights[z * w + x] += 40.0;
        }
    }
    let rect = SampleRect::new(30, 30, 34, 34);
    let b = c
        .reclassify(&mut cls, &SurfaceInput::new(g, &heights, -50.0), rect)
        .unwrap()
        .expect("a 40 m tower changes the surface");
    assert!(
        b.x0 >= 29 && b.z0 >= 29 && b.x1 <= 35 && b.z1 <= 35,
        "{b:?}"
    );
    // Nothing changed: nothing reported.
    let again = c
        .reclassify(&mut cls, &SurfaceInput::new(g, &heights, -50.0), rect)
        .unwrap();
    assert_eq!(again, None);
    // Another sea level is a different input: the whole pass reruns.
    let input = SurfaceInput::new(g, &heights, 5.0);
    c.reclassify(&mut cls, &input, SampleRect::new(0, 0, 0, 0))
        .unwrap();
    assert_eq!(cls, c.classify(&input, &never).unwrap());
    // Another grid is refused.
    let (g2, h2) = terrain(32, 2);
    assert!(
        c.reclassify(&mut cls, &SurfaceInput::new(g2, &h2, 5.0), rect)
            .is_err()
    );
}
