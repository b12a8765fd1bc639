//! Heightmap images and their interchange formats, as pure decoders and encoders (no file
//! access): 16-bit PNG ([`png16`]), raw R16/R32 ([`raw`]), the seed-002 terrain JSON
//! ([`terrain_json`]), and resampling a decoded image onto a grid ([`resample`]). An algorithms
//! module, so the Heightmap node can decode what the pipeline read; `formats` re-exports it.

pub mod png16;
pub mod raw;
pub mod resample;
pub mod terrain_json;

use crate::error::{Error, Result};
use crate::grid::MAX_CELLS_PER_AXIS;

/// A rectangular block of heights, row-major with Z (image rows) outer.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightImage {
    /// Samples along X (image width).
    pub width: usize,
    /// Samples along Z (image height).
    pub depth: usize,
    /// Heights, `width × depth`, row-major.
    pub heights: Vec<f32>,
}

impl HeightImage {
    /// Checks dimensions, length and finiteness; `path` names the source in errors.
    pub fn check(&self, path: &str) -> Result<()> {
        check_dimensions(self.width, self.depth, path)?;
        if self.heights.len() != self.width * self.depth {
            return Err(Error::invalid(
                path,
                format!(
                    "expected {} × {} = {} heights, got {}",
                    self.width,
                    self.depth,
                    self.width * self.depth,
                    self.heights.len()
                ),
            ));
        }
        if let Some(i) = self.heights.iter().position(|h| !h.is_finite()) {
            return Err(Error::invalid(
                format!("{path}[{i}]"),
                format!("height must be finite, got {}", self.heights[i]),
            ));
        }
        Ok(())
    }
}

/// Sample counts must be 2..=8193 per axis.
pub(crate) fn check_dimensions(width: usize, depth: usize, path: &str) -> Result<()> {
    let max = MAX_CELLS_PER_AXIS as usize + 1;
    if !(2..=max).contains(&width) || !(2..=max).contains(&depth) {
        return Err(Error::invalid(
            path,
            format!("dimensions {width} × {depth} out of range: each axis needs 2..={max} samples"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod dem_tests;
