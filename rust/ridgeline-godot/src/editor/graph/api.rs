//! The workspace's scripting API on the editor plugin: open it for a terrain, read and set the
//! draft, inspect cards, problems and messages (used by the editor tests and by tool scripts).
//! Editor-only: nothing here is registered in games.

use super::target::Target;
use super::workspace::Workspace;
use crate::editor::plugin::RidgelineEditorPlugin;
use crate::terrain::Terrain3D;
use godot::classes::{Control, GraphNode};
use godot::prelude::*;
use ridgeline_core::graph::draft::Draft;
use serde_json::Value;

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
        let mut t = terrain.clone().upcast::<Object>();
        for (signal, method) in [
            ("generation_finished", "_on_graph_generation_finished"),
            ("generation_progress", "_on_graph_generation_progress"),
        ] {
            let call = Callable::from_object_method(&me, method);
            if !t.is_connected(signal, &call) {
                t.connect(signal, &call);
            }
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
}
