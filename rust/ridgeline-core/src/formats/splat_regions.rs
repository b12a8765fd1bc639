//! Seed-002 texture layers and splat weights as painted biome regions.
//!
//! Importing a terrain JSON makes one biome per texture layer (named after the layer's
//! material, which becomes the biome's `material` override; the layer's `tile` becomes
//! `texture_scale = 256 / tile`, 256 being the seed's default) and paints every vertex with the
//! biome of its strongest layer (the first on a tie; an all-zero entry is layer 0). Layer 0 is
//! the default biome; the others become `region` strokes, so they are edited and undone like
//! painted regions.
//!
//! The painted areas are covered by a quadtree of aligned square blocks: a block whose samples
//! all take one layer is one square stamp (full weight, falloff 1) whose half-width lies halfway
//! between its outermost samples and the next ones, so exactly its samples are painted. Blocks
//! of one size form one stroke. Samples outside the grid match any layer (stamps are clipped
//! there), which keeps the strokes few. Cells that are not square limit the block size to what
//! a square stamp can cover exactly.

use crate::heightmap::terrain_json::TerrainDocument;
use serde_json::{Map, Value, json};

/// What importing the layers adds to a recipe.
#[derive(Clone, Debug, PartialEq)]
pub struct SplatRegions {
    /// The recipe's `biomes` entries, one per layer.
    pub biomes: Map<String, Value>,
    /// The biome of layer 0 (the recipe's `default_biome`).
    pub default_biome: String,
    /// `region` strokes painting layers 1 and up.
    pub strokes: Vec<Value>,
    /// Vertices painted per layer.
    pub counts: Vec<usize>,
}

/// Marker of a block holding samples of several layers.
const MIXED: u8 = 254;
/// Marker of a block entirely outside the grid (matches any layer).
const ANY: u8 = 255;

/// The layer shown most at each vertex: the strongest weight among the document's layers, the
/// first on a tie, layer 0 when every weight is zero or there is no splat.
pub fn dominant_layers(doc: &TerrainDocument) -> Vec<u8> {
    let [nx, nz] = doc.resolution;
    let n = nx * nz;
    let layers = doc.layers.len().clamp(1, 4);
    match &doc.splat {
        Some(s) if s.len() == n * 4 => s
            .chunks_exact(4)
            .map(|w| {
                let mut best = 0;
                for k in 1..layers {
                    if w[k] > w[best] {
                        best = k;
                    }
                }
                best as u8
            })
            .collect(),
        _ => vec![0; n],
    }
}

/// The biomes and region strokes for `doc`'s layers, for an asset whose cells are `cell`
/// world units along X and Z (the file's cell size scaled to the imported size). `None` when
/// the document has no layers.
pub fn splat_regions(doc: &TerrainDocument, cell: [f64; 2]) -> Option<SplatRegions> {
    if doc.layers.is_empty() {
        return None;
    }
    let names = biome_names(doc);
    let mut biomes = Map::new();
    for (k, (layer, name)) in doc.layers.iter().zip(&names).enumerate() {
        let mut b = Map::new();
        b.insert("color".into(), json!(tint(&layer.material, k)));
        b.insert("material".into(), Value::from(layer.material.clone()));
        if layer.tile > 0.0 && layer.tile.is_finite() && layer.tile != 256.0 {
            b.insert("texture_scale".into(), json!(256.0 / layer.tile));
        }
        biomes.insert(name.clone(), Value::Object(b));
    }
    let dominant = dominant_layers(doc);
    let mut counts = vec![0usize; doc.layers.len()];
    for &l in &dominant {
        counts[l as usize] += 1;
    }
    let [nx, nz] = doc.resolution;
    let blocks = square_blocks(&dominant, nx, nz, max_block(cell));
    let (cmin, cmax) = (cell[0].min(cell[1]), cell[0].max(cell[1]));
    let mut strokes = Vec::new();
    for (k, name) in names.iter().enumerate().skip(1) {
        let mut by_size: std::collections::BTreeMap<usize, Vec<Value>> = Default::default();
        for b in blocks.iter().filter(|b| b.layer as usize == k) {
            let h = (b.size - 1) as f64 * 0.5;
            by_size.entry(b.size).or_default().push(json!([
                (b.x as f64 + h) * cell[0],
                (b.z as f64 + h) * cell[1]
            ]));
        }
        for (s, points) in by_size {
            let s = s as f64;
            // Halfway between the block's outermost samples and the next ones.
            let radius = 0.5 * ((s - 1.0) * 0.5 * cmax + (s + 1.0) * 0.5 * cmin);
            strokes.push(json!({"type": "region", "biome": name, "mask": "square",
                "falloff": 1, "strength": 1, "radius": radius, "points": points}));
        }
    }
    Some(SplatRegions {
        biomes,
        default_biome: names[0].clone(),
        strokes,
        counts,
    })
}

/// Biome names from the layers' materials: lower-case letters, digits and `_`, unique.
fn biome_names(doc: &TerrainDocument) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (k, l) in doc.layers.iter().enumerate() {
        let stem = l
            .material
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or_default()
            .split('.')
            .next()
            .unwrap_or_default();
        let mut base: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        base = base.trim_matches('_').to_string();
        if base.is_empty() {
            base = format!("layer_{k}");
        }
        let mut name = base.clone();
        let mut i = 2;
        while out.contains(&name) {
            name = format!("{base}_{i}");
            i += 1;
        }
        out.push(name);
    }
    out
}

/// A tint that reads as the material's name suggests (the material itself, when bound, wins).
fn tint(material: &str, k: usize) -> [f64; 4] {
    let m = material.to_ascii_lowercase();
    let table: [(&[&str], [f64; 4]); 7] = [
        (&["snow", "ice"], [0.92, 0.94, 0.97, 1.0]),
        (&["sand", "beach", "desert"], [0.76, 0.68, 0.5, 1.0]),
        (
            &["rock", "stone", "cliff", "gravel"],
            [0.47, 0.46, 0.44, 1.0],
        ),
        (&["grass", "meadow", "moss"], [0.33, 0.45, 0.22, 1.0]),
        (&["dirt", "soil", "mud", "earth"], [0.42, 0.33, 0.24, 1.0]),
        (&["water", "river", "wet"], [0.25, 0.32, 0.35, 1.0]),
        (&["forest", "leaf", "leaves"], [0.22, 0.33, 0.18, 1.0]),
    ];
    for (keys, c) in table {
        if keys.iter().any(|k| m.contains(k)) {
            return c;
        }
    }
    const CYCLE: [[f64; 4]; 4] = [
        [0.4, 0.45, 0.3, 1.0],
        [0.5, 0.42, 0.32, 1.0],
        [0.48, 0.48, 0.46, 1.0],
        [0.62, 0.56, 0.42, 1.0],
    ];
    CYCLE[k % 4]
}

/// The largest block side a square stamp paints exactly on cells `cell` (side `s` needs
/// `(s − 1)·max < (s + 1)·min`).
fn max_block(cell: [f64; 2]) -> usize {
    let ratio = cell[0].max(cell[1]) / cell[0].min(cell[1]);
    let mut s = 1usize;
    while s < 1 << 16 && ((2 * s - 1) as f64) * ratio * (1.0 + 1e-6) < (2 * s + 1) as f64 {
        s *= 2;
    }
    s
}

/// A uniform block: its first sample, side (samples) and layer.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Block {
    x: usize,
    z: usize,
    size: usize,
    layer: u8,
}

/// Aligned power-of-two blocks (side ≤ `max_side`) covering every sample, each holding one
/// layer; the largest uniform ones.
fn square_blocks(layers: &[u8], nx: usize, nz: usize, max_side: usize) -> Vec<Block> {
    let side = nx.max(nz).next_power_of_two();
    // levels[l][bz * (side >> l) + bx]: the block's layer, MIXED or ANY.
    let mut levels: Vec<Vec<u8>> = Vec::new();
    let mut base = vec![ANY; side * side];
    for z in 0..nz {
        base[z * side..z * side + nx].copy_from_slice(&layers[z * nx..(z + 1) * nx]);
    }
    levels.push(base);
    let mut n = side;
    while n > 1 {
        let prev = &levels[levels.len() - 1];
        let m = n / 2;
        let mut next = vec![ANY; m * m];
        for bz in 0..m {
            for bx in 0..m {
                let mut v = ANY;
                for (dx, dz) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let c = prev[(2 * bz + dz) * n + 2 * bx + dx];
                    v = match (v, c) {
                        (_, MIXED) | (MIXED, _) => MIXED,
                        (ANY, c) => c,
                        (v, ANY) => v,
                        (v, c) if v == c => v,
                        _ => MIXED,
                    };
                }
                next[bz * m + bx] = v;
            }
        }
        levels.push(next);
        n = m;
    }
    let mut out = Vec::new();
    let top = levels.len() - 1;
    let mut stack = vec![(top, 0usize, 0usize)];
    while let Some((l, bx, bz)) = stack.pop() {
        let n = side >> l;
        let v = levels[l][bz * n + bx];
        let s = 1 << l;
        if v == ANY {
            continue;
        }
        if v != MIXED && s <= max_side {
            out.push(Block {
                x: bx * s,
                z: bz * s,
                size: s,
                layer: v,
            });
            continue;
        }
        for (dx, dz) in [(1, 1), (0, 1), (1, 0), (0, 0)] {
            stack.push((l - 1, 2 * bx + dx, 2 * bz + dz));
        }
    }
    out
}

#[cfg(test)]
#[path = "splat_regions_tests.rs"]
mod tests;
