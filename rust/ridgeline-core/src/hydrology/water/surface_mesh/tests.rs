use super::*;
use crate::grid::Field;
use crate::hydrology::water::{Appearance, Footprint, WaterBody, WaterKind};

const N: usize = 33;

fn grid() -> Grid {
    Grid::new([64.0, 64.0], [(N - 1) as u32, (N - 1) as u32], 8).unwrap()
}

/// A rough bowl: lowest at the centre, with ripples so the shoreline crosses cells obliquely.
fn bowl() -> Vec<f32> {
    (0..N * N)
        .map(|i| {
            let (x, z) = ((i % N) as f32 * 2.0, (i / N) as f32 * 2.0);
            let r = ((x - 30.0).powi(2) + (z - 34.0).powi(2)).sqrt();
            r * 0.35 + (x * 0.7).sin() * 0.8 + (z * 0.45).cos() * 0.6
        })
        .collect()
}

fn lake(level: f32) -> WaterBody {
    WaterBody {
        id: "pond".into(),
        kind: WaterKind::Lake,
        level,
        footprint: Footprint::Lake {
            center: [30.0, 34.0],
            radius: 40.0,
            boundary: None,
        },
        flow_speed: 0.5,
        flow_direction: [1.0, 0.0],
        appearance: Appearance::default(),
        wet_samples: 0,
        warnings: Vec::new(),
    }
}

fn river() -> WaterBody {
    WaterBody::follow_bed_river(
        "river",
        vec![[0.0, 4.0, 10.0], [64.0, 1.0, 50.0]],
        9.0,
        1.5,
        1.5,
    )
}

fn setup(bodies: Vec<WaterBody>, carve: bool) -> (Heightfield, WaterSet) {
    let g = grid();
    let mut ground = Field::from_vec(N, N, bowl().iter().map(|h| h + 3.0).collect()).unwrap();
    let mut water = WaterSet::empty(g);
    for b in bodies {
        if carve && let Footprint::River { path, width, .. } = &b.footprint {
            crate::hydrology::water::carve_channel(&mut ground, &g, path, *width, &|| false)
                .unwrap();
        }
        water.add(b, &ground);
    }
    let field = Heightfield::new(g, ground.into_vec(), None).unwrap();
    (field, water)
}

/// The mesh triangle under (x, z) and the interpolated surface there.
fn mesh_surface_at(m: &WaterMesh, x: f32, z: f32) -> Option<f32> {
    for t in m.indices.chunks(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
        let det = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
        if det.abs() < 1e-9 {
            continue;
        }
        let u = ((x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (z - a[2])) / det;
        let v = ((b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2])) / det;
        if u >= -1e-5 && v >= -1e-5 && u + v <= 1.0 + 1e-5 {
            return Some(a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]));
        }
    }
    None
}

fn points() -> impl Iterator<Item = (f32, f32)> {
    // A deterministic spread of points, off the grid lines.
    (0..4000u32).map(|k| {
        let h = crate::seed::splitmix64(k as u64 ^ 0x5eed);
        let x = (h & 0xffff) as f32 / 65535.0 * 64.0;
        let z = ((h >> 16) & 0xffff) as f32 / 65535.0 * 64.0;
        (x, z)
    })
}

#[test]
fn the_mesh_covers_exactly_where_queries_find_water() {
    for (bodies, carve) in [
        (vec![lake(8.0)], false),
        (vec![river()], true),
        (vec![lake(7.0), river()], true),
    ] {
        let (field, water) = setup(bodies, carve);
        let meshes = water.surface_meshes(&field, CellRect::all(field.grid()));
        assert!(!meshes.is_empty());
        let (mut wet, mut dry) = (0, 0);
        for (x, z) in points() {
            let sample = water.sample(&field, x, z);
            let hit = meshes.iter().find_map(|m| {
                mesh_surface_at(m, x, z).map(|s| (water.bodies[m.body].id.clone(), s))
            });
            match (sample, hit) {
                (Some(s), Some((id, surface))) => {
                    wet += 1;
                    assert_eq!(s.body_id, id, "at ({x}, {z})");
                    assert!(
                        (s.surface - surface).abs() < 1e-3,
                        "at ({x}, {z}): {} vs {surface}",
                        s.surface
                    );
                }
                (None, None) => dry += 1,
                (Some(s), None) => assert!(
                    s.depth < 1e-3,
                    "wet at ({x}, {z}) (depth {}) but no water mesh",
                    s.depth
                ),
                (None, Some((_, surface))) => {
                    // Only on the shoreline itself (within rounding).
                    let g = field.height_at(x, z).unwrap();
                    assert!(
                        surface - g < 1e-3,
                        "water mesh over dry ground at ({x}, {z}): {surface} over {g}"
                    );
                }
            }
        }
        assert!(wet > 100 && dry > 100, "wet {wet}, dry {dry}");
    }
}

#[test]
fn shoreline_vertices_meet_the_terrain_and_nothing_stands_above_the_surface() {
    let (field, water) = setup(vec![lake(8.0), river()], true);
    let meshes = water.surface_meshes(&field, CellRect::all(field.grid()));
    let mut shore = 0;
    for m in &meshes {
        let body = &water.bodies[m.body];
        for (p, &d) in m.positions.iter().zip(&m.depth) {
            assert!(d >= 0.0);
            let g = field.height_at(p[0], p[2]).unwrap();
            if d == 0.0 {
                shore += 1;
                assert!(
                    (p[1] - g).abs() < 1e-3,
                    "shore vertex {p:?} off the ground {g}"
                );
            } else {
                assert!((p[1] - g - d).abs() < 1e-3);
            }
            if body.kind == WaterKind::Lake {
                assert_eq!(p[1], body.level, "lake vertices lie on the level");
            }
        }
        // No slabs: a triangle's height span stays within the surface's own slope over one
        // cell (a lake's is zero; the follow-bed river drops 3 m over ~75 m).
        for t in m.indices.chunks(3) {
            let ys = [t[0], t[1], t[2]].map(|i| m.positions[i as usize][1]);
            let span = ys.iter().cloned().fold(f32::MIN, f32::max)
                - ys.iter().cloned().fold(f32::MAX, f32::min);
            let ps = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
            assert!(
                span < 0.25,
                "{} triangle spans {span} m vertically: {ps:?}",
                body.id
            );
        }
    }
    assert!(shore > 20, "{shore} shoreline vertices");
}

#[test]
fn dry_shoreline_corners_are_not_wet() {
    let (field, water) = setup(vec![lake(8.0)], false);
    let meshes = water.surface_meshes(&field, CellRect::all(field.grid()));
    let [w, _] = field.grid().samples();
    let mut dry_corners = 0;
    for z in 0..N - 1 {
        for x in 0..N - 1 {
            if water.cell_owner(x, z) == 0 {
                continue;
            }
            for i in [
                z * w + x,
                z * w + x + 1,
                (z + 1) * w + x,
                (z + 1) * w + x + 1,
            ] {
                if water.owner_at(i) == 0 {
                    dry_corners += 1;
                    let [px, pz] = field.grid().sample_position(i % w, i / w);
                    assert_eq!(water.depth_at(&field, px, pz), 0.0);
                    // The mesh never puts water on the dry corner itself.
                    assert!(
                        meshes
                            .iter()
                            .all(|m| m.positions.iter().all(|p| !(p[0] == px && p[2] == pz)))
                    );
                }
            }
        }
    }
    assert!(dry_corners > 10);
}

#[test]
fn chunk_meshes_add_up_to_the_whole_and_share_edges() {
    let (field, water) = setup(vec![lake(8.0), river()], true);
    let g = *field.grid();
    let area = |ms: &[WaterMesh]| -> f64 {
        ms.iter()
            .flat_map(|m| m.indices.chunks(3).map(move |t| (m, t)))
            .map(|(m, t)| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
                (((b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2])) as f64).abs() * 0.5
            })
            .sum()
    };
    let whole = area(&water.surface_meshes(&field, CellRect::all(&g)));
    let [cx, cz] = g.chunks();
    let mut parts = 0.0;
    for z in 0..cz {
        for x in 0..cx {
            parts += area(&water.surface_meshes(&field, CellRect::chunk(&g, x, z)));
        }
    }
    assert!(whole > 100.0);
    assert!((whole - parts).abs() < 1e-3 * whole, "{whole} vs {parts}");
}

#[test]
fn the_flow_attribute_is_what_queries_report() {
    let (field, water) = setup(vec![river()], true);
    let meshes = water.surface_meshes(&field, CellRect::all(field.grid()));
    for m in &meshes {
        for (p, f) in m.positions.iter().zip(&m.flow) {
            assert_eq!(*f, water.bodies[m.body].flow_at(p[0], p[2]));
        }
    }
}

/// A follow-bed river's current follows its surface: the 3D flow is tangent to the surface
/// (perpendicular to the queried normal), falls on average along a river whose path descends,
/// and keeps the shader's horizontal flow; a level lake's current stays horizontal.
#[test]
fn a_follow_bed_river_flows_along_its_sloping_surface() {
    let (field, water) = setup(vec![river(), lake(0.5)], true);
    let (mut river_points, mut fall) = (0, 0.0f64);
    for (x, z) in points() {
        let Some(p) = water.point(&field, x, z) else {
            continue;
        };
        let body = &water.bodies[p.body];
        assert_eq!(
            p.flow,
            body.flow_at(x, z),
            "horizontal flow = the shader's at ({x}, {z})"
        );
        if body.follows_bed() {
            let v = [p.flow[0], p.flow_rise, p.flow[1]];
            let along = v[0] * p.normal[0] + v[1] * p.normal[1] + v[2] * p.normal[2];
            let speed = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            assert!(
                along.abs() <= 1e-4 * speed.max(1.0),
                "tangent at ({x}, {z}): {along}"
            );
            river_points += 1;
            fall += p.flow_rise as f64;
        } else {
            assert_eq!(p.flow_rise, 0.0, "a lake's current is horizontal");
        }
    }
    assert!(river_points > 50, "the river was sampled ({river_points})");
    assert!(
        fall / (river_points as f64) < -0.01,
        "it flows downhill: mean rise {fall}"
    );
}

#[test]
fn painted_water_gets_its_own_clipped_mesh_at_ground_plus_depth() {
    use crate::hydrology::water::PAINTED_BODY;
    let grid = Grid::new([8.0, 8.0], [8, 8], 8).unwrap();
    let h: Vec<f32> = (0..81).map(|i| (i % 9) as f32 * 0.25).collect();
    let field = Heightfield::new(grid, h.clone(), None).unwrap();
    let mut water = WaterSet::empty(grid);
    let painted: Vec<f32> = (0..81)
        .map(|i| {
            if (2..5).contains(&(i % 9)) && (2..5).contains(&(i / 9)) {
                1.5
            } else {
                0.0
            }
        })
        .collect();
    water.set_painted(painted.clone());
    let meshes = water.surface_meshes(&field, CellRect::all(&grid));
    assert_eq!(meshes.len(), 1);
    let m = &meshes[0];
    assert_eq!(m.body, PAINTED_BODY);
    assert!(!m.indices.is_empty());
    assert!(m.flow.iter().all(|f| *f == [0.0, 0.0]));
    for (p, &d) in m.positions.iter().zip(&m.depth) {
        // The surface over the ground is the queried depth there.
        let g = field.height_at(p[0], p[2]).unwrap();
        assert!((p[1] - g - d).abs() < 1e-4, "{p:?} {g} {d}");
        assert!(d >= 0.0);
        let q = water.depth_at(&field, p[0], p[2]);
        assert!((q - d).abs() < 1e-4, "{q} vs {d}");
    }
}
