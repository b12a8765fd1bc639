//! Per frame: the level each chunk is drawn at — the coarsest whose measured error projects to
//! at most `error_pixels` at the distance from the camera to the chunk's box (so
//! `Terrain3D.lod_error_pixels` means the same on both render paths).
//!
//! Every chunk is drawn, also those outside the camera's frustum: the renderer draws the same
//! instances into shadow maps, reflection probes and global illumination, and into the
//! editor's other 3D views, which see what this camera does not (a ridge behind the camera
//! casts its shadow into the view). Chunks the camera does not see get the level their distance
//! gives, as the mesh path's chunk meshes do; the renderer itself skips what no view needs.
//!
//! Neighbouring chunks may be drawn at different levels. The selection also records every
//! chunk's level ([`PatchSelection::chunk_levels`]); the patch shader reads it to **stitch**
//! edges: a vertex on the edge to a coarser neighbour takes the height of that neighbour's edge
//! (linear between its vertices) instead of its own sample's, so the two patches share the edge
//! exactly ([`stitch_along_edge`] states the rule; skirts stay as a second guard).

use super::levels::PatchLevels;
use crate::grid::Grid;

/// The camera, in terrain-local coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchView {
    /// Camera position.
    pub eye: [f32; 3],
    /// Pixels per terrain-local unit of height error at terrain-local distance 1 (viewport
    /// height / (2 tan(fov / 2)), times the node's scale where it has one); for an orthographic
    /// camera, pixels per terrain-local unit of height error.
    pub pixels_per_unit: f32,
    /// Orthographic projection (the error does not shrink with distance).
    pub orthographic: bool,
    /// Largest projected error allowed, in pixels (0: full detail everywhere).
    pub error_pixels: f32,
}

/// [`PatchSelection::chunk_levels`] of a chunk not drawn (before the first selection).
pub const NOT_DRAWN: u8 = 255;

/// The chunks by level: `levels[k]` lists the row-major chunk indices drawn at level `k`,
/// ascending.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatchSelection {
    /// Chunk indices per level.
    pub levels: Vec<Vec<u32>>,
    /// Per chunk (row-major), the level it is drawn at.
    pub chunk_levels: Vec<u8>,
}

impl PatchSelection {
    /// Number of chunks drawn.
    pub fn drawn(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }
}

/// Selects levels for every chunk of `grid` seen from `view`; `chunks` are the chunks' levels
/// (row-major, from [`super::levels::all_patch_levels`]). `into` is reused.
pub fn select_patches(
    grid: &Grid,
    chunks: &[PatchLevels],
    view: &PatchView,
    into: &mut PatchSelection,
) {
    let level_count = chunks.iter().map(|c| c.errors.len()).max().unwrap_or(0);
    into.levels.resize_with(level_count, Vec::new);
    for l in &mut into.levels {
        l.clear();
    }
    into.chunk_levels.clear();
    into.chunk_levels.resize(chunks.len(), NOT_DRAWN);
    let [nx, _] = grid.chunks();
    let [dx, dz] = grid.spacing();
    for (i, c) in chunks.iter().enumerate() {
        let r = grid.chunk_cells_range(i as u32 % nx, i as u32 / nx);
        let lo = [r.x0 as f32 * dx, c.heights[0] - c.skirt, r.z0 as f32 * dz];
        let hi = [r.x1 as f32 * dx, c.heights[1], r.z1 as f32 * dz];
        let level = level_for(c, distance(view.eye, lo, hi), view);
        if let Some(l) = into.levels.get_mut(level) {
            l.push(i as u32);
            into.chunk_levels[i] = level.min(NOT_DRAWN as usize - 1) as u8;
        }
    }
}

/// Where the vertex at sample `t` along a chunk edge takes its height from when the chunk on
/// the other side is drawn with vertices every `neighbour_step` samples (measured from the
/// edge's start, which is a multiple of every step): the two samples `(t0, t1)` of the
/// neighbour's edge around `t` and the weight of `t1`, both clamped to the edge's `last` sample
/// (the grid's last row or column, where partial chunks end). A vertex the neighbour also has
/// gets its own sample (weight 0). The patch shader (`shaders/terrain_patches.gdshaderinc`,
/// `ridgeline_stitched_height`) applies the same rule.
pub fn stitch_along_edge(t: u32, neighbour_step: u32, last: u32) -> (u32, u32, f32) {
    let step = neighbour_step.max(1);
    let t = t.min(last);
    let t0 = t - t % step;
    let t1 = (t0 + step).min(last);
    if t1 <= t0 || t == t0 {
        return (t0, t0, 0.0);
    }
    (t0, t1, (t - t0) as f32 / (t1 - t0) as f32)
}

/// The coarsest level of `c` whose error projects within the allowance at `dist`.
fn level_for(c: &PatchLevels, dist: f32, view: &PatchView) -> usize {
    let allowance = if view.error_pixels.is_nan() {
        0.0
    } else {
        view.error_pixels
    };
    if allowance <= 0.0 || !view.pixels_per_unit.is_finite() {
        return 0;
    }
    let scale = if view.orthographic {
        view.pixels_per_unit
    } else if dist <= 0.0 {
        return 0;
    } else {
        view.pixels_per_unit / dist
    };
    let mut level = 0;
    for (k, &e) in c.errors.iter().enumerate() {
        if e * scale <= view.error_pixels {
            level = k;
        } else {
            break;
        }
    }
    level
}

/// Distance from `p` to the box `lo..hi` (0 inside).
fn distance(p: [f32; 3], lo: [f32; 3], hi: [f32; 3]) -> f32 {
    let mut s = 0.0f32;
    for k in 0..3 {
        let g = (lo[k] - p[k]).max(p[k] - hi[k]).max(0.0);
        s += g * g;
    }
    s.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(n: usize) -> Vec<PatchLevels> {
        (0..n)
            .map(|_| PatchLevels {
                errors: vec![0.0, 0.1, 0.4, 1.6],
                skirt: 0.5,
                heights: [0.0, 10.0],
            })
            .collect()
    }

    fn view(eye: [f32; 3]) -> PatchView {
        PatchView {
            eye,
            pixels_per_unit: 1000.0,
            orthographic: false,
            error_pixels: 2.0,
        }
    }

    #[test]
    fn near_chunks_are_fine_and_far_ones_coarse() {
        // 8 × 1 chunks of 32 m.
        let g = Grid::new([256.0, 32.0], [256, 32], 32).unwrap();
        let c = chunks(8);
        let mut s = PatchSelection::default();
        select_patches(&g, &c, &view([16.0, 5.0, 16.0]), &mut s);
        assert_eq!(s.drawn(), 8);
        // The camera is inside chunk 0: full detail. Chunk 1 is 16 m away: 0.1 · 1000 / 16 =
        // 6.25 px > 2 → level 0; chunk 7 at 208 m: 0.4 · 1000 / 208 = 1.9 px → level 2.
        assert!(s.levels[0].contains(&0) && s.levels[0].contains(&1));
        assert_eq!(s.levels[2], vec![7]);
        let mut levels = vec![0; 8];
        for (k, l) in s.levels.iter().enumerate() {
            for &i in l {
                levels[i as usize] = k;
            }
        }
        assert!(levels.windows(2).all(|w| w[1] >= w[0]), "{levels:?}");
    }

    #[test]
    fn every_chunk_is_drawn_and_its_level_recorded() {
        // The camera stands past the last chunk looking away from the terrain: every chunk is
        // still drawn (shadows, reflections and other views need them), at its distance's level.
        let g = Grid::new([256.0, 32.0], [256, 32], 32).unwrap();
        let c = chunks(8);
        let mut s = PatchSelection::default();
        select_patches(&g, &c, &view([300.0, 5.0, 16.0]), &mut s);
        let mut drawn: Vec<u32> = s.levels.concat();
        drawn.sort();
        assert_eq!(drawn, (0..8).collect::<Vec<u32>>());
        assert_eq!(s.chunk_levels.len(), 8);
        for (k, l) in s.levels.iter().enumerate() {
            for &i in l {
                assert_eq!(s.chunk_levels[i as usize] as usize, k);
            }
        }
        assert!(s.chunk_levels.iter().all(|&l| l != NOT_DRAWN));
        // Nearest the camera, chunk 7 at 44 m: 0.1 · 1000 / 44 = 2.3 px > 2 → level 0; the
        // farthest, chunk 0 at 268 m: 0.4 · 1000 / 268 = 1.5 px, 1.6 · 1000 / 268 = 6 px → level 2.
        assert!(
            s.chunk_levels[7] < s.chunk_levels[0],
            "{:?}",
            s.chunk_levels
        );
    }

    #[test]
    fn zero_pixels_or_orthographic_views() {
        let g = Grid::new([256.0, 32.0], [256, 32], 32).unwrap();
        let c = chunks(8);
        let mut s = PatchSelection::default();
        let mut v = view([0.0, 5.0, 0.0]);
        v.error_pixels = 0.0;
        select_patches(&g, &c, &v, &mut s);
        assert_eq!(s.levels[0].len(), 8);
        v.error_pixels = 2.0;
        v.orthographic = true;
        v.pixels_per_unit = 5.0;
        select_patches(&g, &c, &v, &mut s);
        // 0.4 · 5 = 2 ≤ 2, 1.6 · 5 = 8: level 2 everywhere.
        assert_eq!(s.levels[2].len(), 8);
        assert_eq!(s.chunk_levels, vec![2; 8]);
    }

    /// The coarse neighbour's edge as drawn: vertices every `step` samples (clamped to `last`),
    /// straight between them.
    fn coarse_edge(h: &[f32], step: u32, last: u32, t: u32) -> f32 {
        let mut verts: Vec<u32> = (0..)
            .map(|k| (k * step).min(last))
            .take_while(|&v| v < last)
            .collect();
        verts.push(last);
        for w in verts.windows(2) {
            let (a, b) = (w[0], w[1]);
            if (a..=b).contains(&t) {
                let f = if b == a {
                    0.0
                } else {
                    (t - a) as f32 / (b - a) as f32
                };
                return h[a as usize] * (1.0 - f) + h[b as usize] * f;
            }
        }
        unreachable!("{t} past {last}")
    }

    #[test]
    fn stitched_edge_vertices_lie_on_the_coarse_neighbours_edge() {
        // An edge of 101 samples (a partial last chunk: 100 is not a multiple of 16).
        let last = 100;
        let h: Vec<f32> = (0..=last)
            .map(|t| ((t * 37) % 23) as f32 * 0.7 - (t as f32).sqrt())
            .collect();
        for fine in [1u32, 2, 4] {
            for coarse in [2u32, 4, 8, 16] {
                if coarse <= fine {
                    continue;
                }
                for t in (0..=last + fine).step_by(fine as usize) {
                    let (t0, t1, w) = stitch_along_edge(t, coarse, last);
                    let stitched = h[t0 as usize] * (1.0 - w) + h[t1 as usize] * w;
                    let want = coarse_edge(&h, coarse, last, t.min(last));
                    assert!(
                        (stitched - want).abs() < 1e-4,
                        "fine {fine} coarse {coarse} t {t}: {stitched} vs {want}"
                    );
                }
            }
        }
        // A vertex both patches have keeps its own sample.
        assert_eq!(stitch_along_edge(32, 16, 100), (32, 32, 0.0));
        assert_eq!(stitch_along_edge(40, 16, 100), (32, 48, 0.5));
        assert_eq!(stitch_along_edge(99, 16, 100), (96, 100, 0.75));
    }
}
