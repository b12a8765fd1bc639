//! The surface under a point — hole, water or the nearest sample's role — answered from one
//! byte per cell, for per-frame gameplay queries (`Terrain3D.get_surface`: footsteps,
//! friction).
//!
//! The exact answer walks the hole mask, the water bodies (owners, corner surfaces, the
//! ground on both), painted water and the role grid: seven or so cache lines at random points
//! of a large terrain. The index keeps, per cell, whether it is a hole and whether its water
//! is [`Wetness::Dry`], [`Wetness::Wet`] or [`Wetness::Mixed`]; only mixed cells (shores)
//! take the exact water path, so a query reads two cache lines (this byte and the role), whose
//! loads do not depend on each other. Answers are identical to [`surface_at`].
//!
//! Cells are indexed lazily in tiles of [`TILE`]² cells, on the first query that lands in one;
//! whoever changes heights, holes, water or roles invalidates the changed cells (or all).

use crate::Heightfield;
use crate::biome::SampleClasses;
use crate::grid::Grid;
use crate::hydrology::water::{WaterSet, Wetness};

/// [`surface_at`] outside the terrain or in a hole.
pub const SURFACE_NONE: i32 = -1;
/// [`surface_at`] where water covers the ground.
pub const SURFACE_WATER: i32 = 255;

/// Tile edge in cells.
pub const TILE: usize = 32;

const HOLE: u8 = 1;
const WET: u8 = 2;
const MIXED: u8 = 4;

/// The exact surface at terrain-local (x, z): [`SURFACE_NONE`] outside or in a hole,
/// [`SURFACE_WATER`] where [`WaterSet::depth_at`] is positive (unless `ignore_water`), else the
/// role of the nearest sample (`roles.role(i)`, 0 where `roles` is shorter).
pub fn surface_at(
    field: &Heightfield,
    water: &WaterSet,
    roles: &SampleClasses,
    x: f32,
    z: f32,
    ignore_water: bool,
) -> i32 {
    if field.height_at(x, z).is_none() {
        return SURFACE_NONE;
    }
    if !ignore_water && water.depth_at(field, x, z) > 0.0 {
        return SURFACE_WATER;
    }
    match field.grid().nearest_sample(x, z) {
        Some((ix, iz)) => role(roles, field.grid().index(ix, iz)),
        None => SURFACE_NONE,
    }
}

#[inline(always)]
fn role(roles: &SampleClasses, i: usize) -> i32 {
    i32::from(roles.role(i).unwrap_or(0))
}

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct SurfaceIndex {
    /// The grid the codes describe (`None` until first use).
    grid: Option<Grid>,
    /// Per cell: [`HOLE`], [`WET`], [`MIXED`] bits (valid where its tile is).
    codes: Vec<u8>,
    /// Per tile: whether its codes are current.
    valid: Vec<bool>,
    /// Tiles along X.
    tiles_x: usize,
}

impl SurfaceIndex {
    /// An empty index (allocates on the first query).
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every cell (the surface was replaced, or changed everywhere).
    pub fn invalidate_all(&mut self) {
        self.valid.iter_mut().for_each(|v| *v = false);
    }

    /// Forgets the cells a change of samples `[x0, x1) × [z0, z1)` touches (the cells having
    /// one of them as a corner).
    pub fn invalidate_samples(&mut self, x0: usize, z0: usize, x1: usize, z1: usize) {
        if x1 <= x0 || z1 <= z0 {
            return;
        }
        self.invalidate_cells(x0.saturating_sub(1), z0.saturating_sub(1), x1, z1);
    }

    /// Forgets cells `[x0, x1) × [z0, z1)` (clamped to the grid).
    pub fn invalidate_cells(&mut self, x0: usize, z0: usize, x1: usize, z1: usize) {
        if self.tiles_x == 0 || x1 <= x0 || z1 <= z0 {
            return;
        }
        let tiles_z = self.valid.len() / self.tiles_x;
        let (tx1, tz1) = (
            x1.div_ceil(TILE).min(self.tiles_x),
            z1.div_ceil(TILE).min(tiles_z),
        );
        for tz in z0 / TILE..tz1 {
            for tx in x0 / TILE..tx1 {
                self.valid[tz * self.tiles_x + tx] = false;
            }
        }
    }

    /// Tiles whose codes are current (built and not invalidated since).
    pub fn valid_tiles(&self) -> usize {
        self.valid.iter().filter(|v| **v).count()
    }

    /// Bytes held on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.codes.capacity() + self.valid.capacity()
    }

    /// [`surface_at`], from the index (building the tile under the point when needed).
    /// `field`, `water` and `roles` must be what the index was invalidated for.
    #[inline]
    pub fn surface_at(
        &mut self,
        field: &Heightfield,
        water: &WaterSet,
        roles: &SampleClasses,
        x: f32,
        z: f32,
        ignore_water: bool,
    ) -> i32 {
        let grid = field.grid();
        let Some((ix, iz, u, v)) = grid.locate(x, z) else {
            return SURFACE_NONE;
        };
        let (nx, nz) = (ix + usize::from(u >= 0.5), iz + usize::from(v >= 0.5));
        if field.holes().count() == 0 && water.owner.is_empty() && water.painted.is_empty() {
            // No hole and no water anywhere: the role is the answer.
            return role(roles, grid.index(nx, nz));
        }
        if self.grid.as_ref() != Some(grid) {
            self.reset(*grid);
        }
        let cells_x = grid.samples()[0] - 1;
        let tile = (iz / TILE) * self.tiles_x + ix / TILE;
        if !self.valid[tile] {
            self.build_tile(field, water, tile);
        }
        // Independent loads: the cell's code and the nearest sample's role.
        let code = self.codes[iz * cells_x + ix];
        let r = role(roles, grid.index(nx, nz));
        if code & HOLE != 0 {
            return SURFACE_NONE;
        }
        if !ignore_water
            && (code & WET != 0 || (code & MIXED != 0 && water.depth_at(field, x, z) > 0.0))
        {
            return SURFACE_WATER;
        }
        r
    }

    fn reset(&mut self, grid: Grid) {
        let [sx, sz] = grid.samples();
        let (cx, cz) = (sx - 1, sz - 1);
        self.tiles_x = cx.div_ceil(TILE);
        self.valid = vec![false; self.tiles_x * cz.div_ceil(TILE)];
        self.codes = vec![0; cx * cz];
        self.grid = Some(grid);
    }

    fn build_tile(&mut self, field: &Heightfield, water: &WaterSet, tile: usize) {
        let [sx, sz] = field.grid().samples();
        let (cx, cz) = (sx - 1, sz - 1);
        let (tx, tz) = (tile % self.tiles_x, tile / self.tiles_x);
        let holes = field.holes();
        let any_holes = holes.count() != 0;
        let any_water = !water.owner.is_empty() || !water.painted.is_empty();
        for z in tz * TILE..((tz + 1) * TILE).min(cz) {
            for x in tx * TILE..((tx + 1) * TILE).min(cx) {
                let mut code = 0;
                if any_holes && holes.is_hole(x, z) {
                    code |= HOLE;
                }
                if any_water {
                    code |= match water.cell_wetness(field, x, z) {
                        Wetness::Dry => 0,
                        Wetness::Wet => WET,
                        Wetness::Mixed => MIXED,
                    };
                }
                self.codes[z * cx + x] = code;
            }
        }
        self.valid[tile] = true;
    }
}

#[cfg(test)]
#[path = "surface_index_tests.rs"]
mod tests;
