//! The terrain recipe: document model, validation with located messages, canonical JSON.
//!
//! A terrain asset source (`*.terrain.json`) is `{ "format_version": 1, "id": "asset://…",
//! "recipe": { … } }`; a bare recipe object is accepted wherever an asset is. Canonical JSON has
//! sorted keys and omits defaults, so load → save is byte-stable and the cache key is well
//! defined. Field reference: `docs/recipe.md`.

mod draft;
pub mod preset;
pub mod settings;
mod strokes;

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
    /// Parses and validates a recipe object at `path`; problems go to `d`.
    pub fn from_value(value: &Value, path: &str, d: &mut Diagnostics) -> Option<Self> {
        let start = d.0.len();
        let mut r = ObjectReader::new(path, value, d);
        r.int(d, "format_version", FORMAT_VERSION, 1..=FORMAT_VERSION);
        let size = r.numbers::<2>(d, "size", [256.0, 256.0]);
        for (i, axis) in ["x", "z"].iter().enumerate() {
            if !(size[i] > 0.0 && size[i] <= MAX_SIZE) {
                d.push(
                    format!("{}[{i}]", r.at("size")),
                    format!(
                        "{axis} size must be > 0 and ≤ {MAX_SIZE} world units, got {}",
                        size[i]
                    ),
                );
            }
        }
        let mut resolution = [256u32; 2];
        if let Some(v) = r.raw("resolution")
            && let Some(res) = read_numbers::<2>(&r.at("resolution"), v, d)
        {
            {
                for (i, &cells) in res.iter().enumerate() {
                    if cells.fract() != 0.0 || !(1.0..=MAX_CELLS_PER_AXIS as f64).contains(&cells) {
                        d.push(
                            format!("{}[{i}]", r.at("resolution")),
                            format!(
                                "cells must be a whole number 1..={MAX_CELLS_PER_AXIS} (the documented limit), got {cells}"
                            ),
                        );
                    } else {
                        resolution[i] = cells as u32;
                    }
                }
            }
        }
        let seed = r.u64(d, "seed", 0);
        let chunk_cells = r.int(
            d,
            "chunk_cells",
            64,
            *CHUNK_CELLS_RANGE.start() as i64..=*CHUNK_CELLS_RANGE.end() as i64,
        ) as u32;
        // The grid generation derives must exist: the same check as `generate`, at parse.
        if d.0.len() == start
            && let Err(e) = Grid::new([size[0] as f32, size[1] as f32], resolution, chunk_cells)
        {
            for x in e.diagnostics() {
                let at = match x.path.as_str() {
                    "size.x" => index(&r.at("size"), 0),
                    "size.z" => index(&r.at("size"), 1),
                    "resolution.x" => index(&r.at("resolution"), 0),
                    "resolution.z" => index(&r.at("resolution"), 1),
                    other => r.at(other),
                };
                d.push(at, format!("{} as a 32-bit grid value", x.message));
            }
        }

        // Landforms.
        let mut landforms = BTreeMap::new();
        if let Some(v) = r.raw("landforms") {
            let lpath = r.at("landforms");
            match v.as_object() {
                Some(m) => {
                    for (name, lv) in m {
                        let p = entry(&lpath, name);
                        let mut lr = ObjectReader::new(&p, lv, d);
                        let shape = parse_shape(&mut lr, d);
                        lr.finish(d);
                        landforms.insert(name.clone(), shape);
                    }
                }
                None => d.push(
                    lpath,
                    format!("must be an object keyed by name, got {}", type_name(v)),
                ),
            }
        }
        let default_landform = r
            .opt_str(d, "default_landform")
            .unwrap_or_else(|| DEFAULT_NAME.to_string());
        if landforms.is_empty() {
            if default_landform != DEFAULT_NAME {
                d.push(
                    r.at("default_landform"),
                    format!("names `{default_landform}`, but the recipe defines no landforms"),
                );
            }
        } else if !landforms.contains_key(&default_landform) {
            d.push(
                r.at("default_landform"),
                format!(
                    "names `{default_landform}`, which `landforms` does not define; defined: {}",
                    landforms.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
        }

        // Biomes.
        let mut biomes = BTreeMap::new();
        if let Some(v) = r.raw("biomes") {
            let bpath = r.at("biomes");
            match v.as_object() {
                Some(m) => {
                    for (name, bv) in m {
                        let p = entry(&bpath, name);
                        biomes.insert(name.clone(), parse_biome(bv, &p, d));
                    }
                }
                None => d.push(
                    bpath,
                    format!("must be an object keyed by name, got {}", type_name(v)),
                ),
            }
        }
        let default_biome = r
            .opt_str(d, "default_biome")
            .unwrap_or_else(|| DEFAULT_NAME.to_string());
        let has_landform = |name: &str| {
            if landforms.is_empty() {
                name == DEFAULT_NAME
            } else {
                landforms.contains_key(name)
            }
        };
        for (name, b) in &biomes {
            if let Some(l) = &b.landform
                && !has_landform(l)
            {
                d.push(
                    member(&entry(&r.at("biomes"), name), "landform"),
                    format!("names landform `{l}`, which the recipe does not define"),
                );
            }
        }
        let has_biome = |name: &str| {
            if biomes.is_empty() {
                name == DEFAULT_NAME
            } else {
                biomes.contains_key(name)
            }
        };
        if !has_biome(&default_biome) {
            d.push(
                r.at("default_biome"),
                format!("names biome `{default_biome}`, which `biomes` does not define"),
            );
        }

        // Layers, rules, strokes.
        let layers = match r.raw("layers") {
            Some(v) => strokes::parse_layers(v, &r.at("layers"), d),
            None => Layer::defaults(),
        };
        let rules = match r.raw("rules") {
            Some(v) => strokes::parse_rules(v, &r.at("rules"), &has_biome, &layers, d),
            None => Vec::new(),
        };
        let stroke_list =
            |key: &'static str, r: &mut ObjectReader, d: &mut Diagnostics| match r.raw(key) {
                Some(v) => strokes::parse_strokes(v, &r.at(key), key, &has_biome, &layers, d),
                None => Vec::new(),
            };
        let regions = stroke_list("regions", &mut r, d);
        let edits = stroke_list("edits", &mut r, d);
        let exclusions = stroke_list("exclusions", &mut r, d);
        let foliage_paint = stroke_list("foliage_paint", &mut r, d);
        let palette = match r.raw("palette") {
            Some(v @ Value::Object(_)) => {
                let at = r.at("palette");
                let p = crate::scatter::Palette::read(v, &at, d);
                if let Some(p) = &p {
                    check_palette(p, &at, &has_biome, d);
                }
                p
            }
            Some(v) => {
                d.push(
                    r.at("palette"),
                    format!(
                        "must be a palette object (format_version 3), got {}",
                        type_name(v)
                    ),
                );
                None
            }
            None => None,
        };
        let preset_id = r.opt_str(d, "preset_id");
        let preset_version = r.raw("preset_version").and_then(|v| {
            v.as_u64().or_else(|| {
                d.push(
                    r.at("preset_version"),
                    format!("must be a whole number, got {}", reader::show(v)),
                );
                None
            })
        });
        let preset = match (preset_id, preset_version) {
            (Some(id), Some(v)) => Some((id, v)),
            (None, None) => None,
            (Some(_), None) => {
                d.push(r.at("preset_version"), "is missing: preset_id and preset_version are always recorded together (a half-stamped preset is rejected)");
                None
            }
            (None, Some(_)) => {
                d.push(r.at("preset_id"), "is missing: preset_id and preset_version are always recorded together (a half-stamped preset is rejected)");
                None
            }
        };
        let graph = r
            .raw("graph")
            .and_then(|v| Graph::parse(v, &r.at("graph"), d));
        r.finish(d);

        let recipe = Recipe {
            size,
            resolution,
            seed,
            chunk_cells,
            default_landform,
            landforms,
            default_biome,
            biomes,
            rules,
            layers,
            regions,
            edits,
            exclusions,
            foliage_paint,
            palette,
            graph,
            preset,
            origin: Origin {
                source: String::new(),
                path: path.to_string(),
                dir: None,
            },
        };
        // Checks that need the whole recipe.
        if d.0.len() == start {
            for name in recipe.landform_names() {
                if let Some(shape) = recipe.landform(&name) {
                    check_domain(
                        &shape,
                        recipe.size_f32(),
                        &entry(&member(path, "landforms"), &name),
                        d,
                    );
                }
            }
            for (i, v) in recipe.foliage_paint.iter().enumerate() {
                let Some(f) = v.get("foliage").and_then(Value::as_str) else {
                    continue;
                };
                let known = recipe
                    .palette
                    .as_ref()
                    .is_some_and(|p| p.foliage_type(f).is_some());
                if !known {
                    d.push(
                        format!("{}.foliage", index(&member(path, "foliage_paint"), i)),
                        format!("names foliage type `{f}`, which the palette's `foliage` section does not define"),
                    );
                }
            }
            if let Some(p) = &recipe.palette {
                p.check_budgets(
                    recipe.size_f32(),
                    &crate::scatter::Budgets::default(),
                    &member(path, "palette"),
                    d,
                );
            }
            if let Some(g) = &recipe.graph {
                let ctx = CheckContext {
                    size: recipe.size_f32(),
                    landforms: recipe.landforms_view(),
                };
                g.check(&ctx, &member(path, "graph"), d);
            }
        }
        (d.0.len() == start).then_some(recipe)
    }

    /// Canonical JSON value.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert(
            "size".into(),
            Value::Array(self.size.iter().map(|&x| json_number(x)).collect()),
        );
        m.insert(
            "resolution".into(),
            Value::Array(self.resolution.iter().map(|&x| Value::from(x)).collect()),
        );
        m.insert("seed".into(), Value::from(self.seed));
        if self.chunk_cells != 64 {
            m.insert("chunk_cells".into(), Value::from(self.chunk_cells));
        }
        if self.default_landform != DEFAULT_NAME {
            m.insert(
                "default_landform".into(),
                Value::from(self.default_landform.clone()),
            );
        }
        if let Some(l) = self.landforms_value() {
            m.insert("landforms".into(), l);
        }
        if self.default_biome != DEFAULT_NAME {
            m.insert(
                "default_biome".into(),
                Value::from(self.default_biome.clone()),
            );
        }
        if !self.biomes.is_empty() {
            let mut bm = Map::new();
            for (name, b) in &self.biomes {
                bm.insert(name.clone(), biome_json(b));
            }
            m.insert("biomes".into(), Value::Object(bm));
        }
        if !self.rules.is_empty() {
            m.insert(
                "rules".into(),
                Value::Array(self.rules.iter().map(Rule::to_value).collect()),
            );
        }
        if self.layers != Layer::defaults() {
            m.insert(
                "layers".into(),
                Value::Array(self.layers.iter().map(Layer::to_value).collect()),
            );
        }
        for (key, list) in [
            ("regions", &self.regions),
            ("edits", &self.edits),
            ("exclusions", &self.exclusions),
            ("foliage_paint", &self.foliage_paint),
        ] {
            if !list.is_empty() {
                m.insert(key.into(), Value::Array(list.clone()));
            }
        }
        if let Some(p) = &self.palette {
            m.insert("palette".into(), p.to_value());
        }
        if let Some((id, v)) = &self.preset {
            m.insert("preset_id".into(), Value::from(id.clone()));
            m.insert("preset_version".into(), Value::from(*v));
        }
        if let Some(g) = &self.graph {
            m.insert("graph".into(), g.to_value());
        }
        Value::Object(m)
    }

    /// The canonical default recipe (every field at its default).
    pub fn default_recipe() -> Recipe {
        let mut d = Diagnostics::default();
        Recipe::from_value(&Value::Object(Map::new()), "", &mut d)
            .expect("the empty recipe is valid (checked by a test)")
    }

    /// True when the recipe holds brush strokes (edits, exclusions, regions or foliage paint).
    pub fn has_strokes(&self) -> bool {
        !(self.edits.is_empty()
            && self.exclusions.is_empty()
            && self.regions.is_empty()
            && self.foliage_paint.is_empty())
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

fn parse_biome(v: &Value, path: &str, d: &mut Diagnostics) -> Biome {
    let mut r = ObjectReader::new(path, v, d);
    for key in SHAPE_PARAMS.iter().map(|p| p.name) {
        if r.has(key) {
            let _ = r.raw(key);
            d.push(
                r.at(key),
                format!("`{key}` shapes the ground and belongs to a landform, not a biome; move it to an entry of `landforms` and name that landform in this biome's `landform`"),
            );
        }
    }
    let color = r.numbers::<4>(d, "color", [1.0, 1.0, 1.0, 1.0]);
    for (i, c) in color.iter().enumerate() {
        if !(0.0..=1.0).contains(c) {
            d.push(index(&r.at("color"), i), format!("must be 0..=1, got {c}"));
        }
    }
    let material = r.opt_str(d, "material");
    let texture_scale = r.f64(d, "texture_scale", 1.0, reader::positive);
    let landform = r.opt_str(d, "landform");
    let allow_snow = r.bool(d, "allow_snow", true);
    r.finish(d);
    Biome {
        color,
        material,
        texture_scale,
        landform,
        allow_snow,
    }
}

fn biome_json(b: &Biome) -> Value {
    let mut m = Map::new();
    m.insert(
        "color".into(),
        Value::Array(b.color.iter().map(|&c| json_number(c)).collect()),
    );
    if let Some(mat) = &b.material {
        m.insert("material".into(), Value::from(mat.clone()));
    }
    put_f64(&mut m, "texture_scale", b.texture_scale, Some(1.0));
    if let Some(l) = &b.landform {
        m.insert("landform".into(), Value::from(l.clone()));
    }
    if !b.allow_snow {
        m.insert("allow_snow".into(), Value::from(false));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests;

/// Palette checks against the recipe: every biome a rule names exists.
fn check_palette(
    p: &crate::scatter::Palette,
    path: &str,
    has_biome: &dyn Fn(&str) -> bool,
    d: &mut Diagnostics,
) {
    for rule in &p.rules {
        for (i, b) in rule.biomes.iter().flatten().enumerate() {
            if !has_biome(b) {
                d.push(
                    format!(
                        "{}.biomes[{i}]",
                        entry(&member(path, "placements"), &rule.id)
                    ),
                    format!("names biome \"{b}\", which the recipe's `biomes` does not define"),
                );
            }
        }
    }
    for t in &p.foliage {
        for (i, b) in t.biomes.iter().flatten().enumerate() {
            if !has_biome(b) {
                d.push(
                    format!("{}.biomes[{i}]", entry(&member(path, "foliage"), &t.id)),
                    format!("names biome \"{b}\", which the recipe's `biomes` does not define"),
                );
            }
        }
    }
}
