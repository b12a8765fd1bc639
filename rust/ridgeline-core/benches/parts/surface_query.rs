//! `surface_query_rust`: what `Terrain3D.get_surface` does per point, in the core — the hole,
//! water and role answer of a [`SurfaceIndex`] (the exact path only on shore cells) — on the
//! 1025² bench field with a lake at 20 m over the whole grid (about half the points are wet),
//! at random points. Budget < 50 ns (seed 004). The exact, unindexed path
//! ([`surface_index::surface_at`]: hole check, water column, nearest role) is printed beside
//! it on stderr.

use ridgeline_core::Heightfield;
use ridgeline_core::hydrology::water::WaterSet;
use ridgeline_core::query::surface_index::{self, SurfaceIndex};
use std::hint::black_box;

pub fn run(b: &super::Bench, field: &Heightfield) {
    let grid = *field.grid();
    let n = grid.sample_count();
    let water = WaterSet {
        grid,
        bodies: Vec::new(),
        owner: vec![1; n],
        surface: vec![20.0; n],
        painted: Vec::new(),
    };
    let roles =
        ridgeline_core::biome::SampleClasses::from_pairs((0..n).map(|i| (0, (i % 9) as u8)));
    let mut rng = fastrand::Rng::with_seed(7);
    let count = 1 << 18;
    let points: Vec<[f32; 2]> = (0..count)
        .map(|_| [rng.f32() * 1024.0, rng.f32() * 1024.0])
        .collect();
    let mut wet = 0usize;
    let exact = b.median(|| {
        let mut acc = 0i64;
        wet = 0;
        for p in black_box(&points) {
            let s = surface_index::surface_at(field, &water, &roles, p[0], p[1], false);
            wet += usize::from(s == surface_index::SURFACE_WATER);
            acc += i64::from(s);
        }
        black_box(acc);
    });
    let mut index = SurfaceIndex::new();
    let mut indexed_acc = 0i64;
    let secs = b.median(|| {
        let mut acc = 0i64;
        for p in black_box(&points) {
            acc += i64::from(index.surface_at(field, &water, &roles, p[0], p[1], false));
        }
        indexed_acc = black_box(acc);
    });
    let exact_acc: i64 = points
        .iter()
        .map(|p| {
            i64::from(surface_index::surface_at(
                field, &water, &roles, p[0], p[1], false,
            ))
        })
        .sum();
    assert_eq!(
        indexed_acc, exact_acc,
        "the index answers what the exact path answers"
    );
    eprintln!(
        "surface_query_rust: {wet} of {count} points under water; exact path {:.1} ns, index {} KB",
        exact * 1e9 / count as f64,
        index.heap_bytes() / 1024
    );
    super::line("surface_query_rust", secs * 1e9 / count as f64, None, "ns");
}
