//! The generation graph: nodes with stable ids, typed pins, one connection per input, no
//! cycles, and a Terrain Output node named by `output`. Editing operations validate first and
//! leave the graph unchanged when they fail.
//!
//! JSON (`recipe.graph`):
//! ```json
//! { "format_version": 1, "output": "out",
//!   "nodes": [ { "id": "hills", "type": "noise_terrain", "position": [0, 0], "params": {…} },
//!              { "id": "out", "type": "terrain_output", "inputs": { "heightfield": "hills" } },
//!              { "id": "note", "type": "comment", "text": "…" } ] }
//! ```
//! An input names its source as `"node"` (the source's first output) or `"node:pin"`.

pub mod draft;
mod draft_renames;
mod draft_sources;
pub mod eval;
pub mod history;

use crate::doc::reader::{ObjectReader, entry, index, member, type_name};
use crate::doc::write::json_number;
use crate::error::{Diagnostics, Error, Result};
use crate::nodes::{CheckContext, Node, PinSpec, parse_node};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// Most nodes in one graph (a located error above it). Every walk over the graph is iterative
/// and every lookup a map, so the limit bounds work and memory, not stack depth.
pub const MAX_NODES: usize = 50_000;

/// A connection source: node id and output pin name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PinRef {
    /// Source node id.
    pub node: String,
    /// Source output pin.
    pub pin: String,
}

/// One node placed in the graph.
#[derive(Clone, Debug)]
pub struct GraphNode {
    /// Stable id.
    pub id: String,
    /// Behaviour and parameters.
    pub node: Arc<Node>,
    /// Canvas position (layout only; not part of cache keys).
    pub position: [f64; 2],
    /// Comment text (comment nodes only; not part of cache keys).
    pub text: Option<String>,
    /// Connected inputs by input pin name.
    pub inputs: BTreeMap<String, PinRef>,
}

impl GraphNode {
    fn input_spec(&self, name: &str) -> Option<PinSpec> {
        self.node.inputs().iter().find(|p| p.name == name).copied()
    }
    fn output_spec(&self, name: &str) -> Option<PinSpec> {
        self.node.outputs().iter().find(|p| p.name == name).copied()
    }
}

/// A validated graph.
#[derive(Clone, Debug)]
pub struct Graph {
    /// The Terrain Output node's id.
    pub output: String,
    /// Nodes in authored order.
    pub nodes: Vec<GraphNode>,
    /// Node index by id (rebuilt by [`Graph::reindex`]; lookups verify it and fall back to a
    /// scan if `nodes` was changed directly).
    index: HashMap<String, usize>,
}

impl Graph {
    /// The conventional pipeline used by recipes without a graph: the default landform
    /// straight into the output.
    pub fn conventional() -> Self {
        let mut d = Diagnostics::default();
        let empty = Value::Object(Map::new());
        let landform = parse_node("landform", &empty, "", &mut d);
        let output = parse_node("terrain_output", &empty, "", &mut d);
        let mut nodes = Vec::new();
        if let (Some(l), Some(o)) = (landform, output) {
            nodes.push(GraphNode {
                id: "landform".into(),
                node: Arc::new(l),
                position: [0.0, 0.0],
                text: None,
                inputs: BTreeMap::new(),
            });
            nodes.push(GraphNode {
                id: "output".into(),
                node: Arc::new(o),
                position: [300.0, 0.0],
                text: None,
                inputs: BTreeMap::from([(
                    "heightfield".to_string(),
                    PinRef {
                        node: "landform".into(),
                        pin: "heightfield".into(),
                    },
                )]),
            });
        }
        Graph::from_nodes("output".into(), nodes)
    }

    /// A graph over `nodes` (indexed by id).
    pub fn from_nodes(output: String, nodes: Vec<GraphNode>) -> Self {
        let mut g = Graph {
            output,
            nodes,
            index: HashMap::new(),
        };
        g.reindex();
        g
    }

    /// Rebuilds the id index after `nodes` was changed directly.
    pub fn reindex(&mut self) {
        self.index = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.clone(), i))
            .collect();
    }

    /// Index of node `id`.
    pub fn find(&self, id: &str) -> Option<usize> {
        match self.index.get(id) {
            Some(&i) if self.nodes.get(i).is_some_and(|n| n.id == id) => Some(i),
            _ => self.nodes.iter().position(|n| n.id == id),
        }
    }

    /// Node `id`.
    pub fn node(&self, id: &str) -> Option<&GraphNode> {
        self.find(id).map(|i| &self.nodes[i])
    }

    /// Parses and validates `value` at `path` (structure, types, params, connections, kinds,
    /// cycles, output). Missing required inputs are allowed in a draft; see
    /// [`Graph::check_ready`].
    pub fn parse(value: &Value, path: &str, d: &mut Diagnostics) -> Option<Graph> {
        let start = d.0.len();
        let mut r = ObjectReader::new(path, value, d);
        r.int(d, "format_version", 1, 1..=1);
        let output = r.opt_str(d, "output").unwrap_or_default();
        let mut nodes: Vec<GraphNode> = Vec::new();
        let mut raw_inputs: Vec<(String, BTreeMap<String, String>)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        match r.raw("nodes") {
            Some(Value::Array(arr)) if arr.len() > MAX_NODES => d.push(
                r.at("nodes"),
                format!(
                    "has {} nodes; the limit is {MAX_NODES} (split the terrain or simplify the graph)",
                    arr.len()
                ),
            ),
            Some(Value::Array(arr)) => {
                for (i, nv) in arr.iter().enumerate() {
                    let p = index(&r.at("nodes"), i);
                    let mut nr = ObjectReader::new(&p, nv, d);
                    let id = nr.opt_str(d, "id").unwrap_or_default();
                    if id.is_empty() || id.contains(':') {
                        d.push(
                            nr.at("id"),
                            format!("must be a non-empty id without ':', got \"{id}\""),
                        );
                    } else if !seen.insert(id.clone()) {
                        d.push(nr.at("id"), format!("duplicate node id `{id}`"));
                    }
                    let npath = entry(&r.at("nodes"), &id);
                    let type_id = nr.opt_str(d, "type").unwrap_or_default();
                    let params = nr
                        .raw("params")
                        .cloned()
                        .unwrap_or(Value::Object(Map::new()));
                    let position = nr.numbers::<2>(d, "position", [0.0, 0.0]);
                    let text = nr.opt_str(d, "text");
                    if text.is_some() && type_id != "comment" {
                        d.push(nr.at("text"), "only comment nodes carry text");
                    }
                    let mut inputs = BTreeMap::new();
                    match nr.raw("inputs") {
                        None => {}
                        Some(Value::Object(m)) => {
                            for (pin, src) in m {
                                match src.as_str() {
                                    Some(s) => {
                                        inputs.insert(pin.clone(), s.to_string());
                                    }
                                    None => d.push(
                                        member(&member(&npath, "inputs"), pin),
                                        format!("must be a source like \"node\" or \"node:pin\", got {}", type_name(src)),
                                    ),
                                }
                            }
                        }
                        Some(other) => d.push(
                            nr.at("inputs"),
                            format!("must be an object, got {}", type_name(other)),
                        ),
                    }
                    nr.finish(d);
                    if let Some(node) = parse_node(&type_id, &params, &member(&npath, "params"), d)
                    {
                        nodes.push(GraphNode {
                            id: id.clone(),
                            node: Arc::new(node),
                            position,
                            text,
                            inputs: BTreeMap::new(),
                        });
                        raw_inputs.push((id, inputs));
                    }
                }
            }
            Some(other) => d.push(
                r.at("nodes"),
                format!("must be an array of nodes, got {}", type_name(other)),
            ),
            None => d.push(r.at("nodes"), "is required"),
        }
        r.finish(d);
        let mut graph = Graph::from_nodes(output, nodes);
        // Connections.
        for (id, inputs) in raw_inputs {
            for (pin, src) in inputs {
                let at = member(&member(&entry(&member(path, "nodes"), &id), "inputs"), &pin);
                match graph.resolve(&id, &pin, &src) {
                    Ok(pref) => {
                        if let Some(i) = graph.find(&id) {
                            graph.nodes[i].inputs.insert(pin, pref);
                        }
                    }
                    Err(msg) => d.push(at, msg),
                }
            }
        }
        // Output.
        match graph.node(&graph.output) {
            Some(n) if n.node.type_id() == "terrain_output" => {}
            Some(n) => d.push(
                member(path, "output"),
                format!(
                    "names `{}`, a {} node; it must name a terrain_output node",
                    graph.output,
                    n.node.type_id()
                ),
            ),
            None => d.push(
                member(path, "output"),
                format!(
                    "must name the Terrain Output node's id; `{}` is not a node",
                    graph.output
                ),
            ),
        }
        if let Some(cycle) = graph.find_cycle() {
            d.push(
                member(path, "nodes"),
                format!("connections form a cycle: {}", cycle.join(" → ")),
            );
        }
        (d.0.len() == start).then_some(graph)
    }

    /// Resolves `"node"` / `"node:pin"` for input `pin` of node `to`; checks existence and kind.
    fn resolve(&self, to: &str, pin: &str, src: &str) -> std::result::Result<PinRef, String> {
        let target = self
            .node(to)
            .ok_or_else(|| format!("node `{to}` does not exist"))?;
        let spec = target.input_spec(pin).ok_or_else(|| {
            let names: Vec<_> = target.node.inputs().iter().map(|p| p.name).collect();
            format!(
                "{} has no input `{pin}`; its inputs are: {}",
                target.node.type_id(),
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )
        })?;
        let (node, out_pin) = match src.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (src, None),
        };
        let source = self
            .node(node)
            .ok_or_else(|| format!("connects from `{node}`, which is not a node"))?;
        let out =
            match out_pin {
                Some(p) => source.output_spec(p).ok_or_else(|| {
                    format!("`{node}` ({}) has no output `{p}`", source.node.type_id())
                })?,
                None => *source.node.outputs().first().ok_or_else(|| {
                    format!("`{node}` ({}) has no outputs", source.node.type_id())
                })?,
            };
        if out.kind != spec.kind {
            return Err(format!(
                "cannot connect `{node}:{}` ({}) to `{pin}` ({}): pins must be of the same kind",
                out.name,
                out.kind.name(),
                spec.kind.name()
            ));
        }
        Ok(PinRef {
            node: node.to_string(),
            pin: out.name.to_string(),
        })
    }

    /// A cycle as a list of node ids, if the connections contain one. Iterative: the depth of
    /// the graph never reaches the call stack.
    pub fn find_cycle(&self) -> Option<Vec<String>> {
        // 0 = unvisited, 1 = on the path, 2 = done
        let mut state = vec![0u8; self.nodes.len()];
        let sources: Vec<Vec<usize>> = self
            .nodes
            .iter()
            .map(|n| {
                n.inputs
                    .values()
                    .filter_map(|s| self.find(&s.node))
                    .collect()
            })
            .collect();
        for root in 0..self.nodes.len() {
            if state[root] != 0 {
                continue;
            }
            // The current path with, for each node on it, the next source to visit.
            let mut path: Vec<(usize, usize)> = vec![(root, 0)];
            state[root] = 1;
            while let Some(&mut (i, ref mut next)) = path.last_mut() {
                if let Some(&j) = sources[i].get(*next) {
                    *next += 1;
                    match state[j] {
                        1 => {
                            let pos = path.iter().position(|&(k, _)| k == j).unwrap_or(0);
                            let mut ids: Vec<String> = path[pos..]
                                .iter()
                                .map(|&(k, _)| self.nodes[k].id.clone())
                                .collect();
                            ids.push(self.nodes[j].id.clone());
                            return Some(ids);
                        }
                        0 => {
                            state[j] = 1;
                            path.push((j, 0));
                        }
                        _ => {}
                    }
                } else {
                    state[i] = 2;
                    path.pop();
                }
            }
        }
        None
    }

    /// Checks node parameters against the recipe context (landform names, sampling domains).
    pub fn check(&self, ctx: &CheckContext, path: &str, d: &mut Diagnostics) {
        for n in &self.nodes {
            n.node.check(
                ctx,
                &member(&entry(&member(path, "nodes"), &n.id), "params"),
                d,
            );
        }
    }

    /// Every required input must be connected before generation.
    pub fn check_ready(&self, path: &str) -> Result<()> {
        let mut d = Diagnostics::default();
        for n in &self.nodes {
            for spec in n.node.inputs() {
                if spec.required && !n.inputs.contains_key(spec.name) {
                    d.push(
                        member(
                            &member(&entry(&member(path, "nodes"), &n.id), "inputs"),
                            spec.name,
                        ),
                        format!("required {} input is not connected", spec.kind.name()),
                    );
                }
            }
        }
        d.into_result()
    }

    /// Connects `from` (`"node"` or `"node:pin"`) to input `pin` of node `to`, replacing an
    /// existing connection. Kind mismatches and cycles are rejected and change nothing.
    pub fn connect(&mut self, to: &str, pin: &str, from: &str) -> Result<()> {
        let pref = self
            .resolve(to, pin, from)
            .map_err(|m| Error::invalid(format!("{to}.inputs.{pin}"), m))?;
        let mut next = self.clone();
        let i = next
            .find(to)
            .ok_or_else(|| Error::invalid(to, "no such node"))?;
        next.nodes[i].inputs.insert(pin.to_string(), pref);
        if let Some(cycle) = next.find_cycle() {
            return Err(Error::invalid(
                format!("{to}.inputs.{pin}"),
                format!(
                    "connecting `{from}` would form a cycle: {}",
                    cycle.join(" → ")
                ),
            ));
        }
        *self = next;
        Ok(())
    }

    /// Disconnects input `pin` of node `to` (no error when it was not connected).
    pub fn disconnect(&mut self, to: &str, pin: &str) -> Result<()> {
        let i = self
            .find(to)
            .ok_or_else(|| Error::invalid(to, "no such node"))?;
        self.nodes[i].inputs.remove(pin);
        Ok(())
    }

    /// Moves a node on the canvas (never affects generation).
    pub fn set_position(&mut self, id: &str, position: [f64; 2]) -> Result<()> {
        let i = self
            .find(id)
            .ok_or_else(|| Error::invalid(id, "no such node"))?;
        self.nodes[i].position = position;
        Ok(())
    }

    /// Canonical JSON.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("format_version".into(), Value::from(1));
        m.insert("output".into(), Value::from(self.output.clone()));
        let nodes = self
            .nodes
            .iter()
            .map(|n| {
                let mut nm = Map::new();
                nm.insert("id".into(), Value::from(n.id.clone()));
                nm.insert("type".into(), Value::from(n.node.type_id()));
                nm.insert(
                    "position".into(),
                    Value::Array(vec![json_number(n.position[0]), json_number(n.position[1])]),
                );
                let params = n.node.params();
                if !params.is_empty() {
                    nm.insert("params".into(), Value::Object(params));
                }
                if !n.inputs.is_empty() {
                    let mut im = Map::new();
                    for (pin, src) in &n.inputs {
                        let first = self
                            .node(&src.node)
                            .and_then(|s| s.node.outputs().first())
                            .map(|p| p.name);
                        let text = if first == Some(src.pin.as_str()) {
                            src.node.clone()
                        } else {
                            format!("{}:{}", src.node, src.pin)
                        };
                        im.insert(pin.clone(), Value::from(text));
                    }
                    nm.insert("inputs".into(), Value::Object(im));
                }
                if let Some(t) = &n.text {
                    nm.insert("text".into(), Value::from(t.clone()));
                }
                Value::Object(nm)
            })
            .collect();
        m.insert("nodes".into(), Value::Array(nodes));
        Value::Object(m)
    }
}

#[cfg(test)]
mod tests;
