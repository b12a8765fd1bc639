//! Water surface meshes, clipped at the shore.
//!
//! A cell belongs to the body [`WaterSet::cell_owner`] names (the body a query there finds).
//! On each of the cell's two terrain triangles the water surface (corner values from
//! [`WaterSet::corner_surface`]) and the ground are both linear, so their difference, the depth,
//! is linear too: the shoreline is where it crosses zero. Each triangle is clipped to its wet
//! part (depth > 0), so the water ends exactly where the terrain meets the water plane instead
//! of a whole cell beyond it, and the mesh covers exactly the points where [`WaterSet::sample`]
//! answers. A shoreline vertex is computed from its edge's two samples in a fixed order, so the
//! two triangles sharing an edge get bit-identical vertices (no cracks), and chunks of one body
//! meet exactly.
//!
//! ```
//! use ridgeline_core::grid::{Field, Grid};
//! use ridgeline_core::hydrology::water::{surface_mesh::CellRect, *};
//! use ridgeline_core::Heightfield;
//! let grid = Grid::new([8.0, 8.0], [8, 8], 8).unwrap();
//! // A bowl: ground rises from 0 at the centre.
//! let h: Vec<f32> = (0..81).map(|i| ((i % 9) as f32 - 4.0).abs() + ((i / 9) as f32 - 4.0).abs()).collect();
//! let ground = Field::from_vec(9, 9, h.clone()).unwrap();
//! let mut water = WaterSet::empty(grid);
//! water.add(WaterBody {
//!     id: "pond".into(), kind: WaterKind::Lake, level: 2.5,
//!     footprint: Footprint::Lake { center: [4.0, 4.0], radius: 8.0, boundary: None },
//!     flow_speed: 0.0, flow_direction: [1.0, 0.0], appearance: Appearance::default(),
//!     wet_samples: 0, warnings: vec![],
//! }, &ground);
//! let field = Heightfield::new(grid, h, None).unwrap();
//! let meshes = water.surface_meshes(&field, CellRect::all(&grid));
//! assert_eq!(meshes.len(), 1);
//! // Every vertex lies on the lake level and no deeper than the ground allows.
//! assert!(meshes[0].positions.iter().all(|p| p[1] == 2.5));
//! assert!(meshes[0].depth.iter().all(|&d| d >= 0.0));
//! ```

use super::WaterSet;
use crate::Heightfield;
use crate::grid::Grid;
use std::collections::HashMap;

/// A rectangle of cells `[x0, x1) × [z0, z1)` (the default is empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellRect {
    /// First cell column.
    pub x0: usize,
    /// First cell row.
    pub z0: usize,
    /// One past the last cell column.
    pub x1: usize,
    /// One past the last cell row.
    pub z1: usize,
}

impl CellRect {
    /// Every cell of `grid`.
    pub fn all(grid: &Grid) -> Self {
        let [cx, cz] = grid.cells();
        Self {
            x0: 0,
            z0: 0,
            x1: cx as usize,
            z1: cz as usize,
        }
    }

    /// True when it holds no cell.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.z0 >= self.z1
    }

    /// The cells of chunk (cx, cz).
    pub fn chunk(grid: &Grid, cx: u32, cz: u32) -> Self {
        let r = grid.chunk_cells_range(cx, cz);
        Self {
            x0: r.x0 as usize,
            z0: r.z0 as usize,
            x1: r.x1 as usize,
            z1: r.z1 as usize,
        }
    }
}

/// One body's water surface over a cell rectangle: an indexed triangle list in terrain-local
/// coordinates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WaterMesh {
    /// Index of the body in [`WaterSet::bodies`], or [`super::PAINTED_BODY`].
    pub body: usize,
    /// Vertex positions (x, surface, z), terrain-local.
    pub positions: Vec<[f32; 3]>,
    /// Water depth (surface − ground) per vertex: 0 on the shoreline, never negative.
    pub depth: Vec<f32>,
    /// The body's prescribed flow (terrain-local XZ, m/s) per vertex: what
    /// [`WaterSet::sample`] reports there.
    pub flow: Vec<[f32; 2]>,
    /// Triangles, wound like the terrain's (front faces up).
    pub indices: Vec<u32>,
}

/// Where a mesh vertex comes from: a grid sample, or the shoreline on the edge between two
/// samples (lower index first).
#[derive(Clone, Copy, Hash, PartialEq, Eq)]
enum VertexKey {
    Sample(usize),
    Shore(usize, usize),
}

struct Builder<'a> {
    water: &'a WaterSet,
    heights: &'a [f32],
    body_index: u16,
    mesh: WaterMesh,
    ids: HashMap<VertexKey, u32>,
}

impl Builder<'_> {
    fn sample_pos(&self, i: usize) -> [f32; 3] {
        let w = self.water.grid.samples()[0];
        let [x, z] = self.water.grid.sample_position(i % w, i / w);
        [x, self.surface_at(i), z]
    }

    /// The water surface at sample `i` as this mesh's body sees it (painted water, body index
    /// 0: the ground plus the painted depth).
    fn surface_at(&self, i: usize) -> f32 {
        let w = self.water.grid.samples()[0];
        if self.body_index == 0 {
            self.heights[i] + self.water.painted_at(i)
        } else {
            self.water.corner_surface(self.body_index, i % w, i / w)
        }
    }

    fn push(&mut self, key: VertexKey, pos: [f32; 3], depth: f32) -> u32 {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.mesh.positions.len() as u32;
        let flow = self
            .water
            .bodies
            .get(self.mesh.body)
            .map_or([0.0, 0.0], |b| b.flow_at(pos[0], pos[2]));
        self.mesh.positions.push(pos);
        self.mesh.depth.push(depth.max(0.0));
        self.mesh.flow.push(flow);
        self.ids.insert(key, id);
        id
    }

    /// Vertex at sample `i` (its depth given).
    fn corner(&mut self, i: usize, depth: f32) -> u32 {
        let pos = self.sample_pos(i);
        self.push(VertexKey::Sample(i), pos, depth)
    }

    /// The shoreline vertex on the edge `a`–`b` where depth crosses zero.
    fn shore(&mut self, a: usize, da: f32, b: usize, db: f32) -> u32 {
        let ((a, da), (b, db)) = if a < b {
            ((a, da), (b, db))
        } else {
            ((b, db), (a, da))
        };
        let key = VertexKey::Shore(a, b);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let t = da / (da - db);
        let (pa, pb) = (self.sample_pos(a), self.sample_pos(b));
        let pos = [0, 1, 2].map(|k| pa[k] + t * (pb[k] - pa[k]));
        self.push(key, pos, 0.0)
    }

    /// Clips triangle `tri` (sample indices, terrain winding) to its wet part.
    fn triangle(&mut self, tri: [usize; 3]) {
        let d = tri.map(|i| self.surface_at(i) - self.heights[i]);
        if d.iter().all(|&v| v <= 0.0) {
            return;
        }
        // Walk the triangle's edges, keeping wet corners and the crossings (Sutherland–Hodgman
        // against depth > 0): at most four vertices.
        let mut poly = [0u32; 4];
        let mut n = 0;
        for k in 0..3 {
            let (a, b) = (k, (k + 1) % 3);
            if d[a] > 0.0 {
                poly[n] = self.corner(tri[a], d[a]);
                n += 1;
            }
            if (d[a] > 0.0) != (d[b] > 0.0) {
                poly[n] = self.shore(tri[a], d[a], tri[b], d[b]);
                n += 1;
            }
        }
        for k in 1..n.saturating_sub(1) {
            if poly[0] != poly[k] && poly[k] != poly[k + 1] && poly[0] != poly[k + 1] {
                self.mesh
                    .indices
                    .extend_from_slice(&[poly[0], poly[k], poly[k + 1]]);
            }
        }
    }
}

impl WaterSet {
    /// The clipped water surface of every body over the cells of `rect` (clamped to the grid),
    /// one mesh per body that has water there, in body order, then painted water's (its
    /// [`WaterMesh::body`] is [`super::PAINTED_BODY`]) over the cells no body owns. Hole cells
    /// carry no water surface.
    pub fn surface_meshes(&self, field: &Heightfield, rect: CellRect) -> Vec<WaterMesh> {
        let bodies = !self.owner.is_empty() && !self.bodies.is_empty();
        if !bodies && self.painted.is_empty() {
            return Vec::new();
        }
        let [cells_x, cells_z] = self.grid.cells().map(|c| c as usize);
        let (x1, z1) = (rect.x1.min(cells_x), rect.z1.min(cells_z));
        let w = self.grid.samples()[0];
        let holes = field.holes();
        let mut builders: Vec<Option<Builder<'_>>> = Vec::new();
        builders.resize_with(self.bodies.len() + 1, || None);
        let painted = |x: usize, z: usize| {
            [(x, z), (x + 1, z), (x, z + 1), (x + 1, z + 1)]
                .iter()
                .any(|&(cx, cz)| self.painted_at(cz * w + cx) > 0.0)
        };
        for z in rect.z0..z1 {
            for x in rect.x0..x1 {
                let owner = if bodies { self.cell_owner(x, z) } else { 0 };
                if holes.is_hole(x, z) || (owner == 0 && !painted(x, z)) {
                    continue;
                }
                // Painted water builds in the last slot (body index 0).
                let slot = if owner == 0 {
                    self.bodies.len()
                } else {
                    owner as usize - 1
                };
                let body = if owner == 0 {
                    super::PAINTED_BODY
                } else {
                    owner as usize - 1
                };
                let b = builders[slot].get_or_insert_with(|| Builder {
                    water: self,
                    heights: field.heights(),
                    body_index: owner,
                    mesh: WaterMesh {
                        body,
                        ..WaterMesh::default()
                    },
                    ids: HashMap::new(),
                });
                let i = z * w + x;
                // The terrain's split and winding: (x,z)(x+1,z)(x,z+1) and
                // (x+1,z)(x+1,z+1)(x,z+1).
                b.triangle([i, i + 1, i + w]);
                b.triangle([i + 1, i + w + 1, i + w]);
            }
        }
        builders
            .into_iter()
            .flatten()
            .map(|b| b.mesh)
            .filter(|m| !m.indices.is_empty())
            .collect()
    }
}

#[cfg(test)]
mod tests;
