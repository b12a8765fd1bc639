//! The water level grid: per grid sample around the water, the water surface, the ground and
//! which body answers, so a renderer can tell with the arithmetic of [`WaterSet::point`] whether
//! a point (a camera) is under water — interpolate surface and ground on the terrain triangle
//! under the point; it is wet where surface > ground and under water below the surface.
//!
//! A sample's surface is the one the query interpolates at that corner: a body's own surface
//! where it owns the sample, the surface a dry corner takes next to the body
//! ([`WaterSet::corner_surface`]) where a cell the sample belongs to is owned, otherwise ground
//! plus painted depth. Exact wherever each cell has one source of water; where two bodies, or a
//! body and painted water, meet inside one cell the grid takes the sample's first source.

use super::WaterSet;
use crate::Heightfield;

/// Body slot of a sample with no water near it ([`LevelGrid::texels`]).
pub const SLOT_DRY: f32 = -1.0;
/// Body slot of painted water (the default appearance).
pub const SLOT_PAINTED: f32 = 0.0;

/// Surface, ground and body slot per sample over the bounding rectangle of the samples that
/// touch water (see the module docs); empty (`size == [0, 0]`) without water.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelGrid {
    /// First covered sample (x, z).
    pub origin: [usize; 2],
    /// Covered samples along X and Z (each ≥ 2 when not empty).
    pub size: [usize; 2],
    /// Per covered sample, row-major with Z outer: `[surface, ground, slot, 0]`. The slot is
    /// [`SLOT_DRY`], [`SLOT_PAINTED`], or body index + 1 (index into [`WaterSet::bodies`]).
    pub texels: Vec<[f32; 4]>,
}

impl LevelGrid {
    /// True when no sample touches water.
    pub fn is_empty(&self) -> bool {
        self.texels.is_empty()
    }

    /// The texel of sample (x, z) (whole-grid coordinates), or `None` outside the rectangle
    /// (dry).
    pub fn texel(&self, x: usize, z: usize) -> Option<[f32; 4]> {
        let (lx, lz) = (
            x.checked_sub(self.origin[0])?,
            z.checked_sub(self.origin[1])?,
        );
        if lx >= self.size[0] || lz >= self.size[1] {
            return None;
        }
        self.texels.get(lz * self.size[0] + lx).copied()
    }

    /// Follows an edit: recomputes the texels of the samples in `samples` (x0, z0, x1, z1,
    /// half-open; every sample whose water or ground the edit can have changed, e.g.
    /// [`super::surface_tiles::TilesUpdate::samples`]) from the edited `water` over `ground`.
    /// Returns false, leaving the grid to be rebuilt with [`WaterSet::level_grid`], when water
    /// now reaches a sample outside the covered rectangle (it would have to grow) or the grid
    /// is empty. A rectangle that could shrink keeps its size (its dry texels stay dry).
    pub fn update(&mut self, water: &WaterSet, ground: &Heightfield, samples: [usize; 4]) -> bool {
        if self.is_empty() {
            return false;
        }
        let [w, h] = water.grid.samples();
        let [x0, z0, x1, z1] = samples;
        let (x1, z1) = (x1.min(w), z1.min(h));
        for z in z0..z1 {
            for x in x0..x1 {
                let t = water.texel_of(ground, x, z);
                let (lx, lz) = (
                    x.wrapping_sub(self.origin[0]),
                    z.wrapping_sub(self.origin[1]),
                );
                if lx < self.size[0] && lz < self.size[1] {
                    self.texels[lz * self.size[0] + lx] = t;
                } else if t[2] != SLOT_DRY {
                    return false;
                }
            }
        }
        true
    }

    /// What a renderer computes at terrain-local (x, z) on `ground`'s grid: the body slot and
    /// the water surface when wet (surface above ground on the triangle), else `None`. The
    /// slot is the first non-dry corner's, in the query's corner order.
    pub fn water_at(&self, ground: &Heightfield, x: f32, z: f32) -> Option<(f32, f32)> {
        let (ix, iz, u, v) = ground.grid().locate(x, z)?;
        let corners = [(ix, iz), (ix + 1, iz), (ix, iz + 1), (ix + 1, iz + 1)];
        let t = corners.map(|(cx, cz)| self.texel(cx, cz));
        let slot = t.iter().flatten().map(|t| t[2]).find(|&s| s != SLOT_DRY)?;
        let at = |k: usize| t.map(|t| t.map_or(0.0, |t| t[k]));
        let surface = triangle(at(0), u, v);
        let g = triangle(at(1), u, v);
        (surface > g).then_some((slot, surface))
    }
}

/// The value at (u, v) of the terrain triangle through corner values `s` (corner order (x, z),
/// (x+1, z), (x, z+1), (x+1, z+1)).
fn triangle(s: [f32; 4], u: f32, v: f32) -> f32 {
    if u + v <= 1.0 {
        s[0] + u * (s[1] - s[0]) + v * (s[2] - s[0])
    } else {
        s[3] + (1.0 - u) * (s[2] - s[3]) + (1.0 - v) * (s[1] - s[3])
    }
}

impl WaterSet {
    /// The level grid of this water over `ground` (see [`LevelGrid`]).
    pub fn level_grid(&self, ground: &Heightfield) -> LevelGrid {
        let [w, h] = self.grid.samples();
        let mut texels = vec![[0.0f32, 0.0, SLOT_DRY, 0.0]; w * h];
        let (mut x0, mut z0, mut x1, mut z1) = (usize::MAX, usize::MAX, 0usize, 0usize);
        for z in 0..h {
            for x in 0..w {
                let i = z * w + x;
                texels[i] = self.texel_of(ground, x, z);
                if texels[i][2] != SLOT_DRY {
                    (x0, z0, x1, z1) = (x0.min(x), z0.min(z), x1.max(x), z1.max(z));
                }
            }
        }
        if x0 == usize::MAX {
            return LevelGrid {
                origin: [0, 0],
                size: [0, 0],
                texels: Vec::new(),
            };
        }
        // At least one whole cell, so a renderer always has four corners.
        let (x1, z1) = (x1.max(x0 + 1).min(w - 1), z1.max(z0 + 1).min(h - 1));
        let (x0, z0) = (x0.min(x1 - 1), z0.min(z1 - 1));
        let size = [x1 - x0 + 1, z1 - z0 + 1];
        let mut out = Vec::with_capacity(size[0] * size[1]);
        for z in z0..=z1 {
            out.extend_from_slice(&texels[z * w + x0..=z * w + x1]);
        }
        LevelGrid {
            origin: [x0, z0],
            size,
            texels: out,
        }
    }

    /// The texel of sample (x, z) over `ground`: `[surface, ground, slot, 0]`.
    fn texel_of(&self, ground: &Heightfield, x: usize, z: usize) -> [f32; 4] {
        let g = ground.sample(x, z);
        let (surface, slot) = self.sample_source(x, z, g);
        [surface, g, slot, 0.0]
    }

    /// Surface and slot of sample (x, z) with ground `g` (see the module docs).
    fn sample_source(&self, x: usize, z: usize, g: f32) -> (f32, f32) {
        let [w, h] = self.grid.samples();
        let i = z * w + x;
        let own = self.owner_at(i);
        if own != 0 {
            return (self.surface[i], own as f32);
        }
        // The cells this sample is a corner of, by their lowest corner.
        let cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
            .map(|(dx, dz)| (x.checked_sub(dx), z.checked_sub(dz)))
            .into_iter()
            .filter_map(|(cx, cz)| Some((cx?, cz?)))
            .filter(|&(cx, cz)| cx + 1 < w && cz + 1 < h);
        let mut painted_near = false;
        for (cx, cz) in cells {
            let body = self.cell_owner(cx, cz);
            if body != 0 {
                return (self.corner_surface(body, x, z), body as f32);
            }
            painted_near |= [(cx, cz), (cx + 1, cz), (cx, cz + 1), (cx + 1, cz + 1)]
                .iter()
                .any(|&(px, pz)| self.painted_at(pz * w + px) > 0.0);
        }
        if painted_near {
            (g + self.painted_at(i), SLOT_PAINTED)
        } else {
            (g, SLOT_DRY)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::WaterBody;
    use super::*;
    use crate::grid::{Field, Grid};

    fn setup(
        n: usize,
        f: impl Fn(f32, f32) -> f32,
        level: f32,
    ) -> (Heightfield, Field<f32>, WaterSet) {
        let g = Grid::new(
            [(n - 1) as f32 * 2.0, (n - 1) as f32 * 2.0],
            [(n - 1) as u32, (n - 1) as u32],
            16,
        )
        .unwrap();
        let heights: Vec<f32> = (0..n * n)
            .map(|i| f((i % n) as f32 * 2.0, (i / n) as f32 * 2.0))
            .collect();
        let field = Field::from_vec(n, n, heights.clone()).unwrap();
        let hf = Heightfield::new(g, heights, None).unwrap();
        let mut set = WaterSet::empty(g);
        set.add(
            WaterBody::still_lake("pond", level, [20.0, 20.0], 100.0),
            &field,
        );
        (hf, field, set)
    }

    fn bowl(x: f32, z: f32) -> f32 {
        ((x - 20.0).powi(2) + (z - 20.0).powi(2)).sqrt() * 0.3
    }

    /// The grid answers like the water query at every probed point: wet or dry, the same
    /// surface, the same body.
    fn assert_agrees(hf: &Heightfield, set: &WaterSet, grid: &LevelGrid, extent: f32) {
        let mut wet = 0;
        for k in 0..4000u32 {
            let x = (k % 64) as f32 / 63.0 * extent + (k / 64) as f32 * 0.0137;
            let z = (k / 64) as f32 / 62.0 * extent;
            let (x, z) = (x.min(extent), z.min(extent));
            let q = set.point(hf, x, z);
            let r = grid.water_at(hf, x, z);
            assert_eq!(q.is_some(), r.is_some(), "at ({x}, {z}): {q:?} vs {r:?}");
            if let (Some(q), Some((slot, surface))) = (q, r) {
                wet += 1;
                assert!((q.surface - surface).abs() < 1e-4, "at ({x}, {z})");
                let expect = if q.body == super::super::PAINTED_BODY {
                    SLOT_PAINTED
                } else {
                    q.body as f32 + 1.0
                };
                assert_eq!(slot, expect, "at ({x}, {z})");
            }
        }
        assert!(wet > 100, "the probes found water ({wet})");
    }

    #[test]
    fn a_lake_level_grid_agrees_with_the_water_query() {
        let (hf, _, set) = setup(21, bowl, 3.0);
        let grid = set.level_grid(&hf);
        assert!(!grid.is_empty());
        assert!(
            grid.size[0] < 21 && grid.size[1] < 21,
            "only around the lake"
        );
        assert_agrees(&hf, &set, &grid, 40.0);
    }

    #[test]
    fn painted_water_level_grid_agrees_with_the_water_query() {
        let (hf, _, mut set) = setup(21, bowl, -10.0); // the lake is dry
        let depths: Vec<f32> = (0..21 * 21)
            .map(|i| {
                let (x, z) = ((i % 21) as f32 * 2.0, (i / 21) as f32 * 2.0);
                (2.0 - bowl(x, z)).max(0.0) * 1.5
            })
            .collect();
        set.set_painted(depths);
        let grid = set.level_grid(&hf);
        assert!(!grid.is_empty());
        assert_agrees(&hf, &set, &grid, 40.0);
        // Within the painted pond: the surface is ground + painted depth, slot painted.
        let (slot, surface) = grid.water_at(&hf, 20.0, 20.0).unwrap();
        assert_eq!(slot, SLOT_PAINTED);
        assert!((surface - 3.0).abs() < 1e-5, "{surface}");
    }

    #[test]
    fn no_water_gives_an_empty_grid() {
        let (hf, _, set) = setup(11, |_, _| 5.0, 1.0);
        let grid = set.level_grid(&hf);
        assert!(grid.is_empty());
        assert_eq!(grid.water_at(&hf, 3.0, 3.0), None);
        assert_eq!(grid.texel(0, 0), None);
    }
}
