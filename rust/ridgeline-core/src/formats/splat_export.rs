//! Seed-002 texture layers and splat weights from a prepared surface's resolved biomes (what
//! `ridgeline export --format terrain-json` writes when the recipe reads no terrain JSON with
//! layers of its own).
//!
//! The biomes that cover the most vertices become the layers (at most four, the format's limit;
//! most vertices first, the lower id on a tie). A layer's `material` is the biome's material
//! override, else its name; `tile = 256 / texture_scale` (the inverse of the import). Each
//! vertex gets full weight (255) on its biome's layer; biomes beyond the fourth go to layer 0,
//! with a note. A single layer needs no splat (an absent splat is layer 0 everywhere).

use crate::heightmap::terrain_json::TerrainLayer;
use crate::pipeline::Surface;

/// Layers and splat for a terrain JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct SplatLayers {
    /// One layer per written biome.
    pub layers: Vec<TerrainLayer>,
    /// Four weight bytes per vertex (`None` with a single layer).
    pub splat: Option<Vec<u8>>,
    /// Biome name per layer.
    pub biomes: Vec<String>,
    /// Biomes that did not fit in four layers (written as layer 0).
    pub merged: Vec<String>,
}

/// The layers of `surface`'s biomes; `None` for an unclassified surface.
pub fn splat_layers(surface: &Surface) -> Option<SplatLayers> {
    if surface.is_empty() {
        return None;
    }
    let mut counts = vec![0usize; surface.biomes.len()];
    for b in surface.classes.biomes() {
        if let Some(c) = counts.get_mut(b as usize) {
            *c += 1;
        }
    }
    let mut order: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] > 0).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(counts[i]), i));
    let (kept, rest) = order.split_at(order.len().min(4));
    let mut layer_of = vec![0u8; counts.len()];
    for (k, &b) in kept.iter().enumerate() {
        layer_of[b] = k as u8;
    }
    let layers = kept
        .iter()
        .map(|&b| {
            let spec = &surface.biomes[b];
            TerrainLayer {
                material: spec.material.clone().unwrap_or_else(|| spec.name.clone()),
                tile: 256.0 / spec.texture_scale as f64,
                detile: 0.0,
                detile_sharpen: 0.5,
            }
        })
        .collect();
    let splat = (kept.len() > 1).then(|| {
        let mut s = vec![0u8; surface.classes.len() * 4];
        for (w, b) in s.chunks_exact_mut(4).zip(surface.classes.biomes()) {
            w[layer_of.get(b as usize).copied().unwrap_or(0) as usize] = 255;
        }
        s
    });
    Some(SplatLayers {
        layers,
        splat,
        biomes: kept
            .iter()
            .map(|&b| surface.biomes[b].name.clone())
            .collect(),
        merged: rest
            .iter()
            .map(|&b| surface.biomes[b].name.clone())
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::biome::BiomeSpec;

    fn surface(ids: Vec<u16>, n: usize) -> Surface {
        Surface {
            biomes: (0..n)
                .map(|i| BiomeSpec {
                    material: (i == 1).then(|| "res://m/rock.tres".to_string()),
                    texture_scale: if i == 2 { 2.0 } else { 1.0 },
                    ..BiomeSpec::named(format!("b{i}"))
                })
                .collect(),
            classes: crate::biome::SampleClasses::from_ids(&ids, &vec![0; ids.len()]),
        }
    }

    #[test]
    fn the_most_painted_biomes_become_layers_with_full_weights() {
        let s = surface(vec![2, 1, 1, 0, 1, 2, 4], 6);
        let l = splat_layers(&s).unwrap();
        assert_eq!(l.biomes, ["b1", "b2", "b0", "b4"]);
        assert_eq!(l.layers[0].material, "res://m/rock.tres");
        assert_eq!(l.layers[1].material, "b2");
        assert_eq!(l.layers[1].tile, 128.0);
        let splat = l.splat.unwrap();
        let layer = |v: usize| splat[v * 4..v * 4 + 4].iter().position(|&w| w == 255);
        assert_eq!(
            (0..7).map(layer).collect::<Vec<_>>(),
            [1, 0, 0, 2, 0, 1, 3].map(Some)
        );
        assert!(
            splat
                .chunks(4)
                .all(|w| w.iter().map(|&x| x as u32).sum::<u32>() == 255)
        );
        assert!(l.merged.is_empty());
    }

    #[test]
    fn a_fifth_biome_goes_to_layer_0_and_one_biome_needs_no_splat() {
        let s = surface(vec![0, 0, 1, 1, 2, 2, 3, 3, 4], 5);
        let l = splat_layers(&s).unwrap();
        assert_eq!(l.merged, ["b4"]);
        assert_eq!(&l.splat.unwrap()[8 * 4..], [255, 0, 0, 0]);
        let one = splat_layers(&surface(vec![3, 3], 4)).unwrap();
        assert_eq!(one.biomes, ["b3"]);
        assert!(one.splat.is_none());
        assert!(splat_layers(&surface(Vec::new(), 2)).is_none());
    }
}
