//! `ridgeline presets <project-dir>`: the built-in landscape presets and the project's own
//! (`*.preset.json` files anywhere in the project, hidden folders skipped), with name,
//! description and a summary of their biomes and rules. Also finds one preset by id for
//! `apply-preset`.

use crate::Format;
use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::recipe::preset::{self, Preset};
use serde_json::Value;
use std::path::Path;

fn read_project_preset(id: &str, path: &Path) -> Result<Preset, String> {
    let text = fsio::read_text_bounded(path, FileKind::Document).map_err(|e| e.to_string())?;
    Preset::parse(&text, &path.display().to_string(), id).map_err(|e| e.to_string())
}

/// Every preset of `project`: built-ins first, then the project's. A project preset that does
/// not parse is reported in the second list (path and error) and left out of the first.
pub fn all(project: &Path) -> Result<(Vec<Preset>, Vec<String>), String> {
    let mut presets = preset::builtins().map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    for (id, path) in ridgeline_core::recipe::preset::project_preset_files(project)? {
        match read_project_preset(&id, &path) {
            Ok(p) => presets.push(p),
            Err(e) => problems.push(e),
        }
    }
    Ok((presets, problems))
}

/// The preset with `id`: `builtin://terrain/<name>` or a project file `res://….preset.json`
/// (resolved inside the project by the referenced-file rule).
pub fn find(project: &Path, id: &str) -> Result<Preset, String> {
    if id.starts_with(preset::BUILTIN_PREFIX) {
        return match preset::builtin(id) {
            Some(p) => p.map_err(|e| e.to_string()),
            None => Err(format!(
                "--preset: no built-in preset `{id}`; built-ins: {}",
                preset::builtins()
                    .map(|b| b
                        .iter()
                        .map(|p| p.id.clone())
                        .collect::<Vec<_>>()
                        .join(", "))
                    .unwrap_or_default()
            )),
        };
    }
    if !id.starts_with("res://") {
        return Err(format!(
            "--preset: `{id}` is neither a built-in (`{}<name>`) nor a project preset (`res://….preset.json`); `ridgeline presets {}` lists them",
            preset::BUILTIN_PREFIX,
            project.display()
        ));
    }
    let root = fsio::project_root(project);
    let path = fsio::resolve_reference(project, &root, id).map_err(|e| format!("--preset: {e}"))?;
    read_project_preset(id, &path)
}

/// `ridgeline presets`: the listing in `format`; problems with project presets go to stderr.
pub fn run(project: &Path, format: Format) -> Result<String, String> {
    let (presets, problems) = all(project)?;
    for p in &problems {
        for line in p.lines() {
            eprintln!("warning: {line}");
        }
    }
    Ok(render(&presets, format))
}

fn render(presets: &[Preset], format: Format) -> String {
    match format {
        Format::Json => {
            let list: Vec<Value> = presets.iter().map(Preset::summary).collect();
            serde_json::to_string_pretty(&Value::Array(list)).unwrap_or_default() + "\n"
        }
        Format::Text => {
            let mut out = String::new();
            for p in presets {
                let s = p.summary();
                out.push_str(&format!("{} — {} (v{})\n", p.id, p.label, p.version));
                if !p.description.is_empty() {
                    out.push_str(&format!("  {}\n", p.description));
                }
                out.push_str(&format!("  biomes: {}\n", p.biome_names().join(", ")));
                let rules = s["rules"].as_array().cloned().unwrap_or_default();
                if rules.is_empty() {
                    out.push_str("  rules: none\n");
                } else {
                    out.push_str("  rules:\n");
                    for r in rules {
                        let id = r.get("id").and_then(Value::as_str).unwrap_or("(unnamed)");
                        let biome = r.get("biome").and_then(Value::as_str).unwrap_or("?");
                        let mut conds = Vec::new();
                        for band in ["elevation", "slope", "moisture", "water_distance"] {
                            if let Some(v) = r.get(band) {
                                conds.push(format!("{band} {v}"));
                            }
                        }
                        if let Some(v) = r.get("substrate") {
                            conds.push(format!("substrate {v}"));
                        }
                        out.push_str(&format!(
                            "    {id} → {biome}{}\n",
                            if conds.is_empty() {
                                String::new()
                            } else {
                                format!(" when {}", conds.join(", "))
                            }
                        ));
                    }
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ridgeline-presets-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("project.godot"), "config_version=5\n").unwrap();
        dir
    }

    #[test]
    fn an_empty_project_lists_the_eight_builtins() {
        let dir = temp("empty");
        let text = run(&dir, Format::Text).unwrap();
        assert_eq!(text.matches("builtin://terrain/").count(), 8, "{text}");
        assert!(text.contains("Coastal Island"));
        let json: Value = serde_json::from_str(&run(&dir, Format::Json).unwrap()).unwrap();
        assert_eq!(json.as_array().map(Vec::len), Some(8));
    }

    #[test]
    fn project_presets_are_found_and_broken_ones_reported() {
        let dir = temp("project");
        std::fs::create_dir_all(dir.join("presets/.hidden")).unwrap();
        std::fs::write(
            dir.join("presets/windy.preset.json"),
            r#"{"format_version": 1, "name": "windy", "description": "Windswept", "seed": 4,
                "biomes": {"moor": {"color": [0.4, 0.4, 0.3, 1]}}, "default_biome": "moor",
                "rules": [{"id": "wet", "biome": "moor", "moisture": [0.6, 1]}]}"#,
        )
        .unwrap();
        std::fs::write(dir.join("presets/broken.preset.json"), "{").unwrap();
        std::fs::write(dir.join("presets/.hidden/x.preset.json"), "{").unwrap();
        let (presets, problems) = all(&dir).unwrap();
        assert_eq!(presets.len(), 9);
        assert_eq!(presets[8].id, "res://presets/windy.preset.json");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("broken.preset.json"), "{problems:?}");
        let text = render(&presets, Format::Text);
        assert!(text.contains("wet → moor when moisture [0.6,1]"), "{text}");
        assert!(find(&dir, "res://presets/windy.preset.json").is_ok());
        assert!(find(&dir, "res://../outside.preset.json").is_err());
        assert!(
            find(&dir, "builtin://terrain/nowhere")
                .unwrap_err()
                .contains("built-ins")
        );
    }
}
