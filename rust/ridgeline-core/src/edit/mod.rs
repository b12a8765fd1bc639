//! Non-destructive editing operations: layers, brush strokes as data, the per-stamp
//! operations and compressed undo records. The editable terrain that replays them on a
//! generated base ([`crate::pipeline::session`]) and stroke compaction
//! ([`crate::pipeline::compact`]) live in the pipeline, which owns the recipe.
//!
//! - [`layer`]: layers (kinds, defaults, canonical JSON).
//! - [`stroke`]: the stroke model (JSON shape, footprints); `stroke_parse` validates it.
//! - [`foliage_density`]: painted foliage density maps (a replayable stroke).
//! - [`height_patch`]: absolute heights over a sample rectangle (a replayable stroke).
//! - [`byte_patch`]: absolute per-sample bytes over a rectangle: painted water depth
//!   (`water_patch`) and foliage density (`foliage_patch`), what a layer-file import records.
//! - [`paint`]: the painted per-sample layers (user channels, surface paint weights) and the
//!   strokes that write them; [`paint_patch`] their absolute-bytes patch stroke.
//! - [`water`]: painted water (a depth fraction per sample that lowers the bed under the
//!   drawn water surface; `paint_water` strokes).
//! - [`brush`]: brush weights (radius, strength, falloff, slope limits, mask images).
//! - [`apply`]: the per-stamp operations on a window of samples.
//! - [`history`]: compressed before/after records.

pub mod apply;
pub mod brush;
pub mod byte_patch;
pub mod foliage_density;
pub mod height_patch;
#[cfg(test)]
mod height_patch_tests;
pub mod history;
pub mod layer;
pub mod paint;
pub mod paint_patch;
pub mod rect;
pub mod stroke;
mod stroke_parse;
pub mod water;

pub use brush::{MaskImage, MaskLoader};
pub use layer::{LAYER_KINDS, Layer};
pub use rect::Rect;
pub use stroke::{List, Op, Stroke};
