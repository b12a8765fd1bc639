//! Graph node types, one per file, and the registry that maps stable type ids to them.
//!
//! Every node is a pure function of its parameters, its inputs and the evaluation context (grid,
//! seeds, recipe landforms, quality). Its canonical parameters (defaults omitted) are what is
//! saved and what the cache key hashes.

mod basin_water;
mod comment;
mod drainage;
mod elevation_mask;
mod erosion;
mod flat_terrain;
mod height_blend;
mod height_offset;
mod landform;
mod noise_terrain;
mod path_distance_mask;
mod polygon_mask;
mod river_route;
pub(crate) mod shape_params;
mod slope_mask;
mod terrain_output;
mod water_body;
mod water_edit;

pub use shape_params::parse_shape;

use crate::error::{Diagnostics, Error, Result};
use crate::grid::{Field, Grid};
use crate::recipe::Recipe;
use serde_json::{Map, Value};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
}

impl PinValue {
    /// The kind of this value.
    pub fn kind(&self) -> PinKind {
        match self {
            PinValue::Heightfield(_) => PinKind::Heightfield,
            PinValue::Mask(_) => PinKind::Mask,
            PinValue::Drainage(_) => PinKind::Drainage,
            PinValue::Water(_) => PinKind::Water,
        }
    }
    /// The field inside a heightfield or mask value (a drainage result's source field).
    pub fn field(&self) -> &Field<f32> {
        match self {
            PinValue::Heightfield(f) | PinValue::Mask(f) => f,
            PinValue::Drainage(d) => &d.source,
            PinValue::Water(_) => unreachable_field(),
        }
    }
    /// The water set, for water values.
    pub fn water(&self) -> Option<&crate::hydrology::water::WaterSet> {
        match self {
            PinValue::Water(w) => Some(w),
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

fn unreachable_field() -> &'static Field<f32> {
    static EMPTY: std::sync::OnceLock<Field<f32>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| Field::filled(0, 0, 0.0))
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

/// What a node sees while evaluating.
#[derive(Clone, Copy)]
pub struct EvalContext<'a> {
    /// The recipe grid.
    pub grid: Grid,
    /// The recipe (landforms, seed, …).
    pub recipe: &'a Recipe,
    /// Preview or Final.
    pub quality: Quality,
    /// Set by the caller to stop work; nodes check it between rows.
    pub cancel: &'a AtomicBool,
    /// Id of the node being evaluated (nodes whose output uses it say so with
    /// [`NodeImpl::depends_on_node_id`]).
    pub node_id: &'a str,
}

impl EvalContext<'_> {
    /// `Err(Cancelled)` when the caller asked to stop.
    pub fn check_cancel(&self) -> Result<()> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// A field of the recipe grid's sample dimensions, filled row by row in parallel by `row`
    /// (called with the row's Z index and the row to fill). Checks cancellation between rows.
    pub fn par_rows(&self, row: impl Fn(usize, &mut [f32]) + Sync) -> Result<Field<f32>> {
        use rayon::prelude::*;
        let [w, h] = self.grid.samples();
        let mut data = vec![0.0f32; w * h];
        data.par_chunks_mut(w).enumerate().for_each(|(z, out)| {
            if !self.cancel.load(Ordering::Relaxed) {
                row(z, out);
            }
        });
        self.check_cancel()?;
        Field::from_vec(w, h, data)
    }
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

/// A node type's behaviour. Implementations live one per file in this module.
pub trait NodeImpl: Send + Sync + std::fmt::Debug {
    /// Stable type id (`noise_terrain`, …).
    fn type_id(&self) -> &'static str;
    /// Input pins, in order.
    fn inputs(&self) -> &'static [PinSpec];
    /// Output pins, in order.
    fn outputs(&self) -> &'static [PinSpec];
    /// Canonical parameters (defaults omitted).
    fn params(&self) -> Map<String, Value>;
    /// Checks against the recipe (e.g. a named landform exists, the sampling domain fits the
    /// terrain size). `path` locates the node's params.
    fn check(&self, _recipe: &Recipe, _path: &str, _d: &mut Diagnostics) {}
    /// Computes the outputs (and optional details for the run report).
    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated>;
    /// Whether Preview quality changes this node's result (cache entries then depend on it).
    fn depends_on_quality(&self) -> bool {
        false
    }
    /// Whether the node's id appears in its result (stable water body ids).
    fn depends_on_node_id(&self) -> bool {
        false
    }
}

/// Every registered type id, with a one-line description.
pub const REGISTRY: &[(&str, &str)] = &[
    ("landform", "Generator: the recipe's named landform shape"),
    (
        "noise_terrain",
        "Generator: a seeded noise heightfield with inline landform controls",
    ),
    ("flat_terrain", "Generator: a constant height"),
    ("elevation_mask", "Mask: selects a height band"),
    ("slope_mask", "Mask: selects a steepness band"),
    ("path_distance_mask", "Mask: a corridor around a polyline"),
    ("polygon_mask", "Mask: a closed polygon (even-odd fill)"),
    (
        "height_blend",
        "Modifier: mixes heightfields A and B by mask and amount",
    ),
    (
        "height_offset",
        "Modifier: raises or lowers a heightfield, optionally by mask",
    ),
    (
        "comment",
        "Note: text on the canvas; no pins, no effect on generation",
    ),
    (
        "terrain_output",
        "Output: publishes a heightfield and optional water and instances",
    ),
];

/// Parses node parameters of type `type_id` at `path`. Unknown types are reported.
pub fn parse_node(
    type_id: &str,
    params: &Value,
    path: &str,
    d: &mut Diagnostics,
) -> Option<Box<dyn NodeImpl>> {
    let node: Box<dyn NodeImpl> = match type_id {
        "landform" => Box::new(landform::Landform::parse(params, path, d)),
        "noise_terrain" => Box::new(noise_terrain::NoiseTerrain::parse(params, path, d)),
        "flat_terrain" => Box::new(flat_terrain::FlatTerrain::parse(params, path, d)),
        "elevation_mask" => Box::new(elevation_mask::ElevationMask::parse(params, path, d)),
        "slope_mask" => Box::new(slope_mask::SlopeMask::parse(params, path, d)),
        "path_distance_mask" => {
            Box::new(path_distance_mask::PathDistanceMask::parse(params, path, d))
        }
        "polygon_mask" => Box::new(polygon_mask::PolygonMask::parse(params, path, d)),
        "height_blend" => Box::new(height_blend::HeightBlend::parse(params, path, d)),
        "height_offset" => Box::new(height_offset::HeightOffset::parse(params, path, d)),
        "comment" => Box::new(comment::Comment::parse(params, path, d)),
        "drainage" => Box::new(drainage::DrainageNode::parse(params, path, d)),
        "erosion" => Box::new(erosion::Erosion::parse(params, path, d)),
        "water_body" => Box::new(water_body::WaterBodyNode::parse(params, path, d)),
        "basin_water" => Box::new(basin_water::BasinWater::parse(params, path, d)),
        "water_edit" => Box::new(water_edit::WaterEdit::parse(params, path, d)),
        "river_route" => Box::new(river_route::RiverRoute::parse(params, path, d)),
        "terrain_output" => Box::new(terrain_output::TerrainOutput::parse(params, path, d)),
        other => {
            let known: Vec<_> = REGISTRY.iter().map(|(t, _)| *t).collect();
            d.push(
                path.trim_end_matches(".params").to_string() + ".type",
                format!(
                    "unknown node type `{other}`; known types: {}",
                    known.join(", ")
                ),
            );
            return None;
        }
    };
    Some(node)
}

/// Helpers shared by node files.
pub(crate) mod util {
    use super::*;

    /// A check that accepts finite values ≥ 0.
    pub fn non_negative(x: f64) -> Option<String> {
        (x < 0.0).then(|| format!("must be ≥ 0, got {x}"))
    }

    /// A check that accepts values > 0 (and still > 0 once stored as `f32`).
    pub fn positive(x: f64) -> Option<String> {
        (x <= 0.0 || x as f32 == 0.0).then(|| format!("must be > 0, got {x}"))
    }

    /// A check for `lo..=hi`.
    pub fn within(lo: f64, hi: f64) -> impl Fn(f64) -> Option<String> {
        move |x| (!(lo..=hi).contains(&x)).then(|| format!("must be {lo}..={hi}, got {x}"))
    }

    /// Inserts `key: value` unless it equals `default`.
    pub fn put_f64(m: &mut Map<String, Value>, key: &str, value: f64, default: Option<f64>) {
        if default != Some(value) {
            m.insert(key.into(), json_number(value));
        }
    }

    /// A JSON number, written as an integer when it is one (so `20` stays `20`).
    pub fn json_number(x: f64) -> Value {
        if x.fract() == 0.0 && x.abs() < 9.0e15 {
            Value::from(x as i64)
        } else {
            Value::from(x)
        }
    }

    /// `[[x, z], …]` as JSON.
    pub fn json_points(points: &[[f64; 2]]) -> Value {
        Value::Array(
            points
                .iter()
                .map(|p| Value::Array(vec![json_number(p[0]), json_number(p[1])]))
                .collect(),
        )
    }

    /// The field of a connected heightfield or mask input; `Err` if missing (the engine checks
    /// required inputs first, so this only guards against misuse).
    pub fn input<'a>(inputs: &'a Inputs, i: usize, name: &str) -> Result<&'a Field<f32>> {
        inputs
            .get(i)
            .copied()
            .flatten()
            .map(PinValue::field)
            .ok_or_else(|| Error::invalid(name, "input is not connected"))
    }

    /// The drainage result connected to input `i`.
    pub fn drainage_input<'a>(
        inputs: &'a Inputs,
        i: usize,
    ) -> Result<&'a crate::hydrology::Drainage> {
        inputs
            .get(i)
            .copied()
            .flatten()
            .and_then(PinValue::drainage)
            .ok_or_else(|| Error::invalid("inputs.drainage", "input is not connected"))
    }

    /// Optional water connected to input `i`; it must match `grid`.
    pub fn water_input<'a>(
        inputs: &'a Inputs,
        i: usize,
        grid: &Grid,
    ) -> Result<Option<&'a crate::hydrology::water::WaterSet>> {
        match inputs.get(i).copied().flatten().and_then(PinValue::water) {
            Some(w) if w.grid.samples() != grid.samples() => Err(Error::invalid(
                "inputs.water",
                "connected water must match the input terrain grid",
            )),
            other => Ok(other),
        }
    }

    /// A mask evaluated per sample at terrain-local positions (rows in parallel).
    pub fn mask_from(
        ctx: &EvalContext,
        value: impl Fn(f64, f64) -> f32 + Sync,
    ) -> Result<PinValue> {
        let grid = ctx.grid;
        let mask = ctx.par_rows(|z, out| {
            for (x, o) in out.iter_mut().enumerate() {
                let [px, pz] = grid.sample_position(x, z);
                *o = value(px as f64, pz as f64);
            }
        })?;
        Ok(PinValue::Mask(Arc::new(mask)))
    }

    /// Smooth falloff: 1 at `d <= 0`, 0 at `d >= falloff`, smoothstep between; a hard edge when
    /// `falloff == 0`.
    #[inline]
    pub fn fade_out(d: f32, falloff: f32) -> f32 {
        if d <= 0.0 {
            1.0
        } else if d >= falloff {
            0.0
        } else {
            let t = d / falloff;
            1.0 - t * t * (3.0 - 2.0 * t)
        }
    }
}
