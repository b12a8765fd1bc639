//! The sample grid every part of Ridgeline shares.
//!
//! Terrain-local X and Z run from 0 to `size`; Y is up. A grid of `cells_x × cells_z` cells has
//! `(cells_x + 1) × (cells_z + 1)` samples stored row-major with Z outer:
//! `index = z * (cells_x + 1) + x`.
//!
//! Each quad splits along the diagonal from `(x+1, z)` to `(x, z+1)` into the triangles
//! `(x,z) (x+1,z) (x,z+1)` ("lower", `u + v <= 1`) and `(x+1,z) (x+1,z+1) (x,z+1)` ("upper").
//! This is Godot's `HeightMapShape3D` triangulation, so meshes, queries and physics agree.
//!
//! Chunks are square blocks of `chunk_cells` cells starting at the origin. `chunk_cells` need not
//! divide the cell counts: the last chunk of a row or column is then partial (narrower).

use crate::error::{Diagnostics, Error, Result};

/// Largest number of cells along one axis (8192 cells = 8193 samples, 268 MB of f32 heights).
pub const MAX_CELLS_PER_AXIS: u32 = 8192;
/// Smallest and largest chunk size in cells.
pub const CHUNK_CELLS_RANGE: std::ops::RangeInclusive<u32> = 2..=1024;
/// Most chunks along one axis (each chunk is a mesh, a collision shape and a draw call: 8192
/// cells in chunks of 2 would be 16.7 million of them).
pub const MAX_CHUNKS_PER_AXIS: u32 = 512;

/// Geometry of a terrain grid: world size, cell counts and chunking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    size_x: f32,
    size_z: f32,
    cells_x: u32,
    cells_z: u32,
    chunk_cells: u32,
    spacing_x: f32,
    spacing_z: f32,
    inv_spacing_x: f32,
    inv_spacing_z: f32,
}

impl Grid {
    /// Creates a grid after validating every argument. `size` is in world units (metres),
    /// `cells` the number of cells per axis (at least 1, so at least 2 samples per axis).
    pub fn new(size: [f32; 2], cells: [u32; 2], chunk_cells: u32) -> Result<Self> {
        let mut d = Diagnostics::default();
        for (i, axis) in ["x", "z"].iter().enumerate() {
            if !size[i].is_finite() || size[i] <= 0.0 {
                d.push(
                    format!("size.{axis}"),
                    format!("must be a finite number > 0, got {}", size[i]),
                );
            } else if size[i] > 1.0e6 {
                d.push(
                    format!("size.{axis}"),
                    format!("must be at most 1000000 world units, got {}", size[i]),
                );
            }
            if cells[i] < 1 || cells[i] > MAX_CELLS_PER_AXIS {
                d.push(
                    format!("resolution.{axis}"),
                    format!(
                        "must be 1..={MAX_CELLS_PER_AXIS} cells (2..={} samples), got {}",
                        MAX_CELLS_PER_AXIS + 1,
                        cells[i]
                    ),
                );
            }
        }
        if !CHUNK_CELLS_RANGE.contains(&chunk_cells) {
            d.push(
                "chunk_cells",
                format!(
                    "must be {}..={}, got {chunk_cells}",
                    CHUNK_CELLS_RANGE.start(),
                    CHUNK_CELLS_RANGE.end()
                ),
            );
        } else if let Some((axis, n)) = ["x", "z"]
            .iter()
            .zip(cells)
            .find(|(_, n)| n.div_ceil(chunk_cells) > MAX_CHUNKS_PER_AXIS)
        {
            d.push(
                "chunk_cells",
                format!(
                    "{chunk_cells} cells per chunk make {} chunks along {axis} ({n} cells); at \
                     most {MAX_CHUNKS_PER_AXIS}: use at least {} cells per chunk",
                    n.div_ceil(chunk_cells),
                    n.div_ceil(MAX_CHUNKS_PER_AXIS)
                ),
            );
        }
        d.into_result()?;
        Ok(Self {
            size_x: size[0],
            size_z: size[1],
            cells_x: cells[0],
            cells_z: cells[1],
            chunk_cells,
            spacing_x: size[0] / cells[0] as f32,
            spacing_z: size[1] / cells[1] as f32,
            inv_spacing_x: cells[0] as f32 / size[0],
            inv_spacing_z: cells[1] as f32 / size[1],
        })
    }

    /// World size along X and Z.
    pub fn size(&self) -> [f32; 2] {
        [self.size_x, self.size_z]
    }
    /// Cells along X and Z.
    pub fn cells(&self) -> [u32; 2] {
        [self.cells_x, self.cells_z]
    }
    /// Samples along X and Z (cells + 1).
    pub fn samples(&self) -> [usize; 2] {
        [self.cells_x as usize + 1, self.cells_z as usize + 1]
    }
    /// Total number of samples.
    pub fn sample_count(&self) -> usize {
        let [w, h] = self.samples();
        w * h
    }
    /// Total number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells_x as usize * self.cells_z as usize
    }
    /// World units between neighbouring samples along X and Z.
    pub fn spacing(&self) -> [f32; 2] {
        [self.spacing_x, self.spacing_z]
    }
    /// Reciprocal spacing (samples per world unit) along X and Z, as `locate` uses it.
    pub fn inv_spacing(&self) -> [f32; 2] {
        [self.inv_spacing_x, self.inv_spacing_z]
    }
    /// Cells per chunk side.
    pub fn chunk_cells(&self) -> u32 {
        self.chunk_cells
    }
    /// Number of chunks along X and Z (the last may be partial).
    pub fn chunks(&self) -> [u32; 2] {
        [
            self.cells_x.div_ceil(self.chunk_cells),
            self.cells_z.div_ceil(self.chunk_cells),
        ]
    }
    /// Row-major, Z-outer sample index.
    #[inline]
    pub fn index(&self, x: usize, z: usize) -> usize {
        z * (self.cells_x as usize + 1) + x
    }
    /// Row-major cell index.
    #[inline]
    pub fn cell_index(&self, x: usize, z: usize) -> usize {
        z * self.cells_x as usize + x
    }
    /// Terrain-local position of sample (x, z) on the XZ plane.
    #[inline]
    pub fn sample_position(&self, x: usize, z: usize) -> [f32; 2] {
        [x as f32 * self.spacing_x, z as f32 * self.spacing_z]
    }
    /// The cell range `[x0, x1) × [z0, z1)` of chunk (cx, cz).
    pub fn chunk_cells_range(&self, cx: u32, cz: u32) -> ChunkRange {
        let x0 = cx * self.chunk_cells;
        let z0 = cz * self.chunk_cells;
        ChunkRange {
            x0,
            z0,
            x1: (x0 + self.chunk_cells).min(self.cells_x),
            z1: (z0 + self.chunk_cells).min(self.cells_z),
        }
    }
    /// True when (x, z) lies inside the terrain rectangle `[0, size]²` (edges included).
    #[inline(always)]
    pub fn contains(&self, x: f32, z: f32) -> bool {
        x >= 0.0 && x <= self.size_x && z >= 0.0 && z <= self.size_z
    }
    /// The cell containing (x, z) and the position inside it (`u`, `v` in 0..=1), or `None`
    /// outside. Points on the far edges belong to the last cell.
    #[inline(always)]
    pub fn locate(&self, x: f32, z: f32) -> Option<(usize, usize, f32, f32)> {
        self.locate_inner(x, z)
    }

    /// The sample nearest to terrain-local (x, z), or `None` outside.
    pub fn nearest_sample(&self, x: f32, z: f32) -> Option<(usize, usize)> {
        let (ix, iz, u, v) = self.locate_inner(x, z)?;
        Some((ix + usize::from(u >= 0.5), iz + usize::from(v >= 0.5)))
    }

    fn locate_inner(&self, x: f32, z: f32) -> Option<(usize, usize, f32, f32)> {
        if !self.contains(x, z) {
            return None;
        }
        let fx = x * self.inv_spacing_x;
        let fz = z * self.inv_spacing_z;
        let ix = (fx as u32).min(self.cells_x - 1);
        let iz = (fz as u32).min(self.cells_z - 1);
        Some((ix as usize, iz as usize, fx - ix as f32, fz - iz as f32))
    }
}

/// A chunk's cell range `[x0, x1) × [z0, z1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkRange {
    /// First cell along X.
    pub x0: u32,
    /// First cell along Z.
    pub z0: u32,
    /// One past the last cell along X.
    pub x1: u32,
    /// One past the last cell along Z.
    pub z1: u32,
}

impl ChunkRange {
    /// Cells along X.
    pub fn width(&self) -> u32 {
        self.x1 - self.x0
    }
    /// Cells along Z.
    pub fn depth(&self) -> u32 {
        self.z1 - self.z0
    }
}

/// A value per grid sample, row-major with Z outer.
#[derive(Clone, Debug, PartialEq)]
pub struct Field<T> {
    width: usize,
    depth: usize,
    data: Vec<T>,
}

impl<T: Copy> Field<T> {
    /// A field of `width × depth` samples filled with `value`.
    pub fn filled(width: usize, depth: usize, value: T) -> Self {
        Self {
            width,
            depth,
            data: vec![value; width * depth],
        }
    }

    /// Wraps existing data; fails when the length does not match.
    pub fn from_vec(width: usize, depth: usize, data: Vec<T>) -> Result<Self> {
        if data.len() != width * depth {
            return Err(Error::invalid(
                "field",
                format!(
                    "expected {width} × {depth} = {} samples, got {}",
                    width * depth,
                    data.len()
                ),
            ));
        }
        Ok(Self { width, depth, data })
    }

    /// Samples along X.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Samples along Z.
    pub fn depth(&self) -> usize {
        self.depth
    }
    /// The value at (x, z).
    #[inline]
    pub fn get(&self, x: usize, z: usize) -> T {
        self.data[z * self.width + x]
    }
    /// Sets the value at (x, z).
    #[inline]
    pub fn set(&mut self, x: usize, z: usize, value: T) {
        self.data[z * self.width + x] = value;
    }
    /// All values, row-major.
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }
    /// All values, row-major, mutable.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }
    /// Consumes the field, returning its values.
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }
}

/// A 0..1 value per sample (masks: slope, elevation, flow, …).
pub type Mask = Field<f32>;

/// One bit per cell: set = hole (no triangles, no collision, no height).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoleMask {
    cells_x: usize,
    cells_z: usize,
    bits: Vec<u64>,
    count: usize,
}

impl HoleMask {
    /// Bytes the bit set holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.bits.len() * 8
    }

    /// A mask with no holes.
    pub fn new(cells_x: usize, cells_z: usize) -> Self {
        Self {
            cells_x,
            cells_z,
            bits: vec![0; (cells_x * cells_z).div_ceil(64)],
            count: 0,
        }
    }
    /// A mask from one bit per cell, row-major, least significant bit first within each byte
    /// (cell `i` is bit `i % 8` of byte `i / 8`; the cooked payload's layout). Bits past the
    /// last cell are ignored; missing bytes are cells without holes.
    pub fn from_le_bits(cells_x: usize, cells_z: usize, bytes: &[u8]) -> Self {
        let cells = cells_x * cells_z;
        let mut bits: Vec<u64> = (0..cells.div_ceil(64))
            .map(|w| {
                let mut word = [0u8; 8];
                let from = (w * 8).min(bytes.len());
                let to = (w * 8 + 8).min(bytes.len());
                word[..to - from].copy_from_slice(&bytes[from..to]);
                u64::from_le_bytes(word)
            })
            .collect();
        if !cells.is_multiple_of(64)
            && let Some(last) = bits.last_mut()
        {
            *last &= (1u64 << (cells % 64)) - 1;
        }
        let count = bits.iter().map(|w| w.count_ones() as usize).sum();
        Self {
            cells_x,
            cells_z,
            bits,
            count,
        }
    }
    /// The mask as [`Self::from_le_bits`] reads it: one bit per cell, row-major, least
    /// significant bit first, `ceil(cells / 8)` bytes.
    pub fn to_le_bits(&self) -> Vec<u8> {
        let mut bytes: Vec<u8> = self.bits.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.truncate((self.cells_x * self.cells_z).div_ceil(8));
        bytes
    }

    /// Cells along X and Z.
    pub fn cells(&self) -> [usize; 2] {
        [self.cells_x, self.cells_z]
    }
    /// True when cell (x, z) is a hole.
    #[inline]
    pub fn is_hole(&self, x: usize, z: usize) -> bool {
        let i = z * self.cells_x + x;
        self.bits[i >> 6] >> (i & 63) & 1 == 1
    }
    /// Marks or clears a hole.
    pub fn set(&mut self, x: usize, z: usize, hole: bool) {
        let i = z * self.cells_x + x;
        let was = self.bits[i >> 6] >> (i & 63) & 1 == 1;
        if hole {
            self.bits[i >> 6] |= 1 << (i & 63);
        } else {
            self.bits[i >> 6] &= !(1 << (i & 63));
        }
        match (was, hole) {
            (false, true) => self.count += 1,
            (true, false) => self.count -= 1,
            _ => {}
        }
    }
    /// Number of hole cells.
    pub fn count(&self) -> usize {
        self.count
    }
    /// True when any cell in `[x0, x1) × [z0, z1)` is a hole.
    pub fn any_in(&self, x0: usize, z0: usize, x1: usize, z1: usize) -> bool {
        if self.count == 0 {
            return false;
        }
        (z0..z1).any(|z| (x0..x1).any(|x| self.is_hole(x, z)))
    }
    /// Bytes used by the mask.
    pub fn memory_bytes(&self) -> usize {
        self.bits.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_grids_with_every_problem_listed() {
        let err = Grid::new([f32::NAN, -1.0], [0, 9000], 1).unwrap_err();
        let paths: Vec<_> = err.diagnostics().iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "size.x",
                "resolution.x",
                "size.z",
                "resolution.z",
                "chunk_cells"
            ]
        );
    }

    #[test]
    fn the_chunk_count_per_axis_is_bounded() {
        let err = Grid::new([8192.0, 100.0], [8192, 100], 2).unwrap_err();
        assert_eq!(
            err.to_string(),
            "chunk_cells: 2 cells per chunk make 4096 chunks along x (8192 cells); at most 512: \
             use at least 16 cells per chunk"
        );
        assert!(Grid::new([8192.0, 8192.0], [8192, 8192], 16).is_ok());
        assert!(Grid::new([8.0, 8.0], [8, 8], 2).is_ok());
    }

    #[test]
    fn hole_mask_from_le_bits_equals_setting_each_bit() {
        // 13 × 11 cells: 143 bits, the last word partial; stray bits past the last cell and a
        // short byte slice are ignored.
        let (cx, cz) = (13usize, 11usize);
        let mut bytes: Vec<u8> = (0..(cx * cz).div_ceil(8))
            .map(|i| (i as u8).wrapping_mul(37) ^ 0x5a)
            .collect();
        *bytes.last_mut().unwrap() |= 0x80;
        let mut expected = HoleMask::new(cx, cz);
        for i in 0..cx * cz {
            if bytes[i / 8] >> (i % 8) & 1 == 1 {
                expected.set(i % cx, i / cx, true);
            }
        }
        assert_eq!(HoleMask::from_le_bits(cx, cz, &bytes), expected);
        // Written back: the same bytes without the stray bit.
        let mut clean = bytes.clone();
        *clean.last_mut().unwrap() &= 0x7f;
        assert_eq!(expected.to_le_bits(), clean);
        assert!(expected.count() > 0);
        let mut short = HoleMask::new(cx, cz);
        for i in 0..40 {
            if bytes[i / 8] >> (i % 8) & 1 == 1 {
                short.set(i % cx, i / cx, true);
            }
        }
        assert_eq!(HoleMask::from_le_bits(cx, cz, &bytes[..5]), short);
    }

    #[test]
    fn chunks_may_be_partial() {
        let g = Grid::new([100.0, 50.0], [100, 50], 32).unwrap();
        assert_eq!(g.chunks(), [4, 2]);
        let last = g.chunk_cells_range(3, 1);
        assert_eq!((last.x0, last.x1, last.z0, last.z1), (96, 100, 32, 50));
        assert_eq!(g.samples(), [101, 51]);
        assert_eq!(g.index(3, 2), 2 * 101 + 3);
    }

    #[test]
    fn locate_puts_far_edges_in_last_cell() {
        let g = Grid::new([10.0, 10.0], [10, 10], 4).unwrap();
        assert_eq!(g.locate(10.0, 10.0), Some((9, 9, 1.0, 1.0)));
        assert_eq!(g.locate(0.0, 0.0), Some((0, 0, 0.0, 0.0)));
        assert!(g.locate(-0.001, 5.0).is_none());
        assert!(g.locate(5.0, f32::NAN).is_none());
    }

    #[test]
    fn hole_mask_counts() {
        let mut m = HoleMask::new(70, 3);
        m.set(69, 2, true);
        m.set(69, 2, true);
        m.set(0, 1, true);
        assert_eq!(m.count(), 2);
        assert!(m.is_hole(69, 2) && m.is_hole(0, 1) && !m.is_hole(1, 1));
        assert!(m.any_in(60, 2, 70, 3));
        m.set(0, 1, false);
        assert_eq!(m.count(), 1);
    }
}
