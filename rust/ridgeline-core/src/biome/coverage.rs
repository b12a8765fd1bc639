//! Water coverage: which samples are under water for biomes and surface roles.
//!
//! - With **connected water** (a water set), a sample is covered when a body owns it: each
//!   body's own resolved coverage, so raised lakes and rivers are wet at their own level and a
//!   dry bank below a lake's level is not. Dry shoreline corners that only serve water
//!   triangulation are not owned, so they are not covered. No body means no coverage: connected
//!   water replaces the inferred sea.
//! - Without it, the **inferred sea**: samples strictly below the sea level that are connected
//!   to the terrain border through such samples (triangle-edge neighbours, as water uses). A
//!   closed depression below the sea level stays dry.
//!
//! Flags are one byte per sample: [`COVERED`] and, in inferred-sea mode, [`BELOW_SEA`] (kept so
//! an incremental pass can tell whether an edit crossed the sea level).

use crate::grid::Grid;

/// Triangle-edge neighbours (the grid triangulation's, as water and drainage use).
const NEIGHBOURS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// The sample is under water.
pub const COVERED: u8 = 1;
/// Inferred-sea mode: the sample lies strictly below the sea level (covered or not).
pub const BELOW_SEA: u8 = 2;

/// Where water comes from.
#[derive(Clone, Copy, Debug)]
pub enum WaterSource<'a> {
    /// The sea below `level`, connected to the border.
    InferredSea {
        /// Sea level (world height).
        level: f32,
    },
    /// Connected water bodies: their resolved coverage as a per-sample owner (body index + 1,
    /// 0 = dry, as `hydrology::water::WaterSet::owner`; an empty slice = no body).
    Bodies(&'a [u16]),
}

/// [`flags`] with painted water (`crate::edit::water`, depth per sample) covering the samples
/// whose depth is above 0 as well.
pub fn flags_with_painted(
    grid: &Grid,
    heights: &[f32],
    water: WaterSource<'_>,
    painted: Option<&[f32]>,
) -> Vec<u8> {
    let mut f = flags(grid, heights, water);
    if let Some(p) = painted {
        for (flag, &d) in f.iter_mut().zip(p) {
            if d > 0.0 {
                *flag |= COVERED;
            }
        }
    }
    f
}

/// Coverage flags of every sample.
pub fn flags(grid: &Grid, heights: &[f32], water: WaterSource<'_>) -> Vec<u8> {
    let n = grid.sample_count();
    match water {
        WaterSource::Bodies(set) => (0..n)
            .map(|i| {
                if set.get(i).copied().unwrap_or(0) != 0 {
                    COVERED
                } else {
                    0
                }
            })
            .collect(),
        WaterSource::InferredSea { level } => {
            let mut f: Vec<u8> = heights
                .iter()
                .map(|&h| if h < level { BELOW_SEA } else { 0 })
                .collect();
            flood_sea(grid, &mut f);
            f
        }
    }
}

/// Marks [`COVERED`] every [`BELOW_SEA`] sample connected to the border through below-sea
/// samples.
fn flood_sea(grid: &Grid, f: &mut [u8]) {
    let [w, h] = grid.samples();
    let mut stack: Vec<usize> = Vec::new();
    let push = |i: usize, f: &mut [u8], stack: &mut Vec<usize>| {
        if f[i] == BELOW_SEA {
            f[i] |= COVERED;
            stack.push(i);
        }
    };
    for x in 0..w {
        push(x, f, &mut stack);
        push((h - 1) * w + x, f, &mut stack);
    }
    for z in 0..h {
        push(z * w, f, &mut stack);
        push(z * w + w - 1, f, &mut stack);
    }
    while let Some(i) = stack.pop() {
        let (x, z) = ((i % w) as i64, (i / w) as i64);
        for (dx, dz) in NEIGHBOURS {
            let (nx, nz) = (x + dx as i64, z + dz as i64);
            if nx >= 0 && nz >= 0 && (nx as usize) < w && (nz as usize) < h {
                push(nz as usize * w + nx as usize, f, &mut stack);
            }
        }
    }
}

/// True when any sample is covered.
pub fn any_covered(flags: &[u8]) -> bool {
    flags.iter().any(|&f| f & COVERED != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Field;
    use crate::hydrology::water::{WaterBody, WaterSet};

    fn grid() -> Grid {
        Grid::new([10.0, 10.0], [10, 10], 4).unwrap()
    }

    #[test]
    fn inferred_sea_reaches_the_border_but_not_closed_pits() {
        let g = grid();
        let [w, h] = g.samples();
        // Low strip along x = 0..2 (the sea), a closed pit at (7, 7), ground at 5 elsewhere.
        let heights: Vec<f32> = (0..w * h)
            .map(|i| {
                let (x, z) = (i % w, i / w);
                if x < 2 || (x == 7 && z == 7) {
                    -1.0
                } else {
                    5.0
                }
            })
            .collect();
        let f = flags(&g, &heights, WaterSource::InferredSea { level: 0.0 });
        assert_eq!(f[g.index(0, 5)], COVERED | BELOW_SEA);
        assert_eq!(f[g.index(1, 5)], COVERED | BELOW_SEA);
        assert_eq!(f[g.index(7, 7)], BELOW_SEA, "a closed pit is not sea");
        assert_eq!(f[g.index(5, 5)], 0);
        // Exactly at the level is dry.
        let at = flags(
            &g,
            &vec![0.0; w * h],
            WaterSource::InferredSea { level: 0.0 },
        );
        assert!(!any_covered(&at));
    }

    #[test]
    fn bodies_use_their_own_coverage_and_replace_the_sea() {
        let g = grid();
        let [w, h] = g.samples();
        // A raised basin: ground 10 with a pit at 8 around (5, 5); sea level 20 would drown all.
        let ground: Vec<f32> = (0..w * h)
            .map(|i| {
                let (x, z) = ((i % w) as f32 - 5.0, (i / w) as f32 - 5.0);
                if x * x + z * z <= 4.0 { 8.0 } else { 10.0 }
            })
            .collect();
        let field = Field::from_vec(w, h, ground.clone()).unwrap();
        let mut set = WaterSet::empty(g);
        let none = flags(&g, &ground, WaterSource::Bodies(&set.owner));
        assert!(
            !any_covered(&none),
            "connected water without bodies covers nothing"
        );
        set.add(WaterBody::still_lake("lake", 9.0, [5.0, 5.0], 4.0), &field);
        let f = flags(&g, &ground, WaterSource::Bodies(&set.owner));
        assert_eq!(f[g.index(5, 5)], COVERED);
        assert_eq!(f[g.index(0, 0)], 0);
        assert_eq!(
            f.iter().filter(|&&v| v == COVERED).count() as u32,
            set.bodies[0].wet_samples
        );
    }
}
