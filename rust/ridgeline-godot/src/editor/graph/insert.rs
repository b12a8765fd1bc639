//! Inserting nodes from the **Terrain Nodes** palette: search, double-click, **Insert**, and
//! drag-and-drop onto the canvas at the drop point (zoom and scroll applied).
//! Editor-only: nothing here is registered in games.

use super::palette::DRAG_KEY;
use crate::editor::plugin::RidgelineEditorPlugin;
use godot::prelude::*;

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
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
}

/// The node type of palette drag data.
fn dropped_type(data: &Variant) -> Option<String> {
    let d = data.try_to::<VarDictionary>().ok()?;
    let ty = d.get(DRAG_KEY)?.try_to::<GString>().ok()?.to_string();
    ridgeline_core::nodes::spec(&ty).map(|_| ty)
}

impl RidgelineEditorPlugin {
    pub(super) fn graph_insert(&mut self, ty: &str, at: [f64; 2]) {
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

    pub(super) fn graph_insert_centre(&mut self, ty: &str) {
        let Some(w) = &self.graph else { return };
        let centre = w.canvas.get_size() / 2.0;
        let p = w.to_graph(centre);
        self.graph_insert(ty, p);
    }
}
