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

use crate::biome::SampleRect;
use crate::edit::MaskLoader;
use crate::edit::apply::{
    OutOfRange, Window, apply_exclusion, apply_heights, apply_holes, apply_region, cells_of,
};
use crate::edit::history::{Packed, Record, RecordKind};
use crate::edit::rect::Rect;
use crate::edit::stroke::{List, Op, ParseContext, Stroke, layer_kinds};
use crate::error::{Diagnostics, Error, Result};
use crate::grid::{Grid, HoleMask};
use crate::heightfield::Heightfield;
use crate::recipe::{Layer, Recipe};
use serde_json::Value;
use std::sync::Arc;

/// What an edit changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Change {
    /// Samples whose height changed (may be empty).
    pub heights: Rect,
    /// Samples whose height, normal, exclusion or region may have changed: what meshes,
    /// collision and previews must refresh.
    pub touched: Rect,
    /// Chunks (x, z) whose sample range meets `touched`.
    pub chunks: Vec<[u32; 2]>,
    /// Samples whose biome id or surface role changed (empty when none, or when the session
    /// has no classification); `touched` and `chunks` include them.
    pub surface: Rect,
    /// Cells (a cell rectangle: cell `(x, z)` spans samples `x..=x+1`, `z..=z+1`) whose hole
    /// flags may have changed; `touched` and `chunks` include their samples.
    pub holes: Rect,
}

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
    regions: Vec<u16>,
    biome_names: Vec<String>,
    edits: Vec<Stroke>,
    exclusions: Vec<Stroke>,
    painted: Vec<Stroke>,
    masks: Option<MaskLoader>,
    history: Vec<Record>,
    redo: Vec<Record>,
    scratch: Vec<f32>,
    /// Biome and role classification, reclassified locally after every change.
    surface: Option<super::SurfaceState>,
    /// Scatter: the immutable base placements and the current ones, refiltered inside every
    /// change's touched rectangle (`pipeline::scatter`).
    scatter: Option<(Arc<crate::scatter::Scatter>, Arc<crate::scatter::Scatter>)>,
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
        d.into_result()?;
        let n = grid.sample_count();
        let mut s = Self {
            base_holes: base.holes().clone(),
            base: base.heights().to_vec(),
            field: base,
            grid,
            exclusion: vec![0.0; n],
            regions: vec![0; n],
            base_exclusion: vec![0.0; n],
            base_regions: vec![0; n],
            biome_names,
            edits,
            exclusions,
            painted,
            recipe,
            masks,
            history: Vec::new(),
            redo: Vec::new(),
            scratch: Vec::new(),
            surface: None,
            scatter: None,
        };
        let [w, h] = grid.samples();
        let all = Rect::new(0, 0, w, h);
        let heights = s
            .replay_heights(all)
            .map_err(|(i, o)| Error::invalid(format!("recipe.edits[{i}]"), o.describe()))?;
        s.field = Heightfield::new(grid, heights.values, Some(s.base_holes.clone()))?;
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

    /// Enables or disables a layer; its strokes stay stored. Recorded in the history.
    pub fn set_layer_enabled(&mut self, id: &str, enabled: bool) -> Result<Change> {
        let Some(pos) = self.recipe.layers.iter().position(|l| l.id == id) else {
            let ids: Vec<&str> = self.recipe.layers.iter().map(|l| l.id.as_str()).collect();
            return Err(Error::invalid(
                "layer",
                format!("no layer `{id}`; layers are {}", ids.join(", ")),
            ));
        };
        if self.recipe.layers[pos].enabled == enabled {
            return Ok(Change::default());
        }
        self.recipe.layers[pos].enabled = enabled;
        let layer = self.recipe.layers[pos].clone();
        let list = match layer.kind.as_str() {
            "exclusions" => List::Exclusions,
            "biomes" => List::Regions,
            "generation" => {
                // The generation layer freezes/thaws the base; heights are replayed fully.
                List::Edits
            }
            _ => List::Edits,
        };
        let in_layer = || {
            self.list(list)
                .iter()
                .filter(|s| self.effective_layer(s, list) == Some(id))
        };
        let fp = in_layer().fold(Rect::EMPTY, |acc, s| acc.union(&s.footprint(&self.grid)));
        let holes = in_layer()
            .filter(|s| s.is_hole())
            .fold(Rect::EMPTY, |acc, s| acc.union(&s.footprint(&self.grid)));
        let holes = cells_of(holes, &self.grid);
        self.commit(
            RecordKind::Layer {
                id: id.to_string(),
                enabled,
            },
            list,
            fp,
            holes,
        )
        .map_err(|(i, o)| {
            self.recipe.layers[pos].enabled = !enabled;
            Error::invalid(
                "layer",
                format!(
                    "{} `{id}` would make recipe.{}[{i}] fail: it {o}; nothing was changed",
                    if enabled { "enabling" } else { "disabling" },
                    list.key(),
                ),
            )
        })
    }

    /// Undoes the last edit: restores the recipe and the stored before-values (no replay).
    pub fn undo(&mut self) -> Option<Change> {
        let record = self.history.pop()?;
        self.revert_recipe(&record.kind);
        let change = self.restore(&record, false);
        self.redo.push(record);
        Some(change)
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) -> Option<Change> {
        let record = self.redo.pop()?;
        self.reapply_recipe(&record.kind);
        let change = self.restore(&record, true);
        self.history.push(record);
        Some(change)
    }

    // ----- internals -----

    fn parse_one(&self, value: &Value, list: List) -> Result<Stroke> {
        let mut d = Diagnostics::default();
        let has_biome =
            |b: &str| self.recipe.biomes.contains_key(b) || b == self.recipe.default_biome;
        let loader = self.masks.as_deref().map(|m| m as &dyn Fn(&str) -> _);
        let ctx = ParseContext {
            layers: &self.recipe.layers,
            has_biome: &has_biome,
            grid: Some(self.grid),
            masks: loader,
        };
        let stroke = Stroke::parse(value, "stroke", list, &ctx, &mut d);
        d.into_result()?;
        stroke.ok_or_else(|| Error::invalid("stroke", "invalid stroke"))
    }

    /// Fills `grid` and `heights` of a protect stroke from the current surface.
    fn capture_protection(&self, value: &mut Value) -> Result<()> {
        let Some(obj) = value.as_object_mut() else {
            return Err(Error::invalid("stroke", "must be an object"));
        };
        let cells = self.grid.cells();
        obj.insert("grid".into(), serde_json::json!([cells[0], cells[1]]));
        obj.insert("heights".into(), Value::Array(Vec::new()));
        let mut d = Diagnostics::default();
        let none = |_: &str| true;
        let ctx = ParseContext {
            layers: &self.recipe.layers,
            has_biome: &none,
            grid: None,
            masks: None,
        };
        let shape = Stroke::parse(value, "stroke", List::Edits, &ctx, &mut d);
        d.into_result()?;
        let shape = shape.ok_or_else(|| Error::invalid("stroke", "invalid stroke"))?;
        let mut heights = Vec::new();
        shape.for_each_covered(&self.grid, |x, z| {
            let h = self.field.heights()[self.grid.index(x, z)];
            heights.push(crate::doc::write::json_number(
                crate::edit::stroke::shortest(h),
            ));
        });
        if let Some(obj) = value.as_object_mut() {
            obj.insert("heights".into(), Value::Array(heights));
        }
        Ok(())
    }

    fn list(&self, list: List) -> &Vec<Stroke> {
        match list {
            List::Edits => &self.edits,
            List::Exclusions => &self.exclusions,
            List::Regions => &self.painted,
        }
    }

    fn list_mut(&mut self, list: List) -> &mut Vec<Stroke> {
        match list {
            List::Edits => &mut self.edits,
            List::Exclusions => &mut self.exclusions,
            List::Regions => &mut self.painted,
        }
    }

    fn values_mut(&mut self, list: List) -> &mut Vec<Value> {
        match list {
            List::Edits => &mut self.recipe.edits,
            List::Exclusions => &mut self.recipe.exclusions,
            List::Regions => &mut self.recipe.regions,
        }
    }

    /// The layer a stroke evaluates in: its own, else the first layer of its kind.
    fn effective_layer<'a>(&'a self, s: &'a Stroke, list: List) -> Option<&'a str> {
        if let Some(l) = &s.layer {
            return Some(l);
        }
        let kinds = layer_kinds(list, &s.op);
        self.recipe
            .layers
            .iter()
            .find(|l| kinds.contains(&l.kind.as_str()))
            .map(|l| l.id.as_str())
    }

    /// Indices into `list` in evaluation order (enabled layers only).
    fn order(&self, list: List) -> Vec<usize> {
        let strokes = self.list(list);
        let layer_of: Vec<Option<&str>> = strokes
            .iter()
            .map(|s| self.effective_layer(s, list))
            .collect();
        let kinds: &[&str] = match list {
            List::Edits => &["sculpt", "protection"],
            List::Exclusions => &["exclusions"],
            List::Regions => &["biomes"],
        };
        let mut out = Vec::new();
        for layer in self
            .recipe
            .layers
            .iter()
            .filter(|l| l.enabled && kinds.contains(&l.kind.as_str()))
        {
            out.extend((0..strokes.len()).filter(|&i| layer_of[i] == Some(layer.id.as_str())));
        }
        out
    }

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
        result.map(|()| win)
    }

    /// Replays the hole strokes on the cell rectangle `cells` from the base's holes: the flags
    /// row-major over `cells`.
    fn replay_holes(&self, cells: Rect) -> Vec<bool> {
        let mut out = Vec::with_capacity(cells.area());
        for z in cells.z0..cells.z1 {
            out.extend((cells.x0..cells.x1).map(|x| self.base_holes.is_hole(x, z)));
        }
        if cells.is_empty() {
            return out;
        }
        for i in self.order(List::Edits) {
            let s = &self.edits[i];
            if s.is_hole() && cells_of(s.footprint(&self.grid), &self.grid).intersects(&cells) {
                apply_holes(s, &self.grid, cells, &mut out);
            }
        }
        out
    }

    /// The hole flags of the current surface on the cell rectangle `cells`.
    fn hole_values(&self, cells: Rect) -> Vec<bool> {
        let mut out = Vec::with_capacity(cells.area());
        for z in cells.z0..cells.z1 {
            out.extend((cells.x0..cells.x1).map(|x| self.field.holes().is_hole(x, z)));
        }
        out
    }

    /// Index into `edits` of the last enabled hole stroke (where a refusal is located).
    fn last_hole_stroke(&self) -> usize {
        self.order(List::Edits)
            .into_iter()
            .rfind(|&i| self.edits[i].is_hole())
            .unwrap_or(0)
    }

    /// Every cell of the grid as a cell rectangle.
    fn all_cells(&self) -> Rect {
        let [cx, cz] = self.grid.cells();
        Rect::new(0, 0, cx as usize, cz as usize)
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

    /// Recomputes what `start` (the footprint of the changed strokes) and `holes` (the cells
    /// of the changed hole strokes) affect and records it. Fails before changing anything when
    /// a height stroke would move a sample out of range or hole strokes would cut a whole
    /// chunk: `(index into the list, what it would do)`.
    fn commit(
        &mut self,
        kind: RecordKind,
        list: List,
        start: Rect,
        holes: Rect,
    ) -> std::result::Result<Change, (usize, String)> {
        let [w, h] = self.grid.samples();
        // Holes first: they read nothing else, and a refusal must leave everything unchanged.
        let before_holes = self.hole_values(holes);
        let after_holes = self.replay_holes(holes);
        if let Some(chunk) =
            self.field
                .all_hole_chunk(holes.x0, holes.z0, holes.x1, holes.z1, &after_holes)
        {
            return Err((self.last_hole_stroke(), cut_whole_chunk(chunk)));
        }
        // A new hole stroke changes no height: no height replay.
        let start = match &kind {
            RecordKind::Stroke { stroke, .. } if stroke.is_hole() => Rect::EMPTY,
            _ => start,
        };
        let mut heights_rect = Rect::EMPTY;
        let mut mask_rect = Rect::EMPTY;
        let mut before_h = Vec::new();
        let mut after_h = Vec::new();
        if list == List::Edits && !start.is_empty() {
            let reads = self.stamp_reads();
            let mut c = start;
            for (fr, r) in &reads {
                let g = c.grow(*r, w, h);
                if fr.intersects(&g) {
                    c = c.union(&g.intersect(fr));
                }
            }
            let mut need = c;
            for (fr, r) in reads.iter().rev() {
                let inside = need.intersect(fr);
                if !inside.is_empty() {
                    need = need.union(&inside.grow(*r, w, h));
                }
            }
            let win = self
                .replay_heights(need)
                .map_err(|(i, o)| (i, o.describe()))?;
            before_h = c.copy_from(self.field.heights(), &self.all());
            after_h = c.copy_from(&win.values, &need);
            let _ = self.field.write_region(c.x0, c.z0, c.x1, c.z1, &after_h);
            heights_rect = c;
            if self
                .exclusions
                .iter()
                .chain(&self.painted)
                .any(|s| s.brush.slope.is_some())
            {
                mask_rect = c.grow(1, w, h);
            }
        } else if list != List::Edits {
            mask_rect = start;
        }
        if !holes.is_empty() {
            // Checked above on a copy.
            let _ = self
                .field
                .write_holes(holes.x0, holes.z0, holes.x1, holes.z1, &after_holes);
        }
        let before_m = self.mask_values(mask_rect);
        self.refresh_masks(mask_rect);
        let after_m = self.mask_values(mask_rect);
        let record = Record {
            kind,
            heights: heights_rect,
            before_heights: Packed::pack(&before_h),
            after_heights: Packed::pack_delta(&after_h, &before_h),
            masks: mask_rect,
            before_masks: before_m,
            after_masks: after_m,
            holes,
            before_holes,
            after_holes,
        };
        let changed = changed_cells(holes, &record.before_holes, &record.after_holes);
        self.history.push(record);
        self.redo.clear();
        Ok(self.change(heights_rect, mask_rect, changed))
    }

    fn mask_values(&self, rect: Rect) -> (Packed, Vec<u16>) {
        let all = self.all();
        (
            Packed::pack(&rect.copy_from(&self.exclusion, &all)),
            rect.copy_from(&self.regions, &all),
        )
    }

    fn restore(&mut self, record: &Record, after: bool) -> Change {
        let r = record.heights;
        if !r.is_empty() {
            let before = record.before_heights.unpack();
            let values = if after {
                record.after_heights.unpack_delta(&before)
            } else {
                before
            };
            let _ = self.field.write_region(r.x0, r.z0, r.x1, r.z1, &values);
        }
        let m = record.masks;
        if !m.is_empty() {
            let (ex, ids) = if after {
                &record.after_masks
            } else {
                &record.before_masks
            };
            let all = self.all();
            m.write_into(&mut self.exclusion, &all, &ex.unpack());
            m.write_into(&mut self.regions, &all, ids);
        }
        let c = record.holes;
        if !c.is_empty() {
            let flags = if after {
                &record.after_holes
            } else {
                &record.before_holes
            };
            // Both states were valid surfaces when recorded.
            let _ = self.field.write_holes(c.x0, c.z0, c.x1, c.z1, flags);
        }
        let changed = changed_cells(c, &record.before_holes, &record.after_holes);
        self.change(r, m, changed)
    }

    fn revert_recipe(&mut self, kind: &RecordKind) {
        match kind {
            RecordKind::Stroke { list, .. } => {
                self.list_mut(*list).pop();
                self.values_mut(*list).pop();
            }
            RecordKind::Layer { id, enabled } => {
                if let Some(l) = self.recipe.layers.iter_mut().find(|l| &l.id == id) {
                    l.enabled = !enabled;
                }
            }
        }
    }

    fn reapply_recipe(&mut self, kind: &RecordKind) {
        match kind {
            RecordKind::Stroke { list, stroke } => {
                self.list_mut(*list).push(stroke.clone());
                self.values_mut(*list).push(stroke.to_value());
            }
            RecordKind::Layer { id, enabled } => {
                if let Some(l) = self.recipe.layers.iter_mut().find(|l| &l.id == id) {
                    l.enabled = *enabled;
                }
            }
        }
    }

    fn change(&mut self, heights: Rect, masks: Rect, holes: Rect) -> Change {
        let [w, h] = self.grid.samples();
        let mut surface = Rect::default();
        if let Some(state) = &mut self.surface {
            match state.refresh_layers(&self.recipe, &self.field, &self.regions) {
                Ok(Some(r)) => surface = Rect::new(r.x0, r.z0, r.x1, r.z1),
                Ok(None) => {}
                Err(_) => self.surface = None,
            }
        }
        if let Some(state) = &mut self.surface {
            let edited = heights.union(&masks);
            if !edited.is_empty() && surface.is_empty() {
                let rect = SampleRect::new(edited.x0, edited.z0, edited.x1, edited.z1);
                // Inputs are validated when the state is made, so an error here means the
                // state no longer fits this surface: drop it rather than publish stale ids.
                match state.update(&self.field, &self.regions, rect) {
                    Ok(Some(r)) => surface = Rect::new(r.x0, r.z0, r.x1, r.z1),
                    Ok(None) => {}
                    Err(_) => self.surface = None,
                }
            }
        }
        let hole_samples = if holes.is_empty() {
            Rect::EMPTY
        } else {
            Rect::new(holes.x0, holes.z0, holes.x1 + 1, holes.z1 + 1)
        };
        let touched = heights
            .grow(1, w, h)
            .union(&masks)
            .union(&surface)
            .union(&hole_samples);
        self.refilter_scatter(touched.grow(1, w, h));
        let mut chunks = Vec::new();
        if !touched.is_empty() {
            let [nx, nz] = self.grid.chunks();
            for cz in 0..nz {
                for cx in 0..nx {
                    let r = self.grid.chunk_cells_range(cx, cz);
                    let samples = Rect::new(
                        r.x0 as usize,
                        r.z0 as usize,
                        r.x1 as usize + 1,
                        r.z1 as usize + 1,
                    );
                    if samples.intersects(&touched) {
                        chunks.push([cx, cz]);
                    }
                }
            }
        }
        Change {
            heights,
            touched,
            chunks,
            surface,
            holes,
        }
    }

    /// Attaches a classification of the current surface (what `pipeline::finish` does);
    /// every later change reclassifies locally, bit-identical to a full pass.
    pub fn attach_surface(&mut self, state: super::SurfaceState) {
        self.surface = Some(state);
    }

    /// Classifies the current surface with this session's recipe and `prepared`'s water and
    /// sources (`base_range`: the generated base's height range, for the snow line). With
    /// `keep_biomes` (a cooked terrain, whose rules are not stored) unpainted samples keep
    /// `prepared`'s biome ids and only roles are recomputed.
    pub fn classify_surface(
        &mut self,
        prepared: &super::PreparedTerrain,
        base_range: [f32; 2],
        keep_biomes: bool,
    ) -> Result<()> {
        let mut state = super::SurfaceState::new(
            &self.recipe,
            prepared.sources.clone(),
            &prepared.water,
            base_range,
            &self.field,
            &self.regions,
            &self.biome_names,
        )?;
        if keep_biomes {
            state.keep_biomes(&prepared.surface, &self.field)?;
        }
        self.surface = Some(state);
        Ok(())
    }

    /// Attaches scatter placements: `base` (what refiltering starts from, never added to) and
    /// `current` (`base` refiltered on the current surface). Every later change refilters the
    /// placements inside its touched rectangle; undo restores the same identities.
    pub fn attach_scatter(
        &mut self,
        base: Arc<crate::scatter::Scatter>,
        current: Arc<crate::scatter::Scatter>,
    ) {
        self.scatter = Some((base, current));
    }

    /// The current scatter placements (`None` when none are attached).
    pub fn scatter(&self) -> Option<&Arc<crate::scatter::Scatter>> {
        self.scatter.as_ref().map(|(_, c)| c)
    }

    fn refilter_scatter(&mut self, samples: Rect) {
        let (Some((base, current)), Some(state), Some(palette)) =
            (&self.scatter, &self.surface, &self.recipe.palette)
        else {
            return;
        };
        if samples.is_empty() {
            return;
        }
        let next = super::scatter::refilter_samples(
            palette,
            self.recipe.seed,
            base,
            current,
            &self.field,
            state,
            &self.exclusion,
            [samples.x0, samples.z0, samples.x1, samples.z1],
        );
        self.scatter = Some((base.clone(), Arc::new(next)));
    }

    /// Biome ids and surface roles of the current surface (`None` until classified).
    pub fn surface(&self) -> Option<&super::Surface> {
        self.surface.as_ref().map(|s| s.published())
    }

    /// The classification state (for `explain`).
    pub fn surface_state(&self) -> Option<&super::SurfaceState> {
        self.surface.as_ref()
    }
}

/// Why hole strokes are refused when they would leave chunk `[x, z]` without a solid cell.
fn cut_whole_chunk([x, z]: [u32; 2]) -> String {
    format!(
        "would cut every cell of chunk ({x}, {z}) (every chunk keeps at least one solid cell: erase part of the hole or use a smaller brush)"
    )
}

/// The bounds of the cells of `rect` whose flags differ between `a` and `b` (row-major over
/// `rect`).
fn changed_cells(rect: Rect, a: &[bool], b: &[bool]) -> Rect {
    let mut out = Rect::EMPTY;
    if a.len() != rect.area() || b.len() != rect.area() {
        return rect;
    }
    for (k, _) in a.iter().zip(b).enumerate().filter(|(_, (x, y))| x != y) {
        let (x, z) = (rect.x0 + k % rect.width(), rect.z0 + k / rect.width());
        out = out.union(&Rect::new(x, z, x + 1, z + 1));
    }
    out
}
