//! Committing an edit session's changes: recompute what a change affects, write it, record it
//! for undo, and restore a record on undo/redo.

use super::{Change, EditSession, changed_cells, cut_whole_chunk, merge_paint};
use crate::biome::SampleRect;
use crate::edit::history::{Packed, Record, RecordKind};
use crate::edit::rect::Rect;
use crate::edit::stroke::List;

impl EditSession {
    /// Recomputes what `start` (the footprint of the changed strokes) and `holes` (the cells
    /// of the changed hole strokes) affect and records it. Fails before changing anything when
    /// a height stroke would move a sample out of range or hole strokes would cut a whole
    /// chunk: `(index into the list, what it would do)`.
    pub(super) fn commit(
        &mut self,
        kind: RecordKind,
        list: List,
        start: Rect,
        holes: Rect,
    ) -> std::result::Result<Change, (usize, String)> {
        if list == List::Foliage {
            return Ok(self.commit_foliage(kind, start));
        }
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
        let mut protect_rect = Rect::EMPTY;
        let mut before_h = Vec::new();
        let mut after_h = Vec::new();
        let mut water_changed = false;
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
            water_changed = self.refresh_water(c);
            heights_rect = c;
            // The changed strokes' own footprint (a protect stroke, a protection layer).
            protect_rect = start;
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
        self.refresh_protection(protect_rect);
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
            foliage: None,
            joined: false,
        };
        let changed = changed_cells(holes, &record.before_holes, &record.after_holes);
        if water_changed {
            self.sync_surface_water();
        }
        let mut change = self.change(heights_rect, mask_rect, changed);
        mark_masks(&mut change, &record);
        if water_changed {
            change.water = heights_rect;
        }
        self.history.push(record);
        self.redo.clear();
        Ok(change)
    }

    pub(super) fn mask_values(&self, rect: Rect) -> (Packed, Vec<u16>) {
        let all = self.all();
        (
            Packed::pack(&rect.copy_from(&self.exclusion, &all)),
            rect.copy_from(&self.regions, &all),
        )
    }

    pub(super) fn restore(&mut self, record: &Record, after: bool) -> Change {
        if let Some(f) = &record.foliage {
            return self.restore_foliage(f, after);
        }
        if let RecordKind::Stroke { stroke, .. } = &record.kind
            && stroke.is_paint()
        {
            return self.restore_paint(stroke);
        }
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
        let mut water_changed = false;
        if !r.is_empty() {
            // The recipe is already reverted or reapplied: recompute the protection and the
            // painted water of the height rectangle (it holds every changed stroke's footprint).
            self.refresh_protection(r);
            water_changed = self.refresh_water(r);
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
        if water_changed {
            self.sync_surface_water();
        }
        let mut change = self.change(r, m, changed);
        mark_masks(&mut change, record);
        if water_changed {
            change.water = r;
        }
        if let RecordKind::Layer { id, .. } = &record.kind {
            let p = self.refresh_layer_paint(id);
            merge_paint(&mut change, &p);
        }
        change
    }

    pub(super) fn revert_recipe(&mut self, kind: &RecordKind) {
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
            RecordKind::Layers { before, .. } => self.recipe.layers = before.clone(),
        }
    }

    pub(super) fn reapply_recipe(&mut self, kind: &RecordKind) {
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
            RecordKind::Layers { after, .. } => self.recipe.layers = after.clone(),
        }
    }

    pub(super) fn change(&mut self, heights: Rect, masks: Rect, holes: Rect) -> Change {
        let [w, h] = self.grid.samples();
        if !heights.is_empty() {
            self.flow.stale = true;
        }
        let mut surface = Rect::default();
        if let Some(state) = &mut self.surface {
            match state.refresh_layers(&self.recipe, &self.field, &self.regions) {
                Ok(Some(r)) => {
                    surface = Rect::new(r.x0, r.z0, r.x1, r.z1);
                    let paint = &self.paint;
                    state.override_roles(surface, |i, c| paint.role(i, c));
                }
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
                    Ok(Some(r)) => {
                        surface = Rect::new(r.x0, r.z0, r.x1, r.z1);
                        let paint = &self.paint;
                        state.override_roles(surface, |i, c| paint.role(i, c));
                    }
                    Ok(None) => {}
                    Err(_) => self.surface = None,
                }
            }
        }
        let hole_samples = super::change::corner_samples(holes);
        let touched = heights
            .grow(1, w, h)
            .union(&masks)
            .union(&surface)
            .union(&hole_samples);
        self.refilter_scatter(touched.grow(1, w, h));
        let chunks = self.chunks_meeting(touched);
        Change {
            heights,
            touched,
            chunks,
            surface,
            holes,
            exclusion: Rect::EMPTY,
            regions: Rect::EMPTY,
            foliage: Rect::EMPTY,
            user_channels: Rect::EMPTY,
            surface_paint: Rect::EMPTY,
            water: Rect::EMPTY,
        }
    }
}

impl EditSession {
    /// Chunks (x, z) whose sample range meets `touched`.
    pub(super) fn chunks_meeting(&self, touched: Rect) -> Vec<[u32; 2]> {
        let mut chunks = Vec::new();
        if touched.is_empty() {
            return chunks;
        }
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
        chunks
    }
}

/// Sets `change.exclusion` / `change.regions` to the record's mask rectangle when its
/// exclusion weights / region ids differ before and after (packing is deterministic, so equal
/// packed data means equal values).
fn mark_masks(change: &mut Change, record: &Record) {
    if record.masks.is_empty() {
        return;
    }
    if record.before_masks.0 != record.after_masks.0 {
        change.exclusion = record.masks;
    }
    if record.before_masks.1 != record.after_masks.1 {
        change.regions = record.masks;
    }
}
