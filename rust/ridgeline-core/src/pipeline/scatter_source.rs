//! What drawing a terrain's scatter reads besides its placements: the palette (each rule's
//! geometry reference, category and collision; the foliage types), the scatter sub-seed
//! foliage placement hashes with, and the finished terrain's painted foliage inputs (density
//! maps, protection). A prepared terrain carries it so a cooked payload draws the same trees,
//! rocks and grass as the recipe it was cooked from. It also carries what re-resolving the
//! biomes and moisture after a runtime sculpt reads ([`BiomeRules`]: the recipe's biome rules
//! and the climate sub-seed), so a cooked terrain's edit session reclassifies like the recipe's.

use super::EditSession;
use crate::edit::foliage_density::FoliageMaps;
use crate::recipe::{Layer, Recipe, Rule};
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
    /// The biome rules and climate the terrain was classified with; `None` for payloads
    /// cooked before they were stored (their sessions keep the cooked biome ids).
    pub biome_rules: Option<BiomeRules>,
    /// The painted layers (user channels and surface paint weights) the terrain was cooked
    /// with: a cooked terrain's queries, shader and edit session start from them.
    pub paint: crate::edit::paint::PaintLayers,
    /// The classified (unpainted) role per sample when surface paint is present (the paint's
    /// generated slot goes to it); empty otherwise.
    pub classified: Vec<u8>,
    /// What refiltering after an edit starts from (`EditSession::attach_scatter`'s `base`):
    /// every spaced site before the environment filters, so a stroke that makes ground
    /// suitable grows the rule's placements there. `None`: the shown placements themselves
    /// (refiltering can then only remove).
    pub base_placements: Option<Arc<crate::scatter::Scatter>>,
}

/// What re-resolving biomes and moisture needs on a terrain without its recipe.
#[derive(Clone, Debug, PartialEq)]
pub struct BiomeRules {
    /// The recipe's biome rules (`recipe.rules`; empty when its graph applies none).
    pub rules: Vec<Rule>,
    /// The recipe's biome layers (`kind == "biomes"`, in order): what the rules target.
    pub layers: Vec<Layer>,
    /// The `biome_placement` sub-seed: the climate moisture derives from.
    pub climate_seed: u64,
    /// The recipe's sea level (its default landform's base height): the inferred sea that
    /// water distance and underwater roles read where no water body is published. `None` in
    /// payloads cooked before it was stored (the session then reads 0).
    pub sea_level: Option<f32>,
}

impl BiomeRules {
    /// The biome rules and climate of `recipe`; `rules_applied` is false when its graph
    /// classifies without the rules (`SurfaceSources::rules`).
    pub fn of(recipe: &Recipe, rules_applied: bool) -> Self {
        Self {
            rules: if rules_applied {
                recipe.rules.clone()
            } else {
                Vec::new()
            },
            layers: recipe
                .layers
                .iter()
                .filter(|l| l.kind == "biomes")
                .cloned()
                .collect(),
            climate_seed: crate::seed::sub_seed(recipe.seed, "biome_placement"),
            sea_level: Some(recipe.sea_level() as f32),
        }
    }
}

impl ScatterSource {
    /// The source of `recipe`'s finished terrain; `session` (when the recipe has strokes)
    /// gives the painted density maps and the protection mask.
    pub fn of(
        recipe: &Recipe,
        session: Option<&EditSession>,
        samples: usize,
        rules_applied: bool,
    ) -> Self {
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
            biome_rules: Some(BiomeRules::of(recipe, rules_applied)),
            paint: session.map_or_else(
                || crate::edit::paint::PaintLayers::new(samples),
                |s| s.paint().clone(),
            ),
            classified: session
                .filter(|s| !s.paint().weight_bytes().is_empty())
                .and_then(|s| s.surface_state())
                .map_or_else(Vec::new, |st| st.classification().role_ids()),
            base_placements: None,
        }
    }

    /// No palette, no painted density and no protection.
    pub fn is_empty(&self) -> bool {
        self.palette.is_none()
            && self.foliage_density.types().next().is_none()
            && self.protection.is_empty()
    }
}
