//! Non-destructive editing: layers, brush strokes as data, replay on regeneration, exact
//! incremental updates and undo history.
//!
//! - [`stroke`]: the stroke model (JSON shape, validation, footprints).
//! - [`brush`]: brush weights (radius, strength, falloff, slope limits, mask images).
//! - [`apply`]: the per-stamp operations on a window of samples.
//! - [`session`]: an editable terrain (base + strokes → surface, exclusion mask, regions),
//!   incremental updates, layers, undo/redo.
//! - [`history`]: compressed before/after records.
//! - [`compact`]: merging consecutive identical-setting stamps; size/resolution decisions.

pub mod apply;
pub mod brush;
pub mod compact;
pub mod history;
pub mod rect;
pub mod session;
pub mod stroke;

#[cfg(test)]
mod hardening_tests;
#[cfg(test)]
mod tests;

pub use rect::Rect;
pub use session::{Change, EditSession, MaskLoader, file_mask_loader};
pub use stroke::{List, Op, Stroke};
