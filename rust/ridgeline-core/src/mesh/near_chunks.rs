//! Collision for large maps: which chunks need a physics shape when only the ground near moving
//! bodies is kept (seed 004's `CollisionMode.NearBodies`).
//!
//! A chunk is wanted while its rectangle lies within `radius` of a body (terrain-local X/Z,
//! distance to the nearest point of the rectangle) and released once every body is more than
//! `radius` plus one chunk side away: the margin keeps a body that hovers around the boundary
//! from building and releasing the same chunk every tick.

use crate::grid::Grid;

/// Above this many surface triangles (two per cell) a terrain keeps collision only near moving
/// bodies unless told otherwise (`Terrain3D.collision_mode` Auto): seed 004's default, 0.6 M,
/// so a 512 m map at 1 m (513 × 513 samples, 0.52 M triangles) has every chunk's shape and a
/// 1 km map at 1 m (2.1 M triangles, 4 MB of collision heights in the physics server) keeps
/// only the ground near its bodies.
pub const FULL_COLLISION_MAX_TRIANGLES: u64 = 600_000;

/// [`CollisionMode::AutoEditor`]'s bound: 2048 × 2048 cells, a 2 km map at 1 m (8.4 M
/// triangles). In the editor the scene's physics also places things ("Snap Object to Floor" and
/// placement tools cast physics rays), so the maps a level designer works on keep every chunk's
/// shape there.
pub const EDITOR_FULL_COLLISION_MAX_TRIANGLES: u64 = 2 * 2048 * 2048;

/// How a terrain's collision is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollisionMode {
    /// Full collision up to [`FULL_COLLISION_MAX_TRIANGLES`], near bodies above.
    Auto,
    /// `Auto` in the editor: full collision up to [`EDITOR_FULL_COLLISION_MAX_TRIANGLES`].
    AutoEditor,
    /// Every chunk has its shape.
    Full,
    /// Only chunks near moving bodies have shapes.
    NearBodies,
}

impl CollisionMode {
    /// The mode a terrain of `grid`'s size uses: `Auto` decided by its sample count.
    pub fn resolve(self, grid: &Grid) -> CollisionMode {
        match self {
            CollisionMode::Auto if triangles(grid) > FULL_COLLISION_MAX_TRIANGLES => {
                CollisionMode::NearBodies
            }
            CollisionMode::AutoEditor if triangles(grid) > EDITOR_FULL_COLLISION_MAX_TRIANGLES => {
                CollisionMode::NearBodies
            }
            CollisionMode::Auto | CollisionMode::AutoEditor => CollisionMode::Full,
            other => other,
        }
    }
}

/// The surface triangles of `grid`: two per cell.
fn triangles(grid: &Grid) -> u64 {
    let [cx, cz] = grid.cells();
    2 * u64::from(cx) * u64::from(cz)
}

/// What one [`NearChunks::retarget`] changed, as row-major chunk indices (ascending).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct NearChange {
    /// Chunks that now need a shape.
    pub build: Vec<usize>,
    /// Chunks whose shape can go.
    pub release: Vec<usize>,
}

/// The set of chunks that currently have collision in near-bodies mode.
#[derive(Debug, Default)]
pub struct NearChunks {
    active: Vec<bool>,
    count: usize,
}

impl NearChunks {
    /// Whether chunk `index` currently has collision.
    pub fn is_active(&self, index: usize) -> bool {
        self.active.get(index).copied().unwrap_or(false)
    }

    /// Number of chunks with collision.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The active chunks (ascending).
    pub fn active(&self) -> impl Iterator<Item = usize> + '_ {
        self.active
            .iter()
            .enumerate()
            .filter_map(|(i, &a)| a.then_some(i))
    }

    /// Forgets every chunk (after the caller freed their shapes).
    pub fn clear(&mut self) {
        self.active.clear();
        self.count = 0;
    }

    /// Updates the active set for bodies at `points` (terrain-local X/Z; non-finite points are
    /// ignored): chunks within `radius` of a point are built, active chunks farther than
    /// `radius` + one chunk side from every point are released.
    pub fn retarget(&mut self, grid: &Grid, points: &[[f32; 2]], radius: f32) -> NearChange {
        let [nx, nz] = grid.chunks();
        let chunks = nx as usize * nz as usize;
        if self.active.len() != chunks {
            self.active = vec![false; chunks];
            self.count = 0;
        }
        let radius = if radius.is_finite() {
            radius.max(0.0)
        } else {
            0.0
        };
        let [dx, dz] = grid.spacing();
        let side = grid.chunk_cells() as f32 * dx.max(dz);
        let keep_radius = radius + side;
        let points: Vec<[f32; 2]> = points
            .iter()
            .copied()
            .filter(|p| p[0].is_finite() && p[1].is_finite())
            .collect();
        let mut wanted = vec![false; chunks];
        for p in &points {
            for_chunks_within(grid, *p, radius, |i| wanted[i] = true);
        }
        let mut change = NearChange::default();
        for (i, &want) in wanted.iter().enumerate() {
            if want && !self.active[i] {
                change.build.push(i);
            }
        }
        for i in self.active().collect::<Vec<_>>() {
            if wanted[i] {
                continue;
            }
            let (cx, cz) = ((i % nx as usize) as u32, (i / nx as usize) as u32);
            let keep = points
                .iter()
                .any(|p| distance_to_chunk(grid, cx, cz, *p) <= keep_radius);
            if !keep {
                change.release.push(i);
            }
        }
        for &i in &change.build {
            self.active[i] = true;
        }
        for &i in &change.release {
            self.active[i] = false;
        }
        self.count = self.count + change.build.len() - change.release.len();
        change
    }
}

/// Calls `f` with the index of every chunk whose rectangle lies within `radius` of `p`.
fn for_chunks_within(grid: &Grid, p: [f32; 2], radius: f32, mut f: impl FnMut(usize)) {
    let [nx, nz] = grid.chunks();
    let [dx, dz] = grid.spacing();
    let cw = grid.chunk_cells() as f32 * dx;
    let cd = grid.chunk_cells() as f32 * dz;
    let range = |lo: f32, hi: f32, size: f32, n: u32| {
        let a = (lo / size).floor().max(0.0);
        let b = (hi / size).floor().min(n as f32 - 1.0);
        (a <= b).then_some((a as u32, b as u32))
    };
    let (Some((x0, x1)), Some((z0, z1))) = (
        range(p[0] - radius, p[0] + radius, cw, nx),
        range(p[1] - radius, p[1] + radius, cd, nz),
    ) else {
        return;
    };
    for cz in z0..=z1 {
        for cx in x0..=x1 {
            if distance_to_chunk(grid, cx, cz, p) <= radius {
                f(cz as usize * nx as usize + cx as usize);
            }
        }
    }
}

/// Distance on the X/Z plane from `p` to chunk (cx, cz)'s rectangle (0 inside).
fn distance_to_chunk(grid: &Grid, cx: u32, cz: u32, p: [f32; 2]) -> f32 {
    let r = grid.chunk_cells_range(cx, cz);
    let [dx, dz] = grid.spacing();
    let gap = |v: f32, lo: f32, hi: f32| (lo - v).max(v - hi).max(0.0);
    let gx = gap(p[0], r.x0 as f32 * dx, r.x1 as f32 * dx);
    let gz = gap(p[1], r.z0 as f32 * dz, r.z1 as f32 * dz);
    (gx * gx + gz * gz).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 256 m at 1 m, 32-cell chunks: 8 × 8 chunks.
    fn grid() -> Grid {
        Grid::new([256.0, 256.0], [256, 256], 32).unwrap()
    }

    #[test]
    fn auto_keeps_full_collision_up_to_six_hundred_thousand_triangles() {
        use CollisionMode::{Auto, AutoEditor, Full, NearBodies};
        let g =
            |w: u32, d: u32, chunk: u32| Grid::new([w as f32, d as f32], [w, d], chunk).unwrap();
        let (small, large) = (g(512, 512, 64), g(1024, 1024, 64));
        let (edge, over) = (g(600, 500, 50), g(601, 500, 50));
        // In the editor, full up to 2 km at 1 m.
        let (two, four) = (g(2048, 2048, 64), g(4096, 4096, 64));
        let cases = [
            (Auto, &edge, Full),
            (Auto, &over, NearBodies),
            (Auto, &small, Full),
            (Auto, &large, NearBodies),
            (Full, &large, Full),
            (AutoEditor, &large, Full),
            (AutoEditor, &two, Full),
            (AutoEditor, &four, NearBodies),
            (NearBodies, &small, NearBodies),
        ];
        for (mode, grid, want) in cases {
            assert_eq!(mode.resolve(grid), want, "{mode:?} on {:?}", grid.cells());
        }
    }

    #[test]
    fn a_body_gets_the_chunks_within_the_radius() {
        let g = grid();
        let mut near = NearChunks::default();
        // At (40, 40): chunk (1, 1) spans 32..64 on both axes; 10 m reaches no other chunk
        // (the nearest edges are 8 m away: chunks (0, 1), (1, 0) and (0, 0) at 11.3 m).
        let c = near.retarget(&g, &[[40.0, 40.0]], 10.0);
        assert_eq!(c.build, vec![1, 8, 9]);
        assert!(c.release.is_empty());
        assert_eq!(near.count(), 3);
        assert!(near.is_active(9) && !near.is_active(0));
        // The same point again changes nothing.
        assert_eq!(
            near.retarget(&g, &[[40.0, 40.0]], 10.0),
            NearChange::default()
        );
    }

    #[test]
    fn chunks_are_released_only_past_the_radius_plus_one_chunk() {
        let g = grid();
        let mut near = NearChunks::default();
        near.retarget(&g, &[[16.0, 16.0]], 4.0);
        assert_eq!(near.active().collect::<Vec<_>>(), vec![0]);
        // 40 m further along X: chunk 0 is 24 m away, within 4 + 32: kept; chunk 1 built.
        let c = near.retarget(&g, &[[56.0, 16.0]], 4.0);
        assert_eq!(c.build, vec![1]);
        assert!(c.release.is_empty());
        // 100 m along X: chunk 0 is 68 m away, chunk 1 is 36 m away (> 36 is false: kept).
        let c = near.retarget(&g, &[[100.0, 16.0]], 4.0);
        assert_eq!(c.build, vec![3]);
        assert_eq!(c.release, vec![0]);
        let c = near.retarget(&g, &[[200.0, 16.0]], 4.0);
        assert_eq!(c.build, vec![6]);
        assert_eq!(c.release, vec![1, 3]);
        assert_eq!(near.count(), 1);
    }

    #[test]
    fn no_bodies_release_everything_and_bad_points_are_ignored() {
        let g = grid();
        let mut near = NearChunks::default();
        near.retarget(&g, &[[100.0, 100.0], [f32::NAN, 3.0]], 40.0);
        assert!(near.count() > 0);
        let before: Vec<usize> = near.active().collect();
        let c = near.retarget(&g, &[], f32::INFINITY);
        assert_eq!(c.release, before);
        assert_eq!(near.count(), 0);
        // Points off the terrain reach only the chunks within the radius of the edge.
        let c = near.retarget(&g, &[[-20.0, -20.0]], 10.0);
        assert!(c.build.is_empty());
        let c = near.retarget(&g, &[[-5.0, 10.0]], 10.0);
        assert_eq!(c.build, vec![0]);
    }

    #[test]
    fn partial_chunks_are_measured_by_their_own_rectangle() {
        // 100 cells, 32-cell chunks: the last chunk spans 96..100.
        let g = Grid::new([100.0, 100.0], [100, 100], 32).unwrap();
        let mut near = NearChunks::default();
        // 10 m from chunk 15's edge; chunk 11 (z 64..96) is 10.44 m away.
        let c = near.retarget(&g, &[[110.0, 99.0]], 10.2);
        assert_eq!(c.build, vec![15]);
        let c = near.retarget(&g, &[[112.0, 99.0]], 10.2);
        assert!(c.build.is_empty() && c.release.is_empty());
    }
}
