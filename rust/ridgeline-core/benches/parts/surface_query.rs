//! `surface_query_rust`: what `Terrain3D.get_surface` does per point, in the core — the hole
//! check (`height_at`), the water column (`WaterSet::depth_at`), the nearest sample and its
//! surface role — on the 1025² bench field with a lake at 20 m over the whole grid (every
//! query walks the full water path; about half are wet). Budget < 50 ns (seed 004).

use ridgeline_core::Heightfield;
use ridgeline_core::hydrology::water::WaterSet;
use std::hint::black_box;

/// The role index `get_surface` answers (255: water, −1 outside).
#[inline]
fn surface_at(field: &Heightfield, water: &WaterSet, roles: &[u8], x: f32, z: f32) -> i32 {
    if field.height_at(x, z).is_none() {
        return -1;
    }
    if water.depth_at(field, x, z) > 0.0 {
        return 255;
    }
    match field.grid().nearest_sample(x, z) {
        Some((ix, iz)) => i32::from(roles[field.grid().index(ix, iz)]),
        None => -1,
    }
}

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
    let roles: Vec<u8> = (0..n).map(|i| (i % 9) as u8).collect();
    let mut rng = fastrand::Rng::with_seed(7);
    let count = 1 << 18;
    let points: Vec<[f32; 2]> = (0..count)
        .map(|_| [rng.f32() * 1024.0, rng.f32() * 1024.0])
        .collect();
    let mut wet = 0usize;
    let secs = b.median(|| {
        let mut acc = 0i64;
        wet = 0;
        for p in black_box(&points) {
            let s = surface_at(field, &water, &roles, p[0], p[1]);
            wet += usize::from(s == 255);
            acc += i64::from(s);
        }
        black_box(acc);
    });
    eprintln!("surface_query_rust: {wet} of {count} points under water");
    super::line("surface_query_rust", secs * 1e9 / count as f64, None, "ns");
}
