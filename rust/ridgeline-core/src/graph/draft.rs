//! The editor's draft graph: what the Terrain Graph workspace edits before it is applied.
//!
//! A [`Draft`] keeps node parameters as authored JSON, so a card can hold a value the node
//! refuses (shown as a diagnostic) without losing it; everything structural is checked on every
//! edit, and a refused edit leaves the draft unchanged: one connection per input, pins of the
//! same kind, no cycles, ids unique and without `:`, node types from the registry
//! ([`crate::nodes::REGISTRY`]). Copy and paste carry the copied nodes with the links between
//! them (links from outside are dropped) and give pasted nodes fresh ids. [`Draft::to_graph`]
//! validates the whole draft as a recipe graph.

use super::{Graph, PinRef};
use crate::doc::reader::{entry, member};
use crate::doc::write::json_number;
use crate::error::{Diagnostic, Diagnostics, Error, Result};
use crate::nodes::{NodeSpec, PinSpec, parse_node, spec, unknown_type_message};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The clipboard format tag (`copy` writes it, `paste` requires it).
pub const CLIPBOARD_FORMAT: &str = "ridgeline.graph.clipboard/1";

/// One node of a draft.
#[derive(Clone, Debug, PartialEq)]
pub struct DraftNode {
    /// Stable id (unique, no `:`).
    pub id: String,
    /// Registered type id.
    pub type_id: String,
    /// Canvas position (layout only: saved in the recipe, never in a cache key).
    pub position: [f64; 2],
    /// Parameters as authored (validated by [`Draft::problems`], not on edit).
    pub params: Map<String, Value>,
    /// Comment text (comment nodes only).
    pub text: Option<String>,
    /// Connected inputs by input pin name.
    pub inputs: BTreeMap<String, PinRef>,
}

impl DraftNode {
    /// The node type's registry entry (every draft node has a registered type).
    pub fn spec(&self) -> Option<&'static NodeSpec> {
        spec(&self.type_id)
    }
}

/// A problem the workspace shows on a card and in its list.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The node it concerns (None: the graph as a whole).
    pub node: Option<String>,
    /// The located diagnostic (`graph.nodes["id"].params.x`).
    pub diagnostic: Diagnostic,
}

/// An editable graph (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    /// The active Terrain Output's id.
    pub output: String,
    /// Nodes in authored order.
    pub nodes: Vec<DraftNode>,
}

fn invalid(path: impl Into<String>, msg: impl Into<String>) -> Error {
    Error::invalid(path, msg)
}

fn find_pin(pins: &'static [PinSpec], name: &str) -> Option<PinSpec> {
    pins.iter().find(|p| p.name == name).copied()
}

fn names(pins: &[PinSpec]) -> String {
    if pins.is_empty() {
        "none".into()
    } else {
        pins.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
    }
}

impl Draft {
    /// The draft of a validated graph.
    pub fn from_graph(g: &Graph) -> Self {
        Draft {
            output: g.output.clone(),
            nodes: g
                .nodes
                .iter()
                .map(|n| DraftNode {
                    id: n.id.clone(),
                    type_id: n.node.type_id().to_string(),
                    position: n.position,
                    params: n.node.params(),
                    text: n.text.clone(),
                    inputs: n.inputs.clone(),
                })
                .collect(),
        }
    }

    /// A small working chain: Noise Terrain → Erosion → Biome Rules → Terrain Output, with a
    /// comment explaining it.
    pub fn starter() -> Self {
        let mut d = Draft {
            output: "output".into(),
            nodes: Vec::new(),
        };
        let mut add = |id: &str, ty: &str, x: f64, y: f64, params: Value| {
            d.nodes.push(DraftNode {
                id: id.into(),
                type_id: ty.into(),
                position: [x, y],
                params: params.as_object().cloned().unwrap_or_default(),
                text: None,
                inputs: BTreeMap::new(),
            });
        };
        add("hills", "noise_terrain", 0.0, 0.0, json!({}));
        add("erode", "erosion", 300.0, 0.0, json!({}));
        add("biomes", "biome_rules", 600.0, 0.0, json!({}));
        add("output", "terrain_output", 900.0, 0.0, json!({}));
        add("note", "comment", 0.0, -200.0, json!({}));
        if let Some(n) = d.nodes.iter_mut().find(|n| n.id == "note") {
            n.text = Some(
                "Starter graph: noise hills, eroded, coloured by the biome rules.\n\
                 Change a card's parameters, then Generate."
                    .into(),
            );
        }
        for (to, pin, from) in [
            ("erode", "field", "hills"),
            ("biomes", "field", "erode"),
            ("output", "heightfield", "biomes"),
        ] {
            let _ = d.connect(to, pin, from, None);
        }
        d
    }

    /// Index of node `id`.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.id == id)
    }

    /// Node `id`.
    pub fn node(&self, id: &str) -> Option<&DraftNode> {
        self.find(id).map(|i| &self.nodes[i])
    }

    fn node_mut(&mut self, id: &str) -> Result<&mut DraftNode> {
        let i = self
            .find(id)
            .ok_or_else(|| invalid(entry("graph.nodes", id), "no such node"))?;
        Ok(&mut self.nodes[i])
    }

    /// A fresh id based on `base` (a type id, or a copied node's id): `base` itself when it is
    /// free, else `<base>_<n>` with the smallest free n ≥ 2.
    pub fn fresh_id(&self, base: &str) -> String {
        let taken: HashSet<&str> = self.nodes.iter().map(|n| n.id.as_str()).collect();
        // A pasted `hills_2` becomes `hills_3`, not `hills_2_2`.
        let base = match base.rsplit_once('_') {
            Some((stem, n)) if !stem.is_empty() && n.parse::<u32>().is_ok_and(|n| n >= 2) => stem,
            _ if base.is_empty() => "node",
            _ => base,
        };
        if !taken.contains(base) {
            return base.to_string();
        }
        (2..)
            .map(|i| format!("{base}_{i}"))
            .find(|id| !taken.contains(id.as_str()))
            .unwrap_or_else(|| format!("{base}_x"))
    }

    /// Inserts a node of `type_id` at `position` with default parameters; returns its id.
    pub fn add(&mut self, type_id: &str, position: [f64; 2]) -> Result<String> {
        if spec(type_id).is_none() {
            return Err(invalid("type", unknown_type_message(type_id)));
        }
        let id = self.fresh_id(type_id);
        self.nodes.push(DraftNode {
            id: id.clone(),
            type_id: type_id.into(),
            position: [position[0].round(), position[1].round()],
            params: Map::new(),
            text: (type_id == "comment").then(String::new),
            inputs: BTreeMap::new(),
        });
        if type_id == "terrain_output" && self.node(&self.output).is_none() {
            self.output = id.clone();
        }
        Ok(id)
    }

    /// Removes nodes and every connection from them; returns how many were removed.
    pub fn remove(&mut self, ids: &[String]) -> usize {
        let gone: HashSet<&str> = ids.iter().map(String::as_str).collect();
        let before = self.nodes.len();
        self.nodes.retain(|n| !gone.contains(n.id.as_str()));
        for n in &mut self.nodes {
            n.inputs.retain(|_, src| !gone.contains(src.node.as_str()));
        }
        before - self.nodes.len()
    }

    /// Connects output `from_pin` of `from` (its first output when None) to input `pin` of
    /// `to`, replacing that input's connection (returned). Unknown nodes or pins, kind
    /// mismatches and cycles are refused and change nothing.
    pub fn connect(
        &mut self,
        to: &str,
        pin: &str,
        from: &str,
        from_pin: Option<&str>,
    ) -> Result<Option<PinRef>> {
        let at = member(&member(&entry("graph.nodes", to), "inputs"), pin);
        let target = self
            .node(to)
            .ok_or_else(|| invalid(entry("graph.nodes", to), "no such node"))?;
        let tspec = target
            .spec()
            .ok_or_else(|| invalid(&at, unknown_type_message(&target.type_id)))?;
        let input = find_pin(tspec.inputs, pin).ok_or_else(|| {
            invalid(
                &at,
                format!(
                    "{} has no input `{pin}`; its inputs are: {}",
                    tspec.id,
                    names(tspec.inputs)
                ),
            )
        })?;
        let source = self
            .node(from)
            .ok_or_else(|| invalid(&at, format!("connects from `{from}`, which is not a node")))?;
        let sspec = source
            .spec()
            .ok_or_else(|| invalid(&at, unknown_type_message(&source.type_id)))?;
        let out = match from_pin {
            Some(p) => find_pin(sspec.outputs, p).ok_or_else(|| {
                invalid(
                    &at,
                    format!(
                        "`{from}` ({}) has no output `{p}`; its outputs are: {}",
                        sspec.id,
                        names(sspec.outputs)
                    ),
                )
            })?,
            None => *sspec
                .outputs
                .first()
                .ok_or_else(|| invalid(&at, format!("`{from}` ({}) has no outputs", sspec.id)))?,
        };
        if out.kind != input.kind {
            return Err(invalid(
                &at,
                format!(
                    "cannot connect `{from}:{}` ({}) to `{pin}` ({}): pins must be of the same kind",
                    out.name,
                    out.kind.name(),
                    input.kind.name()
                ),
            ));
        }
        if let Some(cycle) = self.path_between(to, from) {
            let mut ids = cycle;
            ids.push(to.to_string());
            return Err(invalid(
                &at,
                format!(
                    "connecting `{from}` would form a cycle: {}",
                    ids.join(" → ")
                ),
            ));
        }
        let pref = PinRef {
            node: from.to_string(),
            pin: out.name.to_string(),
        };
        let node = self.node_mut(to)?;
        Ok(node.inputs.insert(pin.to_string(), pref))
    }

    /// A chain of ids `a → … → b` where each node feeds the next, if `b` depends on `a`
    /// (including `a == b`). Iterative.
    fn path_between(&self, a: &str, b: &str) -> Option<Vec<String>> {
        // Walk b's sources upwards looking for a, remembering where each came from.
        let mut came_from: HashMap<String, String> = HashMap::new();
        let mut stack = vec![b.to_string()];
        let mut seen: HashSet<String> = HashSet::from([b.to_string()]);
        while let Some(id) = stack.pop() {
            if id == a {
                // Rebuild a → … → b.
                let mut path = vec![id.clone()];
                let mut cur = id;
                while let Some(next) = came_from.get(&cur) {
                    path.push(next.clone());
                    cur = next.clone();
                }
                return Some(path);
            }
            if let Some(n) = self.node(&id) {
                for src in n.inputs.values() {
                    if seen.insert(src.node.clone()) {
                        came_from.insert(src.node.clone(), id.clone());
                        stack.push(src.node.clone());
                    }
                }
            }
        }
        None
    }

    /// Disconnects input `pin` of `to`; returns what it was connected to.
    pub fn disconnect(&mut self, to: &str, pin: &str) -> Result<Option<PinRef>> {
        Ok(self.node_mut(to)?.inputs.remove(pin))
    }

    /// Sets (Some) or resets to its default (None) parameter `name` of node `id`. The name must
    /// be one of the type's parameters; the value is checked by [`Draft::problems`].
    pub fn set_param(&mut self, id: &str, name: &str, value: Option<Value>) -> Result<()> {
        let at = member(&member(&entry("graph.nodes", id), "params"), name);
        let n = self.node_mut(id)?;
        let s = n
            .spec()
            .ok_or_else(|| invalid(&at, unknown_type_message(&n.type_id)))?;
        if !s.param_specs().any(|p| p.name == name) {
            let known: Vec<_> = s.param_specs().map(|p| p.name).collect();
            return Err(invalid(
                at,
                format!(
                    "{} has no parameter `{name}`; its parameters are: {}",
                    s.id,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            ));
        }
        match value {
            Some(v) => n.params.insert(name.to_string(), v),
            None => n.params.remove(name),
        };
        Ok(())
    }

    /// Sets a comment's text.
    pub fn set_text(&mut self, id: &str, text: &str) -> Result<()> {
        let n = self.node_mut(id)?;
        if n.type_id != "comment" {
            return Err(invalid(
                member(&entry("graph.nodes", id), "text"),
                "only comment nodes carry text",
            ));
        }
        n.text = Some(text.to_string());
        Ok(())
    }

    /// Moves nodes (layout only). Unknown ids are refused before anything moves.
    pub fn move_nodes(&mut self, moves: &[(String, [f64; 2])]) -> Result<()> {
        if let Some((id, _)) = moves.iter().find(|(id, _)| self.find(id).is_none()) {
            return Err(invalid(entry("graph.nodes", id), "no such node"));
        }
        for (id, p) in moves {
            self.node_mut(id)?.position = *p;
        }
        Ok(())
    }

    /// Makes Terrain Output node `id` the active output.
    pub fn set_output(&mut self, id: &str) -> Result<()> {
        match self.node(id) {
            Some(n) if n.type_id == "terrain_output" => {
                self.output = id.to_string();
                Ok(())
            }
            Some(n) => Err(invalid(
                "graph.output",
                format!(
                    "`{id}` is a {} node; the output must be a terrain_output",
                    n.type_id
                ),
            )),
            None => Err(invalid("graph.output", format!("`{id}` is not a node"))),
        }
    }

    /// The clipboard document for nodes `ids`: the nodes and the links between them.
    pub fn copy(&self, ids: &[String]) -> Value {
        let set: HashSet<&str> = ids.iter().map(String::as_str).collect();
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .filter(|n| set.contains(n.id.as_str()))
            .map(|n| {
                let mut n = n.clone();
                n.inputs.retain(|_, src| set.contains(src.node.as_str()));
                node_value(&n)
            })
            .collect();
        json!({ "format": CLIPBOARD_FORMAT, "nodes": nodes })
    }

    /// Pastes a clipboard document, moved by `offset`: every node gets a fresh id and the
    /// links between pasted nodes follow them. Returns the new ids; a bad document changes
    /// nothing.
    pub fn paste(&mut self, clip: &Value, offset: [f64; 2]) -> Result<Vec<String>> {
        if clip.get("format").and_then(Value::as_str) != Some(CLIPBOARD_FORMAT) {
            return Err(invalid(
                "clipboard",
                format!("is not Ridgeline graph nodes (expected format `{CLIPBOARD_FORMAT}`)"),
            ));
        }
        let Some(items) = clip.get("nodes").and_then(Value::as_array) else {
            return Err(invalid("clipboard.nodes", "must be an array of nodes"));
        };
        let mut next = self.clone();
        let mut renamed: HashMap<String, String> = HashMap::new();
        let mut pasted: Vec<(DraftNode, BTreeMap<String, PinRef>)> = Vec::new();
        for (i, v) in items.iter().enumerate() {
            let at = format!("clipboard.nodes[{i}]");
            let mut n = read_node(v, &at)?;
            if spec(&n.type_id).is_none() {
                return Err(invalid(
                    member(&at, "type"),
                    unknown_type_message(&n.type_id),
                ));
            }
            let fresh = next.fresh_id(&n.id);
            renamed.insert(n.id.clone(), fresh.clone());
            n.id = fresh;
            n.position = [n.position[0] + offset[0], n.position[1] + offset[1]];
            let links = std::mem::take(&mut n.inputs);
            next.nodes.push(n.clone());
            pasted.push((n, links));
        }
        for (n, links) in &pasted {
            for (pin, src) in links {
                if let Some(from) = renamed.get(&src.node) {
                    let out = Some(src.pin.as_str()).filter(|p| !p.is_empty());
                    next.connect(&n.id, pin, from, out)?;
                }
            }
        }
        let ids = pasted.into_iter().map(|(n, _)| n.id).collect();
        *self = next;
        Ok(ids)
    }

    /// Copies and pastes `ids` at `offset` (fresh ids, internal links kept).
    pub fn duplicate(&mut self, ids: &[String], offset: [f64; 2]) -> Result<Vec<String>> {
        let clip = self.copy(ids);
        self.paste(&clip, offset)
    }

    /// The recipe's `graph` JSON (canonical order, as [`Graph::to_value`] writes it).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("format_version".into(), Value::from(1));
        m.insert("output".into(), Value::from(self.output.clone()));
        let nodes = self.nodes.iter().map(|n| self.saved(n)).collect();
        m.insert("nodes".into(), Value::Array(nodes));
        Value::Object(m)
    }

    /// A node as saved: inputs from a source's first output are written as `"node"`.
    fn saved(&self, n: &DraftNode) -> Value {
        let mut v = node_value(n);
        if let Some(Value::Object(inputs)) = v.get_mut("inputs") {
            for (pin, src) in &n.inputs {
                let first = self
                    .node(&src.node)
                    .and_then(DraftNode::spec)
                    .and_then(|s| s.outputs.first())
                    .map(|p| p.name);
                if first == Some(src.pin.as_str()) {
                    inputs.insert(pin.clone(), Value::from(src.node.clone()));
                }
            }
        }
        v
    }

    /// The draft as a validated graph (every problem located under `path`).
    pub fn to_graph(&self, path: &str) -> Result<Graph> {
        let mut d = Diagnostics::default();
        match Graph::parse(&self.to_value(), path, &mut d) {
            Some(g) if d.is_empty() => Ok(g),
            _ => Err(Error::Invalid(d.0)),
        }
    }

    /// What the workspace lists: invalid parameters, unconnected required inputs and a missing
    /// active output, each with the node it concerns.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        for n in &self.nodes {
            let base = entry("graph.nodes", &n.id);
            let mut d = Diagnostics::default();
            let _ = parse_node(
                &n.type_id,
                &Value::Object(n.params.clone()),
                &member(&base, "params"),
                &mut d,
            );
            if let Some(s) = n.spec() {
                for p in s.inputs {
                    if p.required && !n.inputs.contains_key(p.name) {
                        d.push(
                            member(&member(&base, "inputs"), p.name),
                            format!("required {} input is not connected", p.kind.name()),
                        );
                    }
                }
            }
            out.extend(d.0.into_iter().map(|diagnostic| Problem {
                node: Some(n.id.clone()),
                diagnostic,
            }));
        }
        match self.node(&self.output) {
            Some(n) if n.type_id == "terrain_output" => {}
            _ => out.push(Problem {
                node: None,
                diagnostic: Diagnostic::new(
                    "graph.output",
                    "no active Terrain Output: add one or mark one as active",
                ),
            }),
        }
        out
    }
}

/// A node's JSON (inputs as `"node:pin"`).
fn node_value(n: &DraftNode) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), Value::from(n.id.clone()));
    m.insert("type".into(), Value::from(n.type_id.clone()));
    m.insert(
        "position".into(),
        Value::Array(vec![json_number(n.position[0]), json_number(n.position[1])]),
    );
    if !n.params.is_empty() {
        m.insert("params".into(), Value::Object(n.params.clone()));
    }
    if !n.inputs.is_empty() {
        let inputs = n
            .inputs
            .iter()
            .map(|(pin, src)| {
                (
                    pin.clone(),
                    Value::from(format!("{}:{}", src.node, src.pin)),
                )
            })
            .collect();
        m.insert("inputs".into(), Value::Object(inputs));
    }
    if let Some(t) = &n.text {
        m.insert("text".into(), Value::from(t.clone()));
    }
    Value::Object(m)
}

/// Reads one clipboard node (inputs must be `"node:pin"` or `"node"`).
fn read_node(v: &Value, at: &str) -> Result<DraftNode> {
    let o = v
        .as_object()
        .ok_or_else(|| invalid(at, "must be a node object"))?;
    let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
    let id = text("id").ok_or_else(|| invalid(member(at, "id"), "is required"))?;
    let type_id = text("type").ok_or_else(|| invalid(member(at, "type"), "is required"))?;
    let position = match o.get("position").and_then(Value::as_array) {
        Some(a) if a.len() == 2 => [a[0].as_f64().unwrap_or(0.0), a[1].as_f64().unwrap_or(0.0)],
        _ => [0.0, 0.0],
    };
    let params = o
        .get("params")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut inputs = BTreeMap::new();
    if let Some(m) = o.get("inputs").and_then(Value::as_object) {
        for (pin, src) in m {
            let s = src
                .as_str()
                .ok_or_else(|| invalid(member(&member(at, "inputs"), pin), "must be a source"))?;
            let (node, p) = s.split_once(':').unwrap_or((s, ""));
            inputs.insert(
                pin.clone(),
                PinRef {
                    node: node.into(),
                    pin: p.into(),
                },
            );
        }
    }
    Ok(DraftNode {
        id,
        type_id,
        position,
        params,
        text: text("text"),
        inputs,
    })
}

#[cfg(test)]
#[path = "draft_tests.rs"]
mod tests;
