//! An edit session made from a cooked surface (no recipe: its grid and biome only) given the
//! payload's scatter source refilters placements and paints foliage exactly like a session of
//! the recipe the payload was cooked from, and undo restores the same placements.

use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::{Document, Recipe};
use serde_json::json;
use std::sync::atomic::AtomicBool;

const RECIPE: &str = r#"{"format_version": 1, "seed": 9, "size": [96, 96], "resolution": [48, 48],
    "palette": {"format_version": 3, "name": "Forest", "placements": {
      "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.05, "spacing": 4},
      "rock": {"prefab": "res://rock.tscn", "category": "rock", "density": 0.05, "spacing": 3,
               "slope": [0, 25]}},
      "foliage": {"grass": {"model": "res://g.tres", "density": 2}}}}"#;

fn finished() -> (Recipe, PreparedTerrain) {
    let r = Document::parse(RECIPE, "t").unwrap().recipe().clone();
    let never = AtomicBool::new(false);
    let base = prepare_base(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap();
    let p = finish(&r, base, None).unwrap().0;
    (r, p)
}

/// A session over `p` the way `Terrain3D` makes one (from `recipe`, strokes cleared).
fn session(recipe: Recipe, p: &PreparedTerrain, cooked: bool) -> EditSession {
    let mut s = EditSession::new(recipe, p.field.clone(), None).unwrap();
    if cooked {
        s.set_scatter_source(&p.scatter_source);
    }
    s.classify_surface(p, p.field.height_range(), cooked)
        .unwrap();
    s.attach_scatter(p.scatter.clone(), p.scatter.clone());
    s
}

fn cooked_recipe(p: &PreparedTerrain) -> Recipe {
    let text = json!({"size": [96, 96], "resolution": [48, 48], "default_biome": p.default_biome,
                      "biomes": {p.default_biome.clone(): {}}})
    .to_string();
    Document::parse(&text, "cooked").unwrap().recipe().clone()
}

#[test]
fn a_cooked_session_with_the_scatter_source_refilters_like_the_recipe() {
    let (r, p) = finished();
    assert!(p.scatter.placements.len() > 50, "placements to refilter");
    let mut uncooked = session(r, &p, false);
    let mut cooked = session(cooked_recipe(&p), &p, true);
    assert_eq!(cooked.scatter_seed(), p.scatter_source.seed);
    assert_eq!(cooked.scatter_seed(), uncooked.scatter_seed());
    let raise =
        json!({"type": "raise", "radius": 12, "center": [48, 48], "strength": 1, "amount": 6});
    for s in [&mut uncooked, &mut cooked] {
        s.apply_stroke(&raise).unwrap();
    }
    let edited = cooked.scatter().unwrap().clone();
    assert_eq!(
        *edited,
        **uncooked.scatter().unwrap(),
        "cooked refilter differs"
    );
    assert_ne!(*edited, *p.scatter, "the stroke changed nothing");
    // Retained placements stand on the new ground.
    for q in &edited.placements {
        let h = cooked.field().height_at(q.position[0], q.position[2]);
        assert!(
            (q.position[1] - h.unwrap()).abs() < 1e-3,
            "{q:?} off the ground"
        );
    }
    // Foliage paint is accepted (the payload's foliage types) and matches the recipe's.
    let paint = json!({"type": "foliage_density", "foliage": "grass", "center": [20, 20],
                       "radius": 8, "density": 0});
    for s in [&mut uncooked, &mut cooked] {
        s.apply_stroke(&paint).unwrap();
    }
    assert_eq!(cooked.foliage_maps(), uncooked.foliage_maps());
    assert!(cooked.undo().is_some());
    assert!(cooked.undo().is_some());
    assert_eq!(
        **cooked.scatter().unwrap(),
        *p.scatter,
        "undo restores the placements"
    );
}

#[test]
fn without_the_scatter_source_a_cooked_session_refuses_foliage_and_keeps_placements() {
    let (_, p) = finished();
    let mut s = EditSession::new(cooked_recipe(&p), p.field.clone(), None).unwrap();
    s.classify_surface(&p, p.field.height_range(), true)
        .unwrap();
    s.attach_scatter(p.scatter.clone(), p.scatter.clone());
    let paint = json!({"type": "foliage_density", "foliage": "grass", "center": [20, 20],
                       "radius": 8, "density": 0});
    assert!(s.apply_stroke(&paint).is_err());
    // A source without a palette changes nothing.
    s.set_scatter_source(&ScatterSource::default());
    assert!(s.recipe().palette.is_none());
    let raise =
        json!({"type": "raise", "radius": 12, "center": [48, 48], "strength": 1, "amount": 6});
    s.apply_stroke(&raise).unwrap();
    assert_eq!(
        **s.scatter().unwrap(),
        *p.scatter,
        "not refiltered without a palette"
    );
}

/// A recipe with two biomes (`alpine` above `line`, else the default `meadow`) and a palette
/// whose rules filter by biome and moisture.
fn two_biomes(line: f32) -> Recipe {
    let text = json!({"format_version": 1, "seed": 21, "size": [96, 96], "resolution": [48, 48],
        "default_biome": "meadow", "biomes": {"meadow": {}, "alpine": {"color": [0.8, 0.8, 0.9, 1]}},
        "rules": [{"id": "high", "biome": "alpine", "priority": 10, "elevation": [line, 10000]}],
        "palette": {"format_version": 3, "name": "Hills", "placements": {
            "pine": {"prefab": "res://pine.tscn", "category": "tree", "density": 0.08,
                     "spacing": 3, "biomes": ["meadow"], "moisture": [0.3, 0.7]},
            "rock": {"prefab": "res://rock.tscn", "category": "rock", "density": 0.08,
                     "spacing": 3, "biomes": ["alpine"]}}}})
    .to_string();
    Document::parse(&text, "t").unwrap().recipe().clone()
}

fn prepared(r: &Recipe) -> PreparedTerrain {
    let never = AtomicBool::new(false);
    let mut cache = GraphCache::default();
    let base = prepare_base(r, Quality::Final, &mut cache, &|_, _| {}, &never).unwrap();
    finish(r, base, None).unwrap().0
}

/// The two-biome recipe with its snow-free line just above the centre's ground, prepared,
/// and its payload decoded (what `Terrain3D` runs from).
fn cooked_two_biomes() -> (Recipe, PreparedTerrain, PreparedTerrain) {
    let probe = prepared(&two_biomes(1e4));
    let h = probe.field.height_at(48.0, 48.0).unwrap();
    let r = two_biomes(h + 2.0);
    let p = prepared(&r);
    let bytes = crate::formats::payload::encode(&p);
    let cooked = crate::formats::payload::decode(&bytes, "t.terrain.bin").unwrap();
    (r, p, cooked)
}

fn moisture(s: &EditSession, x: usize, z: usize) -> f32 {
    let st = s.surface_state().unwrap();
    let input = st.surface_input(s.field());
    st.classifier()
        .context_at(&input, st.classification(), x, z)
        .moisture
}

#[test]
fn a_cooked_session_re_resolves_biomes_and_moisture_like_the_recipe() {
    let (r, p, cooked_p) = cooked_two_biomes();
    let rules = cooked_p.scatter_source.biome_rules.as_ref().unwrap();
    assert_eq!(rules.rules, r.rules, "the payload carries the rules");
    assert_eq!(p.surface.biomes.len(), 2);
    let mut uncooked = session(r, &p, false);
    let mut cooked = session(cooked_recipe_of(&cooked_p), &cooked_p, true);
    assert_eq!(
        cooked.surface().unwrap().classes.biome_vec(),
        p.surface.classes.biome_vec(),
        "reclassifying the cooked terrain by its rules gives the cooked ids"
    );
    let raise =
        json!({"type": "raise", "radius": 14, "center": [48, 48], "strength": 1, "amount": 8});
    for s in [&mut uncooked, &mut cooked] {
        s.apply_stroke(&raise).unwrap();
    }
    let ids = &cooked.surface().unwrap().classes.biome_vec();
    assert_eq!(*ids, uncooked.surface().unwrap().classes.biome_vec());
    assert_ne!(
        *ids,
        p.surface.classes.biome_vec(),
        "the stroke moved no biome"
    );
    for (x, z) in [(24, 24), (10, 40), (40, 8), (47, 47)] {
        assert_eq!(moisture(&cooked, x, z), moisture(&uncooked, x, z));
    }
    // Placements (the payload keeps no filter statistics): the same identities, bit for bit.
    let placed = |s: &EditSession| s.scatter().unwrap().placements.clone();
    assert!(
        placed(&cooked) == placed(&uncooked),
        "cooked refilter differs: {} vs {} placements",
        placed(&cooked).len(),
        placed(&uncooked).len()
    );
    assert!(
        placed(&cooked) != p.scatter.placements,
        "nothing refiltered"
    );
    assert!(cooked.undo().is_some());
    assert_eq!(
        cooked.surface().unwrap().classes.biome_vec(),
        p.surface.classes.biome_vec()
    );
}

/// [`cooked_recipe`] with the decoded payload's biome table, as `Terrain3D` builds it.
fn cooked_recipe_of(p: &PreparedTerrain) -> Recipe {
    let mut biomes = serde_json::Map::new();
    for b in &p.surface.biomes {
        biomes.insert(b.name.clone(), json!({"color": b.color}));
    }
    let text = json!({"size": [96, 96], "resolution": [48, 48], "default_biome": p.default_biome,
                      "biomes": biomes})
    .to_string();
    Document::parse(&text, "cooked").unwrap().recipe().clone()
}

/// `bytes` (an encoded payload) with its metadata rewritten by `edit` and a valid checksum.
fn with_meta(bytes: &[u8], edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let head = 14 + u16::from_le_bytes([bytes[12], bytes[13]]) as usize;
    let body = &bytes[head + 16..];
    let len = u32::from_le_bytes(body[..4].try_into().unwrap()) as usize;
    let mut meta: serde_json::Value = serde_json::from_slice(&body[4..4 + len]).unwrap();
    edit(&mut meta);
    let meta = meta.to_string();
    let mut new = (meta.len() as u32).to_le_bytes().to_vec();
    new.extend_from_slice(meta.as_bytes());
    new.extend_from_slice(&body[4 + len..]);
    let mut out = bytes[..head].to_vec();
    out.extend_from_slice(&(new.len() as u64).to_le_bytes());
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    out.extend_from_slice(&crate::formats::payload::checksum(version, &new).to_le_bytes());
    out.extend_from_slice(&new);
    out
}

#[test]
fn a_payload_without_biome_rules_keeps_its_biomes_and_a_corrupt_one_is_located() {
    let (_, p, _) = cooked_two_biomes();
    let bytes = crate::formats::payload::encode(&p);
    let old = with_meta(&bytes, |m| {
        m.as_object_mut().unwrap().remove("biome_rules");
    });
    let old = crate::formats::payload::decode(&old, "t.terrain.bin").unwrap();
    assert!(old.scatter_source.biome_rules.is_none());
    let mut s = session(cooked_recipe_of(&old), &old, true);
    let raise =
        json!({"type": "raise", "radius": 14, "center": [48, 48], "strength": 1, "amount": 8});
    s.apply_stroke(&raise).unwrap();
    assert_eq!(
        s.surface().unwrap().classes.biome_vec(),
        p.surface.classes.biome_vec(),
        "an older payload keeps its cooked biome ids"
    );
    let cases: [(&str, serde_json::Value, &str); 5] = [
        ("climate_seed", json!(-1), "meta.biome_rules.climate_seed"),
        ("sea_level", json!("low"), "meta.biome_rules.sea_level"),
        (
            "rules",
            json!([{"biome": "tundra"}]),
            "meta.biome_rules.rules[0].biome",
        ),
        ("rules", json!("x"), "meta.biome_rules.rules"),
        (
            "layers",
            json!([{"id": ""}]),
            "meta.biome_rules.layers[0].id",
        ),
    ];
    for (key, value, at) in cases {
        let bad = with_meta(&bytes, |m| m["biome_rules"][key] = value.clone());
        let e = crate::formats::payload::decode(&bad, "t.terrain.bin")
            .unwrap_err()
            .to_string();
        assert!(e.contains(&format!("t.terrain.bin: {at}")), "{key}: {e}");
        assert!(e.contains("cook the terrain again"), "{e}");
    }
}

#[test]
fn a_cooked_session_reads_the_recipes_sea_level() {
    // The default landform's base height is the sea; the snow line derives from it.
    let text = json!({"format_version": 1, "seed": 4, "size": [96, 96], "resolution": [48, 48],
        "landforms": {"hills": {"base_height": 3, "height_variation": 8, "feature_size": 40,
                                "octaves": 3}},
        "default_landform": "hills"})
    .to_string();
    let r = Document::parse(&text, "t").unwrap().recipe().clone();
    let p = prepared(&r);
    let bytes = crate::formats::payload::encode(&p);
    let cooked_p = crate::formats::payload::decode(&bytes, "t.terrain.bin").unwrap();
    let rules = cooked_p.scatter_source.biome_rules.as_ref().unwrap();
    assert_eq!(
        rules.sea_level,
        Some(3.0),
        "the payload carries the sea level"
    );
    let mut uncooked = session(r.clone(), &p, false);
    let mut cooked = session(cooked_recipe_of(&cooked_p), &cooked_p, true);
    assert_eq!(cooked.recipe().sea_level(), r.sea_level());
    // Raise a peak into the snow: every reclassified sample must agree.
    let raise =
        json!({"type": "raise", "radius": 30, "center": [48, 48], "strength": 1, "amount": 12});
    for s in [&mut uncooked, &mut cooked] {
        s.apply_stroke(&raise).unwrap();
    }
    let snow = crate::biome::Role::Snow as u8;
    assert!(
        uncooked
            .surface()
            .unwrap()
            .classes
            .role_vec()
            .contains(&snow),
        "snow on the peak"
    );
    let roles = |s: &EditSession| s.surface().unwrap().classes.role_vec();
    assert_eq!(roles(&cooked), roles(&uncooked));
    assert_ne!(
        roles(&cooked),
        p.surface.classes.role_vec(),
        "the stroke moved no role"
    );
}

#[test]
fn a_cooked_session_paints_over_the_payloads_painted_layers() {
    let r = two_biomes(1e4);
    let mut s = session(r, &prepared(&two_biomes(1e4)), false);
    for stroke in [
        json!({"type": "user_channel", "channel": 0, "value": 0.5, "radius": 10, "center": [30, 30]}),
        json!({"type": "paint_surface", "surface": "sand", "mode": "dither", "strength": 0.8,
               "radius": 9, "center": [60, 40]}),
    ] {
        s.apply_stroke(&stroke).unwrap();
    }
    let r = s.recipe().clone();
    let p = prepared(&r);
    let cooked_p =
        crate::formats::payload::decode(&crate::formats::payload::encode(&p), "t.terrain.bin")
            .unwrap();
    let mut uncooked = session(r, &p, false);
    let mut cooked = session(cooked_recipe_of(&cooked_p), &cooked_p, true);
    cooked
        .set_base_paint(&cooked_p.scatter_source.paint)
        .unwrap();
    assert_eq!(cooked.paint(), uncooked.paint(), "the payload's paint");
    let roles = |s: &EditSession| s.surface().unwrap().classes.role_vec();
    assert_eq!(
        roles(&cooked),
        roles(&uncooked),
        "painted sand in the roles"
    );
    let base = cooked.paint().clone();
    let over = json!({"type": "user_channel", "channel": 0, "value": 1, "radius": 6,
                      "center": [34, 30]});
    for s in [&mut cooked, &mut uncooked] {
        s.apply_stroke(&over).unwrap();
    }
    assert_eq!(cooked.paint(), uncooked.paint(), "painting over it");
    assert_ne!(*cooked.paint(), base);
    assert!(cooked.undo().is_some());
    assert_eq!(
        *cooked.paint(),
        base,
        "undo comes back to the payload's paint"
    );
    let wrong = crate::edit::paint::PaintLayers::new(3);
    assert!(cooked.set_base_paint(&wrong).is_err());
}

#[test]
fn a_cooked_session_grows_placements_from_the_stored_sites() {
    let (r, p, cooked_p) = cooked_two_biomes();
    let sites = p.scatter_source.base_placements.clone().unwrap();
    assert!(sites.placements.len() > p.scatter.placements.len());
    let loaded = cooked_p.scatter_source.base_placements.clone().unwrap();
    assert_eq!(
        loaded.placements, sites.placements,
        "the payload keeps the sites"
    );
    let with_sites = |recipe: Recipe, q: &PreparedTerrain, cooked: bool| {
        let mut s = session(recipe, q, cooked);
        let base = q.scatter_source.base_placements.clone().unwrap();
        s.attach_scatter(base, q.scatter.clone());
        s
    };
    let mut uncooked = with_sites(r, &p, false);
    let mut cooked = with_sites(cooked_recipe_of(&cooked_p), &cooked_p, true);
    let rocks = |s: &EditSession| {
        let sc = s.scatter().unwrap();
        let rock = sc.rules.iter().position(|id| id == "rock").unwrap() as u16;
        sc.placements.iter().filter(|q| q.rule == rock).count()
    };
    let before = rocks(&cooked);
    let raise =
        json!({"type": "raise", "radius": 14, "center": [48, 48], "strength": 1, "amount": 8});
    for s in [&mut uncooked, &mut cooked] {
        s.apply_stroke(&raise).unwrap();
    }
    assert!(
        rocks(&cooked) > before,
        "alpine rocks grow on the raised ground"
    );
    let placed = |s: &EditSession| s.scatter().unwrap().placements.clone();
    assert!(
        placed(&cooked) == placed(&uncooked),
        "the recipe's placements"
    );
    assert!(cooked.undo().is_some());
    assert_eq!(rocks(&cooked), before);
}

/// `bytes` (an encoded payload) with its body rewritten by `edit` and a valid checksum.
fn with_body(bytes: &[u8], edit: impl Fn(&mut Vec<u8>)) -> Vec<u8> {
    let head = 14 + u16::from_le_bytes([bytes[12], bytes[13]]) as usize;
    let mut body = bytes[head + 16..].to_vec();
    edit(&mut body);
    let mut out = bytes[..head].to_vec();
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    out.extend_from_slice(&crate::formats::payload::checksum(version, &body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

#[test]
fn a_cooked_session_paints_water_over_the_payloads_painted_water() {
    let r = two_biomes(1e4);
    let mut s = session(r, &prepared(&two_biomes(1e4)), false);
    let level = s.field().height_at(40.0, 40.0).unwrap() + 0.5;
    s.apply_stroke(
        &json!({"type": "paint_water", "center": [40, 40], "radius": 12,
                           "depth": 2, "level": level}),
    )
    .unwrap();
    let r = s.recipe().clone();
    // The recipe's own session (generated base, strokes replayed), as `Terrain3D` edits it.
    let never = AtomicBool::new(false);
    let base = prepare_base(
        &r,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &never,
    )
    .unwrap();
    let (p, uncooked) = finish(&r, base, None).unwrap();
    let mut uncooked = uncooked.unwrap();
    assert!(!p.water.painted.is_empty(), "the recipe paints water");
    let bytes = crate::formats::payload::encode(&p);
    let cooked_p = crate::formats::payload::decode(&bytes, "t.terrain.bin").unwrap();
    assert_eq!(
        cooked_p.water.painted, p.water.painted,
        "the payload keeps it"
    );
    assert_eq!(cooked_p.field.heights(), p.field.heights(), "over the beds");
    let mut cooked = session(cooked_recipe_of(&cooked_p), &cooked_p, true);
    cooked.set_base_water(&cooked_p.water.painted).unwrap();
    assert_eq!(
        cooked.field().heights(),
        p.field.heights(),
        "set_base_water moves no bed"
    );
    assert_eq!(cooked.water_depths(), uncooked.water_depths());
    let roles = |s: &EditSession| s.surface().unwrap().classes.role_vec();
    assert_eq!(roles(&cooked), roles(&uncooked), "underwater roles kept");
    // A raise across the pond's edge and a deeper level-mode pond over it: the same ground and
    // water as on the recipe (within float rounding of bed + depth − depth).
    for stroke in [
        json!({"type": "raise", "center": [50, 44], "radius": 8, "amount": 1.5}),
        json!({"type": "paint_water", "center": [36, 40], "radius": 7, "depth": 3,
               "level": level + 0.25}),
    ] {
        for s in [&mut cooked, &mut uncooked] {
            s.apply_stroke(&stroke).unwrap();
        }
    }
    let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4);
    assert!(
        close(cooked.field().heights(), uncooked.field().heights()),
        "the beds after the strokes"
    );
    assert!(
        close(&cooked.water_depths(), &uncooked.water_depths()),
        "the water"
    );
    assert_ne!(cooked.field().heights(), p.field.heights());
    assert!(cooked.undo().is_some() && cooked.undo().is_some());
    assert!(
        close(cooked.field().heights(), p.field.heights()),
        "undo comes back to the payload's beds"
    );
    assert!(close(&cooked.water_depths(), &p.water.painted), "and water");
    // Bad depths: refused, located.
    assert!(cooked.set_base_water(&[1.0; 3]).is_err());
    let mut nan = p.water.painted.clone();
    nan[7] = f32::NAN;
    let e = cooked.set_base_water(&nan).unwrap_err().to_string();
    assert!(e.contains("base water[7]"), "{e}");
    // A corrupt depth in the payload is a located error.
    let section: Vec<u8> = p
        .water
        .painted
        .iter()
        .flat_map(|d| d.to_le_bytes())
        .collect();
    let corrupt = with_body(&bytes, |body| {
        let at = body
            .windows(section.len())
            .position(|w| w == section.as_slice())
            .expect("the section is in the body");
        body[at + 4 * 5..at + 4 * 6].copy_from_slice(&(-1.0f32).to_le_bytes());
    });
    let Err(e) = crate::formats::payload::decode(&corrupt, "t.terrain.bin") else {
        panic!("a corrupt depth is refused");
    };
    let e = e.to_string();
    assert!(e.contains("paint.water[5]"), "{e}");
}
