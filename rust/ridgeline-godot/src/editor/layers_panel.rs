//! The dock's **Layers** panel: the edited recipe's layers in evaluation order, each with an
//! enable toggle, its name (editable), its stroke count, a target marker for the layer the
//! current tool paints into, and a remove button for user layers; below them, **Add layer**
//! (kind + name). Toggles, renames, additions and removals are one `EditorUndoRedoManager` step
//! each (the terrain's own history records them, see [`crate::terrain::Terrain3D::add_layer`]).
//! The rows are read from the asset's recipe, which every edit writes back, so undo and redo
//! show up on the next `changed` of the asset.

use super::edit_source::{source_of, source_recipe};
use super::plugin::RidgelineEditorPlugin;
use crate::terrain::Terrain3D;
use crate::terrain::layer_kind::LayerKind;
use godot::classes::control::SizeFlags;
use godot::classes::{
    Button, CheckBox, HBoxContainer, Label, LineEdit, OptionButton, VBoxContainer,
};
use godot::prelude::*;

/// One row of the panel.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerRow {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Recipe kind (`sculpt`, …).
    pub kind: String,
    /// Evaluated or not.
    pub enabled: bool,
    /// Strokes that go into it.
    pub strokes: usize,
}

/// The kinds **Add layer** offers, with their labels.
const ADDABLE: [(LayerKind, &str); 4] = [
    (LayerKind::Sculpt, "Sculpt"),
    (LayerKind::Biomes, "Biomes"),
    (LayerKind::Protection, "Protection"),
    (LayerKind::Exclusions, "Exclusions"),
];

/// What the panel shows: rows, why there are none, the target (layer id, kind it writes).
type Shown = (Vec<LayerRow>, Option<String>, Option<(String, String)>);

/// The panel's controls.
pub struct LayersPanel {
    /// The section (title, rows, add row).
    pub root: Gd<VBoxContainer>,
    rows: Gd<VBoxContainer>,
    kind: Gd<OptionButton>,
    name: Gd<LineEdit>,
    /// What the rows show now (they are rebuilt only when this changes).
    shown: Option<Shown>,
}

fn connect(
    object: &mut Gd<impl Inherits<Object>>,
    signal: &str,
    plugin: &Gd<Object>,
    method: &str,
    args: &[Variant],
) {
    let mut call = Callable::from_object_method(plugin, method);
    if !args.is_empty() {
        call = call.bindv(&VarArray::from(args));
    }
    object.clone().upcast::<Object>().connect(signal, &call);
}

impl LayersPanel {
    /// Builds the section; signals go to `plugin`.
    pub fn new(plugin: &Gd<Object>) -> LayersPanel {
        let mut root = VBoxContainer::new_alloc();
        root.set_name("Layers");
        let mut title = Label::new_alloc();
        title.set_text("Layers");
        root.add_child(&title);
        let rows = VBoxContainer::new_alloc();
        root.add_child(&rows);
        let mut add_row = HBoxContainer::new_alloc();
        let mut kind = OptionButton::new_alloc();
        kind.set_name("AddLayerKind");
        for (k, label) in ADDABLE {
            kind.add_item_ex(label).id(k as i32).done();
        }
        add_row.add_child(&kind);
        let mut name = LineEdit::new_alloc();
        name.set_name("AddLayerName");
        name.set_placeholder("New layer name");
        name.set_h_size_flags(SizeFlags::EXPAND_FILL);
        connect(
            &mut name,
            "text_submitted",
            plugin,
            "_on_add_layer_submitted",
            &[],
        );
        add_row.add_child(&name);
        let mut add = Button::new_alloc();
        add.set_name("AddLayer");
        add.set_text("Add");
        add.set_tooltip_text(
            "Add an empty layer of this kind after the others of its kind (undoable)",
        );
        connect(&mut add, "pressed", plugin, "_on_add_layer_pressed", &[]);
        add_row.add_child(&add);
        root.add_child(&add_row);
        LayersPanel {
            root,
            rows,
            kind,
            name,
            shown: None,
        }
    }

    /// The kind and name typed into the add row.
    pub fn add_request(&self) -> (i32, String) {
        (
            self.kind.get_selected_id(),
            self.name.get_text().to_string(),
        )
    }

    /// Rebuilds the rows on the next [`Self::show`] even when nothing shown changed: a refused
    /// toggle or rename left its control showing what was refused.
    pub fn redraw_next(&mut self) {
        self.shown = None;
    }

    /// Clears the name field after a layer was added.
    pub fn clear_name(&mut self) {
        self.name.set_text("");
    }

    /// Shows `rows` (`None`: no editable recipe, with `why`), marking `target` (the current
    /// tool's layer id and the kind it writes) as such. Rebuilds the row controls only when
    /// something shown changed.
    pub fn show(
        &mut self,
        plugin: &Gd<Object>,
        rows: Option<Vec<LayerRow>>,
        why: Option<String>,
        target: Option<(String, String)>,
    ) {
        let shown = (
            rows.clone().unwrap_or_default(),
            why.clone(),
            target.clone(),
        );
        if self.shown.as_ref() == Some(&shown) {
            return;
        }
        self.shown = Some(shown);
        for mut c in self.rows.get_children().iter_shared() {
            self.rows.remove_child(&c);
            c.queue_free();
        }
        let Some(rows) = rows else {
            let mut l = Label::new_alloc();
            l.set_text(why.as_deref().unwrap_or("No layers."));
            l.set_autowrap_mode(godot::classes::text_server::AutowrapMode::WORD_SMART);
            self.rows.add_child(&l);
            return;
        };
        for row in rows {
            self.rows
                .add_child(&row_controls(plugin, &row, target.as_ref()));
        }
    }
}

fn row_controls(
    plugin: &Gd<Object>,
    row: &LayerRow,
    target: Option<&(String, String)>,
) -> Gd<HBoxContainer> {
    let id = row.id.as_str();
    let mut h = HBoxContainer::new_alloc();
    h.set_name(&format!("Layer_{id}"));
    let mut enabled = CheckBox::new_alloc();
    enabled.set_name("Enabled");
    enabled.set_pressed_no_signal(row.enabled);
    enabled.set_tooltip_text(&format!(
        "Evaluate layer `{id}` ({}); a disabled layer keeps its strokes (undoable)",
        row.kind
    ));
    connect(
        &mut enabled,
        "toggled",
        plugin,
        "_on_layer_toggled",
        &[id.to_variant()],
    );
    h.add_child(&enabled);
    let mut mark = Button::new_alloc();
    mark.set_name("Target");
    mark.set_toggle_mode(true);
    mark.set_flat(true);
    let is_target = target.is_some_and(|(t, _)| t == id);
    mark.set_pressed_no_signal(is_target);
    mark.set_text(if is_target { "●" } else { "○" });
    // Only layers the current tool can paint into take the marker.
    let can_target = target.is_some_and(|(_, kind)| *kind == row.kind) && row.enabled;
    mark.set_disabled(!can_target);
    mark.set_tooltip_text(if can_target {
        "Paint the current tool's strokes into this layer"
    } else {
        "The current tool does not paint into this layer (another kind, or disabled)"
    });
    connect(
        &mut mark,
        "pressed",
        plugin,
        "_on_layer_target",
        &[id.to_variant()],
    );
    h.add_child(&mark);
    let mut name = LineEdit::new_alloc();
    name.set_name("Name");
    name.set_text(&row.name);
    name.set_h_size_flags(SizeFlags::EXPAND_FILL);
    name.set_tooltip_text(&format!(
        "Layer `{id}` ({}): Enter renames it (undoable)",
        row.kind
    ));
    connect(
        &mut name,
        "text_submitted",
        plugin,
        "_on_layer_renamed",
        &[id.to_variant()],
    );
    h.add_child(&name);
    let mut count = Label::new_alloc();
    count.set_name("Strokes");
    count.set_text(&format!("{}", row.strokes));
    count.set_tooltip_text("Strokes in this layer");
    h.add_child(&count);
    if !ridgeline_core::edit::LAYER_KINDS.contains(&id) {
        let mut remove = Button::new_alloc();
        remove.set_name("Remove");
        crate::editor::icons::set_icon(&mut remove, "Remove", "Remove");
        remove.set_flat(true);
        remove.set_tooltip_text("Remove this layer (only when it holds no strokes; undoable)");
        connect(
            &mut remove,
            "pressed",
            plugin,
            "_on_layer_remove",
            &[id.to_variant()],
        );
        h.add_child(&remove);
    }
    h
}

/// The edited terrain's layers from its asset's recipe, or why there are none to edit.
pub fn recipe_layers(terrain: &Gd<Terrain3D>) -> Result<Vec<LayerRow>, String> {
    let r = source_recipe(terrain)?;
    Ok(r.layers
        .iter()
        .map(|l| LayerRow {
            id: l.id.clone(),
            name: l.name.clone(),
            kind: l.kind.clone(),
            enabled: l.enabled,
            strokes: r.strokes_in_layer(&l.id),
        })
        .collect())
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Adds a layer to the edited terrain as **Add layer** does (one undo step) and returns its
    /// id; empty with the reason in [method get_message] when the terrain is read-only or the
    /// kind or name is refused (see [method Terrain3D.add_layer]).
    #[func]
    pub fn add_layer(&mut self, kind: LayerKind, name: GString) -> GString {
        let Some(mut t) = self.editable_terrain() else {
            return GString::new();
        };
        let id = t.bind_mut().add_layer(kind, name.clone());
        if id.is_empty() {
            self.show_message(
                &format!("Layer `{name}` was not added (see the Output panel)."),
                true,
            );
        } else {
            self.commit_edit_step(&mut t, &format!("Ridgeline: add layer {name}"));
            self.show_message(&format!("Added layer `{id}`."), false);
            if let Some(d) = &mut self.dock {
                d.layers.clear_name();
            }
        }
        self.refresh_layers();
        id
    }

    /// Enables or disables a layer of the edited terrain as its toggle does (one undo step).
    #[func]
    pub fn set_layer_enabled(&mut self, layer_id: GString, enabled: bool) -> bool {
        let Some(mut t) = self.editable_terrain() else {
            return false;
        };
        let was = recipe_layers(&t)
            .ok()
            .and_then(|rows| rows.into_iter().find(|r| r.id == layer_id.to_string()))
            .map(|r| r.enabled);
        let ok = t.bind_mut().set_layer_enabled(layer_id.clone(), enabled);
        if ok && was != Some(enabled) {
            let verb = if enabled { "enable" } else { "disable" };
            self.commit_edit_step(&mut t, &format!("Ridgeline: {verb} layer {layer_id}"));
        } else if !ok {
            self.show_message(
                &format!("Layer `{layer_id}` was not changed (see the Output panel)."),
                true,
            );
            self.redraw_layers_next();
        }
        self.refresh_layers();
        ok
    }

    /// Renames a layer of the edited terrain as its name field does (one undo step).
    #[func]
    pub fn rename_layer(&mut self, layer_id: GString, name: GString) -> bool {
        let Some(mut t) = self.editable_terrain() else {
            return false;
        };
        let before = recipe_layers(&t).ok();
        let ok = t.bind_mut().rename_layer(layer_id.clone(), name.clone());
        let after = recipe_layers(&t).ok();
        if ok && before != after {
            self.commit_edit_step(&mut t, &format!("Ridgeline: rename layer {layer_id}"));
        } else if !ok {
            self.show_message(
                &format!("Layer `{layer_id}` was not renamed to `{name}` (see the Output panel)."),
                true,
            );
            self.redraw_layers_next();
        }
        self.refresh_layers();
        ok
    }

    /// Removes a user layer of the edited terrain as its ✕ button does (one undo step); only
    /// an empty one (see [method Terrain3D.remove_layer]).
    #[func]
    pub fn remove_layer(&mut self, layer_id: GString) -> bool {
        let Some(mut t) = self.editable_terrain() else {
            return false;
        };
        let ok = t.bind_mut().remove_layer(layer_id.clone());
        if ok {
            self.commit_edit_step(&mut t, &format!("Ridgeline: remove layer {layer_id}"));
            self.show_message(&format!("Removed layer `{layer_id}`."), false);
        } else {
            self.show_message(
                &format!("Layer `{layer_id}` was not removed: only an empty user layer can be (see the Output panel)."),
                true,
            );
        }
        self.refresh_layers();
        ok
    }

    /// Chooses the layer the current tool's strokes go into (an enabled layer of the kind the
    /// tool writes: sculpt tools → `sculpt`, Protect → `protection`, Exclude/Erase →
    /// `exclusions`, Biome paint → `biomes`); empty resets to the first layer of that kind.
    /// Kept per kind while the editor runs. Returns false for any other layer.
    #[func]
    pub fn set_target_layer(&mut self, layer_id: GString) -> bool {
        let Some(kind) = self.tool.layer_kind() else {
            self.show_message("Tool None paints into no layer.", true);
            return false;
        };
        let id = layer_id.to_string();
        if !id.is_empty() {
            let rows = self
                .terrain
                .as_ref()
                .and_then(|t| recipe_layers(t).ok())
                .unwrap_or_default();
            if !rows
                .iter()
                .any(|r| r.id == id && r.kind == kind && r.enabled)
            {
                self.show_message(
                    &format!(
                        "`{id}` is not an enabled {kind} layer: {} paints only into those.",
                        self.tool.label()
                    ),
                    true,
                );
                return false;
            }
        }
        self.target_layers.insert(kind, id);
        self.refresh_layers();
        true
    }

    /// The layer the current tool's strokes go into: the chosen one ([method set_target_layer])
    /// while it exists, else the first layer of the tool's kind; empty for tool None or without
    /// an editable terrain.
    #[func]
    pub fn get_target_layer(&self) -> GString {
        self.target_layer().unwrap_or_default().as_str().into()
    }

    /// Dock: a layer's toggle.
    #[func]
    fn _on_layer_toggled(&mut self, pressed: bool, layer_id: GString) {
        self.set_layer_enabled(layer_id, pressed);
    }

    /// Dock: a layer's name was submitted.
    #[func]
    fn _on_layer_renamed(&mut self, text: GString, layer_id: GString) {
        self.rename_layer(layer_id, text);
    }

    /// Dock: a layer's target marker.
    #[func]
    fn _on_layer_target(&mut self, layer_id: GString) {
        self.set_target_layer(layer_id);
    }

    /// Dock: a layer's ✕.
    #[func]
    fn _on_layer_remove(&mut self, layer_id: GString) {
        self.remove_layer(layer_id);
    }

    /// Dock: **Add**.
    #[func]
    fn _on_add_layer_pressed(&mut self) {
        let Some((kind, name)) = self.dock.as_ref().map(|d| d.layers.add_request()) else {
            return;
        };
        match ADDABLE.iter().find(|(k, _)| *k as i32 == kind) {
            Some((k, _)) => {
                self.add_layer(*k, name.as_str().into());
            }
            None => self.show_message("Pick a layer kind to add.", true),
        }
    }

    /// Dock: Enter in the new layer's name.
    #[func]
    fn _on_add_layer_submitted(&mut self, _text: GString) {
        self._on_add_layer_pressed();
    }
}

impl RidgelineEditorPlugin {
    /// The edited terrain when its source can be edited; otherwise says why in the dock.
    pub(super) fn editable_terrain(&mut self) -> Option<Gd<Terrain3D>> {
        let Some(t) = self.terrain.clone() else {
            self.show_message("Select a Terrain3D first.", true);
            return None;
        };
        match source_of(&t) {
            Ok(source) => {
                self.watch_source(&t, &source);
                Some(t)
            }
            Err(why) => {
                self.show_message(&why, true);
                None
            }
        }
    }

    /// The layer the current tool paints into (see [method get_target_layer]), with whether
    /// it is enabled.
    pub(super) fn target_layer_row(&self) -> Option<LayerRow> {
        let kind = self.tool.layer_kind()?;
        let rows = recipe_layers(self.terrain.as_ref()?).ok()?;
        let chosen = self.target_layers.get(kind).filter(|id| !id.is_empty());
        chosen
            .and_then(|id| rows.iter().find(|r| &r.id == id && r.kind == kind))
            .or_else(|| rows.iter().find(|r| r.kind == kind))
            .cloned()
    }

    fn target_layer(&self) -> Option<String> {
        self.target_layer_row().map(|r| r.id)
    }

    /// The `layer` key for the current tool's strokes: the chosen layer, or empty (the kind's
    /// first layer). `Err` with the message to show when that layer is disabled.
    pub(super) fn stroke_layer(&self) -> Result<String, String> {
        let Some(row) = self.target_layer_row() else {
            return Ok(String::new());
        };
        if !row.enabled {
            return Err(format!(
                "The target layer `{}` is disabled: enable it in Layers or pick another target.",
                row.name
            ));
        }
        let explicit = self
            .tool
            .layer_kind()
            .and_then(|k| self.target_layers.get(k))
            .is_some_and(|id| *id == row.id);
        Ok(if explicit { row.id } else { String::new() })
    }

    /// The next [`Self::refresh_layers`] rebuilds the rows (see [`LayersPanel::redraw_next`]).
    fn redraw_layers_next(&mut self) {
        if let Some(d) = &mut self.dock {
            d.layers.redraw_next();
        }
    }

    /// Redraws the Layers panel from the edited terrain's recipe (and lets the Terrain Graph's
    /// settings panel follow the layers).
    pub(super) fn refresh_layers(&mut self) {
        self.graph_follow_layers();
        let me = self.to_gd().upcast::<Object>();
        let (rows, why) = match &self.terrain {
            None => (None, None),
            Some(t) => match recipe_layers(t) {
                Ok(rows) => (Some(rows), None),
                Err(why) => (None, Some(why)),
            },
        };
        let target = self.target_layer_row().map(|r| (r.id, r.kind));
        if let Some(d) = &mut self.dock {
            d.layers.show(&me, rows, why, target);
        }
    }
}
