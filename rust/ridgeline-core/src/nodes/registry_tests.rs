//! The registry is complete and consistent, and the docs cannot drift from it.

use super::*;
use crate::doc::params::{Initial, ParamType};
use serde_json::json;
use std::collections::HashSet;

#[test]
fn registry_lists_every_type_once_with_documented_params() {
    assert_eq!(REGISTRY.len(), 20);
    let mut ids = HashSet::new();
    for s in REGISTRY {
        assert!(ids.insert(s.id), "duplicate type id {}", s.id);
        assert!(!s.title.is_empty() && !s.description.is_empty() && !s.icon.is_empty());
        let mut names = HashSet::new();
        for p in s.param_specs() {
            assert!(names.insert(p.name), "{}: duplicate param {}", s.id, p.name);
            assert!(!p.doc.is_empty(), "{}.{} has no doc line", s.id, p.name);
            if let ParamType::PointList { max, .. } = p.ty {
                assert!(
                    max > 0 && max <= 65_536,
                    "{}.{}: bounded point list",
                    s.id,
                    p.name
                );
            }
            if let ParamType::Records(fields) = p.ty {
                assert!(fields.iter().all(|f| !f.doc.is_empty()));
            }
        }
        // Every type parses with its defaults and saves nothing for them.
        let mut d = Diagnostics::default();
        let node = parse_node(s.id, &json!({}), "n.params", &mut d).expect("parses");
        let required: Vec<_> = s
            .param_specs()
            .filter(|p| p.required)
            .map(|p| format!("n.params.{}", p.name))
            .collect();
        if s.id == "water_body" {
        } else if required.is_empty() {
            assert!(d.is_empty(), "{}: {d:?}", s.id);
        } else {
            // Only the required parameters are missing.
            assert!(
                d.0.iter()
                    .all(|x| required.contains(&x.path) && x.message == "is required"),
                "{}: {d:?}",
                s.id
            );
        }
        let canonical = node.params();
        let always: Vec<_> = s
            .param_specs()
            .filter(|p| p.always)
            .map(|p| p.name)
            .collect();
        assert!(
            canonical.keys().all(|k| always.contains(&k.as_str())),
            "{}: defaults are omitted, got {canonical:?}",
            s.id
        );
    }
}

#[test]
fn unknown_type_message_lists_all_eighteen_types() {
    let mut d = Diagnostics::default();
    assert!(parse_node("bogus", &json!({}), "graph.nodes[\"x\"].params", &mut d).is_none());
    let msg = d.0[0].to_string();
    assert!(
        msg.starts_with("graph.nodes[\"x\"].type: unknown node type `bogus`"),
        "{msg}"
    );
    for s in REGISTRY {
        assert!(msg.contains(s.id), "{} missing from: {msg}", s.id);
    }
    for hydro in [
        "drainage",
        "erosion",
        "water_body",
        "basin_water",
        "river_route",
        "water_edit",
    ] {
        assert!(msg.contains(hydro));
    }
}

/// Parameter `name` of catalogue entry `entry`.
fn catalog_param<'a>(entry: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    entry["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap()
}

#[test]
fn catalog_carries_pins_defaults_ranges_and_docs() {
    let c = catalog();
    let arr = c.as_array().unwrap();
    assert_eq!(arr.len(), 20);
    let erosion = arr.iter().find(|n| n["id"] == "erosion").unwrap();
    assert_eq!(erosion["category"], "simulation");
    assert_eq!(
        erosion["inputs"][0],
        json!({"name": "field", "kind": "heightfield", "required": true})
    );
    let it = catalog_param(erosion, "iterations");
    assert_eq!(it["type"], "integer");
    assert_eq!(it["default"], 100_000);
    assert_eq!(it["range"], json!({"min": 0, "max": 20_000_000}));
    assert!(!it["doc"].as_str().unwrap().is_empty());
    let noise = arr.iter().find(|n| n["id"] == "noise_terrain").unwrap();
    let profile = &noise["params"][0];
    assert_eq!(profile["type"], "enum");
    assert_eq!(profile["choices"], json!(["fbm", "ridged"]));
}

#[test]
fn applies_when_names_a_choice_parameter_of_the_same_node() {
    // Every `applies_when` names an enum parameter of its own node and only values it offers
    // (a typo would hide the row for good).
    let mut seen = 0;
    for s in REGISTRY {
        let specs: Vec<_> = s.param_specs().collect();
        for p in &specs {
            let Some((param, values)) = p.applies_when else {
                continue;
            };
            seen += 1;
            let ctl = specs.iter().find(|c| c.name == param);
            let Some(ParamType::Enum(choices)) = ctl.map(|c| c.ty) else {
                panic!(
                    "{}.{}: applies_when names `{param}`, not a choice",
                    s.id, p.name
                );
            };
            for v in values {
                assert!(
                    choices.contains(v),
                    "{}.{}: `{v}` is not a {param}",
                    s.id,
                    p.name
                );
            }
        }
    }
    assert!(seen >= 10, "{seen}");
    // The catalogue carries it for the editor.
    let water = catalog()
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "water_body")
        .cloned()
        .unwrap();
    assert_eq!(
        catalog_param(&water, "river_width")["applies_when"],
        json!({"param": "kind", "values": ["river"]})
    );
}

#[test]
fn range_messages_come_from_the_spec() {
    let mut d = Diagnostics::default();
    parse_node(
        "erosion",
        &json!({"iterations": -3}),
        "graph.nodes[\"erode\"].params",
        &mut d,
    );
    assert_eq!(
        d.0[0].to_string(),
        "graph.nodes[\"erode\"].params.iterations: must be 0..=20000000, got -3"
    );
}

#[test]
fn water_values_carry_no_field() {
    let grid = crate::grid::Grid::new([8.0, 8.0], [8, 8], 8).unwrap();
    let water = PinValue::Water(Arc::new(crate::hydrology::water::WaterSet::empty(grid)));
    let err = water.field().unwrap_err().to_string();
    assert!(err.contains("water value carries no field"), "{err}");
    let f = PinValue::Mask(Arc::new(Field::filled(2, 2, 0.5)));
    assert_eq!(f.field().unwrap().as_slice(), &[0.5; 4]);
}

#[test]
fn every_default_is_written_once() {
    // Defaults live in the specs: the algorithms' own defaults (erosion, water appearance,
    // landform shape) feed them, so the two can never disagree.
    let e = crate::hydrology::erosion::ErosionParams::default();
    let spec = spec("erosion").unwrap();
    let it = spec.param_specs().find(|p| p.name == "iterations").unwrap();
    assert_eq!(it.default, Initial::Integer(e.iterations as i64));
    assert_eq!(
        crate::landform::default_shape().height_variation,
        40.0,
        "landform defaults come from SHAPE_PARAMS"
    );
}

const BEGIN: &str = "<!-- generated from the node registry: ";
const END: &str = "<!-- end of generated table -->";

/// `docs/nodes.md` holds, after each node's heading, the table the registry generates. Set
/// `RIDGELINE_BLESS_DOCS=1` to rewrite the tables after changing a spec.
#[test]
fn docs_tables_match_the_registry() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/nodes.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    let mut rest = text.as_str();
    // Drop every generated block, remembering where it was.
    while let Some(i) = rest.find(BEGIN) {
        out.push_str(&rest[..i]);
        let j = rest[i..]
            .find(END)
            .map(|j| i + j + END.len() + 1)
            .unwrap_or(rest.len());
        rest = &rest[j.min(rest.len())..];
    }
    out.push_str(rest);
    // Insert fresh blocks at the end of each node's section.
    let mut lines: Vec<String> = out.lines().map(str::to_string).collect();
    let mut blessed = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k].clone();
        let id = REGISTRY
            .iter()
            .find(|s| line.starts_with("### ") && line.ends_with(&format!("(`{}`)", s.id)));
        blessed.push(line);
        k += 1;
        if let Some(s) = id {
            while k < lines.len() && !lines[k].starts_with('#') {
                blessed.push(lines[k].clone());
                k += 1;
            }
            while blessed.last().is_some_and(|l| l.is_empty()) {
                blessed.pop();
            }
            blessed.push(String::new());
            blessed.push(format!("{BEGIN}{} -->", s.id));
            blessed.extend(s.docs_table().lines().map(str::to_string));
            blessed.push(END.to_string());
            blessed.push(String::new());
        }
    }
    lines.clear();
    let expected = blessed.join("\n") + "\n";
    for s in REGISTRY {
        assert!(
            expected.contains(&format!("{BEGIN}{} -->", s.id)),
            "docs/nodes.md has no `### … (`{}`)` section",
            s.id
        );
    }
    if std::env::var_os("RIDGELINE_BLESS_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    } else {
        assert!(
            text == expected,
            "docs/nodes.md parameter tables differ from the registry; run `RIDGELINE_BLESS_DOCS=1 cargo test -p ridgeline-core --release docs_tables` and review the diff"
        );
    }
}
