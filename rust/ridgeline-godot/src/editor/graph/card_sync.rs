//! Keeping the canvas in step with the draft: one card per node, rebuilt when its node changed,
//! moved when its position did; wires redrawn; problems shown on the cards and in the list;
//! selection and lookups between cards, node ids and ports.

use super::cards::{self, CardRefs};
use super::workspace::Workspace;
use godot::classes::GraphNode;
use godot::prelude::*;
use ridgeline_core::graph::draft::Problem;
use serde_json::Value;
use std::collections::HashMap;

impl Workspace {
    /// The card's node id for a GraphEdit child name.
    pub fn id_of(&self, name: &StringName) -> Option<String> {
        self.names.get(&name.to_string()).cloned()
    }

    /// The card of node `id`.
    pub fn card(&self, id: &str) -> Option<&Gd<GraphNode>> {
        self.cards.get(id)
    }

    /// Ids of the selected cards, in draft order.
    pub fn selected(&self) -> Vec<String> {
        self.draft
            .nodes
            .iter()
            .filter(|n| self.cards.get(&n.id).is_some_and(|c| c.is_selected()))
            .map(|n| n.id.clone())
            .collect()
    }

    /// Selects exactly `ids`.
    pub fn select(&mut self, ids: &[String]) {
        for (id, c) in &mut self.cards {
            c.set_selected(ids.contains(id));
        }
    }

    /// Canvas coordinates of a point in the canvas control (zoom and pan applied).
    pub fn to_graph(&self, at: Vector2) -> [f64; 2] {
        let zoom = self.canvas.get_zoom().max(1e-3);
        let p = (at + self.canvas.get_scroll_offset()) / zoom;
        [p.x as f64, p.y as f64]
    }

    /// Marks that the card of `id` already shows the draft's node (a control edited it).
    pub fn mark_shown(&mut self, id: &str) {
        if let Some(n) = self.draft.node(id) {
            let active = self.draft.output == id;
            self.shown.insert(id.to_string(), (n.clone(), active));
        }
    }

    /// Folds or unfolds point list `param` on the card of `id`; the card is rebuilt by the next
    /// [`Self::refresh`].
    pub fn toggle_list(&mut self, id: &str, param: &str) {
        let open = self.open_lists.entry(id.to_string()).or_default();
        if open.remove(param).is_none() {
            open.insert(param.to_string(), 0);
        }
        self.rebuild_card(id);
    }

    /// Shows point list `param` on the card of `id` at page `page` (clamped when the card is
    /// built), unfolding it if it was folded.
    pub fn show_list_page(&mut self, id: &str, param: &str, page: usize) {
        self.open_lists
            .entry(id.to_string())
            .or_default()
            .insert(param.to_string(), page);
        self.rebuild_card(id);
    }

    /// The page shown of point list `param` on the card of `id` (None: folded).
    pub fn list_page(&self, id: &str, param: &str) -> Option<usize> {
        self.open_lists.get(id)?.get(param).copied()
    }

    /// Makes the next [`Self::refresh`] rebuild the card of `id`.
    pub fn rebuild_card(&mut self, id: &str) {
        self.shown.remove(id);
    }

    /// Brings the canvas in step with the draft: cards added, removed, rebuilt (when their
    /// content changed) or moved; every connection redrawn; problems listed.
    pub fn refresh(&mut self, plugin: &Gd<Object>) {
        let ids: std::collections::HashSet<String> =
            self.draft.nodes.iter().map(|n| n.id.clone()).collect();
        // A node id that went away forgets its open lists (a new node may get the id).
        self.open_lists.retain(|id, _| ids.contains(id));
        let stale: Vec<String> = self
            .cards
            .keys()
            .filter(|id| !ids.contains(*id))
            .cloned()
            .collect();
        for id in stale {
            self.drop_card(&id);
        }
        let nodes = self.draft.nodes.clone();
        for n in &nodes {
            let active = self.draft.output == n.id;
            let same = self.shown.get(&n.id).is_some_and(|(s, a)| {
                *a == active
                    && s.type_id == n.type_id
                    && s.params == n.params
                    && s.text == n.text
                    && s.inputs == n.inputs
            });
            if !same {
                self.drop_card(&n.id);
                let Some(entry) = self.catalog.get(&n.type_id) else {
                    continue;
                };
                self.serial += 1;
                let name = cards::card_name(&n.id, self.serial);
                let card = cards::build(
                    plugin,
                    &CardRefs {
                        entry,
                        node: n,
                        active,
                        name: &name,
                        open_lists: self.open_lists.get(&n.id),
                    },
                );
                if let Some(text) = self.run.footers.get(&n.id) {
                    cards::show_footer(&card, Some(text));
                }
                self.canvas.add_child(&card);
                self.names.insert(name, n.id.clone());
                self.cards.insert(n.id.clone(), card);
            }
            if let Some(c) = self.cards.get_mut(&n.id) {
                let p = Vector2::new(n.position[0] as f32, n.position[1] as f32);
                if c.get_position_offset() != p {
                    c.set_position_offset(p);
                }
            }
            self.shown.insert(n.id.clone(), (n.clone(), active));
        }
        self.canvas.clear_connections();
        for n in &nodes {
            let Some(to) = self.cards.get(&n.id).map(|c| c.get_name()) else {
                continue;
            };
            for (pin, src) in &n.inputs {
                let (Some(from), Some(to_port), Some(from_port)) = (
                    self.cards.get(&src.node).map(|c| c.get_name()),
                    self.port(&n.type_id, "inputs", pin),
                    self.draft
                        .node(&src.node)
                        .and_then(|s| self.port(&s.type_id, "outputs", &src.pin)),
                ) else {
                    continue;
                };
                self.canvas.connect_node(&from, from_port, &to, to_port);
            }
        }
        self.refresh_problems();
    }

    /// Index of pin `name` among the `side` ("inputs"/"outputs") of type `type_id`.
    pub fn port(&self, type_id: &str, side: &str, name: &str) -> Option<i32> {
        self.catalog
            .get(type_id)?
            .get(side)?
            .as_array()?
            .iter()
            .position(|p| p.get("name").and_then(Value::as_str) == Some(name))
            .map(|i| i as i32)
    }

    /// Name of pin `port` on the `side` of type `type_id`.
    pub fn pin_name(&self, type_id: &str, side: &str, port: i64) -> Option<String> {
        let pins = self.catalog.get(type_id)?.get(side)?.as_array()?;
        let p = pins.get(usize::try_from(port).ok()?)?;
        p.get("name").and_then(Value::as_str).map(str::to_string)
    }

    fn drop_card(&mut self, id: &str) {
        if let Some(mut c) = self.cards.remove(id) {
            self.names.remove(&c.get_name().to_string());
            self.canvas.remove_child(&c);
            c.queue_free();
        }
        self.shown.remove(id);
    }

    /// The problems of the draft, on the cards and in the list.
    pub fn refresh_problems(&mut self) {
        let problems: Vec<Problem> = self.draft.problems();
        self.problems.clear();
        let mut per_node: HashMap<String, Vec<String>> = HashMap::new();
        for p in &problems {
            let text = p.diagnostic.to_string();
            let i = self.problems.add_item(&text);
            self.problems
                .set_item_metadata(i, &p.node.clone().unwrap_or_default().to_variant());
            self.problems
                .set_item_custom_fg_color(i, Color::from_rgb(1.0, 0.55, 0.45));
            if let Some(n) = &p.node {
                per_node
                    .entry(n.clone())
                    .or_default()
                    .push(p.diagnostic.message.clone());
            }
        }
        let mut any = !problems.is_empty();
        if !any
            && self.settings != self.applied_settings
            && let Some(t) = &self.target
            && let Ok(doc) = t.document()
            && let Err(e) = super::target::document_with_edits(
                &doc,
                &self.settings,
                &self.applied_settings,
                &self.draft,
            )
        {
            let i = self.problems.add_item(&format!("Recipe settings: {e}"));
            self.problems
                .set_item_custom_fg_color(i, Color::from_rgb(1.0, 0.55, 0.45));
            any = true;
        }
        if !any {
            let i = self.problems.add_item("No problems.");
            self.problems.set_item_selectable(i, false);
        }
        for (id, card) in &self.cards {
            cards::show_problems(card, per_node.get(id).map(Vec::as_slice).unwrap_or(&[]));
        }
        let unapplied = self.unapplied();
        self.status_line(unapplied);
    }
}
