//! A `TerrainScatter`'s foliage: the palette's foliage types drawn through the same chunk
//! streaming and MultiMesh path as placements ([`Streamer`], [`chunk_build`]). Foliage is
//! never stored: a chunk is placed by the core (`scatter::foliage_place`) when it comes within
//! the build radius — at most a type's `max_distance` plus one chunk — and freed beyond it.
//! Edits (a painted density, sculpting, exclusions) re-place only the built chunks they touch.

use super::chunk_build::{self, BuiltChunk, RuleRender, Target};
use super::rule_geometry;
use super::rule_settings::RuleSettings;
use super::streaming::{ChunkSource, Streamer};
use crate::terrain::Terrain3D;
use crate::terrain::foliage::FoliageInputs;
use godot::classes::{Node3D, Resource};
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::scatter::chunks::ChunkIndex;
use ridgeline_core::scatter::foliage::FoliageType;
use ridgeline_core::scatter::foliage_place::FoliageInstance;
use ridgeline_core::scatter::palette::{Collision, RuleCategory};
use std::rc::Rc;

/// The foliage streaming state of one scatter node.
#[derive(Default)]
pub struct FoliageLayer {
    /// Chunk bookkeeping (an on-demand streamer: rules are the foliage types by index).
    pub streamer: Streamer,
    /// The types the chunks were built for.
    pub types: Vec<FoliageType>,
    /// The feed stamp (generation, revision) the built chunks reflect.
    synced: Option<(u64, u64)>,
    /// Chunk size and terrain size of the grid.
    grid: Option<(f32, [f32; 2])>,
    /// Settings changed: resolve the types again.
    pub dirty: bool,
    /// The terrain transform and visibility the built chunks show.
    shown_as: Option<(Transform3D, bool)>,
}

/// The transform of a foliage instance: tilted to its up axis, turned by its yaw, scaled.
pub fn instance_transform(p: &FoliageInstance) -> Transform3D {
    let up = Vector3::new(p.up[0], p.up[1], p.up[2]);
    let axis = Vector3::UP.cross(up);
    let tilt = if axis.length() > 1e-6 {
        Basis::from_axis_angle(axis.normalized(), up.y.clamp(-1.0, 1.0).acos())
    } else {
        Basis::IDENTITY
    };
    let basis = tilt
        * Basis::from_axis_angle(Vector3::UP, p.yaw.to_radians())
        * Basis::from_scale(Vector3::splat(p.scale));
    Transform3D::new(
        basis,
        Vector3::new(p.position[0], p.position[1], p.position[2]),
    )
}

/// Chunks of foliage placed from a terrain's inputs.
struct FoliageChunks<'a> {
    inputs: &'a FoliageInputs,
    types: &'a [FoliageType],
    chunk_size: f32,
    columns: usize,
}

impl ChunkSource for FoliageChunks<'_> {
    fn build(&self, c: usize, rules: &[Option<Rc<RuleRender>>], target: &Target) -> BuiltChunk {
        let s = self.chunk_size;
        let (x0, z0) = ((c % self.columns) as f32 * s, (c / self.columns) as f32 * s);
        let rect = [x0, z0, x0 + s, z0 + s];
        let mut lo = Vector3::splat(f32::INFINITY);
        let mut hi = Vector3::splat(f32::NEG_INFINITY);
        let mut groups = Vec::new();
        for (i, t) in self.types.iter().enumerate() {
            let Some(Some(rule)) = rules.get(i) else {
                continue;
            };
            let list = self.inputs.place(t, rect);
            if list.is_empty() {
                continue;
            }
            let xforms: Vec<Transform3D> = list.iter().map(instance_transform).collect();
            for x in &xforms {
                lo = lo.coord_min(x.origin);
                hi = hi.coord_max(x.origin);
            }
            let smax = list.iter().fold(0.0f32, |m, p| m.max(p.scale));
            groups.push(chunk_build::transform_group(
                i as u16, &xforms, smax, rule, target,
            ));
        }
        BuiltChunk {
            groups,
            bounds: (lo, hi),
            hash: 0,
        }
    }
}

impl FoliageLayer {
    /// Frees everything.
    pub fn reset(&mut self) {
        self.streamer.reset();
        self.synced = None;
        self.grid = None;
        self.types.clear();
        self.shown_as = None;
    }

    /// One frame for a viewer at terrain-local `viewer`: follows the terrain's foliage
    /// (types, a new surface, edits), then builds and thins like placements. Returns the
    /// chunks built.
    #[allow(clippy::too_many_arguments)]
    pub fn frame(
        &mut self,
        terrain: &Gd<Node3D>,
        viewer: Vector3,
        build_radius: f32,
        chunk_size: f32,
        budget_usec: i64,
        settings: &VarDictionary,
        target: &Target,
    ) -> usize {
        let Ok(mut t3d) = terrain.clone().try_cast::<Terrain3D>() else {
            return 0;
        };
        let Some(inputs) = t3d.bind_mut().foliage_inputs() else {
            if self.synced.is_some() {
                self.reset();
            }
            return 0;
        };
        if inputs.types().is_empty() {
            if !self.types.is_empty() {
                self.reset();
            }
            return 0;
        }
        let size = inputs.prepared.field.grid().size();
        let (stamp, since) = {
            let t = t3d.bind();
            let feed = t.foliage_feed();
            let rev = self.synced.map_or(0, |s| s.1);
            (feed.stamp(), feed.since(rev))
        };
        let requested = chunk_size;
        let regrid = self.grid != Some((requested, size));
        let new_surface = self.synced.is_none_or(|s| s.0 != stamp.0);
        if regrid || new_surface || self.dirty || self.types != inputs.types() {
            let side = ridgeline_core::scatter::chunks::usable_chunk_size(size, chunk_size);
            if regrid && side != chunk_size {
                super::streaming::warn_chunk_size(chunk_size, side, size);
            }
            let chunk_size = side;
            self.streamer.reset();
            self.types = inputs.types().to_vec();
            self.streamer.rules = self
                .types
                .iter()
                .map(|t| {
                    let cells = (chunk_size / t.cell_size).ceil().powi(2) as u64;
                    if let Some(why) =
                        ridgeline_core::scatter::foliage_place::chunk_limit_problem(t, cells)
                    {
                        godot_error!(
                            "TerrainScatter: foliage type `{}`: a {chunk_size} unit chunk holds {why}; lower chunk_size or density, or raise cell_size. The type is not drawn",
                            t.id
                        );
                        return None;
                    }
                    resolve(t, settings)
                })
                .collect();
            self.streamer.on_demand = true;
            let chunks = [
                ((size[0] / chunk_size).ceil() as usize).max(1),
                ((size[1] / chunk_size).ceil() as usize).max(1),
            ];
            self.streamer.index = ChunkIndex {
                chunk_size,
                chunks,
                groups: vec![Vec::new(); chunks[0] * chunks[1]],
            };
            self.streamer
                .built
                .resize_with(chunks[0] * chunks[1], || None);
            self.grid = Some((requested, size));
            self.dirty = false;
        } else if self.synced != Some(stamp) {
            match since {
                Some(rects) => {
                    let touched = self.touched_chunks(&inputs, &rects);
                    self.streamer.free_chunks(&touched);
                }
                None => {
                    let all = self.streamer.built_ids.clone();
                    self.streamer.free_chunks(&all);
                }
            }
        }
        self.synced = Some(stamp);
        if let Some((xf, shown)) = self.shown_as {
            if xf != target.terrain {
                self.streamer.set_transform(target, Transform3D::IDENTITY);
            }
            if shown != target.visible {
                self.streamer.set_shown(target.visible);
            }
        }
        self.shown_as = Some((target.terrain, target.visible));
        let reach = self
            .types
            .iter()
            .map(|t| t.max_distance)
            .fold(0.0f32, f32::max)
            + chunk_size;
        let source = FoliageChunks {
            inputs: &inputs,
            types: &self.types,
            chunk_size,
            columns: self.streamer.index.chunks[0],
        };
        let mut parent = terrain.clone();
        let (built, _) = self.streamer.frame(
            viewer,
            build_radius.min(reach),
            budget_usec,
            target,
            &mut parent,
            terrain,
            Some(&source),
        );
        built
    }

    /// Built chunks whose cells an edit of sample rectangles `rects` may move (grown by a cell
    /// and a sample: a cell reads the sample nearest its centre).
    fn touched_chunks(&self, inputs: &FoliageInputs, rects: &[Rect]) -> Vec<usize> {
        let grid = inputs.prepared.field.grid();
        let [sx, sz] = grid.spacing();
        let cell = self
            .types
            .iter()
            .map(|t| t.cell_size)
            .fold(0.0f32, f32::max);
        let s = self.streamer.index.chunk_size;
        let [nx, nz] = self.streamer.index.chunks;
        let mut out = Vec::new();
        for r in rects {
            let x0 = r.x0 as f32 * sx - sx - cell;
            let z0 = r.z0 as f32 * sz - sz - cell;
            let x1 = r.x1 as f32 * sx + sx + cell;
            let z1 = r.z1 as f32 * sz + sz + cell;
            let lo = |v: f32, n: usize| ((v / s).floor().max(0.0) as usize).min(n);
            let hi = |v: f32, n: usize| ((v / s).ceil().max(0.0) as usize).min(n);
            for z in lo(z0, nz)..hi(z1, nz) {
                for x in lo(x0, nx)..hi(x1, nx) {
                    out.push(z * nx + x);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The built group of type `id` in chunk `chunk` through `f` (-1 when not built or empty).
    pub fn with_group(
        &self,
        chunk: Vector2i,
        id: &str,
        f: impl Fn(&chunk_build::BuiltGroup) -> i64,
    ) -> Option<i64> {
        let i = self.types.iter().position(|t| t.id == id)?;
        let [nx, nz] = self.streamer.index.chunks;
        let (Ok(x), Ok(z)) = (usize::try_from(chunk.x), usize::try_from(chunk.y)) else {
            return Some(-1);
        };
        if x >= nx || z >= nz {
            return Some(-1);
        }
        Some(
            self.streamer.built[z * nx + x]
                .as_ref()
                .and_then(|b| b.groups.iter().find(|g| g.rule as usize == i))
                .map_or(-1, f),
        )
    }
}

/// A foliage type's geometry and settings: the type's thinning and shadows, then its
/// `rule_settings` entry (errors reported once, located).
fn resolve(t: &FoliageType, settings: &VarDictionary) -> Option<Rc<RuleRender>> {
    let mut s = RuleSettings::defaults(RuleCategory::Grass, Collision::None);
    s.thinning = t.thinning();
    s.cast_shadows = t.cast_shadows;
    if let Some(v) = settings.get(t.id.as_str()) {
        match v.try_to::<VarDictionary>() {
            Ok(d) => s.apply(&d, &format!("TerrainScatter.rule_settings[\"{}\"]", t.id)),
            Err(_) => godot_error!(
                "TerrainScatter.rule_settings[\"{}\"]: must be a Dictionary, got {v}",
                t.id
            ),
        }
    }
    s.collision = Collision::None;
    let geometry = match &s.resource {
        Some(v) => match v.try_to::<Gd<Resource>>() {
            Ok(r) => rule_geometry::from_resource(r),
            Err(_) => rule_geometry::load(&rule_geometry::resource_path(&v.to_string())),
        },
        None => rule_geometry::load(&rule_geometry::resource_path(t.geometry.reference())),
    };
    match geometry {
        Ok(geometry) => Some(Rc::new(RuleRender {
            geometry,
            settings: s,
        })),
        Err(e) => {
            if !crate::editor_hint::in_editor() || !e.is_empty() {
                godot_error!(
                    "TerrainScatter: foliage type `{}`: {e}; the type is not drawn",
                    t.id
                );
            }
            None
        }
    }
}
