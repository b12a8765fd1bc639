//! Writing a recipe: [`Recipe::to_value`], the canonical JSON value (sorted keys, defaults
//! omitted, so load → save is byte-stable).

use super::*;

impl Recipe {
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
