//! The recipe settings the Terrain Graph's settings panel edits beside the graph: size,
//! resolution, seed, chunk size, landforms, biomes, layers and rules.
//!
//! [`Settings`] is a view of those keys of one recipe as JSON (every key present, a few
//! optional fields filled with their defaults so they can be edited); edits address a value by
//! a [`Path`] (`["biomes", "forest", "color"]`, `["rules", 0, "slope"]`). Nothing here is a
//! copy of the recipe: [`Recipe::with_settings`] puts the view back into the same recipe
//! (strokes, palette, preset stamp and graph kept) and validates it as a whole, so a refused
//! edit names the field and the recipe stays as it was.

use super::{DEFAULT_NAME, Layer, Recipe};
use crate::error::{Diagnostics, Error, Result};
use serde_json::{Map, Value};

/// The recipe keys the settings panel edits, in display order.
pub const KEYS: [&str; 10] = [
    "size",
    "resolution",
    "seed",
    "chunk_cells",
    "default_landform",
    "landforms",
    "default_biome",
    "biomes",
    "layers",
    "rules",
];

/// One step of a [`Path`]: an object member or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// Where a value sits inside [`Settings`].
pub type Path = Vec<Step>;

/// Parses a path from its JSON form (`["rules", 0, "slope"]`).
pub fn path_from_json(v: &Value) -> Option<Path> {
    v.as_array()?
        .iter()
        .map(|s| match s {
            Value::String(k) => Some(Step::Key(k.clone())),
            Value::Number(_) => crate::doc::reader::whole_u64(s)
                .and_then(|i| usize::try_from(i).ok())
                .map(Step::Index),
            _ => None,
        })
        .collect()
}

/// The JSON form of a path.
pub fn path_to_json(p: &[Step]) -> Value {
    Value::Array(
        p.iter()
            .map(|s| match s {
                Step::Key(k) => Value::from(k.clone()),
                Step::Index(i) => Value::from(*i),
            })
            .collect(),
    )
}

/// A path as the recipe's located messages write it (`recipe.rules[0].slope`).
pub fn path_label(p: &[Step]) -> String {
    let mut s = String::from("recipe");
    for step in p {
        match step {
            Step::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// The settings of one recipe (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    values: Map<String, Value>,
}

impl Recipe {
    /// The `layers` entry of [`Recipe::settings`] on its own, without writing the rest of the
    /// recipe (strokes included): cheap enough to compare after every stroke.
    pub fn layers_setting(&self) -> Value {
        Value::Array(self.layers.iter().map(Layer::to_value).collect())
    }

    /// This recipe's settings, every key present (defaults filled in).
    pub fn settings(&self) -> Settings {
        let Value::Object(mut all) = self.to_value() else {
            return Settings { values: Map::new() };
        };
        let mut values = Map::new();
        for key in KEYS {
            if key == "layers" {
                values.insert(key.to_string(), self.layers_setting());
                continue;
            }
            let v = all.remove(key).unwrap_or_else(|| match key {
                "chunk_cells" => Value::from(self.chunk_cells),
                "default_landform" | "default_biome" => Value::from(DEFAULT_NAME),
                "rules" => Value::Array(Vec::new()),
                _ => Value::Object(Map::new()),
            });
            values.insert(key.to_string(), v);
        }
        if let Some(Value::Object(biomes)) = values.get_mut("biomes") {
            for b in biomes.values_mut() {
                fill(
                    b,
                    &[("texture_scale", 1.0.into()), ("allow_snow", true.into())],
                );
            }
        }
        if let Some(Value::Array(rules)) = values.get_mut("rules") {
            for r in rules {
                fill(r, &[("priority", 0.into()), ("blend", 0.into())]);
            }
        }
        Settings { values }
    }

    /// This recipe with `settings` in place of its own, validated as a whole (strokes, palette,
    /// preset stamp and graph kept; a painted region naming a missing biome, a stroke naming a
    /// missing layer or a graph node naming a missing landform is refused, located). A grid
    /// change carries the strokes over as they are: the caller stages the keep-or-clear
    /// decision (`pipeline::compact::needs_regrid_decision`). `self` is unchanged either way.
    pub fn with_settings(&self, settings: &Settings) -> Result<Recipe> {
        let Value::Object(mut m) = self.to_value() else {
            return Err(Error::invalid("recipe", "must be an object"));
        };
        for key in KEYS {
            m.remove(key);
        }
        for (k, v) in &settings.values {
            m.insert(k.clone(), v.clone());
        }
        let merged = Value::Object(m);
        let mut d = Diagnostics::default();
        match Recipe::from_value(&merged, "recipe", &mut d) {
            Some(mut r) if d.is_empty() => {
                if let Some(dir) = self.source_dir() {
                    r.set_source_dir(dir.to_path_buf());
                }
                Ok(r)
            }
            _ => {
                if d.is_empty() {
                    d.push("recipe", "the settings give an invalid recipe");
                }
                Err(Error::Invalid(d.0))
            }
        }
    }
}

fn fill(v: &mut Value, defaults: &[(&str, Value)]) {
    if let Value::Object(m) = v {
        for (k, d) in defaults {
            m.entry(k.to_string()).or_insert_with(|| d.clone());
        }
    }
}

impl Settings {
    /// The value of a top-level key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.values.get(key)
    }

    /// Every key and value, in [`KEYS`] order.
    pub fn entries(&self) -> Vec<(&'static str, &Value)> {
        KEYS.iter()
            .filter_map(|k| self.values.get(*k).map(|v| (*k, v)))
            .collect()
    }

    /// These settings' edits since `base` put over `current`: every top-level key whose value
    /// differs from `base` is taken from these settings, every other key from `current`. The
    /// Terrain Graph's settings panel edits a copy of the source's settings taken when it was
    /// opened (`base`); the dock edits the source's layers meanwhile (`current`), and Apply
    /// must keep both.
    pub fn rebased(&self, base: &Settings, current: &Settings) -> Settings {
        let mut values = current.values.clone();
        for key in KEYS {
            match self.values.get(key) {
                mine if mine == base.values.get(key) => {}
                Some(v) => {
                    values.insert(key.to_string(), v.clone());
                }
                None => {
                    values.remove(key);
                }
            }
        }
        Settings { values }
    }

    /// The whole view as one JSON object.
    pub fn to_value(&self) -> Value {
        Value::Object(self.values.clone())
    }

    /// The value at `path`.
    pub fn at(&self, path: &[Step]) -> Option<&Value> {
        let (first, rest) = path.split_first()?;
        let Step::Key(k) = first else { return None };
        let mut v = self.values.get(k)?;
        for step in rest {
            v = match (step, v) {
                (Step::Key(k), Value::Object(m)) => m.get(k)?,
                (Step::Index(i), Value::Array(a)) => a.get(*i)?,
                _ => return None,
            };
        }
        Some(v)
    }

    fn at_mut(&mut self, path: &[Step]) -> Result<&mut Value> {
        let missing = || Error::invalid(path_label(path), "no such setting");
        let (first, rest) = path.split_first().ok_or_else(missing)?;
        let Step::Key(k) = first else {
            return Err(missing());
        };
        let mut v = self.values.get_mut(k).ok_or_else(missing)?;
        for step in rest {
            v = match (step, v) {
                (Step::Key(k), Value::Object(m)) => m.get_mut(k).ok_or_else(missing)?,
                (Step::Index(i), Value::Array(a)) => a.get_mut(*i).ok_or_else(missing)?,
                _ => return Err(missing()),
            };
        }
        Ok(v)
    }

    /// Replaces the value at `path` (which must exist).
    pub fn set(&mut self, path: &[Step], value: Value) -> Result<()> {
        *self.at_mut(path)? = value;
        Ok(())
    }

    /// Sets the value at `path` from text typed over it, read as the kind of value already
    /// there: a number, `true`/`false`, a string, or a list of numbers (`0.4, 0.6, 0.3, 1`).
    pub fn set_text(&mut self, path: &[Step], text: &str) -> Result<()> {
        let old = self
            .at(path)
            .ok_or_else(|| Error::invalid(path_label(path), "no such setting"))?;
        let value = parse_like(old, text.trim())
            .map_err(|why| Error::invalid(path_label(path), format!("`{text}`: {why}")))?;
        self.set(path, value)
    }

    /// Removes the list element or object member at `path`; top-level keys cannot be removed.
    pub fn remove(&mut self, path: &[Step]) -> Result<()> {
        let label = path_label(path);
        let (last, parent) = path
            .split_last()
            .filter(|(_, p)| !p.is_empty())
            .ok_or_else(|| Error::invalid(&label, "a top-level setting cannot be removed"))?;
        match (self.at_mut(parent)?, last) {
            (Value::Array(a), Step::Index(i)) if *i < a.len() => {
                a.remove(*i);
                Ok(())
            }
            (Value::Object(m), Step::Key(k)) if m.contains_key(k) => {
                m.remove(k);
                Ok(())
            }
            _ => Err(Error::invalid(label, "no such entry")),
        }
    }

    /// Adds an entry to the list or named collection at `path`: a copy of its last entry (a
    /// named one under a fresh name), or a starting entry when it is empty. Returns the new
    /// entry's path.
    pub fn add(&mut self, path: &[Step]) -> Result<Path> {
        let label = path_label(path);
        let top = match path.first() {
            Some(Step::Key(k)) => k.clone(),
            _ => String::new(),
        };
        let default_biome = self
            .values
            .get("default_biome")
            .and_then(Value::as_str)
            .unwrap_or(DEFAULT_NAME)
            .to_string();
        let default_landform = self
            .values
            .get("default_landform")
            .and_then(Value::as_str)
            .unwrap_or(DEFAULT_NAME)
            .to_string();
        let mut out = path.to_vec();
        match self.at_mut(path)? {
            Value::Array(a) => {
                let entry = match a.last() {
                    Some(last) => renumbered(last, a.len()),
                    None => starter(&top, &default_biome, 0)
                        .ok_or_else(|| Error::invalid(&label, "cannot add an entry here"))?,
                };
                out.push(Step::Index(a.len()));
                a.push(entry);
            }
            Value::Object(m) => {
                let (base, entry) = match m.iter().next_back() {
                    Some((k, v)) => (k.clone(), v.clone()),
                    None => {
                        // The first entry takes the default's name, so the default stays valid.
                        let base = if top == "landforms" {
                            &default_landform
                        } else {
                            &default_biome
                        };
                        let v = starter(&top, &default_biome, 0)
                            .ok_or_else(|| Error::invalid(&label, "cannot add an entry here"))?;
                        (base.clone(), v)
                    }
                };
                let name = if m.contains_key(&base) {
                    fresh_name(m, &base)
                } else {
                    base
                };
                out.push(Step::Key(name.clone()));
                m.insert(name, entry);
            }
            _ => {
                return Err(Error::invalid(
                    label,
                    "only lists and named collections grow",
                ));
            }
        }
        Ok(out)
    }

    /// Renames the named entry at `path` (a landform or biome) to `name`; the defaults, rules
    /// and other entries naming it follow.
    pub fn rename(&mut self, path: &[Step], name: &str) -> Result<Path> {
        let label = path_label(path);
        let [Step::Key(top), Step::Key(old)] = path else {
            return Err(Error::invalid(
                label,
                "only landforms and biomes are renamed",
            ));
        };
        if top != "landforms" && top != "biomes" {
            return Err(Error::invalid(
                label,
                "only landforms and biomes are renamed",
            ));
        }
        let name = name.trim();
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            return Err(Error::invalid(
                label,
                format!("`{name}`: a name is letters, digits, `_` and `-`"),
            ));
        }
        let Some(Value::Object(m)) = self.values.get_mut(top) else {
            return Err(Error::invalid(label, "no such entry"));
        };
        if name == old {
            return Ok(path.to_vec());
        }
        if m.contains_key(name) {
            return Err(Error::invalid(label, format!("`{name}` already exists")));
        }
        let v = m
            .remove(old)
            .ok_or_else(|| Error::invalid(&label, "no such entry"))?;
        m.insert(name.to_string(), v);
        let (default_key, referrer, field) = if top == "landforms" {
            ("default_landform", "biomes", "landform")
        } else {
            ("default_biome", "rules", "biome")
        };
        if self.values.get(default_key).and_then(Value::as_str) == Some(old) {
            self.values.insert(default_key.into(), Value::from(name));
        }
        let rename_in = |v: &mut Value| {
            if let Some(f) = v.get_mut(field)
                && f.as_str() == Some(old)
            {
                *f = Value::from(name);
            }
        };
        match self.values.get_mut(referrer) {
            Some(Value::Object(m)) => m.values_mut().for_each(rename_in),
            Some(Value::Array(a)) => a.iter_mut().for_each(rename_in),
            _ => {}
        }
        Ok(vec![Step::Key(top.clone()), Step::Key(name.to_string())])
    }
}

/// A one-line description of the setting at `path` (the panel's tooltips), from the recipe
/// reference (`docs/recipe.md`) and the landform parameters' own docs.
pub fn help(path: &[Step]) -> Option<String> {
    let key = |i: usize| match path.get(i) {
        Some(Step::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    let text = match (key(0)?, path.len()) {
        ("size", 1) => "Terrain extent in metres along X and Z (at most 65536)",
        ("resolution", 1) => "Cells along X and Z; vertices are cells + 1",
        ("seed", 1) => {
            "Seed of every random choice (noise, erosion, scatter); same seed, same terrain"
        }
        ("chunk_cells", 1) => "Cells per chunk side (meshing, LOD, incremental updates)",
        ("default_landform", 1) => "The landform used where no biome selects another",
        ("landforms", 1) => {
            "Named terrain shapes (noise relief); + adds one, × removes one, the name is editable"
        }
        ("default_biome", 1) => "The biome where no rule or painted region applies",
        ("biomes", 1) => {
            "Named surfaces: colour, material, texture scale, landform, snow; + adds, × removes, the name is editable"
        }
        ("layers", 1) => "Edit layers strokes go to (exactly one generation layer)",
        ("rules", 1) => {
            "Biome rules: where a biome applies by elevation, slope, moisture, water distance, substrate"
        }
        ("landforms", 3) => {
            let name = key(2)?;
            let spec = crate::landform::SHAPE_PARAMS
                .iter()
                .find(|p| p.name == name)?;
            return Some(if spec.unit.is_empty() {
                spec.doc.to_string()
            } else {
                format!("{} ({})", spec.doc, spec.unit)
            });
        }
        ("biomes", 3) => match key(2)? {
            "color" => "RGBA, each 0..1",
            "material" => "A material resource path",
            "texture_scale" => "Texture repetitions per terrain-local unit (> 0)",
            "landform" => {
                "The landform this biome selects where it is painted and there is no graph"
            }
            "allow_snow" => "Whether automatic snow may cover this biome",
            _ => return None,
        },
        ("rules", 3) => match key(2)? {
            "id" => "The rule's id (unique)",
            "biome" => "The biome this rule applies",
            "layer" => "A biome layer the rule belongs to (disabled layers drop their rules)",
            "priority" => "Higher priority wins a conflict",
            "blend" => "Blend strength (≥ 0): on equal priority the stronger rule wins",
            "elevation" => "Elevation band [min, max] in metres",
            "slope" => "Slope band [min, max] in degrees (0..90)",
            "moisture" => "Moisture band [min, max] (0..1)",
            "water_distance" => "Distance to water band [min, max] in terrain-local units",
            "substrate" => "Any of soil, rock, sand, wet (comma separated)",
            _ => return None,
        },
        ("layers", 3) => match key(2)? {
            "id" => "The layer's id (strokes name it)",
            "name" => "The name shown in the Layers panel",
            "kind" => "generation, biomes, sculpt, protection or exclusions",
            "enabled" => "A disabled layer's strokes and rules are skipped",
            _ => return None,
        },
        _ => return None,
    };
    Some(text.to_string())
}

fn fresh_name(m: &Map<String, Value>, base: &str) -> String {
    let stem = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_');
    let stem = if stem.is_empty() { "entry" } else { stem };
    (2..)
        .map(|i| format!("{stem}_{i}"))
        .find(|n| !m.contains_key(n))
        .unwrap_or_else(|| format!("{stem}_x"))
}

/// A copy of a list entry; its `id` (rules, layers) made unique by the list length.
fn renumbered(last: &Value, len: usize) -> Value {
    let mut v = last.clone();
    if let Some(Value::String(id)) = v.get_mut("id") {
        let stem = id.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_');
        *id = format!(
            "{}_{}",
            if stem.is_empty() { "entry" } else { stem },
            len + 1
        );
    }
    v
}

/// The first entry of an empty collection.
fn starter(top: &str, default_biome: &str, n: usize) -> Option<Value> {
    let v = match top {
        "rules" => serde_json::json!({
            "id": format!("rule_{}", n + 1), "biome": default_biome,
            "priority": 0, "blend": 0, "slope": [0, 90]
        }),
        "layers" => serde_json::json!({
            "id": format!("layer_{}", n + 1), "name": "Layer", "kind": "sculpt"
        }),
        "biomes" => serde_json::json!({
            "color": [0.42, 0.55, 0.3, 1], "texture_scale": 1, "allow_snow": true
        }),
        "landforms" => {
            let mut m = Map::new();
            crate::landform::shape_json(&crate::landform::default_shape(), &mut m);
            Value::Object(m)
        }
        _ => return None,
    };
    Some(v)
}

/// `text` read as the kind of value `old` is.
fn parse_like(old: &Value, text: &str) -> std::result::Result<Value, String> {
    let number = |t: &str| -> std::result::Result<Value, String> {
        let t = t.trim();
        if let Ok(u) = t.parse::<u64>() {
            return Ok(Value::from(u));
        }
        if let Ok(i) = t.parse::<i64>() {
            return Ok(Value::from(i));
        }
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(serde_json::Number::from_f64(x)
                .map(Value::Number)
                .unwrap_or(Value::Null)),
            Ok(_) => Err("not a finite number".into()),
            Err(_) => Err("not a number".into()),
        }
    };
    match old {
        Value::Number(_) => number(text),
        Value::Bool(_) => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err("expected true or false".into()),
        },
        Value::String(_) => Ok(Value::from(text)),
        Value::Array(a) if a.iter().all(Value::is_number) => {
            let t = text.trim_start_matches('[').trim_end_matches(']');
            let items: std::result::Result<Vec<Value>, String> = t
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .map(number)
                .collect();
            let items = items?;
            if !a.is_empty() && items.len() != a.len() {
                return Err(format!("expected {} numbers", a.len()));
            }
            Ok(Value::Array(items))
        }
        Value::Array(a) if a.iter().all(Value::is_string) => Ok(Value::Array(
            text.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(Value::from)
                .collect(),
        )),
        _ => Err("edit the entries below it".into()),
    }
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
