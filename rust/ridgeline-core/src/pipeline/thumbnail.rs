//! Preset thumbnails: a small top-down picture of what a recipe generates — biome tints
//! shaded by the relief (light from the north-west, relief exaggerated 3×), water in blue — for the editor's preset
//! list. Generated at Preview quality without any cache, so a thumbnail never touches the
//! development cache and costs about one preview generation.

use crate::error::{Error, Result};
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::recipe::Recipe;
use std::sync::atomic::AtomicBool;

/// An RGBA8 picture, row-major from the terrain's −Z edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Thumbnail {
    /// Width and height in pixels.
    pub size: u32,
    /// `size × size × 4` bytes, sRGB.
    pub rgba: Vec<u8>,
}

/// Vertical exaggeration of the shading (a hillshade's z-factor): gentle dunes and hills
/// read at thumbnail size.
const Z_FACTOR: f32 = 3.0;

/// Largest thumbnail side in pixels.
pub const MAX_THUMBNAIL: u32 = 512;
/// Recipes with more samples than this are refused (a thumbnail is for small presets).
pub const MAX_THUMBNAIL_SAMPLES: usize = 257 * 257;

/// Renders `recipe` as a `size`-pixel square thumbnail (nearest sample per pixel, square
/// pixels over the longer side). Errors: a size of 0 or above [`MAX_THUMBNAIL`], a grid above
/// [`MAX_THUMBNAIL_SAMPLES`], or the generation's own error.
pub fn thumbnail(recipe: &Recipe, size: u32) -> Result<Thumbnail> {
    if size == 0 || size > MAX_THUMBNAIL {
        return Err(Error::invalid(
            "thumbnail.size",
            format!("must be 1..={MAX_THUMBNAIL} pixels, got {size}"),
        ));
    }
    let grid = recipe.grid()?;
    if grid.sample_count() > MAX_THUMBNAIL_SAMPLES {
        return Err(Error::invalid(
            "recipe.resolution",
            format!(
                "the grid has {} samples; thumbnails render at most {MAX_THUMBNAIL_SAMPLES}",
                grid.sample_count()
            ),
        ));
    }
    let never = AtomicBool::new(false);
    let done = super::prepare_cached_at(
        recipe,
        Quality::Preview,
        None,
        &mut GraphCache::with_budget(0),
        &|_, _| {},
        &never,
        None,
    )?;
    let p = done.prepared;
    let field = &p.field;
    let [w, d] = field.grid().samples();
    let [sx, sz] = field.grid().size();
    let spacing = field.grid().spacing();
    let side = sx.max(sz);
    let light = {
        let l = [-1.0f32, 1.6, -1.0];
        let n = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        [l[0] / n, l[1] / n, l[2] / n]
    };
    let srgb = |c: f32| (c.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0).round() as u8;
    let mut rgba = Vec::with_capacity(size as usize * size as usize * 4);
    for py in 0..size {
        for px in 0..size {
            let x = (px as f32 + 0.5) / size as f32 * side;
            let z = (py as f32 + 0.5) / size as f32 * side;
            let Some((ix, iz)) = field
                .grid()
                .nearest_sample(x.min(sx), z.min(sz))
                .filter(|_| x <= sx && z <= sz)
            else {
                rgba.extend_from_slice(&[0, 0, 0, 0]);
                continue;
            };
            let h = |x: usize, z: usize| field.sample(x.min(w - 1), z.min(d - 1));
            let dx = (h(ix + 1, iz) - h(ix.saturating_sub(1), iz)) / (2.0 * spacing[0]);
            let dz = (h(ix, iz + 1) - h(ix, iz.saturating_sub(1))) / (2.0 * spacing[1]);
            let n = {
                let v = [-dx * Z_FACTOR, 1.0, -dz * Z_FACTOR];
                let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
                [v[0] / l, v[1] / l, v[2] / l]
            };
            let lit = (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]).max(0.0);
            let shade = 0.3 + 0.7 * lit;
            let i = field.grid().index(ix, iz);
            let tint = p
                .surface
                .biome_id(i)
                .and_then(|b| p.surface.biome(b))
                .map_or([0.6, 0.6, 0.6, 1.0], |b| b.color);
            let wet = p.water.depth_at(field, x, z) > 0.05;
            let c = if wet {
                [0.10, 0.25, 0.45]
            } else {
                [tint[0], tint[1], tint[2]]
            };
            let s = if wet { 0.8 + 0.2 * shade } else { shade };
            rgba.extend_from_slice(&[srgb(c[0] * s), srgb(c[1] * s), srgb(c[2] * s), 255]);
        }
    }
    Ok(Thumbnail { size, rgba })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipe::preset::{GridChange, builtin};

    fn recipe_of(id: &str) -> Recipe {
        builtin(id)
            .expect("a built-in")
            .expect("parses")
            .apply(&Recipe::default_recipe(), GridChange::Ask)
            .expect("applies")
            .recipe
    }

    fn luminance(t: &Thumbnail) -> Vec<f32> {
        t.rgba
            .chunks(4)
            .map(|p| 0.3 * p[0] as f32 + 0.59 * p[1] as f32 + 0.11 * p[2] as f32)
            .collect()
    }

    fn spread(v: &[f32]) -> f32 {
        let m = v.iter().sum::<f32>() / v.len() as f32;
        (v.iter().map(|x| (x - m) * (x - m)).sum::<f32>() / v.len() as f32).sqrt()
    }

    #[test]
    fn relief_shows_and_flat_is_even() {
        let flat = thumbnail(&recipe_of("builtin://terrain/flat-building-site"), 48).unwrap();
        let hills = thumbnail(&recipe_of("builtin://terrain/mountain-range"), 48).unwrap();
        assert_eq!(hills.rgba.len(), 48 * 48 * 4);
        assert!(
            hills.rgba.chunks(4).all(|p| p[3] == 255),
            "square presets fill the picture"
        );
        let (f, h) = (spread(&luminance(&flat)), spread(&luminance(&hills)));
        assert!(
            h > 3.0 * f.max(1.0),
            "mountains are shaded ({h}), a flat site is even ({f})"
        );
        assert_eq!(
            thumbnail(&recipe_of("builtin://terrain/mountain-range"), 48).unwrap(),
            hills,
            "deterministic"
        );
    }

    #[test]
    fn an_island_has_water_around_it() {
        let t = thumbnail(&recipe_of("builtin://terrain/coastal-island"), 32).unwrap();
        let blue = |p: &[u8]| p[2] as i32 > p[0] as i32 + 30 && p[2] as i32 > p[1] as i32;
        let corner = &t.rgba[0..4];
        let centre = &t.rgba[(16 * 32 + 16) * 4..(16 * 32 + 16) * 4 + 4];
        assert!(blue(corner), "sea at the corner: {corner:?}");
        assert!(!blue(centre), "land in the middle: {centre:?}");
    }

    #[test]
    fn desert_dunes_have_relief_and_an_interdune_floor() {
        let r = recipe_of("builtin://terrain/desert-dunes");
        let never = AtomicBool::new(false);
        let p = crate::pipeline::prepare_cached_at(
            &r,
            Quality::Preview,
            None,
            &mut GraphCache::default(),
            &|_, _| {},
            &never,
            None,
        )
        .unwrap()
        .prepared;
        let [lo, hi] = p.field.height_range();
        assert!(hi - lo > 5.0, "dunes stand out: {lo}..{hi}");
        let floor = p
            .surface
            .classes
            .biomes()
            .filter(|&b| p.surface.biome(b).is_some_and(|b| b.name == "interdune"))
            .count() as f32
            / p.surface.classes.len() as f32;
        assert!((0.05..0.6).contains(&floor), "interdune share {floor}");
    }

    #[test]
    fn bad_sizes_are_refused() {
        let r = recipe_of("builtin://terrain/rolling-hills");
        assert!(thumbnail(&r, 0).is_err());
        assert!(thumbnail(&r, MAX_THUMBNAIL + 1).is_err());
    }
}
