//! The workspace's signal handlers and scripting API, on the editor plugin (editor-only: nothing
//! here is registered in games).
//!
//! Changes to assets and terrains that emit signals the plugin listens to (`changed`) are made
//! deferred, after the handler has released the plugin.

use super::palette::DRAG_KEY;
use super::params;
use super::workspace::{Target, Workspace, document_with};
use crate::editor::plugin::RidgelineEditorPlugin;
use crate::terrain::Terrain3D;
use godot::classes::{Control, GraphNode, TextEdit};
use godot::prelude::*;
use ridgeline_core::graph::draft::Draft;
use ridgeline_core::recipe::Document;
use ridgeline_core::recipe::preset::GridChange;
use serde_json::Value;

/// Where a paste lands relative to the copied nodes.
const PASTE_OFFSET: [f64; 2] = [40.0, 40.0];

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Opens the **Terrain Graph** workspace pinned to `terrain`'s source (asset or inline
    /// recipe) and shows it. Selecting another node later does not switch it; opening it for
    /// another terrain does. Returns false (with the reason in [method get_graph_message]) when
    /// the terrain has no editable recipe.
    #[func]
    pub fn open_terrain_graph(&mut self, terrain: Gd<Terrain3D>) -> bool {
        let me = self.to_gd().upcast::<Object>();
        if self.graph.is_none() {
            let ws = Workspace::new(&me);
            let root = ws.root.clone().upcast::<Control>();
            self.base_mut()
                .add_control_to_bottom_panel(&root, "Terrain Graph");
            self.graph = Some(ws);
        }
        let target = match Target::of(&terrain) {
            Ok(t) => t,
            Err(why) => {
                let text = format!("Cannot open the Terrain Graph: {why}");
                if let Some(ws) = &mut self.graph {
                    ws.show(&text, true);
                }
                self.show_message(&text, true);
                return false;
            }
        };
        let call = Callable::from_object_method(&me, "_on_graph_generation_finished");
        let mut t = terrain.clone().upcast::<Object>();
        if !t.is_connected("generation_finished", &call) {
            t.connect("generation_finished", &call);
        }
        let Some(ws) = &mut self.graph else {
            return false;
        };
        let pinned = ws.pin(&me, target);
        let root = ws.root.clone().upcast::<Control>();
        self.base_mut().make_bottom_panel_item_visible(&root);
        match pinned {
            Ok(()) => {
                self.graph_show("Opened.", false);
                true
            }
            Err(why) => {
                self.graph_show(&why, true);
                false
            }
        }
    }

    /// The workspace's root control (null before it was first opened).
    #[func]
    pub fn get_terrain_graph(&self) -> Option<Gd<Control>> {
        self.graph.as_ref().map(|w| w.root.clone().upcast())
    }

    /// The terrain the workspace is pinned to.
    #[func]
    pub fn get_graph_terrain(&self) -> Option<Gd<Terrain3D>> {
        self.graph
            .as_ref()
            .and_then(|w| w.target.as_ref())
            .map(|t| t.terrain.clone())
    }

    /// The draft graph as recipe `graph` JSON.
    #[func]
    pub fn get_graph_draft(&self) -> GString {
        self.graph
            .as_ref()
            .map(|w| GString::from(w.draft.to_value().to_string().as_str()))
            .unwrap_or_default()
    }

    /// Replaces the draft with `graph_json` (a recipe `graph` object) as one **Undo graph**
    /// step and rebuilds the canvas. Returns false, keeping the draft, when it is not a valid
    /// graph.
    #[func]
    pub fn set_graph_draft(&mut self, graph_json: GString) -> bool {
        let parsed = serde_json::from_str::<Value>(&graph_json.to_string())
            .map_err(|e| e.to_string())
            .and_then(|v| {
                let mut d = ridgeline_core::error::Diagnostics::default();
                ridgeline_core::graph::Graph::parse(&v, "graph", &mut d)
                    .filter(|_| d.is_empty())
                    .ok_or_else(|| ridgeline_core::Error::Invalid(d.0).to_string())
            });
        match parsed {
            Ok(g) => {
                self.graph_edit("Load graph", |d| {
                    *d = Draft::from_graph(&g);
                    Ok(())
                });
                true
            }
            Err(e) => {
                self.graph_show(&format!("Not a valid graph: {e}"), true);
                false
            }
        }
    }

    /// The card of node `id` (null when it has none).
    #[func]
    pub fn get_graph_card(&self, id: GString) -> Option<Gd<GraphNode>> {
        self.graph.as_ref()?.card(&id.to_string()).cloned()
    }

    /// Number of cards on the canvas.
    #[func]
    pub fn get_graph_card_count(&self) -> i64 {
        self.graph.as_ref().map_or(0, |w| w.card_count() as i64)
    }

    /// Problems of the draft, one located message each.
    #[func]
    pub fn get_graph_problems(&self) -> PackedStringArray {
        self.graph
            .as_ref()
            .map(|w| {
                w.draft
                    .problems()
                    .iter()
                    .map(|p| GString::from(p.diagnostic.to_string().as_str()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The workspace's last message.
    #[func]
    pub fn get_graph_message(&self) -> GString {
        self.graph
            .as_ref()
            .map(|w| GString::from(w.message.as_str()))
            .unwrap_or_default()
    }

    /// Steps on the workspace's own history that **Undo graph** can undo.
    #[func]
    pub fn get_graph_undo_count(&self) -> i64 {
        self.graph
            .as_ref()
            .map_or(0, |w| w.history.undo_len() as i64)
    }

    /// Dock: **Open Terrain Graph**.
    #[func]
    fn _on_open_graph_pressed(&mut self) {
        if let Some(t) = self.terrain.clone() {
            self.open_terrain_graph(t);
        }
    }

    /// Toolbar: **Undo graph**.
    #[func]
    fn _on_graph_undo(&mut self) {
        self.graph_history(true);
    }

    /// Toolbar: **Redo graph**.
    #[func]
    fn _on_graph_redo(&mut self) {
        self.graph_history(false);
    }

    /// Toolbar: **Starter graph**.
    #[func]
    fn _on_graph_starter(&mut self) {
        self.graph_edit("Starter graph", |d| {
            *d = Draft::starter();
            Ok(())
        });
    }

    /// Toolbar: **Generate** (the draft, unapplied).
    #[func]
    fn _on_graph_generate(&mut self) {
        self.graph_generate();
    }

    /// Toolbar: **Discard preview**.
    #[func]
    fn _on_graph_discard(&mut self) {
        let Some(mut t) = self.graph_target().map(|t| t.terrain) else {
            return;
        };
        t.call_deferred("generate", &[]);
        self.graph_show("Showing the terrain's own source again.", false);
    }

    /// Toolbar: **Apply**.
    #[func]
    fn _on_graph_apply(&mut self) {
        self.graph_apply();
    }

    /// Toolbar: **Reload**.
    #[func]
    fn _on_graph_reload(&mut self) {
        let Some(target) = self.graph_target() else {
            return;
        };
        match target.document() {
            Ok(doc) => {
                let fresh = doc.recipe().draft();
                self.graph_edit("Reload from source", |d| {
                    *d = fresh;
                    Ok(())
                });
                if let Some(w) = &mut self.graph {
                    w.applied = w.draft.clone();
                    w.refresh_problems();
                }
            }
            Err(e) => self.graph_show(&e, true),
        }
    }

    /// Canvas: a wire was dropped on an input.
    #[func]
    fn _on_graph_connection_request(
        &mut self,
        from: StringName,
        from_port: i64,
        to: StringName,
        to_port: i64,
    ) {
        let Some(w) = &self.graph else { return };
        let (Some(from_id), Some(to_id)) = (w.id_of(&from), w.id_of(&to)) else {
            return;
        };
        let types = |id: &str| w.draft.node(id).map(|n| n.type_id.clone());
        let (Some(ft), Some(tt)) = (types(&from_id), types(&to_id)) else {
            return;
        };
        let (Some(out), Some(pin)) = (
            w.pin_name(&ft, "outputs", from_port),
            w.pin_name(&tt, "inputs", to_port),
        ) else {
            return;
        };
        let replacing = w
            .draft
            .node(&to_id)
            .is_some_and(|n| n.inputs.contains_key(&pin));
        let label = if replacing {
            format!("Replace connection to {to_id}.{pin}")
        } else {
            format!("Connect {from_id}.{out} → {to_id}.{pin}")
        };
        self.graph_edit(&label, |d| {
            d.connect(&to_id, &pin, &from_id, Some(&out)).map(|_| ())
        });
    }

    /// Canvas: a wire was dragged off an input.
    #[func]
    fn _on_graph_disconnection_request(
        &mut self,
        _from: StringName,
        _from_port: i64,
        to: StringName,
        to_port: i64,
    ) {
        let Some(w) = &self.graph else { return };
        let Some(to_id) = w.id_of(&to) else { return };
        let Some(pin) = w
            .draft
            .node(&to_id)
            .and_then(|n| w.pin_name(&n.type_id, "inputs", to_port))
        else {
            return;
        };
        self.graph_edit(&format!("Disconnect {to_id}.{pin}"), |d| {
            d.disconnect(&to_id, &pin).map(|_| ())
        });
    }

    /// Canvas: Delete on the selection.
    #[func]
    fn _on_graph_delete_request(&mut self, nodes: Variant) {
        let Some(w) = &self.graph else { return };
        // GraphEdit sends an Array[StringName]; scripts may send an untyped Array.
        let names: Vec<StringName> = match nodes.try_to::<Array<StringName>>() {
            Ok(a) => a.iter_shared().collect(),
            Err(_) => nodes
                .try_to::<VarArray>()
                .map(|a| {
                    a.iter_shared()
                        .filter_map(|v| v.try_to::<StringName>().ok())
                        .collect()
                })
                .unwrap_or_default(),
        };
        let ids: Vec<String> = names.iter().filter_map(|n| w.id_of(n)).collect();
        if ids.is_empty() {
            return;
        }
        self.graph_edit(&format!("Delete {} node(s)", ids.len()), |d| {
            d.remove(&ids);
            Ok(())
        });
    }

    /// Canvas: Ctrl+C.
    #[func]
    fn _on_graph_copy_request(&mut self) {
        self.graph_copy();
    }

    /// Canvas: Ctrl+X.
    #[func]
    fn _on_graph_cut_request(&mut self) {
        let ids = self.graph_copy();
        if !ids.is_empty() {
            self.graph_edit(&format!("Cut {} node(s)", ids.len()), |d| {
                d.remove(&ids);
                Ok(())
            });
        }
    }

    /// Canvas: Ctrl+V.
    #[func]
    fn _on_graph_paste_request(&mut self) {
        let Some(clip) = self.graph.as_ref().and_then(|w| w.clipboard.clone()) else {
            self.graph_show("Nothing to paste: copy nodes first (Ctrl+C).", true);
            return;
        };
        let mut pasted = Vec::new();
        self.graph_edit("Paste nodes", |d| {
            pasted = d.paste(&clip, PASTE_OFFSET)?;
            Ok(())
        });
        if let Some(w) = &mut self.graph {
            w.select(&pasted);
        }
    }

    /// Canvas: Ctrl+D.
    #[func]
    fn _on_graph_duplicate_request(&mut self) {
        let ids = self
            .graph
            .as_ref()
            .map(Workspace::selected)
            .unwrap_or_default();
        if ids.is_empty() {
            return;
        }
        let mut made = Vec::new();
        self.graph_edit(&format!("Duplicate {} node(s)", ids.len()), |d| {
            made = d.duplicate(&ids, PASTE_OFFSET)?;
            Ok(())
        });
        if let Some(w) = &mut self.graph {
            w.select(&made);
        }
    }

    /// Canvas: cards were dragged.
    #[func]
    fn _on_graph_end_node_move(&mut self) {
        let Some(w) = &self.graph else { return };
        let moves: Vec<(String, [f64; 2])> = w
            .draft
            .nodes
            .iter()
            .filter_map(|n| {
                let p = w.card(&n.id)?.get_position_offset();
                let p = [p.x.round() as f64, p.y.round() as f64];
                (p != n.position).then(|| (n.id.clone(), p))
            })
            .collect();
        if moves.is_empty() {
            return;
        }
        self.graph_edit(&format!("Move {} node(s)", moves.len()), |d| {
            d.move_nodes(&moves)
        });
    }

    /// Problem list: selects the card of the problem.
    #[func]
    fn _on_graph_problem_selected(&mut self, index: i64) {
        let Some(w) = &mut self.graph else { return };
        let id = w
            .problems
            .get_item_metadata(index as i32)
            .try_to::<GString>()
            .map(|s| s.to_string())
            .unwrap_or_default();
        if !id.is_empty() {
            w.select(std::slice::from_ref(&id));
        }
    }

    /// Card: **Active output** was checked.
    #[func]
    fn _on_graph_active_output(&mut self, node: GString) {
        let id = node.to_string();
        self.graph_edit_deferred(&format!("Make {id} the active output"), move |d| {
            d.set_output(&id)
        });
    }

    /// Card: a comment's text changed.
    #[func]
    fn _on_graph_comment_changed(&mut self, node: GString) {
        let id = node.to_string();
        let Some(text) = self
            .graph
            .as_ref()
            .and_then(|w| w.card(&id))
            .and_then(|c| c.try_get_node_as::<TextEdit>("CommentText"))
            .map(|e| e.get_text().to_string())
        else {
            return;
        };
        let same = self
            .graph
            .as_ref()
            .and_then(|w| w.draft.node(&id))
            .is_some_and(|n| n.text.as_deref() == Some(text.as_str()));
        if !same {
            self.graph_value_edit(&format!("Edit comment {id}"), &id, |d| {
                d.set_text(&id, &text)
            });
        }
    }

    /// Card: a parameter control changed.
    #[func]
    fn _on_graph_param(&mut self, value: Variant, node: GString, param: GString) {
        let (id, name) = (node.to_string(), param.to_string());
        let Some(spec) = self.graph_param_spec(&id, &name) else {
            return;
        };
        let Some(v) = params::to_json(&spec, &value) else {
            self.graph_show(
                &format!("graph.nodes[\"{id}\"].params.{name}: cannot read this value"),
                true,
            );
            return;
        };
        self.graph_value_edit(&format!("Set {id}.{name}"), &id, |d| {
            d.set_param(&id, &name, Some(v))
        });
    }

    /// Card: a parameter's reset button.
    #[func]
    fn _on_graph_param_reset(&mut self, node: GString, param: GString) {
        let (id, name) = (node.to_string(), param.to_string());
        self.graph_edit_deferred(&format!("Reset {id}.{name}"), move |d| {
            d.set_param(&id, &name, None)
        });
    }

    /// Card: a coordinate of a point or point-list row changed.
    #[func]
    fn _on_graph_point(&mut self, value: f64, node: GString, param: GString, row: i64, coord: i64) {
        let (id, name) = (node.to_string(), param.to_string());
        let Some(mut current) = self.graph_param_value(&id, &name) else {
            return;
        };
        let (Ok(k), ok_row) = (usize::try_from(coord), usize::try_from(row)) else {
            return;
        };
        let target = match ok_row {
            // A single point.
            Err(_) => Some(&mut current),
            Ok(r) => current.get_mut(r),
        };
        match target.and_then(|p| p.get_mut(k)) {
            Some(c) => *c = serde_json::json!(value),
            None => return,
        }
        self.graph_value_edit(&format!("Set {id}.{name}"), &id, |d| {
            d.set_param(&id, &name, Some(current))
        });
    }

    /// Card: **+ point**.
    #[func]
    fn _on_graph_point_add(&mut self, node: GString, param: GString) {
        let (id, name) = (node.to_string(), param.to_string());
        let dims = self
            .graph_param_spec(&id, &name)
            .and_then(|s| s.get("dims").and_then(Value::as_u64))
            .unwrap_or(2) as usize;
        let mut points = self
            .graph_param_value(&id, &name)
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default();
        let next = points
            .last()
            .cloned()
            .map(|mut p| {
                if let Some(x) = p.get_mut(0).and_then(|x| x.as_f64()) {
                    p[0] = serde_json::json!(x + 10.0);
                }
                p
            })
            .unwrap_or_else(|| serde_json::json!(vec![0.0; dims]));
        points.push(next);
        self.graph_edit_deferred(&format!("Add a point to {id}.{name}"), move |d| {
            d.set_param(&id, &name, Some(Value::Array(points)))
        });
    }

    /// Card: a point row's remove button.
    #[func]
    fn _on_graph_point_remove(&mut self, node: GString, param: GString, row: i64) {
        let (id, name) = (node.to_string(), param.to_string());
        let mut points = self
            .graph_param_value(&id, &name)
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default();
        let Ok(r) = usize::try_from(row) else { return };
        if r >= points.len() {
            return;
        }
        points.remove(r);
        self.graph_edit_deferred(&format!("Remove a point of {id}.{name}"), move |d| {
            d.set_param(&id, &name, Some(Value::Array(points)))
        });
    }

    /// Palette: the search text changed.
    #[func]
    fn _on_palette_filter(&mut self, text: GString) {
        if let Some(w) = &mut self.graph {
            w.palette.filter(&text.to_string());
        }
    }

    /// Palette: an item was selected.
    #[func]
    fn _on_palette_selected(&mut self, index: i64) {
        if let Some(w) = &mut self.graph {
            w.palette.describe(index);
        }
    }

    /// Palette: an item was double-clicked (inserts it).
    #[func]
    fn _on_palette_activated(&mut self, index: i64) {
        let ty = self.graph.as_ref().and_then(|w| w.palette.type_at(index));
        if let Some(ty) = ty {
            self.graph_insert_centre(&ty);
        }
    }

    /// Palette: **Insert**.
    #[func]
    fn _on_palette_insert(&mut self) {
        let ty = self.graph.as_ref().and_then(|w| w.palette.selected());
        match ty {
            Some(ty) => self.graph_insert_centre(&ty),
            None => self.graph_show("Select a node type in the palette first.", true),
        }
    }

    /// Drag forwarding of the palette list: the node type under `at`.
    #[func]
    fn _palette_drag(&mut self, at: Vector2) -> Variant {
        match &mut self.graph {
            Some(w) => w.palette.drag_data(at),
            None => Variant::nil(),
        }
    }

    /// Drop forwarding of the canvas: accepts palette node types.
    #[func]
    fn _graph_can_drop(&self, _at: Vector2, data: Variant) -> bool {
        dropped_type(&data).is_some()
    }

    /// Drop forwarding of the canvas: inserts the dropped node type at `at` (canvas control
    /// coordinates; zoom and scroll are applied).
    #[func]
    fn _graph_drop(&mut self, at: Vector2, data: Variant) {
        let (Some(ty), Some(w)) = (dropped_type(&data), &self.graph) else {
            return;
        };
        let p = w.to_graph(at);
        self.graph_insert(&ty, p);
    }

    /// Rebuilds the canvas from the draft (deferred after card controls).
    #[func]
    fn _graph_refresh(&mut self) {
        let me = self.to_gd().upcast::<Object>();
        if let Some(w) = &mut self.graph {
            w.refresh(&me);
        }
    }

    /// The pinned terrain finished generating.
    #[func]
    fn _on_graph_generation_finished(&mut self, ok: bool, message: GString) {
        if self.graph.as_ref().is_some_and(|w| w.target.is_some()) {
            if ok {
                self.graph_show(&format!("Generated ({message})."), false);
            } else {
                self.graph_show(
                    &format!("Generation failed; the last surface stays: {message}"),
                    true,
                );
            }
        }
    }

    /// Presets tab: a preset was selected.
    #[func]
    fn _on_preset_selected(&mut self, index: i64) {
        if let Some(w) = &mut self.graph
            && let Ok(i) = usize::try_from(index)
        {
            w.presets.describe(i);
        }
    }

    /// Presets tab: **Apply and generate**.
    #[func]
    fn _on_preset_apply_pressed(&mut self) {
        self.preset_ask();
    }

    /// Presets tab: the confirmation was accepted.
    #[func]
    fn _on_preset_confirmed(&mut self) {
        let pending = self.graph.as_mut().and_then(|w| w.presets.pending.take());
        if let Some((i, grid)) = pending {
            self.preset_apply(i, grid);
        }
    }

    /// Presets tab: **Apply, clear strokes**.
    #[func]
    fn _on_preset_custom_action(&mut self, action: StringName) {
        if action != "clear_strokes" {
            return;
        }
        let pending = self.graph.as_mut().and_then(|w| {
            w.presets.confirm.hide();
            w.presets.pending.take()
        });
        if let Some((i, _)) = pending {
            self.preset_apply(i, GridChange::ClearStrokes);
        }
    }
}

/// The node type of palette drag data.
fn dropped_type(data: &Variant) -> Option<String> {
    let d = data.try_to::<VarDictionary>().ok()?;
    let ty = d.get(DRAG_KEY)?.try_to::<GString>().ok()?.to_string();
    ridgeline_core::nodes::spec(&ty).map(|_| ty)
}

impl RidgelineEditorPlugin {
    /// Removes the workspace (the plugin leaves the editor).
    pub(in crate::editor) fn close_terrain_graph(&mut self) {
        if let Some(w) = self.graph.take() {
            let mut root = w.root.clone().upcast::<Control>();
            self.base_mut().remove_control_from_bottom_panel(&root);
            root.queue_free();
        }
    }

    fn graph_target(&self) -> Option<Target> {
        self.graph.as_ref().and_then(|w| w.target.clone())
    }

    fn graph_show(&mut self, text: &str, error: bool) {
        if let Some(w) = &mut self.graph {
            w.show(text, error);
        }
        if error {
            godot_warn!("Ridgeline Terrain Graph: {text}");
        }
    }

    /// Runs one edit of the draft as one **Undo graph** step; a refused edit changes nothing
    /// and shows why.
    fn graph_edit(
        &mut self,
        label: &str,
        edit: impl FnOnce(&mut Draft) -> ridgeline_core::Result<()>,
    ) {
        let me = self.to_gd().upcast::<Object>();
        let Some(w) = &mut self.graph else { return };
        let mut next = w.draft.clone();
        match edit(&mut next) {
            Ok(()) if next == w.draft => {}
            Ok(()) => {
                let before = std::mem::replace(&mut w.draft, next);
                w.coalesce = None;
                w.record(label, before);
                w.refresh(&me);
                w.show(&format!("{label}."), false);
            }
            Err(e) => {
                w.show(&format!("Refused: {e}"), true);
            }
        }
    }

    /// Like [`Self::graph_edit`], with the canvas refreshed after the handler returns (the
    /// edit came from a control inside a card the refresh may rebuild).
    fn graph_edit_deferred(
        &mut self,
        label: &str,
        edit: impl FnOnce(&mut Draft) -> ridgeline_core::Result<()>,
    ) {
        let Some(w) = &mut self.graph else { return };
        let mut next = w.draft.clone();
        match edit(&mut next) {
            Ok(()) if next == w.draft => {}
            Ok(()) => {
                let before = std::mem::replace(&mut w.draft, next);
                w.coalesce = None;
                w.record(label, before);
                w.show(&format!("{label}."), false);
                self.to_gd().call_deferred("_graph_refresh", &[]);
            }
            Err(e) => w.show(&format!("Refused: {e}"), true),
        }
    }

    /// An edit from a value control: the card already shows it (not rebuilt); consecutive
    /// edits of the same value are one undo step.
    fn graph_value_edit(
        &mut self,
        label: &str,
        id: &str,
        edit: impl FnOnce(&mut Draft) -> ridgeline_core::Result<()>,
    ) {
        let Some(w) = &mut self.graph else { return };
        let mut next = w.draft.clone();
        match edit(&mut next) {
            Ok(()) if next == w.draft => {}
            Ok(()) => {
                let before = std::mem::replace(&mut w.draft, next);
                w.record(label, before);
                w.coalesce = Some(label.to_string());
                w.mark_shown(id);
                w.refresh_problems();
            }
            Err(e) => w.show(&format!("Refused: {e}"), true),
        }
    }

    fn graph_history(&mut self, undo: bool) {
        let me = self.to_gd().upcast::<Object>();
        let Some(w) = &mut self.graph else { return };
        let current = w.draft.clone();
        let step = if undo {
            w.history.undo(current)
        } else {
            w.history.redo(current)
        };
        w.coalesce = None;
        match step {
            Some((label, state)) => {
                w.draft = state;
                w.refresh(&me);
                let verb = if undo { "Undid" } else { "Redid" };
                w.show(&format!("{verb}: {label}."), false);
            }
            None => {
                let what = if undo { "undo" } else { "redo" };
                w.show(&format!("Nothing to {what} in the graph."), false);
            }
        }
    }

    /// Copies the selection to the workspace clipboard; returns the copied ids.
    fn graph_copy(&mut self) -> Vec<String> {
        let Some(w) = &mut self.graph else {
            return Vec::new();
        };
        let ids = w.selected();
        if ids.is_empty() {
            w.show("Nothing selected to copy.", true);
            return ids;
        }
        let clip = w.draft.copy(&ids);
        godot::classes::DisplayServer::singleton().clipboard_set(&clip.to_string());
        w.clipboard = Some(clip);
        w.show(&format!("Copied {} node(s).", ids.len()), false);
        ids
    }

    fn graph_param_spec(&self, id: &str, name: &str) -> Option<Value> {
        let w = self.graph.as_ref()?;
        let n = w.draft.node(id)?;
        w.catalog
            .get(&n.type_id)?
            .get("params")?
            .as_array()?
            .iter()
            .find(|p| params::name(p) == name)
            .cloned()
    }

    /// The parameter's value in the draft, or its default.
    fn graph_param_value(&self, id: &str, name: &str) -> Option<Value> {
        let w = self.graph.as_ref()?;
        if let Some(v) = w.draft.node(id)?.params.get(name) {
            return Some(v.clone());
        }
        self.graph_param_spec(id, name)?
            .get("default")
            .filter(|v| !v.is_null())
            .cloned()
            .or(Some(Value::Array(Vec::new())))
    }

    fn graph_insert(&mut self, ty: &str, at: [f64; 2]) {
        let mut id = String::new();
        self.graph_edit(&format!("Add {ty}"), |d| {
            id = d.add(ty, at)?;
            Ok(())
        });
        if let Some(w) = &mut self.graph
            && !id.is_empty()
        {
            w.select(std::slice::from_ref(&id));
        }
    }

    fn graph_insert_centre(&mut self, ty: &str) {
        let Some(w) = &self.graph else { return };
        let centre = w.canvas.get_size() / 2.0;
        let p = w.to_graph(centre);
        self.graph_insert(ty, p);
    }

    /// The draft as the pinned source's document text, or why not.
    fn graph_document(&self) -> Result<(Target, String), String> {
        let w = self.graph.as_ref().ok_or("the Terrain Graph is not open")?;
        let target = w.target.clone().ok_or("the Terrain Graph is not pinned")?;
        let doc = target.document()?;
        let text = document_with(&doc, &w.draft)?;
        Ok((target, text))
    }

    fn graph_generate(&mut self) {
        match self.graph_document() {
            Ok((target, text)) => {
                let mut t = target.terrain.clone();
                t.call_deferred("generate_draft", &[text.to_variant()]);
                self.graph_show("Generating the draft (not applied)…", false);
            }
            Err(e) => self.graph_show(&format!("Not generated; the last surface stays: {e}"), true),
        }
    }

    fn graph_apply(&mut self) {
        let (target, text) = match self.graph_document() {
            Ok(x) => x,
            Err(e) => {
                self.graph_show(&format!("Not applied: {e}"), true);
                return;
            }
        };
        self.write_source(&target, &text, "Ridgeline: apply Terrain Graph");
        if let Some(w) = &mut self.graph {
            w.applied = w.draft.clone();
            w.refresh_problems();
        }
        self.graph_show("Applied to the terrain's source (Ctrl+Z undoes it).", false);
    }

    /// Writes `text` into the target's source as one scene undo step (applied deferred).
    fn write_source(&mut self, target: &Target, text: &str, action: &str) {
        let old = target.source_text();
        let terrain = target.terrain.clone().upcast::<Object>();
        if let Some(mut ur) = self.base().get_undo_redo() {
            ur.create_action_ex(action).custom_context(&terrain).done();
            match &target.asset {
                Some(a) => {
                    let a = a.clone().upcast::<Object>();
                    ur.add_do_method(&a, "set_source_json", &[text.to_variant()]);
                    ur.add_undo_method(&a, "set_source_json", &[old.to_variant()]);
                }
                None => {
                    ur.add_do_property(&terrain, "recipe", &text.to_variant());
                    ur.add_undo_property(&terrain, "recipe", &old.to_variant());
                }
            }
            ur.commit_action_ex().execute(false).done();
        }
        match &target.asset {
            Some(a) => {
                let mut a = a.clone();
                a.call_deferred("set_source_json", &[text.to_variant()]);
                if !self.dirty.contains(&a) {
                    self.dirty.push(a);
                }
            }
            None => {
                let mut t = target.terrain.clone();
                t.call_deferred("set", &["recipe".to_variant(), text.to_variant()]);
            }
        }
    }

    /// **Apply and generate** on the Presets tab: asks for confirmation (and about strokes
    /// when the grid changes under them).
    fn preset_ask(&mut self) {
        let Some(target) = self.graph_target() else {
            self.graph_show("Open the Terrain Graph on a terrain first.", true);
            return;
        };
        let Some(w) = &mut self.graph else { return };
        let Some(i) = w.presets.selected() else {
            w.show("Select a preset first.", true);
            return;
        };
        let doc = match target.document() {
            Ok(d) => d,
            Err(e) => {
                w.show(&e, true);
                return;
            }
        };
        let Some(p) = w.presets.presets.get(i).cloned() else {
            return;
        };
        let author = doc.recipe();
        let name = target.terrain.get_name();
        let (text, grid, clear) = match p.apply(author, GridChange::Ask) {
            Ok(_) => (
                format!(
                    "Replace the graph and settings of {name} with the preset “{}”?\n\
                     Strokes (edits, regions, exclusions) are kept. Ctrl+Z undoes it.",
                    p.label
                ),
                GridChange::Ask,
                false,
            ),
            Err(e) if author.has_strokes() && p.apply(author, GridChange::KeepStrokes).is_ok() => (
                format!(
                    "The preset “{}” changes the terrain's grid and {name} has strokes:\n{e}\n\n\
                     OK keeps the strokes at their positions; or clear them.",
                    p.label
                ),
                GridChange::KeepStrokes,
                true,
            ),
            Err(e) => {
                w.show(&format!("Preset not applied: {e}"), true);
                return;
            }
        };
        w.presets.pending = Some((i, grid));
        if let Some(b) = &mut w.presets.clear {
            b.set_visible(clear);
        }
        w.presets.confirm.set_text(&text);
        w.presets.confirm.popup_centered();
    }

    fn preset_apply(&mut self, i: usize, grid: GridChange) {
        let Some(target) = self.graph_target() else {
            return;
        };
        let Some(p) = self
            .graph
            .as_ref()
            .and_then(|w| w.presets.presets.get(i).cloned())
        else {
            return;
        };
        let result = target.document().and_then(|doc| {
            let applied = p.apply(doc.recipe(), grid).map_err(|e| e.to_string())?;
            let merged = match doc {
                Document::Asset(a) => Document::Asset(ridgeline_core::recipe::AssetDocument {
                    id: a.id,
                    recipe: applied.recipe,
                }),
                Document::Recipe(_) => Document::Recipe(applied.recipe),
            };
            Ok(merged)
        });
        match result {
            Ok(merged) => {
                let text = merged.to_canonical_json();
                self.write_source(
                    &target,
                    &text,
                    &format!("Ridgeline: apply preset {}", p.label),
                );
                let fresh = merged.recipe().draft();
                self.graph_edit(&format!("Apply preset {}", p.label), |d| {
                    *d = fresh;
                    Ok(())
                });
                if let Some(w) = &mut self.graph {
                    w.applied = w.draft.clone();
                    w.refresh_problems();
                }
                self.graph_show(
                    &format!(
                        "Applied preset “{}”; generating (Ctrl+Z undoes it).",
                        p.label
                    ),
                    false,
                );
            }
            Err(e) => self.graph_show(&format!("Preset not applied: {e}"), true),
        }
    }
}
