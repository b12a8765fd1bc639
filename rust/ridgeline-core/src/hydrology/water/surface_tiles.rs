//! Water surface meshes kept per chunk, so that an edit rebuilds only the chunks whose water
//! surface it can change.
//!
//! [`SurfaceTiles::build`] holds [`WaterSet::surface_meshes`] of every chunk's cells (built in
//! parallel; each chunk is built alone, so the result does not depend on the thread count).
//! After an edit, [`SurfaceTiles::update`] compares the water before and after it sample by
//! sample and rebuilds the chunks that can differ: those holding a cell whose ground or hole
//! flag changed, and those within reach of a sample whose owner, surface or painted depth
//! changed (a cell reads its four corners, and a corner its body does not own reads its eight
//! neighbours — [`WaterSet::corner_surface`]). When the bodies themselves changed (another
//! level, footprint or flow), every chunk is rebuilt. [`SurfaceTiles::merged`] joins the
//! chunks into one mesh per body, in chunk order; the result of an update is bit-identical to
//! a fresh build on the edited water.

use super::surface_mesh::{CellRect, WaterMesh};
use super::{PAINTED_BODY, WaterBody, WaterSet};
use crate::Heightfield;
use crate::grid::Grid;
use rayon::prelude::*;

/// Per-chunk water surface meshes of one terrain (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SurfaceTiles {
    /// Chunks along X and Z.
    chunks: [u32; 2],
    /// Body slots: one per body, then painted water.
    slots: usize,
    /// Per chunk (row-major): the meshes of its cells, as [`WaterSet::surface_meshes`] gives.
    tiles: Vec<Vec<WaterMesh>>,
}

/// What [`SurfaceTiles::update`] rebuilt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilesUpdate {
    /// True when every chunk was rebuilt because the bodies (or the grid) differ.
    pub all: bool,
    /// Chunks rebuilt.
    pub chunks_rebuilt: usize,
    /// The samples (x0, z0, x1, z1, half-open) of the rebuilt chunks' bounding rectangle: every
    /// sample whose water or ground the edit can have changed, for other views of the water
    /// ([`super::level_grid::LevelGrid::update`]). Empty (all zero) when no chunk was rebuilt.
    pub samples: [usize; 4],
    /// Per body slot ([`SurfaceTiles::slot_of`]): true when the slot's merged mesh changed.
    pub slots_changed: Vec<bool>,
}

impl SurfaceTiles {
    /// The surfaces of every chunk of `water` over `field`.
    pub fn build(water: &WaterSet, field: &Heightfield) -> Self {
        let grid = water.grid;
        let [cx, cz] = grid.chunks();
        let tiles = (0..(cx * cz) as usize)
            .into_par_iter()
            .map(|c| chunk_meshes(water, field, &grid, c))
            .collect();
        SurfaceTiles {
            chunks: [cx, cz],
            slots: water.bodies.len() + 1,
            tiles,
        }
    }

    /// Number of body slots: one per body, then painted water.
    pub fn slot_count(&self) -> usize {
        self.slots
    }

    /// The slot of mesh `m`: its body index, painted water last.
    pub fn slot_of(&self, m: &WaterMesh) -> usize {
        if m.body == PAINTED_BODY {
            self.slots - 1
        } else {
            m.body
        }
    }

    /// Brings the tiles from `before` to `after` (the same terrain's water before and after an
    /// edit; `field` is the edited ground, `ground_changed` the cells whose corner heights or
    /// hole flag the edit changed). Rebuilds every chunk when the tiles were not built from
    /// `before`'s grid or the bodies differ in anything the surface reads.
    pub fn update(
        &mut self,
        before: &WaterSet,
        after: &WaterSet,
        field: &Heightfield,
        ground_changed: CellRect,
    ) -> TilesUpdate {
        let grid = after.grid;
        let same_bodies = before.grid == after.grid
            && before.bodies.len() == after.bodies.len()
            && before
                .bodies
                .iter()
                .zip(&after.bodies)
                .all(|(a, b)| same_surface(a, b));
        if !same_bodies
            || self.chunks != grid.chunks()
            || self.slots != after.bodies.len() + 1
            || self.tiles.len() != (self.chunks[0] * self.chunks[1]) as usize
        {
            *self = Self::build(after, field);
            let [w, h] = grid.samples();
            return TilesUpdate {
                all: true,
                chunks_rebuilt: self.tiles.len(),
                samples: [0, 0, w, h],
                slots_changed: vec![true; self.slots],
            };
        }
        let dirty = dirty_chunks(&grid, before, after, ground_changed);
        let rebuilt: Vec<(usize, Vec<WaterMesh>)> = dirty
            .par_iter()
            .map(|&c| (c, chunk_meshes(after, field, &grid, c)))
            .collect();
        let mut slots_changed = vec![false; self.slots];
        for (c, meshes) in rebuilt {
            if self.tiles[c] != meshes {
                for m in self.tiles[c].iter().chain(&meshes) {
                    let s = self.slot_of(m);
                    slots_changed[s] = true;
                }
                self.tiles[c] = meshes;
            }
        }
        TilesUpdate {
            all: false,
            chunks_rebuilt: dirty.len(),
            samples: chunk_samples(&grid, &dirty),
            slots_changed,
        }
    }

    /// The surface of body slot `slot` over the whole terrain: its chunks' meshes joined in
    /// chunk order (None when the slot has no water).
    pub fn merged_slot(&self, slot: usize) -> Option<WaterMesh> {
        let mut out: Option<WaterMesh> = None;
        for m in self.tiles.iter().flatten() {
            if self.slot_of(m) != slot {
                continue;
            }
            let o = out.get_or_insert_with(|| WaterMesh {
                body: m.body,
                ..WaterMesh::default()
            });
            let base = o.positions.len() as u32;
            o.positions.extend_from_slice(&m.positions);
            o.depth.extend_from_slice(&m.depth);
            o.flow.extend_from_slice(&m.flow);
            o.indices.extend(m.indices.iter().map(|i| i + base));
        }
        out
    }

    /// Every slot's merged surface, in slot order (bodies, then painted water), skipping slots
    /// without water.
    pub fn merged(&self) -> Vec<WaterMesh> {
        (0..self.slots)
            .filter_map(|s| self.merged_slot(s))
            .collect()
    }
}

/// The meshes of chunk `c` (row-major index).
fn chunk_meshes(water: &WaterSet, field: &Heightfield, grid: &Grid, c: usize) -> Vec<WaterMesh> {
    let cx = grid.chunks()[0] as usize;
    water.surface_meshes(
        field,
        CellRect::chunk(grid, (c % cx) as u32, (c / cx) as u32),
    )
}

/// The bounding sample rectangle (half-open) of chunks `chunks` (all zero when none).
fn chunk_samples(grid: &Grid, chunks: &[usize]) -> [usize; 4] {
    let cx = grid.chunks()[0] as usize;
    let mut out: Option<[usize; 4]> = None;
    for &c in chunks {
        let r = grid.chunk_cells_range((c % cx) as u32, (c / cx) as u32);
        // Cells x0..x1 span samples x0..=x1.
        let [x0, z0, x1, z1] = [r.x0, r.z0, r.x1 + 1, r.z1 + 1].map(|v| v as usize);
        out = Some(match out {
            None => [x0, z0, x1, z1],
            Some(o) => [o[0].min(x0), o[1].min(z0), o[2].max(x1), o[3].max(z1)],
        });
    }
    out.unwrap_or([0; 4])
}

/// True when two versions of a body give the same surface on the same samples (warnings, wet
/// counts and appearance do not shape it).
fn same_surface(a: &WaterBody, b: &WaterBody) -> bool {
    a.kind == b.kind
        && a.level.to_bits() == b.level.to_bits()
        && a.footprint == b.footprint
        && a.flow_speed.to_bits() == b.flow_speed.to_bits()
        && a.flow_direction.map(f32::to_bits) == b.flow_direction.map(f32::to_bits)
}

/// The chunks (row-major, ascending) whose surface can differ between `before` and `after`.
fn dirty_chunks(
    grid: &Grid,
    before: &WaterSet,
    after: &WaterSet,
    ground_changed: CellRect,
) -> Vec<usize> {
    let [cx, cz] = grid.chunks().map(|c| c as usize);
    let [cells_x, cells_z] = grid.cells().map(|c| c as usize);
    let cc = grid.chunk_cells() as usize;
    let mut dirty = vec![false; cx * cz];
    // Marks the chunks holding cells [x0, x1) × [z0, z1) (clamped to the grid).
    let mut mark = |x0: usize, z0: usize, x1: usize, z1: usize| {
        let (x1, z1) = (x1.min(cells_x), z1.min(cells_z));
        if x0 >= x1 || z0 >= z1 {
            return;
        }
        for z in z0 / cc..=(z1 - 1) / cc {
            for x in x0 / cc..=(x1 - 1) / cc {
                dirty[z * cx + x] = true;
            }
        }
    };
    let g = ground_changed;
    mark(g.x0, g.z0, g.x1, g.z1);
    let [w, _] = grid.samples();
    let n = grid.sample_count();
    for i in 0..n {
        let (a, b) = (before.owner_at(i), after.owner_at(i));
        let surface_differs = (a != 0 || b != 0)
            && before.surface.get(i).map(|s| s.to_bits())
                != after.surface.get(i).map(|s| s.to_bits());
        if a != b
            || surface_differs
            || before.painted_at(i).to_bits() != after.painted_at(i).to_bits()
        {
            // Cells whose corners (x..x+1) or their corners' neighbours (x−1..x+2) hold it.
            let (x, z) = (i % w, i / w);
            mark(x.saturating_sub(2), z.saturating_sub(2), x + 2, z + 2);
        }
    }
    (0..cx * cz).filter(|&c| dirty[c]).collect()
}

#[cfg(test)]
mod tests;
