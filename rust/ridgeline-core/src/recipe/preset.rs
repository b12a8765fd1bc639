//! Landscape presets: reusable, versioned documents that configure the generator, applied to a
//! recipe once (merged and stamped with `preset_id` + `preset_version`), never referenced.
//!
//! A preset document (`format_version` 1) has a required `name`, an optional `label`,
//! `description` and `version` (default 1), and any of the recipe's generation settings:
//! `size`, `cells_x`, `cells_z`, `chunk_cells`, `seed`, `default_landform`, `landforms`,
//! `default_biome`, `biomes`, `layers`, `rules` and `graph`.
//!
//! Applying it ([`Preset::apply`]):
//! - generation settings the preset gives replace the recipe's; the ones it omits fall back to
//!   the canonical recipe defaults (a preset that only sets a seed still gives a valid recipe) —
//!   except the grid (`size`, the cell counts, `chunk_cells`) and `layers`, which stay the
//!   recipe's when the preset omits them, because strokes are laid out on them;
//! - strokes (`regions`, `edits`, `exclusions`) and the scatter `palette` always come from the
//!   recipe: a preset never destroys painting or sculpting;
//! - a region naming a biome the preset does not define is refused with how to fix it;
//! - a grid change while the recipe holds strokes is a decision ([`GridChange`]): keep the
//!   strokes (they are in world units) or clear them; protection strokes (height snapshots on
//!   the old grid) refuse it;
//! - the merged recipe is validated as a whole.
//!
//! The eight built-ins ([`builtins`]) are data in `recipe/presets/`, with ids
//! `builtin://terrain/<name>`.

use super::{DEFAULT_NAME, Recipe};
use crate::doc::reader::ObjectReader;
use crate::error::{Diagnostics, Error, Result};
use serde_json::{Map, Value};

/// The built-in presets' sources, in listing order.
const BUILTIN_SOURCES: [(&str, &str); 8] = [
    (
        "flat-building-site",
        include_str!("presets/flat-building-site.json"),
    ),
    ("desert-dunes", include_str!("presets/desert-dunes.json")),
    ("rolling-hills", include_str!("presets/rolling-hills.json")),
    (
        "mountain-range",
        include_str!("presets/mountain-range.json"),
    ),
    ("basin", include_str!("presets/basin.json")),
    ("plateau", include_str!("presets/plateau.json")),
    (
        "coastal-island",
        include_str!("presets/coastal-island.json"),
    ),
    (
        "drainage-river",
        include_str!("presets/drainage-river.json"),
    ),
];

/// Prefix of built-in preset ids.
pub const BUILTIN_PREFIX: &str = "builtin://terrain/";

/// Recipe keys a preset may set, as written in the merged recipe.
const SETTINGS: [&str; 9] = [
    "seed",
    "default_landform",
    "landforms",
    "default_biome",
    "biomes",
    "rules",
    "graph",
    "chunk_cells",
    "layers",
];

/// A parsed, validated landscape preset.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Stable id: `builtin://terrain/<name>` or the project path (`res://…`).
    pub id: String,
    /// Name (required in the document).
    pub name: String,
    /// Display label (defaults to the name).
    pub label: String,
    /// One-paragraph description.
    pub description: String,
    /// Preset version, stamped as `preset_version`.
    pub version: u64,
    size: Option<Value>,
    cells: [Option<u64>; 2],
    settings: Map<String, Value>,
}

/// What to do with strokes when a preset changes the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridChange {
    /// Refuse, saying that a decision is needed.
    Ask,
    /// Keep every stroke (strokes are in world units).
    KeepStrokes,
    /// Remove every stroke.
    ClearStrokes,
}

/// The result of applying a preset.
#[derive(Clone, Debug)]
pub struct Applied {
    /// The merged, validated recipe.
    pub recipe: Recipe,
    /// True when the grid (size or cells) changed.
    pub grid_changed: bool,
    /// Strokes removed by [`GridChange::ClearStrokes`].
    pub cleared_strokes: usize,
}

impl Preset {
    /// Parses a preset document; `source` names it in errors, `id` is its stable id.
    pub fn parse(text: &str, source: &str, id: &str) -> Result<Self> {
        let value = crate::doc::strict_json::parse(text, source)?;
        let mut d = Diagnostics::default();
        let preset = Self::from_value(&value, id, &mut d);
        let located = |d: Diagnostics| {
            Error::Invalid(
                d.0.into_iter()
                    .map(|mut x| {
                        x.path = if x.path.is_empty() {
                            source.to_string()
                        } else {
                            format!("{source}: {}", x.path)
                        };
                        x
                    })
                    .collect(),
            )
        };
        if !d.is_empty() {
            return Err(located(d));
        }
        let preset = preset.ok_or_else(|| Error::invalid(source, "could not be read"))?;
        // The preset alone must give a valid recipe.
        preset
            .merged_value(&Recipe::default_recipe(), false)
            .and_then(|v| {
                let mut d = Diagnostics::default();
                match Recipe::from_value(&v, "", &mut d) {
                    Some(_) if d.is_empty() => Ok(()),
                    _ => Err(located(d)),
                }
            })?;
        Ok(preset)
    }

    fn from_value(value: &Value, id: &str, d: &mut Diagnostics) -> Option<Self> {
        let start = d.0.len();
        let mut r = ObjectReader::new("", value, d);
        r.int(d, "format_version", 1, 1..=1);
        let name = r.opt_str(d, "name").unwrap_or_default();
        if name.trim().is_empty() {
            d.push("name", "is required (a non-empty string)");
        }
        let label = r.opt_str(d, "label").unwrap_or_else(|| name.clone());
        let description = r.opt_str(d, "description").unwrap_or_default();
        let version = r.u64(d, "version", 1);
        if version == 0 {
            d.push("version", "must be 1 or more");
        }
        let size = r.raw("size").cloned();
        let mut cells = [None, None];
        for (i, key) in ["cells_x", "cells_z"].into_iter().enumerate() {
            if r.has(key) {
                cells[i] =
                    Some(r.int(d, key, 64, 1..=i64::from(crate::grid::MAX_CELLS_PER_AXIS)) as u64);
            }
        }
        let mut settings = Map::new();
        for key in SETTINGS {
            if let Some(v) = r.raw(key) {
                settings.insert(key.to_string(), v.clone());
            }
        }
        r.finish(d);
        (d.0.len() == start).then(|| Self {
            id: id.to_string(),
            name,
            label,
            description,
            version,
            size,
            cells,
            settings,
        })
    }

    /// The biome names the preset defines (`default` when it defines none).
    pub fn biome_names(&self) -> Vec<String> {
        match self.settings.get("biomes") {
            Some(Value::Object(m)) if !m.is_empty() => m.keys().cloned().collect(),
            _ => vec![DEFAULT_NAME.to_string()],
        }
    }

    /// A listing entry: id, name, label, description, version, grid, biomes and rules.
    pub fn summary(&self) -> Value {
        let rules: Vec<Value> = match self.settings.get("rules") {
            Some(Value::Array(rules)) => rules
                .iter()
                .map(|r| {
                    let mut m = Map::new();
                    for k in [
                        "id",
                        "biome",
                        "priority",
                        "elevation",
                        "slope",
                        "moisture",
                        "water_distance",
                        "substrate",
                    ] {
                        if let Some(v) = r.get(k) {
                            m.insert(k.into(), v.clone());
                        }
                    }
                    Value::Object(m)
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut m = Map::new();
        m.insert("id".into(), Value::from(self.id.clone()));
        m.insert("name".into(), Value::from(self.name.clone()));
        m.insert("label".into(), Value::from(self.label.clone()));
        m.insert("description".into(), Value::from(self.description.clone()));
        m.insert("version".into(), Value::from(self.version));
        if let Some(s) = &self.size {
            m.insert("size".into(), s.clone());
        }
        if self.cells.iter().any(Option::is_some) {
            m.insert(
                "cells".into(),
                Value::Array(
                    self.cells
                        .iter()
                        .map(|c| c.map_or(Value::Null, Value::from))
                        .collect(),
                ),
            );
        }
        m.insert(
            "biomes".into(),
            Value::Array(self.biome_names().into_iter().map(Value::from).collect()),
        );
        m.insert("rules".into(), Value::Array(rules));
        m.insert(
            "has_graph".into(),
            Value::Bool(self.settings.contains_key("graph")),
        );
        Value::Object(m)
    }

    /// The merged recipe value: the preset's settings over `author`'s grid, layers and
    /// strokes (`keep_strokes`), stamped with this preset.
    fn merged_value(&self, author: &Recipe, keep_strokes: bool) -> Result<Value> {
        let Value::Object(base) = author.to_value() else {
            return Err(Error::invalid("recipe", "must be an object"));
        };
        let mut m = Map::new();
        m.insert(
            "size".into(),
            self.size
                .clone()
                .or_else(|| base.get("size").cloned())
                .unwrap_or(Value::Null),
        );
        let res = author.resolution;
        m.insert(
            "resolution".into(),
            Value::Array(vec![
                Value::from(self.cells[0].unwrap_or(u64::from(res[0]))),
                Value::from(self.cells[1].unwrap_or(u64::from(res[1]))),
            ]),
        );
        for key in ["chunk_cells", "layers"] {
            if let Some(v) = base.get(key) {
                m.insert(key.into(), v.clone());
            }
        }
        for (k, v) in &self.settings {
            m.insert(k.clone(), v.clone());
        }
        let mut keys = vec!["palette"];
        if keep_strokes {
            keys.extend(["regions", "edits", "exclusions", "foliage_paint"]);
        }
        for key in keys {
            if let Some(v) = base.get(key) {
                m.insert(key.into(), v.clone());
            }
        }
        m.insert("preset_id".into(), Value::from(self.id.clone()));
        m.insert("preset_version".into(), Value::from(self.version));
        Ok(Value::Object(m))
    }

    /// Merges the preset into `author` (see the module docs); `grid` decides what happens to
    /// strokes when the grid changes.
    pub fn apply(&self, author: &Recipe, grid: GridChange) -> Result<Applied> {
        let probe = self.merged_value(author, false)?;
        let new_size = probe.get("size").cloned();
        let new_res = probe.get("resolution").cloned();
        let Value::Object(old) = author.to_value() else {
            return Err(Error::invalid("recipe", "must be an object"));
        };
        let grid_changed =
            new_size.as_ref() != old.get("size") || new_res.as_ref() != old.get("resolution");
        let strokes = author.stroke_count();
        let mut keep = true;
        if grid_changed && strokes > 0 {
            let protect = author
                .edits
                .iter()
                .position(|e| e.get("type").and_then(Value::as_str) == Some("protect"));
            if let Some(i) = protect {
                return Err(Error::invalid(
                    format!("recipe.edits[{i}]"),
                    format!(
                        "preset `{}` changes the grid from {} × {} to {} × {}, and this protection stroke holds a height snapshot of the old grid; remove the protection first or pick a preset with the same grid",
                        self.id,
                        show(old.get("size")),
                        show(old.get("resolution")),
                        show(new_size.as_ref()),
                        show(new_res.as_ref()),
                    ),
                ));
            }
            match grid {
                GridChange::Ask => {
                    return Err(Error::invalid(
                        "recipe",
                        format!(
                            "preset `{}` changes the grid from {} × {} to {} × {} and the recipe holds {strokes} strokes: choose whether to keep them (they are in world units) or clear them",
                            self.id,
                            show(old.get("size")),
                            show(old.get("resolution")),
                            show(new_size.as_ref()),
                            show(new_res.as_ref()),
                        ),
                    ));
                }
                GridChange::KeepStrokes => {}
                GridChange::ClearStrokes => keep = false,
            }
        }
        if keep {
            let names = self.biome_names();
            for (i, region) in author.regions.iter().enumerate() {
                let biome = region
                    .get("biome")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if !names.iter().any(|n| n == biome) {
                    return Err(Error::invalid(
                        format!("recipe.regions[{i}].biome"),
                        format!(
                            "painted region biome `{biome}` is not defined by preset `{}` (it defines: {}); pick a preset that defines `{biome}`, or rename the region's biome to one of these (a region stores only the name)",
                            self.id,
                            names.join(", ")
                        ),
                    ));
                }
            }
        }
        let merged = self.merged_value(author, keep)?;
        let mut d = Diagnostics::default();
        let recipe = Recipe::from_value(&merged, "recipe", &mut d);
        match recipe {
            Some(recipe) if d.is_empty() => Ok(Applied {
                recipe,
                grid_changed,
                cleared_strokes: if keep { 0 } else { strokes },
            }),
            _ => {
                let mut d = d;
                if d.is_empty() {
                    d.push(
                        "recipe",
                        format!("preset `{}` gives an invalid recipe", self.id),
                    );
                }
                Err(Error::Invalid(d.0))
            }
        }
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "?".into(), |v| v.to_string())
}

/// The eight built-in presets, in listing order.
pub fn builtins() -> Result<Vec<Preset>> {
    BUILTIN_SOURCES
        .iter()
        .map(|(name, text)| {
            Preset::parse(
                text,
                &format!("builtin preset {name}"),
                &format!("{BUILTIN_PREFIX}{name}"),
            )
        })
        .collect()
}

/// The built-in preset with `id` (`builtin://terrain/<name>`), if there is one.
pub fn builtin(id: &str) -> Option<Result<Preset>> {
    let name = id.strip_prefix(BUILTIN_PREFIX)?;
    let (name, text) = BUILTIN_SOURCES.iter().find(|(n, _)| *n == name)?;
    Some(Preset::parse(
        text,
        &format!("builtin preset {name}"),
        &format!("{BUILTIN_PREFIX}{name}"),
    ))
}

/// How deep [`project_preset_files`] searches below the project folder.
pub const PROJECT_SEARCH_DEPTH: usize = 16;
/// How many files and folders [`project_preset_files`] reads before giving up.
pub const PROJECT_SEARCH_ENTRIES: usize = 100_000;

/// The project's `*.preset.json` files as `(res:// id, path)`, sorted by id: hidden entries
/// skipped, links never followed, depth and entry count bounded (an error says so). Shared by
/// `ridgeline presets` and the editor's Presets tab.
pub fn project_preset_files(
    project: &std::path::Path,
) -> Result<Vec<(String, std::path::PathBuf)>, String> {
    if !project.is_dir() {
        return Err(format!("{}: not a project folder", project.display()));
    }
    let mut out = Vec::new();
    let mut stack = vec![(project.to_path_buf(), 0usize)];
    let mut visited = 0usize;
    while let Some((dir, depth)) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            visited += 1;
            if visited > PROJECT_SEARCH_ENTRIES {
                return Err(format!(
                    "{}: more than {PROJECT_SEARCH_ENTRIES} files and folders; presets were not searched completely",
                    project.display()
                ));
            }
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with('.') {
                continue;
            }
            // Never follow links: a link could leave the project or loop.
            let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
                continue;
            };
            if meta.is_dir() {
                if depth < PROJECT_SEARCH_DEPTH {
                    stack.push((entry.path(), depth + 1));
                }
            } else if meta.is_file() && name.ends_with(".preset.json") {
                let rel = entry
                    .path()
                    .strip_prefix(project)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or(name);
                out.push((format!("res://{rel}"), entry.path()));
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
#[path = "preset_tests.rs"]
mod tests;
