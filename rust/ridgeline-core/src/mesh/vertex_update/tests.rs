use super::*;
use crate::mesh::{ChunkMesh, build_all, build_chunk};
use crate::testutil::{holey_field, rough_field};

/// Everything but the level errors (which [`vertex_update`] leaves to a later rebuild).
fn assert_same_but_errors(a: &ChunkMesh, b: &ChunkMesh, what: &str) {
    let bits3 = |v: &[[f32; 3]]| {
        v.iter()
            .flat_map(|p| p.map(f32::to_bits))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        bits3(&a.positions),
        bits3(&b.positions),
        "{what}: positions"
    );
    assert_eq!(bits3(&a.normals), bits3(&b.normals), "{what}: normals");
    assert_eq!(a.uvs, b.uvs, "{what}: uvs");
    assert_eq!(
        a.skirt_depth.to_bits(),
        b.skirt_depth.to_bits(),
        "{what}: skirt depth"
    );
    assert_eq!(a.aabb, b.aabb, "{what}: aabb");
    assert_eq!(a.lods.len(), b.lods.len(), "{what}: levels");
    for (la, lb) in a.lods.iter().zip(&b.lods) {
        assert_eq!(la.step, lb.step, "{what}: step");
        assert_eq!(
            la.indices, lb.indices,
            "{what}: indices of step {}",
            la.step
        );
    }
}

/// Random rectangle writes (some raising, some digging below the terrain's lowest point), each
/// followed by vertex updates of the chunks it touches (and of the wall chunks when the height
/// range moved): every chunk always equals a full rebuild but for its level errors.
fn check_random_edits(mut f: Heightfield, seed: u64, edits: usize) {
    let grid = *f.grid();
    let [nx, _] = grid.chunks();
    let [w, h] = grid.samples();
    let cc = grid.chunk_cells() as usize;
    let mut meshes = build_all(&f);
    let mut rng = fastrand::Rng::with_seed(seed);
    for e in 0..edits {
        let (x0, z0) = (rng.usize(0..w), rng.usize(0..h));
        let (x1, z1) = (
            (x0 + rng.usize(1..20)).min(w),
            (z0 + rng.usize(1..20)).min(h),
        );
        let dig = rng.f32() < 0.3;
        let values: Vec<f32> = (z0..z1)
            .flat_map(|z| (x0..x1).map(move |x| (x, z)))
            .map(|(x, z)| {
                let y = f.sample(x, z);
                if dig {
                    y - 30.0 * rng.f32()
                } else {
                    y + 5.0 * rng.f32() - 1.0
                }
            })
            .collect();
        let range_before = f.height_range();
        f.write_region(x0, z0, x1, z1, &values).unwrap();
        // Chunks whose samples (or the samples' normals) changed: rows and columns ± 1.
        let (ax, az) = (x0.saturating_sub(1), z0.saturating_sub(1));
        let (bx, bz) = ((x1 + 1).min(w), (z1 + 1).min(h));
        let mut touched = Vec::new();
        for cz in az.saturating_sub(1) / cc..=(bz - 1) / cc {
            for cx in ax.saturating_sub(1) / cc..=(bx - 1) / cc {
                let [ncx, ncz] = grid.chunks();
                if (cx as u32) < ncx && (cz as u32) < ncz {
                    touched.push([cx as u32, cz as u32]);
                }
            }
        }
        for &[cx, cz] in &touched {
            let u = vertex_update(&f, cx, cz, z0, z1);
            meshes[(cz * nx + cx) as usize].apply_vertex_update(&u);
        }
        if f.height_range() != range_before {
            for [cx, cz] in wall_chunks(&grid) {
                if !touched.contains(&[cx, cz]) {
                    let u = vertex_update(&f, cx, cz, 0, 0);
                    assert!(u.rows_empty());
                    meshes[(cz * nx + cx) as usize].apply_vertex_update(&u);
                }
            }
        }
        for (i, m) in meshes.iter().enumerate() {
            let [cx, cz] = [i as u32 % nx, i as u32 / nx];
            assert_same_but_errors(
                m,
                &build_chunk(&f, cx, cz),
                &format!("edit {e}, chunk ({cx}, {cz})"),
            );
        }
    }
    // Refreshing the level errors is a rebuild: then everything is equal.
    for (i, m) in meshes.iter_mut().enumerate() {
        *m = build_chunk(&f, i as u32 % nx, i as u32 / nx);
    }
    assert_eq!(meshes, build_all(&f));
}

#[test]
fn incremental_vertices_equal_a_full_rebuild() {
    // 50 × 37 cells with 16-cell chunks: partial chunks on two sides.
    check_random_edits(rough_field([75.0, 37.0], [50, 37], 16, 7, 20.0), 11, 40);
}

#[test]
fn incremental_vertices_equal_a_full_rebuild_with_holes() {
    check_random_edits(holey_field([40, 40], 8, 5, 0.1), 12, 40);
}

#[test]
fn rows_cover_the_normal_border_and_stay_in_the_chunk() {
    let f = rough_field([32.0, 32.0], [32, 32], 8, 3, 5.0);
    // Rows 8..10 of chunk (0, 1) (sample rows 8..=16): rows 7..=10 clipped to 8..=10.
    let u = vertex_update(&f, 0, 1, 8, 10);
    assert_eq!(u.rows_first, 0);
    assert_eq!(u.rows_positions.len(), 3 * 9);
    // Rows 3..5 of chunk (0, 0): 2..=5.
    let u = vertex_update(&f, 0, 0, 3, 5);
    assert_eq!(u.rows_first, 2 * 9);
    assert_eq!(u.rows_positions.len(), 4 * 9);
    // Row 17 is past chunk (0, 1)'s last row 16 but its normal border reaches row 16.
    let u = vertex_update(&f, 0, 1, 17, 18);
    assert_eq!(u.rows_first, 8 * 9);
    assert_eq!(u.rows_positions.len(), 9);
    assert!(vertex_update(&f, 0, 1, 30, 31).rows_empty());
    assert!(vertex_update(&f, 0, 1, 5, 5).rows_empty());
    assert_eq!(wall_chunks(f.grid()).len(), 12);
}
