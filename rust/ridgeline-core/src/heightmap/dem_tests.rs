//! A real-world DEM (USGS data shipped in matplotlib's PyPI package; `testdata/dem/SOURCE.md`)
//! imported at its real extent: the import plan reads it exactly, generation reproduces every
//! sample, and its drainage is plausible for the Cumberland Mountains — the network drains to
//! the map edges, the largest rivers run through low ground, channels merge into trunks and
//! closed basins are rare and shallow (a DEM's pits, not lakes).

use crate::formats::heightmap_import::{ImportOptions, plan};
use crate::graph::eval::GraphCache;
use crate::hydrology::Drainage;
use crate::nodes::Quality;
use std::sync::atomic::AtomicBool;

const DEM: &[u8] = include_bytes!("../../testdata/dem/jacksboro_fault_dem.png");
/// 403 × 344 samples at 3 arc-seconds around 36.6° N.
const SAMPLES: [usize; 2] = [403, 344];
const SPACING: [f64; 2] = [74.37, 92.66];

#[test]
fn a_real_dem_imports_exactly_and_drains_plausibly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("project.godot"), "").unwrap();
    let file = dir.path().join("jacksboro_fault_dem.png");
    std::fs::write(&file, DEM).unwrap();
    let size = [
        SPACING[0] * (SAMPLES[0] - 1) as f64,
        SPACING[1] * (SAMPLES[1] - 1) as f64,
    ];
    let asset = dir.path().join("jacksboro.terrain.json");
    let p = plan(
        &file,
        &asset,
        &ImportOptions {
            size: Some(size),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(p.samples, SAMPLES);
    assert_eq!(p.height_range, Some([0.0, 65535.0]), "embedded range");
    assert_eq!(p.reference, "jacksboro_fault_dem.png");
    let recipe = p.document.recipe().clone().with_source_dir(dir.path());
    let g = crate::pipeline::generate(
        &recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    let field = &g.heightfield;
    let (w, h) = (SAMPLES[0], SAMPLES[1]);
    // Every sample is the DEM's elevation in whole metres (one quantum = 1 m here).
    let source = crate::heightmap::png16::read(DEM, 0.0, 65535.0, "dem").unwrap();
    assert_eq!(field.heights(), &source.heights[..]);
    assert_eq!(field.height_range(), [236.0, 1076.0]);

    let samples = crate::grid::Field::from_vec(w, h, field.heights().to_vec()).unwrap();
    let d = Drainage::compute(*field.grid(), &samples);
    let n = SAMPLES[0] * SAMPLES[1];
    // Everything drains: accumulation at the outlets adds up to the whole map.
    let drained: f32 = (0..n)
        .filter(|&i| d.is_outlet(i))
        .map(|i| d.accumulation[i])
        .sum();
    assert_eq!(drained as usize, n, "every sample reaches an outlet");
    // The largest river drains a real share of the map and leaves it at an edge.
    let (trunk, max_acc) = d
        .accumulation
        .iter()
        .enumerate()
        .fold((0, 0.0f32), |b, (i, &a)| if a > b.1 { (i, a) } else { b });
    assert!(
        max_acc as usize > n / 10,
        "the largest catchment holds {max_acc} of {n} samples"
    );
    let (tx, tz) = (trunk % w, trunk / w);
    assert!(tx == 0 || tz == 0 || tx == w - 1 || tz == h - 1);
    // Channels run through low ground: the samples with the top 1 % of accumulation lie
    // well below the mean elevation.
    let heights = field.heights();
    let mean = heights.iter().map(|&v| v as f64).sum::<f64>() / n as f64;
    let mut by_acc: Vec<usize> = (0..n).collect();
    by_acc.sort_by(|&a, &b| d.accumulation[b].total_cmp(&d.accumulation[a]));
    let top = &by_acc[..n / 100];
    let channel = top.iter().map(|&i| heights[i] as f64).sum::<f64>() / top.len() as f64;
    assert!(
        channel < mean - 100.0,
        "channels at {channel:.0} m, mean ground {mean:.0} m"
    );
    // Channels merge into trunks: a dendritic network has few big catchments and many
    // small ones (Hack's law territory); here: under 2 % of samples drain over 1 % of the map.
    let big = d
        .accumulation
        .iter()
        .filter(|&&a| a as usize > n / 100)
        .count();
    assert!(big < n / 50, "{big} samples drain over 1 % of the map");
    // A DEM's closed basins are data pits: whole-metre samples leave many flat one-sample
    // dimples, but they are shallow next to the 840 m relief and hold a small share of the map.
    let pit_samples: u32 = d.basins.iter().map(|b| b.samples).sum();
    let deepest = d.basins.iter().map(|b| b.max_depth).fold(0.0f32, f32::max);
    let mean_depth =
        d.basins.iter().map(|b| b.max_depth).sum::<f32>() / d.basins.len().max(1) as f32;
    eprintln!(
        "{} basins, {pit_samples} samples, deepest {deepest} m, mean {mean_depth} m; trunk {max_acc} samples at ({tx}, {tz}); channels {channel:.0} m vs mean {mean:.0} m; {big} big",
        d.basins.len()
    );
    assert!(
        (pit_samples as usize) < n / 10,
        "{} basins hold {pit_samples} samples",
        d.basins.len()
    );
    assert!(deepest < 60.0, "deepest pit {deepest} m");
    assert!(mean_depth < 8.0, "mean pit depth {mean_depth} m");
}
