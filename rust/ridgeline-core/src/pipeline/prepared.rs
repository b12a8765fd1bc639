//! The prepared terrain: what generation hands to games, meshes, queries and the payload.

use super::surface::{Surface, SurfaceSources};
use crate::biome::{BiomeSpec, Role, SampleClasses};
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
    /// Biome table, biome id and surface role per sample (empty when not classified).
    pub surface: Surface,
    /// What classification read besides heights, water and regions (rules on/off, drainage
    /// flow, erosion change): kept so a sculpting session reclassifies the same way.
    pub sources: SurfaceSources,
    /// Scatter placements (empty when the recipe scatters nothing). In a generated base these
    /// are the graph's placements before strokes; a finished terrain holds them refiltered.
    pub scatter: std::sync::Arc<crate::scatter::Scatter>,
    /// What drawing the scatter reads besides the placements (palette, scatter sub-seed,
    /// painted foliage density, protection); empty in a generated base.
    pub scatter_source: std::sync::Arc<super::ScatterSource>,
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
            surface: Surface::default(),
            sources: SurfaceSources::default(),
            scatter: Default::default(),
            scatter_source: Default::default(),
        }
    }

    /// The biome table (a biome's id is its position).
    pub fn biomes(&self) -> &[BiomeSpec] {
        &self.surface.biomes
    }

    /// Biome id and surface role id ([`Role`] as `u8`) per sample (row-major, Z outer).
    pub fn classes(&self) -> &SampleClasses {
        &self.surface.classes
    }

    /// The biome of sample (x, z) (`None` outside the grid or unclassified).
    pub fn biome_at(&self, x: usize, z: usize) -> Option<&BiomeSpec> {
        let [w, h] = self.field.grid().samples();
        if x >= w || z >= h {
            return None;
        }
        let id = self.surface.biome_id(self.field.grid().index(x, z))?;
        self.surface.biome(id)
    }

    /// The surface role of sample (x, z) (`None` outside the grid or unclassified).
    pub fn role_at(&self, x: usize, z: usize) -> Option<Role> {
        let [w, h] = self.field.grid().samples();
        if x >= w || z >= h {
            return None;
        }
        self.surface.role(self.field.grid().index(x, z))
    }

    /// The role of triangle `upper` (false: lower) of cell (x, z): its vertices' majority.
    pub fn triangle_role(&self, x: usize, z: usize, upper: bool) -> Option<Role> {
        self.surface.triangle_role(self.field.grid(), x, z, upper)
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
