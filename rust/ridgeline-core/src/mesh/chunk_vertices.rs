//! The vertices of a chunk mesh that heights decide: grid rows, the skirt and wall tail, the
//! bounding box (shared by full builds and in-place vertex updates, so both agree bit for bit).

use super::{Edge, edge_level_error};
use crate::grid::{ChunkRange, Grid};
use crate::heightfield::Heightfield;

/// Appends the chunk-local positions and normals of grid row `lz` of the chunk `range`.
pub(crate) fn push_grid_row(
    field: &Heightfield,
    range: &ChunkRange,
    lz: usize,
    positions: &mut Vec<[f32; 3]>,
    normals: &mut Vec<[f32; 3]>,
) {
    let grid = field.grid();
    let origin = grid.sample_position(range.x0 as usize, range.z0 as usize);
    let vw = range.width() as usize + 1;
    let gz = range.z0 as usize + lz;
    let row = grid.index(range.x0 as usize, gz);
    for (lx, &y) in field.heights()[row..row + vw].iter().enumerate() {
        let gx = range.x0 as usize + lx;
        let [px, pz] = grid.sample_position(gx, gz);
        positions.push([px - origin[0], y, pz - origin[1]]);
        normals.push(field.vertex_normal(gx, gz).to_array());
    }
}

/// Lowest and highest sample of the chunk `range` (its grid vertices, row by row).
pub(crate) fn height_span(field: &Heightfield, range: &ChunkRange) -> [f32; 2] {
    let grid = field.grid();
    let vw = range.width() as usize + 1;
    let (mut ymin, mut ymax) = (f32::INFINITY, f32::NEG_INFINITY);
    for gz in range.z0 as usize..=range.z1 as usize {
        let row = grid.index(range.x0 as usize, gz);
        for &y in &field.heights()[row..row + vw] {
            ymin = ymin.min(y);
            ymax = ymax.max(y);
        }
    }
    [ymin, ymax]
}

/// How far a chunk's skirts hang below its edge samples: twice the largest edge error of any
/// level (the worst crack between two levels of neighbouring chunks) plus a small margin. The
/// mesh path's skirts and the GPU patches' use it.
pub(crate) fn skirt_depth(edge_error: f32, [dx, dz]: [f32; 2]) -> f32 {
    2.0 * edge_error + 0.05 * dx.min(dz).max(0.01)
}

/// Where the walls on the terrain's outer border end: below the lowest sample by 5 % of the
/// height range, at least two cells. Both render paths hang their border walls to it.
pub fn wall_base(field: &Heightfield) -> f32 {
    let [lo, hi] = field.height_range();
    let [dx, dz] = field.grid().spacing();
    lo - ((hi - lo) * 0.05).max(2.0 * dx.max(dz))
}

/// Sample steps of a `w × d` chunk's levels: 1, 2, 4, … up to the first that spans it.
pub(crate) fn lod_steps(w: u32, d: u32) -> Vec<u32> {
    let mut steps = vec![1u32];
    while steps[steps.len() - 1] < w.max(d) {
        steps.push(steps[steps.len() - 1] * 2);
    }
    steps
}

/// Chunk-local bounding box: the samples' height range `y`, skirts and walls below.
pub(crate) fn chunk_aabb(
    grid: &Grid,
    range: &ChunkRange,
    [ymin, ymax]: [f32; 2],
    skirt_depth: f32,
    has_neighbour: &[bool; 4],
    wall_base: f32,
) -> [[f32; 3]; 2] {
    let [dx, dz] = grid.spacing();
    let has_wall = has_neighbour.iter().any(|n| !n);
    let ybottom = if has_wall {
        wall_base.min(ymin - skirt_depth)
    } else {
        ymin - skirt_depth
    };
    [
        [0.0, ybottom, 0.0],
        [range.width() as f32 * dx, ymax, range.depth() as f32 * dz],
    ]
}

/// Where a chunk's skirt and wall vertices sit in its vertex buffer, and what they hang from.
pub(crate) struct TailLayout {
    /// Grid samples along each edge — north (z=0), south (z=d), west (x=0), east (x=w) — and
    /// the edge's outward direction.
    pub(crate) edges: [Edge; 4],
    /// Whether each edge has a neighbouring chunk (a skirt) or lies on the terrain's border (a
    /// wall).
    pub(crate) has_neighbour: [bool; 4],
    /// First skirt vertex of each edge.
    pub(crate) skirt_base: [u32; 4],
    /// First wall vertex of each border edge (top and bottom pairs).
    pub(crate) wall_base_index: [u32; 4],
    /// How far skirts hang below the edge samples.
    pub(crate) skirt_depth: f32,
    /// Height of the walls' bottom edge.
    pub(crate) wall_base: f32,
}

/// A chunk's vertices after its grid samples: skirts below every edge with a neighbour
/// (every edge's vertices are kept, so the layout does not depend on the neighbours), then
/// walls on the terrain's border.
pub(crate) struct Tail {
    pub(crate) layout: TailLayout,
    pub(crate) positions: Vec<[f32; 3]>,
    pub(crate) normals: Vec<[f32; 3]>,
    pub(crate) uvs: Vec<[f32; 2]>,
}

impl Tail {
    /// The tail of chunk (cx, cz) whose grid vertices (chunk-local, row-major) are `grid_*`;
    /// `local_h` reads their heights.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build(
        field: &Heightfield,
        cx: u32,
        cz: u32,
        steps: &[u32],
        local_h: &impl Fn(u32, u32) -> f32,
        grid_positions: &[[f32; 3]],
        grid_normals: &[[f32; 3]],
        grid_uvs: &[[f32; 2]],
    ) -> Tail {
        let grid = field.grid();
        let range = grid.chunk_cells_range(cx, cz);
        let (w, d) = (range.width(), range.depth());
        let vw = w + 1;
        let [dx, dz] = grid.spacing();
        let vid = |lx: u32, lz: u32| lz * vw + lx;
        let n_grid = grid_positions.len() as u32;
        // Skirts: depth covers the worst crack between any two levels along any edge.
        let mut edge_error = 0.0f32;
        for &step in &steps[1..] {
            edge_error = edge_error.max(edge_level_error(local_h, w, d, step));
        }
        let skirt_depth = skirt_depth(edge_error, [dx, dz]);
        let edges: [Edge; 4] = [
            ((0..=w).map(|x| (x, 0)).collect(), [0.0, 0.0, -1.0]),
            ((0..=w).map(|x| (x, d)).collect(), [0.0, 0.0, 1.0]),
            ((0..=d).map(|z| (0, z)).collect(), [-1.0, 0.0, 0.0]),
            ((0..=d).map(|z| (w, z)).collect(), [1.0, 0.0, 0.0]),
        ];
        let mut positions = Vec::new();
        let mut normals = Vec::new();
        let mut uvs = Vec::new();
        let mut skirt_base = [0u32; 4];
        for (e, (samples, _)) in edges.iter().enumerate() {
            skirt_base[e] = n_grid + positions.len() as u32;
            for &(x, z) in samples {
                let i = vid(x, z) as usize;
                let mut p = grid_positions[i];
                p[1] -= skirt_depth;
                positions.push(p);
                normals.push(grid_normals[i]);
                uvs.push(grid_uvs[i]);
            }
        }
        // Edges on the terrain's border have no neighbour, so no crack to hide: no skirt there.
        let [ncx, ncz] = grid.chunks();
        let has_neighbour = [cz > 0, cz + 1 < ncz, cx > 0, cx + 1 < ncx];
        let wall_base = wall_base(field);
        let mut wall_base_index = [0u32; 4];
        for (e, (samples, outward)) in edges.iter().enumerate() {
            if has_neighbour[e] {
                continue;
            }
            wall_base_index[e] = n_grid + positions.len() as u32;
            for &(x, z) in samples {
                let i = vid(x, z) as usize;
                let top = grid_positions[i];
                positions.push(top);
                positions.push([top[0], wall_base, top[2]]);
                for _ in 0..2 {
                    normals.push(*outward);
                    uvs.push(grid_uvs[i]);
                }
            }
        }
        Tail {
            layout: TailLayout {
                edges,
                has_neighbour,
                skirt_base,
                wall_base_index,
                skirt_depth,
                wall_base,
            },
            positions,
            normals,
            uvs,
        }
    }
}
