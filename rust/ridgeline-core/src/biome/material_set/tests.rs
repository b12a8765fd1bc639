use super::*;
use crate::biome::testkit::{biomes, classifier, terrain};
use crate::biome::{Classifier, SurfaceInput};
use std::sync::atomic::AtomicBool;

const SEED_DOC: &str = r#"{
  "format_version": 1,
  "name": "Landscape surfaces",
  "roles": {
    "ground": "asset://materials/soil",
    "rock": "asset://materials/rock",
    "underwater": "asset://materials/riverbed"
  }
}"#;

#[test]
fn the_documented_example_parses_and_reports_unbound_roles() {
    let (set, warnings) = MaterialSet::parse(SEED_DOC, "meadow.material_set.json").unwrap();
    assert_eq!(set.name.as_deref(), Some("Landscape surfaces"));
    assert_eq!(set.binding(Role::Rock), Some("asset://materials/rock"));
    assert_eq!(set.binding(Role::Snow), None);
    assert_eq!(set.missing_roles().len(), 6);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].path, "meadow.material_set.json.roles");
    assert!(
        warnings[0]
            .message
            .contains("grass, cliff, sediment, sand, snow, wet_ground"),
        "{}",
        warnings[0].message
    );
    // Canonical JSON round-trips.
    let again = MaterialSet::from_value(&set.to_value(), "x").unwrap().0;
    assert_eq!(again, set);
    // All nine bound: no warning.
    let mut full = MaterialSet::new(None);
    for r in Role::ALL {
        full.bind(r, format!("res://{}.tres", r.name()));
    }
    let (back, w) = MaterialSet::from_value(&full.to_value(), "m").unwrap();
    assert!(w.is_empty());
    assert_eq!(back, full);
}

#[test]
fn bad_documents_give_located_errors() {
    let e = MaterialSet::parse("{", "m.json").unwrap_err();
    assert!(
        e.to_string().starts_with("m.json: is not valid JSON"),
        "{e}"
    );
    let e = MaterialSet::parse(
        r#"{"format_version": 2, "name": 3, "roles": {"rockk": "a", "snow": "", "sand": 4}, "extra": 1}"#,
        "m",
    )
    .unwrap_err();
    let paths: Vec<_> = e.diagnostics().iter().map(|d| d.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "m.extra",
            "m.format_version",
            "m.name",
            "m.roles.rockk",
            "m.roles.sand",
            "m.roles.snow"
        ]
    );
    assert!(
        e.to_string()
            .contains("unknown role `rockk`; roles are ground, grass")
    );
    let e = MaterialSet::parse(r#"{"roles": []}"#, "m").unwrap_err();
    let paths: Vec<_> = e.diagnostics().iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["m.format_version", "m.roles"]);
    assert!(MaterialSet::parse("[]", "m").is_err());
}

#[test]
fn biome_override_wins_then_role_binding_then_tint() {
    let (set, _) = MaterialSet::parse(SEED_DOC, "m").unwrap();
    let mut b = biomes();
    b[2].material = Some("res://rock_override.tres".into());
    assert_eq!(
        resolve(&b[2], Role::Ground, Some(&set)),
        MaterialSource::Override("res://rock_override.tres")
    );
    assert_eq!(
        resolve(&b[0], Role::Rock, Some(&set)),
        MaterialSource::Role("asset://materials/rock")
    );
    assert_eq!(resolve(&b[0], Role::Snow, Some(&set)), MaterialSource::Tint);
    assert_eq!(resolve(&b[0], Role::Rock, None), MaterialSource::Tint);
    let t = MaterialTable::build(&b, Some(&set));
    assert_eq!(
        t.materials,
        [
            "asset://materials/soil",
            "asset://materials/rock",
            "asset://materials/riverbed",
            "res://rock_override.tres"
        ]
    );
    assert_eq!(t.material(0, Role::Ground), Some(0));
    assert_eq!(t.material(0, Role::Snow), None);
    assert_eq!(t.material(2, Role::Snow), Some(3));
    assert_eq!(t.material(99, Role::Snow), None);
}

#[test]
fn missing_bindings_on_a_terrain_are_counted_and_reported() {
    let (g, heights) = terrain(32, 4);
    let (set, _) = MaterialSet::parse(SEED_DOC, "m").unwrap();
    let c: Classifier = classifier(&[], f32::INFINITY);
    let input = SurfaceInput::new(g, &heights, 0.0);
    let cls = c.classify(&input, &AtomicBool::new(false)).unwrap();
    let t = MaterialTable::build(c.biomes(), Some(&set));
    let ids = t.sample_materials(&cls);
    let missing = t.missing(&cls);
    let tinted = ids.iter().filter(|&&k| k == 0).count();
    assert_eq!(tinted, missing.iter().map(|m| m.samples).sum::<usize>());
    assert!(
        !missing.is_empty(),
        "the fixture has cliffs, which the set does not bind"
    );
    for (i, &k) in ids.iter().enumerate() {
        let role = cls.roles()[i];
        let want = set.binding(role);
        assert_eq!(k == 0, want.is_none());
        if let Some(m) = want {
            assert_eq!(t.materials[k as usize - 1], m);
        }
    }
    let report = t.report(c.biomes(), &cls);
    assert_eq!(report.len(), missing.len());
    assert!(report[0].path.starts_with("material_set.roles."));
    assert!(
        report[0].message.contains("biome `meadow`"),
        "{}",
        report[0].message
    );
}
