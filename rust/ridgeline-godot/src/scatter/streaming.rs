//! A scatter node's chunk bookkeeping: the chunk index of the current placements, which chunks
//! are built, the build queue (nearest first within the build radius, a per-frame time budget),
//! rebuilding only chunks whose placements changed, and distance thinning.

use super::chunk_build::{self, BuiltChunk, RuleRender, Target};
use godot::classes::Node3D;
use godot::prelude::*;
use ridgeline_core::scatter::chunks::ChunkIndex;
use ridgeline_core::scatter::{Placement, Scatter};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

/// Chunks built on demand instead of from indexed placements (foliage: placed by the core
/// when a chunk comes within the build radius).
pub trait ChunkSource {
    /// Builds chunk `c` (an index into the chunk grid) with `rules` (by rule index).
    fn build(&self, c: usize, rules: &[Option<Rc<RuleRender>>], target: &Target) -> BuiltChunk;
}

/// A placement's identity without its owner and palette: rule index and lattice square.
pub type Ident = (u16, u32, u32);

/// The streaming state.
#[derive(Default)]
pub struct Streamer {
    /// The placements indexed (`None`: nothing to show).
    pub scatter: Option<Arc<Scatter>>,
    /// Key owner.
    pub owner: String,
    /// Chunks of the placements that are not excluded or removed.
    pub index: ChunkIndex,
    /// Resolved rules by rule index.
    pub rules: Vec<Option<Rc<RuleRender>>>,
    /// Built chunks by chunk index.
    pub built: Vec<Option<BuiltChunk>>,
    /// Indices of the built chunks.
    pub built_ids: Vec<usize>,
    /// Unbuilt chunks within the radius, farthest first (built from the end).
    queue: Vec<(f32, usize)>,
    /// Where the queue was computed (terrain-local).
    queued_at: Option<Vector3>,
    /// The build radius the queue was computed for.
    queued_radius: f32,
    /// Node-mode objects by key.
    pub objects: HashMap<String, Gd<Node3D>>,
    /// Chunks come from a [`ChunkSource`] (every chunk of the grid may hold something).
    pub on_demand: bool,
    /// Chunks built and chunks rebuilt after placement changes (test counters).
    pub builds: u64,
    pub rebuilds: u64,
}

/// Parses `owner:palette:rule:i:j` against `scatter` (`None` for another terrain or palette,
/// an unknown rule or a malformed key).
pub fn parse_key(scatter: &Scatter, owner: &str, key: &str) -> Option<Ident> {
    let mut it = key.rsplitn(4, ':');
    let j = it.next()?.parse().ok()?;
    let i = it.next()?.parse().ok()?;
    let rule = it.next()?;
    let rest = it.next()?;
    if rest.strip_prefix(owner)?.strip_prefix(':')? != scatter.palette {
        return None;
    }
    let r = scatter.rules.iter().position(|x| x == rule)?;
    Some((r as u16, i, j))
}

/// Says that `requested` (TerrainScatter.chunk_size) would split a terrain of `size` into
/// more chunks than the renderer keeps, and that `used` is drawn with instead.
pub(super) fn warn_chunk_size(requested: f32, used: f32, size: [f32; 2]) {
    godot_warn!(
        "TerrainScatter.chunk_size {requested} would split this {} × {} terrain into more than \
         {} chunks a side; chunks of {used} units are used instead",
        size[0],
        size[1],
        ridgeline_core::scatter::chunks::MAX_CHUNKS_PER_SIDE
    );
}

impl Streamer {
    /// Re-indexes `scatter` without the `hidden` identities; chunks whose placements changed
    /// are rebuilt now (only those). A different chunk grid frees everything.
    #[allow(clippy::too_many_arguments)]
    pub fn reindex(
        &mut self,
        scatter: Arc<Scatter>,
        size: [f32; 2],
        chunk_size: f32,
        hidden: &HashSet<Ident>,
        target: &Target,
        parent: &mut Gd<Node3D>,
        terrain: &Gd<Node3D>,
        rules_changed: bool,
    ) -> Vec<(String, Gd<Node3D>)> {
        let index = ChunkIndex::build(&scatter, size, chunk_size, |_, p| {
            hidden.is_empty() || !hidden.contains(&(p.rule, p.cell[0], p.cell[1]))
        });
        if index.chunks != self.index.chunks || rules_changed {
            if index.chunks != self.index.chunks && index.chunk_size != chunk_size {
                warn_chunk_size(chunk_size, index.chunk_size, size);
            }
            self.clear();
        }
        self.scatter = Some(scatter.clone());
        self.index = index;
        self.built.resize_with(self.index.groups.len(), || None);
        let mut spawned = Vec::new();
        for &c in &self.built_ids {
            let groups = &self.index.groups[c];
            let hash = chunk_build::content_hash(&scatter, groups);
            let Some(old) = self.built[c].take_if(|b| b.hash != hash) else {
                continue;
            };
            let mut reuse = HashMap::new();
            old.free(Some(&mut reuse));
            let key = |p: &Placement| scatter.key(&self.owner, p);
            let new = chunk_build::build(
                &scatter,
                groups,
                &self.rules,
                target,
                parent,
                terrain,
                &mut reuse,
                &key,
                &mut spawned,
            );
            for (k, n) in reuse {
                self.objects.remove(&k);
                if n.is_instance_valid() {
                    n.free();
                }
            }
            self.built[c] = Some(new);
            self.rebuilds += 1;
        }
        let built = &self.built;
        self.built_ids.retain(|&c| built[c].is_some());
        self.queued_at = None;
        self.register(&spawned);
        spawned
    }

    fn register(&mut self, spawned: &[(String, Gd<Node3D>)]) {
        for (k, n) in spawned {
            self.objects.insert(k.clone(), n.clone());
        }
        // Rebuilt chunks re-register the objects they kept.
        for &c in &self.built_ids {
            if let Some(b) = &self.built[c] {
                for g in &b.groups {
                    for (k, n) in &g.nodes {
                        self.objects.entry(k.clone()).or_insert_with(|| n.clone());
                    }
                }
            }
        }
    }

    /// Frees every built chunk.
    pub fn clear(&mut self) {
        for c in std::mem::take(&mut self.built_ids) {
            if let Some(b) = self.built.get_mut(c).and_then(Option::take) {
                b.free(None);
            }
        }
        self.objects.clear();
        self.queue.clear();
        self.queued_at = None;
    }

    /// Forgets the placements (and frees everything).
    pub fn reset(&mut self) {
        self.clear();
        self.scatter = None;
        self.index = ChunkIndex::default();
        self.built.clear();
    }

    /// Frees the built chunks `chunks` (indices into the grid); they are queued again on the
    /// next frame.
    pub fn free_chunks(&mut self, chunks: &[usize]) {
        for &c in chunks {
            if let Some(b) = self.built.get_mut(c).and_then(Option::take) {
                b.free(None);
                self.rebuilds += 1;
            }
        }
        let built = &self.built;
        self.built_ids.retain(|&c| built[c].is_some());
        self.queued_at = None;
    }

    /// One frame: frees chunks beyond the radius, builds queued chunks nearest first until
    /// `budget_usec` is spent (at least one; negative: all), then thins every built chunk.
    /// Chunks come from `source` when given (an on-demand streamer), else from the indexed
    /// placements. Returns the chunks built.
    #[allow(clippy::too_many_arguments)]
    pub fn frame(
        &mut self,
        viewer: Vector3,
        radius: f32,
        budget_usec: i64,
        target: &Target,
        parent: &mut Gd<Node3D>,
        terrain: &Gd<Node3D>,
        source: Option<&dyn ChunkSource>,
    ) -> (usize, Vec<(String, Gd<Node3D>)>) {
        let scatter = self.scatter.clone();
        if scatter.is_none() && source.is_none() {
            return (0, Vec::new());
        }
        let size = self.index.chunk_size;
        let moved = self.queued_radius != radius
            || self
                .queued_at
                .is_none_or(|q| (q - viewer).length() > size * 0.25);
        if moved {
            self.requeue(viewer, radius);
        }
        let start = Instant::now();
        let mut built = 0;
        let mut spawned = Vec::new();
        while let Some(&(_, c)) = self.queue.last() {
            if budget_usec >= 0 && built > 0 && start.elapsed().as_micros() as i64 >= budget_usec {
                break;
            }
            self.queue.pop();
            if self.built[c].is_some() {
                continue;
            }
            let chunk = match (source, &scatter) {
                (Some(src), _) => src.build(c, &self.rules, target),
                (None, Some(scatter)) => {
                    let key = |p: &Placement| scatter.key(&self.owner, p);
                    chunk_build::build(
                        scatter,
                        &self.index.groups[c],
                        &self.rules,
                        target,
                        parent,
                        terrain,
                        &mut HashMap::new(),
                        &key,
                        &mut spawned,
                    )
                }
                (None, None) => break,
            };
            self.built[c] = Some(chunk);
            self.built_ids.push(c);
            self.builds += 1;
            built += 1;
        }
        for (k, n) in &spawned {
            self.objects.insert(k.clone(), n.clone());
        }
        self.thin(viewer, target.visible);
        (built, spawned)
    }

    /// Distance thinning of every built chunk.
    pub fn thin(&mut self, viewer: Vector3, shown: bool) -> usize {
        let mut changed = 0;
        for &c in &self.built_ids {
            if let Some(b) = self.built[c].as_mut() {
                let d = b.distance(viewer);
                changed += b.thin(d, shown);
            }
        }
        changed
    }

    fn rect_distance(&self, c: usize, v: Vector3) -> f32 {
        let [nx, _] = self.index.chunks;
        let s = self.index.chunk_size;
        let (x0, z0) = ((c % nx) as f32 * s, (c / nx) as f32 * s);
        let dx = (x0 - v.x).max(v.x - (x0 + s)).max(0.0);
        let dz = (z0 - v.z).max(v.z - (z0 + s)).max(0.0);
        dx.hypot(dz)
    }

    /// Frees built chunks beyond the radius (with half a chunk of hysteresis) and queues the
    /// unbuilt non-empty chunks within it, nearest last.
    fn requeue(&mut self, viewer: Vector3, radius: f32) {
        self.queued_at = Some(viewer);
        self.queued_radius = radius;
        let s = self.index.chunk_size;
        let far = radius + s * 0.5;
        let mut keep = Vec::with_capacity(self.built_ids.len());
        for c in std::mem::take(&mut self.built_ids) {
            if self.rect_distance(c, viewer) > far {
                if let Some(b) = self.built[c].take() {
                    for g in &b.groups {
                        for (k, _) in &g.nodes {
                            self.objects.remove(k);
                        }
                    }
                    b.free(None);
                }
            } else {
                keep.push(c);
            }
        }
        self.built_ids = keep;
        self.queue.clear();
        let [nx, nz] = self.index.chunks;
        let lo = |v: f32, n: usize| (((v - radius) / s).floor().max(0.0) as usize).min(n);
        let hi = |v: f32, n: usize| (((v + radius) / s).ceil().max(0.0) as usize).min(n);
        for z in lo(viewer.z, nz)..hi(viewer.z, nz) {
            for x in lo(viewer.x, nx)..hi(viewer.x, nx) {
                let c = z * nx + x;
                if self.built[c].is_some() || (!self.on_demand && self.index.groups[c].is_empty()) {
                    continue;
                }
                let d = self.rect_distance(c, viewer);
                if d <= radius {
                    self.queue.push((d, c));
                }
            }
        }
        self.queue
            .sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
    }

    /// Moves every built chunk with the terrain (node-mode objects by `moved`, see
    /// [`BuiltChunk::set_transform`]).
    pub fn set_transform(&self, target: &Target, moved: Transform3D) {
        for &c in &self.built_ids {
            if let Some(b) = &self.built[c] {
                b.set_transform(target, moved);
            }
        }
    }

    /// Shows or hides everything.
    pub fn set_shown(&self, shown: bool) {
        for &c in &self.built_ids {
            if let Some(b) = &self.built[c] {
                b.set_shown(shown);
            }
        }
    }
}
