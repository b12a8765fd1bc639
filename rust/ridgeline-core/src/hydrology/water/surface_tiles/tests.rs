use super::*;
use crate::grid::Field;
use crate::hydrology::water::WaterBody;

const N: usize = 65;

/// 128 m, 64 cells of 2 m, chunks of 8 cells: 8 × 8 chunks.
fn grid() -> Grid {
    Grid::new([128.0, 128.0], [(N - 1) as u32, (N - 1) as u32], 8).unwrap()
}

/// Two rippled bowls (west and east) so there are two lakes, and a valley across the south
/// for a river.
fn ground() -> Vec<f32> {
    (0..N * N)
        .map(|i| {
            let (x, z) = ((i % N) as f32 * 2.0, (i / N) as f32 * 2.0);
            let west = ((x - 34.0).powi(2) + (z - 40.0).powi(2)).sqrt();
            let east = ((x - 94.0).powi(2) + (z - 44.0).powi(2)).sqrt();
            let valley = 5.0 - x / 64.0 + (z - 113.0).abs() * 0.4;
            let bowls = west.min(east) * 0.3 + (x * 0.7).sin() * 0.8 + (z * 0.45).cos() * 0.6;
            (bowls + 3.0).min(valley)
        })
        .collect()
}

fn river() -> WaterBody {
    WaterBody::follow_bed_river(
        "river",
        vec![[0.0, 6.0, 110.0], [128.0, 4.0, 116.0]],
        9.0,
        1.5,
        1.5,
    )
}

fn water_on(heights: &[f32]) -> WaterSet {
    let ground = Field::from_vec(N, N, heights.to_vec()).unwrap();
    let mut water = WaterSet::empty(grid());
    water.add(
        WaterBody::still_lake("west", 6.0, [34.0, 40.0], 30.0),
        &ground,
    );
    water.add(
        WaterBody::still_lake("east", 5.5, [94.0, 44.0], 30.0),
        &ground,
    );
    water.add(river(), &ground);
    water
}

fn field(heights: &[f32]) -> Heightfield {
    Heightfield::new(grid(), heights.to_vec(), None).unwrap()
}

/// Raises the ground by `amount` on samples within `radius` of (x, z) (metres); returns the
/// new heights and the changed cells.
fn raise(heights: &[f32], x: f32, z: f32, radius: f32, amount: f32) -> (Vec<f32>, CellRect) {
    let mut out = heights.to_vec();
    let (mut x0, mut z0, mut x1, mut z1) = (usize::MAX, usize::MAX, 0, 0);
    for (i, h) in out.iter_mut().enumerate() {
        let (sx, sz) = (i % N, i / N);
        let (px, pz) = (sx as f32 * 2.0, sz as f32 * 2.0);
        if (px - x).hypot(pz - z) <= radius {
            *h += amount;
            (x0, z0) = (x0.min(sx), z0.min(sz));
            (x1, z1) = (x1.max(sx + 1), z1.max(sz + 1));
        }
    }
    // Cells touching a changed sample.
    let cells = CellRect {
        x0: x0.saturating_sub(1),
        z0: z0.saturating_sub(1),
        x1,
        z1,
    };
    (out, cells)
}

/// A mesh's triangles as sorted vertex triples (bit patterns), sorted: its shape regardless of
/// vertex order and sharing.
fn triangles(m: &WaterMesh) -> Vec<[[u32; 6]; 3]> {
    let mut out: Vec<[[u32; 6]; 3]> = m
        .indices
        .chunks(3)
        .map(|t| {
            let mut v = [0, 1, 2].map(|k| {
                let i = t[k] as usize;
                let [x, y, z] = m.positions[i].map(f32::to_bits);
                let [fx, fz] = m.flow[i].map(f32::to_bits);
                [x, y, z, m.depth[i].to_bits(), fx, fz]
            });
            // Rotate so the smallest vertex leads (keeps the winding).
            let k = (0..3).min_by_key(|&k| v[k]).unwrap_or(0);
            v.rotate_left(k);
            v
        })
        .collect();
    out.sort();
    out
}

#[test]
fn tiles_hold_the_same_triangles_as_the_whole_grid_mesh() {
    let h = ground();
    let (water, f) = (water_on(&h), field(&h));
    let tiles = SurfaceTiles::build(&water, &f);
    let whole = water.surface_meshes(&f, CellRect::all(&grid()));
    let merged = tiles.merged();
    assert_eq!(whole.len(), 3, "two lakes and the river have water");
    assert_eq!(merged.len(), whole.len());
    for (a, b) in merged.iter().zip(&whole) {
        assert_eq!(a.body, b.body);
        assert!(!a.indices.is_empty());
        assert_eq!(triangles(a), triangles(b), "body {}", a.body);
    }
}

#[test]
fn an_edit_rebuilds_only_the_chunks_it_changes_and_ends_like_a_fresh_build() {
    let h = ground();
    let before = water_on(&h);
    let mut tiles = SurfaceTiles::build(&before, &field(&h));
    // Raise the west lake's bed a little near its middle: its coverage and depths change there.
    let (h2, cells) = raise(&h, 34.0, 40.0, 5.0, 1.0);
    let after = water_on(&h2);
    let up = tiles.update(&before, &after, &field(&h2), cells);
    assert!(up.chunks_rebuilt >= 1 && up.chunks_rebuilt <= 9, "{up:?}");
    assert!(!up.all);
    assert_eq!(up.slots_changed, vec![true, false, false, false]);
    let fresh = SurfaceTiles::build(&after, &field(&h2));
    assert_eq!(
        tiles, fresh,
        "the updated tiles equal a fresh build bit for bit"
    );
    assert_ne!(
        tiles.merged_slot(0),
        SurfaceTiles::build(&before, &field(&h)).merged_slot(0)
    );
}

#[test]
fn lowering_a_bank_floods_chunks_far_from_the_edit() {
    // A wall east of the west lake with a dry hollow behind it, then a channel cut from the
    // lake through the wall: the hollow fills (a lake is the connected ground below its level
    // within its radius), so chunks the cut does not touch change too.
    let mut h = ground();
    for (i, v) in h.iter_mut().enumerate() {
        let (x, z) = ((i % N) as f32 * 2.0, (i / N) as f32 * 2.0);
        if (46.0..50.0).contains(&x) {
            *v = 20.0;
        }
        if (50.0..58.0).contains(&x) && (34.0..56.0).contains(&z) {
            *v = 2.0;
        }
    }
    let before = water_on(&h);
    let mut tiles = SurfaceTiles::build(&before, &field(&h));
    // The channel: x 40..50 m, z 38..42 m, down to 2 m (chunks x 2..=3, z 2).
    let mut h2 = h.clone();
    let mut cut = CellRect::default();
    (cut.x0, cut.z0) = (usize::MAX, usize::MAX);
    for (i, v) in h2.iter_mut().enumerate() {
        let (sx, sz) = (i % N, i / N);
        let (x, z) = (sx as f32 * 2.0, sz as f32 * 2.0);
        if (40.0..50.0).contains(&x) && (38.0..42.0).contains(&z) {
            *v = 2.0;
            cut.x0 = cut.x0.min(sx.saturating_sub(1));
            cut.z0 = cut.z0.min(sz.saturating_sub(1));
            cut.x1 = cut.x1.max(sx + 1);
            cut.z1 = cut.z1.max(sz + 1);
        }
    }
    let after = water_on(&h2);
    let west_before = before.owner.iter().filter(|&&o| o == 1).count();
    let west_after = after.owner.iter().filter(|&&o| o == 1).count();
    assert!(
        west_after > west_before + 40,
        "the hollow fills: {west_before} → {west_after}"
    );
    let up = tiles.update(&before, &after, &field(&h2), cut);
    assert_eq!(tiles, SurfaceTiles::build(&after, &field(&h2)));
    assert_eq!(up.slots_changed, vec![true, false, false, false]);
    // The hollow's south part (z 48..56 m) lies in chunk row 3, which the cut does not touch.
    assert!(up.chunks_rebuilt >= 3, "{up:?}");
}

#[test]
fn a_dry_edit_rebuilds_its_chunks_and_changes_no_surface() {
    let h = ground();
    let before = water_on(&h);
    let mut tiles = SurfaceTiles::build(&before, &field(&h));
    // Far corner (north-east, 0..10 m from (126, 2)): dry ground.
    let (h2, cells) = raise(&h, 126.0, 2.0, 6.0, 2.0);
    let after = water_on(&h2);
    assert_eq!(before.owner, after.owner);
    let up = tiles.update(&before, &after, &field(&h2), cells);
    assert_eq!(up.chunks_rebuilt, 1);
    assert_eq!(up.slots_changed, vec![false; 4]);
}

#[test]
fn other_bodies_rebuild_everything() {
    let h = ground();
    let before = water_on(&h);
    let mut tiles = SurfaceTiles::build(&before, &field(&h));
    let ground_field = Field::from_vec(N, N, h.clone()).unwrap();
    let mut after = WaterSet::empty(grid());
    after.add(
        WaterBody::still_lake("west", 7.0, [34.0, 40.0], 30.0),
        &ground_field,
    );
    let up = tiles.update(&before, &after, &field(&h), CellRect::default());
    assert!(up.all);
    assert_eq!(up.chunks_rebuilt, 64);
    assert_eq!(up.slots_changed, vec![true, true]);
    assert_eq!(tiles, SurfaceTiles::build(&after, &field(&h)));
    assert_eq!(tiles.merged().len(), 1);
}

#[test]
fn painted_water_follows_its_depths() {
    let h = ground();
    let mut before = WaterSet::empty(grid());
    let mut depths = vec![0.0; N * N];
    depths[10 * N + 100] = 0.5;
    before.set_painted(depths.clone());
    let mut tiles = SurfaceTiles::build(&before, &field(&h));
    assert_eq!(tiles.slot_count(), 1);
    assert_eq!(tiles.merged().len(), 1);
    let mut after = before.clone();
    // On a chunk boundary (sample column 16): cells on both sides read it.
    depths[40 * N + 16] = 0.4;
    after.set_painted(depths);
    let up = tiles.update(&before, &after, &field(&h), CellRect::default());
    assert_eq!(up.slots_changed, vec![true]);
    assert!((1..=4).contains(&up.chunks_rebuilt), "{up:?}");
    assert_eq!(tiles, SurfaceTiles::build(&after, &field(&h)));
}

#[test]
fn the_level_grid_follows_the_rebuilt_samples() {
    let h = ground();
    let before = water_on(&h);
    let mut tiles = SurfaceTiles::build(&before, &field(&h));
    let mut level = before.level_grid(&field(&h));
    // Raise the east lake's bed near its shore: depths and coverage change there only.
    let (h2, cells) = raise(&h, 100.0, 44.0, 6.0, 1.5);
    let after = water_on(&h2);
    assert_ne!(before.owner, after.owner, "the shore moves");
    let up = tiles.update(&before, &after, &field(&h2), cells);
    assert!(!up.all && up.samples[2] > up.samples[0], "{up:?}");
    assert!(level.update(&after, &field(&h2), up.samples));
    assert_eq!(
        level,
        after.level_grid(&field(&h2)),
        "the same grid as a fresh one"
    );
}

#[test]
fn the_level_grid_asks_for_a_rebuild_when_water_leaves_its_rectangle() {
    let h = ground();
    let g = Field::from_vec(N, N, h.clone()).unwrap();
    let mut before = WaterSet::empty(grid());
    before.add(WaterBody::still_lake("west", 6.0, [34.0, 40.0], 30.0), &g);
    let mut level = before.level_grid(&field(&h));
    let mut after = before.clone();
    let mut depths = vec![0.0; N * N];
    depths[60 * N + 60] = 0.5;
    after.set_painted(depths);
    assert!(!level.update(&after, &field(&h), [58, 58, 63, 63]));
}
