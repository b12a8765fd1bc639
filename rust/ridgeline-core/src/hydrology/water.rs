//! Water bodies on the grid: lakes, oceans and rivers, their resolved coverage, and water
//! queries.
//!
//! Each body keeps what defines it (kind, level or path, footprint), so its coverage can be
//! **refreshed** on a changed ground without carving again. Coverage is per sample; a sample
//! belongs to at most one body (earlier bodies win). Queries use the terrain's triangle
//! interpolation: on the triangle under a point, the surface is interpolated from the corners'
//! surfaces (a dry corner takes its body's level), and the point is wet when that surface lies
//! above the ground there.

use crate::error::Result;
use crate::grid::{Field, Grid};
use crate::hydrology::drainage::NEIGHBOURS;

pub mod channel;
pub mod level_grid;
mod query;
pub mod surface_mesh;
pub mod surface_tiles;
mod wetness;

pub use query::{WaterPoint, WaterSample};
pub use wetness::Wetness;

/// Most water bodies one terrain can hold (sample ownership is stored in 16 bits).
pub const MAX_BODIES: usize = u16::MAX as usize - 1;

/// Kind of a water body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaterKind {
    /// Fills the submerged region connected to its centre, within a radius.
    Lake,
    /// Covers every submerged sample in its footprint.
    Ocean,
    /// Follows an authored path.
    River,
    /// Painted water (`crate::edit::water`): no body definition, a depth per sample
    /// ([`WaterSet::painted`]).
    Painted,
}

impl WaterKind {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            WaterKind::Lake => "lake",
            WaterKind::Ocean => "ocean",
            WaterKind::River => "river",
            WaterKind::Painted => "painted",
        }
    }
}

/// Appearance settings (shading only; never geometry or queries).
#[derive(Clone, Debug, PartialEq)]
pub struct Appearance {
    /// Colour in shallow water (RGBA; alpha = opacity).
    pub shallow_color: [f32; 4],
    /// Colour in deep water (RGBA).
    pub deep_color: [f32; 4],
    /// Depth (> 0) at which the shallow contribution falls to about 37 %.
    pub absorption_distance: f32,
    /// Surface roughness 0..1.
    pub roughness: f32,
    /// Slope of animated shading normals (≥ 0).
    pub wave_amplitude: f32,
    /// Wave length in metres (> 0).
    pub wave_length: f32,
    /// Wave speed in m/s (≥ 0).
    pub wave_speed: f32,
    /// Normal strength (≥ 0).
    pub normal_strength: f32,
    /// Shallow foam band width (≥ 0; 0 disables).
    pub foam_width: f32,
    /// Foam strength 0..1.
    pub foam_strength: f32,
    /// Foam colour RGBA.
    pub foam_color: [f32; 4],
}

impl Default for Appearance {
    fn default() -> Self {
        DEFAULT_APPEARANCE
    }
}

/// The default appearance (documented in `docs/nodes.md`).
pub const DEFAULT_APPEARANCE: Appearance = Appearance {
    shallow_color: [0.25, 0.55, 0.6, 0.6],
    deep_color: [0.03, 0.15, 0.25, 0.95],
    absorption_distance: 4.0,
    roughness: 0.05,
    wave_amplitude: 0.05,
    wave_length: 2.0,
    wave_speed: 0.5,
    normal_strength: 1.0,
    foam_width: 0.5,
    foam_strength: 0.5,
    foam_color: [1.0, 1.0, 1.0, 1.0],
};

/// What defines a body's footprint.
#[derive(Clone, Debug, PartialEq)]
pub enum Footprint {
    /// A lake: centre and radius (world units), optional boundary polygon.
    Lake {
        /// Terrain-local centre.
        center: [f32; 2],
        /// Radius around the centre.
        radius: f32,
        /// Optional boundary polygon (XZ).
        boundary: Option<Vec<[f32; 2]>>,
    },
    /// An ocean: whole terrain or a boundary polygon.
    Ocean {
        /// Optional boundary polygon (XZ).
        boundary: Option<Vec<[f32; 2]>>,
    },
    /// A river: sampled XYZ polyline (bed heights) and channel width.
    River {
        /// Sampled path, bed height in Y.
        path: Vec<[f32; 3]>,
        /// Channel width.
        width: f32,
        /// `Some(depth)`: the surface follows the bed at this depth; `None`: flat at `level`.
        follow_bed: Option<f32>,
    },
}

/// One water body.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterBody {
    /// Stable id.
    pub id: String,
    /// Kind.
    pub kind: WaterKind,
    /// Water level (lakes, oceans, level-mode rivers).
    pub level: f32,
    /// Footprint definition.
    pub footprint: Footprint,
    /// Prescribed flow speed (m/s, ≥ 0).
    pub flow_speed: f32,
    /// Flow direction (lakes and oceans), normalised when sampled.
    pub flow_direction: [f32; 2],
    /// Appearance.
    pub appearance: Appearance,
    /// Wet sample count after the last resolve.
    pub wet_samples: u32,
    /// Problems found while resolving (never fixed silently).
    pub warnings: Vec<String>,
}

impl WaterBody {
    /// A river whose surface follows its bed, `depth` above the channel along `path` (x, bed
    /// height, z points, terrain-local), `width` wide, flowing at `flow_speed` along the path
    /// (default appearance, not yet resolved). Its level — what a dry corner takes with no wet
    /// neighbour — is the path's end plus `depth`.
    pub fn follow_bed_river(
        id: impl Into<String>,
        path: Vec<[f32; 3]>,
        width: f32,
        depth: f32,
        flow_speed: f32,
    ) -> Self {
        let end = path.last().map_or(0.0, |p| p[1]);
        WaterBody {
            id: id.into(),
            kind: WaterKind::River,
            level: end + depth,
            footprint: Footprint::River {
                path,
                width,
                follow_bed: Some(depth),
            },
            flow_speed,
            flow_direction: [1.0, 0.0],
            appearance: Appearance::default(),
            wet_samples: 0,
            warnings: Vec::new(),
        }
    }

    /// A still lake (no current, default appearance, not yet resolved) at `level`, filling the
    /// connected ground below it within `radius` of `center` (terrain-local X/Z).
    pub fn still_lake(id: impl Into<String>, level: f32, center: [f32; 2], radius: f32) -> Self {
        WaterBody {
            id: id.into(),
            kind: WaterKind::Lake,
            level,
            footprint: Footprint::Lake {
                center,
                radius,
                boundary: None,
            },
            flow_speed: 0.0,
            flow_direction: [1.0, 0.0],
            appearance: Appearance::default(),
            wet_samples: 0,
            warnings: Vec::new(),
        }
    }
}

/// Water bodies resolved on a grid.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterSet {
    /// The grid.
    pub grid: Grid,
    /// Bodies in authoring order.
    pub bodies: Vec<WaterBody>,
    /// Per sample: index + 1 of the owning body, 0 when dry.
    pub owner: Vec<u16>,
    /// Per sample: water surface height (meaningful where `owner != 0`).
    pub surface: Vec<f32>,
    /// Per sample: painted water depth in metres (`crate::edit::water`; empty when none).
    /// Where no body owns a cell, queries find painted water over the ground: its surface is
    /// ground + this depth, interpolated on the terrain's triangles.
    pub painted: Vec<f32>,
}

/// [`WaterPoint::body`] of painted water (no entry of [`WaterSet::bodies`]).
pub const PAINTED_BODY: usize = usize::MAX;
/// The body id queries report for painted water.
pub const PAINTED_BODY_ID: &str = "painted";

impl WaterSet {
    /// Bytes the per-sample ownership and surface arrays hold on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.owner.len() * 2 + self.surface.len() * 4 + self.painted.len() * 4
    }

    /// The id of body index `body` ([`WaterPoint::body`]): [`PAINTED_BODY_ID`] for painted
    /// water, `""` for an index out of range.
    pub fn body_id(&self, body: usize) -> &str {
        if body == PAINTED_BODY {
            return PAINTED_BODY_ID;
        }
        self.bodies.get(body).map_or("", |b| b.id.as_str())
    }

    /// Replaces the painted water depths (metres per sample; empty or all zero: none). A
    /// length other than the grid's sample count clears them.
    pub fn set_painted(&mut self, depths: Vec<f32>) {
        self.painted =
            if depths.len() == self.grid.sample_count() && depths.iter().any(|&d| d > 0.0) {
                depths
            } else {
                Vec::new()
            };
    }

    /// The painted depth (metres) of sample `i`, 0 where none.
    #[inline]
    pub fn painted_at(&self, i: usize) -> f32 {
        self.painted.get(i).copied().unwrap_or(0.0)
    }
}

impl WaterSet {
    /// No water on `grid`. The per-sample arrays stay empty (no memory) until a body is added.
    pub fn empty(grid: Grid) -> Self {
        Self {
            grid,
            bodies: Vec::new(),
            owner: Vec::new(),
            surface: Vec::new(),
            painted: Vec::new(),
        }
    }

    /// The owning body (index + 1) of sample `i`, 0 when dry.
    #[inline]
    pub fn owner_at(&self, i: usize) -> u16 {
        self.owner.get(i).copied().unwrap_or(0)
    }

    /// Allocates the per-sample arrays on first use.
    fn ensure_arrays(&mut self) {
        if self.owner.is_empty() {
            let n = self.grid.sample_count();
            self.owner = vec![0; n];
            self.surface = vec![0.0; n];
        }
    }

    /// Adds `body` and resolves its coverage on `ground` (samples already owned stay with
    /// their body).
    pub fn add(&mut self, body: WaterBody, ground: &Field<f32>) {
        // Never cancelled, so never fails.
        let _ = self.add_cancellable(body, ground, &|| false);
    }

    /// [`WaterSet::add`] that stops with `Err(Cancelled)` when `cancelled()` turns true (checked
    /// per row of a river's channel); the set is then incomplete and must be dropped.
    pub fn add_cancellable(
        &mut self,
        mut body: WaterBody,
        ground: &Field<f32>,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<()> {
        self.ensure_arrays();
        body.warnings.clear();
        if self.bodies.len() >= MAX_BODIES {
            body.warnings.push(format!(
                "`{}` was not placed: a terrain holds at most {MAX_BODIES} water bodies",
                body.id
            ));
            body.wet_samples = 0;
            self.bodies.push(body);
            return Ok(());
        }
        let index = self.bodies.len() as u16 + 1;
        resolve(self, &mut body, index, ground, cancelled)?;
        self.bodies.push(body);
        Ok(())
    }

    /// Re-resolves every body's coverage on a changed ground, from the same definitions.
    pub fn refresh(&mut self, ground: &Field<f32>) {
        // Never cancelled, so never fails.
        let _ = self.refresh_cancellable(ground, &|| false);
    }

    /// [`WaterSet::refresh`] that stops with `Err(Cancelled)` when `cancelled()` turns true;
    /// the set is then incomplete and must be dropped.
    pub fn refresh_cancellable(
        &mut self,
        ground: &Field<f32>,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<()> {
        let bodies = std::mem::take(&mut self.bodies);
        self.owner.iter_mut().for_each(|o| *o = 0);
        for body in bodies {
            self.add_cancellable(body, ground, cancelled)?;
        }
        Ok(())
    }

    /// True when every body still holds the definition that resolves it (a cooked payload or
    /// the development cache keeps bodies without their lake centre and radius or river
    /// width); then [`Self::refresh`] can re-resolve them, else use
    /// [`Self::refresh_from_coverage`].
    pub fn definitions_complete(&self) -> bool {
        self.bodies.iter().all(|b| match &b.footprint {
            Footprint::Lake { radius, .. } => *radius > 0.0,
            Footprint::River { width, .. } => *width > 0.0,
            Footprint::Ocean { .. } => true,
        })
    }

    /// Re-resolves coverage on a changed ground from the current coverage, for bodies without
    /// their definition: an owned sample stays wet while its ground lies below its surface;
    /// lakes and oceans also spread from their remaining wet samples over connected free
    /// ground below their level (with no boundary to stop them); rivers never grow. Warnings
    /// stay as they were.
    pub fn refresh_from_coverage(&mut self, ground: &Field<f32>) {
        if self.owner.is_empty() {
            return;
        }
        let g = ground.as_slice();
        let [w, h] = self.grid.samples();
        for (i, o) in self.owner.iter_mut().enumerate() {
            if *o != 0 && g[i] >= self.surface[i] {
                *o = 0;
            }
        }
        for (b, body) in self.bodies.iter_mut().enumerate() {
            let index = b as u16 + 1;
            if body.kind != WaterKind::River {
                let mut stack: Vec<usize> =
                    (0..w * h).filter(|&i| self.owner[i] == index).collect();
                while let Some(i) = stack.pop() {
                    let (x, z) = ((i % w) as i32, (i / w) as i32);
                    for (ox, oz) in NEIGHBOURS {
                        let (nx, nz) = (x + ox, z + oz);
                        if nx < 0 || nz < 0 || nx >= w as i32 || nz >= h as i32 {
                            continue;
                        }
                        let j = nz as usize * w + nx as usize;
                        if self.owner[j] == 0 && g[j] < body.level {
                            self.owner[j] = index;
                            self.surface[j] = body.level;
                            stack.push(j);
                        }
                    }
                }
            }
            body.wet_samples = self.owner.iter().filter(|&&o| o == index).count() as u32;
        }
    }
}

/// Carves a river channel: every sample within `width / 2` of the XYZ `path` (Y = bed) drops to
/// the bed height there; ground is never raised. Stops with `Err(Cancelled)` when
/// `cancelled()` turns true (the ground is then partly carved and must be dropped).
pub fn carve_channel(
    ground: &mut Field<f32>,
    grid: &Grid,
    path: &[[f32; 3]],
    width: f32,
    cancelled: &dyn Fn() -> bool,
) -> Result<()> {
    let half = width * 0.5;
    let g = ground.as_mut_slice();
    channel::for_each_near(grid, path, half, cancelled, |i, k, dist, t| {
        if dist <= half {
            g[i] = g[i].min(path[k][1] + t * (path[k + 1][1] - path[k][1]));
        }
    })
}

/// Distance from `p` to segment `a`–`b` and the parameter of the closest point.
pub(crate) fn seg_dist(a: [f32; 2], b: [f32; 2], p: [f32; 2]) -> (f32, f32) {
    let (abx, abz) = (b[0] - a[0], b[1] - a[1]);
    let len2 = abx * abx + abz * abz;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * abx + (p[1] - a[1]) * abz) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dz) = (p[0] - a[0] - t * abx, p[1] - a[1] - t * abz);
    ((dx * dx + dz * dz).sqrt(), t)
}

/// Even-odd containment (boundary inclusive enough for sample tests).
pub(crate) fn polygon_contains(poly: &[[f32; 2]], x: f32, z: f32) -> bool {
    let n = poly.len();
    let mut inside = false;
    let mut j = n - 1;
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if (a[1] > z) != (b[1] > z) && x < a[0] + (z - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) {
            inside = !inside;
        }
        j = i;
    }
    inside
}

fn resolve(
    set: &mut WaterSet,
    body: &mut WaterBody,
    index: u16,
    ground: &Field<f32>,
    cancelled: &dyn Fn() -> bool,
) -> Result<()> {
    let grid = set.grid;
    let [w, h] = grid.samples();
    let g = ground.as_slice();
    let pos = |i: usize| grid.sample_position(i % w, i / w);
    let free = |set: &WaterSet, i: usize| set.owner[i] == 0;
    let mut wet = 0u32;
    match body.footprint.clone() {
        Footprint::Ocean { boundary } => {
            for (i, &ground) in g.iter().enumerate() {
                let [x, z] = pos(i);
                let inside = boundary.as_ref().is_none_or(|p| polygon_contains(p, x, z));
                if inside && ground < body.level && free(set, i) {
                    set.owner[i] = index;
                    set.surface[i] = body.level;
                    wet += 1;
                }
            }
        }
        Footprint::Lake {
            center,
            radius,
            boundary,
        } => {
            let inside = |i: usize| {
                let [x, z] = pos(i);
                let (dx, dz) = (x - center[0], z - center[1]);
                dx * dx + dz * dz <= radius * radius
                    && boundary.as_ref().is_none_or(|p| polygon_contains(p, x, z))
            };
            let submerged = |i: usize| g[i] < body.level;
            // Seed: the centre's sample if submerged, else the nearest submerged sample in
            // the footprint (ties by index).
            let [dx, dz] = grid.spacing();
            let cx = ((center[0] / dx).round().max(0.0) as usize).min(w - 1);
            let cz = ((center[1] / dz).round().max(0.0) as usize).min(h - 1);
            let c = cz * w + cx;
            let seed = if submerged(c) && inside(c) {
                Some(c)
            } else {
                (0..w * h)
                    .filter(|&i| inside(i) && submerged(i) && free(set, i))
                    .min_by(|&a, &b| {
                        let d = |i: usize| {
                            let [x, z] = pos(i);
                            (x - center[0]).powi(2) + (z - center[1]).powi(2)
                        };
                        d(a).total_cmp(&d(b)).then(a.cmp(&b))
                    })
            };
            let mut reached_edge = false;
            if let Some(s) = seed {
                let mut stack = vec![s];
                let mut seen = vec![false; w * h];
                seen[s] = true;
                while let Some(i) = stack.pop() {
                    if free(set, i) {
                        set.owner[i] = index;
                        set.surface[i] = body.level;
                        wet += 1;
                    }
                    let (x, z) = ((i % w) as i32, (i / w) as i32);
                    for (ox, oz) in NEIGHBOURS {
                        let (nx, nz) = (x + ox, z + oz);
                        if nx < 0 || nz < 0 || nx >= w as i32 || nz >= h as i32 {
                            continue;
                        }
                        let j = nz as usize * w + nx as usize;
                        if seen[j] || !submerged(j) {
                            continue;
                        }
                        if !inside(j) {
                            reached_edge = true;
                            continue;
                        }
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            } else {
                body.warnings.push(format!(
                    "lake `{}`: no ground below level {} within {} of the centre; the lake is empty",
                    body.id, body.level, radius
                ));
            }
            if reached_edge {
                body.warnings.push(format!(
                    "lake `{}`: wet ground reaches the boundary below level {}; lower the level, enlarge the boundary or sculpt a containing basin (the level was not changed)",
                    body.id, body.level
                ));
            }
        }
        Footprint::River {
            path,
            width,
            follow_bed,
        } => {
            let half = width * 0.5;
            let side = grid.spacing()[0].max(grid.spacing()[1]);
            let mut dry_side_low = false;
            let near = channel::nearest_bed(&grid, &path, half + side, cancelled)?;
            for (i, &ground) in g.iter().enumerate() {
                let (best, bed) = (near.distance[i], near.bed[i]);
                if best.is_infinite() {
                    continue;
                }
                let surface = match follow_bed {
                    Some(depth) => bed + depth,
                    None => body.level,
                };
                if best <= half {
                    if ground < surface && free(set, i) {
                        set.owner[i] = index;
                        set.surface[i] = surface;
                        wet += 1;
                    }
                } else if best <= half + side && g[i] < surface {
                    dry_side_low = true;
                }
            }
            if dry_side_low {
                body.warnings.push(format!(
                    "river `{}`: the water surface reaches a dry side below its level; carving lowers ground but cannot build banks — adjust the bed, depth or path, or sculpt banks",
                    body.id
                ));
            }
        }
    }
    body.wet_samples = wet;
    Ok(())
}

#[cfg(test)]
mod tests;
