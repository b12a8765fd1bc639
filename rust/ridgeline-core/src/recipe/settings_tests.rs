use super::*;
use crate::recipe::Document;

fn recipe(text: &str) -> Recipe {
    Document::parse(text, "test").unwrap().recipe().clone()
}

fn key(k: &str) -> Step {
    Step::Key(k.into())
}

const BASE: &str = r#"{"size":[128,128],"resolution":[64,64],"seed":7,
  "biomes":{"meadow":{"color":[0.3,0.6,0.2,1]},"rock":{"color":[0.5,0.5,0.5,1]}},
  "default_biome":"meadow",
  "rules":[{"id":"steep","biome":"rock","slope":[30,90]}],
  "regions":[{"type":"region","biome":"rock","center":[10,10],"radius":5}]}"#;

#[test]
fn every_key_is_present_with_defaults_filled() {
    let s = recipe(r#"{"size":[64,32]}"#).settings();
    for k in KEYS {
        assert!(s.get(k).is_some(), "{k}");
    }
    assert_eq!(s.get("chunk_cells"), Some(&Value::from(64)));
    assert_eq!(s.get("default_biome"), Some(&Value::from("default")));
    assert_eq!(
        s.get("layers").unwrap().as_array().unwrap().len(),
        5,
        "the five default layers"
    );
    let s = recipe(BASE).settings();
    assert_eq!(
        s.at(&[key("biomes"), key("meadow"), key("allow_snow")]),
        Some(&Value::Bool(true))
    );
    assert_eq!(
        s.at(&[key("rules"), Step::Index(0), key("priority")]),
        Some(&Value::from(0))
    );
}

#[test]
fn unchanged_settings_give_back_the_same_recipe() {
    let r = recipe(BASE);
    let again = r.with_settings(&r.settings()).unwrap();
    assert_eq!(again.to_value(), r.to_value());
}

#[test]
fn typed_text_edits_read_as_the_value_already_there() {
    let r = recipe(BASE);
    let mut s = r.settings();
    s.set_text(&[key("seed")], "18446744073709551615").unwrap();
    s.set_text(&[key("size")], "256, 200").unwrap();
    s.set_text(&[key("resolution")], "[128, 100]").unwrap();
    s.set_text(&[key("biomes"), key("rock"), key("allow_snow")], "false")
        .unwrap();
    s.set_text(&[key("rules"), Step::Index(0), key("slope")], "25, 80")
        .unwrap();
    let out = r.with_settings(&s).unwrap();
    assert_eq!(out.seed, u64::MAX);
    assert_eq!(out.size, [256.0, 200.0]);
    assert_eq!(out.resolution, [128, 100]);
    assert!(!out.biomes["rock"].allow_snow);
    assert_eq!(out.regions, r.regions, "strokes are kept");
    for (path, text, why) in [
        (vec![key("seed")], "many", "not a number"),
        (vec![key("size")], "1, 2, 3", "expected 2 numbers"),
        (vec![key("size")], "inf, 2", "finite"),
        (
            vec![key("biomes"), key("rock"), key("allow_snow")],
            "yes",
            "true or false",
        ),
        (vec![key("nope")], "1", "no such setting"),
    ] {
        let e = s.clone().set_text(&path, text).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
        assert!(e.contains(&path_label(&path)), "located: {e}");
    }
}

#[test]
fn invalid_settings_are_refused_located_and_the_recipe_is_unchanged() {
    let r = recipe(BASE);
    let before = r.to_value();
    let mut s = r.settings();
    s.set_text(&[key("resolution")], "0, 64").unwrap();
    let e = r.with_settings(&s).unwrap_err().to_string();
    assert!(e.contains("recipe.resolution"), "{e}");
    // The painted region names `rock`: removing the biome is refused, saying so.
    let mut s = r.settings();
    s.remove(&[key("biomes"), key("rock")]).unwrap();
    let e = r.with_settings(&s).unwrap_err().to_string();
    assert!(e.contains("rock"), "{e}");
    assert_eq!(r.to_value(), before);
}

#[test]
fn renaming_a_biome_follows_into_defaults_and_rules() {
    let r = recipe(
        r#"{"biomes":{"meadow":{"color":[0.3,0.6,0.2,1]},"rock":{"color":[0.5,0.5,0.5,1]}},
        "default_biome":"meadow","rules":[{"biome":"rock","slope":[30,90]}]}"#,
    );
    let mut s = r.settings();
    let p = s.rename(&[key("biomes"), key("rock")], "cliff").unwrap();
    assert_eq!(p, vec![key("biomes"), key("cliff")]);
    s.rename(&[key("biomes"), key("meadow")], "grass").unwrap();
    let out = r.with_settings(&s).unwrap();
    assert_eq!(out.default_biome, "grass");
    assert_eq!(out.rules[0].biome, "cliff");
    assert!(s.rename(&[key("biomes"), key("grass")], "cliff").is_err());
    assert!(s.rename(&[key("biomes"), key("grass")], "a b").is_err());
    assert!(s.rename(&[key("rules"), Step::Index(0)], "x").is_err());
}

#[test]
fn adding_copies_the_last_entry_under_a_fresh_name_or_starts_one() {
    let r = recipe(BASE);
    let mut s = r.settings();
    let p = s.add(&[key("biomes")]).unwrap();
    assert_eq!(p, vec![key("biomes"), key("rock_2")]);
    let p = s.add(&[key("rules")]).unwrap();
    assert_eq!(p, vec![key("rules"), Step::Index(1)]);
    assert_eq!(
        s.at(&[key("rules"), Step::Index(1), key("id")]),
        Some(&Value::from("steep_2"))
    );
    let p = s.add(&[key("landforms")]).unwrap();
    assert_eq!(
        p,
        vec![key("landforms"), key("default")],
        "named as the default"
    );
    let out = r.with_settings(&s).unwrap();
    assert_eq!(out.biomes.len(), 3);
    assert_eq!(out.rules.len(), 2);
    assert!(out.landform("default").is_some());
    // An empty rule list starts with a rule for the default biome.
    let r = recipe(r#"{}"#);
    let mut s = r.settings();
    s.add(&[key("rules")]).unwrap();
    let out = r.with_settings(&s).unwrap();
    assert_eq!(out.rules[0].biome, "default");
    assert!(s.add(&[key("seed")]).is_err());
    assert!(s.remove(&[key("seed")]).is_err());
}

#[test]
fn paths_round_trip_through_json() {
    let p = vec![key("rules"), Step::Index(3), key("slope")];
    assert_eq!(path_from_json(&path_to_json(&p)), Some(p.clone()));
    assert_eq!(path_label(&p), "recipe.rules[3].slope");
    assert_eq!(path_from_json(&serde_json::json!([true])), None);
}

#[test]
fn settings_have_help_text() {
    for k in KEYS {
        assert!(help(&[key(k)]).is_some(), "{k}");
    }
    let h = help(&[key("landforms"), key("hills"), key("feature_size")]).unwrap();
    assert!(h.contains("(m)"), "{h}");
    assert!(help(&[key("rules"), Step::Index(0), key("slope")]).is_some());
    assert!(help(&[key("rules"), Step::Index(0), key("nope")]).is_none());
}

#[test]
fn rebased_settings_keep_edits_made_elsewhere_since() {
    let base = recipe(BASE).settings();
    // The settings panel changed the seed; the dock meanwhile turned a layer off.
    let mut mine = base.clone();
    mine.set(&[key("seed")], Value::from(8)).unwrap();
    let mut current = base.clone();
    let mut layers = base.get("layers").unwrap().clone();
    layers[2]["enabled"] = Value::Bool(false);
    current.set(&[key("layers")], layers).unwrap();
    let merged = mine.rebased(&base, &current);
    assert_eq!(merged.get("seed"), Some(&Value::from(8)));
    assert_eq!(
        merged.at(&[key("layers"), Step::Index(2), key("enabled")]),
        Some(&Value::Bool(false))
    );
    // A key both changed: the panel's edit wins (it is what Apply writes).
    let mut theirs = current.clone();
    theirs.set(&[key("seed")], Value::from(9)).unwrap();
    assert_eq!(
        mine.rebased(&base, &theirs).get("seed"),
        Some(&Value::from(8))
    );
    // Nothing edited: the source as it is now.
    assert_eq!(base.rebased(&base, &current), current);
}
