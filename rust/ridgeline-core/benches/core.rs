//! Core benchmarks, run by `cargo xtask bench` (`-- --quick` for fewer repetitions).
//!
//! Prints `bench <id> ours=<v> peer=<v|-> ratio=<peer/ours|-> unit=<u>`. Peers measured by the
//! Godot side arrive in `RIDGELINE_BENCH_PEERS` as `id=value;…`; rapier3d runs in this process.

#![allow(missing_docs)]

use glam::Vec3;
use rapier3d::parry::query::{Ray, RayCast};
use rapier3d::parry::shape::HeightField;
use rapier3d::parry::utils::Array2;
use rapier3d::prelude::Vector;
use ridgeline_core::{Grid, Heightfield, mesh};
use std::hint::black_box;
use std::time::Instant;

#[path = "parts/biome_rules.rs"]
mod biome_rules;
#[path = "parts/flow_refresh.rs"]
mod flow_refresh;
#[path = "parts/heightmap_io.rs"]
mod heightmap_io;
#[path = "parts/surface_query.rs"]
mod surface_query;

struct Bench {
    reps: usize,
}

impl Bench {
    /// Median wall time of `reps` runs of `f`, in seconds.
    fn median(&self, mut f: impl FnMut()) -> f64 {
        let mut times: Vec<f64> = (0..self.reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    }
}

fn line(id: &str, ours: f64, peer: Option<f64>, unit: &str) {
    match peer {
        Some(p) => println!(
            "bench {id} ours={ours:.3} peer={p:.3} ratio={:.2} unit={unit}",
            p / ours
        ),
        None => println!("bench {id} ours={ours:.3} peer=- ratio=- unit={unit}"),
    }
}

/// A 1025² terrain (1 m spacing) with `relief` metres of rolling relief and small roughness.
fn terrain(relief: f32) -> Heightfield {
    let grid = Grid::new([1024.0, 1024.0], [1024, 1024], 64).expect("grid");
    let mut rng = fastrand::Rng::with_seed(1);
    let [w, h] = grid.samples();
    let mut heights = Vec::with_capacity(w * h);
    for z in 0..h {
        for x in 0..w {
            let (px, pz) = (x as f32, z as f32);
            let v = 0.5
                + 0.25 * ((px * 0.011).sin() * (pz * 0.007).cos())
                + 0.15 * (px * 0.031 + pz * 0.017).sin()
                + 0.05 * rng.f32();
            heights.push(relief * v);
        }
    }
    Heightfield::new(grid, heights, None).expect("field")
}

fn bench_height_at(b: &Bench, field: &Heightfield) {
    let mut rng = fastrand::Rng::with_seed(2);
    let n = 1 << 20;
    let points: Vec<[f32; 2]> = (0..n)
        .map(|_| [rng.f32() * 1024.0, rng.f32() * 1024.0])
        .collect();
    let mut out = vec![0.0f32; n];
    let secs = b.median(|| {
        field.heights_at(black_box(&points), &mut out);
        black_box(&out);
    });
    line("height_at_batch", secs * 1e9 / n as f64, None, "ns");
}

fn bench_raycast(b: &Bench, field: &Heightfield) {
    // Long slanted rays across the map: start above one edge, descend gently across it.
    let mut rng = fastrand::Rng::with_seed(3);
    let [lo, hi] = field.height_range();
    let rays: Vec<(Vec3, Vec3)> = (0..4000)
        .map(|_| {
            let o = Vec3::new(rng.f32() * 1024.0, hi + 5.0, 0.0);
            let d = Vec3::new(
                rng.f32() - 0.5,
                -(hi - lo) / (600.0 + rng.f32() * 600.0),
                1.0,
            )
            .normalize();
            (o, d)
        })
        .collect();
    let max = 2000.0;
    let mut ours_hits = 0i32;
    let ours = b.median(|| {
        ours_hits = 0;
        for (o, d) in &rays {
            if black_box(field.raycast(*o, *d, max)).is_some() {
                ours_hits += 1;
            }
        }
    });
    // rapier3d (parry) heightfield: column-major heights (rows = Z, cols = X), centred on its
    // origin and scaled to the terrain size.
    let [w, h] = field.grid().samples();
    let mut data = vec![0.0f32; w * h];
    for z in 0..h {
        for x in 0..w {
            data[z + x * h] = field.sample(x, z);
        }
    }
    let hf = HeightField::new(Array2::new(h, w, data), Vector::new(1024.0, 1.0, 1024.0));
    let mut peer_hits = 0i32;
    let peer = b.median(|| {
        peer_hits = 0;
        for (o, d) in &rays {
            let ray = Ray::new(
                Vector::new(o.x - 512.0, o.y, o.z - 512.0),
                Vector::new(d.x, d.y, d.z),
            );
            if black_box(hf.cast_local_ray(&ray, max, true)).is_some() {
                peer_hits += 1;
            }
        }
    });
    assert!(
        (ours_hits - peer_hits).abs() <= rays.len() as i32 / 100,
        "raycast bench: ours hit {ours_hits} rays, rapier {peer_hits}; they must measure the same work"
    );
    let n = rays.len() as f64;
    line("raycast_rust", ours * 1e6 / n, Some(peer * 1e6 / n), "us");
}

fn bench_chunk_mesh(b: &Bench, field: &Heightfield) {
    let mut triangles = 0;
    let secs = b.median(|| {
        let meshes = mesh::build_all(black_box(field));
        triangles = meshes
            .iter()
            .map(|m| m.lods[0].indices.len() / 3)
            .sum::<usize>();
        black_box(meshes);
    });
    assert!(triangles >= 1024 * 1024 * 2);
    line("chunk_mesh_1025", secs * 1e3, None, "ms");
}

fn bench_noise(b: &Bench, peers: &[(String, f64)]) {
    use ridgeline_core::noise::{Profile, RowSampler, RowScratch, ShapeParams, ShapeSeeds};
    let params = ShapeParams {
        profile: Profile::Fbm,
        base_height: 0.0,
        height_variation: 1.0,
        feature_size: 256.0,
        roughness: 0.5,
        octaves: 8,
        warp_amplitude: 0.0,
        warp_feature_size: 128.0,
        stretch: 1.0,
        heading: 0.0,
    };
    let seeds = ShapeSeeds {
        landform: 1,
        warp: 2,
    };
    let n = 1025;
    let mut out = vec![0.0f32; n * n];
    let one = b.median(|| {
        let sampler = RowSampler::new(params, seeds, n, 1.0);
        let mut scratch = RowScratch::default();
        for (z, row) in out.chunks_mut(n).enumerate() {
            sampler.fill_row(z as f32, row, &mut scratch);
        }
        black_box(&out);
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    let two = b.median(|| {
        pool.install(|| {
            use rayon::prelude::*;
            let sampler = RowSampler::new(params, seeds, n, 1.0);
            out.par_chunks_mut(n).enumerate().for_each_init(
                RowScratch::default,
                |scratch, (z, row)| {
                    sampler.fill_row(z as f32, row, scratch);
                },
            );
        });
        black_box(&out);
    });
    let spread = out.iter().fold(f32::INFINITY, |a, &v| a.min(v))
        ..out.iter().fold(f32::NEG_INFINITY, |a, &v| a.max(v));
    assert!(
        spread.end - spread.start > 0.3,
        "the benchmark must produce real noise: {spread:?}"
    );
    let peer = peer_value(peers, "noise_fbm8_1025");
    line("noise_fbm8_1025", one * 1e3, peer, "ms");
    line("noise_fbm8_1025_2threads", two * 1e3, peer, "ms");
}

fn bench_graph_example(b: &Bench) {
    use ridgeline_core::graph::eval::GraphCache;
    use ridgeline_core::nodes::Quality;
    use ridgeline_core::recipe::Document;
    let text = include_str!("../../../docs/examples/mountains.terrain.json");
    let doc = Document::parse(text, "mountains.terrain.json").expect("example parses");
    let recipe = doc.recipe();
    assert_eq!(recipe.resolution, [1024, 1024]);
    let never = std::sync::atomic::AtomicBool::new(false);
    let secs = b.median(|| {
        // A fresh cache each time: the whole graph is evaluated.
        let g = ridgeline_core::pipeline::generate(
            recipe,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &never,
        )
        .expect("example generates");
        black_box(g);
    });
    line("graph_example_1025", secs * 1e3, None, "ms");
}

fn bench_drainage(b: &Bench, rough: &Heightfield) {
    use ridgeline_core::grid::Field;
    use ridgeline_core::hydrology::Drainage;
    use ridgeline_core::noise::{Profile, RowSampler, RowScratch, ShapeParams, ShapeSeeds};
    // A generated terrain (fBm, 8 octaves, 120 m relief over 1 km): what the node drains in
    // practice.
    let params = ShapeParams {
        profile: Profile::Fbm,
        base_height: 0.0,
        height_variation: 120.0,
        feature_size: 400.0,
        roughness: 0.5,
        octaves: 8,
        warp_amplitude: 0.0,
        warp_feature_size: 128.0,
        stretch: 1.0,
        heading: 0.0,
    };
    let n = 1025;
    let sampler = RowSampler::new(
        params,
        ShapeSeeds {
            landform: 9,
            warp: 10,
        },
        n,
        1.0,
    );
    let mut data = vec![0.0f32; n * n];
    let mut scratch = RowScratch::default();
    for (z, row) in data.chunks_mut(n).enumerate() {
        sampler.fill_row(z as f32, row, &mut scratch);
    }
    let generated = Field::from_vec(n, n, data).expect("field");
    let run = |src: &Field<f32>| {
        let mut basins = 0;
        let secs = b.median(|| {
            let d = Drainage::compute(*rough.grid(), src);
            basins = d.basins.len();
            black_box(d);
        });
        (secs, basins)
    };
    let (secs, basins) = run(&generated);
    line("drainage_1025", secs * 1e3, None, "ms");
    eprintln!(
        "drainage_1025: {:.1} M cells/s on generated fBm terrain ({basins} basins)",
        (n * n) as f64 / secs / 1e6
    );
    let [w, h] = rough.grid().samples();
    let jittered = Field::from_vec(w, h, rough.heights().to_vec()).expect("field");
    let (secs, basins) = run(&jittered);
    eprintln!(
        "drainage on the per-sample-jittered bench field: {:.1} ms ({basins} basins)",
        secs * 1e3
    );
}

fn bench_erosion(b: &Bench, field: &Heightfield) {
    use ridgeline_core::grid::Field;
    use ridgeline_core::hydrology::erosion::{ErosionParams, erode};
    use ridgeline_core::nodes::{Quality, erosion_budget};
    let [w, h] = field.grid().samples();
    let src = Field::from_vec(w, h, field.heights().to_vec()).expect("field");
    // About one droplet per cell, thermal included (Final).
    let params = ErosionParams {
        iterations: 1_000_000,
        ..Default::default()
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let mut eroded = 0.0;
    let fin = b.median(|| {
        let e = erode(
            field.grid(),
            &src,
            &params,
            erosion_budget(&params, Quality::Final),
            7,
            &never,
        )
        .expect("erosion");
        eroded = e.ledger.eroded;
        black_box(e);
    });
    assert!(eroded > 0.0, "erosion must move material");
    let pre = b.median(|| {
        black_box(
            erode(
                field.grid(),
                &src,
                &params,
                erosion_budget(&params, Quality::Preview),
                7,
                &never,
            )
            .expect("erosion"),
        );
    });
    line("erosion_final_1025", fin * 1e3, None, "ms");
    line("erosion_preview_1025", pre * 1e3, None, "ms");
    eprintln!("erosion_preview_1025 is {:.1}% of Final", 100.0 * pre / fin);
}

fn peer_value(peers: &[(String, f64)], id: &str) -> Option<f64> {
    peers.iter().find(|(k, _)| k == id).map(|(_, v)| *v)
}

/// A 1025² recipe (the conventional pipeline) with `strokes` mixed sculpt strokes, 5–20 m.
fn stroke_recipe(strokes: usize) -> ridgeline_core::recipe::Recipe {
    let mut rng = fastrand::Rng::with_seed(7);
    let types = ["raise", "lower", "smooth", "flatten", "set_height"];
    let list: Vec<serde_json::Value> = (0..strokes)
        .map(|i| {
            let t = types[i % types.len()];
            let points: Vec<[f32; 2]> = (0..1 + rng.usize(0..4))
                .map(|_| [rng.f32() * 1024.0, rng.f32() * 1024.0])
                .collect();
            serde_json::json!({"type": t, "points": points, "radius": 5.0 + rng.f32() * 15.0,
                "strength": 0.5, "target_height": 20.0})
        })
        .map(|mut v| {
            let t = v["type"].as_str().unwrap_or_default().to_string();
            if t != "flatten" && t != "set_height" {
                v.as_object_mut().map(|m| m.remove("target_height"));
            }
            v
        })
        .collect();
    let text = serde_json::json!({"size": [1024, 1024], "resolution": [1024, 1024], "seed": 3,
        "landforms": {"hills": {"height_variation": 60, "feature_size": 300, "octaves": 6}},
        "default_landform": "hills", "edits": list})
    .to_string();
    ridgeline_core::recipe::Document::parse(&text, "bench")
        .expect("stroke recipe")
        .recipe()
        .clone()
}

fn bench_strokes(b: &Bench, field: &Heightfield) {
    use ridgeline_core::graph::eval::GraphCache;
    use ridgeline_core::nodes::Quality;
    use ridgeline_core::pipeline::EditSession;
    // stroke_stamp_20m: one 20 m (diameter) raise stamp on a 1025² terrain, incremental update
    // of heights + normals + bounds (+ history record). Peer: replaying the same stroke stack
    // from the base over the whole grid (what a non-incremental editor does).
    let empty = stroke_recipe(0);
    let mut session = EditSession::new(empty.clone(), field.clone(), None).expect("session");
    // With biome and surface-role reclassification on (as the pipeline's sessions have it).
    let prepared = ridgeline_core::pipeline::PreparedTerrain::new(
        field.clone(),
        ridgeline_core::hydrology::water::WaterSet::empty(*field.grid()),
        empty.default_biome.clone(),
        [1.0; 4],
    );
    session
        .classify_surface(&prepared, field.height_range(), false)
        .expect("classify");
    let mut rng = fastrand::Rng::with_seed(11);
    let stamps: Vec<serde_json::Value> = (0..b.reps * 20)
        .map(|_| {
            serde_json::json!({"type": "raise", "center": [50.0 + rng.f32() * 900.0, 50.0 + rng.f32() * 900.0],
                "radius": 10.0, "amount": 0.5})
        })
        .collect();
    let mut times: Vec<f64> = stamps
        .iter()
        .map(|v| {
            let t = Instant::now();
            let c = session.apply_stroke(v).expect("stamp");
            let e = t.elapsed().as_secs_f64();
            assert!(
                c.heights.area() > 300 && c.heights.area() < 500,
                "a 20 m stamp touches ~441 samples"
            );
            e
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let ours = times[times.len() / 2];
    let mut with_one = empty.clone();
    with_one.edits.push(stamps[0].clone());
    let peer = b.median(|| {
        black_box(EditSession::new(with_one.clone(), field.clone(), None).expect("replay"));
    });
    line("stroke_stamp_20m", ours * 1e6, Some(peer * 1e6), "us");

    // regen_with_500_strokes_1025: full generation with 500 strokes minus without.
    let never = std::sync::atomic::AtomicBool::new(false);
    let with = stroke_recipe(500);
    let gen_ms = |r: &ridgeline_core::recipe::Recipe| {
        b.median(|| {
            black_box(
                ridgeline_core::pipeline::generate(
                    r,
                    Quality::Final,
                    &mut GraphCache::default(),
                    &|_, _| {},
                    &never,
                )
                .expect("generates"),
            );
        }) * 1e3
    };
    let base_ms = gen_ms(&empty);
    let with_ms = gen_ms(&with);
    eprintln!("regen: {with_ms:.1} ms with 500 strokes, {base_ms:.1} ms without");
    line(
        "regen_with_500_strokes_1025",
        (with_ms - base_ms).max(0.0),
        None,
        "ms",
    );
}

fn bench_memory() {
    // 1 km² at 1 m: 1000 × 1000 cells, 1001² samples.
    let grid = Grid::new([1000.0, 1000.0], [1000, 1000], 64).expect("grid");
    let field = Heightfield::flat(grid, 0.0).expect("field");
    line("memory_1km", field.memory_bytes() as f64 / 1e6, None, "MB");
}

/// Applying each built-in preset to the default recipe and generating it (64 × 64, Final):
/// the slowest preset's median (each one's figure goes to stderr).
fn bench_presets(b: &Bench) {
    use ridgeline_core::graph::eval::GraphCache;
    use ridgeline_core::nodes::Quality;
    use ridgeline_core::recipe::Recipe;
    use ridgeline_core::recipe::preset::{GridChange, builtins};
    let never = std::sync::atomic::AtomicBool::new(false);
    let author = Recipe::default_recipe();
    let mut slowest = 0.0f64;
    for p in builtins().expect("built-in presets parse") {
        let secs = b.median(|| {
            let r = p.apply(&author, GridChange::Ask).expect("applies").recipe;
            let g = ridgeline_core::pipeline::generate(
                &r,
                Quality::Final,
                &mut GraphCache::default(),
                &|_, _| {},
                &never,
            )
            .expect("generates");
            black_box(g);
        });
        eprintln!("  preset {}: {:.2} ms", p.id, secs * 1e3);
        slowest = slowest.max(secs);
    }
    line("preset_apply_generate", slowest * 1e3, None, "ms");
}

/// `scatter_trees_1km`: four tree and rock rules (spacing 4–12 m, two with clusters, slope
/// filters) placed over the 1 km bench field, global thread pool.
fn bench_scatter(b: &Bench, field: &Heightfield) {
    use ridgeline_core::scatter::{Budgets, Environment, Palette, place};
    let palette = Palette::parse(
        &serde_json::json!({"format_version": 3, "name": "Bench forest", "placements": {
            "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.02,
                     "spacing": 12, "scale": [0.8, 1.3], "slope": [0, 35],
                     "cluster": {"size": 48, "strength": 0.7}},
            "birch": {"prefab": "res://birch.tscn", "category": "tree", "density": 0.03,
                      "spacing": 8, "slope": [0, 30], "cluster": {"size": 24, "strength": 0.5}},
            "rock": {"prefab": "res://rock.tscn", "category": "rock", "density": 0.02,
                     "spacing": 6, "scale": [0.5, 2.0]},
            "boulder": {"prefab": "res://boulder.tscn", "category": "rock", "density": 0.04,
                        "spacing": 4, "slope": [10, 90]}}}),
        "palette",
    )
    .expect("palette");
    let env = Environment::open(*field.grid(), field.heights());
    let never = std::sync::atomic::AtomicBool::new(false);
    let size = field.grid().size();
    let run =
        || place(&palette, 7, size, Some(&env), &Budgets::default(), &never).expect("scatter");
    let first = run();
    assert_eq!(run(), first, "scatter is not deterministic");
    eprintln!(
        "scatter_trees_1km: {} placements ({})",
        first.placements.len(),
        first.report()["rules"]
    );
    let t = b.median(|| {
        black_box(run());
    });
    line("scatter_trees_1km", t * 1e3, None, "ms");
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let b = Bench {
        reps: if quick { 3 } else { 11 },
    };
    let peers: Vec<(String, f64)> = std::env::var("RIDGELINE_BENCH_PEERS")
        .unwrap_or_default()
        .split(';')
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((k.to_string(), v.parse().ok()?))
        })
        .collect();
    if std::env::args().any(|a| a == "--heightmap-only") {
        heightmap_io::run(&b);
        return;
    }
    // `RIDGELINE_BENCH_ONLY=stroke,biome` runs the groups whose name contains one of the
    // comma-separated words (all groups when unset).
    let only = std::env::var("RIDGELINE_BENCH_ONLY").unwrap_or_default();
    let want = |group: &str| {
        only.is_empty()
            || only
                .split(',')
                .any(|w| !w.is_empty() && group.contains(w.trim()))
    };
    let field = terrain(40.0);
    if want("height_at") {
        bench_height_at(&b, &field);
    }
    if want("raycast") {
        bench_raycast(&b, &field);
    }
    if want("surface_query") {
        surface_query::run(&b, &field);
    }
    if want("chunk_mesh") {
        bench_chunk_mesh(&b, &field);
    }
    if want("memory") {
        bench_memory();
    }
    if want("stroke") {
        bench_strokes(&b, &field);
    }
    if want("noise") {
        bench_noise(&b, &peers);
    }
    if want("graph_example") {
        bench_graph_example(&b);
    }
    if want("drainage") {
        let single = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool");
        single.install(|| bench_drainage(&b, &field));
    }
    if want("erosion") {
        bench_erosion(&b, &field);
    }
    if want("preset") {
        bench_presets(&b);
    }
    if want("heightmap") {
        heightmap_io::run(&b);
    }
    if want("biome_rules") {
        biome_rules::run(&b, &field);
    }
    if want("flow_refresh") {
        flow_refresh::run(&b);
    }
    if want("scatter") {
        bench_scatter(&b, &field);
    }
}
