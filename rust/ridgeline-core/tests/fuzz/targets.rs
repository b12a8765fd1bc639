//! The fuzz targets: each takes one case's mutator, builds a mutated input from its seeds and
//! checks the parser's contract.

use crate::mutate::Mutator;
use ridgeline_core::doc::strict_json;
use ridgeline_core::edit::MaskLoader;
use ridgeline_core::edit::brush::MaskImage;
use ridgeline_core::error::Error;
use ridgeline_core::formats::payload;
use ridgeline_core::formats::terrain_json::{TerrainDocument, TerrainLayer};
use ridgeline_core::grid::{Field, Grid, HoleMask};
use ridgeline_core::heightfield::{Heightfield, MAX_HEIGHT};
use ridgeline_core::hydrology::water::{Appearance, Footprint, WaterBody, WaterKind, WaterSet};
use ridgeline_core::pipeline::{EditSession, PreparedTerrain};
use ridgeline_core::recipe::Document;
use std::sync::{Arc, OnceLock};

/// A refusal must say where: every diagnostic has a path starting with `source` and a message.
fn located(e: &Error, source: &str) {
    match e {
        Error::Invalid(ds) => {
            assert!(!ds.is_empty(), "an Invalid error without diagnostics");
            for d in ds {
                assert!(
                    d.path.starts_with(source) && !d.message.is_empty(),
                    "not located at `{source}`: {d}"
                );
            }
        }
        other => panic!("unexpected error kind: {other}"),
    }
}

/// A refusal with some location (for errors raised below a named document).
fn has_location(e: &Error) {
    assert!(
        e.diagnostics()
            .iter()
            .all(|d| !d.path.is_empty() && !d.message.is_empty())
            && !e.diagnostics().is_empty(),
        "not located: {e}"
    );
}

// ----- recipe documents -----

const DOCUMENTS: &[&str] = &[
    include_str!("../../../../docs/examples/drainage_river.terrain.json"),
    include_str!("../../../../docs/examples/eroded_hills.terrain.json"),
    include_str!("../../../../docs/examples/mountains.terrain.json"),
    include_str!("../../../../docs/examples/river_valley.terrain.json"),
    include_str!("../../../../docs/examples/rolling_hills.terrain.json"),
    include_str!("../../../../docs/examples/valley.terrain.json"),
    include_str!("../../../../tests/fixtures/lakes.terrain.json"),
    include_str!("../../../../tests/fixtures/small.terrain.json"),
    r#"{"format_version": 1, "id": "asset://fuzz/strokes", "recipe": {
      "size": [64, 64], "resolution": [32, 32], "seed": 5, "chunk_cells": 16,
      "landforms": {"hills": {"height_variation": 30, "feature_size": 40}},
      "default_landform": "hills",
      "biomes": {"meadow": {"color": [0.3, 0.6, 0.2, 1]}, "sand": {"color": [0.9, 0.8, 0.5, 1], "allow_snow": false}},
      "default_biome": "meadow",
      "layers": [{"id": "generation", "kind": "generation"}, {"id": "biomes", "kind": "biomes"},
                 {"id": "sculpt", "kind": "sculpt", "name": "Sculpt"}, {"id": "protection", "kind": "protection"},
                 {"id": "exclusions", "kind": "exclusions", "enabled": false}],
      "edits": [{"type": "raise", "radius": 4, "amount": 2, "points": [[10, 10], [12, 10]]},
                {"type": "ramp", "radius": 3, "from": [5, 5, 1], "to": [30, 30, 9]},
                {"type": "flatten", "radius": 5, "target_height": 3, "center": [40, 40], "falloff": 0.2}],
      "exclusions": [{"type": "exclude", "radius": 6, "center": [20, 20]}],
      "regions": [{"type": "region", "biome": "sand", "radius": 8, "center": [50, 50], "slope_max": 30}]}}"#,
];

pub fn recipe_document(m: &mut Mutator) {
    let i = m.rng().usize(0..DOCUMENTS.len());
    let donors: Vec<&[u8]> = DOCUMENTS.iter().map(|s| s.as_bytes()).collect();
    let bytes = m.mutate(DOCUMENTS[i].as_bytes(), &donors, true);
    let text = String::from_utf8_lossy(&bytes);
    match Document::parse(&text, "fuzz.terrain.json") {
        Err(e) => located(&e, "fuzz.terrain.json"),
        Ok(doc) => {
            // Accepted documents round-trip through canonical JSON, byte-stable.
            let canonical = doc.to_canonical_json();
            let again = Document::parse(&canonical, "canonical")
                .unwrap_or_else(|e| panic!("canonical JSON of an accepted document fails: {e}"));
            assert_eq!(
                again.to_canonical_json(),
                canonical,
                "canonical JSON is stable"
            );
        }
    }
}

// ----- strokes -----

const STROKES: &[&str] = &[
    r#"{"type": "raise", "radius": 4, "amount": 2.5, "points": [[10, 10], [12, 11], [14, 12]]}"#,
    r#"{"type": "lower", "radius": 3, "amount": 1, "center": [16, 16], "falloff": 0.3, "strength": 0.7}"#,
    r#"{"type": "flatten", "radius": 5, "target_height": 4, "center": [8, 20]}"#,
    r#"{"type": "set_height", "radius": 2, "target_height": -3, "points": [[1, 1], [31, 31]], "mask": "square"}"#,
    r#"{"type": "smooth", "radius": 6, "center": [20, 20], "slope_min": 5, "slope_max": 60}"#,
    r#"{"type": "ramp", "radius": 3, "from": [2, 2, 0], "to": [28, 20, 12]}"#,
    r#"{"type": "protect", "radius": 3, "center": [12, 12]}"#,
    r#"{"type": "exclude", "radius": 5, "center": [10, 25], "layer": "exclusions"}"#,
    r#"{"type": "erase", "radius": 2, "points": [[10, 25]]}"#,
    r#"{"type": "region", "biome": "sand", "radius": 7, "center": [25, 8]}"#,
    r#"{"type": "raise", "radius": 4, "center": [16, 16], "mask": "m.png", "layer": "details"}"#,
    r#"{"type": "height_patch", "grid": [32, 32], "origin": [4, 6], "size": [3, 2], "heights": [1, 2.5, -3, 0.125, 4, -0]}"#,
];

const SESSION_RECIPE: &str = r#"{"size": [32, 32], "resolution": [32, 32], "chunk_cells": 16, "seed": 2,
    "biomes": {"meadow": {"color": [0.3, 0.6, 0.2, 1]}, "sand": {"color": [0.9, 0.8, 0.5, 1]}},
    "default_biome": "meadow",
    "layers": [{"id": "generation", "kind": "generation"}, {"id": "biomes", "kind": "biomes"},
               {"id": "sculpt", "kind": "sculpt"}, {"id": "details", "kind": "sculpt"},
               {"id": "protection", "kind": "protection"}, {"id": "exclusions", "kind": "exclusions"}],
    "edits": [{"type": "smooth", "radius": 5, "center": [14, 14], "layer": "details"}]}"#;

fn session_base() -> Heightfield {
    let grid = Grid::new([32.0, 32.0], [32, 32], 16).expect("grid");
    let heights = (0..33 * 33)
        .map(|i| {
            let (x, z) = ((i % 33) as f32, (i / 33) as f32);
            (x * 0.3).sin() * 4.0 + z * 0.2
        })
        .collect();
    Heightfield::new(grid, heights, None).expect("base")
}

fn masks() -> MaskLoader {
    Arc::new(|reference: &str| {
        if reference == "m.png" {
            Ok(Arc::new(MaskImage {
                width: 2,
                depth: 2,
                values: vec![0.0, 1.0, 0.5, 0.25],
            }))
        } else {
            Err(format!("no mask `{reference}` here"))
        }
    })
}

pub fn stroke(m: &mut Mutator) {
    static RECIPE: OnceLock<ridgeline_core::recipe::Recipe> = OnceLock::new();
    let recipe = RECIPE.get_or_init(|| {
        Document::parse(SESSION_RECIPE, "session")
            .expect("session recipe")
            .recipe()
            .clone()
    });
    let i = m.rng().usize(0..STROKES.len());
    let donors: Vec<&[u8]> = STROKES.iter().map(|s| s.as_bytes()).collect();
    let bytes = m.mutate(STROKES[i].as_bytes(), &donors, true);
    let text = String::from_utf8_lossy(&bytes);
    let value = match strict_json::parse(&text, "stroke") {
        Err(e) => return located(&e, "stroke"),
        Ok(v) => v,
    };
    let mut session =
        EditSession::new(recipe.clone(), session_base(), Some(masks())).expect("session");
    let before: Vec<u32> = session
        .field()
        .heights()
        .iter()
        .map(|h| h.to_bits())
        .collect();
    match session.apply_stroke(&value) {
        Err(e) => {
            located(&e, "stroke");
            let after: Vec<u32> = session
                .field()
                .heights()
                .iter()
                .map(|h| h.to_bits())
                .collect();
            assert_eq!(after, before, "a refused stroke changes nothing");
            assert!(!session.can_undo());
        }
        Ok(_) => {
            assert!(
                session
                    .field()
                    .heights()
                    .iter()
                    .all(|h| h.abs() <= MAX_HEIGHT),
                "an accepted stroke keeps every height in range"
            );
            // The saved recipe regenerates to the same surface, bit for bit.
            let replay = EditSession::new(session.recipe().clone(), session_base(), Some(masks()))
                .unwrap_or_else(|e| panic!("an accepted stroke does not replay: {e}"));
            let a: Vec<u32> = replay
                .field()
                .heights()
                .iter()
                .map(|h| h.to_bits())
                .collect();
            let b: Vec<u32> = session
                .field()
                .heights()
                .iter()
                .map(|h| h.to_bits())
                .collect();
            assert_eq!(a, b, "live and replayed surfaces agree");
            assert!(session.undo().is_some());
            let undone: Vec<u32> = session
                .field()
                .heights()
                .iter()
                .map(|h| h.to_bits())
                .collect();
            assert_eq!(undone, before, "undo restores the surface");
        }
    }
}

// ----- payloads -----

fn payload_seeds() -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let grid = Grid::new([40.0, 30.0], [40, 30], 16).expect("grid");
        let [w, h] = grid.samples();
        let heights: Vec<f32> = (0..w * h)
            .map(|i| ((i % w) as f32 * 0.4).sin() * 5.0 + (i / w) as f32 * 0.1)
            .collect();
        let mut holes = HoleMask::new(40, 30);
        holes.set(3, 4, true);
        holes.set(20, 9, true);
        let field = Heightfield::new(grid, heights.clone(), Some(holes)).expect("field");
        let ground = Field::from_vec(w, h, heights).expect("ground");
        let mut water = WaterSet::empty(grid);
        water.add(
            WaterBody {
                id: "lake".into(),
                kind: WaterKind::Lake,
                level: 2.0,
                footprint: Footprint::Lake {
                    center: [20.0, 15.0],
                    radius: 100.0,
                    boundary: None,
                },
                flow_speed: 0.5,
                flow_direction: [1.0, 0.0],
                appearance: Appearance::default(),
                wet_samples: 0,
                warnings: Vec::new(),
            },
            &ground,
        );
        let n = grid.sample_count();
        let full = PreparedTerrain {
            field: field.clone(),
            water,
            default_biome: "meadow".into(),
            biome_color: [0.1, 0.2, 0.3, 1.0],
            exclusion: (0..n).map(|i| (i % 5) as f32 / 4.0).collect(),
            regions: (0..n).map(|i| (i % 3) as u16).collect(),
            region_biomes: vec!["sand".into(), "rock".into()],
            surface: ridgeline_core::pipeline::Surface {
                biomes: ["meadow", "rock", "sand"]
                    .map(ridgeline_core::biome::BiomeSpec::named)
                    .to_vec(),
                classes: ridgeline_core::biome::SampleClasses::from_pairs(
                    (0..n).map(|i| ((i % 3) as u16, (i % 9) as u8)),
                ),
            },
            sources: Default::default(),
            scatter: std::sync::Arc::new(ridgeline_core::scatter::Scatter {
                palette: "Fuzz".into(),
                rules: vec!["pine".into(), "rock".into()],
                placements: (0..40u32)
                    .map(|k| ridgeline_core::scatter::Placement {
                        rule: (k % 2) as u16,
                        cell: [k, k / 3],
                        position: [k as f32 * 0.1, 1.0, 0.5],
                        yaw: k as f32 * 9.0,
                        scale: 1.0 + k as f32 * 0.01,
                    })
                    .collect(),
                stats: Vec::new(),
                truncated: 3,
            }),
            scatter_source: std::sync::Arc::new(scatter_source(n)),
        };
        let small_grid = Grid::new([4.0, 4.0], [2, 2], 2).expect("grid");
        let plain = PreparedTerrain::new(
            Heightfield::flat(small_grid, 1.5).expect("flat"),
            WaterSet::empty(small_grid),
            "default".into(),
            [0.5, 0.5, 0.5, 1.0],
        );
        vec![payload::encode(&full), payload::encode(&plain)]
    })
}

/// A format-5 scatter source: the palette of the seed's rules with a foliage type, a painted
/// density map, a protection mask and painted layers, so mutations reach those sections too.
fn scatter_source(n: usize) -> ridgeline_core::pipeline::ScatterSource {
    let palette = ridgeline_core::scatter::Palette::parse(
        &serde_json::json!({"format_version": 3, "name": "Fuzz",
            "placements": {"pine": {"prefab": "res://pine.tscn", "density": 0.01},
                           "rock": {"model": "res://rock.tres", "density": 0.01, "collision": "none"}},
            "foliage": {"grass": {"model": "res://grass.tres", "density": 2}}}),
        "palette",
    )
    .expect("palette");
    let mut density = ridgeline_core::edit::foliage_density::FoliageMaps::new(n);
    density.insert("grass", (0..n).map(|i| (i % 4) as f32 / 3.0).collect());
    ridgeline_core::pipeline::ScatterSource {
        palette: Some(std::sync::Arc::new(palette)),
        seed: 0xfeed_f00d,
        foliage_density: density,
        protection: (0..n).map(|i| (i % 2) as f32).collect(),
        biome_rules: None,
        paint: ridgeline_core::edit::paint::PaintLayers::from_bytes(
            n,
            (0..n * 4).map(|i| (i % 251) as u8).collect(),
            (0..n * 10)
                .map(|i| if i % 10 == (i / 10) % 10 { 255 } else { 0 })
                .collect(),
        )
        .expect("paint"),
        classified: (0..n).map(|i| (i % 9) as u8).collect(),
        base_placements: None,
    }
}

/// Header length of an encoded payload (magic, version, generator, body length, checksum).
fn header_len(bytes: &[u8]) -> Option<usize> {
    let g = u16::from_le_bytes([*bytes.get(12)?, *bytes.get(13)?]) as usize;
    Some(14 + g + 16).filter(|&n| n <= bytes.len())
}

/// Rewrites the body length and checksum so a mutated body reaches the value checks.
fn fix_checksum(bytes: &mut [u8]) {
    let Some(h) = header_len(bytes) else { return };
    let body_len = (bytes.len() - h) as u64;
    let sum = ridgeline_core::seed::fnv1a(&bytes[h..]);
    bytes[h - 16..h - 8].copy_from_slice(&body_len.to_le_bytes());
    bytes[h - 8..h].copy_from_slice(&sum.to_le_bytes());
}

/// Mutates the metadata JSON text inside a payload, keeping the rest.
fn mutate_metadata(m: &mut Mutator, bytes: &[u8]) -> Vec<u8> {
    let Some(h) = header_len(bytes) else {
        return bytes.to_vec();
    };
    let body = &bytes[h..];
    let meta_len = u32::from_le_bytes([body[0], body[1], body[2], body[3]]) as usize;
    let meta = m.mutate(&body[4..4 + meta_len], &[], true);
    let mut out = bytes[..h].to_vec();
    out.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    out.extend_from_slice(&meta);
    out.extend_from_slice(&body[4 + meta_len..]);
    fix_checksum(&mut out);
    out
}

pub fn payload(m: &mut Mutator) {
    let seeds = payload_seeds();
    let seed = &seeds[m.rng().usize(0..seeds.len())];
    let donors: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    let bytes = match m.rng().usize(0..4) {
        0 => m.mutate(seed, &donors, false),
        1 | 2 => {
            let mut b = m.mutate(seed, &donors, false);
            fix_checksum(&mut b);
            b
        }
        _ => mutate_metadata(m, seed),
    };
    match payload::decode(&bytes, "fuzz.terrain.bin") {
        Err(e) => located(&e, "fuzz.terrain.bin"),
        Ok(p) => {
            // Accepted payloads re-encode to a payload that decodes to the same terrain.
            let again = payload::decode(&payload::encode(&p), "again")
                .unwrap_or_else(|e| panic!("re-encoded payload fails: {e}"));
            assert_eq!(again.field.heights(), p.field.heights());
            assert_eq!(again.water.owner, p.water.owner);
            assert!(p.field.heights().iter().all(|h| h.abs() <= MAX_HEIGHT));
            assert!(p.water.surface.iter().all(|s| s.is_finite()));
            assert!(p.exclusion.iter().all(|x| (0.0..=1.0).contains(x)));
            // Queries never panic on what loads (issue 11: `get_normal` on 1e20 heights).
            let [sx, sz] = p.field.grid().size();
            for _ in 0..32 {
                let (x, z) = (m.rng().f32() * sx, m.rng().f32() * sz);
                let _ = p.field.height_at(x, z);
                if let Some(n) = p.field.normal_at(x, z) {
                    assert!((n.length() - 1.0).abs() < 1e-3, "normal {n}");
                }
                let _ = p.field.smooth_normal_at(x, z);
                let _ = p.water.sample(&p.field, x, z);
                let o = glam::Vec3::new(x, 50.0, z);
                let d = glam::Vec3::new(m.rng().f32() - 0.5, -1.0, m.rng().f32() - 0.5);
                let _ = p.field.raycast(o, d, 1000.0);
            }
        }
    }
}

// ----- PNG masks -----

fn png(
    width: u32,
    height: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    data: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(color);
        enc.set_depth(depth);
        let mut w = enc.write_header().expect("header");
        w.write_image_data(data).expect("data");
    }
    out
}

fn png_seeds() -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        use png::{BitDepth as B, ColorType as C};
        let ramp = |n: usize| (0..n).map(|i| (i * 37 % 256) as u8).collect::<Vec<_>>();
        vec![
            png(2, 2, C::Grayscale, B::Eight, &[0, 255, 128, 7]),
            png(5, 3, C::Grayscale, B::Sixteen, &ramp(5 * 3 * 2)),
            png(4, 4, C::Rgba, B::Eight, &ramp(4 * 4 * 4)),
            png(3, 3, C::GrayscaleAlpha, B::Sixteen, &ramp(3 * 3 * 4)),
            png(3, 2, C::Rgb, B::Sixteen, &ramp(3 * 2 * 6)),
            png(16, 9, C::Grayscale, B::Eight, &ramp(16 * 9)),
        ]
    })
}

/// CRC-32 (ISO-HDLC) as PNG chunks use it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// Recomputes every chunk's CRC so mutations reach the decoder's value checks.
fn fix_crcs(bytes: &mut [u8]) {
    let mut at = 8;
    while at + 12 <= bytes.len() {
        let len =
            u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
        let end = at + 8 + len;
        if end + 4 > bytes.len() {
            break;
        }
        let crc = crc32(&bytes[at + 4..end]);
        bytes[end..end + 4].copy_from_slice(&crc.to_be_bytes());
        at = end + 4;
    }
}

pub fn png_mask(m: &mut Mutator) {
    let seeds = png_seeds();
    let seed = &seeds[m.rng().usize(0..seeds.len())];
    let donors: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    let mut bytes = m.mutate(seed, &donors, false);
    if m.rng().bool() {
        fix_crcs(&mut bytes);
    }
    match ridgeline_core::formats::mask::mask_from_png(&bytes, "fuzz.png") {
        Err(e) => located(&e, "fuzz.png"),
        Ok(img) => {
            let max = ridgeline_core::formats::mask::MAX_MASK_SIDE;
            assert!((2..=max).contains(&img.width) && (2..=max).contains(&img.depth));
            assert_eq!(img.values.len(), img.width * img.depth);
            assert!(img.values.iter().all(|v| (0.0..=1.0).contains(v)));
        }
    }
    match ridgeline_core::formats::png16::read(&bytes, -10.0, 50.0, "fuzz.png") {
        Err(e) => located(&e, "fuzz.png"),
        Ok(img) => {
            img.check("fuzz.png")
                .expect("decoded heightmaps are well-formed");
            assert!(img.heights.iter().all(|h| (-10.0..=50.0).contains(h)));
        }
    }
}

// ----- seed-002 terrain JSON -----

fn terrain_json_seeds() -> &'static [String] {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let (nx, nz) = (5, 4);
        let full = TerrainDocument {
            origin: [10.5, -2.0, 0.1],
            resolution: [nx, nz],
            cell_size: 2.0,
            heights: (0..nx * nz).map(|i| (i as f32 * 0.7).cos() * 3.0).collect(),
            layers: vec![
                TerrainLayer {
                    material: "res://grass.tres".into(),
                    tile: 256.0,
                    detile: 0.0,
                    detile_sharpen: 0.5,
                },
                TerrainLayer {
                    material: "res://rock.tres".into(),
                    tile: 64.0,
                    detile: 0.3,
                    detile_sharpen: 0.9,
                },
            ],
            splat: Some((0..nx * nz * 4).map(|i| (i * 37 % 256) as u8).collect()),
            holes: Some(
                (0..(nx - 1) * (nz - 1))
                    .map(|i| (i % 5 == 0) as u8)
                    .collect(),
            ),
            chunk_cells: 2,
        };
        let plain = TerrainDocument {
            origin: [0.0; 3],
            resolution: [2, 2],
            cell_size: 1.0,
            heights: vec![0.0, 1.0, 2.0, 3.0],
            layers: Vec::new(),
            splat: None,
            holes: None,
            chunk_cells: 32,
        };
        vec![full.to_json(), plain.to_json()]
    })
}

pub fn terrain_json(m: &mut Mutator) {
    let seeds = terrain_json_seeds();
    let seed = &seeds[m.rng().usize(0..seeds.len())];
    let donors: Vec<&[u8]> = seeds.iter().map(|s| s.as_bytes()).collect();
    let bytes = m.mutate(seed.as_bytes(), &donors, true);
    let text = String::from_utf8_lossy(&bytes);
    match TerrainDocument::parse(&text, "fuzz.json") {
        Err(e) => located(&e, "fuzz.json"),
        Ok(doc) => {
            let back = TerrainDocument::parse(&doc.to_json(), "again")
                .unwrap_or_else(|e| panic!("an accepted document does not round-trip: {e}"));
            assert_eq!(back, doc, "round trip");
            match doc.to_heightfield() {
                Ok(f) => assert_eq!(f.heights(), &doc.heights[..]),
                Err(e) => has_location(&e),
            }
        }
    }
}
