//! Foliage placement: density, even prefixes, determinism, chunk independence and filters.

use super::*;
use crate::grid::Grid;
use crate::scatter::Palette;
use serde_json::{Value, json};

fn foliage(extra: Value) -> FoliageType {
    let mut t = json!({"model": "res://grass.tres", "jitter": 1.0});
    if let (Value::Object(m), Value::Object(e)) = (&mut t, extra) {
        m.extend(e);
    }
    let p = Palette::parse(
        &json!({"format_version": 3, "name": "m", "foliage": {"grass": t}}),
        "palette",
    )
    .unwrap();
    p.foliage[0].clone()
}

fn flat(size: f32, cells: u32) -> (Grid, Vec<f32>) {
    let g = Grid::new([size, size], [cells, cells], 16.min(cells)).unwrap();
    let n = g.sample_count();
    (g, vec![5.0; n])
}

fn open<'a>(g: Grid, h: &'a [f32]) -> FoliageEnv<'a> {
    FoliageEnv {
        env: Environment::open(g, h),
        roles: None,
        density: None,
        channel: None,
        water: None,
    }
}

#[test]
fn density_is_within_three_percent_on_flat_open_ground() {
    let (g, h) = flat(128.0, 64);
    let fe = open(g, &h);
    for (density, cell) in [(0.5, 1.0), (2.3, 1.0), (4.0, 0.5), (0.3, 0.5)] {
        let t = foliage(json!({"density": density, "cell_size": cell}));
        let list = place_chunk(&t, 7, &fe, [0.0, 0.0, 128.0, 128.0]);
        let cells = (128.0 / cell) * (128.0 / cell);
        let want = density * cells;
        let got = list.len() as f64;
        assert!(
            (got - want).abs() <= 0.03 * want,
            "density {density} per cell of {cell}: {got} instances, expected {want} ± 3 %"
        );
        for p in &list {
            assert_eq!(p.position[1], 5.0 - 0.03, "stands on the ground, sunk");
            assert!((0.0..=128.0).contains(&p.position[0]));
        }
    }
}

#[test]
fn any_prefix_of_a_chunk_is_an_even_sample() {
    let (g, h) = flat(64.0, 64);
    let fe = open(g, &h);
    let t = foliage(json!({"density": 2.5}));
    let list = place_chunk(&t, 3, &fe, [0.0, 0.0, 32.0, 32.0]);
    assert!(list.len() > 2400, "{}", list.len());
    // Every prefix of a quarter, a half and the first instances of each cell covers the 16
    // blocks of 8 × 8 units evenly: within 25 % of the block mean.
    for frac in [0.0625, 0.25, 0.5, 0.8] {
        let n = (list.len() as f64 * frac) as usize;
        let mut blocks = [0u32; 16];
        for p in &list[..n] {
            let (bx, bz) = (
                (p.position[0] / 8.0) as usize,
                (p.position[2] / 8.0) as usize,
            );
            blocks[bz.min(3) * 4 + bx.min(3)] += 1;
        }
        let mean = n as f64 / 16.0;
        for (b, &c) in blocks.iter().enumerate() {
            assert!(
                (c as f64 - mean).abs() <= 0.25 * mean + 2.0,
                "prefix {frac}: block {b} holds {c}, mean {mean}: {blocks:?}"
            );
        }
    }
}

#[test]
fn bit_identical_on_any_thread_count_and_in_any_chunk_size() {
    let (g, h) = flat(96.0, 48);
    let fe = open(g, &h);
    let t = foliage(json!({"density": 1.7, "align_to_normal": 0.5}));
    let rects: Vec<[f32; 4]> = (0..9)
        .map(|c| {
            let (x, z) = ((c % 3) as f32 * 32.0, (c / 3) as f32 * 32.0);
            [x, z, x + 32.0, z + 32.0]
        })
        .collect();
    let runs: Vec<_> = [1, 2, 4]
        .into_iter()
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
                .install(|| place_chunks(&t, 11, &fe, &rects))
        })
        .collect();
    assert!(runs[0].iter().map(Vec::len).sum::<usize>() > 10_000);
    for r in &runs[1..] {
        assert_eq!(r, &runs[0]);
    }
    // The same instances when the chunks are cut differently (16-unit chunks).
    let key = |p: &FoliageInstance| p.position.map(f32::to_bits);
    let mut a: Vec<_> = runs[0].iter().flatten().map(key).collect();
    let mut b: Vec<_> = (0..36)
        .flat_map(|c| {
            let (x, z) = ((c % 6) as f32 * 16.0, (c / 6) as f32 * 16.0);
            place_chunk(&t, 11, &fe, [x, z, x + 16.0, z + 16.0])
        })
        .map(|p| key(&p))
        .collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
    // Another seed or type id moves them.
    assert_ne!(place_chunk(&t, 12, &fe, rects[0]), runs[0][0]);
}

#[test]
fn painted_density_water_slope_height_roles_and_cutoff_remove_foliage() {
    let (g, mut h) = flat(64.0, 64);
    let w = 65;
    // A steep ramp over x ≥ 48.
    for z in 0..w {
        for x in 48..w {
            h[z * w + x] = 5.0 + (x - 48) as f32 * 2.0;
        }
    }
    let n = g.sample_count();
    let mut density = vec![1.0f32; n];
    let mut roles = vec![crate::biome::Role::Grass as u8; n];
    let mut channel = vec![0.0f32; n];
    for z in 0..w {
        for x in 0..w {
            let i = z * w + x;
            if x < 16 && z < 16 {
                density[i] = 0.0; // painted out
            }
            if (16..32).contains(&x) && z < 16 {
                roles[i] = crate::biome::Role::Rock as u8;
            }
            if (32..48).contains(&x) && z < 16 {
                channel[i] = 1.0; // cut
            }
            if z >= 56 && x < 48 {
                roles[i] = crate::biome::Role::Underwater as u8;
            }
        }
    }
    let fe = FoliageEnv {
        env: Environment::open(g, &h),
        roles: Some(&crate::biome::SampleClasses::from_ids(&vec![0; n], &roles)),
        density: Some(&density),
        channel: Some(crate::scatter::foliage_cutoff::ChannelValues::Samples(
            &channel,
        )),
        water: None,
    };
    let t = foliage(json!({
        "density": 2, "roles": ["grass"], "channel_cutoff": {"channel": "cut", "value": 0.5},
        "jitter": 0.5
    }));
    let list = place_chunk(&t, 1, &fe, [0.0, 0.0, 64.0, 64.0]);
    assert!(list.len() > 3000, "{}", list.len());
    for p in &list {
        let [x, _, z] = p.position;
        assert!(!(x < 15.0 && z < 15.0), "painted out at {x}, {z}");
        assert!(!((16.0..31.0).contains(&x) && z < 15.0), "rock at {x}, {z}");
        assert!(!((32.0..47.0).contains(&x) && z < 15.0), "cut at {x}, {z}");
        assert!(x < 48.5, "too steep at {x}, {z}");
        assert!(z < 56.0, "under water at {x}, {z}");
    }
    // Between the limits it grows at full density.
    let open_cells = list
        .iter()
        .filter(|p| p.position[2] > 17.0 && p.position[2] < 55.0 && p.position[0] < 47.0)
        .count();
    assert!(open_cells > 2 * 36 * 45, "{open_cells}");
    // Height limits.
    let t = foliage(json!({"height": [0, 4]}));
    assert!(place_chunk(&t, 1, &open(g, &h), [0.0, 0.0, 64.0, 64.0]).is_empty());
}

#[test]
fn tilt_follows_align_to_normal() {
    let g = Grid::new([32.0, 32.0], [32, 32], 16).unwrap();
    let h: Vec<f32> = (0..33 * 33).map(|i| (i % 33) as f32 * 0.5).collect();
    let fe = open(g, &h);
    let upright = place_chunk(
        &foliage(json!({"align_to_normal": 0})),
        1,
        &fe,
        [0.0, 0.0, 32.0, 32.0],
    );
    assert!(upright.iter().all(|p| p.up == [0.0, 1.0, 0.0]));
    let tilted = place_chunk(
        &foliage(json!({"align_to_normal": 1})),
        1,
        &fe,
        [0.0, 0.0, 32.0, 32.0],
    );
    let n = 1.0 / (1.25f32).sqrt();
    for p in &tilted {
        assert!(
            (p.up[0] + 0.5 * n).abs() < 1e-4 && (p.up[1] - n).abs() < 1e-4,
            "{:?}",
            p.up
        );
    }
}

#[test]
fn oversized_rectangles_place_nothing() {
    let (g, h) = flat(128.0, 64);
    let fe = open(g, &h);
    let t = foliage(json!({"cell_size": 0.05}));
    let rect = [0.0, 0.0, 128.0, 128.0];
    assert_eq!(cell_count(&t, rect, g.size()), 2560 * 2560);
    assert!(cell_count(&t, rect, g.size()) > MAX_CHUNK_CELLS);
    assert!(place_chunk(&t, 1, &fe, rect).is_empty());
    assert!(!place_chunk(&t, 1, &fe, [0.0, 0.0, 8.0, 8.0]).is_empty());
    // Within the cell limit but dense: 1600² cells × 64 per cell is too many instances.
    let dense = foliage(json!({"cell_size": 0.08, "density": 64}));
    assert!(cell_count(&dense, rect, g.size()) <= MAX_CHUNK_CELLS);
    assert!(instance_bound(&dense, rect, g.size()) > MAX_CHUNK_INSTANCES);
    assert!(place_chunk(&dense, 1, &fe, rect).is_empty());
    let small = [0.0, 0.0, 4.0, 4.0];
    assert!(instance_bound(&dense, small, g.size()) <= MAX_CHUNK_INSTANCES);
    assert!(!place_chunk(&dense, 1, &fe, small).is_empty());
}

#[test]
fn painted_water_grows_no_foliage() {
    let (g, h) = flat(64.0, 64);
    let w = g.samples()[0];
    // Painted water on the samples with x < 24 (metres: spacing 1).
    let water: Vec<f32> = (0..g.sample_count())
        .map(|i| if i % w < 24 { 1.5 } else { 0.0 })
        .collect();
    let mut fe = open(g, &h);
    let t = foliage(json!({"density": 2}));
    let dry = place_chunk(&t, 3, &fe, [0.0, 0.0, 64.0, 64.0]);
    assert!(dry.iter().any(|p| p.position[0] < 20.0));
    fe.water = Some(&water);
    let list = place_chunk(&t, 3, &fe, [0.0, 0.0, 64.0, 64.0]);
    assert!(!list.is_empty());
    for p in &list {
        assert!(
            p.position[0] > 23.0,
            "foliage in painted water at {:?}",
            p.position
        );
    }
    // Outside the water nothing moved.
    let keep = |l: &[FoliageInstance]| -> Vec<FoliageInstance> {
        l.iter().copied().filter(|p| p.position[0] > 25.0).collect()
    };
    assert_eq!(keep(&list), keep(&dry));
}
