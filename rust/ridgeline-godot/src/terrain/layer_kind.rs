//! `Terrain3D.LayerKind`: what a layer of the recipe holds.

use super::Terrain3D;
use crate::convert::class_enum::class_enum;

class_enum! {
    /// What a layer holds, as [method Terrain3D.get_layers] reports it (`kind`).
    pub enum LayerKind for Terrain3D as "LayerKind" {
        /// The generated base surface (the graph's output). Disabling it freezes the base: the
        /// terrain no longer regenerates and strokes stay editable on top.
        Generation = 0 as "LAYER_GENERATION",
        /// Painted biome regions.
        Biomes = 1 as "LAYER_BIOMES",
        /// Sculpt strokes (raise, lower, flatten, smooth, set_height, ramp, erase).
        Sculpt = 2 as "LAYER_SCULPT",
        /// Protection snapshots (`protect` strokes): samples keep their absolute heights through
        /// later sculpting.
        Protection = 3 as "LAYER_PROTECTION",
        /// The exclusion mask (`exclude` and `erase` strokes); [method Terrain3D.get_exclusion]
        /// reads it.
        Exclusions = 4 as "LAYER_EXCLUSIONS",
    }
}

impl LayerKind {
    /// The kind named `name` in a recipe's `layers` (`"generation"`, `"biomes"`, …).
    pub fn from_recipe(name: &str) -> Option<Self> {
        Some(match name {
            "generation" => Self::Generation,
            "biomes" => Self::Biomes,
            "sculpt" => Self::Sculpt,
            "protection" => Self::Protection,
            "exclusions" => Self::Exclusions,
            _ => return None,
        })
    }

    /// The kind's name in a recipe's `layers`.
    pub fn recipe_name(self) -> &'static str {
        match self {
            Self::Generation => "generation",
            Self::Biomes => "biomes",
            Self::Sculpt => "sculpt",
            Self::Protection => "protection",
            Self::Exclusions => "exclusions",
        }
    }
}
