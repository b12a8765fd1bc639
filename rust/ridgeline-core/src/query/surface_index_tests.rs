use super::*;
use crate::grid::{Field, HoleMask};
use crate::hydrology::water::{Appearance, Footprint, WaterBody, WaterKind};

const N: usize = 65;

fn grid() -> Grid {
    Grid::new([128.0, 128.0], [(N - 1) as u32, (N - 1) as u32], 16).unwrap()
}

fn ground(x: usize, z: usize) -> f32 {
    x as f32 * 0.25 + (z as f32 * 0.4).sin() * 2.0
}

fn heights() -> Vec<f32> {
    (0..N * N).map(|i| ground(i % N, i / N)).collect()
}

fn sea(level: f32) -> WaterBody {
    WaterBody {
        id: "sea".into(),
        kind: WaterKind::Ocean,
        level,
        footprint: Footprint::Ocean { boundary: None },
        flow_speed: 0.0,
        flow_direction: [1.0, 0.0],
        appearance: Appearance::default(),
        wet_samples: 0,
        warnings: Vec::new(),
    }
}

/// A sloped terrain with a sea over its low half, a painted pond in its high half, hole
/// cells, and roles 0–8 varying per sample.
fn terrain() -> (Heightfield, WaterSet, SampleClasses) {
    let g = grid();
    let mut holes = HoleMask::new(N - 1, N - 1);
    for (x, z) in [(40, 40), (41, 40), (3, 60), (20, 5)] {
        holes.set(x, z, true);
    }
    let hf = Heightfield::new(g, heights(), Some(holes)).unwrap();
    let f = Field::from_vec(N, N, heights()).unwrap();
    let mut water = WaterSet::empty(g);
    water.add(sea(6.0), &f);
    let painted = (0..N * N)
        .map(|i| {
            let (x, z) = ((i % N) as f32, (i / N) as f32);
            let r = ((x - 50.0).powi(2) + (z - 30.0).powi(2)).sqrt();
            (1.5 - r * 0.2).max(0.0)
        })
        .collect();
    water.set_painted(painted);
    let roles = SampleClasses::from_pairs((0..N * N).map(|i| (0, ((i * 7 + i / N) % 9) as u8)));
    (hf, water, roles)
}

/// Every point of a fine lattice (edges, outside and shores included) answers what
/// [`surface_at`] answers; returns how many points were wet.
fn assert_agrees(
    index: &mut SurfaceIndex,
    hf: &Heightfield,
    water: &WaterSet,
    roles: &SampleClasses,
) -> usize {
    let mut wet = 0;
    for i in 0..=420 {
        for j in 0..=130 {
            let (x, z) = (i as f32 * 0.31 - 1.0, j as f32 * 0.997 - 1.0);
            for ignore in [false, true] {
                let exact = surface_at(hf, water, roles, x, z, ignore);
                let fast = index.surface_at(hf, water, roles, x, z, ignore);
                assert_eq!(fast, exact, "at ({x}, {z}), ignore_water {ignore}");
                wet += usize::from(!ignore && exact == SURFACE_WATER);
            }
        }
    }
    wet
}

#[test]
fn the_index_answers_exactly_what_the_exact_path_answers() {
    let (hf, water, roles) = terrain();
    let mut index = SurfaceIndex::new();
    let wet = assert_agrees(&mut index, &hf, &water, &roles);
    assert!(wet > 5000, "sea and pond covered: {wet} wet points");
    // The fast paths do the work: most cells are decided without the water path.
    let codes = &index.codes;
    let (wet_cells, mixed) = (
        codes.iter().filter(|&&c| c & WET != 0).count(),
        codes.iter().filter(|&&c| c & MIXED != 0).count(),
    );
    assert!(wet_cells > 1000, "{wet_cells} cells wholly wet");
    assert!(
        mixed < codes.len() / 8,
        "{mixed} of {} cells mixed",
        codes.len()
    );
    assert_eq!(codes.iter().filter(|&&c| c & HOLE != 0).count(), 4);
}

#[test]
fn invalidated_cells_follow_changed_heights_water_and_roles() {
    let (mut hf, mut water, mut roles) = terrain();
    let mut index = SurfaceIndex::new();
    assert_agrees(&mut index, &hf, &water, &roles);
    // Raise a block of the sea floor above the water and repaint its roles.
    let (x0, z0, x1, z1) = (4, 10, 14, 20);
    let values: Vec<f32> = (z0..z1)
        .flat_map(|z| (x0..x1).map(move |x| ground(x, z) + 9.0))
        .collect();
    hf.write_region(x0, z0, x1, z1, &values).unwrap();
    let f = Field::from_vec(N, N, hf.heights().to_vec()).unwrap();
    water.refresh(&f);
    for z in z0..z1 {
        for x in x0..x1 {
            roles.set_role(z * N + x, 3);
        }
    }
    // A stale index disagrees somewhere in the block …
    let stale = (0..200).any(|k| {
        let (x, z) = (9.0 + (k % 20) as f32 * 0.4, 22.0 + (k / 20) as f32 * 1.5);
        index.surface_at(&hf, &water, &roles, x, z, false)
            != surface_at(&hf, &water, &roles, x, z, false)
    });
    assert!(stale, "the change is visible to the exact path");
    // … and agrees everywhere once the changed samples are invalidated: only the tile
    // holding the block's cells is forgotten (of the 2 × 2 tiles all queried above).
    assert_eq!(index.valid_tiles(), 4);
    index.invalidate_samples(x0, z0, x1, z1);
    assert_eq!(index.valid_tiles(), 3);
    assert_agrees(&mut index, &hf, &water, &roles);
    assert_eq!(index.valid_tiles(), 4);
    // A new surface: invalidate all.
    water.set_painted(Vec::new());
    index.invalidate_all();
    assert_eq!(index.valid_tiles(), 0);
    assert_agrees(&mut index, &hf, &water, &roles);
}

#[test]
fn an_index_follows_a_new_grid_and_terrains_without_water() {
    let (hf, _, roles) = terrain();
    let dry = WaterSet::empty(*hf.grid());
    let mut index = SurfaceIndex::new();
    assert_eq!(assert_agrees(&mut index, &hf, &dry, &roles), 0);
    let small = Grid::new([10.0, 10.0], [5, 5], 5).unwrap();
    let flat = Heightfield::flat(small, 1.0).unwrap();
    let water = WaterSet::empty(small);
    assert_eq!(
        index.surface_at(&flat, &water, &SampleClasses::default(), 7.5, 2.0, false),
        0
    );
    assert_eq!(
        index.surface_at(&flat, &water, &SampleClasses::default(), 10.5, 2.0, false),
        SURFACE_NONE
    );
}
