//! Graph evaluation: dependency order, per-node cache, progress and cooperative cancellation.
//!
//! A node's cache key hashes the generator version, its type, its canonical parameters, the
//! recipe context it reads (grid, seed, and for Landform nodes the landforms) and its inputs'
//! keys. Node positions and comment text are not part of it, so moving nodes or editing notes
//! reuses every result.

use super::Graph;
use crate::error::{Error, Result};
use crate::grid::Field;
use crate::nodes::{EvalContext, PinValue, Quality};
use crate::recipe::Recipe;
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

/// Results kept between runs, keyed by content hash.
#[derive(Default, Debug)]
pub struct GraphCache {
    entries: HashMap<u64, Arc<Cached>>,
}

impl GraphCache {
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

/// The output of a graph run.
#[derive(Clone, Debug)]
pub struct EvalOutput {
    /// The published heightfield.
    pub heightfield: Arc<Field<f32>>,
    /// The published water (empty when none is connected).
    pub water: Arc<crate::hydrology::water::WaterSet>,
    /// Per-node reports in evaluation order.
    pub nodes: Vec<NodeReport>,
}

/// Progress callback: fraction 0..=1 and a stage name.
pub type Progress<'a> = &'a (dyn Fn(f32, &str) + Sync);

/// Evaluates the nodes the output depends on, in dependency order.
///
/// On error or cancellation nothing the caller holds is changed; the cache only ever gains
/// complete, correct entries (keys are content hashes), and after a successful run it keeps
/// exactly the entries that run used.
pub fn evaluate(
    graph: &Graph,
    recipe: &Recipe,
    quality: Quality,
    cache: &mut GraphCache,
    progress: Progress,
    cancel: &AtomicBool,
) -> Result<EvalOutput> {
    graph.check_ready("graph")?;
    let grid = recipe.grid()?;
    let base_ctx = EvalContext {
        grid,
        recipe,
        quality,
        cancel,
        node_id: "",
    };
    let order = dependency_order(graph)?;
    let landforms_key = {
        let mut h = StableHasher::default();
        h.str(&recipe.default_landform);
        h.str(
            &recipe
                .landforms_value()
                .map(|l| l.to_string())
                .unwrap_or_default(),
        );
        h.finish()
    };
    let mut keys: HashMap<usize, u64> = HashMap::new();
    let mut values: HashMap<usize, Arc<Cached>> = HashMap::new();
    let mut reports = Vec::new();
    let mut used = HashMap::new();
    let total = order.len().max(1) as f32;
    for (step, &i) in order.iter().enumerate() {
        base_ctx.check_cancel()?;
        let gn = &graph.nodes[i];
        let ctx = EvalContext {
            node_id: &gn.id,
            ..base_ctx
        };
        progress(
            step as f32 / total,
            &format!("{} ({})", gn.id, gn.node.type_id()),
        );
        let mut h = StableHasher::default();
        h.str(crate::GENERATOR_VERSION)
            .str(gn.node.type_id())
            .str(&serde_json::Value::Object(gn.node.params()).to_string());
        let [cx, cz] = grid.cells();
        let [sx, sz] = grid.size();
        h.u64(cx as u64)
            .u64(cz as u64)
            .u64(sx.to_bits() as u64)
            .u64(sz.to_bits() as u64)
            .u64(recipe.seed);
        if gn.node.type_id() == "landform" {
            h.u64(landforms_key);
        }
        if gn.node.depends_on_quality() {
            h.u64(quality as u64);
        }
        if gn.node.depends_on_node_id() {
            h.str(&gn.id);
        }
        let mut inputs: Vec<Option<PinValue>> = Vec::new();
        for spec in gn.node.inputs() {
            match gn.inputs.get(spec.name) {
                Some(src) => {
                    let j = graph
                        .find(&src.node)
                        .ok_or_else(|| Error::invalid(&gn.id, "dangling connection"))?;
                    let out_index = graph.nodes[j]
                        .node
                        .outputs()
                        .iter()
                        .position(|p| p.name == src.pin)
                        .ok_or_else(|| Error::invalid(&gn.id, "dangling pin"))?;
                    h.str(spec.name).u64(keys[&j]).u64(out_index as u64);
                    inputs.push(values[&j].values.get(out_index).cloned());
                }
                None => {
                    h.str(spec.name).str("-");
                    inputs.push(None);
                }
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
        used.insert(key, result.clone());
        reports.push(NodeReport {
            id: gn.id.clone(),
            type_id: gn.node.type_id().to_string(),
            time_ms: ms,
            reused,
            details: result.details.clone(),
        });
        values.insert(i, result);
    }
    let out_index = graph
        .find(&graph.output)
        .ok_or_else(|| Error::invalid("graph.output", "names no node"))?;
    let heightfield = match values.get(&out_index).and_then(|v| v.values.first()) {
        Some(PinValue::Heightfield(f)) => f.clone(),
        _ => return Err(Error::invalid("graph.output", "produced no heightfield")),
    };
    let water = match values.get(&out_index).and_then(|v| v.values.get(1)) {
        Some(PinValue::Water(w)) => w.clone(),
        _ => Arc::new(crate::hydrology::water::WaterSet::empty(grid)),
    };
    if let Some(i) = heightfield.as_slice().iter().position(|h| !h.is_finite()) {
        return Err(Error::invalid(
            "graph",
            format!(
                "generation produced a non-finite height at sample {i}; check the node parameters"
            ),
        ));
    }
    cache.entries = used;
    progress(1.0, "done");
    Ok(EvalOutput {
        heightfield,
        water,
        nodes: reports,
    })
}

fn locate(e: Error, id: &str) -> Error {
    match e {
        Error::Invalid(ds) => Error::Invalid(
            ds.into_iter()
                .map(|mut d| {
                    d.path = format!("graph.nodes[\"{id}\"].{}", d.path);
                    d
                })
                .collect(),
        ),
        other => other,
    }
}

/// Nodes the output depends on, sources first (deterministic: inputs in pin order).
fn dependency_order(graph: &Graph) -> Result<Vec<usize>> {
    let start = graph
        .find(&graph.output)
        .ok_or_else(|| Error::invalid("graph.output", "names no node"))?;
    let mut order = Vec::new();
    let mut state = vec![0u8; graph.nodes.len()];
    fn visit(g: &Graph, i: usize, state: &mut [u8], order: &mut Vec<usize>) -> Result<()> {
        match state[i] {
            2 => return Ok(()),
            1 => return Err(Error::invalid("graph", "connections form a cycle")),
            _ => {}
        }
        state[i] = 1;
        for spec in g.nodes[i].node.inputs() {
            if let Some(src) = g.nodes[i].inputs.get(spec.name)
                && let Some(j) = g.find(&src.node)
            {
                visit(g, j, state, order)?;
            }
        }
        state[i] = 2;
        order.push(i);
        Ok(())
    }
    visit(graph, start, &mut state, &mut order)?;
    Ok(order)
}
