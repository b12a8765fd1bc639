//! Payload round trips, refusals of foreign, truncated and corrupt payloads, and located
//! errors for values and metadata no generator writes.

use super::*;
use crate::hydrology::water::WaterBody;
use crate::testutil::holey_field;

fn sample() -> PreparedTerrain {
    let field = holey_field([40, 30], 16, 3, 0.05);
    let mut water = WaterSet::empty(*field.grid());
    let ground = crate::grid::Field::from_vec(41, 31, field.heights().to_vec()).unwrap();
    water.add(
        WaterBody::still_lake("lake", 4.0, [20.0, 15.0], 100.0),
        &ground,
    );
    let n = field.grid().sample_count();
    PreparedTerrain {
        field,
        water,
        default_biome: "meadow".into(),
        biome_color: [0.1, 0.2, 0.3, 1.0],
        exclusion: (0..n).map(|i| (i % 7) as f32 / 7.0).collect(),
        regions: (0..n).map(|i| (i % 3) as u16).collect(),
        region_biomes: vec!["sand".into(), "rock".into()],
        surface: crate::pipeline::Surface {
            biomes: ["meadow", "rock", "sand"]
                .map(|name| crate::biome::BiomeSpec {
                    material: (name == "rock").then(|| "res://rock.tres".to_string()),
                    allow_snow: name != "sand",
                    texture_scale: 0.25,
                    color: [0.5, 0.25, 0.125, 1.0],
                    ..crate::biome::BiomeSpec::named(name)
                })
                .to_vec(),
            classes: crate::biome::SampleClasses::from_pairs(
                (0..n).map(|i| ((i % 3) as u16, (i % 9) as u8)),
            ),
        },
        sources: crate::pipeline::SurfaceSources {
            rules: true,
            flow: Some(std::sync::Arc::new((0..n).map(|i| i as f32).collect())),
            flow_offset: None,
            erosion: None,
        },
        scatter: Default::default(),
        scatter_source: Default::default(),
    }
}

#[test]
fn biome_ids_roles_and_sources_round_trip() {
    let p = sample();
    let q = decode(&encode(&p), "t").unwrap();
    assert_eq!(q.surface, p.surface);
    assert_eq!(q.biomes()[1].material.as_deref(), Some("res://rock.tres"));
    assert!(!q.biomes()[2].allow_snow);
    assert_eq!(q.role_at(1, 0), Some(crate::biome::Role::Grass));
    assert!(q.sources.rules && q.sources.erosion.is_none());
    assert_eq!(q.sources.flow, p.sources.flow);
    // Unclassified terrains stay unclassified.
    let mut plain = p.clone();
    plain.surface = Default::default();
    plain.sources = Default::default();
    let q = decode(&encode(&plain), "t").unwrap();
    assert!(q.surface.is_empty() && q.sources.flow.is_none());
    // A payload of the previous version is refused with advice, never half-read.
    let mut old = encode(&p);
    old[8..12].copy_from_slice(&2u32.to_le_bytes());
    let e = decode(&old, "t.bin").unwrap_err().to_string();
    assert!(
        e.contains("format version 2 is not supported") && e.contains("cook the terrain again"),
        "{e}"
    );
    // Corrupt ids are located: version 7's class codes and pair table...
    let (mut meta, mut samples) = split(&encode(&p));
    let nb = samples.len();
    let n = p.field.grid().sample_count();
    // The class codes sit before the flow array (n f32); 9 pairs.
    samples[nb - n * 4 - 1] = 9;
    let e = error(&forge(&meta, &samples));
    assert!(
        e.contains(&format!("class_codes[{}]", n - 1)) && e.contains("names no pair"),
        "{e}"
    );
    meta["biomes"] = serde_json::json!([]);
    let e = error(&forge(&meta, &split(&encode(&p)).1));
    assert!(
        e.contains("meta.class_pairs[0]: biome id 0 does not exist"),
        "{e}"
    );
    // ...and version 6's plain biome and role arrays.
    let (mut meta, mut samples) = split(&encode_as(&p, 6));
    let nb = samples.len();
    samples[nb - n * 4 - 1] = 9;
    let e = error(&forge_as(6, &meta, &samples));
    assert!(e.contains("role_ids[") && e.contains("nine roles"), "{e}");
    meta["biomes"] = serde_json::json!([]);
    let e = error(&forge_as(6, &meta, &split(&encode_as(&p, 6)).1));
    assert!(e.contains("biome_ids[0]"), "{e}");
}

#[test]
fn version_7_drops_dry_water_arrays_and_stores_class_codes_and_version_6_still_loads() {
    let p = sample();
    let n = p.field.grid().sample_count();
    let mut dry = p.clone();
    dry.water = WaterSet::empty(*p.field.grid());
    // Version 6 spends 2 + 4 bytes per sample on water and 3 on classes; version 7 on a dry,
    // classified map 1.
    let (v6, v7) = (encode_as(&dry, 6), encode(&dry));
    let (meta6, body6) = split(&v6);
    let (meta7, body7) = split(&v7);
    assert_eq!(
        body6.len() - body7.len(),
        n * 8,
        "6 water bytes and 2 class bytes"
    );
    assert!(meta6.get("water_samples").is_none() && meta6.get("class_pairs").is_none());
    assert_eq!(meta7["water_samples"], json!(false));
    assert_eq!(meta7["class_pairs"].as_array().map(|a| a.len()), Some(9));
    for bytes in [&v6, &v7] {
        let q = decode(bytes, "t").unwrap();
        assert_eq!(q.surface, dry.surface);
        assert!(q.water.owner.is_empty() && q.water.surface.is_empty());
        assert_eq!(q.field.heights(), dry.field.heights());
        assert_eq!(q.sources.flow, dry.sources.flow);
        assert_eq!(
            encode(&q),
            v7,
            "a version 6 payload re-encodes as the version 7 one"
        );
    }
    // With water the arrays stay; the version-6 payload loads the same terrain.
    let q = decode(&encode_as(&p, 6), "t").unwrap();
    assert_eq!(q.water.owner, p.water.owner);
    assert_eq!(q.surface, p.surface);
    assert_eq!(encode(&q), encode(&p));
    // Over 256 pairs: no table, the plain arrays.
    let mut wide = dry.clone();
    wide.surface.biomes = (0..40)
        .map(|i| crate::biome::BiomeSpec::named(format!("b{i}")))
        .collect();
    wide.surface.classes =
        crate::biome::SampleClasses::from_pairs((0..n).map(|i| ((i % 40) as u16, (i % 9) as u8)));
    assert!(!wide.surface.classes.is_packed());
    let bytes = encode(&wide);
    assert_eq!(split(&bytes).0["class_pairs"], Value::Null);
    assert_eq!(decode(&bytes, "t").unwrap().surface, wide.surface);
    // Pairs no sample uses any more are not written.
    let mut edited = dry.clone();
    for i in 0..n {
        edited.surface.classes.set(i, 0, 0);
    }
    edited.surface.classes.set(5, 2, 3);
    let bytes = encode(&edited);
    assert_eq!(split(&bytes).0["class_pairs"], json!([[0, 0], [2, 3]]));
    assert_eq!(decode(&bytes, "t").unwrap().surface, edited.surface);
}

#[test]
fn corrupt_compact_sections_are_located_errors() {
    let p = sample();
    let mut dry = p.clone();
    dry.water = WaterSet::empty(*p.field.grid());
    let (meta, samples) = split(&encode(&dry));
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("water_samples");
            }),
            "meta.water_samples: is missing",
        ),
        (
            Box::new(|m| m["water_samples"] = json!(1)),
            "meta.water_samples: must be true or false",
        ),
        (
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("class_pairs");
            }),
            "meta.class_pairs: is missing",
        ),
        (
            Box::new(|m| m["class_pairs"] = json!("all")),
            "meta.class_pairs: must be a list of [biome, role] pairs or null",
        ),
        (
            Box::new(|m| m["class_pairs"][3] = json!([1])),
            "meta.class_pairs[3]: must be [biome id, role id]",
        ),
        (
            Box::new(|m| m["class_pairs"][4] = json!([0, 9])),
            "meta.class_pairs[4]: the role id is not one of the nine roles",
        ),
        (
            Box::new(|m| m["class_pairs"][5] = m["class_pairs"][0].clone()),
            "meta.class_pairs[5]: the pair [0,0] is listed twice",
        ),
        (
            Box::new(|m| m["surface"]["classified"] = json!(false)),
            "meta.class_pairs: lists pairs but the surface is not classified",
        ),
    ];
    for (edit, needle) in cases {
        let e = edited(&meta, &samples, &*edit);
        assert!(e.contains(needle), "expected `{needle}` in `{e}`");
        assert!(
            e.contains("t.terrain.bin") && e.contains("cook the terrain again"),
            "{e}"
        );
    }
    let too_many: Vec<Value> = (0..257).map(|i| json!([i % 3, 0])).collect();
    let e = edited(&meta, &samples, &|m| m["class_pairs"] = json!(too_many));
    assert!(e.contains("at most 256 pairs, got 257"), "{e}");
    // Water bodies listed while the arrays are announced absent.
    let (wet, wet_samples) = split(&encode(&p));
    let mut m = wet.clone();
    m["water_samples"] = json!(false);
    let e = error(&forge(&m, &wet_samples));
    assert!(
        e.contains("meta.water_samples: is false but 1 water bodies are listed"),
        "{e}"
    );
}

#[test]
fn round_trip_is_exact() {
    let p = sample();
    let bytes = encode(&p);
    let q = decode(&bytes, "t.terrain.bin").unwrap();
    assert_eq!(q.field.heights(), p.field.heights());
    assert_eq!(q.field.holes(), p.field.holes());
    assert_eq!(q.water.owner, p.water.owner);
    assert_eq!(q.water.surface, p.water.surface);
    assert_eq!(q.water.bodies[0].id, "lake");
    assert_eq!(q.water.bodies[0].appearance, p.water.bodies[0].appearance);
    assert_eq!(q.default_biome, "meadow");
    assert_eq!(q.exclusion, p.exclusion);
    assert_eq!(q.regions, p.regions);
    assert_eq!(q.painted_biome(2, 0), Some("rock"));
    assert_eq!(encode(&q), bytes, "re-encoding gives the same bytes");
    let mut plain = p.clone();
    plain.exclusion.clear();
    plain.regions.clear();
    let q = decode(&encode(&plain), "t").unwrap();
    assert!(q.exclusion.is_empty() && q.regions.is_empty());
}

#[test]
fn corrupt_truncated_and_foreign_payloads_are_errors() {
    let bytes = encode(&sample());
    let e = decode(&bytes[..bytes.len() - 10], "t.bin")
        .unwrap_err()
        .to_string();
    assert!(e.contains("truncated payload"), "{e}");
    let mut flipped = bytes.clone();
    let last = flipped.len() - 100;
    flipped[last] ^= 0x40;
    let e = decode(&flipped, "t.bin").unwrap_err().to_string();
    assert!(e.contains("checksum mismatch"), "{e}");
    let e = decode(b"PNG\x89 not a payload at all", "t.bin")
        .unwrap_err()
        .to_string();
    assert!(e.contains("wrong magic"), "{e}");
    let mut other_version = bytes.clone();
    other_version[8] = 99;
    assert!(
        decode(&other_version, "t.bin")
            .unwrap_err()
            .to_string()
            .contains("format version 99")
    );
    assert!(
        decode(&[], "t.bin")
            .unwrap_err()
            .to_string()
            .contains("truncated")
    );
}

/// The metadata and the per-sample bytes of an encoded payload.
fn split(bytes: &[u8]) -> (Value, Vec<u8>) {
    let gen_len = u16::from_le_bytes([bytes[12], bytes[13]]) as usize;
    let body = &bytes[14 + gen_len + 16..];
    let meta_len = u32::from_le_bytes(body[..4].try_into().unwrap()) as usize;
    let meta = serde_json::from_slice(&body[4..4 + meta_len]).unwrap();
    (meta, body[4 + meta_len..].to_vec())
}

/// A payload with a valid checksum around `meta` (raw text) and `samples`.
fn forge_raw(meta: &str, samples: &[u8]) -> Vec<u8> {
    forge_raw_as(PAYLOAD_VERSION, meta, samples)
}

fn forge_as(version: u32, meta: &Value, samples: &[u8]) -> Vec<u8> {
    forge_raw_as(version, &meta.to_string(), samples)
}

/// [`forge_raw`] for a payload of `version`.
fn forge_raw_as(version: u32, meta: &str, samples: &[u8]) -> Vec<u8> {
    let mut body = (meta.len() as u32).to_le_bytes().to_vec();
    body.extend_from_slice(meta.as_bytes());
    body.extend_from_slice(samples);
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    let generator = crate::GENERATOR_VERSION.as_bytes();
    out.extend_from_slice(&(generator.len() as u16).to_le_bytes());
    out.extend_from_slice(generator);
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(version, &body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn forge(meta: &Value, samples: &[u8]) -> Vec<u8> {
    forge_raw(&meta.to_string(), samples)
}

fn error(bytes: &[u8]) -> String {
    decode(bytes, "t.terrain.bin").unwrap_err().to_string()
}

/// An edit of a payload's metadata and the error decoding it gives.
type Edit = Box<dyn Fn(&mut Value)>;

/// The error of the payload of `meta` changed by `edit` around `samples`.
fn edited(meta: &Value, samples: &[u8], edit: &dyn Fn(&mut Value)) -> String {
    let mut m = meta.clone();
    edit(&mut m);
    error(&forge(&m, samples))
}

/// Offsets into the per-sample bytes of `sample()` (41 × 31 samples, 40 × 30 cells).
const N: usize = 41 * 31;
const HEIGHTS: usize = 0;
const HOLES: usize = N * 4;
const SURFACE: usize = HOLES + (40 * 30usize).div_ceil(8) + N * 2;
const EXCLUSION: usize = SURFACE + N * 4;

fn put_f32(samples: &mut [u8], at: usize, v: f32) {
    samples[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn absurd_or_non_finite_values_with_a_valid_checksum_are_refused() {
    let (meta, samples) = split(&encode(&sample()));
    assert!(
        decode(&forge(&meta, &samples), "t").is_ok(),
        "the forge is faithful"
    );
    // Issue 11: heights of ~1e20 loaded and `get_normal` then panicked.
    let mut s = samples.clone();
    put_f32(&mut s, HEIGHTS + 4 * 7, 1e20);
    let e = error(&forge(&meta, &s));
    assert!(
        e.contains("corrupt surface: heights[7]: height must be within ±10000000"),
        "{e}"
    );
    let mut s = samples.clone();
    put_f32(&mut s, HEIGHTS, f32::NAN);
    assert!(error(&forge(&meta, &s)).contains("heights[0]: height must be finite"));
    // NaN water surfaces and exclusion weights outside 0–1.
    let mut s = samples.clone();
    put_f32(&mut s, SURFACE + 4 * 5, f32::NAN);
    let e = error(&forge(&meta, &s));
    assert!(
        e.contains("t.terrain.bin: water_surface[5]: must be finite"),
        "{e}"
    );
    for bad in [f32::NAN, 1.5, -0.25, f32::INFINITY] {
        let mut s = samples.clone();
        put_f32(&mut s, EXCLUSION + 4 * 9, bad);
        let e = error(&forge(&meta, &s));
        assert!(
            e.contains("t.terrain.bin: exclusion[9]: must be 0..=1"),
            "{bad}: {e}"
        );
    }
    // A chunk that is all holes.
    let mut s = samples.clone();
    for z in 0..16 {
        for x in 0..16 {
            let i = z * 40 + x;
            s[HOLES + i / 8] |= 1 << (i % 8);
        }
    }
    let e = error(&forge(&meta, &s));
    assert!(e.contains("chunk (0, 0) is all holes"), "{e}");
}

#[test]
fn missing_or_mistyped_metadata_is_a_located_error_not_a_default() {
    let (meta, samples) = split(&encode(&sample()));
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("cells");
            }),
            "meta.cells: is missing",
        ),
        (
            Box::new(|m| m["cells"][0] = json!("40")),
            "meta.cells[0]: must be a whole number 1..=8192",
        ),
        (
            Box::new(|m| m["cells"][1] = json!(4294967336u64)),
            "meta.cells[1]: must be a whole number 1..=8192",
        ),
        (
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("chunk_cells");
            }),
            "meta.chunk_cells: is missing",
        ),
        (
            Box::new(|m| m["chunk_cells"] = json!(0)),
            "meta.chunk_cells: must be a whole number 2..=1024",
        ),
        (
            Box::new(|m| m["size"] = json!([0, 30])),
            "meta.size[0]: must be",
        ),
        (
            Box::new(|m| m["size"] = json!([1e-40, 30])),
            "meta.size: a degenerate grid",
        ),
        (
            Box::new(|m| m["size"] = json!([1e30, 30])),
            "meta.size.x: corrupt grid",
        ),
        (
            Box::new(|m| {
                m["water"][0].as_object_mut().unwrap().remove("wet_samples");
            }),
            "meta.water[0].wet_samples: is missing",
        ),
        (
            Box::new(|m| m["water"][0]["wet_samples"] = json!(1_000_000)),
            "meta.water[0].wet_samples: must be a whole number 0..=1271",
        ),
        (
            Box::new(|m| m["water"][0]["level"] = Value::Null),
            "meta.water[0].level: must be a number, got null",
        ),
        (
            Box::new(|m| m["water"][0]["level"] = json!(1e30)),
            "meta.water[0].level: must be",
        ),
        (
            Box::new(|m| m["water"][0]["kind"] = json!("swamp")),
            "meta.water[0].kind: must be \"lake\", \"ocean\" or \"river\"",
        ),
        (
            Box::new(|m| m["water"][0]["appearance"]["roughness"] = json!(7)),
            "meta.water[0].appearance.roughness: must be 0..=1",
        ),
        (
            Box::new(|m| m["water"][0]["appearance"]["deep_color"] = json!([1, 2, 3])),
            "meta.water[0].appearance.deep_color: must hold 4 numbers",
        ),
        (
            Box::new(|m| m["exclusions"] = json!({})),
            "meta.exclusions.mask: must be true or false",
        ),
        (
            Box::new(|m| m["regions"] = json!([3])),
            "meta.regions[0]: must be a string",
        ),
        (
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("default_biome");
            }),
            "meta.default_biome: is missing",
        ),
        (
            Box::new(|m| m["biome_color"] = json!([0, 0, 0, 9])),
            "meta.biome_color[3]: must be 0..=1",
        ),
        (Box::new(|m| *m = json!([])), "meta: must be an object"),
    ];
    for (edit, needle) in cases {
        let e = edited(&meta, &samples, &*edit);
        assert!(e.contains(needle), "expected `{needle}` in `{e}`");
        assert!(e.contains("t.terrain.bin"), "{e}");
    }
    // A repeated key in the metadata.
    let text = meta.to_string().replacen("{", "{\"cells\":[1,1],", 1);
    let e = error(&forge_raw(&text, &samples));
    assert!(e.contains("duplicate key \"cells\""), "{e}");
}
