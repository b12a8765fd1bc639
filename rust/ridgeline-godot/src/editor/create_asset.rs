//! **Create terrain asset…**: for a `Terrain3D` without a source, a dialog (path, size,
//! resolution, seed, chunk size) that writes a new `*.terrain.json` (the default recipe with
//! those values, validated by the core) atomically and assigns it as one undo step.

use super::plugin::RidgelineEditorPlugin;
use crate::resources::terrain_asset::TerrainAsset;
use godot::classes::resource_loader::CacheMode;
use godot::classes::{
    ConfirmationDialog, EditorInterface, GridContainer, Label, LineEdit, ProjectSettings,
    ResourceLoader, SpinBox, VBoxContainer,
};
use godot::prelude::*;
use ridgeline_core::recipe::Document;
use serde_json::json;

/// What the new asset holds.
#[derive(Clone, Debug, PartialEq)]
pub struct NewAsset {
    /// World size X, Z (metres).
    pub size: [f64; 2],
    /// Cells along X, Z.
    pub resolution: [i64; 2],
    /// The recipe's seed.
    pub seed: i64,
    /// Cells per chunk side.
    pub chunk_cells: i64,
}

impl Default for NewAsset {
    fn default() -> Self {
        NewAsset {
            size: [1024.0, 1024.0],
            resolution: [512, 512],
            seed: 1,
            chunk_cells: 64,
        }
    }
}

/// The asset document for `path` (`res://…/<name>.terrain.json`) holding `a`, validated by
/// the core: errors are located (`recipe.resolution: …`).
pub fn document(path: &str, a: &NewAsset) -> Result<Document, String> {
    let name = path
        .strip_prefix("res://")
        .and_then(|p| p.strip_suffix(".terrain.json"))
        .filter(|p| !p.is_empty() && !p.ends_with('/') && !p.contains(".."))
        .ok_or_else(|| {
            format!("the asset path must be res://…/<name>.terrain.json, got `{path}`")
        })?;
    let id: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_/".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let v = json!({
        "format_version": 1,
        "id": format!("asset://terrain/{id}"),
        "recipe": {
            "size": a.size,
            "resolution": a.resolution,
            "seed": a.seed,
            "chunk_cells": a.chunk_cells,
        }
    });
    Document::parse(&v.to_string(), path).map_err(|e| e.to_string())
}

/// The dialog, parented to the editor's base control while the plugin lives.
pub(super) struct CreateDialog {
    dialog: Gd<ConfirmationDialog>,
    path: Gd<LineEdit>,
    size: [Gd<SpinBox>; 2],
    resolution: [Gd<SpinBox>; 2],
    seed: Gd<SpinBox>,
    chunk: Gd<SpinBox>,
}

fn spin(lo: f64, hi: f64, step: f64, value: f64) -> Gd<SpinBox> {
    let mut s = SpinBox::new_alloc();
    s.set_min(lo);
    s.set_max(hi);
    s.set_step(step);
    s.set_value(value);
    s.set_h_size_flags(godot::classes::control::SizeFlags::EXPAND_FILL);
    s
}

impl CreateDialog {
    /// Builds the dialog; **Create** calls the plugin's `_on_create_asset_confirmed`.
    pub(super) fn new(plugin: &Gd<Object>) -> Self {
        let d = NewAsset::default();
        let mut dialog = ConfirmationDialog::new_alloc();
        dialog.set_name("RidgelineCreateTerrainAsset");
        dialog.set_title("Create terrain asset");
        dialog.set_ok_button_text("Create");
        let mut page = VBoxContainer::new_alloc();
        let mut l = Label::new_alloc();
        l.set_text("New asset (res://…/<name>.terrain.json)");
        page.add_child(&l);
        let mut path = LineEdit::new_alloc();
        path.set_custom_minimum_size(Vector2::new(360.0, 0.0));
        page.add_child(&path);
        let mut grid = GridContainer::new_alloc();
        grid.set_columns(3);
        let size = [
            spin(1.0, 65536.0, 0.1, d.size[0]),
            spin(1.0, 65536.0, 0.1, d.size[1]),
        ];
        let resolution = [
            spin(1.0, 16384.0, 1.0, d.resolution[0] as f64),
            spin(1.0, 16384.0, 1.0, d.resolution[1] as f64),
        ];
        for (text, [a, b]) in [("Size X / Z (m)", &size), ("Cells X / Z", &resolution)] {
            let mut l = Label::new_alloc();
            l.set_text(text);
            grid.add_child(&l);
            grid.add_child(a);
            grid.add_child(b);
        }
        let seed = spin(0.0, 4_294_967_295.0, 1.0, d.seed as f64);
        let chunk = spin(8.0, 1024.0, 1.0, d.chunk_cells as f64);
        for (text, s) in [("Seed", &seed), ("Chunk cells", &chunk)] {
            let mut l = Label::new_alloc();
            l.set_text(text);
            grid.add_child(&l);
            grid.add_child(s);
            grid.add_child(&Label::new_alloc());
        }
        page.add_child(&grid);
        dialog.add_child(&page);
        dialog.connect(
            "confirmed",
            &Callable::from_object_method(plugin, "_on_create_asset_confirmed"),
        );
        if let Some(mut base) = EditorInterface::singleton().get_base_control() {
            base.add_child(&dialog);
        }
        Self {
            dialog,
            path,
            size,
            resolution,
            seed,
            chunk,
        }
    }

    /// Opens the dialog with `path` proposed.
    pub(super) fn open(&mut self, path: &str) {
        self.path.set_text(path);
        self.dialog.popup_centered();
    }

    /// The path and options entered.
    pub(super) fn chosen(&self) -> (String, NewAsset) {
        let v = |s: &Gd<SpinBox>| s.get_value();
        (
            self.path.get_text().to_string(),
            NewAsset {
                size: [v(&self.size[0]), v(&self.size[1])],
                resolution: [v(&self.resolution[0]) as i64, v(&self.resolution[1]) as i64],
                seed: v(&self.seed) as i64,
                chunk_cells: v(&self.chunk) as i64,
            },
        )
    }

    /// Frees the dialog (the plugin leaves the tree).
    pub(super) fn free(self) {
        self.dialog.free();
    }
}

/// The first free `res://terrains/terrain[_N].terrain.json`.
fn free_path() -> String {
    let ps = ProjectSettings::singleton();
    (1..1000)
        .map(|i| {
            if i == 1 {
                "res://terrains/terrain.terrain.json".to_string()
            } else {
                format!("res://terrains/terrain_{i}.terrain.json")
            }
        })
        .find(|p| !std::path::Path::new(&ps.globalize_path(p.as_str()).to_string()).exists())
        .unwrap_or_else(|| "res://terrains/terrain.terrain.json".into())
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Creates a terrain asset at `path` (`res://…/<name>.terrain.json`, which must not exist)
    /// from the default recipe with `options` — `size` (Vector2, metres), `resolution`
    /// (Vector2i, cells), `seed` (int), `chunk_cells` (int); missing keys keep the dialog's
    /// defaults (1024 m, 512 cells, seed 1, 64) — writes it atomically and assigns it to the
    /// edited terrain as one undo step, as **Create terrain asset…** does. Returns false, with
    /// the reason in [method get_message], when nothing is selected, the path is taken or
    /// outside the project, a value is invalid or of the wrong type, or a key is unknown;
    /// nothing is written then.
    #[func]
    pub fn create_terrain_asset(&mut self, path: GString, options: VarDictionary) -> bool {
        let a = match new_asset_from(&options) {
            Ok(a) => a,
            Err(e) => {
                self.show_message(&format!("Nothing created: {e}"), true);
                return false;
            }
        };
        match self.create_asset(&path.to_string(), &a) {
            Ok(()) => true,
            Err(e) => {
                self.show_message(&format!("Nothing created: {e}"), true);
                false
            }
        }
    }

    /// Dock: **Create terrain asset…** was pressed.
    #[func]
    fn _on_create_asset_pressed(&mut self) {
        let path = free_path();
        if let Some(d) = &mut self.create_dialog {
            d.open(&path);
        }
    }

    /// The create dialog was confirmed.
    #[func]
    fn _on_create_asset_confirmed(&mut self) {
        if let Some((path, a)) = self.create_dialog.as_ref().map(|d| d.chosen())
            && let Err(e) = self.create_asset(&path, &a)
        {
            self.show_message(&format!("Nothing created: {e}"), true);
        }
    }
}

/// Reads [method RidgelineEditorPlugin.create_terrain_asset]'s options Dictionary over the
/// dialog's defaults; a value of the wrong type or an unknown key is an error naming it.
fn new_asset_from(d: &VarDictionary) -> Result<NewAsset, String> {
    let mut a = NewAsset::default();
    for (k, v) in d.iter_shared() {
        let key = k.to_string();
        let int = || {
            v.try_to::<i64>()
                .map_err(|_| format!("options.{key}: must be an int, got {v}"))
        };
        match key.as_str() {
            "size" => {
                let s = v
                    .try_to::<Vector2>()
                    .map_err(|_| format!("options.size: must be a Vector2 (metres), got {v}"))?;
                a.size = [s.x as f64, s.y as f64];
            }
            "resolution" => {
                let r = v.try_to::<Vector2i>().map_err(|_| {
                    format!("options.resolution: must be a Vector2i (cells), got {v}")
                })?;
                a.resolution = [r.x as i64, r.y as i64];
            }
            "seed" => a.seed = int()?,
            "chunk_cells" => a.chunk_cells = int()?,
            _ => {
                return Err(format!(
                    "options.{key}: unknown option (size, resolution, seed, chunk_cells)"
                ));
            }
        }
    }
    Ok(a)
}

impl RidgelineEditorPlugin {
    fn create_asset(&mut self, path: &str, a: &NewAsset) -> Result<(), String> {
        let Some(terrain) = self.terrain.clone() else {
            return Err("select a Terrain3D first".into());
        };
        let doc = document(path, a)?;
        let global = ProjectSettings::singleton()
            .globalize_path(path)
            .to_string();
        let file = std::path::PathBuf::from(&global);
        if file.exists() {
            return Err(format!("{path} already exists; choose another name"));
        }
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{path}: {e}"))?;
        }
        ridgeline_core::fsio::write_atomic(&file, doc.to_canonical_json().as_bytes())
            .map_err(|e| e.to_string())?;
        let loaded = ResourceLoader::singleton()
            .load_ex(path)
            .cache_mode(CacheMode::REPLACE)
            .done()
            .and_then(|r| r.try_cast::<TerrainAsset>().ok());
        let Some(asset) = loaded else {
            let _ = std::fs::remove_file(&file);
            return Err(format!(
                "{path}: written but could not be loaded; removed it"
            ));
        };
        if let Some(mut fs) = EditorInterface::singleton().get_resource_filesystem() {
            fs.update_file(path);
        }
        let Some(mut ur) = self.base().get_undo_redo() else {
            return Err("the editor's undo history is not available".into());
        };
        let target: Gd<Object> = terrain.upcast();
        let (old_asset, old_recipe) = (target.get("asset"), target.get("recipe"));
        ur.create_action_ex(&format!("Create terrain asset {path}"))
            .custom_context(&target)
            .done();
        ur.add_do_method(
            &target,
            "set_source",
            &[asset.to_variant(), GString::new().to_variant()],
        );
        ur.add_undo_method(&target, "set_source", &[old_asset, old_recipe]);
        ur.commit_action();
        let [x, z] = a.size;
        let [rx, rz] = a.resolution;
        self.show_message(
            &format!(
                "Created {path}: {x} × {z} m, {rx} × {rz} cells, seed {}.",
                a.seed
            ),
            false,
        );
        self.refresh_status();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_asset_document() {
        let doc =
            document("res://terrains/hills.terrain.json", &NewAsset::default()).expect("valid");
        let r = doc.recipe();
        let text = doc.to_canonical_json();
        assert!(text.contains("asset://terrain/terrains/hills"), "{text}");
        assert_eq!(r.seed, 1);
    }

    #[test]
    fn bad_paths_and_values_are_located() {
        for p in [
            "/tmp/x.terrain.json",
            "res://x.json",
            "res://.terrain.json",
            "res://a/../b.terrain.json",
        ] {
            assert!(document(p, &NewAsset::default()).is_err(), "{p}");
        }
        let bad = NewAsset {
            resolution: [0, 16],
            ..NewAsset::default()
        };
        let e = document("res://t.terrain.json", &bad).expect_err("invalid");
        assert!(e.contains("resolution"), "{e}");
    }
}
