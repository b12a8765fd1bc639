//! Splat layers as painted regions: the strongest layer per vertex, blocks that cover every
//! sample once, and an imported terrain whose generated regions equal the splat's layers on
//! every vertex (square and stretched cells).

use super::*;
use crate::formats::heightmap_import::{ImportOptions, plan};
use crate::graph::eval::GraphCache;
use crate::heightmap::terrain_json::TerrainLayer;
use crate::nodes::Quality;
use std::sync::atomic::AtomicBool;

fn layer(material: &str, tile: f64) -> TerrainLayer {
    TerrainLayer {
        material: material.into(),
        tile,
        detile: 0.0,
        detile_sharpen: 0.5,
    }
}

/// A deterministic pattern: a disc of rock, a band of sand, blended weights, zero entries.
fn splat(nx: usize, nz: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(nx * nz * 4);
    for z in 0..nz {
        for x in 0..nx {
            let (fx, fz) = (x as f64 - nx as f64 * 0.6, z as f64 - nz as f64 * 0.4);
            let rock = (fx * fx + fz * fz).sqrt() < nx as f64 * 0.25;
            let sand = (z + x / 3) % 11 < 2;
            let w = match (rock, sand, (x * 7 + z * 3) % 13) {
                (_, _, 0) => [0, 0, 0, 0],
                (true, _, 1) => [100, 100, 50, 0],
                (true, _, _) => [30, 200, 25, 0],
                (false, true, _) => [90, 10, 155, 0],
                _ => [255, 0, 0, 200],
            };
            s.extend(w);
        }
    }
    s
}

fn document(nx: usize, nz: usize) -> TerrainDocument {
    TerrainDocument {
        origin: [0.0; 3],
        resolution: [nx, nz],
        cell_size: 2.0,
        chunk_cells: 16,
        heights: (0..nx * nz).map(|i| (i % 5) as f32).collect(),
        layers: vec![
            layer("res://ground/Grass Meadow.tres", 256.0),
            layer("rock", 128.0),
            layer("sand", 256.0),
        ],
        splat: Some(splat(nx, nz)),
        holes: None,
    }
}

#[test]
fn the_strongest_layer_wins_first_on_ties_zero_is_layer_0() {
    let mut d = document(2, 2);
    d.splat = Some(vec![0, 0, 0, 0, 10, 10, 3, 0, 1, 2, 3, 0, 0, 0, 0, 255]);
    // The fourth weight belongs to no layer (three layers): ignored.
    assert_eq!(dominant_layers(&d), vec![0, 0, 2, 0]);
    d.splat = None;
    assert_eq!(dominant_layers(&d), vec![0; 4]);
}

#[test]
fn blocks_cover_every_sample_once_with_its_layer() {
    for (nx, nz, max_side) in [(37, 23, 1 << 16), (37, 23, 2), (64, 64, 8), (5, 70, 1)] {
        let layers: Vec<u8> = dominant_layers(&document(nx, nz));
        let mut seen = vec![0u8; nx * nz];
        for b in square_blocks(&layers, nx, nz, max_side) {
            assert!(b.size <= max_side && b.size.is_power_of_two());
            assert_eq!((b.x % b.size, b.z % b.size), (0, 0), "aligned");
            for z in b.z..(b.z + b.size).min(nz) {
                for x in b.x..(b.x + b.size).min(nx) {
                    assert_eq!(layers[z * nx + x], b.layer, "{nx}×{nz} at {x},{z}");
                    seen[z * nx + x] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "{nx}×{nz}: covered once");
    }
    // Uniform ground is a handful of blocks, not one per sample.
    let flat = vec![1u8; 100 * 60];
    assert!(square_blocks(&flat, 100, 60, 1 << 16).len() < 40);
}

#[test]
fn block_sides_follow_the_cell_shape() {
    assert_eq!(max_block([1.0, 1.0]), 1 << 16);
    assert_eq!(
        max_block([2.0, 1.0]),
        2,
        "(s − 1)·2 < s + 1 holds for s = 2 only"
    );
    assert_eq!(max_block([1.0, 1.2]), 8);
    assert_eq!(max_block([1.0, 4.0]), 1);
}

#[test]
fn biomes_are_named_after_the_materials() {
    let r = splat_regions(&document(9, 9), [2.0, 2.0]).unwrap();
    let names: Vec<&String> = r.biomes.keys().collect();
    assert_eq!(names, ["grass_meadow", "rock", "sand"]);
    assert_eq!(r.default_biome, "grass_meadow");
    assert_eq!(r.biomes["rock"]["material"], "rock");
    assert_eq!(r.biomes["rock"]["texture_scale"], 2.0, "256 / tile");
    assert!(r.biomes["sand"].get("texture_scale").is_none());
    assert_eq!(r.counts.iter().sum::<usize>(), 81);
    let mut no_layers = document(3, 3);
    no_layers.layers.clear();
    assert!(splat_regions(&no_layers, [1.0, 1.0]).is_none());
}

/// Imports `doc` at `size` and checks every generated vertex's painted region.
fn imports_exactly(doc: &TerrainDocument, size: Option<[f64; 2]>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("project.godot"), "").unwrap();
    let file = dir.path().join("layered.json");
    std::fs::write(&file, doc.to_json()).unwrap();
    let p = plan(
        &file,
        &dir.path().join("layered.terrain.json"),
        &ImportOptions {
            size,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        p.notes.iter().any(|n| n.contains("imported as biomes")),
        "{:?}",
        p.notes
    );
    let recipe = p.document.recipe().clone().with_source_dir(dir.path());
    assert_eq!(recipe.default_biome, "grass_meadow");
    let t = crate::pipeline::prepare(
        &recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
        None,
    )
    .unwrap();
    let want = dominant_layers(doc);
    let names = ["grass_meadow", "rock", "sand"];
    assert_eq!(t.regions.len(), want.len());
    for (i, (&r, &l)) in t.regions.iter().zip(&want).enumerate() {
        let painted = (r > 0).then(|| t.region_biomes[r as usize - 1].as_str());
        let expect = (l > 0).then(|| names[l as usize]);
        assert_eq!(painted, expect, "vertex {i} (size {size:?})");
        let id = t.surface.classes.biome_vec()[i];
        assert_eq!(t.surface.biomes[id as usize].name, names[l as usize]);
    }
}

#[test]
fn an_imported_splat_paints_every_vertex_with_its_layer() {
    let doc = document(41, 29);
    imports_exactly(&doc, None);
    // Stretched cells (1.5 : 1) limit the blocks, the result stays exact.
    imports_exactly(&doc, Some([120.0, 56.0]));
}
