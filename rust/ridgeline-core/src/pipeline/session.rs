//! An editable terrain: the generated base, the stroke stack and the current surface, with
//! exact incremental updates and undo history.
//!
//! Evaluation order: the generated base (graph), then height edits — the enabled `sculpt` and
//! `protection` layers in the recipe's layer order, each layer's strokes in list order — then
//! the exclusion mask (`exclusions` layers) and painted regions (`biomes` layers), which read the
//! final surface for slope limits. Disabled layers keep their strokes but are skipped. `hole`
//! strokes live in `edits` (sculpt layers, in the same order) but write the per-cell hole mask,
//! starting from the base's holes; they neither read nor write heights.
//!
//! Incremental updates: a change (new stroke, undo, layer toggle) starts from the footprint of
//! the strokes involved. Walking the order forward, each later stamp that reads neighbours
//! (smooth, ramp edge smoothing, slope limits) grows the changed rectangle `C` by its read
//! distance where it overlaps; walking backward from `C`, each stamp grows the rectangle `N`
//! whose pre-edit values the replay needs. Replaying every stroke on `N` from the base gives the
//! same bits as a full replay on `C` (same code, same inputs). Only `C` is written.

use crate::edit::MaskLoader;
use crate::edit::apply::{
    OutOfRange, Window, apply_exclusion, apply_heights, apply_region, cells_of,
};
use crate::edit::history::{Record, RecordKind};
use crate::edit::rect::Rect;
use crate::edit::stroke::{List, Op, ParseContext, Stroke};
use crate::error::{Diagnostics, Error, Result};
use crate::grid::{Grid, HoleMask};
use crate::heightfield::Heightfield;
use crate::recipe::{Layer, Recipe};
use serde_json::Value;
use std::sync::Arc;

mod batch;
mod change;
mod commit;
mod derived;
mod flow;
mod foliage_paint;
mod holes;
mod layers;
mod paint;
#[cfg(test)]
pub(crate) use paint::{user_channel_stamp, user_channel_stroke};
mod protection;
mod stroke_lists;
mod water;
pub use change::Change;
use holes::{changed_cells, cut_whole_chunk};
pub use layers::{MAX_LAYER_NAME, USER_LAYER_KINDS};

/// An editable terrain.
pub struct EditSession {
    recipe: Recipe,
    /// Exclusion and regions under every stroke (zeros, or a cooked payload's masks).
    base_exclusion: Vec<f32>,
    base_regions: Vec<u16>,
    /// The generated base's holes (hole strokes cut and fill on top of them).
    base_holes: HoleMask,
    grid: Grid,
    base: Vec<f32>,
    field: Heightfield,
    exclusion: Vec<f32>,
    /// Protection mask (`protect` strokes' brush weight, 0–1): blocks scatter like exclusions.
    protection: Vec<f32>,
    regions: Vec<u16>,
    /// User channels and surface paint (`crate::edit::paint`), replayed from the paint strokes.
    paint: crate::edit::paint::PaintLayers,
    /// The layers the paint strokes paint over (a cooked terrain's; default otherwise).
    base_paint: crate::edit::paint::PaintLayers,
    /// Painted water (`crate::edit::water`), replayed from the `paint_water` strokes.
    water: crate::edit::water::WaterLayer,
    /// The painted water the `paint_water` strokes paint over (a cooked terrain's; dry
    /// otherwise). `base` holds the heights above it (the surface, not the bed).
    base_water: crate::edit::water::WaterLayer,
    biome_names: Vec<String>,
    edits: Vec<Stroke>,
    exclusions: Vec<Stroke>,
    painted: Vec<Stroke>,
    /// `foliage_density` strokes (the recipe's `foliage_paint`) and the maps they paint.
    foliage: Vec<Stroke>,
    foliage_maps: crate::edit::foliage_density::FoliageMaps,
    /// Density maps the strokes paint over (a cooked terrain's; 1 everywhere otherwise).
    base_foliage: crate::edit::foliage_density::FoliageMaps,
    masks: Option<MaskLoader>,
    history: Vec<Record>,
    redo: Vec<Record>,
    scratch: Vec<f32>,
    /// Biome and role classification, reclassified locally after every change.
    surface: Option<super::SurfaceState>,
    /// Scatter: the immutable base placements and the current ones, refiltered inside every
    /// change's touched rectangle (`pipeline::scatter`).
    scatter: Option<(Arc<crate::scatter::Scatter>, Arc<crate::scatter::Scatter>)>,
    /// The scatter sub-seed refiltering hashes with (the recipe's, or a cooked payload's).
    scatter_seed: u64,
    /// A cooked payload's climate sub-seed (`set_scatter_source` with biome rules): the
    /// session then re-resolves biomes by the stored rules instead of keeping the cooked ids.
    climate_seed: Option<u64>,
    /// Flow after sculpting (`session/flow.rs`): the graph's own flow accumulation, and
    /// whether heights changed since the classification's flow was computed.
    flow: flow::FlowState,
}

impl EditSession {
    /// Replays `recipe`'s strokes on `base` (the generated surface; its holes are kept).
    /// Errors locate every invalid stroke (for example a protection snapshot taken on another
    /// grid).
    pub fn new(recipe: Recipe, base: Heightfield, masks: Option<MaskLoader>) -> Result<Self> {
        let grid = *base.grid();
        let masks = Some(masks.unwrap_or_else(|| {
            Arc::new(|reference: &str| {
                Err(format!(
                    "no folder to resolve `{reference}` from (use \"circle\" or \"square\", or edit the terrain through its asset file)"
                ))
            })
        }));
        let mut d = Diagnostics::default();
        let biome_names: Vec<String> = recipe.biomes.keys().cloned().collect();
        let parse = |list: List, values: &[Value], d: &mut Diagnostics| -> Vec<Stroke> {
            let has_biome = |b: &str| recipe.biomes.contains_key(b) || b == recipe.default_biome;
            let loader = masks.as_deref().map(|m| m as &dyn Fn(&str) -> _);
            let ctx = ParseContext {
                layers: &recipe.layers,
                has_biome: &has_biome,
                grid: Some(grid),
                masks: loader,
            };
            values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    Stroke::parse(v, &format!("recipe.{}[{i}]", list.key()), list, &ctx, d)
                })
                .collect()
        };
        let edits = parse(List::Edits, &recipe.edits, &mut d);
        let exclusions = parse(List::Exclusions, &recipe.exclusions, &mut d);
        let painted = parse(List::Regions, &recipe.regions, &mut d);
        let foliage = parse(List::Foliage, &recipe.foliage_paint, &mut d);
        for (i, st) in foliage.iter().enumerate() {
            foliage_paint::check_type(&recipe, st, &format!("recipe.foliage_paint[{i}]"), &mut d);
        }
        d.into_result()?;
        let n = grid.sample_count();
        let scatter_seed = crate::seed::sub_seed(recipe.seed, "scatter");
        let mut s = Self {
            base_holes: base.holes().clone(),
            base: base.heights().to_vec(),
            field: base,
            grid,
            exclusion: vec![0.0; n],
            protection: vec![0.0; n],
            regions: vec![0; n],
            paint: crate::edit::paint::PaintLayers::new(n),
            base_paint: crate::edit::paint::PaintLayers::new(n),
            water: crate::edit::water::WaterLayer::new(n),
            base_water: crate::edit::water::WaterLayer::new(n),
            base_exclusion: vec![0.0; n],
            base_regions: vec![0; n],
            biome_names,
            edits,
            exclusions,
            painted,
            foliage,
            foliage_maps: crate::edit::foliage_density::FoliageMaps::new(n),
            base_foliage: crate::edit::foliage_density::FoliageMaps::new(n),
            recipe,
            masks,
            history: Vec::new(),
            redo: Vec::new(),
            scratch: Vec::new(),
            surface: None,
            scatter: None,
            scatter_seed,
            climate_seed: None,
            flow: flow::FlowState::default(),
        };
        let [w, h] = grid.samples();
        let all = Rect::new(0, 0, w, h);
        let heights = s
            .replay_heights(all)
            .map_err(|(i, o)| Error::invalid(format!("recipe.edits[{i}]"), o.describe()))?;
        s.field = Heightfield::new(grid, heights.values, Some(s.base_holes.clone()))?;
        s.refresh_water(all);
        let cells = s.all_cells();
        let holes = s.replay_holes(cells);
        if let Some(chunk) = s
            .field
            .all_hole_chunk(cells.x0, cells.z0, cells.x1, cells.z1, &holes)
        {
            return Err(Error::invalid(
                format!("recipe.edits[{}]", s.last_hole_stroke()),
                cut_whole_chunk(chunk),
            ));
        }
        s.field
            .write_holes(cells.x0, cells.z0, cells.x1, cells.z1, &holes)?;
        s.refresh_masks(all);
        s.refresh_protection(all);
        s.replay_foliage(all);
        s.replay_paint(all);
        Ok(s)
    }

    /// Starts the exclusion mask and painted regions from a cooked payload's (runtime strokes
    /// paint over them). `names` are the payload's region biome names. An empty slice means
    /// "none"; a mask of any other length than the grid's sample count, or a region id without
    /// a name, is an error and changes nothing.
    pub fn set_base_masks(
        &mut self,
        exclusion: &[f32],
        regions: &[u16],
        names: &[String],
    ) -> Result<()> {
        let n = self.grid.sample_count();
        let mut d = Diagnostics::default();
        for (what, len) in [("exclusion", exclusion.len()), ("regions", regions.len())] {
            if len != 0 && len != n {
                d.push(
                    format!("base masks.{what}"),
                    format!("has {len} values; the grid has {n} samples (or give none)"),
                );
            }
        }
        if let Some(&r) = regions.iter().find(|&&r| r as usize > names.len()) {
            d.push(
                "base masks.regions",
                format!("region id {r} names no biome ({} names given)", names.len()),
            );
        }
        d.into_result()?;
        if exclusion.len() == n {
            self.base_exclusion = exclusion.to_vec();
        }
        if regions.len() == n {
            let map: Vec<u16> = names
                .iter()
                .map(
                    |name| match self.biome_names.iter().position(|b| b == name) {
                        Some(k) => k as u16 + 1,
                        None => {
                            self.biome_names.push(name.clone());
                            self.biome_names.len() as u16
                        }
                    },
                )
                .collect();
            self.base_regions = regions
                .iter()
                .map(|&r| if r == 0 { 0 } else { map[r as usize - 1] })
                .collect();
        }
        let [w, h] = self.grid.samples();
        self.refresh_masks(Rect::new(0, 0, w, h));
        Ok(())
    }

    /// Exclusion mask, region ids and their biome names for a cooked payload (empty vectors
    /// when nothing is excluded or painted).
    pub fn masks_for_payload(&self) -> (Vec<f32>, Vec<u16>, Vec<String>) {
        let exclusion = if self.exclusion.iter().any(|&m| m != 0.0) {
            self.exclusion.clone()
        } else {
            Vec::new()
        };
        let regions = if self.regions.iter().any(|&r| r != 0) {
            self.regions.clone()
        } else {
            Vec::new()
        };
        let names = if regions.is_empty() {
            Vec::new()
        } else {
            self.biome_names.clone()
        };
        (exclusion, regions, names)
    }

    /// The recipe with every stroke and layer as currently edited.
    pub fn recipe(&self) -> &Recipe {
        &self.recipe
    }

    /// The current surface.
    pub fn field(&self) -> &Heightfield {
        &self.field
    }

    /// The generated base surface (before edits).
    pub fn base(&self) -> &[f32] {
        &self.base
    }

    /// The exclusion mask (0–1 per sample).
    pub fn exclusion(&self) -> &[f32] {
        &self.exclusion
    }

    /// Painted biome per sample: `None` where no region is painted.
    pub fn painted_biome(&self, x: usize, z: usize) -> Option<&str> {
        let id = self.regions[self.grid.index(x, z)];
        (id > 0).then(|| self.biome_names[id as usize - 1].as_str())
    }

    /// The biome at terrain-local (x, z): the classification's at the nearest sample when the
    /// session has one (rules, painted regions, default), else the painted region, else the
    /// recipe's default biome. `None` outside the terrain.
    pub fn biome_at(&self, x: f32, z: f32) -> Option<&str> {
        let (sx, sz) = self.grid.nearest_sample(x, z)?;
        if let Some(s) = self.surface()
            && let Some(b) = s
                .biome_id(self.grid.index(sx, sz))
                .and_then(|id| s.biome(id))
        {
            return Some(b.name.as_str());
        }
        Some(
            self.painted_biome(sx, sz)
                .unwrap_or(&self.recipe.default_biome),
        )
    }

    /// Layers in order.
    pub fn layers(&self) -> &[Layer] {
        &self.recipe.layers
    }

    /// Number of strokes that evaluate in layer `id`.
    pub fn strokes_in_layer(&self, id: &str) -> usize {
        [List::Edits, List::Exclusions, List::Regions]
            .into_iter()
            .map(|list| {
                self.list(list)
                    .iter()
                    .filter(|s| self.effective_layer(s, list) == Some(id))
                    .count()
            })
            .sum()
    }

    /// Number of strokes in each list: edits, exclusions, regions.
    pub fn stroke_counts(&self) -> [usize; 3] {
        [self.edits.len(), self.exclusions.len(), self.painted.len()]
    }

    /// Compressed bytes held by the undo and redo history.
    pub fn history_bytes(&self) -> usize {
        self.history
            .iter()
            .chain(&self.redo)
            .map(|r| {
                r.before_heights.compressed_bytes()
                    + r.after_heights.compressed_bytes()
                    + r.before_masks.0.compressed_bytes()
                    + r.after_masks.0.compressed_bytes()
                    + 2 * r.before_masks.1.len()
                    + r.before_holes.len()
                    + r.after_holes.len()
                    + r.foliage.as_ref().map_or(0, |f| {
                        f.before.compressed_bytes() + f.after.compressed_bytes()
                    })
            })
            .sum()
    }

    /// True when there is something to undo / redo.
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }

    /// True when there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forgets the undone edits (a caller that rolled back its own edits with [`Self::undo`]).
    pub fn discard_redo(&mut self) {
        self.redo.clear();
    }

    /// Validates `value` (errors are located at `stroke…`), appends it to its list and updates
    /// only what it touches. A `protect` stroke without `heights` snapshots the current surface.
    /// A stroke that would leave any height non-finite or beyond ±[`crate::heightfield::MAX_HEIGHT`]
    /// (itself, or a later stroke it feeds) is refused, exactly as replaying it in a generation
    /// would refuse it; on any error nothing changes.
    pub fn apply_stroke(&mut self, value: &Value) -> Result<Change> {
        let type_id = value
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(list) = List::of_type(type_id) else {
            return Err(Error::invalid(
                "stroke.type",
                format!(
                    "must be one of {}, got {}",
                    crate::edit::stroke::STROKE_TYPES.join(", "),
                    value
                        .get("type")
                        .map(crate::doc::reader::show)
                        .unwrap_or_else(|| "nothing".into())
                ),
            ));
        };
        let mut value = value.clone();
        if type_id == "protect" && value.get("heights").is_none() {
            self.capture_protection(&mut value)?;
        }
        let stroke = self.parse_one(&value, list)?;
        if stroke.is_paint() {
            let v = stroke.to_value();
            return Ok(self.commit_paint(stroke, v));
        }
        let fp = stroke.footprint(&self.grid);
        self.list_mut(list).push(stroke.clone());
        self.values_mut(list).push(stroke.to_value());
        let new_index = self.list(list).len() - 1;
        let holes = if stroke.is_hole() {
            cells_of(fp, &self.grid)
        } else {
            Rect::EMPTY
        };
        let kind = RecordKind::Stroke { list, stroke };
        self.commit(kind, list, fp, holes).map_err(|(i, o)| {
            self.list_mut(list).pop();
            self.values_mut(list).pop();
            if i == new_index {
                Error::invalid("stroke", format!("{o}; nothing was changed"))
            } else {
                Error::invalid(
                    "stroke",
                    format!(
                        "the later stroke recipe.{}[{i}] then {o}; nothing was changed",
                        list.key(),
                    ),
                )
            }
        })
    }

    /// Undoes the last edit: restores the recipe and the stored before-values (paint strokes:
    /// replays their footprint without them).
    pub fn undo(&mut self) -> Option<Change> {
        let mut change = self.undo_one()?;
        // A batch (`apply_strokes`) undoes as one step.
        while self.redo.last().is_some_and(|r| r.joined) {
            match self.undo_one() {
                Some(c) => change.merge(c),
                None => break,
            }
        }
        Some(change)
    }

    /// Redoes the last undone edit (a whole batch).
    pub fn redo(&mut self) -> Option<Change> {
        let mut change = self.redo_one()?;
        while self.redo.last().is_some_and(|r| r.joined) {
            match self.redo_one() {
                Some(c) => change.merge(c),
                None => break,
            }
        }
        Some(change)
    }

    /// Undoes the last history record alone.
    fn undo_one(&mut self) -> Option<Change> {
        let record = self.history.pop()?;
        self.revert_recipe(&record.kind);
        let change = self.restore(&record, false);
        self.redo.push(record);
        Some(change)
    }

    /// Redoes the last undone history record alone.
    fn redo_one(&mut self) -> Option<Change> {
        let record = self.redo.pop()?;
        self.reapply_recipe(&record.kind);
        let change = self.restore(&record, true);
        self.history.push(record);
        Some(change)
    }

    // ----- internals -----

    /// Replays the height strokes on `rect` from the base. `Err((i, where))` names the stroke
    /// (index into `edits`) that would move a sample out of range.
    fn replay_heights(&mut self, rect: Rect) -> std::result::Result<Window, (usize, OutOfRange)> {
        let [w, _] = self.grid.samples();
        let mut win = Window::copy(&self.base, w, rect);
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut result = Ok(());
        for i in self.order(List::Edits) {
            let s = &self.edits[i];
            if !s.is_hole() && s.footprint(&self.grid).intersects(&rect) {
                result = apply_heights(s, &self.grid, &mut win, &mut scratch).map_err(|o| (i, o));
                if result.is_err() {
                    break;
                }
            }
        }
        self.scratch = scratch;
        result?;
        if self.has_water() {
            // The bed under painted water (`crate::edit::water`).
            let d = self.replay_water(win.rect);
            crate::edit::water::lower_to_bed(&mut win.values, &d);
        }
        Ok(win)
    }

    /// Recomputes the exclusion mask and painted regions on `rect` from scratch.
    fn refresh_masks(&mut self, rect: Rect) {
        if rect.is_empty() {
            return;
        }
        let [w, _] = self.grid.samples();
        let heights = self.field.heights();
        let mut win = Window::copy(&self.base_exclusion, w, rect);
        for i in self.order(List::Exclusions) {
            let s = &self.exclusions[i];
            if s.footprint(&self.grid).intersects(&rect) {
                apply_exclusion(s, &self.grid, &mut win, heights);
            }
        }
        let all = self.all();
        rect.write_into(&mut self.exclusion, &all, &win.values);
        let mut ids = rect.copy_from(&self.base_regions, &all);
        for i in self.order(List::Regions) {
            let s = &self.painted[i];
            if let Op::Region(b) = &s.op
                && s.footprint(&self.grid).intersects(&rect)
            {
                let id = self
                    .biome_names
                    .iter()
                    .position(|n| n == b)
                    .map_or(0, |k| k as u16 + 1);
                apply_region(s, &self.grid, rect, &mut ids, id, heights);
            }
        }
        rect.write_into(&mut self.regions, &all, &ids);
    }

    /// The whole grid as a sample rectangle.
    fn all(&self) -> Rect {
        let [w, h] = self.grid.samples();
        Rect::new(0, 0, w, h)
    }

    /// Per-stamp rectangles and read distances of the height strokes, in evaluation order.
    fn stamp_reads(&self) -> Vec<(Rect, usize)> {
        let mut out = Vec::new();
        for i in self.order(List::Edits) {
            let s = &self.edits[i];
            let r = s.reads();
            if r == 0 {
                continue;
            }
            if let Op::Ramp { .. } = s.op {
                out.push((s.ramp_rect(&self.grid), r));
            } else {
                out.extend(s.stamps().map(|c| (s.stamp_rect(&self.grid, c), r)));
            }
        }
        out
    }
}

/// Adds a paint change's rectangles to `change`.
pub(super) fn merge_paint(change: &mut Change, p: &Change) {
    change.touched = change.touched.union(&p.touched);
    change.surface = change.surface.union(&p.surface);
    change.user_channels = change.user_channels.union(&p.user_channels);
    change.surface_paint = change.surface_paint.union(&p.surface_paint);
}
