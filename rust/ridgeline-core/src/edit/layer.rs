//! Layers: named, toggleable groups of strokes (the generation layer exists exactly once).

use serde_json::{Map, Value};

/// Layer kinds ("groups"). The generation layer exists exactly once.
pub const LAYER_KINDS: [&str; 5] = ["generation", "biomes", "sculpt", "protection", "exclusions"];

/// A named, toggleable layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// One of [`LAYER_KINDS`].
    pub kind: String,
    /// Disabled layers keep their strokes but are not evaluated.
    pub enabled: bool,
}

impl Layer {
    /// The five default layers.
    pub fn defaults() -> Vec<Layer> {
        LAYER_KINDS
            .iter()
            .map(|k| Layer {
                id: k.to_string(),
                name: k.to_string(),
                kind: k.to_string(),
                enabled: true,
            })
            .collect()
    }

    /// Canonical JSON.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), Value::from(self.id.clone()));
        m.insert("name".into(), Value::from(self.name.clone()));
        m.insert("kind".into(), Value::from(self.kind.clone()));
        if !self.enabled {
            m.insert("enabled".into(), Value::from(false));
        }
        Value::Object(m)
    }
}
