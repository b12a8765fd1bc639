//! Handlers of the cards' parameter controls: values, reset to default, and point-list rows
//! (edit, add, remove).
//! Editor-only: nothing here is registered in games.

use super::params;
use crate::editor::plugin::RidgelineEditorPlugin;
use godot::classes::Control;
use godot::prelude::*;
use serde_json::Value;

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
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
        self.graph_show_param_set(&id, &name);
        // A Water Body's `kind` decides which rows its card shows: rebuild it (deferred: the
        // control that changed is on that card).
        let controls = self
            .graph_param_specs(&id)
            .is_some_and(|specs| params::controls_others(specs, &name));
        if controls && let Some(w) = &mut self.graph {
            w.rebuild_card(&id);
            self.to_gd().call_deferred("_graph_refresh", &[]);
        }
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
        self.graph_show_param_set(&id, &name);
    }

    /// Card: **Show N points** / **Hide N points** on a long point list.
    #[func]
    fn _on_graph_points_toggled(&mut self, node: GString, param: GString) {
        if let Some(w) = &mut self.graph {
            w.toggle_list(&node.to_string(), &param.to_string());
            // Deferred: the button that asked is on the card the refresh rebuilds.
            self.to_gd().call_deferred("_graph_refresh", &[]);
        }
    }

    /// Card: a long point list's page buttons (first / previous / next / last): shows `page`.
    #[func]
    fn _on_graph_points_page(&mut self, node: GString, param: GString, page: i64) {
        let Ok(page) = usize::try_from(page) else {
            return;
        };
        if let Some(w) = &mut self.graph {
            w.show_list_page(&node.to_string(), &param.to_string(), page);
            // Deferred: the button that asked is on the card the refresh rebuilds.
            self.to_gd().call_deferred("_graph_refresh", &[]);
        }
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
        self.graph_follow_point(&id, &name, points.len() - 1);
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

    /// Card: a point list's move up (`delta` −1) or move down (+1) button on row `row`.
    #[func]
    fn _on_graph_point_move(&mut self, node: GString, param: GString, row: i64, delta: i64) {
        let (id, name) = (node.to_string(), param.to_string());
        let mut points = self
            .graph_param_value(&id, &name)
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default();
        let (Ok(from), Some(to)) = (usize::try_from(row), row.checked_add(delta)) else {
            return;
        };
        let Ok(to) = usize::try_from(to) else { return };
        if from >= points.len() || to >= points.len() || from == to {
            return;
        }
        points.swap(from, to);
        self.graph_follow_point(&id, &name, to);
        self.graph_edit_deferred(&format!("Move a point of {id}.{name}"), move |d| {
            d.set_param(&id, &name, Some(Value::Array(points)))
        });
    }
}

impl RidgelineEditorPlugin {
    /// An open point list shows the page holding point `index` (an added or moved point stays
    /// in view). A list short enough to be shown without opening it stays shown when the added
    /// point makes it long enough to fold.
    fn graph_follow_point(&mut self, id: &str, name: &str, index: usize) {
        if let Some(w) = &mut self.graph
            && (w.list_page(id, name).is_some() || index == params::FOLD_OVER)
        {
            w.show_list_page(id, name, index / params::POINTS_PER_PAGE);
        }
    }

    /// After a value control's edit (the card is kept, not rebuilt): the row of `id`.`name`
    /// shows that the value is set (its reset button appears).
    fn graph_show_param_set(&self, id: &str, name: &str) {
        let me = self.to_gd().upcast::<Object>();
        let Some(w) = self.graph.as_ref() else { return };
        if !w
            .draft
            .node(id)
            .is_some_and(|n| n.params.contains_key(name))
        {
            return;
        }
        if let Some(mut row) = w
            .card(id)
            .and_then(|c| c.try_get_node_as::<Control>(&format!("param_{name}")))
        {
            params::show_set(&me, id, name, &mut row);
        }
    }

    /// The catalogue's parameter entries of node `id`'s type.
    fn graph_param_specs(&self, id: &str) -> Option<&[Value]> {
        let w = self.graph.as_ref()?;
        let n = w.draft.node(id)?;
        Some(
            w.catalog
                .get(&n.type_id)?
                .get("params")?
                .as_array()?
                .as_slice(),
        )
    }

    pub(super) fn graph_param_spec(&self, id: &str, name: &str) -> Option<Value> {
        self.graph_param_specs(id)?
            .iter()
            .find(|p| params::name(p) == name)
            .cloned()
    }

    /// The parameter's value in the draft, or its default.
    pub(super) fn graph_param_value(&self, id: &str, name: &str) -> Option<Value> {
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
}
