//! Water queries: what a point of the terrain finds (body, surface, depth, normal, flow), on the
//! terrain's triangles, shared by [`WaterSet::sample`] and the surface meshes.

use super::{Footprint, PAINTED_BODY, WaterBody, WaterKind, WaterSet, seg_dist};

/// A water query result.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterSample {
    /// Body id.
    pub body_id: String,
    /// Body kind.
    pub kind: WaterKind,
    /// Surface height.
    pub surface: f32,
    /// Surface − ground (> 0).
    pub depth: f32,
    /// Surface normal (terrain-local).
    pub normal: [f32; 3],
    /// Flow velocity (terrain-local XZ, m/s).
    pub flow: [f32; 2],
    /// Vertical flow velocity (terrain-local Y, m/s): a follow-bed river's current runs down
    /// its sloping surface (see [`WaterPoint::flow_rise`]); 0 elsewhere.
    pub flow_rise: f32,
}

/// What [`WaterSet::column`] finds at a point.
struct Column {
    body: usize,
    surface: f32,
    depth: f32,
    grad: (f32, f32),
}

/// [`WaterSample`] without the body's id: what [`WaterSet::point`] answers, allocating nothing
/// (for per-step gameplay queries); the id is `bodies[body].id`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterPoint {
    /// Index of the body in [`WaterSet::bodies`].
    pub body: usize,
    /// Body kind.
    pub kind: WaterKind,
    /// Surface height.
    pub surface: f32,
    /// Surface − ground (> 0).
    pub depth: f32,
    /// Surface normal (terrain-local).
    pub normal: [f32; 3],
    /// Flow velocity (terrain-local XZ, m/s).
    pub flow: [f32; 2],
    /// Vertical flow velocity (terrain-local Y, m/s): on a follow-bed river the current follows
    /// the surface's tangent, so it rises or falls by the surface gradient along the horizontal
    /// flow (`flow · ∇surface`; the horizontal part keeps the prescribed speed, so it agrees
    /// with the shader's flow attribute); 0 on level rivers, lakes, oceans and painted water.
    pub flow_rise: f32,
}

impl WaterSet {
    /// Water at terrain-local (x, z) over `ground`, or `None` when dry or outside.
    pub fn sample(&self, ground: &crate::Heightfield, x: f32, z: f32) -> Option<WaterSample> {
        let p = self.point(ground, x, z)?;
        Some(WaterSample {
            body_id: self.body_id(p.body).to_string(),
            kind: p.kind,
            surface: p.surface,
            depth: p.depth,
            normal: p.normal,
            flow: p.flow,
            flow_rise: p.flow_rise,
        })
    }

    /// [`Self::sample`] without the body's id (the same arithmetic); allocates nothing.
    pub fn point(&self, ground: &crate::Heightfield, x: f32, z: f32) -> Option<WaterPoint> {
        let w = self.column(ground, x, z)?;
        let [dx, dz] = self.grid.spacing();
        let n = glam::Vec3::new(-w.grad.0 / dx, 1.0, -w.grad.1 / dz).normalize();
        let (kind, flow, follows_bed) = match self.bodies.get(w.body) {
            Some(body) => (body.kind, body.flow_at(x, z), body.follows_bed()),
            None => (WaterKind::Painted, [0.0, 0.0], false),
        };
        // Along the surface: the gradient (per world unit) times the horizontal flow.
        let flow_rise = if follows_bed {
            flow[0] * w.grad.0 / dx + flow[1] * w.grad.1 / dz
        } else {
            0.0
        };
        Some(WaterPoint {
            body: w.body,
            kind,
            surface: w.surface,
            depth: w.depth,
            normal: n.to_array(),
            flow,
            flow_rise,
        })
    }

    /// Water depth at terrain-local (x, z) over `ground`: [`WaterSample::depth`] of
    /// [`Self::sample`] (the same arithmetic), 0 when dry or outside. Allocates nothing.
    pub fn depth_at(&self, ground: &crate::Heightfield, x: f32, z: f32) -> f32 {
        self.column(ground, x, z).map_or(0.0, |w| w.depth)
    }

    /// The water column at (x, z): body index, surface, depth (> 0) and the surface gradient
    /// across the cell. Bodies come first; where none is wet, painted water.
    fn column(&self, ground: &crate::Heightfield, x: f32, z: f32) -> Option<Column> {
        self.body_column(ground, x, z)
            .or_else(|| self.painted_column(ground, x, z))
    }

    /// The painted water column at (x, z) ([`WaterSet::painted`]): the corners' surfaces are
    /// their ground plus their painted depth, interpolated on the terrain triangle under the
    /// point like the ground, so ground + depth is the surface.
    fn painted_column(&self, ground: &crate::Heightfield, x: f32, z: f32) -> Option<Column> {
        if self.painted.is_empty() {
            return None;
        }
        let (ix, iz, u, v) = self.grid.locate(x, z)?;
        let w = self.grid.samples()[0];
        let corners = [(ix, iz), (ix + 1, iz), (ix, iz + 1), (ix + 1, iz + 1)];
        let d = corners.map(|(cx, cz)| self.painted_at(cz * w + cx));
        if d.iter().all(|&x| x <= 0.0) {
            return None;
        }
        let g = ground.height_at(x, z)?;
        let s = corners.map(|(cx, cz)| ground.sample(cx, cz) + self.painted_at(cz * w + cx));
        let (surface, grad) = triangle(s, u, v);
        let depth = surface - g;
        if depth <= 0.0 {
            return None;
        }
        Some(Column {
            body: PAINTED_BODY,
            surface,
            depth,
            grad,
        })
    }

    /// The water column of the bodies at (x, z).
    fn body_column(&self, ground: &crate::Heightfield, x: f32, z: f32) -> Option<Column> {
        if self.owner.is_empty() {
            return None;
        }
        let (ix, iz, u, v) = self.grid.locate(x, z)?;
        let g = ground.height_at(x, z)?;
        let w = self.grid.samples()[0];
        let corners = [(ix, iz), (ix + 1, iz), (ix, iz + 1), (ix + 1, iz + 1)];
        // The body: the first owning corner in corner order.
        let body_index = corners
            .iter()
            .map(|&(cx, cz)| self.owner[cz * w + cx])
            .find(|&o| o != 0)?;
        let s = [0, 1, 2, 3].map(|k| self.corner_surface(body_index, corners[k].0, corners[k].1));
        let (surface, grad) = triangle(s, u, v);
        let depth = surface - g;
        if depth <= 0.0 {
            return None;
        }
        Some(Column {
            body: body_index as usize - 1,
            surface,
            depth,
            grad,
        })
    }

    /// The owning body (index + 1) of the cell whose lowest corner is sample (x, z): the first
    /// owning corner in the order (x, z), (x+1, z), (x, z+1), (x+1, z+1), the order
    /// [`Self::sample`] uses; 0 when no corner is wet. Shared by queries and surface meshes.
    pub fn cell_owner(&self, x: usize, z: usize) -> u16 {
        if self.owner.is_empty() {
            return 0;
        }
        let w = self.grid.samples()[0];
        [(x, z), (x + 1, z), (x, z + 1), (x + 1, z + 1)]
            .iter()
            .map(|&(cx, cz)| self.owner[cz * w + cx])
            .find(|&o| o != 0)
            .unwrap_or(0)
    }

    /// The water surface at sample (cx, cz) as body `body_index` (index + 1) sees it: the
    /// sample's own surface when the body owns it, otherwise the surface a dry (or foreign)
    /// corner takes next to the body (its level; a follow-bed river's nearest wet neighbour).
    /// Queries and surface meshes interpolate these corner values on the terrain triangles.
    pub fn corner_surface(&self, body_index: u16, cx: usize, cz: usize) -> f32 {
        let i = cz * self.grid.samples()[0] + cx;
        if self.owner_at(i) == body_index {
            self.surface[i]
        } else {
            self.bodies[body_index as usize - 1].level_near(self, body_index, cx, cz)
        }
    }

    /// True when (x, y, z) is under water: at or above the bed and below the surface.
    pub fn is_underwater(&self, ground: &crate::Heightfield, x: f32, y: f32, z: f32) -> bool {
        self.sample(ground, x, z)
            .is_some_and(|s| y < s.surface && y >= s.surface - s.depth)
    }
}

/// The value at (u, v) of the terrain triangle interpolating corner values `s` (corner order
/// (x, z), (x+1, z), (x, z+1), (x+1, z+1)) and its gradient across the cell.
fn triangle(s: [f32; 4], u: f32, v: f32) -> (f32, (f32, f32)) {
    if u + v <= 1.0 {
        (
            s[0] + u * (s[1] - s[0]) + v * (s[2] - s[0]),
            ((s[1] - s[0]), (s[2] - s[0])),
        )
    } else {
        (
            s[3] + (1.0 - u) * (s[2] - s[3]) + (1.0 - v) * (s[1] - s[3]),
            ((s[3] - s[2]), (s[3] - s[1])),
        )
    }
}

impl WaterBody {
    /// Surface used for a dry (or foreign) corner next to this body (index + 1 `me`): its
    /// level; for a follow-bed river, the mean surface of the body's samples among the eight
    /// neighbours (every corner of a cell the body owns has one), else the level.
    fn level_near(&self, set: &WaterSet, me: u16, cx: usize, cz: usize) -> f32 {
        match &self.footprint {
            Footprint::River {
                follow_bed: Some(_),
                ..
            } => {
                let [w, h] = set.grid.samples();
                let (mut sum, mut n) = (0.0f32, 0u32);
                for dz in -1i32..=1 {
                    for dx in -1i32..=1 {
                        let (nx, nz) = (cx as i32 + dx, cz as i32 + dz);
                        if (dx, dz) == (0, 0)
                            || nx < 0
                            || nz < 0
                            || nx as usize >= w
                            || nz as usize >= h
                        {
                            continue;
                        }
                        let j = nz as usize * w + nx as usize;
                        if set.owner[j] == me {
                            sum += set.surface[j];
                            n += 1;
                        }
                    }
                }
                if n > 0 { sum / n as f32 } else { self.level }
            }
            _ => self.level,
        }
    }

    /// True for a river whose surface follows its bed (`river_surface_mode` `follow_bed`, River
    /// Route): its current runs along the sloping surface.
    pub fn follows_bed(&self) -> bool {
        matches!(
            self.footprint,
            Footprint::River {
                follow_bed: Some(_),
                ..
            }
        )
    }

    /// Prescribed horizontal flow at (x, z): rivers along their nearest path segment, lakes
    /// and oceans along `flow_direction` (a follow-bed river's vertical part is
    /// [`WaterPoint::flow_rise`]).
    pub fn flow_at(&self, x: f32, z: f32) -> [f32; 2] {
        if self.flow_speed == 0.0 {
            return [0.0, 0.0];
        }
        let dir = match &self.footprint {
            Footprint::River { path, .. } => {
                let mut best = (f32::INFINITY, [1.0f32, 0.0f32]);
                for s in path.windows(2) {
                    let (a, b) = ([s[0][0], s[0][2]], [s[1][0], s[1][2]]);
                    let d = seg_dist(a, b, [x, z]).0;
                    if d < best.0 {
                        best = (d, [b[0] - a[0], b[1] - a[1]]);
                    }
                }
                best.1
            }
            _ => self.flow_direction,
        };
        let len = (dir[0] * dir[0] + dir[1] * dir[1]).sqrt();
        if len == 0.0 {
            return [0.0, 0.0];
        }
        [
            dir[0] / len * self.flow_speed,
            dir[1] / len * self.flow_speed,
        ]
    }
}
