//! Layers, biome rules and brush strokes of a recipe: parsed, validated for shape and references, and
//! round-tripped. (Replaying strokes and applying rules belong to the editing and biome stages.)

use crate::doc::reader::{ObjectReader, index, non_negative, read_numbers, show, type_name};
use crate::doc::write::{json_number, put_f64};
use crate::edit::layer::{LAYER_KINDS, Layer};
use crate::error::Diagnostics;
use serde_json::{Map, Value};

pub(super) fn parse_layers(v: &Value, path: &str, d: &mut Diagnostics) -> Vec<Layer> {
    let Some(arr) = v.as_array() else {
        d.push(
            path,
            format!("must be an array of layers, got {}", type_name(v)),
        );
        return Layer::defaults();
    };
    let mut out: Vec<Layer> = Vec::new();
    for (i, lv) in arr.iter().enumerate() {
        let p = index(path, i);
        let mut r = ObjectReader::new(&p, lv, d);
        let id = r.opt_str(d, "id").unwrap_or_default();
        if id.is_empty() {
            d.push(r.at("id"), "is required and must not be empty");
        } else if out.iter().any(|l| l.id == id) {
            d.push(r.at("id"), format!("duplicate layer id `{id}`"));
        }
        let name = r.opt_str(d, "name").unwrap_or_else(|| id.clone());
        let kind = r.opt_str(d, "kind").unwrap_or_default();
        if !LAYER_KINDS.contains(&kind.as_str()) {
            d.push(
                r.at("kind"),
                format!("must be one of {}, got \"{kind}\"", LAYER_KINDS.join(", ")),
            );
        }
        let enabled = r.bool(d, "enabled", true);
        r.finish(d);
        out.push(Layer {
            id,
            name,
            kind,
            enabled,
        });
    }
    let generation = out.iter().filter(|l| l.kind == "generation").count();
    if generation != 1 {
        d.push(
            path,
            format!("needs exactly one layer of kind \"generation\" (it cannot be removed), found {generation}"),
        );
    }
    out
}

/// Substrates a rule may require.
pub const SUBSTRATES: [&str; 4] = ["soil", "rock", "sand", "wet"];

/// A biome rule: assigns `biome` where every present band contains the sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Optional id.
    pub id: Option<String>,
    /// Target biome.
    pub biome: String,
    /// Target biome layer (default: the first biome layer).
    pub layer: Option<String>,
    /// Higher wins on conflict.
    pub priority: f64,
    /// Transition width (world units) above the elevation band's lower edge.
    pub blend: f64,
    /// Bands: elevation (world height), slope (degrees 0..90), moisture (0..1), water_distance.
    pub bands: Vec<(&'static str, [f64; 2])>,
    /// Allowed substrates (empty = any).
    pub substrate: Vec<String>,
}

const BANDS: [(&str, Option<(f64, f64)>); 4] = [
    ("elevation", None),
    ("slope", Some((0.0, 90.0))),
    ("moisture", Some((0.0, 1.0))),
    ("water_distance", Some((0.0, f64::MAX))),
];

impl Rule {
    /// Canonical JSON (absent bands are omitted, never null).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        if let Some(id) = &self.id {
            m.insert("id".into(), Value::from(id.clone()));
        }
        m.insert("biome".into(), Value::from(self.biome.clone()));
        if let Some(l) = &self.layer {
            m.insert("layer".into(), Value::from(l.clone()));
        }
        put_f64(&mut m, "priority", self.priority, Some(0.0));
        put_f64(&mut m, "blend", self.blend, Some(0.0));
        for (name, [lo, hi]) in &self.bands {
            m.insert(
                (*name).into(),
                Value::Array(vec![json_number(*lo), json_number(*hi)]),
            );
        }
        if !self.substrate.is_empty() {
            m.insert(
                "substrate".into(),
                Value::Array(
                    self.substrate
                        .iter()
                        .map(|s| Value::from(s.clone()))
                        .collect(),
                ),
            );
        }
        Value::Object(m)
    }
}

pub(super) fn parse_rules(
    v: &Value,
    path: &str,
    has_biome: &dyn Fn(&str) -> bool,
    layers: &[Layer],
    d: &mut Diagnostics,
) -> Vec<Rule> {
    let Some(arr) = v.as_array() else {
        d.push(
            path,
            format!("must be an array of rules, got {}", type_name(v)),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, rv) in arr.iter().enumerate() {
        let p = index(path, i);
        let mut r = ObjectReader::new(&p, rv, d);
        let id = r.opt_str(d, "id");
        let biome = r.opt_str(d, "biome").unwrap_or_default();
        if biome.is_empty() {
            d.push(
                r.at("biome"),
                "is required: name the biome this rule assigns",
            );
        } else if !has_biome(&biome) {
            d.push(
                r.at("biome"),
                format!("names biome `{biome}`, which `biomes` does not define"),
            );
        }
        let layer = r.opt_str(d, "layer");
        if let Some(l) = &layer
            && !layers.iter().any(|x| &x.id == l && x.kind == "biomes")
        {
            d.push(
                r.at("layer"),
                format!("names `{l}`, which is not a biome layer"),
            );
        }
        let priority = r.f64(d, "priority", 0.0, |_| None);
        let blend = r.f64(d, "blend", 0.0, non_negative);
        let mut bands = Vec::new();
        for (name, limits) in BANDS {
            if let Some(bv) = r.raw(name) {
                let bp = r.at(name);
                if let Some([lo, hi]) = read_numbers::<2>(&bp, bv, d) {
                    if lo > hi {
                        d.push(&bp, format!("minimum {lo} is above maximum {hi}"));
                    } else if let Some((a, b)) = limits
                        && (lo < a || hi > b)
                    {
                        d.push(&bp, format!("must lie within {a}..={b}, got [{lo}, {hi}]"));
                    } else {
                        bands.push((name, [lo, hi]));
                    }
                }
            }
        }
        let mut substrate = Vec::new();
        if let Some(sv) = r.raw("substrate") {
            match sv.as_array() {
                Some(items) => {
                    for (k, s) in items.iter().enumerate() {
                        match s.as_str() {
                            Some(x) if SUBSTRATES.contains(&x) => substrate.push(x.to_string()),
                            _ => d.push(
                                index(&r.at("substrate"), k),
                                format!(
                                    "must be one of {}, got {}",
                                    SUBSTRATES.join(", "),
                                    show(s)
                                ),
                            ),
                        }
                    }
                }
                None => d.push(
                    r.at("substrate"),
                    format!("must be an array, got {}", type_name(sv)),
                ),
            }
        }
        r.finish(d);
        out.push(Rule {
            id,
            biome,
            layer,
            priority,
            blend,
            bands,
            substrate,
        });
    }
    out
}

/// Validates one list of strokes (through the editing core's parser, the single definition of
/// the stroke shape) and returns them unchanged: canonical order is the stored order; keys are
/// sorted on save. Mask references and protection grids are checked when a terrain is edited.
pub(super) fn parse_strokes(
    v: &Value,
    path: &str,
    list: &str,
    has_biome: &dyn Fn(&str) -> bool,
    layers: &[Layer],
    d: &mut Diagnostics,
) -> Vec<Value> {
    use crate::edit::stroke::{List, ParseContext, Stroke};
    let Some(arr) = v.as_array() else {
        d.push(
            path,
            format!("must be an array of strokes, got {}", type_name(v)),
        );
        return Vec::new();
    };
    let list = match list {
        "edits" => List::Edits,
        "exclusions" => List::Exclusions,
        "foliage_paint" => List::Foliage,
        _ => List::Regions,
    };
    let ctx = ParseContext {
        layers,
        has_biome,
        grid: None,
        masks: None,
    };
    for (i, sv) in arr.iter().enumerate() {
        Stroke::parse(sv, &index(path, i), list, &ctx, d);
    }
    arr.clone()
}

impl super::Recipe {
    /// How many of the recipe's strokes go into layer `id`: a stroke names its layer with
    /// `layer`, else it goes into the first layer of its kind (painted regions: `biomes`,
    /// exclusions: `exclusions`, `protect` strokes: `protection`, other edits: `sculpt`) —
    /// as the edit session evaluates them, enabled or not.
    pub fn strokes_in_layer(&self, id: &str) -> usize {
        let first = |kind: &str| {
            self.layers
                .iter()
                .find(|l| l.kind == kind)
                .map(|l| l.id.as_str())
        };
        let edit_kind = |s: &Value| {
            if s.get("type").and_then(Value::as_str) == Some("protect") {
                "protection"
            } else {
                "sculpt"
            }
        };
        let regions = self.regions.iter().map(|s| (s, "biomes"));
        let exclusions = self.exclusions.iter().map(|s| (s, "exclusions"));
        let edits = self.edits.iter().map(|s| (s, edit_kind(s)));
        regions
            .chain(exclusions)
            .chain(edits)
            .filter(|(s, kind)| match s.get("layer").and_then(Value::as_str) {
                Some(l) => l == id,
                None => first(kind) == Some(id),
            })
            .count()
    }
}
