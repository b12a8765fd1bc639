//! The biome rules section of a cooked payload (format 5, optional): what re-resolving biomes
//! and moisture after a runtime sculpt reads ([`BiomeRules`]).
//!
//! `meta.biome_rules` is `{climate_seed, sea_level, layers, rules}`: the recipe's
//! `biome_placement` sub-seed (the climate moisture derives from), its sea level (the inferred
//! sea; optional, 0 when absent), its biome layers (`{id, name, enabled}`, in order) and its
//! biome rules as the recipe writes them. The rules are read back with the
//! recipe's rule parser against the payload's biome table and those layers, so a corrupt rule
//! is refused with the recipe's own located errors under `meta.biome_rules.rules`.
//!
//! Payloads without it (cooked before it was stored) load with no biome rules: their edit
//! sessions keep the cooked biome ids.

use crate::error::{Diagnostic, Error, Result};
use crate::pipeline::scatter_source::BiomeRules;
use crate::recipe::{Layer, Rule};
use serde_json::{Value, json};

const CORRUPT: &str = "the payload is corrupt, cook the terrain again";

/// The `meta.biome_rules` value of `b`.
pub(crate) fn meta(b: &BiomeRules) -> Value {
    let layers: Vec<Value> = b
        .layers
        .iter()
        .map(|l| json!({"id": l.id, "name": l.name, "enabled": l.enabled}))
        .collect();
    let rules: Vec<Value> = b.rules.iter().map(Rule::to_value).collect();
    let mut m = json!({"climate_seed": b.climate_seed, "layers": layers, "rules": rules});
    if let Some(sea) = b.sea_level {
        m["sea_level"] = json!(sea);
    }
    m
}

fn bad(source: &str, path: &str, msg: impl std::fmt::Display) -> Error {
    Error::invalid(
        format!("{source}: meta.biome_rules{path}"),
        format!("{msg}; {CORRUPT}"),
    )
}

/// Reads `meta.biome_rules` of a payload of `version` whose biome table names `biomes`
/// (besides `default_biome`); `None` when absent or the format predates it.
pub(crate) fn read(
    meta: &Value,
    version: u32,
    biomes: &[crate::biome::BiomeSpec],
    default_biome: &str,
    source: &str,
) -> Result<Option<BiomeRules>> {
    if version < super::payload_scatter_source::SINCE_VERSION {
        return Ok(None);
    }
    let Some(v) = meta.get("biome_rules") else {
        return Ok(None);
    };
    let Some(o) = v.as_object() else {
        return Err(bad(source, "", "must be an object"));
    };
    if let Some(k) = o
        .keys()
        .find(|k| !["climate_seed", "sea_level", "layers", "rules"].contains(&k.as_str()))
    {
        return Err(bad(source, &format!(".{k}"), "is not a known key"));
    }
    let climate_seed = o
        .get("climate_seed")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad(source, ".climate_seed", "must be a whole number"))?;
    let sea_level = match o.get("sea_level") {
        None => None,
        Some(v) => match v.as_f64().map(|x| x as f32) {
            Some(x) if x.is_finite() => Some(x),
            _ => return Err(bad(source, ".sea_level", "must be a finite number")),
        },
    };
    let Some(list) = o.get("layers").and_then(Value::as_array) else {
        return Err(bad(source, ".layers", "must be an array of biome layers"));
    };
    let mut layers: Vec<Layer> = Vec::new();
    for (i, l) in list.iter().enumerate() {
        let at = format!(".layers[{i}]");
        let id = l.get("id").and_then(Value::as_str).unwrap_or_default();
        if id.is_empty() || layers.iter().any(|x| x.id == id) {
            return Err(bad(
                source,
                &format!("{at}.id"),
                "must be a unique layer id",
            ));
        }
        let name = l.get("name").and_then(Value::as_str);
        let enabled = l.get("enabled").and_then(Value::as_bool);
        let (Some(name), Some(enabled)) = (name, enabled) else {
            return Err(bad(
                source,
                &at,
                "needs a string `name` and a boolean `enabled`",
            ));
        };
        layers.push(Layer {
            id: id.to_string(),
            name: name.to_string(),
            kind: "biomes".to_string(),
            enabled,
        });
    }
    let Some(rules) = o.get("rules") else {
        return Err(bad(source, ".rules", "is missing"));
    };
    let has_biome = |n: &str| n == default_biome || biomes.iter().any(|b| b.name == n);
    let at = format!("{source}: meta.biome_rules.rules");
    let rules = crate::recipe::parse_rules(rules, &at, &has_biome, &layers).map_err(|e| {
        Error::Invalid(
            e.diagnostics()
                .iter()
                .map(|d| Diagnostic::new(&d.path, format!("{}; {CORRUPT}", d.message)))
                .collect(),
        )
    })?;
    Ok(Some(BiomeRules {
        rules,
        layers,
        climate_seed,
        sea_level,
    }))
}
