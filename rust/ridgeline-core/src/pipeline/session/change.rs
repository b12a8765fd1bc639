//! [`Change`]: what an edit changed, by layer, for the views that follow it.

use crate::edit::rect::Rect;
use crate::hydrology::water::surface_mesh::CellRect;

/// What an edit changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Change {
    /// Samples whose height changed (may be empty).
    pub heights: Rect,
    /// Samples whose height, normal, exclusion or region may have changed: what meshes,
    /// collision and previews must refresh.
    pub touched: Rect,
    /// Chunks (x, z) whose sample range meets `touched`.
    pub chunks: Vec<[u32; 2]>,
    /// Samples whose biome id or surface role changed (empty when none, or when the session
    /// has no classification); `touched` and `chunks` include them.
    pub surface: Rect,
    /// Cells (a cell rectangle: cell `(x, z)` spans samples `x..=x+1`, `z..=z+1`) whose hole
    /// flags may have changed; `touched` and `chunks` include their samples.
    pub holes: Rect,
    /// Samples whose exclusion weight changed (empty when none did); `touched` includes them.
    pub exclusion: Rect,
    /// Samples whose painted biome region changed (empty when none did); `touched` includes
    /// them.
    pub regions: Rect,
    /// Samples whose painted foliage density changed (`foliage_density` strokes; empty when
    /// none did); `touched` includes them. Meshes are unaffected (`chunks` stays empty).
    pub foliage: Rect,
    /// Samples whose user channels may have changed (paint strokes; `touched` includes them).
    pub user_channels: Rect,
    /// Samples whose surface paint weights may have changed (`touched` includes them; where
    /// the painted role changed, `surface` too).
    pub surface_paint: Rect,
    /// Samples whose painted water depth changed (`paint_water` strokes; `heights` and
    /// `touched` include them, since the bed moves with the depth).
    pub water: Rect,
}

impl Change {
    /// The samples whose height changed or that are a corner of a cell whose hole flag changed:
    /// what the ground's shape — heights, triangles, collision — follows (painting biomes,
    /// exclusion, surface roles or user channels changes none of it).
    pub fn shape_samples(&self) -> Rect {
        self.heights.union(&corner_samples(self.holes))
    }

    /// The cells whose water surface this change reshapes in place (a corner's height or
    /// painted depth changed — a cell reads samples x..=x+1 — or its hole flag did); the
    /// water's own re-resolution is compared separately
    /// ([`crate::hydrology::water::surface_tiles::SurfaceTiles::update`]). Empty when none.
    pub fn water_cells(&self) -> CellRect {
        let samples = self.heights.union(&self.water);
        let cells = if samples.is_empty() {
            Rect::EMPTY
        } else {
            Rect::new(
                samples.x0.saturating_sub(1),
                samples.z0.saturating_sub(1),
                samples.x1,
                samples.z1,
            )
        };
        let c = cells.union(&self.holes);
        CellRect {
            x0: c.x0,
            z0: c.z0,
            x1: c.x1,
            z1: c.z1,
        }
    }
}

/// The samples at the corners of the cells `cells` (cell `(x, z)` spans samples `x..=x+1`,
/// `z..=z+1`); empty for no cells.
pub(crate) fn corner_samples(cells: Rect) -> Rect {
    if cells.is_empty() {
        Rect::EMPTY
    } else {
        Rect::new(cells.x0, cells.z0, cells.x1 + 1, cells.z1 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn water_cells_are_the_cells_reading_changed_samples_and_the_changed_holes() {
        let none = Change::default();
        assert!(none.water_cells().is_empty());
        // Samples 4..6 × 2..3: cells 3..6 × 1..3 read them (cell x reads samples x and x+1).
        let heights = Change {
            heights: Rect::new(4, 2, 6, 3),
            ..Change::default()
        };
        assert_eq!(
            heights.water_cells(),
            CellRect {
                x0: 3,
                z0: 1,
                x1: 6,
                z1: 3
            }
        );
        // Painted depth at sample 0 (no cell before it) and a hole cell further on.
        let both = Change {
            water: Rect::new(0, 0, 1, 1),
            holes: Rect::new(9, 9, 10, 10),
            ..Change::default()
        };
        assert_eq!(
            both.water_cells(),
            CellRect {
                x0: 0,
                z0: 0,
                x1: 10,
                z1: 10
            }
        );
    }

    #[test]
    fn shape_samples_are_the_height_samples_and_the_hole_cells_corners() {
        assert!(Change::default().shape_samples().is_empty());
        // Painting alone (exclusion, regions, surface roles) changes no shape.
        let paint = Change {
            touched: Rect::new(0, 0, 8, 8),
            exclusion: Rect::new(0, 0, 8, 8),
            surface_paint: Rect::new(0, 0, 8, 8),
            ..Change::default()
        };
        assert!(paint.shape_samples().is_empty());
        // Hole cells 9..10 × 9..10: samples 9..11 × 9..11 (a cell's four corners).
        let both = Change {
            heights: Rect::new(2, 3, 4, 5),
            holes: Rect::new(9, 9, 10, 10),
            ..Change::default()
        };
        assert_eq!(both.shape_samples(), Rect::new(2, 3, 11, 11));
    }
}
