//! The canvas's handlers: wires, delete, copy/cut/paste/duplicate, moves, the problems list,
//! the active output and comment text. Each edit is one step on the workspace history.
//! Editor-only: nothing here is registered in games.

use super::workspace::Workspace;
use crate::editor::plugin::RidgelineEditorPlugin;
use godot::classes::TextEdit;
use godot::prelude::*;

/// Where a paste lands relative to the copied nodes.
const PASTE_OFFSET: [f64; 2] = [40.0, 40.0];

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
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
}

impl RidgelineEditorPlugin {
    /// Copies the selection to the workspace clipboard; returns the copied ids.
    pub(super) fn graph_copy(&mut self) -> Vec<String> {
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
}
