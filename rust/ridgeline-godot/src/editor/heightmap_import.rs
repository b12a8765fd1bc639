//! The dock's **Import heightmap…**: a file dialog (16/8-bit PNG, R16, R32, seed-002 terrain
//! JSON inside the project), an options dialog prefilled from the file (world size, height
//! range, asset name), then a new terrain asset beside the file whose graph reads it — planned
//! by the core ([`ridgeline_core::formats::heightmap_import`], the same as `ridgeline import`), written
//! atomically and assigned to the edited terrain as one undo step. Nothing is written or
//! changed when the file is missing, corrupt, outside the project, or the asset name is taken.

use super::plugin::RidgelineEditorPlugin;
use crate::resources::terrain_asset::TerrainAsset;
use godot::classes::editor_file_dialog::{Access, FileMode};
use godot::classes::resource_loader::CacheMode;
use godot::classes::{
    ConfirmationDialog, EditorFileDialog, EditorInterface, GridContainer, Label, LineEdit,
    ProjectSettings, ResourceLoader, SpinBox, VBoxContainer,
};
use godot::prelude::*;
use ridgeline_core::formats::heightmap_import::{self as import, ImportOptions, ImportPlan};
use std::path::{Path, PathBuf};

/// The two dialogs, parented to the editor's base control while the plugin lives.
pub(super) struct ImportDialogs {
    file: Gd<EditorFileDialog>,
    options: Gd<ConfirmationDialog>,
    info: Gd<Label>,
    size: [Gd<SpinBox>; 2],
    range: [Gd<SpinBox>; 2],
    /// The raw file's width and depth in samples, with their label (shown for raw files).
    raw: [Gd<SpinBox>; 2],
    raw_label: Gd<Label>,
    asset: Gd<LineEdit>,
    /// The file the options dialog imports (`res://…`).
    picked: String,
    /// Whether the picked file has integer samples (the height range applies).
    integer: bool,
}

fn spin(lo: f64, hi: f64, step: f64) -> Gd<SpinBox> {
    let mut s = SpinBox::new_alloc();
    s.set_min(lo);
    s.set_max(hi);
    s.set_step(step);
    s.set_h_size_flags(godot::classes::control::SizeFlags::EXPAND_FILL);
    s
}

impl ImportDialogs {
    /// Builds both dialogs; their signals call the plugin's `_on_import_*` methods.
    pub(super) fn new(plugin: &Gd<Object>) -> Self {
        let mut file = EditorFileDialog::new_alloc();
        file.set_file_mode(FileMode::OPEN_FILE);
        file.set_access(Access::RESOURCES);
        file.set_title("Import heightmap");
        for (f, d) in [
            ("*.png", "16- or 8-bit greyscale PNG"),
            ("*.r16, *.raw", "Raw 16-bit heights"),
            ("*.r32", "Raw 32-bit float heights"),
            ("*.json", "Seed-002 terrain JSON"),
        ] {
            file.add_filter_ex(f).description(d).done();
        }
        file.connect(
            "file_selected",
            &Callable::from_object_method(plugin, "_on_import_file_selected"),
        );
        let mut options = ConfirmationDialog::new_alloc();
        options.set_title("Import heightmap");
        options.set_ok_button_text("Import");
        let mut page = VBoxContainer::new_alloc();
        let mut info = Label::new_alloc();
        info.set_custom_minimum_size(Vector2::new(360.0, 0.0));
        info.set_autowrap_mode(godot::classes::text_server::AutowrapMode::WORD_SMART);
        page.add_child(&info);
        let mut grid = GridContainer::new_alloc();
        grid.set_columns(3);
        // 0: the default size, one metre per sample (before a raw file's width is known).
        let size = [spin(0.0, 65536.0, 0.001), spin(0.0, 65536.0, 0.001)];
        // Wide: a PNG's embedded range may be 0..65535 (v = h); the node checks the heights.
        let range = [spin(-1.0e6, 1.0e6, 0.01), spin(-1.0e6, 1.0e6, 0.01)];
        let raw = [spin(2.0, 8193.0, 1.0), spin(2.0, 8193.0, 1.0)];
        let mut labels = Vec::new();
        for (text, [a, b], tip) in [
            (
                "Size X / Z (m)",
                &size,
                "World size of the terrain along X and Z (0: one metre per sample)",
            ),
            (
                "Heights min / max (m)",
                &range,
                "Heights of the smallest and largest sample value (PNG, R16)",
            ),
            (
                "Raw width / depth (samples)",
                &raw,
                "Samples per row and rows of the raw file (a raw file does not store them)",
            ),
        ] {
            let mut l = Label::new_alloc();
            l.set_text(text);
            l.set_tooltip_text(tip);
            grid.add_child(&l);
            grid.add_child(a);
            grid.add_child(b);
            labels.push(l);
        }
        let raw_label = labels.pop().expect("three rows were added");
        page.add_child(&grid);
        let mut l = Label::new_alloc();
        l.set_text("New asset (res://…/<name>.terrain.json)");
        page.add_child(&l);
        let asset = LineEdit::new_alloc();
        page.add_child(&asset);
        options.add_child(&page);
        options.connect(
            "confirmed",
            &Callable::from_object_method(plugin, "_on_import_confirmed"),
        );
        let mut base = EditorInterface::singleton()
            .get_base_control()
            .expect("the editor has a base control");
        base.add_child(&file);
        base.add_child(&options);
        Self {
            file,
            options,
            info,
            size,
            range,
            raw,
            raw_label,
            asset,
            picked: String::new(),
            integer: true,
        }
    }

    /// Opens the file dialog.
    pub(super) fn pick_file(&mut self) {
        self.file.popup_file_dialog();
    }

    /// Prefills and opens the options dialog for `file` (planned with the file's defaults).
    pub(super) fn show_options(&mut self, file: &str, plan: &ImportPlan, asset: &str) {
        self.picked = file.to_string();
        self.integer = plan.height_range.is_some();
        let [w, d] = plan.samples;
        let mut text = format!("{file}: {} file, {w} × {d} samples.", plan.format);
        for n in &plan.notes {
            text.push_str(&format!("\n{n}"));
        }
        self.info.set_text(&text);
        for (s, v) in self.size.iter_mut().zip(plan.size) {
            s.set_value_no_signal(v);
        }
        self.show_raw(is_raw(file), [w, d]);
        let [lo, hi] = plan.height_range.unwrap_or([0.0, 0.0]);
        for (s, v) in self.range.iter_mut().zip([lo, hi]) {
            s.set_value_no_signal(v);
            s.set_editable(self.integer);
        }
        self.asset.set_text(asset);
        self.options.popup_centered();
    }

    /// Opens the options dialog for a raw `file` whose width and depth the defaults could not
    /// find (`why`: it is not square): the user gives them; size 0 keeps one metre per sample.
    pub(super) fn show_raw_options(&mut self, file: &str, why: &str, asset: &str) {
        self.picked = file.to_string();
        self.integer = ridgeline_core::nodes::heightmap_format_of(file)
            != Some(ridgeline_core::nodes::HeightmapFormat::R32);
        self.info.set_text(&format!(
            "{why}\nGive the file's width and depth in samples (width × depth × {} bytes).",
            if self.integer { 2 } else { 4 }
        ));
        for s in &mut self.size {
            s.set_value_no_signal(0.0);
        }
        for (s, v) in self.range.iter_mut().zip([0.0, 100.0]) {
            s.set_value_no_signal(v);
            s.set_editable(self.integer);
        }
        self.show_raw(true, [2, 2]);
        self.asset.set_text(asset);
        self.options.popup_centered();
    }

    fn show_raw(&mut self, raw: bool, samples: [usize; 2]) {
        self.raw_label.set_visible(raw);
        for (s, v) in self.raw.iter_mut().zip(samples) {
            s.set_visible(raw);
            s.set_value_no_signal(v as f64);
        }
    }

    /// What the options dialog holds: the file, the asset path and the options.
    pub(super) fn chosen(&self) -> (String, String, VarDictionary) {
        let mut d = VarDictionary::new();
        let size = [self.size[0].get_value(), self.size[1].get_value()];
        // Both 0: the default size; one 0 is passed on and refused with its location.
        if size.iter().any(|&s| s > 0.0) {
            d.set("size", Vector2::new(size[0] as f32, size[1] as f32));
        }
        if self.raw_label.is_visible() {
            d.set(
                "raw_size",
                Vector2i::new(
                    self.raw[0].get_value() as i32,
                    self.raw[1].get_value() as i32,
                ),
            );
        }
        if self.integer {
            d.set(
                "height_range",
                Vector2::new(
                    self.range[0].get_value() as f32,
                    self.range[1].get_value() as f32,
                ),
            );
        }
        (self.picked.clone(), self.asset.get_text().to_string(), d)
    }

    /// Frees both dialogs.
    pub(super) fn free(self) {
        for mut n in [self.file.upcast::<Node>(), self.options.upcast::<Node>()] {
            if let Some(mut p) = n.get_parent() {
                p.remove_child(&n);
            }
            n.queue_free();
        }
    }
}

/// Whether `file` is a raw heightmap (R16 or R32 by the core's extension rule: no stored
/// width or depth).
pub(super) fn is_raw(file: &str) -> bool {
    use ridgeline_core::nodes::HeightmapFormat;
    matches!(
        ridgeline_core::nodes::heightmap_format_of(file),
        Some(HeightmapFormat::R16 | HeightmapFormat::R32)
    )
}

fn globalize(path: &str) -> PathBuf {
    PathBuf::from(
        ProjectSettings::singleton()
            .globalize_path(path)
            .to_string(),
    )
}

/// `<folder of file>/<stem>.terrain.json`, or `<stem>_2…` when taken.
pub(super) fn default_asset_path(file: &str) -> String {
    let (dir, name) = match file.rsplit_once('/') {
        Some((d, n)) => (d.to_string(), n),
        None => ("res:/".to_string(), file),
    };
    let stem = name
        .split('.')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or("terrain");
    (1..1000)
        .map(|i| {
            let n = if i == 1 {
                stem.to_string()
            } else {
                format!("{stem}_{i}")
            };
            format!("{dir}/{n}.terrain.json")
        })
        .find(|p| !globalize(p).exists())
        .unwrap_or_else(|| format!("{dir}/{stem}.terrain.json"))
}

/// Reads the options Dictionary (`size`, `height_range`: Vector2; `raw_size`: Vector2i).
fn options_from(d: &VarDictionary) -> Result<ImportOptions, String> {
    let mut o = ImportOptions::default();
    for (k, v) in d.iter_shared() {
        let key = k.to_string();
        let vec2 = || {
            v.try_to::<Vector2>()
                .map(|v| [v.x as f64, v.y as f64])
                .map_err(|_| format!("options.{key}: must be a Vector2, got {v}"))
        };
        match key.as_str() {
            "size" => o.size = Some(vec2()?),
            "height_range" => o.height_range = Some(vec2()?),
            "raw_size" => {
                let s = v
                    .try_to::<Vector2i>()
                    .map_err(|_| format!("options.raw_size: must be a Vector2i, got {v}"))?;
                if s.x < 2 || s.y < 2 {
                    return Err(format!("options.raw_size: must be at least 2 × 2, got {s}"));
                }
                o.raw_size = Some([s.x as usize, s.y as usize]);
            }
            _ => {
                return Err(format!(
                    "options.{key}: unknown option (size, height_range, raw_size)"
                ));
            }
        }
    }
    Ok(o)
}

/// Plans importing `file` (a `res://` path) as `asset` with `options`.
pub(super) fn plan(file: &str, asset: &str, options: &VarDictionary) -> Result<ImportPlan, String> {
    let o = options_from(options)?;
    if !asset.starts_with("res://") {
        return Err(format!(
            "{asset}: the new asset must be inside the project (res://…/<name>.terrain.json)"
        ));
    }
    let dir = Path::new(asset).parent().map(|p| p.display().to_string());
    if let Some(dir) = dir.filter(|d| !globalize(d).is_dir()) {
        return Err(format!("{asset}: the folder {dir} does not exist"));
    }
    // Messages name project files the way the editor does (res://…).
    let root = globalize("res://").display().to_string();
    let root = root.trim_end_matches('/');
    import::plan(&globalize(file), &globalize(asset), &o)
        .map_err(|e| e.replace(&format!("{root}/"), "res://"))
}

impl RidgelineEditorPlugin {
    /// Writes `plan` as `asset` (never over an existing file), loads it and assigns it to the
    /// edited terrain as one undo step.
    pub(super) fn import_planned(
        &mut self,
        file: &str,
        asset: &str,
        plan: &ImportPlan,
    ) -> Result<(), String> {
        let Some(terrain) = self.terrain.clone() else {
            return Err("select a Terrain3D to import a heightmap into".into());
        };
        let path = globalize(asset);
        if path.exists() {
            return Err(format!(
                "{asset} already exists; choose another name (an import never overwrites an asset)"
            ));
        }
        ridgeline_core::fsio::write_atomic(&path, plan.document.to_canonical_json().as_bytes())
            .map_err(|e| e.to_string())?;
        let loaded = ResourceLoader::singleton()
            .load_ex(asset)
            .cache_mode(CacheMode::REPLACE)
            .done()
            .and_then(|r| r.try_cast::<TerrainAsset>().ok());
        let Some(new_asset) = loaded else {
            let _ = std::fs::remove_file(&path);
            return Err(format!(
                "{asset}: written but could not be loaded; removed it"
            ));
        };
        if let Some(mut fs) = EditorInterface::singleton().get_resource_filesystem() {
            fs.update_file(asset);
        }
        let Some(mut ur) = self.base().get_undo_redo() else {
            return Err("the editor's undo history is not available".into());
        };
        let target: Gd<Object> = terrain.clone().upcast();
        let (old_asset, old_recipe) = (target.get("asset"), target.get("recipe"));
        ur.create_action_ex(&format!("Import heightmap {file}"))
            .custom_context(&target)
            .done();
        ur.add_do_method(
            &target,
            "set_source",
            &[new_asset.to_variant(), GString::new().to_variant()],
        );
        ur.add_undo_method(&target, "set_source", &[old_asset, old_recipe]);
        ur.commit_action();
        let [w, d] = plan.samples;
        let mut text = format!(
            "Imported {file} as {asset}: {} × {} m, {w} × {d} samples.",
            plan.size[0], plan.size[1]
        );
        for n in &plan.notes {
            text.push(' ');
            text.push_str(n);
            text.push('.');
        }
        self.show_message(&text, false);
        Ok(())
    }
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Imports a heightmap file (`res://…`: 16/8-bit PNG, R16, R32 or seed-002 terrain JSON) into
    /// the edited terrain, as **Import heightmap…** in the dock does: writes a new terrain asset
    /// `asset_path` (`res://…/<name>.terrain.json`; empty = beside the file, named after it)
    /// whose graph reads the file, and assigns it to the terrain as one undo step. `options`:
    /// `size` (Vector2, metres; default the file's extent or one metre per pixel),
    /// `height_range` (Vector2: heights of the smallest and largest sample value, PNG and R16;
    /// default the range the file embeds, else 0..100) and `raw_size` (Vector2i samples, raw
    /// files that are not square). Returns false, with the reason in [method get_message], when
    /// no terrain is selected, the file is missing, corrupt or outside the project, an option is
    /// invalid or the asset exists — then nothing is written or changed.
    #[func]
    pub fn import_heightmap(
        &mut self,
        file: GString,
        asset_path: GString,
        options: VarDictionary,
    ) -> bool {
        let file = file.to_string();
        let asset = match asset_path.to_string() {
            a if a.is_empty() => super::heightmap_import::default_asset_path(&file),
            a => a,
        };
        let result = crate::convert::panic_guard::catch(|| {
            let plan = super::heightmap_import::plan(&file, &asset, &options)?;
            self.import_planned(&file, &asset, &plan)
        });
        match result.unwrap_or_else(|e| Err(format!("import_heightmap: {e}"))) {
            Ok(()) => true,
            Err(e) => {
                self.show_message(&format!("Import failed, nothing changed: {e}"), true);
                false
            }
        }
    }

    /// Dock: **Import heightmap…** was pressed.
    #[func]
    fn _on_import_pressed(&mut self) {
        if let Some(d) = &mut self.import {
            d.pick_file();
        }
    }

    /// The import file dialog picked `path`: prefill the options dialog from the file.
    #[func]
    fn _on_import_file_selected(&mut self, path: GString) {
        let file = path.to_string();
        let asset = super::heightmap_import::default_asset_path(&file);
        match super::heightmap_import::plan(&file, &asset, &VarDictionary::new()) {
            Ok(plan) => {
                if let Some(d) = &mut self.import {
                    d.show_options(&file, &plan, &asset);
                }
            }
            // A raw file that is not square: ask for its width and depth.
            Err(e)
                if super::heightmap_import::is_raw(&file)
                    && e.ends_with(import::RAW_SIZE_NEEDED) =>
            {
                if let Some(d) = &mut self.import {
                    d.show_raw_options(&file, &e, &asset);
                }
            }
            Err(e) => self.show_message(&format!("Cannot import: {e}"), true),
        }
    }

    /// The import options dialog was confirmed.
    #[func]
    fn _on_import_confirmed(&mut self) {
        if let Some((file, asset, options)) = self.import.as_ref().map(|d| d.chosen()) {
            self.import_heightmap(file.as_str().into(), asset.as_str().into(), options);
        }
    }
}
