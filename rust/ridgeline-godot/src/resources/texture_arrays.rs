//! Packs texture layers into the realistic shader's two `Texture2DArray`s (engine-resource work;
//! the texel combination itself is `ridgeline_core::mesh::layer_texels`).

use super::texture_layer::LayerSnapshot;
use godot::classes::image::{Format, Interpolation};
use godot::classes::{Image, Texture2D, Texture2DArray};
use godot::prelude::*;
use ridgeline_core::mesh::layer_texels::{self, LayerSources, PackOptions};

/// The packed arrays of a layer list.
pub struct PackedArrays {
    /// RGB albedo (sRGB) + A blend height, one layer per texture layer, with mipmaps.
    pub albedo_height: Gd<Texture2DArray>,
    /// RGB normal (OpenGL convention, linear) + A roughness, same layout.
    pub normal_roughness: Gd<Texture2DArray>,
    /// Side of every array layer in pixels.
    pub size: i32,
    /// Per layer, the faceted look's flat colour (sRGB): the layer's own or its albedo mean.
    pub flat_colors: Vec<Color>,
}

/// Largest array side.
const MAX_SIZE: i32 = 4096;
/// Side used when no layer has any texture.
const EMPTY_SIZE: i32 = 16;

/// Packs `layers` (at most 32) at `wanted` pixels per side, clamped to the largest source
/// texture and to 4096. Errors name the layer and the map.
pub fn pack(layers: &[LayerSnapshot], wanted: i32) -> Result<PackedArrays, String> {
    if layers.is_empty() {
        return Err("the material set has no layers".into());
    }
    let largest = layers
        .iter()
        .flat_map(|l| l.textures.iter().flatten())
        .map(|t| t.get_width().max(t.get_height()))
        .max()
        .unwrap_or(EMPTY_SIZE);
    let size = wanted.clamp(1, MAX_SIZE).min(largest.max(1));
    let texels = (size * size) as usize;
    let mut ah_images: Array<Gd<Image>> = Array::new();
    let mut nr_images: Array<Gd<Image>> = Array::new();
    let mut flat_colors = Vec::with_capacity(layers.len());
    for (i, layer) in layers.iter().enumerate() {
        let label = |map: &str| {
            if layer.name.is_empty() {
                format!("layer {i} {map}")
            } else {
                format!("layer {i} (`{}`) {map}", layer.name)
            }
        };
        const MAPS: [&str; 5] = ["albedo", "normal", "orm", "roughness_texture", "height"];
        let mut data: [Option<PackedByteArray>; 5] = Default::default();
        for (k, tex) in layer.textures.iter().enumerate() {
            if let Some(t) = tex {
                data[k] = Some(rgba8(t, size).map_err(|e| format!("{}: {e}", label(MAPS[k])))?);
            }
        }
        let slice = |k: usize| data[k].as_ref().map(|d| d.as_slice());
        let src = LayerSources {
            albedo: slice(0),
            normal: slice(1),
            orm: slice(2),
            roughness: slice(3),
            height: slice(4),
        };
        let opts = PackOptions {
            normal_y_flip: layer.normal_y_flip,
            roughness: layer.roughness,
        };
        let (ah, nr) = layer_texels::pack(texels, &src, opts).map_err(|e| label(&e.to_string()))?;
        flat_colors.push(if layer.flat_color.a > 0.0 {
            layer.flat_color
        } else {
            match src.albedo.and_then(layer_texels::mean_color) {
                Some([r, g, b]) => Color::from_rgb(r, g, b),
                None => Color::from_rgb(0.5, 0.5, 0.5),
            }
        });
        ah_images.push(&image(size, &ah)?);
        nr_images.push(&image(size, &nr)?);
    }
    let mut albedo_height = Texture2DArray::new_gd();
    let err = albedo_height.create_from_images(&ah_images);
    if err != godot::global::Error::OK {
        return Err(format!("creating the albedo array failed ({err:?})"));
    }
    let mut normal_roughness = Texture2DArray::new_gd();
    let err = normal_roughness.create_from_images(&nr_images);
    if err != godot::global::Error::OK {
        return Err(format!("creating the normal array failed ({err:?})"));
    }
    Ok(PackedArrays {
        albedo_height,
        normal_roughness,
        size,
        flat_colors,
    })
}

/// The texture's pixels as RGBA8 at `size` × `size`.
fn rgba8(tex: &Gd<Texture2D>, size: i32) -> Result<PackedByteArray, String> {
    let mut img = tex
        .get_image()
        .ok_or_else(|| "has no image data (is it imported?)".to_string())?;
    if img.is_compressed() && img.decompress() != godot::global::Error::OK {
        return Err("cannot be decompressed".into());
    }
    if img.has_mipmaps() {
        img.clear_mipmaps();
    }
    if img.get_format() != Format::RGBA8 {
        img.convert(Format::RGBA8);
    }
    if img.get_width() != size || img.get_height() != size {
        img.resize_ex(size, size)
            .interpolation(Interpolation::LANCZOS)
            .done();
    }
    let data = img.get_data();
    if data.len() != (size * size * 4) as usize {
        return Err(format!(
            "converted to {} bytes, expected {}",
            data.len(),
            size * size * 4
        ));
    }
    Ok(data)
}

/// An RGBA8 image with mipmaps from `bytes`.
fn image(size: i32, bytes: &[u8]) -> Result<Gd<Image>, String> {
    let mut img = Image::create_from_data(
        size,
        size,
        false,
        Format::RGBA8,
        &PackedByteArray::from(bytes),
    )
    .ok_or_else(|| "could not create an array layer image".to_string())?;
    if img.generate_mipmaps() != godot::global::Error::OK {
        return Err("could not generate mipmaps".into());
    }
    Ok(img)
}
