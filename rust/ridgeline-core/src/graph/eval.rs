//! Graph evaluation: dependency order, per-node cache, progress and cooperative cancellation.
//!
//! A node's cache key hashes the generator version, its type, its canonical parameters, what
//! its evaluation context exposes to it ([`EvalContext::hash_exposed`]: the grid, and the seed,
//! landforms, quality or node id when its registry entry declares it reads them) and its
//! inputs' keys. Node positions and comment text are not part of it, so moving nodes or editing
//! notes reuses every result.
//!
//! Memory: a value is dropped once its last consumer has run, so a long chain holds only the
//! values still needed; the cache keeps the run's results up to [`GraphCache::budget`] bytes.

use super::Graph;
use crate::error::{Error, Result};
use crate::grid::Field;
use crate::nodes::{EvalContext, PinValue, Quality, Scene};
use crate::seed::StableHasher;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What one node did in a run.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeReport {
    /// Node id.
    pub id: String,
    /// Node type.
    pub type_id: String,
    /// Wall-clock milliseconds spent evaluating (0 when reused).
    pub time_ms: f64,
    /// True when the result came from the cache.
    pub reused: bool,
    /// Node-specific details (erosion's ledger, drainage's basins, …).
    pub details: Option<serde_json::Value>,
}

/// Results kept between runs, keyed by content hash, up to a byte budget.
#[derive(Debug)]
pub struct GraphCache {
    entries: HashMap<u64, Arc<Cached>>,
    budget: usize,
}

impl Default for GraphCache {
    fn default() -> Self {
        Self::with_budget(Self::DEFAULT_BUDGET)
    }
}

impl GraphCache {
    /// Default byte budget (1 GiB).
    pub const DEFAULT_BUDGET: usize = 1 << 30;

    /// A cache that keeps at most about `bytes` of node results.
    pub fn with_budget(bytes: usize) -> Self {
        Self {
            entries: HashMap::new(),
            budget: bytes,
        }
    }

    /// The byte budget.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Approximate bytes held.
    pub fn bytes(&self) -> usize {
        self.entries.values().map(|c| c.bytes()).sum()
    }

    /// Number of cached node results.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A cached node result.
#[derive(Debug)]
struct Cached {
    values: Vec<PinValue>,
    details: Option<serde_json::Value>,
}

impl Cached {
    /// Approximate heap bytes of the values.
    fn bytes(&self) -> usize {
        self.values
            .iter()
            .map(|v| match v {
                PinValue::Heightfield(f) | PinValue::Mask(f) => f.as_slice().len() * 4,
                PinValue::Classified(c) => {
                    c.field.as_slice().len() * 7
                        + c.flow.as_ref().map_or(0, |f| f.len() * 4)
                        + c.flow_ground.as_ref().map_or(0, |f| f.len() * 4)
                }
                PinValue::Drainage(d) => d.source.as_slice().len() * 16,
                PinValue::Water(w) => w.heap_bytes(),
                PinValue::Instances(s) => s.placements.len() * 32 + 64,
            })
            .sum()
    }
}

/// The output of a graph run.
#[derive(Clone, Debug)]
pub struct EvalOutput {
    /// The published heightfield.
    pub heightfield: Arc<Field<f32>>,
    /// The published water (empty when none is connected).
    pub water: Arc<crate::hydrology::water::WaterSet>,
    /// The published field's biome classification, when it came through Biome Rules.
    pub classified: Option<Arc<crate::nodes::ClassifiedField>>,
    /// The published placements, when Terrain Output's `instances` is connected.
    pub instances: Option<Arc<crate::scatter::Scatter>>,
    /// Per-node reports in evaluation order.
    pub nodes: Vec<NodeReport>,
}

/// Progress callback: fraction 0..=1 and a stage name.
pub type Progress<'a> = &'a (dyn Fn(f32, &str) + Sync);

/// Evaluates the nodes the output depends on, in dependency order, in `scene`.
///
/// On error or cancellation nothing the caller holds is changed; the cache only ever gains
/// complete, correct entries (keys are content hashes), and after a successful run it keeps
/// the entries that run used (up to its budget, sources first).
pub fn evaluate(
    graph: &Graph,
    scene: &Scene,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<EvalOutput> {
    graph.check_ready("graph")?;
    let grid = scene.grid;
    let order = dependency_order(graph)?;
    let out_index = graph
        .find(&graph.output)
        .ok_or_else(|| Error::invalid("graph.output", "names no node"))?;
    // Remaining consumers per node (one per connected input), to drop values early.
    let mut consumers = vec![0usize; graph.nodes.len()];
    let mut sources: Vec<Vec<(usize, usize)>> = vec![Vec::new(); graph.nodes.len()];
    for &i in &order {
        let gn = &graph.nodes[i];
        for spec in gn.node.inputs() {
            if let Some(src) = gn.inputs.get(spec.name) {
                let j = graph
                    .find(&src.node)
                    .ok_or_else(|| Error::invalid(&gn.id, "dangling connection"))?;
                let out_index = graph.nodes[j]
                    .node
                    .outputs()
                    .iter()
                    .position(|p| p.name == src.pin)
                    .ok_or_else(|| Error::invalid(&gn.id, "dangling pin"))?;
                consumers[j] += 1;
                sources[i].push((j, out_index));
            }
        }
    }
    let mut keys: HashMap<usize, u64> = HashMap::new();
    let mut values: HashMap<usize, Arc<Cached>> = HashMap::new();
    let mut reports = Vec::new();
    let mut used: HashMap<u64, Arc<Cached>> = HashMap::new();
    let mut used_bytes = 0usize;
    let total = order.len().max(1) as f32;
    for (step, &i) in order.iter().enumerate() {
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let gn = &graph.nodes[i];
        let ctx = EvalContext::new(scene, gn.node.spec(), &gn.id, quality, cancel);
        progress(
            step as f32 / total,
            &format!("{} ({})", gn.id, gn.node.type_id()),
        );
        let mut h = StableHasher::default();
        h.str(crate::GENERATOR_VERSION)
            .str(gn.node.type_id())
            .str(&serde_json::Value::Object(gn.node.params()).to_string());
        ctx.hash_exposed(&mut h);
        let mut inputs: Vec<Option<PinValue>> = Vec::new();
        let mut next_source = sources[i].iter();
        for spec in gn.node.inputs() {
            if gn.inputs.contains_key(spec.name) {
                let &(j, out_index) = next_source
                    .next()
                    .ok_or_else(|| Error::invalid(&gn.id, "dangling connection"))?;
                h.str(spec.name).u64(keys[&j]).u64(out_index as u64);
                inputs.push(
                    values
                        .get(&j)
                        .and_then(|v| v.values.get(out_index))
                        .cloned(),
                );
            } else {
                h.str(spec.name).str("-");
                inputs.push(None);
            }
        }
        let key = h.finish();
        keys.insert(i, key);
        let (result, reused, ms) = match cache.entries.get(&key) {
            Some(v) => (v.clone(), true, 0.0),
            None => {
                let t = Instant::now();
                let refs: Vec<Option<&PinValue>> = inputs.iter().map(Option::as_ref).collect();
                let crate::nodes::Evaluated { values, details } = gn
                    .node
                    .evaluate(&ctx, &refs)
                    .map_err(|e| locate(e, &gn.id))?;
                (
                    Arc::new(Cached { values, details }),
                    false,
                    t.elapsed().as_secs_f64() * 1e3,
                )
            }
        };
        drop(inputs);
        // Free inputs whose last consumer this was.
        for &(j, _) in &sources[i] {
            consumers[j] -= 1;
            if consumers[j] == 0 && j != out_index {
                values.remove(&j);
            }
        }
        let bytes = result.bytes();
        if !used.contains_key(&key) && used_bytes + bytes <= cache.budget {
            used_bytes += bytes;
            used.insert(key, result.clone());
        }
        reports.push(NodeReport {
            id: gn.id.clone(),
            type_id: gn.node.type_id().to_string(),
            time_ms: ms,
            reused,
            details: result.details.clone(),
        });
        values.insert(i, result);
    }
    let mut classified = None;
    let heightfield = match values.get(&out_index).and_then(|v| v.values.first()) {
        Some(PinValue::Heightfield(f)) => f.clone(),
        Some(PinValue::Classified(c)) => {
            classified = Some(c.clone());
            c.field.clone()
        }
        _ => return Err(Error::invalid("graph.output", "produced no heightfield")),
    };
    let water = match values.get(&out_index).and_then(|v| v.values.get(1)) {
        Some(PinValue::Water(w)) => w.clone(),
        _ => Arc::new(crate::hydrology::water::WaterSet::empty(grid)),
    };
    let instances = if graph.nodes[out_index].inputs.contains_key("instances") {
        values
            .get(&out_index)
            .and_then(|v| v.values.get(2))
            .and_then(PinValue::instances)
            .cloned()
    } else {
        None
    };
    if let Some(i) = heightfield.as_slice().iter().position(|h| !h.is_finite()) {
        return Err(Error::invalid(
            "graph",
            format!(
                "generation produced a non-finite height at sample {i}; check the node parameters"
            ),
        ));
    }
    drop(values);
    cache.entries = used;
    progress(1.0, "done");
    Ok(EvalOutput {
        heightfield,
        water,
        classified,
        instances,
        nodes: reports,
    })
}

fn locate(e: Error, id: &str) -> Error {
    match e {
        Error::Invalid(ds) => Error::Invalid(
            ds.into_iter()
                .map(|mut d| {
                    d.path = if d.path.is_empty() {
                        format!("graph.nodes[\"{id}\"]")
                    } else {
                        format!("graph.nodes[\"{id}\"].{}", d.path)
                    };
                    d
                })
                .collect(),
        ),
        other => other,
    }
}

/// Nodes the output depends on, sources first (deterministic: inputs in pin order).
/// Iterative: a chain of any length never reaches the call stack.
fn dependency_order(graph: &Graph) -> Result<Vec<usize>> {
    let start = graph
        .find(&graph.output)
        .ok_or_else(|| Error::invalid("graph.output", "names no node"))?;
    let mut order = Vec::new();
    // 0 = unvisited, 1 = on the path, 2 = done
    let mut state = vec![0u8; graph.nodes.len()];
    let sources = |i: usize| -> Vec<usize> {
        let n = &graph.nodes[i];
        n.node
            .inputs()
            .iter()
            .filter_map(|spec| n.inputs.get(spec.name))
            .filter_map(|src| graph.find(&src.node))
            .collect()
    };
    let mut path: Vec<(usize, Vec<usize>, usize)> = vec![(start, sources(start), 0)];
    state[start] = 1;
    while let Some((i, srcs, next)) = path.last_mut() {
        if let Some(&j) = srcs.get(*next) {
            *next += 1;
            match state[j] {
                2 => {}
                1 => return Err(Error::invalid("graph", "connections form a cycle")),
                _ => {
                    state[j] = 1;
                    let s = sources(j);
                    path.push((j, s, 0));
                }
            }
        } else {
            let i = *i;
            state[i] = 2;
            order.push(i);
            path.pop();
        }
    }
    Ok(order)
}
