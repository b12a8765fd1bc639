use super::*;
use crate::testutil::{holey_field, rough_field};
use glam::Vec3;

/// Surface triangles of a level (skirt triangles excluded) in terrain-local coordinates.
fn surface_triangles(m: &ChunkMesh, lod: &LodLevel) -> Vec<[Vec3; 3]> {
    let n = m.grid_vertex_count() as u32;
    let o = Vec3::new(m.origin[0], 0.0, m.origin[1]);
    lod.indices
        .chunks(3)
        .filter(|t| t.iter().all(|&i| i < n))
        .map(|t| [0, 1, 2].map(|k| Vec3::from(m.positions[t[k] as usize]) + o))
        .collect()
}

/// Height of a triangle list at (x, z), if a triangle covers it.
fn surface_height(tris: &[[Vec3; 3]], x: f32, z: f32) -> Option<f32> {
    for [a, b, c] in tris {
        let det = (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
        let l1 = ((x - a.x) * (c.z - a.z) - (c.x - a.x) * (z - a.z)) / det;
        let l2 = ((b.x - a.x) * (z - a.z) - (x - a.x) * (b.z - a.z)) / det;
        let e = 1e-4;
        if l1 >= -e && l2 >= -e && l1 + l2 <= 1.0 + e {
            return Some(a.y + l1 * (b.y - a.y) + l2 * (c.y - a.y));
        }
    }
    None
}

#[test]
fn lod_errors_equal_the_real_deviation() {
    // 50 × 37 cells with 16-cell chunks: partial chunks with non-square coarse cells too.
    let f = rough_field([75.0, 37.0], [50, 37], 16, 31, 20.0);
    let mut rng = fastrand::Rng::with_seed(32);
    for m in build_all(&f) {
        assert_eq!(m.lods[0].error, 0.0);
        for lod in &m.lods[1..] {
            let tris = surface_triangles(&m, lod);
            let mut measured = 0.0f32;
            for [a, b, c] in &tris {
                // Fine vertices inside or on the triangle, plus random interior points.
                for _ in 0..60 {
                    let (mut s, mut t) = (rng.f32(), rng.f32());
                    if s + t > 1.0 {
                        (s, t) = (1.0 - s, 1.0 - t);
                    }
                    let p = *a + (*b - *a) * s + (*c - *a) * t;
                    let fine = f.height_at(p.x, p.z).unwrap();
                    measured = measured.max((p.y - fine).abs());
                }
            }
            let [dx, dz] = f.grid().spacing();
            // Where coarse triangle edges cross fine grid lines (x = i, z = j, x + z = k in
            // sample units) the difference of the two piecewise-linear surfaces may peak.
            for [a, b, c] in &tris {
                for (p, q) in [(a, b), (b, c), (c, a)] {
                    let (pu, pv) = (p.x / dx, p.z / dz);
                    let (qu, qv) = (q.x / dx, q.z / dz);
                    let mut ts = vec![0.0f32, 1.0];
                    for (s0, s1) in [(pu, qu), (pv, qv), (pu + pv, qu + qv)] {
                        if (s1 - s0).abs() > 1e-6 {
                            let (lo, hi) = (s0.min(s1).ceil() as i64, s0.max(s1).floor() as i64);
                            for k in lo..=hi {
                                ts.push((k as f32 - s0) / (s1 - s0));
                            }
                        }
                    }
                    for t in ts {
                        let pt = *p + (*q - *p) * t.clamp(0.0, 1.0);
                        if let Some(fine) = f.height_at(pt.x, pt.z) {
                            measured = measured.max((pt.y - fine).abs());
                        }
                    }
                }
            }
            let r = m.range;
            for z in r.z0..=r.z1 {
                for x in r.x0..=r.x1 {
                    let (px, pz) = (x as f32 * dx, z as f32 * dz);
                    if let Some(coarse) = surface_height(&tris, px, pz) {
                        measured = measured.max((coarse - f.sample(x as usize, z as usize)).abs());
                    }
                }
            }
            assert!(
                measured <= lod.error + 1e-3,
                "chunk {:?} step {}: measured {measured} > reported {}",
                m.chunk,
                lod.step,
                lod.error
            );
            assert!(
                measured >= lod.error - 1e-3,
                "chunk {:?} step {}: reported {} but the real deviation is {measured}",
                m.chunk,
                lod.step,
                lod.error
            );
        }
    }
}

#[test]
fn every_level_covers_the_chunk_and_winds_clockwise_from_above() {
    let f = rough_field([40.0, 30.0], [40, 30], 16, 33, 10.0);
    for m in build_all(&f) {
        let area_expected = m.range.width() as f32 * m.range.depth() as f32;
        for lod in &m.lods {
            let mut area = 0.0;
            for [a, b, c] in surface_triangles(&m, lod) {
                let n = (b - a).cross(c - a);
                assert!(n.y < 0.0, "surface triangle not clockwise from above");
                area += n.y.abs() / 2.0;
            }
            assert!(
                (area - area_expected).abs() < 1e-2,
                "level {} covers {area} of {area_expected}",
                lod.step
            );
        }
        assert!(m.lods.last().unwrap().indices.len() < m.lods[0].indices.len());
    }
}

#[test]
fn shared_edges_are_bit_identical() {
    let f = rough_field([64.0, 64.0], [64, 64], 16, 34, 25.0);
    let meshes = build_all(&f);
    let at = |cx: u32, cz: u32| &meshes[(cz * 4 + cx) as usize];
    for cz in 0..4 {
        for cx in 0..3 {
            let (a, b) = (at(cx, cz), at(cx + 1, cz));
            for z in 0..=16usize {
                let ia = z * 17 + 16;
                let ib = z * 17;
                let pa = [
                    a.positions[ia][0] + a.origin[0],
                    a.positions[ia][1],
                    a.positions[ia][2] + a.origin[1],
                ];
                let pb = [
                    b.positions[ib][0] + b.origin[0],
                    b.positions[ib][1],
                    b.positions[ib][2] + b.origin[1],
                ];
                assert_eq!(pa.map(f32::to_bits), pb.map(f32::to_bits));
                assert_eq!(
                    a.normals[ia].map(f32::to_bits),
                    b.normals[ib].map(f32::to_bits)
                );
                assert_eq!(a.uvs[ia].map(f32::to_bits), b.uvs[ib].map(f32::to_bits));
            }
        }
    }
}

/// Surface height along a chunk edge at level `lod` (linear between the level's edge samples).
fn edge_height(m: &ChunkMesh, lod: &LodLevel, x: f32, z: f32) -> f32 {
    surface_height(&surface_triangles(m, lod), x, z).expect("edge point covered")
}

#[test]
fn skirts_cover_cracks_between_any_two_levels() {
    let f = rough_field([48.0, 40.0], [48, 40], 16, 35, 30.0);
    let meshes = build_all(&f);
    let [nx, nz] = f.grid().chunks();
    let at = |cx: u32, cz: u32| &meshes[(cz * nx + cx) as usize];
    let mut checked = 0;
    for cz in 0..nz {
        for cx in 0..nx {
            let a = at(cx, cz);
            let mut neighbours = Vec::new();
            if cx + 1 < nx {
                neighbours.push((at(cx + 1, cz), true));
            }
            if cz + 1 < nz {
                neighbours.push((at(cx, cz + 1), false));
            }
            for (b, along_z) in neighbours {
                for la in &a.lods {
                    for lb in &b.lods {
                        let n = if along_z {
                            a.range.depth()
                        } else {
                            a.range.width()
                        };
                        for i in 0..=n * 4 {
                            let t = i as f32 / 4.0;
                            let (x, z) = if along_z {
                                (a.range.x1 as f32, a.range.z0 as f32 + t)
                            } else {
                                (a.range.x0 as f32 + t, a.range.z1 as f32)
                            };
                            let gap = (edge_height(a, la, x, z) - edge_height(b, lb, x, z)).abs();
                            assert!(
                                gap <= a.skirt_depth && gap <= b.skirt_depth,
                                "gap {gap} vs skirts {} {}",
                                a.skirt_depth,
                                b.skirt_depth
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000);
    // Skirt triangles exist on all four edges and face outwards.
    let m = at(1, 1);
    let n = m.grid_vertex_count() as u32;
    let centre = Vec3::new(m.aabb[1][0] / 2.0, 0.0, m.aabb[1][2] / 2.0);
    for lod in &m.lods {
        let skirts: Vec<_> = lod
            .indices
            .chunks(3)
            .filter(|t| t.iter().any(|&i| i >= n))
            .collect();
        let per_edge_min = 4 * 2;
        assert!(skirts.len() >= per_edge_min);
        for t in skirts {
            let p = t
                .iter()
                .map(|&i| Vec3::from(m.positions[i as usize]))
                .collect::<Vec<_>>();
            let front = -(p[1] - p[0]).cross(p[2] - p[0]);
            let mid = (p[0] + p[1] + p[2]) / 3.0;
            let outward = Vec3::new(mid.x - centre.x, 0.0, mid.z - centre.z);
            assert!(front.dot(outward) > 0.0, "skirt triangle faces inwards");
        }
    }
}

#[test]
fn holes_have_no_triangles_at_any_level() {
    let f = holey_field([40, 40], 16, 36, 0.05);
    let [dx, dz] = f.grid().spacing();
    for m in build_all(&f) {
        for lod in &m.lods {
            let tris = surface_triangles(&m, lod);
            for z in m.range.z0..m.range.z1 {
                for x in m.range.x0..m.range.x1 {
                    let (px, pz) = ((x as f32 + 0.3) * dx, (z as f32 + 0.3) * dz);
                    let covered = surface_height(&tris, px, pz).is_some();
                    assert_eq!(
                        covered,
                        !f.holes().is_hole(x as usize, z as usize),
                        "cell ({x},{z}) step {}",
                        lod.step
                    );
                }
            }
        }
    }
}

#[test]
fn collision_data_matches_lod0() {
    let f = holey_field([40, 32], 16, 37, 0.02);
    let [nx, nz] = f.grid().chunks();
    let mut kinds = (0, 0);
    for cz in 0..nz {
        for cx in 0..nx {
            let m = build_chunk(&f, cx, cz);
            match chunk_collision(&f, cx, cz) {
                ChunkCollision::HeightMap { samples, heights } => {
                    kinds.0 += 1;
                    assert_eq!(samples, m.range.width() + 1);
                    let grid_y: Vec<f32> = m.positions[..m.grid_vertex_count()]
                        .iter()
                        .map(|p| p[1])
                        .collect();
                    assert_eq!(heights, grid_y);
                }
                ChunkCollision::Triangles { vertices } => {
                    kinds.1 += 1;
                    let lod0: Vec<[f32; 3]> = m.lods[0]
                        .indices
                        .chunks(3)
                        .filter(|t| t.iter().all(|&i| (i as usize) < m.grid_vertex_count()))
                        .flatten()
                        .map(|&i| m.positions[i as usize])
                        .collect();
                    assert_eq!(vertices.len(), lod0.len());
                    for (a, b) in vertices.iter().zip(&lod0) {
                        for k in 0..3 {
                            assert!((a[k] - b[k]).abs() < 1e-4);
                        }
                    }
                }
            }
        }
    }
    assert!(kinds.1 > 0, "partial or holey chunks use triangles");
}

#[test]
fn rapier_ball_rests_on_the_collision_data() {
    use rapier3d::prelude::*;
    // Gentle relief so a small ball touches the triangle right under its centre.
    let f = rough_field([64.0, 64.0], [64, 64], 16, 38, 3.0);
    let mut colliders = ColliderSet::new();
    let mut bodies = RigidBodySet::new();
    let [nx, nz] = f.grid().chunks();
    let [dx, dz] = f.grid().spacing();
    for cz in 0..nz {
        for cx in 0..nx {
            let r = f.grid().chunk_cells_range(cx, cz);
            let (ox, oz) = (r.x0 as f32 * dx, r.z0 as f32 * dz);
            let verts: Vec<[f32; 3]> = match chunk_collision(&f, cx, cz) {
                ChunkCollision::Triangles { vertices } => vertices,
                ChunkCollision::HeightMap { samples, heights } => {
                    let s = samples as usize;
                    let p = |x: usize, z: usize| [x as f32 * dx, heights[z * s + x], z as f32 * dz];
                    let mut v = Vec::new();
                    for z in 0..s - 1 {
                        for x in 0..s - 1 {
                            v.extend_from_slice(&[
                                p(x, z),
                                p(x + 1, z),
                                p(x, z + 1),
                                p(x + 1, z),
                                p(x + 1, z + 1),
                                p(x, z + 1),
                            ]);
                        }
                    }
                    v
                }
            };
            let points: Vec<Vector> = verts
                .iter()
                .map(|v| Vector::new(v[0] + ox, v[1], v[2] + oz))
                .collect();
            let indices: Vec<[u32; 3]> = (0..points.len() as u32 / 3)
                .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
                .collect();
            colliders.insert(
                ColliderBuilder::trimesh(points, indices)
                    .expect("valid trimesh")
                    .build(),
            );
        }
    }
    let radius = 0.1;
    let mut rng = fastrand::Rng::with_seed(39);
    let mut balls = Vec::new();
    for _ in 0..40 {
        let (x, z) = (2.0 + rng.f32() * 60.0, 2.0 + rng.f32() * 60.0);
        let h = f.height_at(x, z).unwrap();
        let body = RigidBodyBuilder::dynamic()
            .translation(Vector::new(x, h + 0.5, z))
            .locked_axes(
                LockedAxes::TRANSLATION_LOCKED_X
                    | LockedAxes::TRANSLATION_LOCKED_Z
                    | LockedAxes::ROTATION_LOCKED,
            )
            .ccd_enabled(true)
            .build();
        let handle = bodies.insert(body);
        colliders.insert_with_parent(ColliderBuilder::ball(radius).build(), handle, &mut bodies);
        balls.push((handle, x, z));
    }
    let mut pipeline = PhysicsPipeline::new();
    let (mut islands, mut broad, mut narrow) = (
        IslandManager::new(),
        BroadPhaseBvh::new(),
        NarrowPhase::new(),
    );
    let (mut impulses, mut multibody, mut ccd) = (
        ImpulseJointSet::new(),
        MultibodyJointSet::new(),
        CCDSolver::new(),
    );
    let mut soft = SoftBodySet::new();
    let params = IntegrationParameters::default();
    for _ in 0..240 {
        pipeline.step(
            Vector::new(0.0, -9.81, 0.0),
            &params,
            &mut islands,
            &mut broad,
            &mut narrow,
            &mut bodies,
            &mut colliders,
            &mut impulses,
            &mut multibody,
            &mut soft,
            &mut ccd,
            &(),
            &(),
        );
    }
    for (handle, x, z) in balls {
        let y = bodies[handle].translation().y;
        let n = f.normal_at(x, z).unwrap();
        // A sphere resting on a plane sits radius / n.y above the plane under its centre.
        let expected = f.height_at(x, z).unwrap() + radius / n.y;
        assert!(
            (y - expected).abs() < 0.01,
            "ball at ({x},{z}) rests at {y}, expected {expected}"
        );
    }
}

#[test]
fn every_triangle_of_every_level_stays_within_one_coarse_step() {
    // A round hole in one chunk of 64-cell chunks (the demo's layout), and scattered holes.
    let base = rough_field([192.0, 192.0], [192, 192], 64, 41, 12.0);
    let mut holes = crate::grid::HoleMask::new(192, 192);
    for z in 0..192usize {
        for x in 0..192usize {
            let (dx, dz) = (x as f32 + 0.5 - 90.3, z as f32 + 0.5 - 101.7);
            if dx * dx + dz * dz < 25.0 {
                holes.set(x, z, true);
            }
        }
    }
    let round = Heightfield::new(*base.grid(), base.heights().to_vec(), Some(holes)).unwrap();
    for f in [round, holey_field([40, 40], 16, 36, 0.05)] {
        let [dx, dz] = f.grid().spacing();
        let [nx, nz] = f.grid().chunks();
        for cz in 0..nz {
            for cx in 0..nx {
                let m = build_chunk(&f, cx, cz);
                for lod in &m.lods {
                    for t in lod.indices.chunks(3) {
                        let p: Vec<Vec3> = t
                            .iter()
                            .map(|&i| Vec3::from(m.positions[i as usize]))
                            .collect();
                        let ext_x = p.iter().map(|v| v.x).fold(f32::MIN, f32::max)
                            - p.iter().map(|v| v.x).fold(f32::MAX, f32::min);
                        let ext_z = p.iter().map(|v| v.z).fold(f32::MIN, f32::max)
                            - p.iter().map(|v| v.z).fold(f32::MAX, f32::min);
                        let step = lod.step as f32;
                        assert!(
                            ext_x <= step * dx + 1e-3 && ext_z <= step * dz + 1e-3,
                            "chunk ({cx}, {cz}) step {}: triangle {t:?} spans {ext_x} × {ext_z}: {p:?}",
                            lod.step
                        );
                    }
                    // Every level covers the chunk's solid cells, clockwise from above.
                    let r = m.range;
                    let solid = (r.z0..r.z1)
                        .flat_map(|z| (r.x0..r.x1).map(move |x| (x, z)))
                        .filter(|&(x, z)| !f.holes().is_hole(x as usize, z as usize))
                        .count() as f32
                        * dx
                        * dz;
                    let mut area = 0.0;
                    for [a, b, c] in surface_triangles(&m, lod) {
                        let n = (b - a).cross(c - a);
                        assert!(
                            n.y < 0.0,
                            "chunk ({cx}, {cz}) step {}: not clockwise",
                            lod.step
                        );
                        area += n.y.abs() / 2.0;
                    }
                    assert!(
                        (area - solid).abs() < 1e-2,
                        "chunk ({cx}, {cz}) step {} covers {area} of {solid}",
                        lod.step
                    );
                }
            }
        }
    }
}
