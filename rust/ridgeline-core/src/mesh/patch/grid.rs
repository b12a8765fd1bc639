//! The shared grid patch of one level: `n × n` quads covering a chunk, whose vertices carry
//! sample offsets instead of positions. A vertex `(i, y, j)` stands for the chunk's sample
//! `(i · step, j · step)` (clamped to the terrain's last sample by the shader, which closes
//! partial chunks); `y` is 0 on the surface, and each edge's skirt has its own two rows:
//! [`SKIRT_TOP`] at the edge sample's height and -1 hanging below it (the shader drops it by the
//! chunk's skirt depth, or to the wall bottom on the terrain's outer border, as the mesh path's
//! skirts and walls). Own top vertices let a wall keep its outward normal up to the surface
//! instead of blending into the surface normal (tall walls would show lit streaks).
//!
//! Triangles split every quad along its (i+1, j)–(i, j+1) diagonal, the drawn surface the
//! queries interpolate (docs/grid.md); clockwise from above.

use crate::mesh::{push_cell, push_facing};

/// `y` of a skirt's top vertices (at the edge sample's height; the bottom row is -1).
pub const SKIRT_TOP: f32 = -0.5;

/// One level's shared patch.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchGrid {
    /// Quads per side.
    pub quads: u32,
    /// Vertex sample offsets and skirt flag: `(i, 0 | SKIRT_TOP | -1, j)`; surface vertices
    /// first, row-major with `j` outer, then each edge's skirt vertices (top row, bottom row).
    pub vertices: Vec<[f32; 3]>,
    /// Per vertex: up on the surface (the shader derives the real normal), the edge's outward
    /// direction on its skirt (what a skirt on the terrain's border — a wall — keeps, as the
    /// mesh path's walls do).
    pub normals: Vec<[f32; 3]>,
    /// Triangle list: surface then skirt triangles.
    pub indices: Vec<u32>,
}

/// The patch of `quads × quads` quads with skirts on all four edges.
pub fn patch_grid(quads: u32) -> PatchGrid {
    let n = quads.max(1);
    let row = n + 1;
    let mut vertices = Vec::with_capacity((row * row + 8 * row) as usize);
    for j in 0..=n {
        for i in 0..=n {
            vertices.push([i as f32, 0.0, j as f32]);
        }
    }
    let mut normals = vec![[0.0, 1.0, 0.0]; vertices.len()];
    let vid = |i: u32, j: u32| j * row + i;
    let mut indices = Vec::with_capacity((n * n * 6 + 4 * n * 6) as usize);
    for j in 0..n {
        for i in 0..n {
            push_cell(
                &mut indices,
                vid(i, j),
                vid(i + 1, j),
                vid(i, j + 1),
                vid(i + 1, j + 1),
            );
        }
    }
    // Skirts: the edge samples twice more (top and bottom rows), two triangles per segment
    // facing out.
    let edges: [crate::mesh::Edge; 4] = [
        ((0..=n).map(|i| (i, 0)).collect(), [0.0, 0.0, -1.0]),
        ((0..=n).map(|i| (i, n)).collect(), [0.0, 0.0, 1.0]),
        ((0..=n).map(|j| (0, j)).collect(), [-1.0, 0.0, 0.0]),
        ((0..=n).map(|j| (n, j)).collect(), [1.0, 0.0, 0.0]),
    ];
    for (samples, outward) in &edges {
        let top = vertices.len() as u32;
        for y in [SKIRT_TOP, -1.0] {
            for &(i, j) in samples {
                vertices.push([i as f32, y, j as f32]);
                normals.push(*outward);
            }
        }
        let base = top + row;
        for k in 0..n {
            let (ta, tb) = (top + k, top + k + 1);
            let (sa, sb) = (base + k, base + k + 1);
            push_facing(&mut indices, &vertices, [ta, tb, sa], *outward);
            push_facing(&mut indices, &vertices, [tb, sb, sa], *outward);
        }
    }
    PatchGrid {
        quads: n,
        vertices,
        normals,
        indices,
    }
}

/// The sample steps a chunk of `chunk_cells` cells gets levels for: 1, 2, 4, … while the step
/// divides `chunk_cells` (every level's patch then ends exactly on the chunk's edge).
pub fn patch_steps(chunk_cells: u32) -> Vec<u32> {
    let mut steps = vec![1u32];
    let mut s = 2u32;
    while s <= chunk_cells && chunk_cells.is_multiple_of(s) {
        steps.push(s);
        s *= 2;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_has_its_quads_and_a_skirt_on_every_edge() {
        let p = patch_grid(4);
        assert_eq!(p.vertices.len(), 25 + 4 * 2 * 5);
        assert_eq!(p.normals.len(), p.vertices.len());
        // Surface vertices point up; skirt vertices outwards, away from the patch's centre.
        for (v, n) in p.vertices.iter().zip(&p.normals) {
            if v[1] == 0.0 {
                assert_eq!(*n, [0.0, 1.0, 0.0]);
            } else {
                assert_eq!(n[1], 0.0);
                assert!(
                    n[0] * (v[0] - 2.0) + n[2] * (v[2] - 2.0) > 0.0,
                    "{v:?} {n:?}"
                );
            }
        }
        // 16 quads × 2 triangles, 4 edges × 4 segments × 2 triangles.
        assert_eq!(p.indices.len(), (32 + 32) * 3);
        assert!(p.indices.iter().all(|&i| (i as usize) < p.vertices.len()));
        // Surface triangles are clockwise from above: (b-a)×(c-a) points down.
        for t in p.indices[..96].chunks(3) {
            let v = |k: usize| glam::Vec3::from(p.vertices[t[k] as usize]);
            let n = (v(1) - v(0)).cross(v(2) - v(0));
            assert!(n.y < 0.0, "triangle {t:?} is not clockwise from above");
        }
        // The first quad uses the (1, 0)–(0, 1) diagonal.
        assert_eq!(&p.indices[..6], &[0, 1, 5, 1, 6, 5]);
        // Skirt triangles use only skirt vertices, each top one at an edge sample's offset.
        for &i in &p.indices[96..] {
            let v = p.vertices[i as usize];
            assert!(v[1] == SKIRT_TOP || v[1] == -1.0, "{v:?}");
            assert!(
                v[0] == 0.0 || v[0] == 4.0 || v[2] == 0.0 || v[2] == 4.0,
                "{v:?}"
            );
        }
    }

    #[test]
    fn skirt_triangles_face_outwards() {
        let p = patch_grid(2);
        let outward = [
            [0.0, 0.0, -1.0],
            [0.0, 0.0, 1.0],
            [-1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
        ];
        for (e, tris) in p.indices[24..].chunks(12).enumerate() {
            for t in tris.chunks(3) {
                let v = |k: usize| glam::Vec3::from(p.vertices[t[k] as usize]);
                let n = (v(1) - v(0)).cross(v(2) - v(0));
                // Clockwise as seen from outside: the normal points away from the viewer.
                assert!(n.dot(glam::Vec3::from(outward[e])) < 0.0, "edge {e}: {t:?}");
            }
        }
    }

    #[test]
    fn steps_divide_the_chunk() {
        assert_eq!(patch_steps(64), vec![1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(patch_steps(48), vec![1, 2, 4, 8, 16]);
        assert_eq!(patch_steps(5), vec![1]);
    }
}
