//! The Heightmap node through the pipeline: exact round trips, resampling and placement, bad
//! files as located errors that leave the previous result, cache keys that follow the file's
//! content, and a synthetic DEM that drains plausibly.

use crate::formats::{HeightImage, png16, raw, terrain_json::TerrainDocument};
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::pipeline::{DevCache, generate, prepare_cached};
use crate::recipe::{Document, Recipe};
use std::path::Path;
use std::sync::atomic::AtomicBool;

static NEVER: AtomicBool = AtomicBool::new(false);

/// An asset in `dir` whose graph is a heightmap node `h` with `params` straight into the output.
fn recipe(dir: &Path, size: [f64; 2], cells: [u32; 2], params: &str) -> Recipe {
    let text = format!(
        r#"{{"format_version":1,"id":"asset://t","recipe":{{"size":[{},{}],"resolution":[{},{}],"seed":1,
        "graph":{{"format_version":1,"output":"out","nodes":[
          {{"id":"h","type":"heightmap","params":{params}}},
          {{"id":"out","type":"terrain_output","inputs":{{"heightfield":"h"}}}}]}}}}}}"#,
        size[0], size[1], cells[0], cells[1]
    );
    let path = dir.join("t.terrain.json");
    std::fs::write(&path, &text).unwrap();
    Document::parse(&text, "t.terrain.json")
        .unwrap()
        .recipe()
        .clone()
        .with_source_dir(dir)
}

fn run(r: &Recipe, cache: &mut GraphCache) -> crate::Result<crate::pipeline::Generated> {
    let never = AtomicBool::new(false);
    crate::pipeline::generate_with_masks(r, Quality::Final, cache, &|_, _| {}, &never, None)
}

fn heights(r: &Recipe) -> Vec<f32> {
    run(r, &mut GraphCache::default())
        .unwrap()
        .heightfield
        .heights()
        .to_vec()
}

/// A DEM-like image: a valley draining to +Z, ridges either side, fractal-ish roughness.
fn dem(w: usize, d: usize, seed: u64) -> HeightImage {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut heights = Vec::with_capacity(w * d);
    for z in 0..d {
        for x in 0..w {
            let (u, v) = (x as f32 / (w - 1) as f32, z as f32 / (d - 1) as f32);
            let valley = (u - 0.5 - 0.08 * (v * 9.0).sin()).abs() * 900.0;
            let slope = (1.0 - v) * 400.0;
            let rough = 30.0 * ((u * 37.0).sin() * (v * 23.0).cos()) + 4.0 * rng.f32();
            heights.push(200.0 + valley + slope + rough);
        }
    }
    HeightImage {
        width: w,
        depth: d,
        heights,
    }
}

fn export_png(field: &crate::Heightfield, min: f32, max: f32) -> Vec<u8> {
    let [w, d] = field.grid().samples();
    png16::write(
        &HeightImage {
            width: w,
            depth: d,
            heights: field.heights().to_vec(),
        },
        min,
        max,
    )
    .unwrap()
}

#[test]
fn png16_r16_r32_and_terrain_json_import_exactly_and_export_byte_identically() {
    let dir = tempfile::tempdir().unwrap();
    let img = dem(65, 33, 1);
    let (lo, hi) = (150.0, 1700.0);
    // PNG16: the asset's export equals the input file byte for byte.
    let png = png16::write(&img, lo, hi).unwrap();
    std::fs::write(dir.path().join("a.png"), &png).unwrap();
    let r = recipe(
        dir.path(),
        [64.0, 32.0],
        [64, 32],
        r#"{"file":"a.png","min":150,"max":1700}"#,
    );
    let g = run(&r, &mut GraphCache::default()).unwrap();
    let decoded = png16::read(&png, lo, hi, "a.png").unwrap();
    assert_eq!(g.heightfield.heights(), &decoded.heights[..]);
    assert_eq!(export_png(&g.heightfield, lo, hi), png);
    // Within one quantum of the original heights.
    let q = (hi - lo) / 65535.0;
    for (a, b) in img.heights.iter().zip(g.heightfield.heights()) {
        assert!((a - b).abs() <= q * 0.5 + 1e-4, "{a} vs {b}");
    }
    // R16 (square inference needs a square file: give the dimensions).
    let r16 = raw::write_r16(&img, lo, hi).unwrap();
    std::fs::write(dir.path().join("a.r16"), &r16).unwrap();
    let r = recipe(
        dir.path(),
        [64.0, 32.0],
        [64, 32],
        r#"{"file":"a.r16","min":150,"max":1700,"raw_width":65,"raw_depth":33}"#,
    );
    let field = run(&r, &mut GraphCache::default()).unwrap().heightfield;
    assert_eq!(
        raw::write_r16(
            &HeightImage {
                width: 65,
                depth: 33,
                heights: field.heights().to_vec()
            },
            lo,
            hi
        )
        .unwrap(),
        r16
    );
    // R32: bit-exact heights, -0.0 included.
    let mut exact = img.clone();
    exact.heights[3] = -0.0;
    let r32 = raw::write_r32(&exact).unwrap();
    std::fs::write(dir.path().join("a.r32"), &r32).unwrap();
    let r = recipe(
        dir.path(),
        [64.0, 32.0],
        [64, 32],
        r#"{"file":"a.r32","raw_width":65,"raw_depth":33}"#,
    );
    let field = run(&r, &mut GraphCache::default()).unwrap().heightfield;
    let bits = |h: &[f32]| h.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(field.heights()), bits(&exact.heights));
    // Terrain JSON: the document written from the result equals the input document.
    let doc = TerrainDocument::from_heightfield(&field, [0.0; 3], Vec::new()).unwrap();
    let text = doc.to_json();
    std::fs::write(dir.path().join("a.json"), &text).unwrap();
    let r = recipe(dir.path(), [64.0, 32.0], [64, 32], r#"{"file":"a.json"}"#);
    let again = run(&r, &mut GraphCache::default()).unwrap().heightfield;
    assert_eq!(
        TerrainDocument::from_heightfield(&again, [0.0; 3], Vec::new())
            .unwrap()
            .to_json(),
        text
    );
}

#[test]
fn resampling_placement_fill_base_and_mapping() {
    let dir = tempfile::tempdir().unwrap();
    let img = HeightImage {
        width: 3,
        depth: 3,
        heights: vec![0.0, 10.0, 20.0, 0.0, 10.0, 20.0, 0.0, 10.0, 20.0],
    };
    std::fs::write(dir.path().join("s.r32"), raw::write_r32(&img).unwrap()).unwrap();
    // 3 pixels over 8 cells, bilinear: a linear ramp 0..20 along X.
    let h = heights(&recipe(
        dir.path(),
        [8.0, 8.0],
        [8, 8],
        r#"{"file":"s.r32"}"#,
    ));
    for z in 0..9 {
        for x in 0..9 {
            assert!((h[z * 9 + x] - 2.5 * x as f32).abs() < 1e-5);
        }
    }
    // Bicubic reproduces the ramp too; scale and offset apply to float formats.
    let h = heights(&recipe(
        dir.path(),
        [8.0, 8.0],
        [8, 8],
        r#"{"file":"s.r32","filter":"bicubic","scale":2,"offset":-5}"#,
    ));
    assert!((h[4] - (2.0 * 10.0 - 5.0)).abs() < 1e-4, "{}", h[4]);
    // A placement rectangle: outside it the fill height.
    let h = heights(&recipe(
        dir.path(),
        [8.0, 8.0],
        [8, 8],
        r#"{"file":"s.r32","area_min":[2,2],"area_size":[4,4],"fill":-7}"#,
    ));
    assert_eq!(h[0], -7.0);
    assert_eq!(h[2 * 9 + 2], 0.0);
    assert_eq!(h[4 * 9 + 4], 10.0);
    assert_eq!(h[6 * 9 + 6], 20.0);
    assert_eq!(h[7 * 9 + 7], -7.0);
}

#[test]
fn outside_the_area_the_base_input_shows_through() {
    let dir = tempfile::tempdir().unwrap();
    let img = HeightImage {
        width: 2,
        depth: 2,
        heights: vec![50.0; 4],
    };
    std::fs::write(dir.path().join("s.r32"), raw::write_r32(&img).unwrap()).unwrap();
    let text = r#"{"size":[8,8],"resolution":[8,8],"graph":{"format_version":1,"output":"out","nodes":[
        {"id":"flat","type":"flat_terrain","params":{"height":3}},
        {"id":"h","type":"heightmap","params":{"file":"s.r32","area_min":[0,0],"area_size":[4,4]},"inputs":{"base":"flat"}},
        {"id":"out","type":"terrain_output","inputs":{"heightfield":"h"}}]}}"#;
    let r = Document::parse(text, "t")
        .unwrap()
        .recipe()
        .clone()
        .with_source_dir(dir.path());
    let h = heights(&r);
    assert_eq!(h[0], 50.0);
    assert_eq!(h[8], 3.0);
}

/// A minimal PNG with the given IHDR fields (CRCs computed), for headers the encoder will not
/// write (interlaced, oversized).
fn png_with_header(w: u32, h: u32, interlace: u8, idat: &[u8]) -> Vec<u8> {
    fn crc(data: &[u8]) -> u32 {
        let mut c = 0xffff_ffffu32;
        for &b in data {
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
    let chunk = |t: &[u8], d: &[u8]| {
        let mut v = (d.len() as u32).to_be_bytes().to_vec();
        let body = [t, d].concat();
        v.extend_from_slice(&body);
        v.extend_from_slice(&crc(&body).to_be_bytes());
        v
    };
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[16, 0, 0, 0, interlace]);
    [
        b"\x89PNG\r\n\x1a\n".to_vec(),
        chunk(b"IHDR", &ihdr),
        chunk(b"IDAT", idat),
        chunk(b"IEND", &[]),
    ]
    .concat()
}

#[test]
fn bad_files_are_located_errors_naming_the_file_and_the_previous_result_stays() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("project.godot"), "").unwrap();
    let dir = root.path().join("terrain");
    std::fs::create_dir_all(&dir).unwrap();
    let good = png16::write(&dem(17, 17, 2), 0.0, 2000.0).unwrap();
    let file = dir.join("hm.png");
    std::fs::write(&file, &good).unwrap();
    let r = recipe(
        &dir,
        [16.0, 16.0],
        [16, 16],
        r#"{"file":"hm.png","max":2000}"#,
    );
    let mut cache = GraphCache::default();
    let before = run(&r, &mut cache).unwrap().heightfield;
    let at = "t.terrain.json: recipe.graph.nodes[\"h\"].params.file: ";
    let expect = |r: &Recipe, cache: &mut GraphCache, needles: &[&str]| {
        let e = run(r, cache).unwrap_err().to_string();
        assert!(e.starts_with(at), "{e}");
        for n in needles {
            assert!(e.contains(n), "expected `{n}` in `{e}`");
        }
    };
    // Truncated, interlaced, oversized, not a PNG: the node's decode fails, located.
    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    expect(
        &r,
        &mut cache,
        &["\"hm.png\"", "hm.png", "truncated or corrupt"],
    );
    std::fs::write(&file, png_with_header(4, 4, 1, &[])).unwrap();
    expect(&r, &mut cache, &["\"hm.png\"", "interlaced"]);
    std::fs::write(&file, png_with_header(9000, 2, 0, &[])).unwrap();
    expect(&r, &mut cache, &["\"hm.png\"", "9000 × 2", "2..=8193"]);
    std::fs::write(&file, b"GIF89a").unwrap();
    expect(&r, &mut cache, &["\"hm.png\"", "not a readable PNG"]);
    // Missing, outside the project, absolute, a directory: refused when read.
    std::fs::remove_file(&file).unwrap();
    expect(&r, &mut cache, &["\"hm.png\"", "hm.png", "cannot read"]);
    std::fs::write(root.path().parent().unwrap().join("outside.png"), &good).ok();
    for (reference, needle) in [
        ("../../outside.png", "outside the project"),
        ("/etc/passwd.png", "absolute paths are not allowed"),
        ("user://x.png", "res://"),
        (".", "not a regular file"),
    ] {
        let r = recipe(
            &dir,
            [16.0, 16.0],
            [16, 16],
            &format!(r#"{{"file":"{reference}","format":"png","max":2000}}"#),
        );
        expect(&r, &mut cache, &[needle]);
    }
    // A recipe that was not loaded from a file cannot resolve its heightmap.
    let text = std::fs::read_to_string(dir.join("t.terrain.json")).unwrap();
    let unplaced = Document::parse(&text, "t.terrain.json")
        .unwrap()
        .recipe()
        .clone();
    expect(&unplaced, &mut cache, &["not loaded from a file"]);
    // The cache still holds the last good run: restoring the file reuses it, same heights.
    std::fs::write(&file, &good).unwrap();
    let r = recipe(
        &dir,
        [16.0, 16.0],
        [16, 16],
        r#"{"file":"hm.png","max":2000}"#,
    );
    let again = run(&r, &mut cache).unwrap();
    assert!(again.nodes.iter().find(|n| n.id == "h").unwrap().reused);
    assert_eq!(again.heightfield.heights(), before.heights());
}

#[test]
fn raw_square_inference_and_unknown_extensions_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    let img = dem(9, 9, 3);
    std::fs::write(
        dir.path().join("sq.r16"),
        raw::write_r16(&img, 0.0, 1.0).unwrap(),
    )
    .unwrap();
    let h = heights(&recipe(
        dir.path(),
        [8.0, 8.0],
        [8, 8],
        r#"{"file":"sq.r16","max":1}"#,
    ));
    assert_eq!(h.len(), 81);
    std::fs::write(dir.path().join("odd.r16"), [0u8; 30]).unwrap();
    let e = run(
        &recipe(dir.path(), [8.0, 8.0], [8, 8], r#"{"file":"odd.r16"}"#),
        &mut GraphCache::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("not a square 16-bit raw file; set `raw_width`"),
        "{e}"
    );
    let e = Document::parse(
        r#"{"graph":{"format_version":1,"output":"out","nodes":[
        {"id":"h","type":"heightmap","params":{"file":"a.tif"}},
        {"id":"out","type":"terrain_output","inputs":{"heightfield":"h"}}]}}"#,
        "t",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("graph.nodes[\"h\"].params.format: cannot tell the format"),
        "{e}"
    );
}

#[test]
fn cache_keys_follow_the_file_content() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hm.png");
    std::fs::write(&file, png16::write(&dem(17, 17, 4), 0.0, 2000.0).unwrap()).unwrap();
    let r = recipe(
        dir.path(),
        [16.0, 16.0],
        [16, 16],
        r#"{"file":"hm.png","max":2000}"#,
    );
    // Graph cache: same file reused, edited file re-evaluated with new heights.
    let mut cache = GraphCache::default();
    let first = run(&r, &mut cache).unwrap();
    let warm = run(&r, &mut cache).unwrap();
    assert!(warm.nodes.iter().find(|n| n.id == "h").unwrap().reused);
    std::fs::write(&file, png16::write(&dem(17, 17, 5), 0.0, 2000.0).unwrap()).unwrap();
    let edited = run(&r, &mut cache).unwrap();
    assert!(!edited.nodes.iter().find(|n| n.id == "h").unwrap().reused);
    assert_ne!(edited.heightfield.heights(), first.heightfield.heights());
    // Development cache: a stored base is found again, an edited file is a new entry.
    let dev = DevCache::new(dir.path().join("cache"), crate::formats::payload::CODEC);
    let prep = |cache: &mut GraphCache| {
        prepare_cached(&r, Some(&dev), cache, &|_, _| {}, &NEVER, None).unwrap()
    };
    let cold = prep(&mut GraphCache::default());
    assert!(!cold.from_cache);
    let hot = prep(&mut GraphCache::default());
    assert!(hot.from_cache);
    assert_eq!(hot.prepared.field.heights(), cold.prepared.field.heights());
    std::fs::write(&file, png16::write(&dem(17, 17, 6), 0.0, 2000.0).unwrap()).unwrap();
    let changed = prep(&mut GraphCache::default());
    assert!(!changed.from_cache, "an edited heightmap must regenerate");
    assert_ne!(
        changed.prepared.field.heights(),
        cold.prepared.field.heights()
    );
    // Without files the key is the recipe's own (existing cache entries stay valid).
    assert_eq!(
        crate::pipeline::base_cache_key_with_files(&r, &Default::default()),
        crate::pipeline::base_cache_key(&r)
    );
}

#[test]
fn a_synthetic_dem_imports_and_drains_plausibly() {
    let dir = tempfile::tempdir().unwrap();
    let img = dem(257, 257, 7);
    std::fs::write(
        dir.path().join("dem.png"),
        png16::write(&img, 0.0, 2000.0).unwrap(),
    )
    .unwrap();
    let text = r#"{"size":[2560,2560],"resolution":[256,256],"graph":{"format_version":1,"output":"out","nodes":[
        {"id":"dem","type":"heightmap","params":{"file":"dem.png","max":2000}},
        {"id":"drain","type":"drainage","inputs":{"field":"dem"}},
        {"id":"wet","type":"height_offset","params":{"offset":-1},"inputs":{"field":"dem","mask":"drain:flow"}},
        {"id":"out","type":"terrain_output","inputs":{"heightfield":"wet"}}]}}"#;
    let r = Document::parse(text, "t")
        .unwrap()
        .recipe()
        .clone()
        .with_source_dir(dir.path());
    let g = generate(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &NEVER,
    );
    let g = match g {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    };
    assert!(g.nodes.iter().any(|n| n.type_id == "drainage"));
    // Drain the imported surface directly: the valley collects most of the terrain.
    let field = crate::grid::Field::from_vec(257, 257, {
        let r2 = recipe(
            dir.path(),
            [2560.0, 2560.0],
            [256, 256],
            r#"{"file":"dem.png","max":2000}"#,
        );
        heights(&r2)
    })
    .unwrap();
    let grid = r.grid().unwrap();
    let d = crate::hydrology::Drainage::compute(grid, &field);
    let max_acc = d.accumulation.iter().cloned().fold(0.0f32, f32::max);
    assert!(
        max_acc > 0.2 * (257.0 * 257.0),
        "the main valley should drain a large share, got {max_acc}"
    );
    // The outlet is at the low (+Z) edge, near the valley floor.
    let i = d.accumulation.iter().position(|&a| a == max_acc).unwrap();
    let (x, z) = (i % 257, i / 257);
    assert!(z > 200, "outlet at z = {z}");
    assert!((64..192).contains(&x), "outlet at x = {x}");
}
