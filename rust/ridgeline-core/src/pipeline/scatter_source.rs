//! What drawing a terrain's scatter reads besides its placements: the palette (each rule's
//! geometry reference, category and collision; the foliage types), the scatter sub-seed
//! foliage placement hashes with, and the finished terrain's painted foliage inputs (density
//! maps, protection). A prepared terrain carries it so a cooked payload draws the same trees,
//! rocks and grass as the recipe it was cooked from.

use super::EditSession;
use crate::edit::foliage_density::FoliageMaps;
use crate::recipe::Recipe;
use crate::scatter::Palette;
use std::sync::Arc;

/// The scatter inputs of a finished terrain (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScatterSource {
    /// The recipe's palette; `None` without one (and for payloads older than format 5).
    pub palette: Option<Arc<Palette>>,
    /// The scatter sub-seed (`sub_seed(recipe seed, "scatter")`).
    pub seed: u64,
    /// Painted foliage density multipliers by type (strokes replayed); a type without a map is
    /// 1 everywhere.
    pub foliage_density: FoliageMaps,
    /// Protection weight per sample (0–1; `protect` strokes): it blocks foliage like the
    /// exclusion mask does. Empty when nothing is protected.
    pub protection: Vec<f32>,
}

impl ScatterSource {
    /// The source of `recipe`'s finished terrain; `session` (when the recipe has strokes)
    /// gives the painted density maps and the protection mask.
    pub fn of(recipe: &Recipe, session: Option<&EditSession>, samples: usize) -> Self {
        let protection = session
            .map(|s| s.protection())
            .filter(|p| p.iter().any(|&w| w > 0.0))
            .map_or_else(Vec::new, <[f32]>::to_vec);
        Self {
            palette: recipe.palette.clone().map(Arc::new),
            seed: crate::seed::sub_seed(recipe.seed, "scatter"),
            foliage_density: session
                .map_or_else(|| FoliageMaps::new(samples), |s| s.foliage_maps().clone()),
            protection,
        }
    }

    /// No palette, no painted density and no protection.
    pub fn is_empty(&self) -> bool {
        self.palette.is_none()
            && self.foliage_density.types().next().is_none()
            && self.protection.is_empty()
    }
}
