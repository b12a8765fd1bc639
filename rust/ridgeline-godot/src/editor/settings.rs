//! Brush settings remembered per project and user, in the editor's project metadata
//! (`.godot/editor/project_metadata.cfg`, section `ridgeline`; not in version control).

use super::tools::{Brush, GROUPS, Group};
use crate::convert::variant_json;
use godot::classes::EditorInterface;
use godot::prelude::*;
use std::collections::HashMap;

const SECTION: &str = "ridgeline";
/// The key of the biome Biome paint paints.
const BIOME_KEY: &str = "biome_paint.biome";
/// The key of the foliage type the Foliage tool paints.
const FOLIAGE_KEY: &str = "foliage_paint.foliage";

/// The remembered brushes (defaults for groups never set).
pub fn load_brushes() -> HashMap<Group, Brush> {
    let mut out = HashMap::new();
    let Some(settings) = EditorInterface::singleton().get_editor_settings() else {
        return out;
    };
    for g in GROUPS {
        let v = settings
            .get_project_metadata_ex(SECTION, g.key())
            .default(&VarDictionary::new().to_variant())
            .done();
        let empty = v.try_to::<VarDictionary>().is_ok_and(|d| d.is_empty());
        let brush = if v.is_nil() || empty {
            Brush::default()
        } else {
            variant_json::to_json(&v, g.key())
                .map(|j| Brush::from_json(&j))
                .unwrap_or_default()
        };
        out.insert(g, brush);
    }
    out
}

/// Remembers `brush` for `group`.
pub fn save_brush(group: Group, brush: &Brush) {
    let Some(mut settings) = EditorInterface::singleton().get_editor_settings() else {
        return;
    };
    let mut d = VarDictionary::new();
    d.set("size", brush.size);
    d.set("strength", brush.strength);
    d.set("falloff", brush.falloff);
    d.set("spacing", brush.spacing);
    d.set("target_height", brush.target_height);
    d.set("slope_min", brush.slope_min);
    d.set("slope_max", brush.slope_max);
    d.set("density", brush.density);
    d.set("water_depth", brush.water_depth);
    d.set("water_level", brush.water_level);
    settings.set_project_metadata(SECTION, group.key(), &d.to_variant());
}

/// The remembered Biome paint biome (empty when none).
pub fn load_biome() -> String {
    load_choice(BIOME_KEY)
}

/// Remembers the Biome paint biome.
pub fn save_biome(name: &str) {
    save_choice(BIOME_KEY, name);
}

/// The remembered foliage type the Foliage tool paints (empty when none).
pub fn load_foliage() -> String {
    load_choice(FOLIAGE_KEY)
}

/// Remembers the foliage type the Foliage tool paints.
pub fn save_foliage(name: &str) {
    save_choice(FOLIAGE_KEY, name);
}

fn load_choice(key: &str) -> String {
    EditorInterface::singleton()
        .get_editor_settings()
        .map(|s| {
            s.get_project_metadata_ex(SECTION, key)
                .default(&"".to_variant())
                .done()
                .try_to::<GString>()
                .map(|g| g.to_string())
                .unwrap_or_default()
        })
        .unwrap_or_default()
}

fn save_choice(key: &str, value: &str) {
    if let Some(mut settings) = EditorInterface::singleton().get_editor_settings() {
        settings.set_project_metadata(SECTION, key, &value.to_variant());
    }
}

/// The remembered brush masks per group (`<group key>.mask`: empty for circle, `square`, or a
/// PNG's `res://` path).
pub fn load_masks() -> HashMap<Group, String> {
    let mut out = HashMap::new();
    let Some(settings) = EditorInterface::singleton().get_editor_settings() else {
        return out;
    };
    for g in GROUPS {
        let v = settings
            .get_project_metadata_ex(SECTION, &format!("{}.mask", g.key()))
            .default(&"".to_variant())
            .done();
        if let Ok(m) = v.try_to::<GString>() {
            out.insert(g, m.to_string());
        }
    }
    out
}

/// Remembers `mask` for `group`.
pub fn save_mask(group: Group, mask: &str) {
    if let Some(mut settings) = EditorInterface::singleton().get_editor_settings() {
        settings.set_project_metadata(
            SECTION,
            &format!("{}.mask", group.key()),
            &mask.to_variant(),
        );
    }
}
