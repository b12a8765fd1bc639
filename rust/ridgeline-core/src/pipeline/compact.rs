//! Compaction (consecutive stamps with identical settings share one entry) and the
//! keep-or-clear decision when a terrain's grid changes under existing edits.

use super::sculpted_flow::same_bits;
use super::session::EditSession;
use crate::edit::MaskLoader;
use crate::edit::stroke::{List, ParseContext, Stroke};
use crate::error::{Diagnostics, Error, Result};
use crate::heightfield::Heightfield;
use crate::recipe::Recipe;

/// The result of compacting a recipe's strokes.
#[derive(Clone, Debug)]
pub struct Compaction {
    /// Stroke entries per list (edits, exclusions, regions) before.
    pub before: [usize; 3],
    /// And after.
    pub after: [usize; 3],
    /// The compacted recipe (every other field unchanged).
    pub recipe: Recipe,
}

impl Compaction {
    /// True when nothing merged.
    pub fn unchanged(&self) -> bool {
        self.before == self.after
    }
}

/// Merges consecutive strokes of each list that share operation, settings and layer into one
/// `points` entry. Order, repeated and overlapping stamps are kept; protection snapshots and
/// ramps never merge.
pub fn compact(recipe: &Recipe) -> Result<Compaction> {
    let mut out = recipe.clone();
    let mut before = [0; 3];
    let mut after = [0; 3];
    for (k, list) in [List::Edits, List::Exclusions, List::Regions]
        .into_iter()
        .enumerate()
    {
        let values = match list {
            List::Edits => &recipe.edits,
            List::Exclusions => &recipe.exclusions,
            List::Regions => &recipe.regions,
            List::Foliage => &recipe.foliage_paint,
        };
        let mut d = Diagnostics::default();
        let has_biome = |_: &str| true;
        let ctx = ParseContext {
            layers: &recipe.layers,
            has_biome: &has_biome,
            grid: None,
            masks: None,
        };
        let strokes: Vec<Stroke> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                Stroke::parse(
                    v,
                    &format!("recipe.{}[{i}]", list.key()),
                    list,
                    &ctx,
                    &mut d,
                )
            })
            .collect();
        d.into_result()?;
        let mut merged: Vec<Stroke> = Vec::new();
        for s in strokes {
            match merged.last_mut() {
                Some(last) if last.mergeable(&s) => {
                    last.points.extend_from_slice(&s.points);
                    last.center_form = false;
                }
                _ => merged.push(s),
            }
        }
        before[k] = values.len();
        after[k] = merged.len();
        if before[k] != after[k] {
            let compacted = merged.iter().map(Stroke::to_value).collect();
            match list {
                List::Edits => out.edits = compacted,
                List::Exclusions => out.exclusions = compacted,
                List::Regions => out.regions = compacted,
                List::Foliage => out.foliage_paint = compacted,
            }
        }
    }
    Ok(Compaction {
        before,
        after,
        recipe: out,
    })
}

/// Checks that `a` and `b` give bit-identical heights, exclusion masks and regions on `base`
/// (mask images resolve through `masks`).
pub fn verify_equivalent(
    a: &Recipe,
    b: &Recipe,
    base: &Heightfield,
    masks: Option<MaskLoader>,
) -> Result<()> {
    let sa = EditSession::new(a.clone(), base.clone(), masks.clone())?;
    let sb = EditSession::new(b.clone(), base.clone(), masks)?;
    if !same_bits(sa.field().heights(), sb.field().heights()) {
        return Err(Error::invalid(
            "compact",
            "the compacted strokes give different heights; nothing written",
        ));
    }
    if !same_bits(sa.exclusion(), sb.exclusion()) {
        return Err(Error::invalid(
            "compact",
            "the compacted strokes give a different exclusion mask; nothing written",
        ));
    }
    let [w, h] = base.grid().samples();
    for z in 0..h {
        for x in 0..w {
            if sa.painted_biome(x, z) != sb.painted_biome(x, z) {
                return Err(Error::invalid(
                    "compact",
                    "the compacted strokes paint different regions; nothing written",
                ));
            }
        }
    }
    Ok(())
}

/// What to do with existing strokes when size or resolution changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegridChoice {
    /// Keep strokes at their terrain-local positions (refused while protection snapshots
    /// exist: they belong to the original grid).
    Keep,
    /// Remove every stroke (the caller keeps the old recipe for undo).
    Clear,
}

/// True when going from `old` to `new` changes the grid while strokes exist: the caller must
/// ask the user to keep or clear them — edits are never dropped silently.
pub fn needs_regrid_decision(old: &Recipe, new: &Recipe) -> bool {
    let grid_changed = old.size != new.size
        || old.resolution != new.resolution
        || old.chunk_cells != new.chunk_cells;
    grid_changed && old.has_strokes()
}

/// Applies the decision to `new` (which carries the old strokes).
pub fn resolve_regrid(new: &mut Recipe, choice: RegridChoice) -> Result<()> {
    match choice {
        RegridChoice::Clear => {
            new.clear_strokes();
            Ok(())
        }
        RegridChoice::Keep => {
            let protected = new
                .edits
                .iter()
                .filter(|v| v.get("type").and_then(|t| t.as_str()) == Some("protect"))
                .count();
            if protected > 0 {
                return Err(Error::invalid(
                    "edits",
                    format!(
                        "{protected} protection snapshot(s) were taken on the original grid and cannot move to a new one; keep the original size and resolution, or clear the edits"
                    ),
                ));
            }
            Ok(())
        }
    }
}
