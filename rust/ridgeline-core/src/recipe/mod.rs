//! The terrain recipe: document model, validation with located messages, canonical JSON.
//!
//! A terrain asset source (`*.terrain.json`) is `{ "format_version": 1, "id": "asset://…",
//! "recipe": { … } }`; a bare recipe object is accepted wherever an asset is. Canonical JSON has
//! sorted keys and omits defaults, so load → save is byte-stable and the cache key is well
//! defined. Field reference: `docs/recipe.md`.

mod draft;
mod parse;
pub mod preset;
pub mod settings;
mod strokes;
mod write;

use crate::doc::reader::{self, ObjectReader, entry, index, member, read_numbers, type_name};
use crate::doc::write::{json_number, put_f64};
use crate::error::{Diagnostics, Error, Result};
use crate::graph::Graph;
use crate::grid::{CHUNK_CELLS_RANGE, Grid, MAX_CELLS_PER_AXIS};
use crate::landform::{Landforms, SHAPE_PARAMS, check_domain, parse_shape};
use crate::nodes::{CheckContext, Scene};
use crate::noise::{ShapeParams, ShapeSeeds};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

pub use crate::edit::layer::{LAYER_KINDS, Layer};
pub use strokes::Rule;

/// Parses a `rules` array as a recipe does (a cooked payload's copy of a recipe's rules)
/// against `layers` and the biome names `has_biome` accepts; problems are located under
/// `path` (`{path}[2].biome`).
pub fn parse_rules(
    v: &Value,
    path: &str,
    has_biome: &dyn Fn(&str) -> bool,
    layers: &[Layer],
) -> Result<Vec<Rule>> {
    let mut d = Diagnostics::default();
    let rules = strokes::parse_rules(v, path, has_biome, layers, &mut d);
    d.into_result()?;
    Ok(rules)
}

/// Current asset and graph format version.
pub const FORMAT_VERSION: i64 = 1;
/// Largest terrain side in world units.
pub const MAX_SIZE: f64 = 65_536.0;
/// Landform and biome name used when a recipe defines none.
pub const DEFAULT_NAME: &str = crate::landform::DEFAULT_NAME;

/// How a biome looks.
#[derive(Clone, Debug, PartialEq)]
pub struct Biome {
    /// Tint, RGBA 0..1.
    pub color: [f64; 4],
    /// Optional material resource path.
    pub material: Option<String>,
    /// Texture repetitions per terrain-local unit (> 0, default 1).
    pub texture_scale: f64,
    /// Landform this biome's ground uses (default: the recipe's default landform).
    pub landform: Option<String>,
    /// Whether automatic snow may cover it (default true).
    pub allow_snow: bool,
}

/// A validated recipe.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// World size along X and Z.
    pub size: [f64; 2],
    /// Cells along X and Z.
    pub resolution: [u32; 2],
    /// World seed.
    pub seed: u64,
    /// Cells per chunk side.
    pub chunk_cells: u32,
    /// Fallback landform name.
    pub default_landform: String,
    /// Named landform shapes (an implicit `default` when none are defined).
    pub landforms: BTreeMap<String, ShapeParams>,
    /// Fallback biome name.
    pub default_biome: String,
    /// Named biomes (an implicit `default` when none are defined).
    pub biomes: BTreeMap<String, Biome>,
    /// Biome rules (parsed and validated; applied by the biome stage).
    pub rules: Vec<Rule>,
    /// Layers (the five defaults when omitted).
    pub layers: Vec<Layer>,
    /// Painted biome regions (strokes).
    pub regions: Vec<Value>,
    /// Sculpt and protection strokes.
    pub edits: Vec<Value>,
    /// Exclusion strokes.
    pub exclusions: Vec<Value>,
    /// Foliage density strokes (`foliage_density`, see [`crate::edit::foliage_density`]).
    pub foliage_paint: Vec<Value>,
    /// Scatter palette (`format_version: 3`); `None` scatters nothing.
    pub palette: Option<crate::scatter::Palette>,
    /// The generation graph; `None` uses the conventional pipeline.
    pub graph: Option<Graph>,
    /// `(preset_id, preset_version)` provenance.
    pub preset: Option<(String, u64)>,
    /// Where the recipe was read (file name and path inside it), so errors raised later
    /// (generation) are located like parse errors.
    origin: Origin,
}

/// Where a recipe was read.
#[derive(Clone, Debug, Default, PartialEq)]
struct Origin {
    /// The file (or other source) name.
    source: String,
    /// The recipe's path inside it (`recipe` in an asset, empty for a bare recipe).
    path: String,
    /// The folder of the asset file, when known: files the graph names (heightmaps) resolve
    /// from it. Not part of the document or of any cache key (file contents are).
    dir: Option<std::path::PathBuf>,
}

/// A whole terrain asset source document.
#[derive(Clone, Debug)]
pub struct AssetDocument {
    /// Stable asset id (`asset://…`).
    pub id: String,
    /// The recipe.
    pub recipe: Recipe,
}

/// What a file held.
#[derive(Clone, Debug)]
pub enum Document {
    /// A full asset source.
    Asset(AssetDocument),
    /// A bare recipe object.
    Recipe(Recipe),
}

impl Document {
    /// The recipe either way.
    pub fn recipe(&self) -> &Recipe {
        match self {
            Document::Asset(a) => &a.recipe,
            Document::Recipe(r) => r,
        }
    }

    /// Parses an asset source or a bare recipe. `source` names the file in errors.
    pub fn parse(text: &str, source: &str) -> Result<Self> {
        let value = crate::doc::strict_json::parse(text, source)?;
        let mut d = Diagnostics::default();
        let doc = if value.get("recipe").is_some() {
            let mut r = ObjectReader::new("", &value, &mut d);
            let version = r.int(&mut d, "format_version", FORMAT_VERSION, 1..=FORMAT_VERSION);
            let _ = version;
            let id = r.opt_str(&mut d, "id").unwrap_or_default();
            if !id.starts_with("asset://") || id.len() <= "asset://".len() {
                d.push(
                    "id",
                    format!(
                        "must be a stable asset id like \"asset://terrain/name\", got \"{id}\""
                    ),
                );
            }
            let recipe = match r.raw("recipe") {
                Some(v) => Recipe::from_value(v, "recipe", &mut d),
                None => {
                    d.push("recipe", "is required");
                    None
                }
            };
            r.finish(&mut d);
            recipe.map(|recipe| Document::Asset(AssetDocument { id, recipe }))
        } else {
            Recipe::from_value(&value, "", &mut d).map(Document::Recipe)
        };
        let mut doc = doc;
        if let Some(doc) = doc.as_mut() {
            let r = match doc {
                Document::Asset(a) => &mut a.recipe,
                Document::Recipe(r) => r,
            };
            r.origin.source = source.to_string();
        }
        if !d.is_empty() {
            return Err(Error::Invalid(
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
            ));
        }
        doc.ok_or_else(|| Error::invalid(source, "could not be read"))
    }

    /// Canonical JSON text (sorted keys, defaults omitted, trailing newline).
    pub fn to_canonical_json(&self) -> String {
        let value = match self {
            Document::Asset(a) => {
                let mut m = Map::new();
                m.insert("format_version".into(), Value::from(FORMAT_VERSION));
                m.insert("id".into(), Value::from(a.id.clone()));
                m.insert("recipe".into(), a.recipe.to_value());
                Value::Object(m)
            }
            Document::Recipe(r) => r.to_value(),
        };
        let mut s = serde_json::to_string_pretty(&value).unwrap_or_default();
        s.push('\n');
        s
    }
}

impl Recipe {
    /// The canonical default recipe (every field at its default).
    pub fn default_recipe() -> Recipe {
        let mut d = Diagnostics::default();
        Recipe::from_value(&Value::Object(Map::new()), "", &mut d)
            .expect("the empty recipe is valid (checked by a test)")
    }

    /// True when the recipe holds brush strokes (edits, exclusions, regions or foliage paint).
    pub fn has_strokes(&self) -> bool {
        self.stroke_count() > 0
    }

    /// The number of brush strokes (edits, exclusions, regions and foliage paint): what a
    /// grid change asks to keep or clear.
    pub fn stroke_count(&self) -> usize {
        self.edits.len() + self.exclusions.len() + self.regions.len() + self.foliage_paint.len()
    }

    /// Removes every stroke (layers stay).
    pub fn clear_strokes(&mut self) {
        self.edits.clear();
        self.exclusions.clear();
        self.regions.clear();
        self.foliage_paint.clear();
    }

    /// Takes `other`'s strokes and layers (everything editing changes), keeping the rest.
    pub fn set_strokes_from(&mut self, other: &Recipe) {
        self.edits = other.edits.clone();
        self.exclusions = other.exclusions.clone();
        self.regions = other.regions.clone();
        self.foliage_paint = other.foliage_paint.clone();
        self.layers = other.layers.clone();
    }

    /// Canonical JSON of the authored landforms (`None` when the recipe defines none).
    pub fn landforms_value(&self) -> Option<Value> {
        self.landforms_view().to_value()
    }

    /// The landforms as graph nodes see them.
    pub fn landforms_view(&self) -> Landforms<'_> {
        Landforms {
            default_name: &self.default_landform,
            shapes: &self.landforms,
        }
    }

    /// What the generation graph runs in: the grid, the seed and the landforms.
    pub fn scene(&self) -> Result<Scene<'_>> {
        Ok(Scene::new(self.grid()?, self.seed, self.landforms_view()))
    }

    /// The recipe's grid.
    pub fn grid(&self) -> Result<Grid> {
        Grid::new(self.size_f32(), self.resolution, self.chunk_cells)
            .map_err(|e| self.locate_error(e))
    }

    /// Locates an error raised after parsing (generation) the way parse errors are located:
    /// `<file>: <recipe path>.<path>`. Paths that already start at the recipe (`recipe.…`)
    /// only gain the file name.
    pub fn locate_error(&self, e: Error) -> Error {
        let Origin { source, path, .. } = &self.origin;
        match e {
            Error::Invalid(ds) => Error::Invalid(
                ds.into_iter()
                    .map(|mut x| {
                        let inner =
                            if x.path.starts_with("recipe.") || x.path.starts_with("recipe[") {
                                x.path.clone()
                            } else if x.path.is_empty() {
                                path.clone()
                            } else {
                                member(path, &x.path)
                            };
                        x.path = match (source.is_empty(), inner.is_empty()) {
                            (true, _) => inner,
                            (false, true) => source.clone(),
                            (false, false) => format!("{source}: {inner}"),
                        };
                        x
                    })
                    .collect(),
            ),
            other => other,
        }
    }

    /// The folder the recipe's asset file is in (set by whoever loaded it from disk: the CLI,
    /// Godot's asset loader); files the graph names resolve from it.
    pub fn source_dir(&self) -> Option<&std::path::Path> {
        self.origin.dir.as_deref()
    }

    /// Records the folder the recipe's asset file is in.
    pub fn set_source_dir(&mut self, dir: impl Into<std::path::PathBuf>) {
        self.origin.dir = Some(dir.into());
    }

    /// The recipe with its asset's folder recorded ([`Recipe::set_source_dir`]).
    pub fn with_source_dir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.set_source_dir(dir);
        self
    }

    /// World size as f32.
    pub fn size_f32(&self) -> [f32; 2] {
        [self.size[0] as f32, self.size[1] as f32]
    }

    /// The shape of landform `name` (the implicit default when the recipe defines none).
    pub fn landform(&self, name: &str) -> Option<ShapeParams> {
        self.landforms_view().get(name)
    }

    /// Names of the landforms (the implicit default when none are defined).
    pub fn landform_names(&self) -> Vec<String> {
        self.landforms_view().names()
    }

    /// Noise seeds of landform `name`: the landform and landform_warp channels, mixed with the
    /// landform's name so different landforms get different patterns.
    pub fn landform_seeds(&self, name: &str) -> ShapeSeeds {
        Landforms::seeds(self.seed, name)
    }

    /// Derived sea level: the default landform's base height.
    pub fn sea_level(&self) -> f64 {
        self.landforms_view().sea_level()
    }

    /// Biome names (the implicit default when none are defined).
    pub fn biome_names(&self) -> Vec<String> {
        if self.biomes.is_empty() {
            vec![DEFAULT_NAME.to_string()]
        } else {
            self.biomes.keys().cloned().collect()
        }
    }
}

#[cfg(test)]
mod tests;
