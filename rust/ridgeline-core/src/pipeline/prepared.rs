//! The prepared terrain: what generation hands to games, meshes, queries and the payload.

use crate::heightfield::Heightfield;
use crate::hydrology::water::WaterSet;

/// A prepared terrain: everything a game needs at runtime.
#[derive(Clone, Debug)]
pub struct PreparedTerrain {
    /// Surface (heights, holes).
    pub field: Heightfield,
    /// Water bodies and their resolved surfaces.
    pub water: WaterSet,
    /// Default biome name.
    pub default_biome: String,
    /// Default biome colour.
    pub biome_color: [f32; 4],
    /// Exclusion mask (0–1 per sample); empty when nothing is excluded.
    pub exclusion: Vec<f32>,
    /// Painted region per sample (0 = none, else index + 1 into `region_biomes`); empty when
    /// nothing is painted.
    pub regions: Vec<u16>,
    /// Biome names the region ids refer to.
    pub region_biomes: Vec<String>,
}

impl PreparedTerrain {
    /// A prepared terrain without exclusions or painted regions.
    pub fn new(
        field: Heightfield,
        water: WaterSet,
        default_biome: String,
        biome_color: [f32; 4],
    ) -> Self {
        Self {
            field,
            water,
            default_biome,
            biome_color,
            exclusion: Vec::new(),
            regions: Vec::new(),
            region_biomes: Vec::new(),
        }
    }

    /// The painted biome at sample (x, z), if any.
    pub fn painted_biome(&self, x: usize, z: usize) -> Option<&str> {
        let i = self.field.grid().index(x, z);
        let id = *self.regions.get(i)?;
        (id > 0)
            .then(|| self.region_biomes.get(id as usize - 1).map(String::as_str))
            .flatten()
    }
}
