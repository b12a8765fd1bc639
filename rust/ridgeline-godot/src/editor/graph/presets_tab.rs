//! The Presets tab: the built-in landscape presets and the project's `*.preset.json` files with
//! their descriptions; **Apply and generate** asks for confirmation (and, when the grid changes
//! under strokes, whether to keep or clear them), then merges the preset into the pinned
//! terrain's recipe as one scene undo step. Each preset shows a thumbnail of what it generates.

use godot::classes::control::SizeFlags;
use godot::classes::image::Format;
use godot::classes::item_list::IconMode;
use godot::classes::{
    Button, ConfirmationDialog, Image, ImageTexture, ItemList, Label, ProjectSettings,
    VBoxContainer, text_server::AutowrapMode,
};
use godot::prelude::*;
use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::recipe::preset::{self, GridChange, Preset};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The tab's controls and presets.
pub struct PresetsTab {
    /// The tab page.
    pub root: Gd<VBoxContainer>,
    /// The preset list.
    pub list: Gd<ItemList>,
    /// The confirmation dialog.
    pub confirm: Gd<ConfirmationDialog>,
    description: Gd<Label>,
    /// Built-ins, then project presets.
    pub presets: Vec<Preset>,
    /// The dialog's "clear strokes" button (shown when the grid changes under strokes).
    pub clear: Option<Gd<Button>>,
    /// The preset and grid decision the dialog confirms.
    pub pending: Option<(usize, GridChange)>,
    /// Thumbnails by `id@version` (None: the preset has none — too large or failed).
    thumbnails: HashMap<String, Option<Gd<ImageTexture>>>,
}

impl PresetsTab {
    /// Builds the tab; signals go to `plugin`.
    pub fn new(plugin: &Gd<Object>) -> PresetsTab {
        let mut root = VBoxContainer::new_alloc();
        root.set_name("Presets");
        // Presets added to (or removed from) the project since show up when the tab is shown
        // (deferred: the plugin may be the one showing it).
        root.connect_flags(
            "visibility_changed",
            &Callable::from_object_method(plugin, "_on_presets_tab_visibility"),
            godot::classes::object::ConnectFlags::DEFERRED,
        );
        let mut list = ItemList::new_alloc();
        list.set_name("PresetList");
        list.set_v_size_flags(SizeFlags::EXPAND_FILL);
        // A grid of thumbnails with their names below.
        list.set_max_columns(0);
        list.set_icon_mode(IconMode::TOP);
        list.set_same_column_width(true);
        list.set_fixed_column_width(THUMBNAIL as i32 + 48);
        list.set_fixed_icon_size(Vector2i::new(THUMBNAIL as i32, THUMBNAIL as i32));
        list.connect(
            "item_selected",
            &Callable::from_object_method(plugin, "_on_preset_selected"),
        );
        root.add_child(&list);
        let mut description = Label::new_alloc();
        description.set_name("PresetDescription");
        description.set_autowrap_mode(AutowrapMode::WORD_SMART);
        description.set_custom_minimum_size(Vector2::new(0.0, 60.0));
        root.add_child(&description);
        let mut apply = Button::new_alloc();
        apply.set_name("ApplyPreset");
        apply.set_text("Apply and generate");
        apply.set_tooltip_text(
            "Merge the selected preset into the pinned terrain's recipe (strokes are kept) and \
             regenerate; Ctrl+Z undoes it",
        );
        apply.connect(
            "pressed",
            &Callable::from_object_method(plugin, "_on_preset_apply_pressed"),
        );
        root.add_child(&apply);
        let mut confirm = ConfirmationDialog::new_alloc();
        confirm.set_name("PresetConfirm");
        confirm.set_title("Apply preset");
        confirm.connect(
            "confirmed",
            &Callable::from_object_method(plugin, "_on_preset_confirmed"),
        );
        confirm.connect(
            "custom_action",
            &Callable::from_object_method(plugin, "_on_preset_custom_action"),
        );
        let clear = confirm
            .add_button_ex("Apply, clear strokes")
            .right(false)
            .action("clear_strokes")
            .done();
        root.add_child(&confirm);
        let mut tab = PresetsTab {
            root,
            list,
            confirm,
            description,
            presets: Vec::new(),
            clear,
            pending: None,
            thumbnails: HashMap::new(),
        };
        tab.reload();
        tab
    }

    /// Lists the built-ins and the project's presets (broken ones are reported as warnings).
    pub fn reload(&mut self) {
        let was = self
            .selected()
            .and_then(|i| self.presets.get(i))
            .map(|p| p.id.clone());
        self.presets = preset::builtins().unwrap_or_default();
        let project = PathBuf::from(
            ProjectSettings::singleton()
                .globalize_path("res://")
                .to_string(),
        );
        for (id, path) in project_files(&project) {
            match fsio::read_text_bounded(&path, FileKind::Document)
                .map_err(|e| e.to_string())
                .and_then(|t| {
                    Preset::parse(&t, &path.display().to_string(), &id).map_err(|e| e.to_string())
                }) {
                Ok(p) => self.presets.push(p),
                Err(e) => godot_warn!("Ridgeline: preset {id} left out: {e}"),
            }
        }
        self.list.clear();
        for p in &self.presets {
            let builtin = p.id.starts_with("builtin://");
            let i = self.list.add_item(&format!(
                "{}{}",
                p.label,
                if builtin { "" } else { "  (project)" }
            ));
            self.list.set_item_tooltip(i, &p.description);
            self.list.set_item_metadata(i, &p.id.to_variant());
            let key = format!("{}@{}", p.id, p.version);
            if !self.thumbnails.contains_key(&key) {
                let made = thumbnail_of(p);
                self.thumbnails.insert(key.clone(), made);
            }
            if let Some(Some(tex)) = self.thumbnails.get(&key) {
                self.list.set_item_icon(i, tex);
            }
        }
        self.description.set_text("");
        // The preset chosen before stays chosen (and described) when it is still listed.
        if let Some(i) = was.and_then(|id| self.presets.iter().position(|p| p.id == id)) {
            self.list.select(i as i32);
            self.describe(i);
        }
    }

    /// Shows the description of preset `i`.
    pub fn describe(&mut self, i: usize) {
        if let Some(p) = self.presets.get(i) {
            let biomes = p.biome_names().join(", ");
            self.description.set_text(&format!(
                "{}\n{}\nBiomes: {biomes} · id {} · version {}",
                p.label, p.description, p.id, p.version
            ));
        }
    }

    /// The selected preset's index.
    pub fn selected(&self) -> Option<usize> {
        self.list
            .get_selected_items()
            .as_slice()
            .first()
            .and_then(|&i| usize::try_from(i).ok())
    }
}

/// The project's `*.preset.json` files as `(res:// id, path)`, sorted (the core's search, the
/// same `ridgeline presets` uses); a search that fails lists none and says why.
fn project_files(project: &Path) -> Vec<(String, PathBuf)> {
    ridgeline_core::recipe::preset::project_preset_files(project).unwrap_or_else(|e| {
        godot_warn!("Ridgeline presets: {e}");
        Vec::new()
    })
}

/// Thumbnail side in pixels.
const THUMBNAIL: u32 = 96;

/// The preset's thumbnail: what it generates on the default recipe at Preview quality
/// (`ridgeline_core::pipeline::thumbnail`); None (with a warning) when it cannot render.
fn thumbnail_of(p: &Preset) -> Option<Gd<ImageTexture>> {
    let made = p
        .apply(
            &ridgeline_core::recipe::Recipe::default_recipe(),
            GridChange::Ask,
        )
        .and_then(|a| ridgeline_core::pipeline::thumbnail::thumbnail(&a.recipe, THUMBNAIL));
    match made {
        Ok(t) => {
            let size = t.size as i32;
            let bytes = PackedByteArray::from(t.rgba.as_slice());
            let img = Image::create_from_data(size, size, false, Format::RGBA8, &bytes)?;
            ImageTexture::create_from_image(&img)
        }
        Err(e) => {
            godot_warn!("Ridgeline: no thumbnail for preset {}: {e}", p.id);
            None
        }
    }
}
