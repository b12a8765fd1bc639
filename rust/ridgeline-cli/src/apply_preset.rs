//! `ridgeline apply-preset <project-dir> --preset <id>`: merges a landscape preset into a
//! terrain asset file (`--asset`) or into a scene's inline `Terrain3D` recipe (the project's
//! main scene, or `--scene`; `--entity` picks the terrain when there is more than one), once,
//! stamped with `preset_id` + `preset_version`. Strokes are always kept; a grid change with
//! strokes needs `--keep-strokes` or `--clear-strokes`. Files are written atomically; a scene
//! gets a small text patch (only the recipe string changes).

use crate::files;
use crate::presets;
use crate::scene_patch;
use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::recipe::preset::{Applied, GridChange};
use ridgeline_core::recipe::{AssetDocument, Document, Recipe};
use std::path::{Path, PathBuf};

/// What `apply-preset` targets.
pub struct Target {
    /// A terrain asset file (`*.terrain.json`).
    pub asset: Option<PathBuf>,
    /// A scene file; default: the project's `run/main_scene`.
    pub scene: Option<PathBuf>,
    /// The `Terrain3D` node path inside the scene.
    pub entity: Option<String>,
}

fn describe(applied: &Applied, id: &str, version: u64, target: &str) -> String {
    let r = &applied.recipe;
    let strokes = r.stroke_count();
    let mut s = format!(
        "applied {id} (v{version}) to {target}: {} × {} units, {} × {} cells, seed {}",
        r.size[0], r.size[1], r.resolution[0], r.resolution[1], r.seed
    );
    if applied.cleared_strokes > 0 {
        s.push_str(&format!(
            "; grid changed, {} strokes cleared",
            applied.cleared_strokes
        ));
    } else {
        s.push_str(&format!("; {strokes} strokes kept"));
    }
    s.push('\n');
    s
}

/// The project's main scene from `project.godot` (`run/main_scene="res://…"`).
fn main_scene(project: &Path) -> Result<PathBuf, String> {
    let file = project.join("project.godot");
    let text = fsio::read_text_bounded(&file, FileKind::Document).map_err(|e| e.to_string())?;
    let value = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("run/main_scene="))
        .ok_or_else(|| {
            format!(
                "{}: no run/main_scene; pass --scene <file.tscn> or --asset <file>",
                file.display()
            )
        })?;
    let reference = value.trim().trim_matches('"');
    let root = fsio::project_root(project);
    fsio::resolve_reference(project, &root, reference).map_err(|e| e.to_string())
}

/// Runs the verb; returns the report for stdout.
pub fn run(project: &Path, id: &str, target: &Target, grid: GridChange) -> Result<String, String> {
    let preset = presets::find(project, id)?;
    if let Some(asset) = &target.asset {
        let doc = files::load(asset)?;
        let applied = preset
            .apply(doc.recipe(), grid)
            .map_err(|e| with_hint(e.to_string()))?;
        let out = match doc {
            Document::Asset(a) => Document::Asset(AssetDocument {
                id: a.id,
                recipe: applied.recipe.clone(),
            }),
            Document::Recipe(_) => Document::Recipe(applied.recipe.clone()),
        };
        files::write_atomic(asset, out.to_canonical_json().as_bytes())?;
        return Ok(describe(
            &applied,
            &preset.id,
            preset.version,
            &asset.display().to_string(),
        ));
    }
    let scene = match &target.scene {
        Some(s) => s.clone(),
        None => main_scene(project)?,
    };
    let text = fsio::read_text_bounded(&scene, FileKind::Document).map_err(|e| e.to_string())?;
    let nodes =
        scene_patch::terrain_nodes(&text).map_err(|e| format!("{}: {e}", scene.display()))?;
    let node = match (&target.entity, nodes.len()) {
        (_, 0) => {
            return Err(format!(
                "{}: the scene has no Terrain3D node",
                scene.display()
            ));
        }
        (None, 1) => &nodes[0],
        (None, _) => {
            return Err(format!(
                "{}: the scene has {} Terrain3D nodes ({}); pass --entity <node path>",
                scene.display(),
                nodes.len(),
                nodes
                    .iter()
                    .map(|n| n.path.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        (Some(e), _) => nodes.iter().find(|n| &n.path == e).ok_or_else(|| {
            format!(
                "--entity: no Terrain3D node `{e}` in {} (it has: {})",
                scene.display(),
                nodes
                    .iter()
                    .map(|n| n.path.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?,
    };
    if let Some(asset) = &node.asset {
        return Err(format!(
            "{}: {} uses a terrain asset ({asset}); apply the preset to the asset file with --asset <file>",
            scene.display(),
            node.path
        ));
    }
    let where_ = format!("{}: {}.recipe", scene.display(), node.path);
    let author = match node.recipe.as_deref() {
        Some(t) if !t.trim().is_empty() => Document::parse(t, &where_)
            .map_err(|e| e.to_string())?
            .recipe()
            .clone(),
        _ => Recipe::default_recipe(),
    };
    let applied = preset
        .apply(&author, grid)
        .map_err(|e| with_hint(format!("{where_}: {e}")))?;
    let recipe_text = Document::Recipe(applied.recipe.clone()).to_canonical_json();
    let patched = scene_patch::with_recipe(&text, node, recipe_text.trim_end());
    files::write_atomic(&scene, patched.as_bytes())?;
    Ok(describe(
        &applied,
        &preset.id,
        preset.version,
        &format!("{} ({})", scene.display(), node.path),
    ))
}

fn with_hint(message: String) -> String {
    if message.contains("choose whether to keep them") {
        format!("{message} (--keep-strokes or --clear-strokes)")
    } else {
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ridgeline-apply-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("project.godot"),
            "config_version=5\n\n[application]\nrun/main_scene=\"res://main.tscn\"\n",
        )
        .unwrap();
        dir
    }

    const ONE: &str = "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node3D\"]\n\n[node name=\"Terrain\" type=\"Terrain3D\" parent=\".\"]\nrecipe = \"{\\\"size\\\": [128, 128], \\\"resolution\\\": [64, 64], \\\"biomes\\\": {\\\"island\\\": {}}, \\\"default_biome\\\": \\\"island\\\", \\\"edits\\\": [{\\\"type\\\": \\\"raise\\\", \\\"center\\\": [9, 9], \\\"radius\\\": 3, \\\"amount\\\": 1}]}\"\n\n[node name=\"Sun\" type=\"DirectionalLight3D\" parent=\".\"]\n";

    fn none() -> Target {
        Target {
            asset: None,
            scene: None,
            entity: None,
        }
    }

    #[test]
    fn a_scene_with_one_terrain_gets_a_small_patch_and_keeps_strokes() {
        let dir = project("one");
        std::fs::write(dir.join("main.tscn"), ONE).unwrap();
        let report = run(
            &dir,
            "builtin://terrain/coastal-island",
            &none(),
            GridChange::Ask,
        )
        .unwrap();
        assert!(report.contains("1 strokes kept"), "{report}");
        let text = std::fs::read_to_string(dir.join("main.tscn")).unwrap();
        let nodes = scene_patch::terrain_nodes(&text).unwrap();
        let recipe = Document::parse(nodes[0].recipe.as_deref().unwrap(), "x").unwrap();
        let r = recipe.recipe();
        assert_eq!(
            r.preset,
            Some(("builtin://terrain/coastal-island".into(), 1))
        );
        assert_eq!(r.edits.len(), 1);
        // Everything outside the recipe string is byte-identical.
        let (before, after) = ONE.split_once("recipe = ").unwrap();
        assert!(text.starts_with(before));
        assert!(text.ends_with(&after[after.find("\n\n[node name=\"Sun\"").unwrap()..]));
    }

    #[test]
    fn two_terrains_need_an_entity_and_an_asset_backed_one_is_refused() {
        let dir = project("two");
        let scene = format!(
            "{ONE}\n[node name=\"Other\" type=\"Terrain3D\" parent=\"Sun\"]\nasset = ExtResource(\"1\")\n"
        );
        std::fs::write(dir.join("main.tscn"), &scene).unwrap();
        let e = run(&dir, "builtin://terrain/basin", &none(), GridChange::Ask).unwrap_err();
        assert!(e.contains("2 Terrain3D nodes (Terrain, Sun/Other)"), "{e}");
        let other = Target {
            entity: Some("Sun/Other".into()),
            ..none()
        };
        let e = run(&dir, "builtin://terrain/basin", &other, GridChange::Ask).unwrap_err();
        assert!(e.contains("--asset"), "{e}");
        let terrain = Target {
            entity: Some("Terrain".into()),
            ..none()
        };
        // The basin lacks the painted `island` biome? No regions here, so it applies.
        run(&dir, "builtin://terrain/basin", &terrain, GridChange::Ask).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("main.tscn"))
                .unwrap()
                .matches("Terrain3D")
                .count(),
            2
        );
    }

    #[test]
    fn an_asset_file_is_merged_atomically_and_refusals_leave_it_unchanged() {
        let dir = project("asset");
        let asset = dir.join("t.terrain.json");
        let original = "{\"format_version\": 1, \"id\": \"asset://terrain/t\", \"recipe\": {\"size\": [64, 64], \"resolution\": [32, 32], \"edits\": [{\"type\": \"raise\", \"center\": [9, 9], \"radius\": 3, \"amount\": 1}]}}";
        std::fs::write(&asset, original).unwrap();
        let target = Target {
            asset: Some(asset.clone()),
            ..none()
        };
        let e = run(&dir, "builtin://terrain/plateau", &target, GridChange::Ask).unwrap_err();
        assert!(e.contains("--keep-strokes"), "{e}");
        assert_eq!(std::fs::read_to_string(&asset).unwrap(), original);
        let report = run(
            &dir,
            "builtin://terrain/plateau",
            &target,
            GridChange::KeepStrokes,
        )
        .unwrap();
        assert!(report.contains("128 × 128 units"), "{report}");
        let doc = files::load(&asset).unwrap();
        assert!(matches!(doc, Document::Asset(ref a) if a.id == "asset://terrain/t"));
        assert_eq!(doc.recipe().edits.len(), 1);
    }
}
