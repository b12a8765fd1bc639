use super::*;
// The Preview policy belongs to the Erosion node; these tests run erosion as the node does.
use crate::nodes::{Quality, erosion_budget};
use proptest::prelude::*;

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

/// (min, max) of a slice.
fn range(s: &[f32]) -> (f32, f32) {
    s.iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        })
}

/// Generates `text` (a recipe) at Final and returns the erosion node's input and output ranges.
fn graph_ranges(text: &str, resolution: Option<[u32; 2]>) -> ((f32, f32), (f32, f32)) {
    use crate::graph::eval::GraphCache;
    let mut doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let recipe = doc.get_mut("recipe").map(|r| r.take()).unwrap_or(doc);
    let mut recipe = recipe;
    if let Some(r) = resolution {
        recipe["resolution"] = serde_json::json!(r);
    }
    let nodes = recipe["graph"]["nodes"].as_array().unwrap().clone();
    let erosion = nodes.iter().find(|n| n["type"] == "erosion").unwrap();
    let input = erosion["inputs"]["field"].as_str().unwrap().to_string();
    let run = |output: &str| {
        let mut r = recipe.clone();
        // Cut the graph at `output` (through a terrain_output of its own).
        r["graph"]["output"] = serde_json::json!("zz_out");
        r["graph"]["nodes"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!(
                {"id": "zz_out", "type": "terrain_output", "inputs": {"heightfield": output}}
            ));
        let r = crate::recipe::Document::parse(&r.to_string(), "t")
            .unwrap()
            .recipe()
            .clone();
        let g = crate::pipeline::generate(
            &r,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &AtomicBool::new(false),
        )
        .unwrap();
        range(g.heightfield.heights())
    };
    let id = erosion["id"].as_str().unwrap().to_string();
    (run(&input), run(&id))
}

#[test]
fn erosion_on_small_grids_stays_within_its_input() {
    // Issue 11: this recipe at Final gave heights down to −5.6 million from a 0..40 m input.
    let issue = r#"{"size":[64,64],"resolution":[32,32],"seed":1,"graph":{"format_version":1,"output":"out",
        "nodes":[{"id":"a","type":"noise_terrain"},{"id":"e","type":"erosion","inputs":{"field":"a"}},
        {"id":"out","type":"terrain_output","inputs":{"heightfield":"e"}}]}}"#;
    let ((lo, hi), (elo, ehi)) = graph_ranges(issue, None);
    assert!(
        elo >= lo && ehi <= hi,
        "eroded {elo}..{ehi} from {lo}..{hi}"
    );
    // … and the river valley example at 64² gave −8.4 million.
    let valley = include_str!("../../../../../docs/examples/river_valley.terrain.json");
    let ((lo, hi), (elo, ehi)) = graph_ranges(valley, Some([64, 64]));
    assert!(
        elo >= lo && ehi <= hi,
        "eroded {elo}..{ehi} from {lo}..{hi}"
    );
}

fn params_strategy() -> impl Strategy<Value = ErosionParams> {
    // Every parameter over its documented range (droplet count and lifetime kept small for
    // test time: the bound holds step by step, so longer runs cannot break it).
    (
        (
            0u32..=20_000,
            1u32..=64,
            0.0f32..=1.0,
            0.001f32..=1000.0,
            0.0f32..=1.0,
        ),
        (
            0.0f32..=1.0,
            0.0f32..=1.0,
            0.0f32..=10.0,
            0.0f32..=100.0,
            1u32..=8,
        ),
        (0.0f32..=1.0, 0.0f32..=89.0, 0u32..=40),
    )
        .prop_map(|(a, b, c)| ErosionParams {
            iterations: a.0,
            lifetime: a.1,
            inertia: a.2,
            capacity: a.3,
            deposition: a.4,
            erosion_rate: b.0,
            evaporation: b.1,
            min_slope: b.2,
            gravity: b.3,
            brush_radius: b.4,
            thermal_strength: c.0,
            talus_angle: c.1,
            thermal_iterations: c.2,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Erosion (hydraulic + thermal) never moves a sample outside the input's height range: the
    /// droplets cut no sample below the height they flow on to and lay no sediment above the
    /// cell's highest corner, and thermal relaxation moves each sample by a convex combination
    /// of its neighbours.
    #[test]
    fn erosion_never_leaves_the_input_range(
        cells in (1u32..=72, 1u32..=72),
        spacing in 0.05f32..50.0,
        relief in 0.0f32..5000.0,
        offset in -1000.0f32..1000.0,
        seed in any::<u64>(),
        params in params_strategy(),
        preview in any::<bool>(),
    ) {
        let (cx, cz) = cells;
        let grid = Grid::new([cx as f32 * spacing, cz as f32 * spacing], [cx, cz], 32).unwrap();
        let (w, h) = (cx as usize + 1, cz as usize + 1);
        let mut rng = fastrand::Rng::with_seed(seed);
        let data: Vec<f32> = (0..w * h)
            .map(|i| {
                let (x, z) = ((i % w) as f32, (i / w) as f32);
                offset + relief * (0.5 + 0.3 * (x * 0.3).sin() * (z * 0.2).cos() + 0.2 * rng.f32())
            })
            .collect();
        let input = Field::from_vec(w, h, data).unwrap();
        let q = if preview { Quality::Preview } else { Quality::Final };
        let e = erode(&grid, &input, &params, erosion_budget(&params, q), seed, &AtomicBool::new(false)).unwrap();
        let (lo, hi) = range(input.as_slice());
        let eps = 1e-5 * (1.0 + lo.abs().max(hi.abs()));
        let (elo, ehi) = range(e.heights.as_slice());
        prop_assert!(elo >= lo - eps && ehi <= hi + eps, "eroded {}..{} from {}..{}", elo, ehi, lo, hi);
        let l = e.ledger;
        let balance = l.eroded - (l.deposited + l.exported + l.suspended);
        prop_assert!(balance.abs() <= 1e-3 * (1.0 + l.eroded), "{:?}", l);
    }
}
