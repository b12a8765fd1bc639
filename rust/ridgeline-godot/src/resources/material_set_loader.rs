//! Loads `*.material_set.json` documents as [`TerrainMaterialSet`] resources.

use super::material_set::{ROLE_NAMES, TerrainMaterialSet, load_layer};
use super::texture_layer::TerrainTextureLayer;
use crate::convert::panic_guard;
use godot::classes::{FileAccess, IResourceFormatLoader, ResourceFormatLoader};
use godot::global::Error as GdError;
use godot::prelude::*;
use ridgeline_core::mesh::control_map::ROLE_COUNT;

/// Loads material-set documents (`*.material_set.json`) as [TerrainMaterialSet].
///
/// The document binds surface roles to [TerrainTextureLayer] resource paths:
/// [code]{"format_version": 1, "name": "…", "roles": {"ground": "res://materials/soil.tres",
/// …}}[/code]. Each distinct path becomes one layer (in role order). A malformed document, an
/// unknown role or a path that does not load is refused with an error naming the file and the
/// key. Only the `.material_set.json` double extension is recognised; other `.json` files are
/// left to other loaders.
#[derive(GodotClass)]
#[class(tool, init, base = ResourceFormatLoader)]
pub struct TerrainMaterialSetLoader {
    base: Base<ResourceFormatLoader>,
}

fn is_set_path(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".material_set.json")
}

#[godot_api]
impl IResourceFormatLoader for TerrainMaterialSetLoader {
    #[func(gd_self)]
    fn get_recognized_extensions(_this: Gd<Self>) -> PackedStringArray {
        PackedStringArray::from(&[GString::from("json")])
    }

    #[func(gd_self)]
    fn recognize_path(_this: Gd<Self>, path: GString, _type: StringName) -> bool {
        is_set_path(&path.to_string())
    }

    #[func(gd_self)]
    fn handles_type(_this: Gd<Self>, type_: StringName) -> bool {
        type_ == "TerrainMaterialSet" || type_ == "Resource"
    }

    #[func(gd_self)]
    fn get_resource_type(_this: Gd<Self>, path: GString) -> GString {
        if is_set_path(&path.to_string()) {
            GString::from("TerrainMaterialSet")
        } else {
            GString::new()
        }
    }

    #[func(gd_self)]
    fn get_dependencies(_this: Gd<Self>, path: GString, _add_types: bool) -> PackedStringArray {
        let text = FileAccess::get_file_as_string(&path).to_string();
        match parse(&text, &path.to_string()) {
            Ok((_, bindings)) => {
                let mut out: Vec<GString> = Vec::new();
                for p in bindings.iter().flatten() {
                    let g = GString::from(p.as_str());
                    if !out.contains(&g) {
                        out.push(g);
                    }
                }
                PackedStringArray::from(out.as_slice())
            }
            Err(_) => PackedStringArray::new(),
        }
    }

    #[func(gd_self)]
    fn load(
        _this: Gd<Self>,
        path: GString,
        _original_path: GString,
        _use_sub_threads: bool,
        _cache_mode: i32,
    ) -> Variant {
        match panic_guard::catch(|| load_set(&path)) {
            Ok(Ok(set)) => set.to_variant(),
            Ok(Err(code)) => (code.ord() as i64).to_variant(),
            Err(e) => {
                godot_error!("{path}: {e}");
                (GdError::ERR_BUG.ord() as i64).to_variant()
            }
        }
    }
}

/// Role bindings of a document: its name and, per role, the layer path.
type Bindings = (Option<String>, [Option<String>; ROLE_COUNT]);

/// Parses a material-set document; errors are located (`<file>.roles.<role>: …`).
pub fn parse(text: &str, file: &str) -> Result<Bindings, String> {
    use serde_json::Value;
    let v: Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "{file}: is not valid JSON: {e} (line {}, column {})",
            e.line(),
            e.column()
        )
    })?;
    let Some(obj) = v.as_object() else {
        return Err(format!("{file}: must be a JSON object"));
    };
    let mut errors = Vec::new();
    for key in obj.keys() {
        if !["format_version", "name", "roles"].contains(&key.as_str()) {
            errors.push(format!(
                "{file}.{key}: is not a material-set field (format_version, name, roles)"
            ));
        }
    }
    match obj.get("format_version") {
        Some(f) if f.as_u64() == Some(1) => {}
        Some(f) => errors.push(format!("{file}.format_version: must be 1, got {f}")),
        None => errors.push(format!("{file}.format_version: is required (use 1)")),
    }
    let name = match obj.get("name") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            errors.push(format!("{file}.name: must be a string, got {other}"));
            None
        }
    };
    let mut bindings: [Option<String>; ROLE_COUNT] = Default::default();
    match obj.get("roles") {
        Some(Value::Object(roles)) => {
            for (key, value) in roles {
                let Some(role) = ROLE_NAMES.iter().position(|r| r == key) else {
                    errors.push(format!(
                        "{file}.roles.{key}: unknown role; roles are {}",
                        ROLE_NAMES.join(", ")
                    ));
                    continue;
                };
                match value.as_str() {
                    Some(m) if !m.trim().is_empty() => bindings[role] = Some(m.to_string()),
                    _ => errors.push(format!(
                        "{file}.roles.{key}: must be a non-empty material path, got {value}"
                    )),
                }
            }
        }
        Some(other) => errors.push(format!(
            "{file}.roles: must be an object of role → material, got {other}"
        )),
        None => errors.push(format!("{file}.roles: is required: bind at least one role")),
    }
    if errors.is_empty() {
        Ok((name, bindings))
    } else {
        Err(errors.join("\n"))
    }
}

fn load_set(path: &GString) -> Result<Gd<TerrainMaterialSet>, GdError> {
    if !FileAccess::file_exists(path) {
        godot_error!("{path}: cannot open the file");
        return Err(GdError::ERR_FILE_NOT_FOUND);
    }
    let text = FileAccess::get_file_as_string(path).to_string();
    let file = path.to_string();
    let (name, bindings) = parse(&text, &file).map_err(|e| {
        godot_error!("{e}");
        GdError::ERR_PARSE_ERROR
    })?;
    let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
    let mut layers: [Option<Gd<TerrainTextureLayer>>; ROLE_COUNT] = Default::default();
    let mut failed = false;
    for (role, p) in bindings.iter().enumerate() {
        let Some(p) = p else { continue };
        // Paths without a scheme are relative to the document.
        let full = if p.contains("://") || dir.is_empty() {
            p.clone()
        } else {
            format!("{dir}/{p}")
        };
        match load_layer(&full) {
            Ok(l) => layers[role] = Some(l),
            Err(e) => {
                godot_error!("{file}.roles.{}: {e}", ROLE_NAMES[role]);
                failed = true;
            }
        }
    }
    if failed {
        return Err(GdError::ERR_FILE_MISSING_DEPENDENCIES);
    }
    let set = TerrainMaterialSet::from_bindings(name.as_deref(), &layers);
    Ok(set)
}
