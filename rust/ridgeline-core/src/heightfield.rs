//! The prepared surface: heights, holes and per-chunk bounds; smooth vertex normals are derived
//! from the heights on demand.

use crate::error::{Diagnostics, Error, Result};
use crate::grid::{Grid, HoleMask};
use glam::Vec3;
use rayon::prelude::*;

/// Cells per side of the blocks whose height bounds let ray casts skip empty space.
pub const BLOCK: u32 = 8;

/// Largest absolute height of any sample, in world units (10 000 km): every heightfield —
/// generated, imported, edited or loaded from a payload — keeps its heights within
/// `±MAX_HEIGHT`, so differences, normals and ray casts stay finite in `f32`. Listed in
/// `docs/limits.md`.
pub const MAX_HEIGHT: f32 = 1.0e7;

/// True when `h` is finite and within `±MAX_HEIGHT`.
#[inline]
pub fn height_in_range(h: f32) -> bool {
    h.abs() <= MAX_HEIGHT
}

/// The message for a height outside `±MAX_HEIGHT` (or not finite), or `None` when it is fine.
pub fn height_problem(h: f32) -> Option<String> {
    if !h.is_finite() {
        Some(format!("height must be finite, got {h}"))
    } else if h.abs() > MAX_HEIGHT {
        Some(format!("height must be within ±{MAX_HEIGHT}, got {h}"))
    } else {
        None
    }
}

/// Heights on a [`Grid`] with everything queries and meshing need.
///
/// Vertex normals come from central differences of the whole field (one-sided at the terrain
/// border), so they are identical on both sides of a chunk seam. They are computed from the
/// heights when asked for ([`Heightfield::vertex_normal`]: four height reads), not stored — the
/// surface holds 4 bytes per sample, and edits have no normals to refresh. The GPU path's vertex
/// shader derives the same normals from its height texture.
#[derive(Clone, Debug)]
pub struct Heightfield {
    grid: Grid,
    heights: Vec<f32>,
    holes: HoleMask,
    /// (min, max) height per chunk, row-major over chunks, ignoring nothing (holes included:
    /// bounds are conservative).
    chunk_bounds: Vec<[f32; 2]>,
    /// (min, max) height per block of `BLOCK × BLOCK` cells (ray casts skip whole blocks).
    block_bounds: Vec<[f32; 2]>,
    min_height: f32,
    max_height: f32,
}

impl Heightfield {
    /// Builds a heightfield. Heights must be finite, within ±[`MAX_HEIGHT`], and match the
    /// grid's sample count; no chunk may be all holes; the hole
    /// mask (if any) must match its cell counts.
    pub fn new(grid: Grid, heights: Vec<f32>, holes: Option<HoleMask>) -> Result<Self> {
        let mut d = Diagnostics::default();
        if heights.len() != grid.sample_count() {
            let [w, h] = grid.samples();
            d.push(
                "heights",
                format!(
                    "expected {w} × {h} = {} samples, got {}",
                    w * h,
                    heights.len()
                ),
            );
        } else if let Some(i) =
            heights
                .par_chunks(1 << 16)
                .enumerate()
                .find_map_first(|(k, block)| {
                    let at = block.iter().position(|&h| !height_in_range(h))?;
                    Some(k * (1 << 16) + at)
                })
        {
            d.push(
                format!("heights[{i}]"),
                height_problem(heights[i]).unwrap_or_default(),
            );
        }
        let [cx, cz] = grid.cells();
        let holes = holes.unwrap_or_else(|| HoleMask::new(cx as usize, cz as usize));
        if holes.cells() != [cx as usize, cz as usize] {
            d.push(
                "holes",
                format!(
                    "hole mask covers {:?} cells but the grid has {cx} × {cz}",
                    holes.cells()
                ),
            );
        } else if holes.count() != 0 {
            // A chunk that is all holes would have no surface, mesh or collision at all.
            let [nx, nz] = grid.chunks();
            'chunks: for czi in 0..nz {
                for cxi in 0..nx {
                    let r = grid.chunk_cells_range(cxi, czi);
                    let (x0, z0, x1, z1) =
                        (r.x0 as usize, r.z0 as usize, r.x1 as usize, r.z1 as usize);
                    let cells = (x1 - x0) * (z1 - z0);
                    let solid = (z0..z1).any(|z| (x0..x1).any(|x| !holes.is_hole(x, z)));
                    if cells > 0 && !solid {
                        d.push(
                            "holes",
                            format!(
                                "chunk ({cxi}, {czi}) is all holes; every chunk must keep at least one solid cell"
                            ),
                        );
                        break 'chunks;
                    }
                }
            }
        }
        d.into_result()?;
        let mut field = Self {
            grid,
            heights,
            holes,
            chunk_bounds: Vec::new(),
            block_bounds: Vec::new(),
            min_height: 0.0,
            max_height: 0.0,
        };
        field.recompute_bounds();
        Ok(field)
    }

    /// A flat heightfield at `height`.
    pub fn flat(grid: Grid, height: f32) -> Result<Self> {
        Self::new(grid, vec![height; grid.sample_count()], None)
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
    /// Bytes the surface holds on the heap (heights, holes, bounds).
    pub fn heap_bytes(&self) -> usize {
        self.heights.len() * 4
            + self.holes.heap_bytes()
            + (self.chunk_bounds.len() + self.block_bounds.len()) * 8
    }

    /// Heights, row-major with Z outer.
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }
    /// The hole mask.
    pub fn holes(&self) -> &HoleMask {
        &self.holes
    }
    /// Height of sample (x, z).
    #[inline]
    pub fn sample(&self, x: usize, z: usize) -> f32 {
        self.heights[self.grid.index(x, z)]
    }
    /// Smooth vertex normal of sample (x, z): central differences of its neighbours' heights
    /// (one-sided at the border), computed on each call.
    #[inline]
    pub fn vertex_normal(&self, x: usize, z: usize) -> Vec3 {
        let [w, h] = self.grid.samples();
        let [dx, dz] = self.grid.spacing();
        central_normal(&self.heights, w, h, dx, dz, x, z)
    }
    /// Lowest and highest height of the whole field.
    pub fn height_range(&self) -> [f32; 2] {
        [self.min_height, self.max_height]
    }
    /// (min, max) height over the samples of chunk (cx, cz).
    pub fn chunk_bounds(&self, cx: u32, cz: u32) -> [f32; 2] {
        let [nx, _] = self.grid.chunks();
        self.chunk_bounds[(cz * nx + cx) as usize]
    }
    /// Blocks along X and Z (`BLOCK` cells each; the last may be partial).
    pub fn blocks(&self) -> [u32; 2] {
        let [cx, cz] = self.grid.cells();
        [cx.div_ceil(BLOCK), cz.div_ceil(BLOCK)]
    }
    /// (min, max) height over the samples of block (bx, bz).
    #[inline]
    pub fn block_bounds(&self, bx: u32, bz: u32) -> [f32; 2] {
        let [nx, _] = self.blocks();
        self.block_bounds[(bz * nx + bx) as usize]
    }
    /// Bytes held by heights, hole mask and chunk/block bounds.
    pub fn memory_bytes(&self) -> usize {
        self.heights.len() * 4
            + self.holes.memory_bytes()
            + self.chunk_bounds.len() * 8
            + self.block_bounds.len() * 8
    }

    /// Replaces the heights of the sample rectangle `[x0, x1) × [z0, z1)` from `values`
    /// (row-major over the rectangle), then refreshes the chunk bounds (normals follow, being
    /// derived). Values must be finite and within ±[`MAX_HEIGHT`].
    pub fn write_region(
        &mut self,
        x0: usize,
        z0: usize,
        x1: usize,
        z1: usize,
        values: &[f32],
    ) -> Result<()> {
        let [w, h] = self.grid.samples();
        if x1 > w || z1 > h || x0 >= x1 || z0 >= z1 || values.len() != (x1 - x0) * (z1 - z0) {
            return Err(Error::invalid(
                "region",
                format!(
                    "rectangle [{x0},{x1})×[{z0},{z1}) does not fit the {w}×{h} grid or the value count"
                ),
            ));
        }
        if let Some(i) = values.iter().position(|&v| !height_in_range(v)) {
            return Err(Error::invalid(
                format!("values[{i}]"),
                height_problem(values[i]).unwrap_or_default(),
            ));
        }
        for z in z0..z1 {
            let row = self.grid.index(x0, z);
            self.heights[row..row + (x1 - x0)]
                .copy_from_slice(&values[(z - z0) * (x1 - x0)..(z - z0 + 1) * (x1 - x0)]);
        }
        self.recompute_bounds_in(x0, z0, x1, z1);
        Ok(())
    }

    /// Sets the hole flags of the cell rectangle `[x0, x1) × [z0, z1)` from `holes` (row-major
    /// over the rectangle). Refused, changing nothing, when the rectangle does not fit or when
    /// a chunk would be left without a solid cell (a chunk needs a surface, mesh and
    /// collision); the error names the chunk. Heights, normals and bounds are unaffected.
    pub fn write_holes(
        &mut self,
        x0: usize,
        z0: usize,
        x1: usize,
        z1: usize,
        holes: &[bool],
    ) -> Result<()> {
        let [cx, cz] = self.grid.cells().map(|c| c as usize);
        if x1 > cx || z1 > cz || x0 >= x1 || z0 >= z1 || holes.len() != (x1 - x0) * (z1 - z0) {
            return Err(Error::invalid(
                "holes",
                format!(
                    "cell rectangle [{x0},{x1})×[{z0},{z1}) does not fit the {cx}×{cz} cells or the value count"
                ),
            ));
        }
        if let Some([cxi, czi]) = self.all_hole_chunk(x0, z0, x1, z1, holes) {
            return Err(Error::invalid(
                "holes",
                format!(
                    "would cut every cell of chunk ({cxi}, {czi}); every chunk must keep at least one solid cell"
                ),
            ));
        }
        for z in z0..z1 {
            for x in x0..x1 {
                self.holes.set(x, z, holes[(z - z0) * (x1 - x0) + (x - x0)]);
            }
        }
        Ok(())
    }

    /// The first chunk that `holes` over the (fitting) cell rectangle `[x0, x1) × [z0, z1)`
    /// would leave without a solid cell, the other cells as they are; `None` when every chunk
    /// keeps one (what [`Heightfield::write_holes`] requires).
    pub fn all_hole_chunk(
        &self,
        x0: usize,
        z0: usize,
        x1: usize,
        z1: usize,
        holes: &[bool],
    ) -> Option<[u32; 2]> {
        if x0 >= x1 || z0 >= z1 || holes.len() != (x1 - x0) * (z1 - z0) {
            return None;
        }
        let at = |x: usize, z: usize| {
            if (x0..x1).contains(&x) && (z0..z1).contains(&z) {
                holes[(z - z0) * (x1 - x0) + (x - x0)]
            } else {
                self.holes.is_hole(x, z)
            }
        };
        let cc = self.grid.chunk_cells() as usize;
        for czi in z0 / cc..=(z1 - 1) / cc {
            for cxi in x0 / cc..=(x1 - 1) / cc {
                let r = self.grid.chunk_cells_range(cxi as u32, czi as u32);
                let (ax, az, bx, bz) = (r.x0 as usize, r.z0 as usize, r.x1 as usize, r.z1 as usize);
                if !(az..bz).any(|z| (ax..bx).any(|x| !at(x, z))) {
                    return Some([cxi as u32, czi as u32]);
                }
            }
        }
        None
    }

    /// Recomputes block and chunk bounds that contain any sample of `[x0, x1) × [z0, z1)`,
    /// then the overall range.
    fn recompute_bounds_in(&mut self, x0: usize, z0: usize, x1: usize, z1: usize) {
        let grid = self.grid;
        let [cx, cz] = grid.cells();
        let heights = &self.heights;
        let range_bounds = |ax, az, bx, bz| sample_bounds(&grid, heights, ax, az, bx, bz);
        // Cells touching samples x0..x1 are x0-1 ..= x1-1 (a sample is a corner of up to four).
        let cell_lo = |s: usize| s.saturating_sub(1) as u32;
        let cell_hi = |s: usize, n: u32| (s as u32).min(n).saturating_sub(1);
        let (ax, az, bx, bz) = (cell_lo(x0), cell_lo(z0), cell_hi(x1, cx), cell_hi(z1, cz));
        let [bnx, _] = self.blocks();
        let b = BLOCK;
        for bzi in az / b..=bz / b {
            for bxi in ax / b..=bx / b {
                let (sx, sz) = (bxi * b, bzi * b);
                let (ex, ez) = ((sx + b).min(cx), (sz + b).min(cz));
                self.block_bounds[(bzi * bnx + bxi) as usize] = range_bounds(sx, sz, ex, ez);
            }
        }
        let [nx, _] = grid.chunks();
        let cc = grid.chunk_cells();
        for czi in az / cc..=bz / cc {
            for cxi in ax / cc..=bx / cc {
                let r = grid.chunk_cells_range(cxi, czi);
                self.chunk_bounds[(czi * nx + cxi) as usize] = if cc.is_multiple_of(b) {
                    // The chunk's blocks cover exactly its samples: the same min and max.
                    let mut out = [f32::INFINITY, f32::NEG_INFINITY];
                    for bzi in r.z0 / b..r.z1.div_ceil(b) {
                        for bxi in r.x0 / b..r.x1.div_ceil(b) {
                            let v = self.block_bounds[(bzi * bnx + bxi) as usize];
                            out = [out[0].min(v[0]), out[1].max(v[1])];
                        }
                    }
                    out
                } else {
                    range_bounds(r.x0, r.z0, r.x1, r.z1)
                };
            }
        }
        self.refresh_range();
    }

    /// The overall height range from the chunk bounds.
    fn refresh_range(&mut self) {
        self.min_height = self
            .chunk_bounds
            .iter()
            .map(|b| b[0])
            .fold(f32::INFINITY, f32::min);
        self.max_height = self
            .chunk_bounds
            .iter()
            .map(|b| b[1])
            .fold(f32::NEG_INFINITY, f32::max);
    }

    fn recompute_bounds(&mut self) {
        let [bnx, bnz] = self.blocks();
        let [cx, cz] = self.grid.cells();
        let grid = self.grid;
        let heights = &self.heights;
        self.block_bounds = (0..bnz * bnx)
            .into_par_iter()
            .map(|i| {
                let (x0, z0) = ((i % bnx) * BLOCK, (i / bnx) * BLOCK);
                let (x1, z1) = ((x0 + BLOCK).min(cx), (z0 + BLOCK).min(cz));
                sample_bounds(&grid, heights, x0, z0, x1, z1)
            })
            .collect();
        let [nx, nz] = self.grid.chunks();
        self.chunk_bounds = (0..nz * nx)
            .into_par_iter()
            .map(|i| {
                let r = grid.chunk_cells_range(i % nx, i / nx);
                sample_bounds(&grid, heights, r.x0, r.z0, r.x1, r.z1)
            })
            .collect();
        self.refresh_range();
    }
}

/// (min, max) of the samples `[ax, bx] × [az, bz]` (inclusive).
fn sample_bounds(grid: &Grid, heights: &[f32], ax: u32, az: u32, bx: u32, bz: u32) -> [f32; 2] {
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    for z in az..=bz {
        let row = grid.index(ax as usize, z as usize);
        for &v in &heights[row..=row + (bx - ax) as usize] {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    [lo, hi]
}

/// Central-difference normal at sample (x, z); one-sided at the border.
#[inline]
pub(crate) fn central_normal(
    heights: &[f32],
    w: usize,
    h: usize,
    dx: f32,
    dz: f32,
    x: usize,
    z: usize,
) -> Vec3 {
    let at = |x: usize, z: usize| heights[z * w + x];
    let (xl, xr) = (x.saturating_sub(1), (x + 1).min(w - 1));
    let (zl, zr) = (z.saturating_sub(1), (z + 1).min(h - 1));
    let gx = (at(xr, z) - at(xl, z)) / ((xr - xl) as f32 * dx);
    let gz = (at(x, zr) - at(x, zl)) / ((zr - zl) as f32 * dz);
    surface_normal(gx, gz)
}

/// The unit normal `(-gx, 1, -gz)` normalised of a surface with gradient (gx, gz), for any
/// gradient: steep slopes (whose squares overflow `f32`) give a near-horizontal unit normal,
/// never zero or NaN (an infinite or NaN gradient gives straight up).
#[inline]
pub fn surface_normal(gx: f32, gz: f32) -> Vec3 {
    let n = Vec3::new(-gx, 1.0, -gz);
    let len2 = n.length_squared();
    if len2.is_finite() {
        return n * len2.sqrt().recip();
    }
    if !gx.is_finite() || !gz.is_finite() {
        return Vec3::Y;
    }
    // Scale by the largest component first so the squares cannot overflow.
    let m = gx.abs().max(gz.abs());
    let s = n / m;
    s / s.length()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_non_finite_and_wrong_lengths() {
        let g = Grid::new([4.0, 4.0], [2, 2], 2).unwrap();
        let mut h = vec![0.0; 9];
        h[4] = f32::INFINITY;
        let e = Heightfield::new(g, h, None).unwrap_err();
        assert_eq!(e.diagnostics()[0].path, "heights[4]");
        let e = Heightfield::new(g, vec![0.0; 8], None).unwrap_err();
        assert!(e.to_string().contains("expected 3 × 3 = 9 samples, got 8"));
    }

    #[test]
    fn heights_beyond_the_height_bound_are_refused() {
        let g = Grid::new([4.0, 4.0], [2, 2], 2).unwrap();
        let mut h = vec![0.0; 9];
        h[7] = 1.0e20;
        let e = Heightfield::new(g, h.clone(), None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("heights[7]: height must be within ±10000000"),
            "{e}"
        );
        h[7] = -MAX_HEIGHT;
        assert!(Heightfield::new(g, h, None).is_ok());
        let mut f = Heightfield::flat(g, 0.0).unwrap();
        assert!(f.write_region(0, 0, 1, 1, &[2.0e7]).is_err());
    }

    #[test]
    fn normals_stay_unit_length_for_any_gradient() {
        for (gx, gz) in [
            (0.0, 0.0),
            (1e20, 0.0),
            (-1e20, 3e19),
            (f32::MAX, f32::MAX),
            (1e-30, -1e-30),
            (f32::INFINITY, 0.0),
            (f32::NAN, 1.0),
        ] {
            let n = surface_normal(gx, gz);
            assert!(
                n.is_finite() && (n.length() - 1.0).abs() < 1e-5,
                "{gx} {gz}: {n}"
            );
        }
        assert!(surface_normal(1e20, 0.0).x < -0.999);
        // Plain normalisation loses such a normal (the square overflows to a zero vector): the
        // panic `get_normal` hit on a payload with 1e20 heights.
        assert!(Vec3::new(-1e20, 1.0, 0.0).normalize().length() < 0.5);
    }

    #[test]
    fn normals_of_a_plane_are_its_normal_everywhere() {
        let g = Grid::new([10.0, 20.0], [10, 10], 4).unwrap();
        let mut h = Vec::new();
        for z in 0..11 {
            for x in 0..11 {
                h.push(0.5 * x as f32 * 1.0 + 0.25 * z as f32 * 2.0);
            }
        }
        let f = Heightfield::new(g, h, None).unwrap();
        let expect = Vec3::new(-0.5, 1.0, -0.25).normalize();
        for z in 0..11 {
            for x in 0..11 {
                assert!(f.vertex_normal(x, z).angle_between(expect) < 1e-3);
            }
        }
        assert_eq!(f.height_range(), [0.0, 10.0]);
    }

    #[test]
    fn write_region_refreshes_normals_and_bounds() {
        let g = Grid::new([8.0, 8.0], [8, 8], 4).unwrap();
        let mut f = Heightfield::flat(g, 0.0).unwrap();
        f.write_region(2, 2, 3, 3, &[5.0]).unwrap();
        assert_eq!(f.sample(2, 2), 5.0);
        assert_eq!(f.chunk_bounds(0, 0), [0.0, 5.0]);
        assert_eq!(f.chunk_bounds(1, 1), [0.0, 0.0]);
        assert!(f.vertex_normal(1, 2).x < -0.5);
        // Normals are derived: both sides of the new peak lean away from it at once.
        assert!(f.vertex_normal(3, 2).x > 0.5);
        assert_eq!(f.vertex_normal(6, 6), Vec3::Y);
        assert!(f.write_region(0, 0, 1, 1, &[f32::NAN]).is_err());
    }

    #[test]
    fn local_bounds_updates_match_a_fresh_build() {
        // Chunks of whole blocks (bounds from the blocks) and of partial ones (from samples).
        for (chunk, seed) in [(16, 4), (12, 5)] {
            local_bounds_case(chunk, seed);
        }
    }

    fn local_bounds_case(chunk: u32, seed: u64) {
        let g = Grid::new([50.0, 37.0], [50, 37], chunk).unwrap();
        let mut f = Heightfield::flat(g, 0.0).unwrap();
        let mut rng = fastrand::Rng::with_seed(seed);
        for _ in 0..200 {
            let (x0, z0) = (rng.usize(0..51), rng.usize(0..38));
            let (x1, z1) = (rng.usize(x0 + 1..=51), rng.usize(z0 + 1..=38));
            let values: Vec<f32> = (0..(x1 - x0) * (z1 - z0))
                .map(|_| rng.f32() * 20.0 - 10.0)
                .collect();
            f.write_region(x0, z0, x1, z1, &values).unwrap();
            let fresh = Heightfield::new(g, f.heights().to_vec(), None).unwrap();
            assert_eq!(fresh.block_bounds, f.block_bounds);
            assert_eq!(fresh.chunk_bounds, f.chunk_bounds);
            assert_eq!(fresh.height_range(), f.height_range());
        }
    }
}
