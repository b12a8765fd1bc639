//! Painted foliage density in an edit session: `foliage_density` strokes (the recipe's
//! `foliage_paint`) replayed into per-type maps, incrementally and undoably. A stroke
//! recomputes only its footprint on its own type's map (a stamp reads nothing around it), so
//! the incremental result equals a full replay; undo and redo write the stored values back.

use super::{Change, EditSession};
use crate::edit::foliage_density::{self, FoliageMaps};
use crate::edit::history::{FoliageRecord, Packed, Record, RecordKind};
use crate::edit::rect::Rect;
use crate::edit::stroke::{Op, Stroke};
use crate::error::Diagnostics;
use crate::recipe::Recipe;

/// Reports, at `path.foliage`, a `foliage_density` stroke naming a foliage type the recipe's
/// palette does not define.
pub(super) fn check_type(recipe: &Recipe, stroke: &Stroke, path: &str, d: &mut Diagnostics) {
    let (Op::FoliageDensity { foliage, .. } | Op::FoliagePatch { foliage, .. }) = &stroke.op else {
        return;
    };
    let types: Vec<&str> = recipe
        .palette
        .iter()
        .flat_map(|p| p.foliage.iter().map(|t| t.id.as_str()))
        .collect();
    if !types.contains(&foliage.as_str()) {
        d.push(
            format!("{path}.foliage"),
            if types.is_empty() {
                format!(
                    "names foliage type `{foliage}`, but the recipe's palette defines no foliage types"
                )
            } else {
                format!(
                    "names foliage type `{foliage}`, which the palette does not define (it defines {})",
                    types.join(", ")
                )
            },
        );
    }
}

impl EditSession {
    /// The painted foliage density maps (a type without a map is 1 everywhere).
    pub fn foliage_maps(&self) -> &FoliageMaps {
        &self.foliage_maps
    }

    /// Type `id`'s painted density multiplier at the sample nearest terrain-local (x, z)
    /// (1 where unpainted); `None` outside the terrain.
    pub fn foliage_density_at(&self, id: &str, x: f32, z: f32) -> Option<f32> {
        let (sx, sz) = self.grid.nearest_sample(x, z)?;
        Some(self.foliage_maps.value(id, self.grid.index(sx, sz)))
    }

    /// Starts every type's density from `maps` (a cooked terrain's painted density): strokes
    /// paint over them, and undoing every stroke comes back to them. Maps of another sample
    /// count are an error and change nothing.
    pub fn set_base_foliage(&mut self, maps: &FoliageMaps) -> crate::error::Result<()> {
        let n = self.grid.sample_count();
        if maps.samples() != n {
            return Err(crate::error::Error::invalid(
                "base foliage maps",
                format!("have {} samples; the grid has {n}", maps.samples()),
            ));
        }
        self.base_foliage = maps.clone();
        self.foliage_maps = maps.clone();
        self.replay_foliage(self.all());
        Ok(())
    }

    /// The types the foliage strokes paint, and those with a base map.
    fn painted_types(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .foliage
            .iter()
            .filter_map(|s| match &s.op {
                Op::FoliageDensity { foliage, .. } | Op::FoliagePatch { foliage, .. } => {
                    Some(foliage.clone())
                }
                _ => None,
            })
            .chain(self.base_foliage.types().map(String::from))
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }

    /// Recomputes every painted type's map on `rect` from the strokes.
    pub(super) fn replay_foliage(&mut self, rect: Rect) {
        let all = self.all();
        for id in self.painted_types() {
            let start = self.base_foliage.copy(&id, rect, &all);
            let values = foliage_density::replay_onto(&self.foliage, &id, &self.grid, rect, start);
            self.foliage_maps.write(&id, rect, &all, &values);
        }
    }

    /// Records the stroke just appended to the foliage list: its type's map is recomputed on
    /// `start` (the stroke's footprint).
    pub(super) fn commit_foliage(&mut self, kind: RecordKind, start: Rect) -> Change {
        let id = match &kind {
            RecordKind::Stroke {
                stroke:
                    Stroke {
                        op: Op::FoliageDensity { foliage, .. } | Op::FoliagePatch { foliage, .. },
                        ..
                    },
                ..
            } => foliage.clone(),
            _ => String::new(),
        };
        let all = self.all();
        let before = self.foliage_maps.copy(&id, start, &all);
        let base = self.base_foliage.copy(&id, start, &all);
        let after = foliage_density::replay_onto(&self.foliage, &id, &self.grid, start, base);
        let changed = before != after;
        if changed {
            self.foliage_maps.write(&id, start, &all, &after);
        }
        let record = Record {
            foliage: Some(FoliageRecord {
                id,
                rect: start,
                before: Packed::pack(&before),
                after: Packed::pack_delta(&after, &before),
            }),
            ..Record::recipe_only(kind)
        };
        self.history.push(record);
        self.redo.clear();
        foliage_change(start, changed)
    }

    /// Writes a foliage record's values back (undo: before, redo: after).
    pub(super) fn restore_foliage(&mut self, f: &FoliageRecord, after: bool) -> Change {
        let before = f.before.unpack();
        let values = if after {
            f.after.unpack_delta(&before)
        } else {
            before
        };
        let all = self.all();
        let changed = self.foliage_maps.copy(&f.id, f.rect, &all) != values;
        if values.len() == f.rect.area() {
            self.foliage_maps.write(&f.id, f.rect, &all, &values);
        }
        foliage_change(f.rect, changed)
    }
}

fn foliage_change(rect: Rect, changed: bool) -> Change {
    Change {
        touched: rect,
        foliage: if changed { rect } else { Rect::EMPTY },
        ..Default::default()
    }
}
