use super::*;

fn parse(text: &str) -> Result<Document> {
    Document::parse(text, "t.json")
}

fn errors(text: &str) -> Vec<String> {
    match parse(text) {
        Ok(_) => panic!("expected errors for {text}"),
        Err(e) => e.diagnostics().iter().map(ToString::to_string).collect(),
    }
}

fn has(errs: &[String], needle: &str) -> bool {
    errs.iter().any(|e| e.contains(needle))
}

#[test]
fn the_seed_landform_example_parses() {
    let text = r#"{
        "format_version": 1,
        "default_landform": "mountains",
        "landforms": {
            "mountains": {
                "profile": "ridged", "height_variation": 450, "feature_size": 650,
                "roughness": 0.35, "octaves": 4, "warp_amplitude": 100,
                "warp_feature_size": 500, "stretch": 2, "heading": 30
            }
        }
    }"#;
    let doc = parse(text).unwrap();
    let shape = doc.recipe().landform("mountains").unwrap();
    assert_eq!(shape.profile, crate::noise::Profile::Ridged);
    assert_eq!(
        (shape.octaves, shape.stretch, shape.heading),
        (4, 2.0, 30.0)
    );
}

#[test]
fn canonical_json_is_byte_stable_and_omits_defaults() {
    let text = r#"{"id": "asset://terrain/a", "format_version": 1, "recipe": {
        "size": [512, 256.5], "resolution": [128, 64], "seed": 7,
        "landforms": {"hills": {"height_variation": 30, "feature_size": 200, "roughness": 0.5,
                                "octaves": 5, "base_height": 0, "warp_amplitude": 0, "stretch": 1}},
        "default_landform": "hills",
        "biomes": {"grass": {"color": [0.2, 0.6, 0.2, 1], "texture_scale": 1, "allow_snow": true}},
        "default_biome": "grass"}}"#;
    let doc = parse(text).unwrap();
    let once = doc.to_canonical_json();
    let twice = parse(&once).unwrap().to_canonical_json();
    assert_eq!(once, twice);
    assert!(
        !once.contains("warp_amplitude"),
        "defaults are omitted:\n{once}"
    );
    assert!(
        !once.contains("stretch")
            && !once.contains("texture_scale")
            && !once.contains("allow_snow")
    );
    assert!(
        once.contains("\"size\": [\n      512,\n      256.5\n    ]"),
        "{once}"
    );
    // Keys are sorted: format_version < id < recipe.
    let f = once.find("format_version").unwrap();
    let i = once.find("\"id\"").unwrap();
    assert!(f < i);
}

/// `v` with every integer written as a float, as Godot's `JSON.stringify` writes what
/// `JSON.parse_string` read (`7` comes back as `7.0`).
fn floats_only(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) => n.as_f64().map_or(v.clone(), Value::from),
        Value::Array(a) => Value::Array(a.iter().map(floats_only).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, x)| (k.clone(), floats_only(x))).collect())
        }
        other => other.clone(),
    }
}

#[test]
fn whole_numbers_written_as_floats_read_as_the_integers() {
    // A recipe round-tripped through GDScript's JSON has `"seed": 7.0`, `"octaves": 6.0`,
    // `"format_version": 1.0` (in the graph too); it reads exactly as the original. Every
    // example in docs/examples is checked.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let floated = serde_json::to_string(&floats_only(&value)).unwrap();
        assert!(floated.contains(".0"), "{}", path.display());
        let a = parse(&text).unwrap();
        let b = parse(&floated).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Water nodes keep their params as authored (`2.0` stays `2.0`), so both canonical
        // forms are compared with every number as a float.
        let canonical =
            |d: &Document| floats_only(&serde_json::from_str(&d.to_canonical_json()).unwrap());
        assert_eq!(canonical(&a), canonical(&b), "{}", path.display());
        assert!(
            !b.to_canonical_json().contains("\"format_version\": 1.0"),
            "whole numbers read from floats are written as integers"
        );
        checked += 1;
    }
    assert!(checked >= 6, "{checked} examples");
    // A fraction, a float past 2^53 (it may have been rounded from another integer) and an
    // out-of-range whole float are still refused, with the value in the message.
    for (field, text, msg) in [
        ("seed", r#"{"seed": 7.5}"#, "seed: must be a whole number"),
        (
            "seed",
            r#"{"seed": 1.8446744073709552e19}"#,
            "seed: must be a whole number 0..=18446744073709551615, got 1.8446744073709552e+19 \
             (a float this large may already have been rounded",
        ),
        (
            "chunk_cells",
            r#"{"chunk_cells": 1.0e9}"#,
            "chunk_cells: must be",
        ),
        (
            "format_version",
            r#"{"format_version": 1.5}"#,
            "format_version: must be a whole number",
        ),
    ] {
        assert!(has(&errors(text), msg), "{field}: {:?}", errors(text));
    }
    // A small whole float outside the range is refused for its range, not as a rounded float.
    let negative = errors(r#"{"seed": -3.0}"#);
    assert!(
        has(&negative, "seed: must be a whole number"),
        "{negative:?}"
    );
    assert!(!has(&negative, "rounded"), "{negative:?}");
}

#[test]
fn unknown_fields_and_wrong_types_are_located() {
    let errs = errors(r#"{"size": [100, 100], "resolutoin": [4, 4], "seed": "x"}"#);
    assert!(has(&errs, "t.json: resolutoin: unknown field"), "{errs:?}");
    assert!(
        has(&errs, "t.json: seed: must be a whole number"),
        "{errs:?}"
    );
}

#[test]
fn out_of_range_values_and_sizes_over_the_limit() {
    let errs = errors(r#"{"size": [0, 1e9], "resolution": [100000, 2.5], "chunk_cells": 1}"#);
    assert!(has(&errs, "size[0]: x size must be > 0"), "{errs:?}");
    assert!(
        has(&errs, "size[1]: z size must be > 0 and ≤ 65536"),
        "{errs:?}"
    );
    assert!(
        has(
            &errs,
            "resolution[0]: cells must be a whole number 1..=8192 (the documented limit)"
        ),
        "{errs:?}"
    );
    assert!(has(&errs, "resolution[1]"), "{errs:?}");
    assert!(
        has(&errs, "chunk_cells: must be 2..=1024, got 1"),
        "{errs:?}"
    );
    let errs = errors(
        r#"{"landforms": {"a": {"roughness": 2, "octaves": 40, "feature_size": -1}}, "default_landform": "a"}"#,
    );
    assert!(
        has(&errs, "landforms[\"a\"].roughness: must be 0..=1, got 2"),
        "{errs:?}"
    );
    assert!(
        has(&errs, "landforms[\"a\"].octaves: must be 1..=16, got 40"),
        "{errs:?}"
    );
    assert!(
        has(&errs, "landforms[\"a\"].feature_size: must be > 0"),
        "{errs:?}"
    );
}

#[test]
fn non_finite_numbers_are_rejected() {
    // JSON has no NaN or infinity literals; an overflowing number is a located parse error.
    let errs = errors(r#"{"size": [1e999, 10]}"#);
    assert!(has(&errs, "t.json:1:"), "{errs:?}");
    let errs = errors(r#"{"landforms": {"a": {"heading": "NaN"}}, "default_landform": "a"}"#);
    assert!(has(&errs, "heading: must be a number"), "{errs:?}");
}

#[test]
fn landform_keys_inside_a_biome_are_rejected_with_advice() {
    let errs = errors(
        r#"{"biomes": {"snow": {"color": [1,1,1,1], "base_height": 30}}, "default_biome": "snow"}"#,
    );
    assert!(
        has(
            &errs,
            "biomes[\"snow\"].base_height: `base_height` shapes the ground and belongs to a landform, not a biome; move it to an entry of `landforms`"
        ),
        "{errs:?}"
    );
}

#[test]
fn references_must_exist() {
    let errs = errors(r#"{"biomes": {"rock": {"landform": "cliffs"}}, "default_biome": "sand"}"#);
    assert!(
        has(
            &errs,
            "biomes[\"rock\"].landform: names landform `cliffs`, which the recipe does not define"
        ),
        "{errs:?}"
    );
    assert!(has(&errs, "default_biome: names biome `sand`"), "{errs:?}");
    let errs = errors(r#"{"landforms": {"a": {}}, "default_landform": "b"}"#);
    assert!(
        has(
            &errs,
            "default_landform: names `b`, which `landforms` does not define; defined: a"
        ),
        "{errs:?}"
    );
    let errs = errors(r#"{"rules": [{"biome": "nope", "slope": [10, 5]}]}"#);
    assert!(has(&errs, "rules[0].biome: names biome `nope`"), "{errs:?}");
    assert!(
        has(&errs, "rules[0].slope: minimum 10 is above maximum 5"),
        "{errs:?}"
    );
}

#[test]
fn half_stamped_presets_are_rejected() {
    let errs = errors(r#"{"preset_version": 3}"#);
    assert!(
        has(
            &errs,
            "preset_id: is missing: preset_id and preset_version are always recorded together"
        ),
        "{errs:?}"
    );
    let errs = errors(r#"{"preset_id": "builtin://terrain/basin"}"#);
    assert!(has(&errs, "preset_version: is missing"), "{errs:?}");
    let ok = parse(r#"{"preset_id": "builtin://terrain/basin", "preset_version": 3}"#).unwrap();
    assert!(ok.to_canonical_json().contains("\"preset_version\": 3"));
}

#[test]
fn all_errors_are_reported_not_just_the_first() {
    let errs = errors(
        r#"{"size": [-1, 10], "seed": -4, "chunk_cells": 5000, "bogus": 1,
        "biomes": {"b": {"color": [2, 0, 0, 1], "octaves": 3}}, "default_biome": "b"}"#,
    );
    assert!(errs.len() >= 5, "{errs:?}");
}

#[test]
fn asset_documents_need_a_stable_id() {
    let errs = errors(r#"{"format_version": 1, "id": "landscape", "recipe": {}}"#);
    assert!(
        has(
            &errs,
            "t.json: id: must be a stable asset id like \"asset://terrain/name\""
        ),
        "{errs:?}"
    );
    let doc = parse(r#"{"format_version": 1, "id": "asset://terrain/x", "recipe": {}}"#).unwrap();
    assert!(matches!(doc, Document::Asset(_)));
}

#[test]
fn strokes_layers_and_palette_round_trip_with_shape_checks() {
    let text = r#"{"biomes": {"grass": {}, "sand": {}}, "default_biome": "grass",
        "layers": [{"id": "generation", "name": "Generation", "kind": "generation"},
                   {"id": "sculpt", "name": "Sculpt", "kind": "sculpt", "enabled": false},
                   {"id": "paint", "name": "Paint", "kind": "biomes"}],
        "edits": [{"type": "flatten", "target_height": 12, "radius": 8, "points": [[24, 32], [25.6, 32]]}],
        "regions": [{"type": "region", "biome": "sand", "radius": 5, "center": [10, 10], "layer": "paint"}],
        "exclusions": [{"type": "exclude", "radius": 3, "center": [1, 2]}],
        "rules": [{"id": "beach", "biome": "sand", "priority": 30, "blend": 1.5, "elevation": [0, 6], "substrate": ["sand", "wet"]}],
        "palette": {"format_version": 3, "name": "Beach", "placements": {
            "palm": {"prefab": "res://palm.tscn", "density": 0.01, "spacing": 6, "biomes": ["sand"]}}}}"#;
    let doc = parse(text).unwrap();
    let once = doc.to_canonical_json();
    assert_eq!(parse(&once).unwrap().to_canonical_json(), once);
    assert!(
        once.contains("target_height")
            && once.contains("\"enabled\": false")
            && once.contains("beach")
            && once.contains("res://palm.tscn")
    );
    let errs = errors(
        r#"{"edits": [{"type": "flatten", "radius": -1, "center": [0, 0], "points": [[1, 1]]}],
        "layers": [{"id": "a", "kind": "sculpt"}]}"#,
    );
    assert!(
        has(&errs, "edits[0]: needs exactly one of `points`"),
        "{errs:?}"
    );
    assert!(has(&errs, "edits[0].radius: must be > 0"), "{errs:?}");
    assert!(
        has(&errs, "edits[0].target_height: is required for flatten"),
        "{errs:?}"
    );
    assert!(
        has(
            &errs,
            "layers: needs exactly one layer of kind \"generation\""
        ),
        "{errs:?}"
    );
}

#[test]
fn unsupported_sampling_domains_get_a_diagnostic() {
    let errs = errors(
        r#"{"size": [60000, 60000], "landforms": {"fine": {"feature_size": 0.5, "octaves": 16}}, "default_landform": "fine"}"#,
    );
    assert!(
        has(
            &errs,
            "landforms[\"fine\"]: sampling domain: feature_size 0.5 with 16 octaves"
        ),
        "{errs:?}"
    );
}
