//! The searchable **Terrain Nodes** palette: every catalogue entry by title with its
//! description; double-click (or **Insert**) inserts at the middle of the view, dragging onto the
//! canvas inserts at the drop point.

use godot::classes::control::SizeFlags;
use godot::classes::{ItemList, Label, LineEdit, VBoxContainer, text_server::AutowrapMode};
use godot::prelude::*;
use serde_json::Value;
use std::collections::HashMap;

/// The drag data key naming the node type.
pub const DRAG_KEY: &str = "ridgeline_node_type";

/// One palette entry.
struct Entry {
    id: String,
    title: String,
    description: String,
    category: String,
}

/// The palette's controls and entries.
pub struct Palette {
    /// The palette column.
    pub root: Gd<VBoxContainer>,
    /// The list of node types.
    pub list: Gd<ItemList>,
    description: Gd<Label>,
    entries: Vec<Entry>,
}

impl Palette {
    /// Builds the palette from the catalogue (registry order).
    pub fn new(plugin: &Gd<Object>, catalog: &HashMap<String, Value>) -> Palette {
        let mut root = VBoxContainer::new_alloc();
        root.set_name("TerrainNodes");
        root.set_custom_minimum_size(Vector2::new(210.0, 0.0));
        let mut head = Label::new_alloc();
        head.set_text("Terrain Nodes");
        root.add_child(&head);
        let mut search = LineEdit::new_alloc();
        search.set_name("PaletteSearch");
        search.set_placeholder("Search nodes…");
        search.set_clear_button_enabled(true);
        search.connect(
            "text_changed",
            &Callable::from_object_method(plugin, "_on_palette_filter"),
        );
        root.add_child(&search);
        let mut list = ItemList::new_alloc();
        list.set_name("Palette");
        list.set_v_size_flags(SizeFlags::EXPAND_FILL);
        list.connect(
            "item_activated",
            &Callable::from_object_method(plugin, "_on_palette_activated"),
        );
        list.connect(
            "item_selected",
            &Callable::from_object_method(plugin, "_on_palette_selected"),
        );
        list.set_drag_forwarding(
            &Callable::from_object_method(plugin, "_palette_drag"),
            &Callable::invalid(),
            &Callable::invalid(),
        );
        root.add_child(&list);
        let mut description = Label::new_alloc();
        description.set_autowrap_mode(AutowrapMode::WORD_SMART);
        description.set_custom_minimum_size(Vector2::new(200.0, 48.0));
        root.add_child(&description);
        root.add_child(&super::workspace::button(
            "Insert",
            "InsertNode",
            "Insert the selected node type in the middle of the view (or double-click it, or drag it onto the canvas)",
            plugin,
            "_on_palette_insert",
        ));
        let entries = ridgeline_core::nodes::REGISTRY
            .iter()
            .filter_map(|s| catalog.get(s.id))
            .map(|e| {
                let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                Entry {
                    id: s("id"),
                    title: s("title"),
                    description: s("description"),
                    category: s("category"),
                }
            })
            .collect();
        let mut p = Palette {
            root,
            list,
            description,
            entries,
        };
        p.filter("");
        p
    }

    /// Shows the entries whose title, description, category or id contain `text`.
    pub fn filter(&mut self, text: &str) {
        let q = text.trim().to_lowercase();
        self.list.clear();
        for e in &self.entries {
            let hay =
                format!("{} {} {} {}", e.title, e.description, e.category, e.id).to_lowercase();
            if !q.is_empty() && !hay.contains(&q) {
                continue;
            }
            let i = self
                .list
                .add_item(&format!("{}  ·  {}", e.title, e.category));
            self.list
                .set_item_tooltip(i, &format!("{}\n{}", e.title, e.description));
            self.list.set_item_metadata(i, &e.id.to_variant());
            if let Some(icon) = category_icon(&e.category) {
                self.list.set_item_icon(i, &icon);
            }
        }
        self.description.set_text("");
    }

    /// The type id of list item `index`.
    pub fn type_at(&self, index: i64) -> Option<String> {
        let i = i32::try_from(index).ok()?;
        if i < 0 || i >= self.list.get_item_count() {
            return None;
        }
        self.list
            .get_item_metadata(i)
            .try_to::<GString>()
            .ok()
            .map(|s| s.to_string())
    }

    /// The selected item's type id.
    pub fn selected(&self) -> Option<String> {
        let sel = self.list.get_selected_items();
        sel.as_slice().first().and_then(|&i| self.type_at(i as i64))
    }

    /// Shows the description of list item `index`.
    pub fn describe(&mut self, index: i64) {
        let text = self
            .type_at(index)
            .and_then(|id| self.entries.iter().find(|e| e.id == id))
            .map(|e| format!("{}: {}", e.title, e.description))
            .unwrap_or_default();
        self.description.set_text(&text);
    }

    /// Drag data for the item at `at` (list coordinates), with a preview.
    pub fn drag_data(&mut self, at: Vector2) -> Variant {
        // The press that starts a drag selects the item under it: fall back to the selection
        // when the list's layout is not known yet (it is computed when drawn).
        let i = self.list.get_item_at_position_ex(at).exact(true).done();
        let Some(id) = self.type_at(i as i64).or_else(|| self.selected()) else {
            return Variant::nil();
        };
        let title = self
            .entries
            .iter()
            .find(|e| e.id == id)
            .map(|e| e.title.clone())
            .unwrap_or_default();
        // Only a drag in progress takes a preview (a direct call, as from a test, has none).
        if self
            .list
            .get_viewport()
            .is_some_and(|v| v.gui_is_dragging())
        {
            let mut preview = Label::new_alloc();
            preview.set_text(&title);
            self.list.set_drag_preview(&preview);
        }
        let mut d = VarDictionary::new();
        d.set(DRAG_KEY, id.as_str());
        d.to_variant()
    }
}

/// The editor icon of a node category (the editor theme's own icons; the generic node icon for
/// a category without one).
pub fn category_icon(category: &str) -> Option<Gd<godot::classes::Texture2D>> {
    let name = match category {
        "generator" => "NoiseTexture2D",
        "mask" => "GradientTexture2D",
        "modifier" => "CurveTexture",
        "simulation" => "GPUParticles3D",
        "water" => "Environment",
        "appearance" => "StandardMaterial3D",
        "placement" => "MultiMeshInstance3D",
        "output" => "MeshInstance3D",
        "notes" => "TextFile",
        _ => "Node",
    };
    crate::editor::icons::editor_icon(name).or_else(|| crate::editor::icons::editor_icon("Node"))
}
