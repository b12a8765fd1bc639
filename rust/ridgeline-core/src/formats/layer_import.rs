//! Importing layer files (the layout of [`super::layer_files`]): each PNG in the folder is read
//! strictly, compared with the session's current layer, and where it differs becomes one
//! replayable patch stroke over the bounding rectangle of the changed samples —
//! `height_patch` (heights), `paint_patch` (surface ids and splat weights; user channels),
//! `water_patch` and `foliage_patch` (see [`crate::edit::byte_patch`]). The strokes are applied
//! with [`EditSession::apply_strokes`]: one undo step, all or nothing. Missing files leave
//! their layer as it is; a file equal to the current layer adds no stroke.
//!
//! Refusals name the file (and the pixel): a PNG that does not decode, another size than the
//! grid's samples, another format than the layout's, a surface id that is no surface, weights
//! that do not sum to 255, density in a channel without a foliage type, a manifest of another
//! grid or foliage palette. Nothing is applied then.

use super::layer_files::{
    FILES, LayerPixels, MANIFEST, SURFACE_BLENDED, SURFACE_GENERATED, splat_index, surface_id,
};
use super::png16;
use crate::edit::byte_patch::{foliage_stroke_value, water_stroke_value};
use crate::edit::paint::{GENERATED, SURFACES, USER_CHANNELS, WEIGHT_SLOTS};
use crate::edit::rect::Rect;
use crate::edit::{height_patch, paint_patch};
use crate::error::{Error, Result};
use crate::fsio::{FileKind, read_bounded, read_text_bounded};
use crate::pipeline::{Change, EditSession};
use serde_json::Value;
use std::io::Cursor;
use std::path::Path;

/// What an import found and will apply.
#[derive(Clone, Debug, Default)]
pub struct ImportPlan {
    /// The layer files read (file names).
    pub read: Vec<String>,
    /// The files whose contents differ from the current layers (file names).
    pub changed: Vec<String>,
    /// The strokes that make the layers match the files, in application order.
    pub strokes: Vec<Value>,
}

/// Reads the layer folder `dir` against `session`'s current layers: the strokes that make them
/// match. Errors are located (file, pixel) and nothing is read further.
pub fn plan(session: &EditSession, dir: &Path) -> Result<ImportPlan> {
    let grid = *session.field().grid();
    let cells = grid.cells();
    let [w, h] = grid.samples();
    let px = LayerPixels::of(session);
    let manifest = read_manifest(dir, cells, &px.foliage_types)?;
    let mut out = ImportPlan::default();
    let file = |name: &str| dir.join(name);
    let present = |name: &str| file(name).is_file();
    for (name, _) in FILES {
        if present(name) {
            out.read.push(name.to_string());
        }
    }
    if out.read.is_empty() {
        return Err(Error::invalid(
            dir.display().to_string(),
            format!(
                "holds none of the layer files ({})",
                FILES.map(|(n, _)| n).join(", ")
            ),
        ));
    }
    let at =
        |name: &str, i: usize| format!("{} pixel ({}, {})", file(name).display(), i % w, i / w);

    // Heights.
    if present("heightmap.png") {
        let path = file("heightmap.png");
        let bytes = read_bounded(&path, FileKind::Heightmap)?;
        let range = png16::embedded_range(&bytes).or(manifest).ok_or_else(|| {
            Error::invalid(
                path.display().to_string(),
                format!(
                    "has no height range: neither its `tEXt` chunk \"{}\" nor {MANIFEST} holds one",
                    png16::RANGE_KEYWORD
                ),
            )
        })?;
        let values = decode(&bytes, &path, [w, h], png::ColorType::Grayscale, 16)?;
        let file_v: Vec<u16> = values
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        let (lo, hi) = range;
        let same = |i: usize| {
            let hc = px.heights[i];
            lo <= hc && hc <= hi && png16::quantise(hc, lo, hi) == file_v[i]
        };
        let rect = Rect::bounding(w, h, |i| !same(i));
        if !rect.is_empty() {
            let mut patch = Vec::with_capacity(rect.area());
            for_each(rect, w, |i| {
                patch.push(if same(i) {
                    px.heights[i]
                } else {
                    png16::dequantise(file_v[i] as f64, 65535.0, lo, hi)
                })
            });
            out.changed.push("heightmap.png".into());
            out.strokes
                .push(height_patch::stroke_value(cells, rect, &patch));
        }
    }

    // Water.
    if present("water.png") {
        let rgba = read_rgba(&file("water.png"), [w, h])?;
        let rect = Rect::bounding(w, h, |i| rgba[i * 4] != px.water()[i]);
        if !rect.is_empty() {
            let mut bytes = Vec::with_capacity(rect.area());
            for_each(rect, w, |i| bytes.push(rgba[i * 4]));
            out.changed.push("water.png".into());
            out.strokes.push(water_stroke_value(cells, rect, &bytes));
        }
    }

    // Surface paint: the splat files' weights, then surface.png's ids where they changed.
    let mut weights: Vec<[u8; WEIGHT_SLOTS]> = px.weights().to_vec();
    let mut paint_files = Vec::new();
    let mut splats = Vec::new();
    for name in ["splat-0.png", "splat-1.png", "splat-2.png"] {
        if !present(name) {
            continue;
        }
        let rgba = read_rgba(&file(name), [w, h])?;
        let k = splat_index(name) * 4;
        let mut differs = false;
        for (i, wt) in weights.iter_mut().enumerate() {
            for c in 0..4 {
                if let Some(slot) = wt.get_mut(k + c) {
                    differs |= *slot != rgba[i * 4 + c];
                    *slot = rgba[i * 4 + c];
                }
            }
        }
        if differs {
            paint_files.push(name);
        }
        splats.push((name, rgba));
    }
    if let Some(i) = weights
        .iter()
        .position(|wt| wt.iter().map(|&b| b as u32).sum::<u32>() != 255)
    {
        let sum: u32 = weights[i].iter().map(|&b| b as u32).sum();
        // Name the splat files that changed this sample.
        let cur = &px.weights()[i];
        let culprit = splats
            .iter()
            .find(|(name, rgba)| {
                let k = splat_index(name) * 4;
                (0..4).any(|c| cur.get(k + c).is_some_and(|&b| b != rgba[i * 4 + c]))
            })
            .map_or("splat-0.png", |(n, _)| n);
        return Err(Error::invalid(
            at(culprit, i),
            format!(
                "the ten surface weights (splat-0 RGBA, splat-1 RGBA, splat-2 RG) sum to {sum}; they must sum to 255"
            ),
        ));
    }
    if present("surface.png") {
        let rgba = read_rgba(&file("surface.png"), [w, h])?;
        let mut differs = false;
        for (i, wt) in weights.iter_mut().enumerate() {
            let id = rgba[i * 4];
            // Unchanged: the id of the current weights or of the splat files' (a stale
            // surface.png beside edited splat files keeps their weights).
            if id == surface_id(&px.weights()[i]) || id == surface_id(wt) {
                continue;
            }
            differs = true;
            let slot = match id {
                SURFACE_GENERATED => GENERATED,
                r if (r as usize) < SURFACES => r as usize,
                SURFACE_BLENDED => {
                    return Err(Error::invalid(
                        at("surface.png", i),
                        format!(
                            "R = {SURFACE_BLENDED} (blended) cannot be painted from surface.png; paint a surface id 0..={} or {SURFACE_GENERATED} (not painted), or edit the splat files",
                            SURFACES - 1
                        ),
                    ));
                }
                other => {
                    return Err(Error::invalid(
                        at("surface.png", i),
                        format!(
                            "R = {other} is no surface id; use 0..={} (a surface role) or {SURFACE_GENERATED} (not painted)",
                            SURFACES - 1
                        ),
                    ));
                }
            };
            *wt = [0; WEIGHT_SLOTS];
            wt[slot] = 255;
        }
        if differs {
            paint_files.push("surface.png");
        }
    }
    let rect = Rect::bounding(w, h, |i| weights[i] != px.weights()[i]);
    if !rect.is_empty() {
        let mut bytes = Vec::with_capacity(rect.area() * WEIGHT_SLOTS);
        for_each(rect, w, |i| bytes.extend_from_slice(&weights[i]));
        out.changed
            .extend(paint_files.iter().map(|s| s.to_string()));
        out.strokes
            .push(paint_patch::stroke_value(cells, rect, &[], &bytes));
    }

    // User channels.
    if present("user.png") {
        let rgba = read_rgba(&file("user.png"), [w, h])?;
        let cur = px.user();
        let rect = Rect::bounding(w, h, |i| rgba[i * 4..i * 4 + 4] != cur[i]);
        if !rect.is_empty() {
            let mut bytes = Vec::with_capacity(rect.area() * USER_CHANNELS);
            for_each(rect, w, |i| {
                bytes.extend_from_slice(&rgba[i * 4..i * 4 + 4])
            });
            out.changed.push("user.png".into());
            out.strokes
                .push(paint_patch::stroke_value(cells, rect, &bytes, &[]));
        }
    }

    // Foliage density.
    for (k, name) in ["foliage-0.png", "foliage-1.png"].into_iter().enumerate() {
        if !present(name) {
            continue;
        }
        let rgba = read_rgba(&file(name), [w, h])?;
        let mut differs = false;
        for c in 0..4 {
            let t = k * 4 + c;
            let channel = ["R", "G", "B", "A"][c];
            let Some(id) = px.foliage_types.get(t) else {
                if let Some(i) = (0..w * h).find(|&i| rgba[i * 4 + c] != 0) {
                    return Err(Error::invalid(
                        at(name, i),
                        format!(
                            "{channel} = {} holds density of foliage type {t}, but the palette defines {} foliage type(s); leave it 0",
                            rgba[i * 4 + c],
                            px.foliage_types.len()
                        ),
                    ));
                }
                continue;
            };
            let cur = px.foliage();
            let rect = Rect::bounding(w, h, |i| rgba[i * 4 + c] != cur[i][t]);
            if rect.is_empty() {
                continue;
            }
            differs = true;
            let mut bytes = Vec::with_capacity(rect.area());
            for_each(rect, w, |i| bytes.push(rgba[i * 4 + c]));
            out.strokes
                .push(foliage_stroke_value(cells, rect, id, &bytes));
        }
        if differs {
            out.changed.push(name.into());
        }
    }
    Ok(out)
}

/// Reads `dir` ([`plan`]) and applies its strokes to `session` as one undo step. Errors are
/// located and change nothing.
pub fn import(session: &mut EditSession, dir: &Path) -> Result<(ImportPlan, Change)> {
    let p = plan(session, dir)?;
    let change = session.apply_strokes(&p.strokes)?;
    Ok((p, change))
}

/// Checks the manifest in `dir` (if any) against the terrain: its grid and foliage types.
/// Returns its height range.
fn read_manifest(dir: &Path, cells: [u32; 2], foliage: &[String]) -> Result<Option<(f32, f32)>> {
    let path = dir.join(MANIFEST);
    if !path.is_file() {
        return Ok(None);
    }
    let name = path.display().to_string();
    let text = read_text_bounded(&path, FileKind::Document)?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| Error::invalid(name.clone(), format!("is not JSON ({e})")))?;
    if let Some(g) = v.get("grid") {
        let ok = g.as_array().is_some_and(|a| {
            a.len() == 2
                && a[0].as_u64() == Some(cells[0] as u64)
                && a[1].as_u64() == Some(cells[1] as u64)
        });
        if !ok {
            return Err(Error::invalid(
                format!("{name}.grid"),
                format!(
                    "the layers were exported from a {} grid; this terrain has {}×{} cells",
                    crate::doc::reader::show(g),
                    cells[0],
                    cells[1]
                ),
            ));
        }
    }
    if let Some(f) = v.get("foliage") {
        let ids: Option<Vec<&str>> = f
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect());
        if ids.as_deref() != Some(&foliage.iter().map(String::as_str).collect::<Vec<_>>()[..])
            && (dir.join("foliage-0.png").is_file() || dir.join("foliage-1.png").is_file())
        {
            return Err(Error::invalid(
                format!("{name}.foliage"),
                format!(
                    "the foliage files hold types {}, but this terrain's palette has [{}] (in that order)",
                    crate::doc::reader::show(f),
                    foliage.join(", ")
                ),
            ));
        }
    }
    let range = v
        .get("height_range")
        .and_then(Value::as_array)
        .and_then(|r| {
            let (a, b) = (r.first()?.as_f64()? as f32, r.get(1)?.as_f64()? as f32);
            (a.is_finite() && b.is_finite() && b > a).then_some((a, b))
        });
    Ok(range)
}

/// Reads an RGBA8 layer file of `size` pixels.
fn read_rgba(path: &Path, size: [usize; 2]) -> Result<Vec<u8>> {
    let bytes = read_bounded(path, FileKind::Heightmap)?;
    decode(&bytes, path, size, png::ColorType::Rgba, 8)
}

/// Decodes `bytes` (the PNG at `path`) strictly: `size` pixels of `color` at `depth` bits, not
/// interlaced; the packed sample bytes (big-endian for 16 bits).
fn decode(
    bytes: &[u8],
    path: &Path,
    size: [usize; 2],
    color: png::ColorType,
    depth: u8,
) -> Result<Vec<u8>> {
    let name = path.display().to_string();
    let bad = |m: String| Error::invalid(name.clone(), m);
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder
        .read_info()
        .map_err(|e| bad(format!("not a readable PNG ({e})")))?;
    let info = reader.info();
    let (w, h) = (info.width as usize, info.height as usize);
    if [w, h] != size {
        return Err(bad(format!(
            "is {w} × {h} pixels; this terrain's layers are {} × {} (one pixel per sample)",
            size[0], size[1]
        )));
    }
    let got_depth = info.bit_depth as u8;
    if info.color_type != color || got_depth != depth || info.interlaced {
        let want = match color {
            png::ColorType::Grayscale => "greyscale",
            _ => "RGBA",
        };
        return Err(bad(format!(
            "is {got_depth}-bit {:?}{}; this layer must be {depth}-bit {want}, not interlaced",
            info.color_type,
            if info.interlaced { " (interlaced)" } else { "" }
        )));
    }
    let n = reader
        .output_buffer_size()
        .ok_or_else(|| bad("image too large".into()))?;
    let mut buf = vec![0u8; n];
    let frame = reader
        .next_frame(&mut buf)
        .map_err(|e| bad(format!("truncated or corrupt image data ({e})")))?;
    let channels = if color == png::ColorType::Rgba { 4 } else { 1 };
    let row = w * channels * depth as usize / 8;
    let mut out = Vec::with_capacity(row * h);
    for line in buf.chunks(frame.line_size).take(h) {
        out.extend_from_slice(&line[..row.min(line.len())]);
    }
    if out.len() != row * h {
        return Err(bad("truncated image data".into()));
    }
    Ok(out)
}

/// Calls `f` with the index of every sample of `rect` (row-major) on a `w`-column grid.
fn for_each(rect: Rect, w: usize, mut f: impl FnMut(usize)) {
    for z in rect.z0..rect.z1 {
        for x in rect.x0..rect.x1 {
            f(z * w + x);
        }
    }
}
