//! Cook → load keeps the scatter source (palette rule references, foliage types, seed,
//! painted density, protection) and the placements; older formats load without one; a
//! corrupt or truncated section is a located error.

use super::super::payload::{MAGIC, decode, encode, encode_as};
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::pipeline::{PreparedTerrain, finish, prepare, prepare_base};
use crate::recipe::Document;
use crate::scatter::filter::Environment;
use crate::scatter::foliage_place::{FoliageEnv, place_chunk};
use crate::scatter::palette::Collision;
use serde_json::{Value, json};
use std::sync::atomic::AtomicBool;

const RECIPE: &str = r#"{"format_version": 1, "seed": 9, "size": [64, 64], "resolution": [32, 32],
    "palette": {"format_version": 3, "name": "Forest",
      "placements": {
        "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.05, "spacing": 4},
        "pebble": {"model": "res://pebble.tres", "category": "rock", "density": 0.05,
                   "collision": "none"}},
      "foliage": {
        "grass": {"model": "res://grass.tres", "density": 2, "cast_shadows": true},
        "flowers": {"prefab": "res://flowers.tscn", "density": 0.5}}},
    "foliage_paint": [{"type": "foliage_density", "foliage": "grass", "density": 0,
                       "center": [20, 20], "radius": 8, "falloff": 0.5}]}"#;

/// The fixture cooked with a `protect` stroke (applied in a session: it snapshots heights).
fn cooked() -> PreparedTerrain {
    let r = Document::parse(RECIPE, "t").unwrap().recipe().clone();
    let never = AtomicBool::new(false);
    let g = &mut GraphCache::default();
    let base = prepare_base(&r, Quality::Final, g, &|_, _| {}, &never).unwrap();
    let mut session = finish(&r, base, None).unwrap().1.unwrap();
    let protect = json!({"type": "protect", "radius": 6, "center": [40, 40], "falloff": 0.5});
    session.apply_stroke(&protect).unwrap();
    let r = session.recipe().clone();
    without_sites(prepare(&r, Quality::Final, g, &|_, _| {}, &never, None).unwrap())
}

/// `p` without its base sites (the last section of the body, tested on its own), so the
/// section tests can count bytes from the end.
fn without_sites(mut p: PreparedTerrain) -> PreparedTerrain {
    std::sync::Arc::make_mut(&mut p.scatter_source).base_placements = None;
    p
}

/// The grass instances of the whole terrain as foliage placement sees `p`'s source.
fn grass(p: &PreparedTerrain) -> Vec<[u32; 3]> {
    let s = &p.scatter_source;
    let t = s.palette.as_ref().unwrap().foliage_type("grass").unwrap();
    let mut env = Environment::open(*p.field.grid(), p.field.heights());
    env.blocked.push(&s.protection);
    let fe = FoliageEnv {
        env,
        roles: Some(&p.surface.classes),
        density: s.foliage_density.get("grass"),
        channel: None,
        water: None,
    };
    place_chunk(t, s.seed, &fe, [0.0, 0.0, 64.0, 64.0])
        .iter()
        .map(|i| i.position.map(f32::to_bits))
        .collect()
}

#[test]
fn cook_then_load_keeps_rule_references_foliage_types_density_and_placements() {
    let p = cooked();
    let s = &p.scatter_source;
    assert!(
        !p.scatter.placements.is_empty(),
        "the fixture places nothing"
    );
    assert!(s.foliage_density.get("grass").unwrap().contains(&0.0));
    assert!(s.protection.contains(&1.0));
    let bytes = encode(&p);
    let q = decode(&bytes, "t.terrain.bin").unwrap();
    assert_eq!(*q.scatter_source, **s);
    assert_eq!(q.scatter.placements, p.scatter.placements);
    assert_eq!(q.scatter.rules, p.scatter.rules);
    let palette = q.scatter_source.palette.as_ref().unwrap();
    let pine = palette.rule("pine").unwrap();
    assert_eq!(
        (pine.geometry.kind(), pine.geometry.reference()),
        ("prefab", "res://pine.tscn")
    );
    assert_eq!(pine.collision, Collision::Static);
    assert_eq!(palette.rule("pebble").unwrap().collision, Collision::None);
    let ids: Vec<&str> = palette.foliage.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["flowers", "grass"]);
    assert!(palette.foliage_type("grass").unwrap().cast_shadows);
    assert_eq!(q.scatter_source.seed, crate::seed::sub_seed(9, "scatter"));
    // Foliage placed from the loaded terrain is the cooked terrain's, instance for instance.
    let g = grass(&p);
    assert!(g.len() > 1000);
    assert_eq!(grass(&q), g);
    assert_eq!(encode(&q), bytes, "re-encoding gives the same bytes");
}

/// The metadata and the bytes after it of an encoded payload.
fn split(bytes: &[u8]) -> (Value, Vec<u8>) {
    let gen_len = u16::from_le_bytes([bytes[12], bytes[13]]) as usize;
    let body = &bytes[14 + gen_len + 16..];
    let meta_len = u32::from_le_bytes(body[..4].try_into().unwrap()) as usize;
    let meta = serde_json::from_slice(&body[4..4 + meta_len]).unwrap();
    (meta, body[4 + meta_len..].to_vec())
}

/// A payload of `version` with a valid checksum around `meta` and `rest`.
fn forge(version: u32, meta: &Value, rest: &[u8]) -> Vec<u8> {
    let meta = meta.to_string();
    let mut body = (meta.len() as u32).to_le_bytes().to_vec();
    body.extend_from_slice(meta.as_bytes());
    body.extend_from_slice(rest);
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    let generator = crate::GENERATOR_VERSION.as_bytes();
    out.extend_from_slice(&(generator.len() as u16).to_le_bytes());
    out.extend_from_slice(generator);
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&crate::formats::payload::checksum(version, &body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn error(bytes: &[u8]) -> String {
    decode(bytes, "t.terrain.bin").unwrap_err().to_string()
}

#[test]
fn older_formats_load_without_a_source() {
    let p = cooked();
    // Older versions are forged from version 6's layout.
    let (mut meta, rest) = split(&encode_as(&p, 6));
    let n = p.field.grid().sample_count();
    // A format-4 payload: placements, but no palette, foliage or their arrays.
    let obj = meta.as_object_mut().unwrap();
    obj.remove("palette");
    obj.remove("foliage");
    let arrays = (p.scatter_source.foliage_density.types().count() + 1) * n * 4;
    let v4 = forge(4, &meta, &rest[..rest.len() - arrays]);
    let q = decode(&v4, "t.bin").unwrap();
    assert!(q.scatter_source.palette.is_none() && q.scatter_source.is_empty());
    assert_eq!(q.scatter.placements, p.scatter.placements);
    // Version 2 stays refused, with advice.
    let e = error(&forge(2, &meta, &rest));
    assert!(e.contains("version 2 is not supported") && e.contains("cook the terrain again"));
}

#[test]
fn a_corrupt_or_truncated_scatter_source_is_a_located_error() {
    let p = cooked();
    let (meta, rest) = split(&encode_as(&p, 6));
    let n = p.field.grid().sample_count();
    assert!(
        decode(&forge(5, &meta, &rest), "t").is_ok(),
        "the forge is faithful"
    );
    // Truncated: the protection mask is cut short (checksum and body length still valid).
    let e = error(&forge(5, &meta, &rest[..rest.len() - 6]));
    assert!(
        e.contains("t.terrain.bin") && e.contains("truncated payload: the foliage density maps"),
        "{e}"
    );
    // A density value outside 0–1 (grass is the second map: flowers is not painted).
    assert_eq!(p.scatter_source.foliage_density.types().count(), 1);
    let mut bad = rest.clone();
    let at = rest.len() - 2 * n * 4 + 4 * 17;
    bad[at..at + 4].copy_from_slice(&7.5f32.to_le_bytes());
    let e = error(&forge(5, &meta, &bad));
    assert!(
        e.contains("t.terrain.bin: foliage_density[\"grass\"][17]: must be 0..=1, got 7.5"),
        "{e}"
    );
    let mut bad = rest.clone();
    let at = rest.len() - 4;
    bad[at..].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = error(&forge(5, &meta, &bad));
    assert!(
        e.contains(&format!("protection[{}]: must be 0..=1", n - 1)),
        "{e}"
    );
    // Metadata no cook writes.
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("palette");
            }),
            "t.terrain.bin: meta.palette: is missing",
        ),
        (
            Box::new(|m| m["palette"]["placements"]["pine"]["density"] = json!("dense")),
            "t.terrain.bin: meta.palette.placements[\"pine\"].density",
        ),
        (
            Box::new(|m| m["foliage"]["seed"] = json!(-1)),
            "t.terrain.bin: meta.foliage.seed: must be a whole number",
        ),
        (
            Box::new(|m| m["foliage"]["density"] = json!(["moss"])),
            "t.terrain.bin: meta.foliage.density[0]: names foliage type `moss`",
        ),
        (
            Box::new(|m| m["foliage"]["protection"] = json!(1)),
            "t.terrain.bin: meta.foliage.protection: must be true or false",
        ),
        (
            Box::new(|m| {
                m["palette"]["placements"]
                    .as_object_mut()
                    .unwrap()
                    .remove("pebble");
            }),
            "names rule `pebble`, which the payload's palette does not define",
        ),
        (
            Box::new(|m| m["palette"] = Value::Null),
            "meta.foliage.density[0]: names foliage type `grass`",
        ),
    ];
    for (edit, needle) in cases {
        let mut m = meta.clone();
        edit(&mut m);
        let e = error(&forge(5, &m, &rest));
        assert!(e.contains(needle), "expected `{needle}` in `{e}`");
        assert!(e.contains("cook the terrain again"), "{e}");
    }
}

/// The fixture cooked with user channel and surface paint strokes.
fn cooked_painted() -> PreparedTerrain {
    let r = Document::parse(RECIPE, "t").unwrap().recipe().clone();
    let never = AtomicBool::new(false);
    let g = &mut GraphCache::default();
    let base = prepare_base(&r, Quality::Final, g, &|_, _| {}, &never).unwrap();
    let mut session = finish(&r, base, None).unwrap().1.unwrap();
    for stroke in [
        json!({"type": "user_channel", "channel": 1, "value": 0.6, "radius": 9, "center": [20, 30]}),
        json!({"type": "user_channel", "channel": 2, "value": 7, "mode": "id", "radius": 5,
               "center": [44, 12]}),
        json!({"type": "paint_surface", "surface": "sand", "mode": "blend", "strength": 0.7,
               "radius": 8, "center": [32, 32]}),
    ] {
        session.apply_stroke(&stroke).unwrap();
    }
    let r = session.recipe().clone();
    without_sites(prepare(&r, Quality::Final, g, &|_, _| {}, &never, None).unwrap())
}

#[test]
fn cook_then_load_keeps_the_painted_layers() {
    let p = cooked_painted();
    let s = &p.scatter_source;
    let n = p.field.grid().sample_count();
    assert_eq!(s.paint.user_bytes().len(), n * 4, "user channels painted");
    assert!(!s.paint.weight_bytes().is_empty(), "surface painted");
    assert_eq!(
        s.classified.len(),
        n,
        "classified roles kept under the paint"
    );
    let bytes = encode(&p);
    let (meta, _) = split(&bytes);
    assert_eq!(meta["paint"], json!({"user": true, "weights": true}));
    let q = decode(&bytes, "t.terrain.bin").unwrap();
    assert_eq!(q.scatter_source.paint, s.paint);
    assert_eq!(q.scatter_source.classified, s.classified);
    assert_eq!(encode(&q), bytes, "re-encoding gives the same bytes");
    // Unpainted terrains announce nothing.
    assert!(split(&encode(&cooked())).0.get("paint").is_none());
}

#[test]
fn a_corrupt_paint_section_is_a_located_error() {
    let p = cooked_painted();
    let (meta, rest) = split(&encode_as(&p, 6));
    let n = p.field.grid().sample_count();
    assert!(decode(&forge(5, &meta, &rest), "t").is_ok());
    // The last section is the classified roles, after the weights (10 bytes per sample).
    let mut bad = rest.clone();
    let last = bad.len() - 1;
    bad[last] = 9;
    let e = error(&forge(5, &meta, &bad));
    assert!(
        e.contains(&format!(
            "paint.classified[{}]: role 9 does not exist",
            n - 1
        )),
        "{e}"
    );
    let mut bad = rest.clone();
    let at = rest.len() - n - 10 * n + 10 * 5;
    bad[at] = bad[at].wrapping_add(1);
    let e = error(&forge(5, &meta, &bad));
    assert!(
        e.contains("the surface weights of sample 5 do not sum to 255"),
        "{e}"
    );
    let e = error(&forge(5, &meta, &rest[..rest.len() - 3]));
    assert!(e.contains("truncated payload: the painted layers"), "{e}");
    let mut m = meta.clone();
    m["paint"]["user"] = json!(1);
    let e = error(&forge(5, &m, &rest));
    assert!(
        e.contains("t.terrain.bin: meta.paint.user: must be true or false"),
        "{e}"
    );
}

#[test]
fn cook_then_load_keeps_the_base_sites_and_refuses_corrupt_ones() {
    // Pines only where the climate suits them: the sites hold more than the placements.
    let text = RECIPE.replace(
        r#""spacing": 4}"#,
        r#""spacing": 4, "moisture": [0.4, 0.6]}"#,
    );
    let r = Document::parse(&text, "t").unwrap().recipe().clone();
    let never = AtomicBool::new(false);
    let g = &mut GraphCache::default();
    let p = prepare(&r, Quality::Final, g, &|_, _| {}, &never, None).unwrap();
    let sites = p.scatter_source.base_placements.clone().unwrap();
    assert!(
        sites.placements.len() > p.scatter.placements.len(),
        "sites hold more"
    );
    let bytes = encode(&p);
    let (meta, rest) = split(&encode_as(&p, 6));
    assert_eq!(
        meta["scatter_base"],
        json!({"count": sites.placements.len()})
    );
    let q = decode(&bytes, "t.terrain.bin").unwrap();
    let loaded = q.scatter_source.base_placements.clone().unwrap();
    assert_eq!(loaded.placements, sites.placements);
    assert_eq!(loaded.rules, sites.rules);
    assert_eq!(encode(&q), bytes, "re-encoding gives the same bytes");
    // The last site's rule index is corrupt.
    let mut bad = rest.clone();
    let at = rest.len() - 30;
    bad[at..at + 2].copy_from_slice(&9u16.to_le_bytes());
    let e = error(&forge(5, &meta, &bad));
    let k = sites.placements.len() - 1;
    assert!(
        e.contains(&format!("scatter[{k}]: rule 9 does not exist")),
        "{e}"
    );
    let e = error(&forge(5, &meta, &rest[..rest.len() - 30]));
    assert!(
        e.contains("truncated payload: the scatter base sites"),
        "{e}"
    );
    let mut m = meta.clone();
    m["scatter_base"] = json!({"count": "many"});
    let e = error(&forge(5, &m, &rest));
    assert!(
        e.contains("t.terrain.bin: meta.scatter_base: must be"),
        "{e}"
    );
}
