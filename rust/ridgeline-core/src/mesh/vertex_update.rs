//! Updating a chunk mesh's vertices in place after a height edit, in time proportional to the
//! changed rows rather than to the chunk.
//!
//! A height edit moves vertices but never changes a chunk's triangles: index lists depend only
//! on the chunk's shape and its hole cells (skirt and wall triangles face outward whatever the
//! heights, since skirts and walls always hang below their edge). So an edit of sample rows
//! `z0..z1` changes
//! - the grid vertices (positions and normals) of rows `z0-1 ..= z1` (normals are central
//!   differences, so they reach one sample past the edited heights),
//! - the tail: skirt vertices (their depth is measured along the chunk's edges) and wall
//!   vertices (their bottom follows the terrain's lowest point),
//! - the bounding box and every level's `error`.
//!
//! [`vertex_update`] computes the first three; [`ChunkMesh::apply_vertex_update`] writes them
//! into a mesh, which then equals [`super::build_chunk`] of the edited field in everything but
//! the level errors (measuring them visits every sample: refresh them with
//! [`super::build_chunk`] once the edits settle). UVs never change.

use super::ChunkMesh;
use super::chunk_vertices::{Tail, TailLayout, chunk_aabb, height_span, lod_steps, push_grid_row};
use crate::heightfield::Heightfield;

/// New vertex data of one chunk after a height edit (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkVertexUpdate {
    /// Chunk coordinates.
    pub chunk: [u32; 2],
    /// Index of the first vertex in `rows_positions` (a grid row's first vertex).
    pub rows_first: u32,
    /// Chunk-local positions of the changed grid rows (whole rows, row-major).
    pub rows_positions: Vec<[f32; 3]>,
    /// Their smooth normals.
    pub rows_normals: Vec<[f32; 3]>,
    /// Index of the first skirt vertex (the grid vertex count).
    pub tail_first: u32,
    /// Every skirt and wall vertex position, in buffer order.
    pub tail_positions: Vec<[f32; 3]>,
    /// Their normals.
    pub tail_normals: Vec<[f32; 3]>,
    /// How far skirts now hang below the edge samples.
    pub skirt_depth: f32,
    /// The new chunk-local bounding box.
    pub aabb: [[f32; 3]; 2],
}

impl ChunkVertexUpdate {
    /// Whether the update touches no grid row (only the tail and the bounding box).
    pub fn rows_empty(&self) -> bool {
        self.rows_positions.is_empty()
    }
}

/// The vertex update of chunk (cx, cz) after the heights of terrain sample rows `z0..z1`
/// changed (any rows; those outside the chunk are ignored, and an empty range updates only the
/// tail and bounding box — after an edit elsewhere moved the terrain's lowest point, which the
/// border walls follow).
pub fn vertex_update(
    field: &Heightfield,
    cx: u32,
    cz: u32,
    z0: usize,
    z1: usize,
) -> ChunkVertexUpdate {
    let grid = field.grid();
    let range = grid.chunk_cells_range(cx, cz);
    let (w, d) = (range.width(), range.depth());
    let vw = w as usize + 1;
    // Normals reach one row past the edited heights.
    let lo = z0.saturating_sub(1).max(range.z0 as usize);
    let hi = (z1 + 1).min(range.z1 as usize + 1);
    let (lo, hi) = if z0 < z1 && lo < hi { (lo, hi) } else { (0, 0) };
    let mut rows_positions = Vec::with_capacity((hi - lo) * vw);
    let mut rows_normals = Vec::with_capacity((hi - lo) * vw);
    for gz in lo..hi {
        push_grid_row(
            field,
            &range,
            gz - range.z0 as usize,
            &mut rows_positions,
            &mut rows_normals,
        );
    }
    let rows_first = if hi > lo {
        ((lo - range.z0 as usize) * vw) as u32
    } else {
        0
    };
    // The tail reads the edge samples only; build them from the field directly.
    let origin = grid.sample_position(range.x0 as usize, range.z0 as usize);
    let vd = d as usize + 1;
    let mut edge_positions = vec![[0.0f32; 3]; vw * vd];
    let mut edge_normals = vec![[0.0f32; 3]; vw * vd];
    let edge_uvs = vec![[0.0f32; 2]; vw * vd];
    let mut put = |lx: usize, lz: usize| {
        let (gx, gz) = (range.x0 as usize + lx, range.z0 as usize + lz);
        let [px, pz] = grid.sample_position(gx, gz);
        edge_positions[lz * vw + lx] = [px - origin[0], field.sample(gx, gz), pz - origin[1]];
        edge_normals[lz * vw + lx] = field.vertex_normal(gx, gz).to_array();
    };
    for lx in 0..vw {
        put(lx, 0);
        put(lx, vd - 1);
    }
    for lz in 0..vd {
        put(0, lz);
        put(vw - 1, lz);
    }
    let local_h = |lx: u32, lz: u32| {
        field.sample(
            range.x0 as usize + lx as usize,
            range.z0 as usize + lz as usize,
        )
    };
    let steps = lod_steps(w, d);
    let tail = Tail::build(
        field,
        cx,
        cz,
        &steps,
        &local_h,
        &edge_positions,
        &edge_normals,
        &edge_uvs,
    );
    let TailLayout {
        has_neighbour,
        skirt_depth,
        wall_base,
        ..
    } = tail.layout;
    let aabb = chunk_aabb(
        grid,
        &range,
        height_span(field, &range),
        skirt_depth,
        &has_neighbour,
        wall_base,
    );
    ChunkVertexUpdate {
        chunk: [cx, cz],
        rows_first,
        rows_positions,
        rows_normals,
        tail_first: (vw * vd) as u32,
        tail_positions: tail.positions,
        tail_normals: tail.normals,
        skirt_depth,
        aabb,
    }
}

impl ChunkMesh {
    /// Writes `u` (made for this chunk) into the mesh: vertex positions and normals, skirt
    /// depth and bounding box. Level errors stay as they were (see the module docs).
    pub fn apply_vertex_update(&mut self, u: &ChunkVertexUpdate) {
        let a = u.rows_first as usize;
        self.positions[a..a + u.rows_positions.len()].copy_from_slice(&u.rows_positions);
        self.normals[a..a + u.rows_normals.len()].copy_from_slice(&u.rows_normals);
        let t = u.tail_first as usize;
        self.positions[t..t + u.tail_positions.len()].copy_from_slice(&u.tail_positions);
        self.normals[t..t + u.tail_normals.len()].copy_from_slice(&u.tail_normals);
        self.skirt_depth = u.skirt_depth;
        self.aabb = u.aabb;
    }
}

/// Chunks with an edge on the terrain's border: their walls hang to below the terrain's lowest
/// point, so they need [`vertex_update`] (with an empty row range) when an edit moved it.
pub fn wall_chunks(grid: &crate::grid::Grid) -> Vec<[u32; 2]> {
    let [nx, nz] = grid.chunks();
    (0..nz)
        .flat_map(|cz| (0..nx).map(move |cx| [cx, cz]))
        .filter(|&[cx, cz]| cx == 0 || cz == 0 || cx + 1 == nx || cz + 1 == nz)
        .collect()
}

#[cfg(test)]
mod tests;
