//! Layer files (seed 004's "Data and files" layout): an edited terrain's layers as PNGs in one
//! folder, for image tools. [`export`] writes them; `super::layer_import` reads them back as
//! replayable strokes.
//!
//! | file | format | contents (one pixel per grid **sample**, row z, column x) |
//! |---|---|---|
//! | `heightmap.png` | 16-bit grey | `h = min + v / 65535 · (max − min)`; the range is embedded (`tEXt` "Ridgeline height range", see [`png16`]) and repeated in `layers.json` |
//! | `surface.png` | RGBA8 | R = painted surface id: 0–8 a surface role painted crisply, [`SURFACE_GENERATED`] not painted, [`SURFACE_BLENDED`] blended weights (see the splat files); G, B, A 0 |
//! | `splat-0.png`, `splat-1.png`, `splat-2.png` | RGBA8 | surface paint weights 0–3, 4–7, and 8 + generated (R, G; B, A 0); each sample's ten weights sum to 255 |
//! | `user.png` | RGBA8 | the four user channels |
//! | `water.png` | RGBA8 | R = painted water depth fraction (255 = `MAX_WATER_DEPTH`); G, B, A 0 |
//! | `foliage-0.png`, `foliage-1.png` | RGBA8 | painted density of foliage types 0–3 and 4–7 (the palette's order; 255 = full); channels without a type 0 |
//! | `layers.json` | JSON | the manifest: grid cells, height range, foliage type ids |
//!
//! The height `h` is the height the strokes make before painted water lowers the bed (the
//! water surface where painted water lies, the ground elsewhere): with `water.png` it gives
//! the bed back, and it is what a `height_patch` writes. Heights are quantised to the 16-bit
//! step of the range; the range is the file's own while every height fits in it (so an
//! unchanged surface writes the same bytes), else the heights' range widened to whole metres.
//!
//! Only files whose bytes differ from what is on disk are written, each atomically
//! ([`crate::fsio::write_atomic`]).

use super::png16;
use crate::edit::byte_patch::to_byte;
use crate::edit::paint::{GENERATED, SURFACES, USER_CHANNELS, WEIGHT_SLOTS};
use crate::error::{Error, Result};
use crate::fsio::{FileKind, read_bounded, write_atomic};
use crate::pipeline::EditSession;
use std::path::{Path, PathBuf};

/// `surface.png` R of a sample whose surface is not painted (the classification decides).
pub const SURFACE_GENERATED: u8 = 255;
/// `surface.png` R of a sample with blended paint weights (the splat files hold them).
pub const SURFACE_BLENDED: u8 = 254;
/// Foliage types the two foliage files hold.
pub const MAX_FOLIAGE_TYPES: usize = 8;
/// The manifest's file name.
pub const MANIFEST: &str = "layers.json";

/// Layer groups (a bit each; what `--layers` and `Terrain3D.export_layers` select).
pub const GROUPS: [(&str, u32); 6] = [
    ("heightmap", 1),
    ("surface", 2),
    ("splat", 4),
    ("user", 8),
    ("water", 16),
    ("foliage", 32),
];
/// Every group.
pub const ALL_GROUPS: u32 = 63;

/// The layer files in write order, with their group bit.
pub const FILES: [(&str, u32); 9] = [
    ("heightmap.png", 1),
    ("surface.png", 2),
    ("splat-0.png", 4),
    ("splat-1.png", 4),
    ("splat-2.png", 4),
    ("user.png", 8),
    ("water.png", 16),
    ("foliage-0.png", 32),
    ("foliage-1.png", 32),
];

/// The group bits of a comma-separated list of group names (`heightmap,surface,splat,user,
/// water,foliage`, or `all`); errors name the unknown entry.
pub fn parse_groups(list: &str) -> Result<u32> {
    let mut bits = 0;
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if name == "all" {
            bits |= ALL_GROUPS;
            continue;
        }
        match GROUPS.iter().find(|(n, _)| *n == name) {
            Some((_, b)) => bits |= b,
            None => {
                return Err(Error::invalid(
                    "--layers",
                    format!(
                        "names no layer `{name}`; layers are all, {}",
                        GROUPS.map(|(n, _)| n).join(", ")
                    ),
                ));
            }
        }
    }
    if bits == 0 {
        return Err(Error::invalid("--layers", "names no layer"));
    }
    Ok(bits)
}

/// The current layers of a session as file pixels.
pub struct LayerPixels {
    /// Samples per row and rows.
    pub size: [usize; 2],
    /// `h` (the height before painted water lowers the bed) per sample.
    pub heights: Vec<f32>,
    /// The foliage type ids the foliage files hold, in channel order.
    pub foliage_types: Vec<String>,
    session_user: Vec<[u8; USER_CHANNELS]>,
    weights: Vec<[u8; WEIGHT_SLOTS]>,
    water: Vec<u8>,
    foliage: Vec<[u8; MAX_FOLIAGE_TYPES]>,
}

impl LayerPixels {
    /// The layers of `session`.
    pub fn of(session: &EditSession) -> Self {
        let grid = session.field().grid();
        let size = grid.samples();
        let n = grid.sample_count();
        let water = session.water();
        let paint = session.paint();
        let heights = session
            .field()
            .heights()
            .iter()
            .enumerate()
            .map(|(i, &b)| b + water.depth(i))
            .collect();
        let foliage_types = foliage_types(session);
        let maps = session.foliage_maps();
        Self {
            size,
            heights,
            session_user: (0..n)
                .map(|i| std::array::from_fn(|c| paint.user(i, c)))
                .collect(),
            weights: (0..n).map(|i| paint.weights(i)).collect(),
            water: (0..n).map(|i| to_byte(water.fraction(i))).collect(),
            foliage: (0..n)
                .map(|i| {
                    std::array::from_fn(|t| {
                        foliage_types
                            .get(t)
                            .map_or(0, |id| to_byte(maps.value(id, i)))
                    })
                })
                .collect(),
            foliage_types,
        }
    }

    /// The ten surface paint weights of every sample.
    pub fn weights(&self) -> &[[u8; WEIGHT_SLOTS]] {
        &self.weights
    }

    /// The four user channel bytes of every sample.
    pub fn user(&self) -> &[[u8; USER_CHANNELS]] {
        &self.session_user
    }

    /// The painted water depth byte of every sample.
    pub fn water(&self) -> &[u8] {
        &self.water
    }

    /// The foliage density bytes (types in [`Self::foliage_types`] order) of every sample.
    pub fn foliage(&self) -> &[[u8; MAX_FOLIAGE_TYPES]] {
        &self.foliage
    }

    /// The RGBA pixels of layer file `name` (not the heightmap).
    pub fn rgba(&self, name: &str) -> Vec<u8> {
        let n = self.size[0] * self.size[1];
        let mut out = vec![0u8; n * 4];
        for (i, px) in out.chunks_exact_mut(4).enumerate() {
            match name {
                "surface.png" => px[0] = surface_id(&self.weights[i]),
                "splat-0.png" | "splat-1.png" | "splat-2.png" => {
                    let k = splat_index(name) * 4;
                    for (c, p) in px.iter_mut().enumerate() {
                        *p = self.weights[i].get(k + c).copied().unwrap_or(0);
                    }
                }
                "user.png" => px.copy_from_slice(&self.session_user[i]),
                "water.png" => px[0] = self.water[i],
                "foliage-0.png" | "foliage-1.png" => {
                    let k = if name == "foliage-0.png" { 0 } else { 4 };
                    px.copy_from_slice(&self.foliage[i][k..k + 4]);
                }
                _ => {}
            }
        }
        out
    }

    /// The range [`export`] writes the heights with: `keep` (a range on disk) while every
    /// height fits in it, else the heights' range widened to whole metres (at least 1 m).
    pub fn height_range(&self, keep: Option<(f32, f32)>) -> (f32, f32) {
        let (lo, hi) = self
            .heights
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &h| {
                (a.min(h), b.max(h))
            });
        if let Some((a, b)) = keep
            && a <= lo
            && hi <= b
        {
            return (a, b);
        }
        if !lo.is_finite() || !hi.is_finite() {
            return (0.0, 1.0);
        }
        let (a, mut b) = (lo.floor(), hi.ceil());
        if b <= a {
            b = a + 1.0;
        }
        (a, b)
    }
}

/// Index 0–2 of a splat file name.
pub fn splat_index(name: &str) -> usize {
    match name {
        "splat-1.png" => 1,
        "splat-2.png" => 2,
        _ => 0,
    }
}

/// `surface.png` R of a sample's weights: the role holding all the weight, else
/// [`SURFACE_GENERATED`] or [`SURFACE_BLENDED`].
pub fn surface_id(w: &[u8; WEIGHT_SLOTS]) -> u8 {
    match w.iter().position(|&b| b == 255) {
        Some(GENERATED) => SURFACE_GENERATED,
        Some(r) if r < SURFACES => r as u8,
        _ => SURFACE_BLENDED,
    }
}

/// The palette's foliage type ids (at most [`MAX_FOLIAGE_TYPES`], in palette order).
pub fn foliage_types(session: &EditSession) -> Vec<String> {
    session
        .recipe()
        .palette
        .iter()
        .flat_map(|p| p.foliage.iter().map(|t| t.id.clone()))
        .take(MAX_FOLIAGE_TYPES)
        .collect()
}

/// Encodes RGBA8 pixels (`w × h`) as a PNG.
pub fn encode_rgba(w: usize, h: usize, pixels: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let err = |e: png::EncodingError| Error::invalid("png", e.to_string());
    {
        let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png16::COMPRESSION);
        enc.set_filter(png16::FILTER);
        let mut writer = enc.write_header().map_err(err)?;
        writer.write_image_data(pixels).map_err(err)?;
        writer.finish().map_err(err)?;
    }
    Ok(out)
}

/// The manifest JSON (canonical, so unchanged layers give unchanged bytes).
pub fn manifest(cells: [u32; 2], range: (f32, f32), foliage: &[String]) -> Vec<u8> {
    let v = serde_json::json!({
        "format": "ridgeline-layers",
        "version": 1,
        "grid": [cells[0], cells[1]],
        "height_range": [crate::edit::stroke::shortest(range.0), crate::edit::stroke::shortest(range.1)],
        "foliage": foliage,
    });
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s.into_bytes()
}

/// The layer files of `groups` (bits of [`GROUPS`]) as bytes, with the height range kept
/// from `keep` where the heights fit (see [`LayerPixels::height_range`]). The manifest comes
/// last.
pub fn encode(
    session: &EditSession,
    groups: u32,
    keep: Option<(f32, f32)>,
) -> Result<Vec<(&'static str, Vec<u8>)>> {
    let px = LayerPixels::of(session);
    let [w, h] = px.size;
    let range = px.height_range(keep);
    let mut out = Vec::new();
    for (name, bit) in FILES {
        if groups & bit == 0 {
            continue;
        }
        let bytes = if name == "heightmap.png" {
            let image = super::HeightImage {
                width: w,
                depth: h,
                heights: px.heights.clone(),
            };
            png16::write(&image, range.0, range.1)?
        } else {
            encode_rgba(w, h, &px.rgba(name))?
        };
        out.push((name, bytes));
    }
    let cells = session.field().grid().cells();
    out.push((MANIFEST, manifest(cells, range, &px.foliage_types)));
    Ok(out)
}

/// One file [`export`] considered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Its path.
    pub path: PathBuf,
    /// False when the file on disk already held these bytes (not rewritten).
    pub written: bool,
}

/// The height range of the layer folder `dir` (the heightmap's embedded range, else the
/// manifest's), if any.
pub fn folder_range(dir: &Path) -> Option<(f32, f32)> {
    let hm = dir.join("heightmap.png");
    if hm.is_file()
        && let Ok(bytes) = read_bounded(&hm, FileKind::Heightmap)
        && let Some(r) = png16::embedded_range(&bytes)
    {
        return Some(r);
    }
    manifest_range(dir)
}

/// The manifest's height range in `dir`, if readable.
pub fn manifest_range(dir: &Path) -> Option<(f32, f32)> {
    let text = crate::fsio::read_text_bounded(&dir.join(MANIFEST), FileKind::Document).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let r = v.get("height_range")?.as_array()?;
    let (a, b) = (r.first()?.as_f64()? as f32, r.get(1)?.as_f64()? as f32);
    (a.is_finite() && b.is_finite() && b > a).then_some((a, b))
}

/// Writes the layer files of `groups` into `dir` (created if missing): only files whose bytes
/// differ from the file there, each atomically. Returns every file considered.
pub fn export(session: &EditSession, dir: &Path, groups: u32) -> Result<Vec<Exported>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        source: e,
    })?;
    let files = encode(session, groups, folder_range(dir))?;
    let mut out = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        let path = dir.join(name);
        let same = path.is_file()
            && read_bounded(&path, FileKind::Heightmap).is_ok_and(|old| old == bytes);
        if !same {
            write_atomic(&path, &bytes)?;
        }
        out.push(Exported {
            path,
            written: !same,
        });
    }
    Ok(out)
}
