//! Helpers shared by node files: reading inputs, per-sample masks, shape sampling, work bounds.

use super::{EvalContext, Inputs, PinValue};
use crate::error::{Error, Result};
use crate::grid::{Field, Grid};
use crate::noise::{RowSampler, RowScratch, ShapeParams, ShapeSeeds};
use std::sync::Arc;

/// The field of a connected heightfield or mask input; `Err` if missing (the engine checks
/// required inputs first, so this only guards against misuse).
pub fn input<'a>(inputs: &'a Inputs, i: usize, name: &str) -> Result<&'a Field<f32>> {
    match inputs.get(i).copied().flatten() {
        Some(v) => v.field(),
        None => Err(Error::invalid(name, "input is not connected")),
    }
}

/// The field of an optional heightfield or mask input.
pub fn optional_input<'a>(inputs: &'a Inputs, i: usize) -> Result<Option<&'a Field<f32>>> {
    inputs
        .get(i)
        .copied()
        .flatten()
        .map(PinValue::field)
        .transpose()
}

/// The drainage result connected to input `i`.
pub fn drainage_input<'a>(inputs: &'a Inputs, i: usize) -> Result<&'a crate::hydrology::Drainage> {
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

/// Inputs of a modifier must share the recipe grid.
pub fn same_grid(fields: &[&Field<f32>]) -> Result<()> {
    let (w, h) = (fields[0].width(), fields[0].depth());
    if fields.iter().any(|f| f.width() != w || f.depth() != h) {
        return Err(Error::invalid(
            "inputs",
            "connected fields have different grids; all inputs of a modifier must share one grid",
        ));
    }
    Ok(())
}

/// Samples checked between cancellation polls inside one row of [`mask_from`].
const CANCEL_STRIDE: usize = 256;

/// A mask evaluated per sample at terrain-local positions (rows in parallel). Cancellation is
/// polled every few hundred samples, so even costly per-sample work stops promptly.
pub fn mask_from(ctx: &EvalContext, value: impl Fn(f64, f64) -> f32 + Sync) -> Result<PinValue> {
    let grid = ctx.grid;
    let mask = ctx.par_rows(|z, out| {
        for (k, block) in out.chunks_mut(CANCEL_STRIDE).enumerate() {
            if ctx.cancelled() {
                return;
            }
            for (j, o) in block.iter_mut().enumerate() {
                let [px, pz] = grid.sample_position(k * CANCEL_STRIDE + j, z);
                *o = value(px as f64, pz as f64);
            }
        }
    })?;
    Ok(PinValue::Mask(Arc::new(mask)))
}

/// Most segment-distance evaluations one node may cost per run (segments × samples), so a long
/// point list cannot freeze generation (about a second of work).
pub const MAX_SEGMENT_WORK: u64 = 4_000_000_000;

/// Most segment-distance evaluations of one single-threaded river pass (carving, coverage).
pub const MAX_RIVER_WORK: u64 = 1_000_000_000;

/// A located error when `segments` segments tested at every sample of `grid` exceed
/// [`MAX_SEGMENT_WORK`].
pub fn check_segment_work(grid: &Grid, segments: usize, at: &str) -> Result<()> {
    check_segment_work_limit(grid, segments, MAX_SEGMENT_WORK, at)
}

/// A located error when `segments` segments tested at every sample of `grid` exceed `limit`.
pub fn check_segment_work_limit(grid: &Grid, segments: usize, limit: u64, at: &str) -> Result<()> {
    let samples = grid.sample_count() as u64;
    let work = samples.saturating_mul(segments as u64);
    if work > limit {
        let [w, h] = grid.samples();
        return Err(Error::invalid(
            at,
            format!(
                "{segments} segments over {w}×{h} samples cost {work} distance tests; the limit is {limit}: use fewer points or a coarser resolution"
            ),
        ));
    }
    Ok(())
}

/// A located error when a river pass over `path` of channel `width` (its channel and coverage,
/// which test the samples in each segment's box) exceeds [`MAX_RIVER_WORK`].
pub fn check_river_work(grid: &Grid, path: &[[f32; 3]], width: f32, at: &str) -> Result<()> {
    let side = grid.spacing()[0].max(grid.spacing()[1]);
    let work = crate::hydrology::water::channel::path_work(grid, path, width * 0.5 + side);
    if work > MAX_RIVER_WORK {
        return Err(Error::invalid(
            at,
            format!(
                "{} segments of width {width} cost {work} distance tests on this grid; the limit is {MAX_RIVER_WORK}: use fewer or shorter segments, a narrower channel or a coarser resolution",
                path.len().saturating_sub(1)
            ),
        ));
    }
    Ok(())
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

/// Samples a shape over the grid (rows in parallel; identical for any thread count).
pub fn shape_field(
    ctx: &EvalContext,
    shape: &ShapeParams,
    seeds: ShapeSeeds,
) -> Result<Field<f32>> {
    let [w, _] = ctx.grid.samples();
    let [dx, dz] = ctx.grid.spacing();
    let sampler = RowSampler::new(*shape, seeds, w, dx);
    ctx.par_rows(|z, out| {
        let mut scratch = RowScratch::default();
        sampler.fill_row(z as f32 * dz, out, &mut scratch);
    })
}
