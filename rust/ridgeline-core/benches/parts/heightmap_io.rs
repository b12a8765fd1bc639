//! `import_png16_4097` and `export_png16_4097`: a 4097² DEM-like 16-bit PNG through the
//! pipeline (bounded read, hash, decode, resample) and back out (`png16::write`).

use super::line;
use std::hint::black_box;

/// A 4097² DEM-like heightmap recipe reading `dem.png` in a temporary folder.
fn heightmap_fixture() -> (tempfile::TempDir, ridgeline_core::recipe::Recipe, Vec<u8>) {
    use ridgeline_core::formats::{HeightImage, png16};
    let n = 4097usize;
    let mut heights = Vec::with_capacity(n * n);
    for z in 0..n {
        for x in 0..n {
            let (u, v) = (x as f32 / 4096.0, z as f32 / 4096.0);
            heights.push(
                300.0 * (u - 0.5).abs()
                    + 200.0 * (1.0 - v)
                    + 40.0 * (u * 31.0).sin() * (v * 17.0).cos()
                    + 3.0 * ((x * 7919 + z * 104729) % 101) as f32 / 101.0,
            );
        }
    }
    let img = HeightImage {
        width: n,
        depth: n,
        heights,
    };
    let png = png16::write(&img, 0.0, 600.0).expect("png");
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("dem.png"), &png).expect("write");
    let text = r#"{"size":[4096,4096],"resolution":[4096,4096],"graph":{"format_version":1,"output":"out","nodes":[
        {"id":"h","type":"heightmap","params":{"file":"dem.png","max":600}},
        {"id":"out","type":"terrain_output","inputs":{"heightfield":"h"}}]}}"#;
    let recipe = ridgeline_core::recipe::Document::parse(text, "bench")
        .expect("recipe")
        .recipe()
        .clone()
        .with_source_dir(dir.path());
    (dir, recipe, png)
}

pub fn run(b: &super::Bench) {
    use ridgeline_core::formats::{HeightImage, png16};
    use ridgeline_core::graph::eval::GraphCache;
    use ridgeline_core::nodes::Quality;
    let (_dir, recipe, png) = heightmap_fixture();
    let never = std::sync::atomic::AtomicBool::new(false);
    // Read + hash + decode + resample onto the 4097² grid (a cold graph cache each time).
    let import = b.median(|| {
        let g = ridgeline_core::pipeline::generate(
            &recipe,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &never,
        )
        .expect("import");
        black_box(g);
    });
    line("import_png16_4097", import * 1e3, None, "ms");
    let img = png16::read(&png, 0.0, 600.0, "dem.png").expect("decode");
    let field = HeightImage { ..img };
    let export = b.median(|| {
        black_box(png16::write(&field, 0.0, 600.0).expect("encode"));
    });
    eprintln!("export_png16_4097: {} bytes", png.len());
    line("export_png16_4097", export * 1e3, None, "ms");
}
