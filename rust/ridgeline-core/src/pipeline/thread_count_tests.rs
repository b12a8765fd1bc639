//! Cooking is bit-identical on any thread count: every shipped example graph (noise,
//! landforms, erosion, drainage, rivers, lakes, biomes) and the demo terrain (its scatter
//! palette and foliage too) cook to the same payload bytes on one and on three threads — the
//! payload holds the heights, bounds, water, surface classes, control map, placements and
//! scatter source, so one comparison covers every stage. The size (385² samples) reaches the
//! block-parallel paths, which start at 32 768–131 072 samples.

use super::generate::prepare;
use crate::formats::payload;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::Document;
use std::sync::atomic::AtomicBool;

const RECIPES: [(&str, &str); 7] = [
    (
        "mountains",
        include_str!("../../../../docs/examples/mountains.terrain.json"),
    ),
    (
        "eroded_hills",
        include_str!("../../../../docs/examples/eroded_hills.terrain.json"),
    ),
    (
        "drainage_river",
        include_str!("../../../../docs/examples/drainage_river.terrain.json"),
    ),
    (
        "river_valley",
        include_str!("../../../../docs/examples/river_valley.terrain.json"),
    ),
    (
        "rolling_hills",
        include_str!("../../../../docs/examples/rolling_hills.terrain.json"),
    ),
    (
        "valley",
        include_str!("../../../../docs/examples/valley.terrain.json"),
    ),
    (
        "demo",
        include_str!("../../../../demo_project/terrains/river_valley.terrain.json"),
    ),
];

/// The payload of recipe `text` at 384² cells, cooked on `threads` threads.
fn cooked(name: &str, text: &str, threads: usize) -> Vec<u8> {
    let mut recipe = Document::parse(text, name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .recipe()
        .clone();
    recipe.resolution = [384, 384];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let p = prepare(
            &recipe,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &AtomicBool::new(false),
            None,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        payload::encode(&p)
    })
}

#[test]
fn every_shipped_recipe_cooks_to_the_same_bytes_on_one_and_three_threads() {
    for (name, text) in RECIPES {
        let one = cooked(name, text, 1);
        assert!(
            one.len() > 385 * 385 * 4,
            "{name}: the heights are in the payload"
        );
        if name == "demo" {
            let p = payload::decode(&one, "demo.terrain.bin").expect("the payload decodes");
            assert!(
                !p.scatter.placements.is_empty(),
                "the demo's palette places objects"
            );
        }
        let three = cooked(name, text, 3);
        assert_eq!(one.len(), three.len(), "{name}: payload sizes differ");
        let first_difference = one.iter().zip(&three).position(|(a, b)| a != b);
        assert_eq!(first_difference, None, "{name}: payloads differ");
    }
}
