//! A per-sample RGBA8 (or RG8) layer on the GPU, updated by sub-rectangle: the map is cut into
//! square tiles, the layers of one `Texture2DArray` (through the rendering server), and a flush
//! re-uploads only the tiles a write dirtied, each with `RenderingServer.texture_2d_update`
//! on its own layer.
//!
//! Why tiles: Godot 4.5/4.6 has no partial texture upload — `texture_2d_update` and
//! `ImageTexture.update` replace a whole image (layer) and `RenderingDevice.texture_update`
//! a whole layer (and does not exist on the Compatibility renderer). A layer per tile makes
//! "the whole image" small: a 2 m brush dirties one tile (up to four where it straddles tile
//! edges) of `tile × tile` texels, whatever the map's size.
//!
//! Writes only mark tiles; [`PaintTexture::flush`] runs once per frame (the terrain's
//! `_process`), so every write of a frame merges into one flush. Shaders find texel `(x, z)`
//! in layer `(z / tile) · tiles_x + x / tile` at `(x mod tile, z mod tile)`.

use godot::classes::image::Format;
use godot::classes::rendering_server::TextureLayeredType;
use godot::classes::{Image, RenderingServer};
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::mesh::texture_tiles::{Fill, fill_listed_tiles, fill_tiles};

/// Most layers a tiled texture uses (the minimum `GL_MAX_ARRAY_TEXTURE_LAYERS` is 256).
const MAX_TILES: usize = 256;

/// What one texel holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Texel {
    /// Four bytes (control map, user channels).
    #[default]
    Rgba8,
    /// Two bytes (the GPU path's heights).
    Rg8,
}

impl Texel {
    /// Bytes per texel.
    pub fn bytes(self) -> usize {
        match self {
            Texel::Rgba8 => 4,
            Texel::Rg8 => 2,
        }
    }

    fn format(self) -> Format {
        match self {
            Texel::Rgba8 => Format::RGBA8,
            Texel::Rg8 => Format::RG8,
        }
    }
}

/// A tiled layer texture and its dirty tiles.
#[derive(Default)]
pub struct PaintTexture {
    rid: Option<Rid>,
    texel: Texel,
    samples: [usize; 2],
    tile: usize,
    tiles: [usize; 2],
    dirty: Vec<bool>,
    any_dirty: bool,
    /// Flushes that uploaded something, and tile uploads in total (tests and benches).
    pub flushes: u64,
    /// Tiles uploaded in total.
    pub tile_uploads: u64,
}

impl PaintTexture {
    /// A texture of `texel`s (none is made before [`Self::ensure`]).
    pub fn new(texel: Texel) -> Self {
        let mut t = Self::default();
        t.texel = texel;
        t
    }

    /// The tile edge for a `w × h` sample map: the smallest edge ≥ 32 that needs at most
    /// [`MAX_TILES`] tiles (not rounded to a power of two, so the tiles pad the map little:
    /// 1040² texels for 1025² samples instead of 1152²).
    pub fn tile_for(w: usize, h: usize) -> usize {
        let mut t = 32.max(w.max(h).div_ceil(MAX_TILES));
        while w.div_ceil(t) * h.div_ceil(t) > MAX_TILES {
            t += 1;
        }
        t
    }

    /// The texture RID, (re)created for a `samples` map from `bytes` (one texel per sample,
    /// row-major; empty = zeros) when the size changed.
    pub fn ensure(&mut self, samples: [usize; 2], bytes: &[u8]) -> Option<Rid> {
        let texel = self.texel.bytes();
        self.ensure_with(samples, &|rect, out, stride| {
            copy_rect(bytes, texel, samples, rect, out, stride)
        })
    }

    /// [`Self::ensure`] with the texels made by `fill` (see [`TexelFill`]) instead of read from
    /// a copy of the whole map.
    pub fn ensure_with(&mut self, samples: [usize; 2], fill: &TexelFill) -> Option<Rid> {
        if self.rid.is_some() && self.samples == samples {
            return self.rid;
        }
        self.free();
        let [w, h] = samples;
        if w == 0 || h == 0 {
            return None;
        }
        let tile = Self::tile_for(w, h);
        let tiles = [w.div_ceil(tile), h.div_ceil(tile)];
        // The texels of every tile on the core's threads, then the images on this one.
        let mut images: Array<Gd<Image>> = Array::new();
        for data in fill_tiles(samples, tile, self.texel.bytes(), fill) {
            images.push(&image_of(self.texel, tile, &data)?);
        }
        let rid = RenderingServer::singleton()
            .texture_2d_layered_create(&images, TextureLayeredType::LAYERED_2D_ARRAY);
        self.rid = Some(rid);
        self.samples = samples;
        self.tile = tile;
        self.tiles = tiles;
        self.dirty = vec![false; tiles[0] * tiles[1]];
        self.any_dirty = false;
        self.rid
    }

    /// The RID, if created.
    pub fn rid(&self) -> Option<Rid> {
        self.rid
    }

    /// Tile edge in texels and tiles along X.
    pub fn layout(&self) -> (usize, usize) {
        (self.tile, self.tiles[0])
    }

    /// The sample map's size (zero before the texture is made or after it is freed).
    pub fn samples(&self) -> [usize; 2] {
        self.samples
    }

    /// The layout as the shaders take it (`ridgeline_layout`, `control_layout`): tile edge,
    /// tiles along X, samples along X, samples along Z.
    pub fn shader_layout(&self) -> Vector4i {
        let [w, h] = self.samples;
        Vector4i::new(self.tile as i32, self.tiles[0] as i32, w as i32, h as i32)
    }

    /// Bytes of the texture's texels on the GPU (tiles padded).
    pub fn gpu_bytes(&self) -> usize {
        self.tiles[0] * self.tiles[1] * self.tile * self.tile * self.texel.bytes()
    }

    /// Number of tiles (layers).
    pub fn tile_count(&self) -> usize {
        self.tiles[0] * self.tiles[1]
    }

    /// Marks every tile for the next flush (the texels' meaning changed).
    pub fn mark_all(&mut self) {
        if self.rid.is_some() && !self.dirty.is_empty() {
            self.dirty.fill(true);
            self.any_dirty = true;
        }
    }

    /// Marks the tiles under the sample rectangle `rect` for the next flush.
    pub fn mark(&mut self, rect: Rect) {
        if self.rid.is_none() || rect.is_empty() || self.tile == 0 {
            return;
        }
        let t = self.tile;
        let [tx1, tz1] = self.tiles;
        for tz in rect.z0 / t..rect.z1.div_ceil(t).min(tz1) {
            for tx in rect.x0 / t..rect.x1.div_ceil(t).min(tx1) {
                self.dirty[tz * tx1 + tx] = true;
                self.any_dirty = true;
            }
        }
    }

    /// True when a flush has tiles to upload.
    pub fn is_dirty(&self) -> bool {
        self.any_dirty
    }

    /// Uploads every dirty tile from `bytes` (the whole map, one texel per sample). Returns the
    /// number of tiles uploaded.
    pub fn flush(&mut self, bytes: &[u8]) -> usize {
        let samples = self.samples;
        let texel = self.texel.bytes();
        self.flush_with(&|rect, out, stride| copy_rect(bytes, texel, samples, rect, out, stride))
    }

    /// [`Self::flush`] with the texels made by `fill`.
    pub fn flush_with(&mut self, fill: &TexelFill) -> usize {
        let Some(rid) = self.rid else {
            return 0;
        };
        if !self.any_dirty {
            return 0;
        }
        self.any_dirty = false;
        let mut rs = RenderingServer::singleton();
        let dirty: Vec<usize> = (0..self.dirty.len())
            .filter(|&k| std::mem::take(&mut self.dirty[k]))
            .collect();
        let mut n = 0;
        // Encoded on rayon's threads a batch at a time (a whole map re-encodes after an edit
        // leaves the 16-bit height range: 256 tiles of 513² texels at 8 km), uploaded here.
        for batch in dirty.chunks(UPLOAD_BATCH) {
            let data = fill_listed_tiles(self.samples, self.tile, self.texel.bytes(), batch, fill);
            for (&k, bytes) in batch.iter().zip(&data) {
                if let Some(img) = image_of(self.texel, self.tile, bytes) {
                    rs.texture_2d_update(rid, &img, k as i32);
                    n += 1;
                }
            }
        }
        if n > 0 {
            self.flushes += 1;
            self.tile_uploads += n as u64;
        }
        n
    }

    /// Frees the texture.
    pub fn free(&mut self) {
        if let Some(rid) = self.rid.take() {
            RenderingServer::singleton().free_rid(rid);
        }
        self.samples = [0, 0];
        self.dirty.clear();
        self.any_dirty = false;
    }
}

impl Drop for PaintTexture {
    fn drop(&mut self) {
        self.free();
    }
}

/// Writes the texels of the sample rectangle `[x0, z0, x1, z1)` into the start of `out` (the
/// texture's [`Texel`] bytes each, `stride` texels per row); called from the core's threads
/// when a whole texture is made.
pub type TexelFill<'a> = Fill<'a>;

/// [`TexelFill`] from a whole map's bytes (`texel` per sample, row-major); nothing when the
/// map is not `w × h` (the texels stay zero).
fn copy_rect(
    bytes: &[u8],
    texel: usize,
    [w, h]: [usize; 2],
    [x0, z0, x1, z1]: [usize; 4],
    out: &mut [u8],
    stride: usize,
) {
    if bytes.len() != w * h * texel {
        return;
    }
    let row_bytes = (x1 - x0) * texel;
    for row in 0..z1 - z0 {
        let src = ((z0 + row) * w + x0) * texel;
        let dst = row * stride * texel;
        out[dst..dst + row_bytes].copy_from_slice(&bytes[src..src + row_bytes]);
    }
}

/// Dirty tiles encoded together before their upload (bounds the bytes held at once: 16 tiles
/// of 513² 32-bit texels are 17 MB).
const UPLOAD_BATCH: usize = 16;

/// A `tile × tile` image of `texel`s from `data`.
fn image_of(texel: Texel, tile: usize, data: &[u8]) -> Option<Gd<Image>> {
    Image::create_from_data(
        tile as i32,
        tile as i32,
        false,
        texel.format(),
        &PackedByteArray::from(data),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_the_map_within_the_layer_limit_and_pad_it_little() {
        for (w, h) in [
            (2, 2),
            (33, 33),
            (1025, 1025),
            (4097, 4097),
            (8193, 8193),
            (1025, 4097),
            (5000, 9),
        ] {
            let t = PaintTexture::tile_for(w, h);
            assert!(t >= 32);
            assert!(
                w.div_ceil(t) * h.div_ceil(t) <= MAX_TILES,
                "{w}×{h}: tile {t}"
            );
            // One texel less would need more tiles than allowed (or 32 is the floor).
            assert!(
                t == 32 || w.div_ceil(t - 1) * h.div_ceil(t - 1) > MAX_TILES,
                "{w}×{h}: tile {t}"
            );
        }
        assert_eq!(PaintTexture::tile_for(1025, 1025), 65);
    }
}
