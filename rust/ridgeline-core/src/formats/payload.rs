//! Cooked terrain payloads (`*.terrain.bin`): a prepared terrain that loads without evaluating
//! any node.
//!
//! Layout (little endian):
//! ```text
//! magic            8 bytes  "RDGLTBIN"
//! format_version   u32      PAYLOAD_VERSION
//! generator        u16 len + UTF-8 (must equal the loading generator's version)
//! body_len         u64
//! checksum         u64      XXH3-64 of the body (FNV-1a 64 up to version 5)
//! body:
//!   meta_len u32 + meta JSON (grid, biome table, water bodies, exclusions, scatter)
//!   heights        f32 × samples
//!   holes          ceil(cells / 8) bytes, bit per cell (row-major)
//!   water_owner    u16 × samples (0 = dry, else body index + 1; version 7: only when
//!                                 meta.water_samples)
//!   water_surface  f32 × samples (version 7: only when meta.water_samples)
//!   exclusion      f32 × samples   (only when meta.exclusions.mask is true)
//!   regions        u16 × samples   (only when meta.regions is non-empty: 0 = unpainted, else
//!                                   index + 1 into meta.regions, the painted biome names)
//!   biome_ids      u16 × samples   (only when meta.surface.classified: index into meta.biomes)
//!   role_ids       u8 × samples    (only when meta.surface.classified: surface role 0..=8)
//!     — version 7, when meta.class_pairs is a table instead of null: class_codes u8 × samples
//!       (index into meta.class_pairs) in place of both (`payload_packed`)
//!   flow           f32 × samples   (only when meta.surface.flow: drainage accumulation)
//!   erosion        f32 × samples   (only when meta.surface.erosion: signed erosion change)
//!   flow_offset    f32 × samples   (only when meta.surface.flow and .flow_offset: drainage
//!                                   ground − generated surface, for flow after sculpting)
//!   placements     30 bytes × meta.scatter[0].count (format 4; see `payload_scatter`)
//!   foliage density f32 × samples per id in meta.foliage.density (format 5)
//!   protection     f32 × samples   (format 5, only when meta.foliage.protection)
//! ```
//! `meta.biomes` is the biome table (name, color, material or null, texture_scale,
//! allow_snow); `meta.surface` holds the flags above plus `rules` (whether the recipe's biome
//! rules applied). Version 3 added them; a version-2 payload is refused with "cook the terrain
//! again" like any other version (payloads are derived data). Version 4 added scatter
//! placements. Version 5 added the scatter source (`payload_scatter_source`): `meta.palette`
//! (the palette document: rule geometry references, collision, foliage types),
//! `meta.foliage` (scatter sub-seed, painted density map ids, protection flag) and the
//! arrays above, so a cooked terrain draws what its recipe draws. Versions 3 and 4 (no
//! placements, no source) are still read; older ones are refused.
//! Anything else — wrong magic, version, generator, length or checksum — is an error that says
//! which; a game never silently regenerates. Values are validated too, not only the structure
//! (`super::payload_meta`): missing or mistyped metadata, heights beyond the height bound,
//! NaN water surfaces, exclusion weights outside 0–1 are located errors.

use crate::error::{Error, Result};
use crate::grid::HoleMask;
use crate::heightfield::Heightfield;
use crate::hydrology::water::{Footprint, WaterSet};
use crate::pipeline::PreparedTerrain;
use crate::seed::fnv1a;

/// The body checksum a payload of `version` carries: XXH3-64 from [`XXH3_SINCE_VERSION`],
/// FNV-1a 64 before.
pub fn checksum(version: u32, body: &[u8]) -> u64 {
    if version >= XXH3_SINCE_VERSION {
        xxhash_rust::xxh3::xxh3_64(body)
    } else {
        fnv1a(body)
    }
}
use serde_json::{Value, json};

/// Magic bytes.
pub const MAGIC: &[u8; 8] = b"RDGLTBIN";
/// Payload format version (7: the compact sections of `payload_packed`).
pub const PAYLOAD_VERSION: u32 = 7;
/// From this version the checksum is XXH3-64 (before it, byte-serial FNV-1a 64: about a
/// quarter of a second per 220 MB, a sixth of a 4 km map's load).
pub const XXH3_SINCE_VERSION: u32 = 6;
/// Version 4, still read (it holds no scatter source: no palette, no foliage).
pub const PREVIOUS_PAYLOAD_VERSION: u32 = 4;
/// The oldest version still read (it holds neither placements nor a scatter source).
pub const OLDEST_PAYLOAD_VERSION: u32 = 3;

/// The payload as the development cache's entry format.
pub const CODEC: crate::pipeline::devcache::Codec =
    crate::pipeline::devcache::Codec { encode, decode };

/// Encodes a prepared terrain.
pub fn encode(p: &PreparedTerrain) -> Vec<u8> {
    encode_as(p, PAYLOAD_VERSION)
}

/// Encodes a prepared terrain as a payload of `version` (6 or 7: version 6 has neither of
/// `payload_packed`'s compact sections; tests write it to check it still loads).
pub(crate) fn encode_as(p: &PreparedTerrain, version: u32) -> Vec<u8> {
    use super::payload_arrays as arrays;
    use super::payload_packed as packed;
    let compact = version >= packed::SINCE_VERSION;
    let water_samples = !compact || packed::water_samples(p);
    let codes = if compact && !p.surface.is_empty() {
        packed::class_codes(&p.surface.classes)
    } else {
        None
    };
    // Stored only with the flow it routes.
    let flow_offset = p.sources.flow.as_ref().and(p.sources.flow_offset.as_ref());
    let grid = p.field.grid();
    let bodies: Vec<Value> = p
        .water
        .bodies
        .iter()
        .map(|b| {
            let a = &b.appearance;
            json!({
                "id": b.id, "kind": b.kind.name(), "level": b.level, "flow_speed": b.flow_speed,
                "flow_direction": b.flow_direction, "wet_samples": b.wet_samples,
                "river_path": match &b.footprint { Footprint::River { path, .. } => json!(path), _ => Value::Null },
                "appearance": {
                    "shallow_color": a.shallow_color, "deep_color": a.deep_color,
                    "absorption_distance": a.absorption_distance, "roughness": a.roughness,
                    "wave_amplitude": a.wave_amplitude, "wave_length": a.wave_length,
                    "wave_speed": a.wave_speed, "normal_strength": a.normal_strength,
                    "foam_width": a.foam_width, "foam_strength": a.foam_strength, "foam_color": a.foam_color,
                },
            })
        })
        .collect();
    let (palette, foliage) = super::payload_scatter_source::meta(&p.scatter_source);
    let meta = json!({
        "size": grid.size(), "cells": grid.cells(), "chunk_cells": grid.chunk_cells(),
        "default_biome": p.default_biome, "biome_color": p.biome_color,
        "water": bodies, "exclusions": { "mask": !p.exclusion.is_empty() },
        "regions": if p.regions.is_empty() { Vec::new() } else { p.region_biomes.clone() },
        "biomes": p.surface.biomes.iter().map(|b| json!({
            "name": b.name, "color": b.color, "material": b.material,
            "texture_scale": b.texture_scale, "allow_snow": b.allow_snow,
        })).collect::<Vec<_>>(),
        "surface": {
            "classified": !p.surface.is_empty(), "rules": p.sources.rules,
            "flow": p.sources.flow.is_some(), "erosion": p.sources.erosion.is_some(),
            "flow_offset": flow_offset.is_some(),
        },
        "scatter": super::payload_scatter::meta(&p.scatter),
        "palette": palette, "foliage": foliage,
    });
    let mut meta = meta;
    if let (Some(b), Some(m)) = (&p.scatter_source.biome_rules, meta.as_object_mut()) {
        m.insert("biome_rules".into(), super::payload_biome_rules::meta(b));
    }
    if let (Some(v), Some(m)) = (
        super::payload_paint::meta(&p.scatter_source, &p.water.painted),
        meta.as_object_mut(),
    ) {
        m.insert("paint".into(), v);
    }
    if let (Some(b), Some(m)) = (super::payload_scatter::base_sites(p), meta.as_object_mut()) {
        m.insert("scatter_base".into(), super::payload_scatter::base_meta(b));
    }
    if let (true, Some(m)) = (compact, meta.as_object_mut()) {
        m.insert("water_samples".into(), water_samples.into());
        let pairs = codes.as_ref().map(|(pairs, _)| pairs.as_slice());
        m.insert("class_pairs".into(), packed::pairs_meta(pairs));
    }
    let meta = meta.to_string();
    // The header, with the body's length and checksum patched in at the end (the body is
    // written in place, not copied behind a header).
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    let generator = crate::GENERATOR_VERSION.as_bytes();
    out.extend_from_slice(&(generator.len() as u16).to_le_bytes());
    out.extend_from_slice(generator);
    let len_at = out.len();
    out.extend_from_slice(&[0; 16]);
    let body_at = out.len();
    let body = &mut out;
    body.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    body.extend_from_slice(meta.as_bytes());
    arrays::put_f32s(body, p.field.heights());
    body.extend_from_slice(&p.field.holes().to_le_bits());
    let n = grid.sample_count();
    if water_samples {
        // The arrays are empty (a dry set: every owner 0, every surface 0.0, all zero bytes) or
        // one value per sample.
        if p.water.owner.len() == n {
            arrays::put_u16s(body, &p.water.owner);
            arrays::put_f32s(body, &p.water.surface);
        } else {
            body.resize(body.len() + n * (2 + 4), 0);
        }
    }
    arrays::put_f32s(body, &p.exclusion);
    arrays::put_u16s(body, &p.regions);
    if let Some((_, codes)) = &codes {
        body.extend_from_slice(codes);
    } else if !p.surface.is_empty() {
        for b in p.surface.classes.biomes() {
            body.extend_from_slice(&b.to_le_bytes());
        }
        body.extend(p.surface.classes.roles());
    }
    for f in [
        p.sources.flow.as_ref(),
        p.sources.erosion.as_ref(),
        flow_offset,
    ]
    .into_iter()
    .flatten()
    {
        arrays::put_f32s(body, f);
    }
    super::payload_scatter::write(&p.scatter, body);
    super::payload_scatter_source::write(&p.scatter_source, body);
    super::payload_paint::write(&p.scatter_source, &p.water.painted, body);
    if let Some(b) = super::payload_scatter::base_sites(p) {
        super::payload_scatter::write(b, body);
    }
    let body_len = (out.len() - body_at) as u64;
    let sum = checksum(version, &out[body_at..]);
    out[len_at..len_at + 8].copy_from_slice(&body_len.to_le_bytes());
    out[len_at + 8..len_at + 16].copy_from_slice(&sum.to_le_bytes());
    out
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    source: &'a str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if self.bytes.len() - self.pos < n {
            return Err(Error::invalid(
                self.source,
                format!(
                    "truncated payload: {what} needs {n} more bytes at offset {}, the file ends after {}",
                    self.pos,
                    self.bytes.len() - self.pos
                ),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u16(&mut self, what: &str) -> Result<u16> {
        Ok(u16::from_le_bytes(
            self.take(2, what)?.try_into().unwrap_or_default(),
        ))
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().unwrap_or_default(),
        ))
    }
    fn u64(&mut self, what: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().unwrap_or_default(),
        ))
    }
}

fn bad(source: impl Into<String>, msg: impl Into<String>) -> Error {
    Error::invalid(source, msg)
}

/// Decodes a payload; `source` names the file in errors.
pub fn decode(bytes: &[u8], source: &str) -> Result<PreparedTerrain> {
    let mut r = Reader {
        bytes,
        pos: 0,
        source,
    };
    if r.take(8, "the magic")? != MAGIC {
        return Err(bad(
            source,
            "not a Ridgeline terrain payload (wrong magic); cook it with `ridgeline cook`",
        ));
    }
    let version = r.u32("the format version")?;
    if !(OLDEST_PAYLOAD_VERSION..=PAYLOAD_VERSION).contains(&version) {
        return Err(bad(
            source,
            format!(
                "payload format version {version} is not supported (this build reads {OLDEST_PAYLOAD_VERSION} to {PAYLOAD_VERSION}); cook the terrain again"
            ),
        ));
    }
    let len = r.u16("the generator version")? as usize;
    let generator = String::from_utf8_lossy(r.take(len, "the generator version")?).to_string();
    if generator != crate::GENERATOR_VERSION {
        return Err(bad(
            source,
            format!(
                "cooked by generator {generator}, but this build is {}; cook the terrain again",
                crate::GENERATOR_VERSION
            ),
        ));
    }
    let body_len = r.u64("the body length")? as usize;
    let checksum = r.u64("the checksum")?;
    let body = r.take(body_len, "the body")?;
    if r.pos != bytes.len() {
        return Err(bad(
            source,
            format!("{} unexpected bytes after the body", bytes.len() - r.pos),
        ));
    }
    // The checksum runs beside the decoding (which validates every value on its own); a
    // mismatch wins over whatever the body gave.
    let (sum, decoded) = rayon::join(
        || self::checksum(version, body),
        || decode_body(version, body, source),
    );
    if sum != checksum {
        return Err(bad(
            source,
            "checksum mismatch: the payload is corrupt; cook the terrain again",
        ));
    }
    decoded
}

/// The body of a payload of `version` (after the checksum), into a prepared terrain. The
/// per-sample arrays are converted and checked on rayon's threads (`payload_arrays`).
fn decode_body(version: u32, body: &[u8], source: &str) -> Result<PreparedTerrain> {
    use super::payload_arrays as arrays;
    let mut b = Reader {
        bytes: body,
        pos: 0,
        source,
    };
    let meta_len = b.u32("the metadata length")? as usize;
    let meta = crate::doc::strict_json::parse_slice(b.take(meta_len, "the metadata")?, source)
        .map_err(|e| bad(source, format!("corrupt metadata ({e})")))?;
    let announced = super::payload_meta::read(&meta, source).and_then(|m| {
        let n = m.grid.sample_count();
        let a = super::payload_scatter_source::read_meta(&meta, version, n, source)?;
        let rules =
            super::payload_biome_rules::read(&meta, version, &m.biomes, &m.default_biome, source)?;
        let paint = super::payload_paint::read_meta(&meta, version, source)?;
        let sites = super::payload_scatter::read_base_meta(&meta, source)?;
        let compact = super::payload_packed::read_meta(
            &meta,
            version,
            m.classified,
            m.biomes.len(),
            m.bodies.len(),
            source,
        )?;
        Ok((m, a, rules, (paint, sites, compact)))
    });
    let (meta, announced, biome_rules, (paint, sites, compact)) = announced?;
    let grid = meta.grid;
    let [cells_x, _] = grid.cells();
    let n = grid.sample_count();
    let heights = arrays::f32s(b.take(n * 4, "the heights")?);
    let cell_count = grid.cell_count();
    let bits = b.take(cell_count.div_ceil(8), "the hole mask")?;
    let holes = HoleMask::from_le_bits(cells_x as usize, grid.cells()[1] as usize, bits);
    let (owner, surface) = if compact.water_samples {
        (
            arrays::u16s(b.take(n * 2, "the water owners")?),
            arrays::f32s(b.take(n * 4, "the water surfaces")?),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let exclusion: Vec<f32> = if meta.exclusion_mask {
        arrays::f32s(b.take(n * 4, "the exclusion mask")?)
    } else {
        Vec::new()
    };
    let region_biomes = meta.region_biomes;
    let regions: Vec<u16> = if region_biomes.is_empty() {
        Vec::new()
    } else {
        arrays::u16s(b.take(n * 2, "the painted regions")?)
    };
    if arrays::first(&regions, |&r| r as usize > region_biomes.len()).is_some() {
        return Err(bad(
            source,
            "corrupt regions: a sample names a biome that does not exist",
        ));
    }
    let codes = match (&compact.class_pairs, meta.classified) {
        (Some(_), true) => b.take(n, "the class codes")?,
        _ => &[],
    };
    let (biome_bytes, role_ids): (&[u8], &[u8]) = if meta.classified && codes.is_empty() {
        (
            b.take(n * 2, "the biome ids")?,
            b.take(n, "the surface roles")?,
        )
    } else {
        (&[], &[])
    };
    if let Some((i, id)) = arrays::first_u16(biome_bytes, |id| id as usize >= meta.biomes.len()) {
        return Err(bad(
            format!("{source}: biome_ids[{i}]"),
            format!(
                "biome id {id} does not exist ({} biomes); the payload is corrupt, cook the terrain again",
                meta.biomes.len()
            ),
        ));
    }
    if let Some(i) = arrays::first(role_ids, |&r| crate::biome::Role::from_id(r).is_none()) {
        return Err(bad(
            format!("{source}: role_ids[{i}]"),
            format!(
                "role id {} is not one of the nine roles (0..=8); the payload is corrupt, cook the terrain again",
                role_ids[i]
            ),
        ));
    }
    let classes = match compact.class_pairs {
        Some(pairs) if !codes.is_empty() => crate::biome::SampleClasses::from_packed(
            pairs,
            codes.to_vec(),
        )
        .map_err(|i| {
            bad(
                format!("{source}: class_codes[{i}]"),
                "names no pair of meta.class_pairs; the payload is corrupt, cook the terrain again",
            )
        })?,
        _ => crate::biome::SampleClasses::from_indexed(role_ids.len(), |i| {
            (
                u16::from_le_bytes([biome_bytes[2 * i], biome_bytes[2 * i + 1]]),
                role_ids[i],
            )
        }),
    };
    let mut floats = |on: bool, what: &str| -> Result<Option<std::sync::Arc<Vec<f32>>>> {
        if !on {
            return Ok(None);
        }
        let v = arrays::f32s(b.take(n * 4, what)?);
        if let Some(i) = arrays::first(&v, |x| !x.is_finite()) {
            return Err(bad(
                format!("{source}: {what}[{i}]"),
                "must be finite; the payload is corrupt, cook the terrain again",
            ));
        }
        Ok(Some(std::sync::Arc::new(v)))
    };
    let flow = floats(meta.flow, "flow")?;
    let erosion = floats(meta.erosion, "erosion")?;
    let flow_offset = floats(meta.flow_offset && flow.is_some(), "flow_offset")?;
    let mut scatter = meta.scatter;
    if version == OLDEST_PAYLOAD_VERSION && (meta.scatter_count > 0 || !scatter.rules.is_empty()) {
        return Err(bad(
            source,
            "a version-3 payload cannot hold scatter placements; the payload is corrupt, cook the terrain again",
        ));
    }
    let bytes = meta
        .scatter_count
        .checked_mul(super::payload_scatter::PLACEMENT_BYTES)
        .ok_or_else(|| bad(source, "corrupt scatter count"))?;
    let placements = b.take(bytes, "the scatter placements")?;
    super::payload_scatter::read(&mut scatter, placements, grid.size(), source)?;
    let bytes = announced
        .bytes(n)
        .ok_or_else(|| bad(source, "corrupt foliage map count"))?;
    let arrays = b.take(bytes, "the foliage density maps and protection")?;
    let mut scatter_source =
        super::payload_scatter_source::read(announced, &scatter, arrays, n, source)?;
    scatter_source.biome_rules = biome_rules;
    let bytes = paint
        .bytes(n)
        .ok_or_else(|| bad(source, "corrupt paint section size"))?;
    let layers = b.take(bytes, "the painted layers")?;
    let painted = super::payload_paint::read(paint, layers, n, source, &mut scatter_source)?;
    if let Some(count) = sites {
        let bytes = count
            .checked_mul(super::payload_scatter::PLACEMENT_BYTES)
            .ok_or_else(|| bad(source, "corrupt scatter base count"))?;
        let mut base = crate::scatter::Scatter {
            palette: scatter.palette.clone(),
            rules: scatter.rules.clone(),
            ..Default::default()
        };
        let at = b.take(bytes, "the scatter base sites")?;
        super::payload_scatter::read(&mut base, at, grid.size(), source)?;
        scatter_source.base_placements = Some(std::sync::Arc::new(base));
    }
    if b.pos != body.len() {
        return Err(bad(source, "the body is longer than its contents"));
    }
    super::payload_meta::check_samples(source, &surface, &exclusion)?;
    let field = Heightfield::new(grid, heights, Some(holes))
        .map_err(|e| bad(source, format!("corrupt surface: {e}")))?;
    let bodies = meta.bodies;
    if arrays::first(&owner, |&o| o as usize > bodies.len()).is_some() {
        return Err(bad(
            source,
            "corrupt water data: a sample names a body that does not exist",
        ));
    }
    // A terrain without water keeps no per-sample water arrays.
    // Without bodies the check above already found every owner 0.
    let (owner, surface) = if bodies.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        (owner, surface)
    };
    let water = WaterSet {
        grid,
        bodies,
        owner,
        surface,
        // The painted water (`meta.paint.water`): the cooked heights are the beds under it.
        painted,
    };
    Ok(PreparedTerrain {
        field,
        water,
        default_biome: meta.default_biome,
        biome_color: meta.biome_color,
        exclusion,
        regions,
        region_biomes,
        surface: crate::pipeline::Surface {
            biomes: meta.biomes,
            classes,
        },
        sources: crate::pipeline::SurfaceSources {
            rules: meta.rules,
            flow,
            flow_offset,
            erosion,
        },
        scatter: std::sync::Arc::new(scatter),
        scatter_source: std::sync::Arc::new(scatter_source),
    })
}

#[cfg(test)]
#[path = "payload_tests.rs"]
mod tests;
