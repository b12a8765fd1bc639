use super::*;
// The Preview policy belongs to the Erosion node; these tests run erosion as the node does.
use crate::nodes::{Quality, erosion_budget};

fn hills(n: usize) -> (Grid, Field<f32>) {
    let grid = Grid::new(
        [n as f32 - 1.0, n as f32 - 1.0],
        [n as u32 - 1, n as u32 - 1],
        32,
    )
    .unwrap();
    let data = (0..n * n)
        .map(|i| {
            let (x, z) = ((i % n) as f32, (i / n) as f32);
            30.0 * ((x * 0.045).sin() * (z * 0.03).cos() + 1.2)
                + 8.0 * ((x + z) * 0.11).sin()
                + 0.002 * x * z
        })
        .collect();
    (grid, Field::from_vec(n, n, data).unwrap())
}

fn run(grid: &Grid, f: &Field<f32>, p: &ErosionParams, q: Quality) -> Eroded {
    erode(
        grid,
        f,
        p,
        erosion_budget(p, q),
        42,
        &AtomicBool::new(false),
    )
    .unwrap()
}

#[test]
fn hydraulic_erosion_conserves_material() {
    let (grid, f) = hills(160);
    let p = ErosionParams {
        iterations: 20_000,
        thermal_iterations: 0,
        ..Default::default()
    };
    let e = run(&grid, &f, &p, Quality::Final);
    let l = e.ledger;
    assert!(l.eroded > 1.0, "{l:?}");
    let balance = l.eroded - (l.deposited + l.exported + l.suspended);
    assert!(
        balance.abs() < 1e-3 * l.eroded,
        "eroded = deposited + exported + suspended: {l:?}"
    );
    // The net change on the map is what was deposited minus what was taken away.
    let net: f64 = e.change.as_slice().iter().map(|&c| c as f64).sum();
    assert!(
        (net - (l.deposited - l.eroded)).abs() < 1e-3 * l.eroded,
        "net {net} vs ledger {l:?}"
    );
}

#[test]
fn thermal_relaxation_conserves_material_and_softens_slopes() {
    let n = 64;
    let grid = Grid::new([63.0, 63.0], [63, 63], 32).unwrap();
    // A sharp step: 20 m cliff.
    let f = Field::from_vec(
        n,
        n,
        (0..n * n)
            .map(|i| if i % n < 32 { 20.0 } else { 0.0 })
            .collect(),
    )
    .unwrap();
    let p = ErosionParams {
        iterations: 0,
        thermal_iterations: 50,
        ..Default::default()
    };
    let e = run(&grid, &f, &p, Quality::Final);
    let before: f64 = f.as_slice().iter().map(|&h| h as f64).sum();
    let after: f64 = e.heights.as_slice().iter().map(|&h| h as f64).sum();
    assert!((before - after).abs() < 1e-2, "{before} vs {after}");
    let step_before = f.get(31, 32) - f.get(32, 32);
    let step_after = e.heights.get(31, 32) - e.heights.get(32, 32);
    assert!(
        step_after < step_before * 0.5,
        "the cliff softens: {step_before} → {step_after}"
    );
}

#[test]
fn results_are_identical_for_any_thread_count() {
    let (grid, f) = hills(200);
    let p = ErosionParams {
        iterations: 30_000,
        thermal_iterations: 5,
        ..Default::default()
    };
    let with = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(&grid, &f, &p, Quality::Final))
    };
    let (a, b, c) = (with(1), with(2), with(3));
    let bits = |e: &Eroded| {
        e.heights
            .as_slice()
            .iter()
            .map(|h| h.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(bits(&a), bits(&c));
    assert_eq!(a.ledger, b.ledger);
}

#[test]
fn material_moves_downhill_and_masks_are_normalised() {
    let (grid, f) = hills(160);
    let p = ErosionParams {
        iterations: 40_000,
        ..Default::default()
    };
    let e = run(&grid, &f, &p, Quality::Final);
    let (mut cut_h, mut cut_n, mut dep_h, mut dep_n) = (0.0f64, 0, 0.0f64, 0);
    for (i, &c) in e.change.as_slice().iter().enumerate() {
        if c < -0.05 {
            cut_h += f.as_slice()[i] as f64;
            cut_n += 1;
        } else if c > 0.05 {
            dep_h += f.as_slice()[i] as f64;
            dep_n += 1;
        }
    }
    assert!(
        cut_n > 100 && dep_n > 100,
        "visible erosion: {cut_n} cut, {dep_n} deposited"
    );
    assert!(
        dep_h / (dep_n as f64) < cut_h / (cut_n as f64),
        "deposits sit lower than cuts"
    );
    let max = |m: &Field<f32>| m.as_slice().iter().cloned().fold(0.0f32, f32::max);
    assert_eq!(max(&e.deposited_mask), 1.0);
    assert_eq!(max(&e.eroded_mask), 1.0);
    assert!(
        e.deposited_mask
            .as_slice()
            .iter()
            .all(|&v| (0.0..=1.0).contains(&v))
    );
}

#[test]
fn preview_is_cheaper_and_differs_from_final() {
    let (grid, f) = hills(128);
    let p = ErosionParams {
        iterations: 16_000,
        ..Default::default()
    };
    let fin = run(&grid, &f, &p, Quality::Final);
    let pre = run(&grid, &f, &p, Quality::Preview);
    assert!(
        pre.ledger.eroded < fin.ledger.eroded * 0.5,
        "{:?} vs {:?}",
        pre.ledger,
        fin.ledger
    );
    assert_ne!(pre.heights.as_slice(), fin.heights.as_slice());
}

#[test]
fn cancellation_stops_the_run() {
    let (grid, f) = hills(96);
    let err = erode(
        &grid,
        &f,
        &ErosionParams::default(),
        Budget::full(&ErosionParams::default()),
        1,
        &AtomicBool::new(true),
    )
    .unwrap_err();
    assert!(matches!(err, Error::Cancelled));
}
