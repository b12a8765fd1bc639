//! `ridgeline scatter export|import`: a terrain's placements as seed-002 scatter sets, and
//! sets back to placements.
//!
//! - `export <recipe> --out sets.json`: generates the recipe (Final, strokes replayed) and
//!   writes its placements as a JSON array of sets (a `foliage` set for rules without
//!   collision, a `props` set for the others).
//! - `import <sets.json> --out placements.json`: reads one set or an array of sets and writes
//!   `{"palettes": [...], "placements": [...]}`: per set a format-3 palette describing its
//!   items (density 0, the instances are authored) and every instance as
//!   `{key, rule, position, yaw, scale}` (identity `:set:rule:index:0`).

use crate::files::{load_placed, write_atomic};
use ridgeline_core::formats::scatter_set::{ScatterSet, export};
use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// `scatter export`.
pub fn run_export(input: &Path, out: &Path) -> Result<(), String> {
    let recipe = load_placed(input)?;
    let Some(palette) = &recipe.palette else {
        return Err(format!(
            "{}: palette: the recipe has no palette, so it scatters nothing",
            input.display()
        ));
    };
    eprintln!("generating {}", input.display());
    let prepared = ridgeline_core::pipeline::prepare(
        &recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
        Some(ridgeline_core::formats::file_mask_loader(
            input.parent().map(Path::to_path_buf).unwrap_or_default(),
        )),
    )
    .map_err(|e| e.to_string())?;
    let sets = export(&prepared.scatter, palette).map_err(|e| e.to_string())?;
    let doc = Value::Array(sets.iter().map(ScatterSet::to_json).collect());
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    write_atomic(out, text.as_bytes())?;
    for s in &sets {
        eprintln!(
            "{} set \"{}\": {} items, {} instances",
            s.kind.name(),
            s.name,
            s.items.len(),
            s.instances.len()
        );
    }
    println!("{}", out.display());
    Ok(())
}

/// `scatter import`.
pub fn run_import(input: &Path, out: &Path) -> Result<(), String> {
    let name = input.display().to_string();
    let text = fsio::read_text_bounded(input, FileKind::Document).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{name}: invalid JSON: {e}"))?;
    let list: Vec<(String, &Value)> = match &v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("{name}[{i}]"), s))
            .collect(),
        other => vec![(name.clone(), other)],
    };
    let mut palettes = Vec::new();
    let mut placements = Vec::new();
    for (path, sv) in list {
        let set = ScatterSet::parse(sv, &path).map_err(|e| e.to_string())?;
        let s = set.to_scatter();
        palettes.push(set.to_palette());
        for p in &s.placements {
            placements.push(json!({
                "key": s.key("", p), "rule": s.rules[p.rule as usize],
                "position": p.position, "yaw": p.yaw, "scale": p.scale,
            }));
        }
        eprintln!(
            "{path}: {} items, {} instances",
            set.items.len(),
            s.placements.len()
        );
    }
    let doc = json!({"palettes": palettes, "placements": placements});
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    write_atomic(out, text.as_bytes())?;
    println!("{}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_then_import_round_trips_a_recipe_s_placements() {
        let dir = tempfile::tempdir().unwrap();
        let recipe = dir.path().join("t.terrain.json");
        std::fs::write(
            &recipe,
            r#"{"format_version": 1, "seed": 4, "size": [64, 64], "resolution": [32, 32],
            "palette": {"format_version": 3, "name": "Woods", "placements": {
              "fern": {"model": "res://fern.mesh", "collision": "none", "density": 0.2, "candidate_spacing": 1},
              "oak": {"prefab": "res://oak.tscn", "density": 0.02, "spacing": 6}}}}"#,
        )
        .unwrap();
        let sets = dir.path().join("sets.json");
        run_export(&recipe, &sets).unwrap();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&sets).unwrap()).unwrap();
        assert_eq!(v[0]["kind"], "foliage");
        assert_eq!(v[1]["kind"], "props");
        assert_eq!(v[1]["items"][0]["source"], "res://oak.tscn");
        let n = v[0]["instances"].as_array().unwrap().len()
            + v[1]["instances"].as_array().unwrap().len();
        assert!(n > 100, "{n}");
        let back = dir.path().join("placements.json");
        run_import(&sets, &back).unwrap();
        let p: Value = serde_json::from_str(&std::fs::read_to_string(&back).unwrap()).unwrap();
        assert_eq!(p["placements"].as_array().unwrap().len(), n);
        assert_eq!(
            p["palettes"][1]["placements"]["oak"]["prefab"],
            "res://oak.tscn"
        );
        std::fs::write(&sets, r#"{"name": "x", "items": []], "#).unwrap();
        assert!(
            run_import(&sets, &back)
                .unwrap_err()
                .contains("invalid JSON")
        );
        std::fs::write(&sets, r#"{"name": "x", "kind": "bushes", "items": []}"#).unwrap();
        let e = run_import(&sets, &back).unwrap_err();
        assert!(
            e.contains("sets.json.kind: must be \"props\" or \"foliage\""),
            "{e}"
        );
    }
}
