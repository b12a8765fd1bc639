//! What the surface materials read from a prepared terrain: its biome table and, per sample,
//! the biome id and the surface role. The core classifies; this only adapts its output.

use super::job::Prepared;

/// A biome as the materials see it.
pub struct BiomeEntry {
    /// Biome name.
    pub name: String,
    /// Tint colour (linear RGBA 0–1).
    pub color: [f32; 4],
    /// The recipe's explicit material (a [TerrainTextureLayer] path), winning over the set.
    pub material: Option<String>,
    /// Texture repetitions multiplier (the recipe's `texture_scale`, > 0).
    pub texture_scale: f32,
}

/// Biomes, biome ids and roles of every sample.
pub struct SurfaceClasses {
    /// The biome table (id = index; at most 255 are distinguished).
    pub biomes: Vec<BiomeEntry>,
    /// Biome id per sample, row-major.
    pub biome_ids: Vec<u8>,
    /// Surface role id per sample (0–8, docs/materials.md), row-major.
    pub role_ids: Vec<u8>,
}

/// The classes of `p`: the core's classification (biome table, biome and role per sample). Without
/// one (a hand-built surface) every sample is `ground` and the biome comes from the painted regions
/// (id 0 = the default biome, id n = the n-th region biome).
pub fn of(p: &Prepared) -> SurfaceClasses {
    let n = p.field.grid().sample_count();
    let s = &p.surface;
    if !s.is_empty() && s.classes.len() == n {
        let (biome_ids, role_ids) = s.classes.byte_ids();
        return SurfaceClasses {
            biomes: s
                .biomes
                .iter()
                .map(|b| BiomeEntry {
                    name: b.name.clone(),
                    color: b.color,
                    material: b.material.clone(),
                    texture_scale: b.texture_scale,
                })
                .collect(),
            biome_ids,
            role_ids,
        };
    }
    let mut biomes = vec![BiomeEntry {
        name: p.default_biome.clone(),
        color: p.biome_color,
        material: None,
        texture_scale: 1.0,
    }];
    for name in p.region_biomes.iter() {
        biomes.push(BiomeEntry {
            name: name.clone(),
            color: p.biome_color,
            material: None,
            texture_scale: 1.0,
        });
    }
    let biome_ids = if p.regions.len() == n {
        p.regions.iter().map(|&r| r.min(255) as u8).collect()
    } else {
        vec![0; n]
    };
    SurfaceClasses {
        biomes,
        biome_ids,
        role_ids: vec![0; n],
    }
}

/// Roles and biome ids (as in [`of`]) of the sample window `[x0, x1) × [z0, z1)`, row-major
/// over the window.
pub fn window(p: &Prepared, x0: usize, z0: usize, x1: usize, z1: usize) -> (Vec<u8>, Vec<u8>) {
    let n = p.field.grid().sample_count();
    let [w, _] = p.field.grid().samples();
    let s = &p.surface;
    let cap = (x1 - x0) * (z1 - z0);
    let (mut roles, mut biomes) = (Vec::with_capacity(cap), Vec::with_capacity(cap));
    let classified = !s.is_empty() && s.classes.len() == n;
    for z in z0..z1 {
        let (a, b) = (z * w + x0, z * w + x1);
        if classified {
            for (biome, role) in (a..b).filter_map(|i| s.classes.get(i)) {
                roles.push(role);
                biomes.push(biome.min(255) as u8);
            }
        } else {
            roles.extend(std::iter::repeat_n(0, b - a));
            if p.regions.len() == n {
                biomes.extend(p.regions[a..b].iter().map(|&r| r.min(255) as u8));
            } else {
                biomes.extend(std::iter::repeat_n(0, b - a));
            }
        }
    }
    (roles, biomes)
}

/// The role id of sample `index` of `p` (0 = ground without a classification).
pub fn role_at(p: &Prepared, index: usize) -> u8 {
    p.surface.classes.role(index).unwrap_or(0)
}
