//! Whether a whole cell is dry, under water, or partly both — decided from its corners, for
//! query indexes that must answer exactly what [`WaterSet::depth_at`] answers without walking
//! the water path on every call.
//!
//! Depth over a cell is linear on each of its two triangles (the water surface and the ground
//! are interpolated on the same triangles), so it is positive over the whole cell when it is
//! positive at all four corners, and absent when no corner has water. Corners within a rounding
//! margin of the surface make the cell [`Wetness::Mixed`]: its points are answered exactly.

use super::WaterSet;

/// A cell's water, as [`WaterSet::cell_wetness`] decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wetness {
    /// [`WaterSet::depth_at`] is 0 at every point of the cell.
    Dry,
    /// [`WaterSet::depth_at`] is positive at every point of the cell.
    Wet,
    /// Some points may be wet and others dry: ask [`WaterSet::depth_at`].
    Mixed,
}

/// Where a corner's depth is too close to zero for the interpolated depth's sign to be certain:
/// a relative margin far above `f32` rounding in the two interpolations.
fn margin(values: &[f32]) -> f32 {
    let m = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    1e-4 * (1.0 + m)
}

/// The state of depths `d` (one per corner) with their rounding margin.
fn of_depths(d: [f32; 4], margin: f32) -> Wetness {
    if d.iter().all(|&x| x > margin) {
        Wetness::Wet
    } else if d.iter().all(|&x| x < -margin) {
        Wetness::Dry
    } else {
        Wetness::Mixed
    }
}

impl WaterSet {
    /// The water of the cell whose lowest corner is sample (`ix`, `iz`) over `ground` (see the
    /// module documentation). Bodies come first, as in [`Self::depth_at`]; where the body is
    /// dry over the whole cell, painted water decides.
    pub fn cell_wetness(&self, ground: &crate::Heightfield, ix: usize, iz: usize) -> Wetness {
        let w = self.grid.samples()[0];
        let corners = [(ix, iz), (ix + 1, iz), (ix, iz + 1), (ix + 1, iz + 1)];
        let g = corners.map(|(cx, cz)| ground.sample(cx, cz));
        let body = self.cell_owner(ix, iz);
        if body != 0 {
            let s = corners.map(|(cx, cz)| self.corner_surface(body, cx, cz));
            let m = margin(&[s, g].concat());
            match of_depths([0, 1, 2, 3].map(|k| s[k] - g[k]), m) {
                Wetness::Dry => {}
                other => return other,
            }
        }
        let p = corners.map(|(cx, cz)| self.painted_at(cz * w + cx));
        if p.iter().all(|&d| d <= 0.0) {
            return Wetness::Dry;
        }
        // Painted surfaces are ground + depth: the depth is the painted depth's interpolation,
        // up to the rounding of the ground's magnitude.
        let m = margin(&[p, g].concat());
        match of_depths(p, m) {
            Wetness::Wet => Wetness::Wet,
            _ => Wetness::Mixed,
        }
    }
}
