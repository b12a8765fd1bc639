//! The recipe settings panel over the Terrain Graph's canvas: a collapsible panel in the
//! canvas's top-right corner showing the pinned recipe's size, resolution, seed, chunk size,
//! landforms, biomes, layers and rules as a tree of editable rows (the handlers are in
//! [`super::settings_actions`]). It shows the workspace's [`Settings`], which Generate, Preview
//! and Apply put into the same recipe as the graph: there is no second copy.
//! Editor-only: nothing here is registered in games.

use crate::editor::icons::editor_icon;
use godot::builtin::Side;
use godot::classes::control::{LayoutPreset, SizeFlags};
use godot::classes::tree_item::TreeCellMode;
use godot::classes::{
    Button, ConfirmationDialog, HBoxContainer, PanelContainer, StyleBoxFlat, Tree, TreeItem,
    VBoxContainer,
};
use godot::prelude::*;
use ridgeline_core::recipe::Recipe;
use ridgeline_core::recipe::settings::{Path, Settings, Step, help, path_to_json};
use serde_json::Value;
use std::collections::HashSet;

/// Button id of "add an entry" on a collection row.
pub const ADD: i64 = 0;
/// Button id of "remove this entry".
pub const REMOVE: i64 = 1;

/// The panel.
pub struct SettingsPanel {
    /// The panel (a child of the canvas area).
    pub root: Gd<PanelContainer>,
    /// The settings rows.
    pub tree: Gd<Tree>,
    toggle: Gd<Button>,
    /// Asks keep or clear when Apply changes the grid under strokes.
    pub confirm: Gd<ConfirmationDialog>,
    /// Rows the user expanded (path JSON), kept across rebuilds.
    pub expanded: HashSet<String>,
    /// The row to select after the next rebuild (an entry just added or renamed).
    pub focus: Option<Path>,
}

impl SettingsPanel {
    /// Builds the panel, collapsed; signals go to `plugin`.
    pub fn new(plugin: &Gd<Object>) -> SettingsPanel {
        let mut root = PanelContainer::new_alloc();
        root.set_name("RecipeSettings");
        root.set_anchors_preset(LayoutPreset::TOP_RIGHT);
        // Opaque, like the editor's own floating panels: the cards must not show through.
        let mut style = StyleBoxFlat::new_gd();
        style.set_bg_color(Color::from_rgb(0.12, 0.14, 0.18));
        style.set_border_width_all(1);
        style.set_border_color(Color::from_rgba(1.0, 1.0, 1.0, 0.12));
        style.set_corner_radius_all(4);
        style.set_content_margin_all(6.0);
        root.add_theme_stylebox_override("panel", &style);
        let mut column = VBoxContainer::new_alloc();
        let mut head = HBoxContainer::new_alloc();
        let mut toggle = Button::new_alloc();
        toggle.set_name("RecipeSettingsToggle");
        toggle.set_text("Recipe settings");
        toggle.set_toggle_mode(true);
        toggle.set_flat(true);
        toggle.set_h_size_flags(SizeFlags::EXPAND_FILL);
        toggle.set_tooltip_text(
            "Size, resolution, seed, chunk size, landforms, biomes, layers and rules of the \
             pinned recipe. Edits are draft edits: Generate or Preview shows them, Apply writes \
             them with the graph (Undo graph undoes them).",
        );
        toggle.connect(
            "toggled",
            &Callable::from_object_method(plugin, "_on_settings_toggled"),
        );
        head.add_child(&toggle);
        column.add_child(&head);
        let mut tree = Tree::new_alloc();
        tree.set_name("RecipeSettingsTree");
        tree.set_columns(2);
        tree.set_hide_root(true);
        tree.set_column_expand(0, true);
        tree.set_column_expand_ratio(0, 2);
        tree.set_column_expand_ratio(1, 3);
        tree.set_v_size_flags(SizeFlags::EXPAND_FILL);
        tree.set_visible(false);
        for (signal, method) in [
            ("item_edited", "_on_settings_item_edited"),
            ("button_clicked", "_on_settings_button_clicked"),
            ("item_collapsed", "_on_settings_item_collapsed"),
        ] {
            tree.connect(signal, &Callable::from_object_method(plugin, method));
        }
        column.add_child(&tree);
        root.add_child(&column);
        let mut confirm = ConfirmationDialog::new_alloc();
        confirm.set_name("RegridConfirm");
        confirm.set_title("Grid change");
        confirm.set_ok_button_text("Keep strokes");
        confirm
            .add_button_ex("Clear strokes")
            .action("clear_strokes")
            .done();
        confirm.connect(
            "confirmed",
            &Callable::from_object_method(plugin, "_on_settings_regrid_keep"),
        );
        confirm.connect(
            "custom_action",
            &Callable::from_object_method(plugin, "_on_settings_regrid_action"),
        );
        root.add_child(&confirm);
        let mut panel = SettingsPanel {
            root,
            tree,
            toggle,
            confirm,
            expanded: HashSet::new(),
            focus: None,
        };
        panel.set_expanded(false);
        panel
    }

    /// Shows or hides the rows (the header stays; expanded, the panel runs down the canvas).
    pub fn set_expanded(&mut self, open: bool) {
        if self.toggle.is_pressed() != open {
            self.toggle.set_pressed_no_signal(open);
        }
        self.tree.set_visible(open);
        let (w, top, margin) = (380.0, 8.0, 8.0);
        self.root.set_anchor(Side::LEFT, 1.0);
        self.root.set_anchor(Side::RIGHT, 1.0);
        self.root.set_anchor(Side::TOP, 0.0);
        self.root
            .set_anchor(Side::BOTTOM, if open { 1.0 } else { 0.0 });
        self.root.set_offset(Side::LEFT, -w - margin);
        self.root.set_offset(Side::RIGHT, -margin);
        self.root.set_offset(Side::TOP, top);
        self.root
            .set_offset(Side::BOTTOM, if open { -margin } else { top });
        let label = if open {
            "Recipe settings (click to hide)"
        } else {
            "Recipe settings…"
        };
        self.toggle.set_text(label);
    }

    /// Rebuilds the rows from `settings`.
    pub fn show(&mut self, settings: &Settings) {
        // Building emits `item_collapsed` for every folded row: not an edit, and the plugin is
        // busy (bound) while it rebuilds.
        self.tree.set_block_signals(true);
        self.build(settings);
        self.tree.set_block_signals(false);
    }

    fn build(&mut self, settings: &Settings) {
        self.tree.clear();
        let Some(root) = self.tree.create_item() else {
            return;
        };
        let names = |key: &str| -> Vec<String> {
            settings
                .get(key)
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default()
        };
        let choices = Choices {
            landforms: names("landforms"),
            biomes: names("biomes"),
        };
        let mut focus = None;
        for (key, value) in settings.entries() {
            let path = vec![Step::Key(key.to_string())];
            self.row(&root, key, value, &path, &choices, &mut focus);
        }
        if let Some(mut item) = focus {
            item.select(0);
            self.tree.scroll_to_item(&item);
        }
        self.focus = None;
    }

    fn row(
        &mut self,
        parent: &Gd<TreeItem>,
        label: &str,
        value: &Value,
        path: &Path,
        choices: &Choices,
        focus: &mut Option<Gd<TreeItem>>,
    ) {
        let Some(mut item) = self.tree.create_item_ex().parent(parent).done() else {
            return;
        };
        let key = path_to_json(path).to_string();
        item.set_metadata(0, &key.to_variant());
        item.set_text(0, label);
        if let Some(text) = help(path) {
            item.set_tooltip_text(0, &text);
            item.set_tooltip_text(1, &text);
        }
        if self.focus.as_ref() == Some(path) {
            *focus = Some(item.clone());
        }
        let top = match path.first() {
            Some(Step::Key(k)) => k.as_str(),
            _ => "",
        };
        let depth = path.len();
        // Named entries of landforms and biomes: the name is editable (a rename).
        if depth == 2 && (top == "landforms" || top == "biomes") {
            item.set_editable(0, true);
        }
        if depth == 1 && matches!(top, "landforms" | "biomes" | "layers" | "rules") {
            add_button(&mut item, "Add", ADD, &format!("Add to {top}"));
        }
        if depth == 2 && matches!(top, "landforms" | "biomes" | "layers" | "rules") {
            add_button(&mut item, "Remove", REMOVE, "Remove this entry");
        }
        let field = match path.last() {
            Some(Step::Key(k)) => k.as_str(),
            _ => "",
        };
        let options = match (top, depth, field) {
            ("default_landform", 1, _) | ("biomes", 3, "landform") => Some(&choices.landforms),
            ("default_biome", 1, _) | ("rules", 3, "biome") => Some(&choices.biomes),
            _ => None,
        };
        match value {
            Value::Object(m) => {
                item.set_text(1, &summary(top, depth, m.len()));
                item.set_custom_color(1, Color::from_rgba(1.0, 1.0, 1.0, 0.5));
                for (k, v) in m {
                    let mut p = path.clone();
                    p.push(Step::Key(k.clone()));
                    self.row(&item, k, v, &p, choices, focus);
                }
                item.set_collapsed(!self.expanded.contains(&key));
            }
            Value::Array(a)
                if (depth == 1 && matches!(top, "layers" | "rules"))
                    || !a.iter().all(|v| v.is_number() || v.is_string()) =>
            {
                item.set_text(1, &summary(top, depth, a.len()));
                item.set_custom_color(1, Color::from_rgba(1.0, 1.0, 1.0, 0.5));
                for (i, v) in a.iter().enumerate() {
                    let mut p = path.clone();
                    p.push(Step::Index(i));
                    let name = v
                        .get("id")
                        .and_then(Value::as_str)
                        .map_or_else(|| format!("#{i}"), |id| format!("#{i} {id}"));
                    self.row(&item, &name, v, &p, choices, focus);
                }
                item.set_collapsed(!self.expanded.contains(&key));
            }
            Value::Bool(b) => {
                item.set_cell_mode(1, TreeCellMode::CHECK);
                item.set_checked(1, *b);
                item.set_editable(1, true);
            }
            Value::String(s) if options.is_some_and(|o| o.iter().any(|n| n == s)) => {
                let options = options.map(Vec::as_slice).unwrap_or_default();
                item.set_cell_mode(1, TreeCellMode::RANGE);
                item.set_text(1, &options.join(","));
                let at = options.iter().position(|n| n == s).unwrap_or(0);
                item.set_range(1, at as f64);
                item.set_editable(1, true);
            }
            _ => {
                item.set_text(1, &scalar_text(value));
                item.set_editable(1, true);
                if top == "biomes" && field == "color" {
                    swatch(&mut item, value);
                }
            }
        }
    }

    /// Asks keep or clear before Apply changes the grid from `old`'s under its strokes.
    pub fn ask_regrid(&mut self, old: &Recipe, new: &Recipe) {
        let strokes = old.stroke_count();
        self.confirm.set_text(&format!(
            "Apply changes the grid from {} × {} m, {} × {} cells (chunks of {}) to {} × {} m, \
             {} × {} cells (chunks of {}) and the recipe holds {strokes} strokes.\n\n\
             Keep them where they are (they are in terrain units), or clear them?\n\
             Ctrl+Z undoes either.",
            old.size[0],
            old.size[1],
            old.resolution[0],
            old.resolution[1],
            old.chunk_cells,
            new.size[0],
            new.size[1],
            new.resolution[0],
            new.resolution[1],
            new.chunk_cells,
        ));
        self.confirm.popup_centered();
    }

    /// The row at `path`, if shown (tests and tool scripts).
    pub fn item_at(&self, path: &Path) -> Option<Gd<TreeItem>> {
        let key = path_to_json(path).to_string();
        let mut next = self.tree.get_root()?.get_first_child();
        while let Some(item) = next {
            if item
                .get_metadata(0)
                .try_to::<GString>()
                .ok()
                .map(|s| s.to_string())
                == Some(key.clone())
            {
                return Some(item);
            }
            next = item.get_next_in_tree();
        }
        None
    }
}

struct Choices {
    landforms: Vec<String>,
    biomes: Vec<String>,
}

fn add_button(item: &mut Gd<TreeItem>, icon: &str, id: i64, tip: &str) {
    if let Some(tex) = editor_icon(icon) {
        item.add_button_ex(0, &tex)
            .id(id as i32)
            .tooltip_text(tip)
            .done();
    }
}

fn summary(top: &str, depth: usize, n: usize) -> String {
    let noun = match (top, depth) {
        ("landforms", 1) => "landform",
        ("biomes", 1) => "biome",
        ("layers", 1) => "layer",
        ("rules", 1) => "rule",
        _ => "field",
    };
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {noun}{s}")
}

/// A scalar or a list of scalars as the text the row shows and accepts.
pub fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(scalar_text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// Tints the value cell with the colour it holds (a biome's swatch).
fn swatch(item: &mut Gd<TreeItem>, v: &Value) {
    let c: Vec<f32> = v
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_f64)
                .map(|x| x as f32)
                .collect()
        })
        .unwrap_or_default();
    if c.len() >= 3 {
        let color = Color::from_rgb(c[0], c[1], c[2]);
        item.set_custom_bg_color(1, color);
        let dark = color.r * 0.3 + color.g * 0.59 + color.b * 0.11 < 0.5;
        let fg = if dark { Color::WHITE } else { Color::BLACK };
        item.set_custom_color(1, fg);
    }
}
