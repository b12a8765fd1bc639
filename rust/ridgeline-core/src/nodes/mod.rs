//! Graph node types, one per file, and the declarative registry ([`REGISTRY`]) that is the one
//! place that knows a node type: its stable id, title, category, description, icon, pins and
//! parameter spec. Parsing, validation messages, canonical JSON, the unknown-type message,
//! `ridgeline nodes`, the tables in `docs/nodes.md` and the editor's graph cards ([`catalog`])
//! all read it.
//!
//! Every node is a pure function of its parameters, its inputs and the parts of the evaluation
//! context its entry declares it reads ([`Read`]); the cache key hashes exactly those parts, so a
//! node cannot read context its key omits. Adding a node type is one file (with its
//! `pub(crate) const SPEC: NodeSpec`) plus one line in [`REGISTRY`].

mod basin_water;
mod biome_rules;
mod comment;
mod context;
mod drainage;
mod elevation_mask;
mod erosion;
mod flat_terrain;
mod height_blend;
mod height_offset;
mod heightmap;
mod landform;
mod noise_terrain;
mod path_distance_mask;
mod polygon_mask;
mod river_route;
mod scatter_palette;
mod slope_mask;
mod spec;
mod terrain_output;
pub(crate) mod util;
mod water_body;
mod water_edit;

pub use context::{CheckContext, EvalContext, FileRequest, NodeFile, NodeFiles, Scene};
pub use erosion::erosion_budget;
pub use heightmap::{Format as HeightmapFormat, format_of as heightmap_format_of};
pub use spec::{Canonical, Category, NodeSpec, Read};

use crate::doc::params::Params;
use crate::error::{Diagnostics, Error, Result};
use crate::grid::Field;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Every node type, one line each.
pub const REGISTRY: &[&NodeSpec] = &[
    &landform::SPEC,
    &noise_terrain::SPEC,
    &flat_terrain::SPEC,
    &heightmap::SPEC,
    &elevation_mask::SPEC,
    &slope_mask::SPEC,
    &path_distance_mask::SPEC,
    &polygon_mask::SPEC,
    &height_blend::SPEC,
    &height_offset::SPEC,
    &drainage::SPEC,
    &erosion::SPEC,
    &water_body::SPEC,
    &basin_water::SPEC,
    &river_route::SPEC,
    &water_edit::SPEC,
    &biome_rules::SPEC,
    &scatter_palette::SPEC,
    &terrain_output::SPEC,
    &comment::SPEC,
];

/// The registry entry of `type_id`.
pub fn spec(type_id: &str) -> Option<&'static NodeSpec> {
    REGISTRY.iter().copied().find(|s| s.id == type_id)
}

/// Every node type as JSON (id, title, category, description, icon, inputs, outputs, params
/// with type, default, range, unit and doc): what `ridgeline nodes --format json` prints and
/// what the editor's graph workspace builds its cards from.
pub fn catalog() -> Value {
    Value::Array(REGISTRY.iter().map(|s| s.to_json()).collect())
}

/// The kind of data a pin carries. An output connects only to an input of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PinKind {
    /// Heights on the recipe grid.
    Heightfield,
    /// 0..1 weights on the recipe grid.
    Mask,
    /// A drainage result (flow, basins) with its source field.
    Drainage,
    /// Water bodies.
    Water,
    /// Scatter placements.
    Instances,
}

impl PinKind {
    /// Lower-case name used in messages and docs.
    pub fn name(self) -> &'static str {
        match self {
            PinKind::Heightfield => "heightfield",
            PinKind::Mask => "mask",
            PinKind::Drainage => "drainage",
            PinKind::Water => "water",
            PinKind::Instances => "instances",
        }
    }
}

/// One input or output of a node type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinSpec {
    /// Stable pin name (used in the recipe's `inputs` and in `node:pin` references).
    pub name: &'static str,
    /// What it carries.
    pub kind: PinKind,
    /// Inputs only: must be connected before generation.
    pub required: bool,
}

/// Shorthand for a required input / an output.
pub(crate) const fn pin(name: &'static str, kind: PinKind) -> PinSpec {
    PinSpec {
        name,
        kind,
        required: true,
    }
}

/// Shorthand for an optional input.
pub(crate) const fn optional(name: &'static str, kind: PinKind) -> PinSpec {
    PinSpec {
        name,
        kind,
        required: false,
    }
}

/// A value flowing along a connection.
#[derive(Clone, Debug)]
pub enum PinValue {
    /// Heights on the recipe grid (row-major, Z outer).
    Heightfield(Arc<Field<f32>>),
    /// Weights 0..1 on the recipe grid.
    Mask(Arc<Field<f32>>),
    /// A drainage result (keeps the field it was computed on).
    Drainage(Arc<crate::hydrology::Drainage>),
    /// Water bodies resolved on the grid.
    Water(Arc<crate::hydrology::water::WaterSet>),
    /// Heights with a resolved biome and surface role per sample (Biome Rules' output; a
    /// heightfield wherever one connects).
    Classified(Arc<ClassifiedField>),
    /// Scatter placements (Scatter Palette's output).
    Instances(Arc<crate::scatter::Scatter>),
}

/// A heightfield with a resolved biome and surface role per sample.
#[derive(Clone, Debug)]
pub struct ClassifiedField {
    /// The heights (shared with the input).
    pub field: Arc<Field<f32>>,
    /// Biome id (index into the recipe's biome table) and surface role id per sample.
    pub classes: crate::biome::SampleClasses,
    /// The flow accumulation that raised moisture, when drainage was connected.
    pub flow: Option<Arc<Vec<f32>>>,
    /// The heights that drainage ran on, when `flow` is present: sculpting adds its height
    /// change to them and runs drainage again (`pipeline::sculpted_flow`).
    pub flow_ground: Option<Arc<Vec<f32>>>,
    /// The signed erosion change the transport roles read, when connected.
    pub erosion: Option<Arc<Vec<f32>>>,
}

impl PinValue {
    /// The kind of this value.
    pub fn kind(&self) -> PinKind {
        match self {
            PinValue::Heightfield(_) | PinValue::Classified(_) => PinKind::Heightfield,
            PinValue::Mask(_) => PinKind::Mask,
            PinValue::Drainage(_) => PinKind::Drainage,
            PinValue::Water(_) => PinKind::Water,
            PinValue::Instances(_) => PinKind::Instances,
        }
    }
    /// The field inside a heightfield or mask value (a drainage result's source field). Water
    /// carries no field: asking for one is an error, never an empty stand-in.
    pub fn field(&self) -> Result<&Field<f32>> {
        match self {
            PinValue::Heightfield(f) | PinValue::Mask(f) => Ok(f),
            PinValue::Classified(c) => Ok(&c.field),
            PinValue::Drainage(d) => Ok(&d.source),
            PinValue::Water(_) => Err(Error::invalid(
                "inputs",
                "a water value carries no field; connect a heightfield or mask here",
            )),
            PinValue::Instances(_) => Err(Error::invalid(
                "inputs",
                "instances carry no field; connect them to Terrain Output's `instances`",
            )),
        }
    }
    /// The water set, for water values.
    pub fn water(&self) -> Option<&crate::hydrology::water::WaterSet> {
        match self {
            PinValue::Water(w) => Some(w),
            _ => None,
        }
    }
    /// The placements, for instances values.
    pub fn instances(&self) -> Option<&Arc<crate::scatter::Scatter>> {
        match self {
            PinValue::Instances(s) => Some(s),
            _ => None,
        }
    }
    /// The drainage result, for drainage values.
    pub fn drainage(&self) -> Option<&crate::hydrology::Drainage> {
        match self {
            PinValue::Drainage(d) => Some(d),
            _ => None,
        }
    }
}

/// Generation quality: Preview shortens expensive nodes (erosion); graphs without such nodes
/// give identical output in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Quality {
    /// Fast, approximate.
    Preview,
    /// The authored result (default).
    #[default]
    Final,
}

/// What a node's evaluation produced: one value per output pin, plus optional details for the
/// run report (erosion's ledger, drainage's basins, …).
#[derive(Debug)]
pub struct Evaluated {
    /// Output values, in output-pin order.
    pub values: Vec<PinValue>,
    /// Node-specific report details.
    pub details: Option<Value>,
}

impl From<Vec<PinValue>> for Evaluated {
    fn from(values: Vec<PinValue>) -> Self {
        Self {
            values,
            details: None,
        }
    }
}

/// Inputs of one evaluation, by pin position (None = not connected).
pub type Inputs<'a> = [Option<&'a PinValue>];

/// A node type's behaviour. Implementations live one per file in this module; everything
/// declarative (id, pins, parameters, context reads) is in the type's [`NodeSpec`].
pub trait NodeImpl: Send + Sync + std::fmt::Debug {
    /// Checks against the recipe context (e.g. a named landform exists, the sampling domain
    /// fits the terrain size). `path` locates the node's params.
    fn check(&self, _ctx: &CheckContext, _path: &str, _d: &mut Diagnostics) {}
    /// The file the node reads ([`Read::File`]), which the pipeline reads before evaluation.
    fn file_request(&self) -> Option<FileRequest> {
        None
    }
    /// Computes the outputs (and optional details for the run report).
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated>;
}

/// A parsed node: its registry entry, its parameters and its behaviour.
#[derive(Debug)]
pub struct Node {
    spec: &'static NodeSpec,
    params: Map<String, Value>,
    imp: Box<dyn NodeImpl>,
}

impl Node {
    /// The registry entry.
    pub fn spec(&self) -> &'static NodeSpec {
        self.spec
    }
    /// Stable type id.
    pub fn type_id(&self) -> &'static str {
        self.spec.id
    }
    /// Input pins, in order.
    pub fn inputs(&self) -> &'static [PinSpec] {
        self.spec.inputs
    }
    /// Output pins, in order.
    pub fn outputs(&self) -> &'static [PinSpec] {
        self.spec.outputs
    }
    /// Canonical parameters (defaults omitted; see [`Canonical`]).
    pub fn params(&self) -> Map<String, Value> {
        self.params.clone()
    }
    /// Checks against the recipe context; `path` locates the node's params.
    pub fn check(&self, ctx: &CheckContext, path: &str, d: &mut Diagnostics) {
        self.imp.check(ctx, path, d)
    }
    /// The file the node reads, if any (see [`NodeImpl::file_request`]).
    pub fn file_request(&self) -> Option<FileRequest> {
        self.imp.file_request()
    }
    /// Computes the outputs.
    pub fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        self.imp.evaluate(ctx, inputs)
    }
}

/// The unknown-type message: names every registered type.
pub fn unknown_type_message(type_id: &str) -> String {
    let known: Vec<_> = REGISTRY.iter().map(|s| s.id).collect();
    format!(
        "unknown node type `{type_id}`; known types: {}",
        known.join(", ")
    )
}

/// Parses node parameters of type `type_id` at `path`. Unknown types are reported.
pub fn parse_node(type_id: &str, params: &Value, path: &str, d: &mut Diagnostics) -> Option<Node> {
    let Some(spec) = spec(type_id) else {
        d.push(
            path.trim_end_matches(".params").to_string() + ".type",
            unknown_type_message(type_id),
        );
        return None;
    };
    let p = Params::read(spec.params, params, path, d);
    let imp = (spec.build)(&p, path, d);
    let canonical = match spec.canonical {
        Canonical::OmitDefaults => p.to_map(),
        Canonical::AsAuthored => params.as_object().cloned().unwrap_or_default(),
    };
    Some(Node {
        spec,
        params: canonical,
        imp,
    })
}

#[cfg(test)]
mod hydrology_tests;
#[cfg(test)]
mod registry_tests;
