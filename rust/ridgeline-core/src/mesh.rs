//! Chunk meshes with index-only LODs and skirts, and per-chunk collision data.
//!
//! Each chunk has one vertex buffer: its `(w+1) × (d+1)` full-detail samples (chunk-local
//! positions, smooth normals, terrain-local UVs `xz / size`), followed by skirt vertices that
//! hang below every edge sample. Level `k` of detail uses every `2^k`-th sample (the chunk's last
//! sample row/column is always kept, so partial chunks close). Its measured `error` is the
//! largest vertical distance between that level and full detail anywhere over the chunk.
//!
//! Triangles are wound clockwise seen from above, Godot's front-face convention. Hole cells have
//! no triangles at any level: a coarse cell that covers a hole falls back to the full-detail
//! triangles of its non-hole cells. Skirts face outwards and are deep enough to cover the crack
//! between any two levels of neighbouring chunks (twice the largest edge error, plus a margin);
//! edges on the terrain's outer border have no neighbour and get no skirt: they get a wall
//! instead, hanging to below the terrain's lowest point, so the terrain looks solid from outside.

mod chunk_vertices;
pub mod control_map;
pub mod layer_texels;
pub mod near_chunks;
pub mod patch;
pub mod texture_tiles;
pub mod vertex_update;

pub(crate) use chunk_vertices::skirt_depth;
pub use chunk_vertices::wall_base;
use chunk_vertices::{Tail, TailLayout, chunk_aabb, height_span, lod_steps, push_grid_row};

use crate::grid::{ChunkRange, Grid};
use crate::heightfield::Heightfield;
use rayon::prelude::*;

/// One level of detail: an index list into the chunk's vertex buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct LodLevel {
    /// Sample step of this level (1 = full detail).
    pub step: u32,
    /// Triangle list (clockwise from above), surface then skirt triangles.
    pub indices: Vec<u32>,
    /// Largest vertical deviation from full detail over the chunk, in world units.
    pub error: f32,
}

/// Render data of one chunk.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkMesh {
    /// Chunk coordinates.
    pub chunk: [u32; 2],
    /// The chunk's cells.
    pub range: ChunkRange,
    /// Terrain-local XZ of the chunk's first sample; positions are relative to it.
    pub origin: [f32; 2],
    /// Chunk-local vertex positions (grid samples first, then skirt vertices, then wall
    /// vertices — top and bottom pairs — on outer-border edges).
    pub positions: Vec<[f32; 3]>,
    /// Smooth vertex normals.
    pub normals: Vec<[f32; 3]>,
    /// Terrain-local XZ divided by the terrain size.
    pub uvs: Vec<[f32; 2]>,
    /// Levels of detail, finest first.
    pub lods: Vec<LodLevel>,
    /// How far skirts hang below the edge samples.
    pub skirt_depth: f32,
    /// Chunk-local bounding box (skirts included): min and max corners.
    pub aabb: [[f32; 3]; 2],
}

impl ChunkMesh {
    /// Number of grid (non-skirt) vertices.
    pub fn grid_vertex_count(&self) -> usize {
        (self.range.width() as usize + 1) * (self.range.depth() as usize + 1)
    }
}

/// Collision data of one chunk, in chunk-local coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum ChunkCollision {
    /// A square chunk without holes: a `samples × samples` height grid (row-major, Z outer) for a
    /// `HeightMapShape3D`, spaced like the terrain grid.
    HeightMap {
        /// Samples per side (chunk cells + 1).
        samples: u32,
        /// Heights, row-major with Z outer.
        heights: Vec<f32>,
    },
    /// Partial (non-square) chunks and chunks with holes: the full-detail triangles, three
    /// vertices each, identical to LOD 0 (no skirts).
    Triangles {
        /// Triangle vertices, clockwise from above.
        vertices: Vec<[f32; 3]>,
    },
}

/// Builds every chunk's mesh in parallel, row-major over chunks.
pub fn build_all(field: &Heightfield) -> Vec<ChunkMesh> {
    let [nx, nz] = field.grid().chunks();
    (0..nx * nz)
        .into_par_iter()
        .map(|i| build_chunk(field, i % nx, i / nx))
        .collect()
}

/// Maps `f` over `items` in parallel (order kept): lets callers outside the core (which do not
/// depend on rayon) rebuild several chunks at once.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(f).collect();
    }
    items.par_iter().map(f).collect()
}

/// Sample offsets `0, step, 2 step, …, n` (n always included).
fn level_samples(n: u32, step: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n).step_by(step as usize).collect();
    v.push(n);
    v
}

/// Builds the mesh of chunk (cx, cz).
pub fn build_chunk(field: &Heightfield, cx: u32, cz: u32) -> ChunkMesh {
    let grid = *field.grid();
    let range = grid.chunk_cells_range(cx, cz);
    let (w, d) = (range.width(), range.depth());
    let (vw, vd) = (w as usize + 1, d as usize + 1);
    let [sx, sz] = grid.size();
    let origin = grid.sample_position(range.x0 as usize, range.z0 as usize);
    let n_grid = vw * vd;
    let n_skirt = 2 * vw + 2 * vd;
    let mut positions = Vec::with_capacity(n_grid + n_skirt);
    let mut normals = Vec::with_capacity(n_grid + n_skirt);
    let mut uvs = Vec::with_capacity(n_grid + n_skirt);
    for lz in 0..vd {
        push_grid_row(field, &range, lz, &mut positions, &mut normals);
        let gz = range.z0 as usize + lz;
        for gx in range.x0 as usize..range.x0 as usize + vw {
            let [px, pz] = grid.sample_position(gx, gz);
            uvs.push([px / sx, pz / sz]);
        }
    }
    let [ymin, ymax] = height_span(field, &range);
    let local_h = |lx: u32, lz: u32| positions[lz as usize * vw + lx as usize][1];
    let is_hole = |lx: u32, lz: u32| {
        field
            .holes()
            .is_hole((range.x0 + lx) as usize, (range.z0 + lz) as usize)
    };
    let any_hole = field.holes().any_in(
        range.x0 as usize,
        range.z0 as usize,
        range.x1 as usize,
        range.z1 as usize,
    );

    // Surface levels.
    let steps = lod_steps(w, d);
    let vid = |lx: u32, lz: u32| lz * vw as u32 + lx;
    let mut lods: Vec<LodLevel> = steps
        .iter()
        .map(|&step| {
            let xs = level_samples(w, step);
            let zs = level_samples(d, step);
            let mut indices = Vec::with_capacity((xs.len() - 1) * (zs.len() - 1) * 6);
            let mut error = 0.0f32;
            for zi in 0..zs.len() - 1 {
                let (za, zb) = (zs[zi], zs[zi + 1]);
                for xi in 0..xs.len() - 1 {
                    let (xa, xb) = (xs[xi], xs[xi + 1]);
                    let covers_hole = any_hole && (za..zb).any(|z| (xa..xb).any(|x| is_hole(x, z)));
                    if step == 1 || covers_hole {
                        for z in za..zb {
                            for x in xa..xb {
                                if !(any_hole && is_hole(x, z)) {
                                    push_cell(
                                        &mut indices,
                                        vid(x, z),
                                        vid(x + 1, z),
                                        vid(x, z + 1),
                                        vid(x + 1, z + 1),
                                    );
                                }
                            }
                        }
                        continue;
                    }
                    push_cell(
                        &mut indices,
                        vid(xa, za),
                        vid(xb, za),
                        vid(xa, zb),
                        vid(xb, zb),
                    );
                    error = error.max(coarse_cell_error(field, &range, &local_h, xa, xb, za, zb));
                }
            }
            LodLevel {
                step,
                indices,
                error,
            }
        })
        .collect();

    let tail = Tail::build(field, cx, cz, &steps, &local_h, &positions, &normals, &uvs);
    positions.extend_from_slice(&tail.positions);
    normals.extend_from_slice(&tail.normals);
    uvs.extend_from_slice(&tail.uvs);
    let TailLayout {
        edges,
        has_neighbour,
        skirt_base,
        wall_base_index,
        skirt_depth,
        wall_base,
    } = tail.layout;
    // Edges on the terrain's border have no neighbour, so no crack to hide: no skirt there.
    for lod in &mut lods {
        for (e, (samples, outward)) in edges.iter().enumerate() {
            if !has_neighbour[e] {
                continue;
            }
            let n = samples.len() as u32 - 1;
            let picks = level_samples(n, lod.step);
            for pair in picks.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                // Skip segments bordering hole cells.
                let (xa, za) = samples[a as usize];
                let (xb, zb) = samples[b as usize];
                if any_hole && edge_segment_touches_hole(&is_hole, w, d, (xa, za), (xb, zb)) {
                    continue;
                }
                let (ta, tb) = (vid(xa, za), vid(xb, zb));
                let (sa, sb) = (skirt_base[e] + a, skirt_base[e] + b);
                push_facing(&mut lod.indices, &positions, [ta, tb, sa], *outward);
                push_facing(&mut lod.indices, &positions, [tb, sb, sa], *outward);
            }
        }
    }
    // Walls (vertices in the tail): edges on the terrain's outer border hang a curtain down to
    // below the lowest point of the terrain, so the terrain reads as a solid block from outside
    // and the skirts between chunks never show through its open sides. Walls follow each
    // level's edge exactly.
    for lod in &mut lods {
        for (e, (samples, outward)) in edges.iter().enumerate() {
            if has_neighbour[e] {
                continue;
            }
            let n = samples.len() as u32 - 1;
            for pair in level_samples(n, lod.step).windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let (xa, za) = samples[a as usize];
                let (xb, zb) = samples[b as usize];
                if any_hole && edge_segment_touches_hole(&is_hole, w, d, (xa, za), (xb, zb)) {
                    continue;
                }
                let base = wall_base_index[e];
                let (ta, ba) = (base + 2 * a, base + 2 * a + 1);
                let (tb, bb) = (base + 2 * b, base + 2 * b + 1);
                push_facing(&mut lod.indices, &positions, [ta, tb, ba], *outward);
                push_facing(&mut lod.indices, &positions, [tb, bb, ba], *outward);
            }
        }
    }
    let aabb = chunk_aabb(
        &grid,
        &range,
        [ymin, ymax],
        skirt_depth,
        &has_neighbour,
        wall_base,
    );
    ChunkMesh {
        chunk: [cx, cz],
        range,
        origin,
        positions,
        normals,
        uvs,
        lods,
        skirt_depth,
        aabb,
    }
}

/// Sample coordinates along one chunk edge, and the edge's outward direction.
pub(crate) type Edge = (Vec<(u32, u32)>, [f32; 3]);

#[inline]
pub(crate) fn push_cell(out: &mut Vec<u32>, i00: u32, i10: u32, i01: u32, i11: u32) {
    out.extend_from_slice(&[i00, i10, i01, i10, i11, i01]);
}

/// Pushes a triangle ordered so its front face (clockwise as seen by the viewer) faces
/// `outward`.
pub(crate) fn push_facing(out: &mut Vec<u32>, pos: &[[f32; 3]], tri: [u32; 3], outward: [f32; 3]) {
    let p = |i: u32| glam::Vec3::from(pos[i as usize]);
    let n = (p(tri[1]) - p(tri[0])).cross(p(tri[2]) - p(tri[0]));
    // Front faces are clockwise: their (b-a)×(c-a) points away from the viewer.
    if n.dot(glam::Vec3::from(outward)) < 0.0 {
        out.extend_from_slice(&tri);
    } else {
        out.extend_from_slice(&[tri[0], tri[2], tri[1]]);
    }
}

fn edge_segment_touches_hole(
    is_hole: &impl Fn(u32, u32) -> bool,
    w: u32,
    d: u32,
    a: (u32, u32),
    b: (u32, u32),
) -> bool {
    if a.1 == b.1 {
        // Along X at z = a.1: the cells just inside the chunk.
        let z = if a.1 == 0 { 0 } else { d - 1 };
        (a.0.min(b.0)..a.0.max(b.0)).any(|x| is_hole(x, z))
    } else {
        let x = if a.0 == 0 { 0 } else { w - 1 };
        (a.1.min(b.1)..a.1.max(b.1)).any(|z| is_hole(x, z))
    }
}

/// Height of the coarse cell `[xa,xb]×[za,zb]` at fractional local sample position (x, z), using
/// the grid's diagonal rule.
#[inline]
fn coarse_height(h: [f32; 4], u: f32, v: f32) -> f32 {
    if u + v <= 1.0 {
        first_half_height(h, u, v)
    } else {
        second_half_height(h, u, v)
    }
}

/// [`coarse_height`] on the cell's first triangle (u + v ≤ 1).
#[inline(always)]
pub(crate) fn first_half_height([h00, h10, h01, _]: [f32; 4], u: f32, v: f32) -> f32 {
    h00 + u * (h10 - h00) + v * (h01 - h00)
}

/// [`coarse_height`] on the cell's second triangle (u + v > 1).
#[inline(always)]
pub(crate) fn second_half_height([_, h10, h01, h11]: [f32; 4], u: f32, v: f32) -> f32 {
    h11 + (1.0 - u) * (h01 - h11) + (1.0 - v) * (h10 - h11)
}

/// Exact largest vertical deviation between a coarse cell and full detail beneath it.
///
/// For square coarse cells every coarse edge runs along full-detail edges (the coarse diagonal
/// is a chain of fine diagonals), so both surfaces are linear on every fine triangle and the
/// extremes sit at fine vertices. Non-square cells (only at a partial chunk's end) also check
/// where the coarse diagonal crosses fine edges.
#[allow(clippy::too_many_arguments)]
pub(crate) fn coarse_cell_error(
    field: &Heightfield,
    range: &ChunkRange,
    local_h: &impl Fn(u32, u32) -> f32,
    xa: u32,
    xb: u32,
    za: u32,
    zb: u32,
) -> f32 {
    let corners = [
        local_h(xa, za),
        local_h(xb, za),
        local_h(xa, zb),
        local_h(xb, zb),
    ];
    let (cw, cd) = ((xb - xa) as f32, (zb - za) as f32);
    // Reciprocals instead of a division per sample: exact for the power-of-two cells of every
    // whole chunk, within an ulp of the quotient for a partial chunk's end.
    let (inv_w, inv_d) = (1.0 / cw, 1.0 / cd);
    let mut err = 0.0f32;
    // `d > e` rather than `f32::max`: the same for the finite heights a field holds, and one
    // instruction on the loop's dependency chain instead of a NaN-aware sequence.
    let keep = |e: f32, d: f32| if d > e { d } else { e };
    let square = xb - xa == zb - za;
    for z in za..=zb {
        let v = (z - za) as f32 * inv_d;
        let mut row = 0.0f32;
        if square {
            // The diagonal u + v = 1 splits the row at a sample: the first triangle's samples,
            // then the second's (as `coarse_height` decides, without its branch).
            let split = xa + (zb - z);
            for x in xa..=split {
                let u = (x - xa) as f32 * inv_w;
                row = keep(
                    row,
                    (first_half_height(corners, u, v) - local_h(x, z)).abs(),
                );
            }
            for x in split + 1..=xb {
                let u = (x - xa) as f32 * inv_w;
                row = keep(
                    row,
                    (second_half_height(corners, u, v) - local_h(x, z)).abs(),
                );
            }
        } else {
            for x in xa..=xb {
                let u = (x - xa) as f32 * inv_w;
                row = keep(row, (coarse_height(corners, u, v) - local_h(x, z)).abs());
            }
        }
        err = keep(err, row);
    }
    if xb - xa != zb - za {
        // Points on the coarse diagonal u + v = 1 crossing fine lines x = i, z = j, x + z = k.
        let grid: &Grid = field.grid();
        let [dx, dz] = grid.spacing();
        let mut check = |u: f32| {
            let v = 1.0 - u;
            let (lx, lz) = (xa as f32 + u * cw, za as f32 + v * cd);
            let (wx, wz) = ((range.x0 as f32 + lx) * dx, (range.z0 as f32 + lz) * dz);
            if let Some(fine) = field.height_at(wx, wz) {
                err = err.max((coarse_height(corners, u, v) - fine).abs());
            }
        };
        for i in 0..=(xb - xa) {
            check(i as f32 / cw);
        }
        for j in 0..=(zb - za) {
            check(1.0 - j as f32 / cd);
        }
        // x + z = k  ⇔  xa + u cw + za + (1-u) cd = k
        if (cw - cd).abs() > 0.0 {
            let (k0, k1) = (xa + za, xb + zb);
            for k in k0..=k1 {
                let u = (k as f32 - xa as f32 - za as f32 - cd) / (cw - cd);
                if (0.0..=1.0).contains(&u) {
                    check(u);
                }
            }
        }
    }
    err
}

/// Largest deviation along the four chunk edges between level `step` and full detail.
pub(crate) fn edge_level_error(
    local_h: &impl Fn(u32, u32) -> f32,
    w: u32,
    d: u32,
    step: u32,
) -> f32 {
    let mut err = 0.0f32;
    let mut along = |n: u32, h: &dyn Fn(u32) -> f32| {
        let picks = level_samples(n, step);
        for pair in picks.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ha, hb) = (h(a), h(b));
            for i in a..=b {
                let t = (i - a) as f32 / (b - a) as f32;
                err = err.max((ha + t * (hb - ha) - h(i)).abs());
            }
        }
    };
    along(w, &|x| local_h(x, 0));
    along(w, &|x| local_h(x, d));
    along(d, &|z| local_h(0, z));
    along(d, &|z| local_h(w, z));
    err
}

impl ChunkMesh {
    /// Bytes this mesh holds on the heap (vertex data and every level's indices).
    pub fn heap_bytes(&self) -> usize {
        self.positions.len() * 12
            + self.normals.len() * 12
            + self.uvs.len() * 8
            + self.lods.iter().map(|l| l.indices.len() * 4).sum::<usize>()
    }
}

impl ChunkCollision {
    /// Bytes this collision data holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        match self {
            ChunkCollision::HeightMap { heights, .. } => heights.len() * 4,
            ChunkCollision::Triangles { vertices } => vertices.len() * 12,
        }
    }
}

/// Collision data of chunk (cx, cz).
pub fn chunk_collision(field: &Heightfield, cx: u32, cz: u32) -> ChunkCollision {
    let grid = *field.grid();
    let r = grid.chunk_cells_range(cx, cz);
    let (w, d) = (r.width() as usize, r.depth() as usize);
    let has_holes =
        field
            .holes()
            .any_in(r.x0 as usize, r.z0 as usize, r.x1 as usize, r.z1 as usize);
    if w == d && !has_holes {
        let mut heights = Vec::with_capacity((w + 1) * (d + 1));
        for z in 0..=d {
            let row = grid.index(r.x0 as usize, r.z0 as usize + z);
            heights.extend_from_slice(&field.heights()[row..=row + w]);
        }
        return ChunkCollision::HeightMap {
            samples: w as u32 + 1,
            heights,
        };
    }
    let [dx, dz] = grid.spacing();
    let p = |x: usize, z: usize| {
        [
            x as f32 * dx,
            field.sample(r.x0 as usize + x, r.z0 as usize + z),
            z as f32 * dz,
        ]
    };
    let mut vertices = Vec::with_capacity(w * d * 6);
    for z in 0..d {
        for x in 0..w {
            if has_holes && field.holes().is_hole(r.x0 as usize + x, r.z0 as usize + z) {
                continue;
            }
            vertices.extend_from_slice(&[p(x, z), p(x + 1, z), p(x, z + 1)]);
            vertices.extend_from_slice(&[p(x + 1, z), p(x + 1, z + 1), p(x, z + 1)]);
        }
    }
    ChunkCollision::Triangles { vertices }
}

#[cfg(test)]
mod tests;
