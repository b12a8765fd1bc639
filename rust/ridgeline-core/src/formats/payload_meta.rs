//! Reading and validating a cooked payload's metadata and per-sample values. A payload whose
//! checksum is right may still hold values no generator writes (NaN water surfaces, exclusion
//! weights outside 0–1, missing or mistyped metadata): each is a located error naming the file
//! and the field (`t.terrain.bin: meta.water[0].level: …`), never a silent default.
//!
//! Bounds (listed in `docs/limits.md` and `docs/formats.md`): heights within
//! ±[`MAX_HEIGHT`] (checked by [`crate::heightfield::Heightfield::new`]), water levels and
//! surfaces finite and within ±[`MAX_LEVEL`], exclusion weights 0–1, colours 0–1, appearance
//! values in the Water Body node's ranges, at most [`MAX_BODIES`] bodies, `wet_samples` at most
//! the sample count, a grid [`Grid::new`] accepts with a representable spacing.

use crate::error::{Diagnostics, Error, Result};
use crate::grid::{CHUNK_CELLS_RANGE, Grid, MAX_CELLS_PER_AXIS};
use crate::heightfield::MAX_HEIGHT;
use crate::hydrology::water::{Appearance, Footprint, MAX_BODIES, WaterBody, WaterKind};
use serde_json::Value;

/// Largest absolute water level or surface height in a payload (a river's level may sit above
/// the highest allowed ground).
pub const MAX_LEVEL: f32 = 2.0 * MAX_HEIGHT;

/// What the metadata holds.
pub(crate) struct Meta {
    pub grid: Grid,
    pub default_biome: String,
    pub biome_color: [f32; 4],
    pub bodies: Vec<WaterBody>,
    pub exclusion_mask: bool,
    pub region_biomes: Vec<String>,
    /// The biome table (`meta.biomes`).
    pub biomes: Vec<crate::biome::BiomeSpec>,
    /// `meta.surface`: per-sample biome ids + roles present, rules applied, flow and erosion
    /// arrays present.
    pub classified: bool,
    pub rules: bool,
    pub flow: bool,
    pub erosion: bool,
    /// `meta.surface.flow_offset` (optional, false when missing): the flow offset array
    /// follows the erosion array (`pipeline::sculpted_flow`).
    pub flow_offset: bool,
    /// `meta.scatter` (format 4; a format-3 payload always has none), placements not yet read.
    pub scatter: crate::scatter::Scatter,
    /// Placements the body holds after the per-sample arrays.
    pub scatter_count: usize,
}

/// Reads values at JSON paths below `meta`, collecting every problem.
struct Reader<'a> {
    source: &'a str,
    d: Diagnostics,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Reader<'_> {
    fn push(&mut self, path: &str, message: impl Into<String>) {
        let at = if path.is_empty() {
            format!("{}: meta", self.source)
        } else {
            format!("{}: meta.{path}", self.source)
        };
        self.d.push(at, message.into());
    }

    fn get<'v>(&mut self, v: &'v Value, path: &str, key: &str) -> Option<&'v Value> {
        let at = if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        };
        match v {
            Value::Object(m) => match m.get(key) {
                Some(x) => Some(x),
                None => {
                    self.push(&at, "is missing; cook the terrain again");
                    None
                }
            },
            other => {
                self.push(path, format!("must be an object, got {}", kind_of(other)));
                None
            }
        }
    }

    /// A finite number within `lo..=hi`.
    fn number(&mut self, v: Option<&Value>, path: &str, lo: f64, hi: f64) -> Option<f64> {
        let v = v?;
        match v.as_f64() {
            Some(x) if x.is_finite() && (lo..=hi).contains(&x) => Some(x),
            Some(x) => {
                self.push(path, format!("must be {lo}..={hi}, got {x}"));
                None
            }
            None => {
                self.push(path, format!("must be a number, got {}", kind_of(v)));
                None
            }
        }
    }

    fn field(&mut self, v: &Value, path: &str, key: &str, lo: f64, hi: f64) -> f32 {
        let x = self.get(v, path, key);
        self.number(x, &join(path, key), lo, hi).unwrap_or(0.0) as f32
    }

    /// A whole number within `lo..=hi`.
    fn whole(&mut self, v: Option<&Value>, path: &str, lo: u64, hi: u64) -> Option<u64> {
        let v = v?;
        match v.as_u64() {
            Some(x) if (lo..=hi).contains(&x) => Some(x),
            _ => {
                self.push(
                    path,
                    format!("must be a whole number {lo}..={hi}, got {}", show(v)),
                );
                None
            }
        }
    }

    fn array<'v>(&mut self, v: Option<&'v Value>, path: &str) -> Option<&'v Vec<Value>> {
        let v = v?;
        let a = v.as_array();
        if a.is_none() {
            self.push(path, format!("must be an array, got {}", kind_of(v)));
        }
        a
    }

    fn numbers<const N: usize>(
        &mut self,
        v: Option<&Value>,
        path: &str,
        lo: f64,
        hi: f64,
    ) -> Option<[f32; N]> {
        let a = self.array(v, path)?;
        if a.len() != N {
            self.push(path, format!("must hold {N} numbers, got {}", a.len()));
            return None;
        }
        let mut out = [0.0f32; N];
        let mut ok = true;
        for (i, x) in a.iter().enumerate() {
            match self.number(Some(x), &format!("{path}[{i}]"), lo, hi) {
                Some(x) => out[i] = x as f32,
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn string(&mut self, v: Option<&Value>, path: &str) -> Option<String> {
        let v = v?;
        match v.as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                self.push(path, format!("must be a string, got {}", kind_of(v)));
                None
            }
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn show(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s,
    }
}

const COLOR: (f64, f64) = (0.0, 1.0);
const ANY: f64 = f32::MAX as f64;

fn read_body(r: &mut Reader, v: &Value, path: &str, samples: usize) -> Option<WaterBody> {
    let before = r.d.0.len();
    let id = r.get(v, path, "id");
    let id = r.string(id, &join(path, "id"));
    let kind_v = r.get(v, path, "kind");
    let kind = match r.string(kind_v, &join(path, "kind")).as_deref() {
        Some("ocean") => Some(WaterKind::Ocean),
        Some("river") => Some(WaterKind::River),
        Some("lake") => Some(WaterKind::Lake),
        Some(other) => {
            r.push(
                &join(path, "kind"),
                format!("must be \"lake\", \"ocean\" or \"river\", got \"{other}\""),
            );
            None
        }
        None => None,
    };
    let level = r.field(v, path, "level", -MAX_LEVEL as f64, MAX_LEVEL as f64);
    let flow_speed = r.field(v, path, "flow_speed", 0.0, ANY);
    let fd = r.get(v, path, "flow_direction");
    let flow_direction = r
        .numbers::<2>(fd, &join(path, "flow_direction"), -ANY, ANY)
        .unwrap_or_default();
    let ws = r.get(v, path, "wet_samples");
    let wet_samples = r
        .whole(ws, &join(path, "wet_samples"), 0, samples as u64)
        .unwrap_or(0) as u32;
    let rp_path = join(path, "river_path");
    let rp = r.get(v, path, "river_path");
    let mut river = Vec::new();
    match (kind, rp) {
        (_, None) => {}
        (Some(WaterKind::River), Some(p)) => {
            if let Some(points) = r.array(Some(p), &rp_path) {
                for (i, q) in points.iter().enumerate() {
                    let at = format!("{rp_path}[{i}]");
                    let max = MAX_LEVEL as f64;
                    if let Some(q) = r.numbers::<3>(Some(q), &at, -max, max) {
                        river.push(q);
                    }
                }
            }
        }
        (_, Some(Value::Null)) => {}
        (_, Some(other)) => r.push(
            &rp_path,
            format!("must be null for a lake or ocean, got {}", kind_of(other)),
        ),
    }
    let ap = join(path, "appearance");
    let a = r.get(v, path, "appearance");
    let a = a.unwrap_or(&Value::Null);
    let color = |r: &mut Reader, key: &str| {
        let x = r.get(a, &ap, key);
        r.numbers::<4>(x, &join(&ap, key), COLOR.0, COLOR.1)
            .unwrap_or_default()
    };
    let shallow_color = color(r, "shallow_color");
    let deep_color = color(r, "deep_color");
    let foam_color = color(r, "foam_color");
    let tiny = f32::MIN_POSITIVE as f64;
    let appearance = Appearance {
        shallow_color,
        deep_color,
        absorption_distance: r.field(a, &ap, "absorption_distance", tiny, ANY),
        roughness: r.field(a, &ap, "roughness", 0.0, 1.0),
        wave_amplitude: r.field(a, &ap, "wave_amplitude", 0.0, ANY),
        wave_length: r.field(a, &ap, "wave_length", tiny, ANY),
        wave_speed: r.field(a, &ap, "wave_speed", 0.0, ANY),
        normal_strength: r.field(a, &ap, "normal_strength", 0.0, ANY),
        foam_width: r.field(a, &ap, "foam_width", 0.0, ANY),
        foam_strength: r.field(a, &ap, "foam_strength", 0.0, 1.0),
        foam_color,
    };
    if r.d.0.len() != before {
        return None;
    }
    let kind = kind?;
    Some(WaterBody {
        id: id?,
        kind,
        level,
        footprint: match kind {
            WaterKind::River => Footprint::River {
                path: river,
                width: 0.0,
                follow_bed: None,
            },
            WaterKind::Ocean => Footprint::Ocean { boundary: None },
            // Painted water is never stored as a body (the parser above accepts no such kind).
            WaterKind::Lake | WaterKind::Painted => Footprint::Lake {
                center: [0.0, 0.0],
                radius: 0.0,
                boundary: None,
            },
        },
        flow_speed,
        flow_direction,
        appearance,
        wet_samples,
        warnings: Vec::new(),
    })
}

/// Reads and validates the metadata object; every problem is reported, located.
pub(crate) fn read(meta: &Value, source: &str) -> Result<Meta> {
    let mut r = Reader {
        source,
        d: Diagnostics::default(),
    };
    if !meta.is_object() {
        r.push("", format!("must be an object, got {}", kind_of(meta)));
        return Err(Error::Invalid(r.d.0));
    }
    let size = r.get(meta, "", "size");
    let size = r.numbers::<2>(size, "size", f64::MIN_POSITIVE, ANY);
    let cells = r.get(meta, "", "cells");
    let cells = r.array(cells, "cells").and_then(|a| {
        if a.len() != 2 {
            r.push("cells", format!("must hold 2 cell counts, got {}", a.len()));
            return None;
        }
        let max = MAX_CELLS_PER_AXIS as u64;
        let x = r.whole(Some(&a[0]), "cells[0]", 1, max);
        let z = r.whole(Some(&a[1]), "cells[1]", 1, max);
        Some([x? as u32, z? as u32])
    });
    let cc = r.get(meta, "", "chunk_cells");
    let chunk = r.whole(
        cc,
        "chunk_cells",
        *CHUNK_CELLS_RANGE.start() as u64,
        *CHUNK_CELLS_RANGE.end() as u64,
    );
    let grid = match (size, cells, chunk) {
        (Some(size), Some(cells), Some(chunk)) => match Grid::new(size, cells, chunk as u32) {
            Ok(g) => {
                let ok = g.spacing().iter().all(|s| s.is_normal())
                    && g.inv_spacing().iter().all(|s| s.is_finite());
                if !ok {
                    r.push(
                        "size",
                        format!(
                            "a degenerate grid: {:?} world units over {:?} cells",
                            size, cells
                        ),
                    );
                }
                ok.then_some(g)
            }
            Err(e) => {
                for d in e.diagnostics() {
                    r.push(&d.path, format!("corrupt grid: {}", d.message));
                }
                None
            }
        },
        _ => None,
    };
    // Without a grid, `wet_samples` is only checked for its type.
    let samples = grid.map_or(u32::MAX as usize, |g| g.sample_count());
    let db = r.get(meta, "", "default_biome");
    let default_biome = r.string(db, "default_biome");
    let bc = r.get(meta, "", "biome_color");
    let biome_color = r.numbers::<4>(bc, "biome_color", COLOR.0, COLOR.1);
    let water = r.get(meta, "", "water");
    let mut bodies = Vec::new();
    if let Some(list) = r.array(water, "water") {
        if list.len() > MAX_BODIES {
            r.push(
                "water",
                format!("at most {MAX_BODIES} water bodies, got {}", list.len()),
            );
        } else {
            for (i, b) in list.iter().enumerate() {
                if let Some(body) = read_body(&mut r, b, &format!("water[{i}]"), samples) {
                    bodies.push(body);
                }
            }
        }
    }
    let ex = r.get(meta, "", "exclusions");
    let exclusion_mask = match ex.map(|e| (e, e.get("mask"))) {
        Some((_, Some(Value::Bool(b)))) => Some(*b),
        Some((e, other)) => {
            if e.is_object() {
                r.push(
                    "exclusions.mask",
                    format!(
                        "must be true or false, got {}",
                        other.map_or("nothing", kind_of)
                    ),
                );
            } else {
                r.push(
                    "exclusions",
                    format!("must be an object, got {}", kind_of(e)),
                );
            }
            None
        }
        None => None,
    };
    let rg = r.get(meta, "", "regions");
    let mut region_biomes = Vec::new();
    if let Some(list) = r.array(rg, "regions") {
        if list.len() >= u16::MAX as usize {
            r.push(
                "regions",
                format!(
                    "at most {} painted biomes, got {}",
                    u16::MAX - 1,
                    list.len()
                ),
            );
        }
        for (i, name) in list.iter().enumerate() {
            if let Some(s) = r.string(Some(name), &format!("regions[{i}]")) {
                region_biomes.push(s);
            }
        }
    }
    let mut biomes = Vec::new();
    let bl = r.get(meta, "", "biomes");
    if let Some(list) = r.array(bl, "biomes") {
        if list.len() >= u16::MAX as usize {
            r.push(
                "biomes",
                format!("at most {} biomes, got {}", u16::MAX - 1, list.len()),
            );
        }
        for (i, b) in list.iter().enumerate() {
            let at = format!("biomes[{i}]");
            let name = r.get(b, &at, "name");
            let name = r.string(name, &join(&at, "name"));
            let c = r.get(b, &at, "color");
            let color = r.numbers::<4>(c, &join(&at, "color"), COLOR.0, COLOR.1);
            let ts = r.get(b, &at, "texture_scale");
            let texture_scale = r.number(
                ts,
                &join(&at, "texture_scale"),
                f32::MIN_POSITIVE as f64,
                f32::MAX as f64,
            );
            let material = match b.get("material") {
                None | Some(Value::Null) => Some(None),
                Some(Value::String(m)) if !m.is_empty() => Some(Some(m.clone())),
                Some(other) => {
                    r.push(
                        &join(&at, "material"),
                        format!("must be a non-empty string or null, got {}", kind_of(other)),
                    );
                    None
                }
            };
            let allow_snow = match r.get(b, &at, "allow_snow") {
                Some(Value::Bool(x)) => Some(*x),
                Some(other) => {
                    r.push(
                        &join(&at, "allow_snow"),
                        format!("must be true or false, got {}", kind_of(other)),
                    );
                    None
                }
                None => None,
            };
            if let (
                Some(name),
                Some(color),
                Some(texture_scale),
                Some(material),
                Some(allow_snow),
            ) = (name, color, texture_scale, material, allow_snow)
            {
                biomes.push(crate::biome::BiomeSpec {
                    name,
                    color,
                    material,
                    texture_scale: texture_scale as f32,
                    allow_snow,
                });
            }
        }
    }
    let sf = r.get(meta, "", "surface");
    let flag = |key: &str, r: &mut Reader| match sf.map(|v| v.get(key)) {
        Some(Some(Value::Bool(b))) => *b,
        Some(other) => {
            r.push(
                &join("surface", key),
                format!(
                    "must be true or false, got {}",
                    other.map_or("nothing", kind_of)
                ),
            );
            false
        }
        None => false,
    };
    let classified = flag("classified", &mut r);
    let rules = flag("rules", &mut r);
    let flow = flag("flow", &mut r);
    let erosion = flag("erosion", &mut r);
    let flow_offset = flag("flow_offset", &mut r);
    let sc = r.get(meta, "", "scatter");
    r.array(sc, "scatter");
    r.d.into_result()?;
    let (scatter, scatter_count) = super::payload_scatter::read_meta(sc, source)?;
    match (grid, default_biome, biome_color, exclusion_mask) {
        (Some(grid), Some(default_biome), Some(biome_color), Some(exclusion_mask)) => Ok(Meta {
            grid,
            default_biome,
            biome_color,
            bodies,
            exclusion_mask,
            region_biomes,
            biomes,
            classified,
            rules,
            flow,
            erosion,
            flow_offset,
            scatter,
            scatter_count,
        }),
        _ => Err(Error::invalid(source, "corrupt metadata")),
    }
}

/// Checks per-sample values the structure cannot: water surfaces finite and within
/// ±[`MAX_LEVEL`], exclusion weights 0–1.
pub(crate) fn check_samples(source: &str, surface: &[f32], exclusion: &[f32]) -> Result<()> {
    if let Some(i) = super::payload_arrays::first(surface, |s| s.is_nan() || s.abs() > MAX_LEVEL) {
        return Err(Error::invalid(
            format!("{source}: water_surface[{i}]"),
            format!(
                "must be finite and within ±{MAX_LEVEL}, got {}; the payload is corrupt, cook the terrain again",
                surface[i]
            ),
        ));
    }
    if let Some(i) = super::payload_arrays::first(exclusion, |m| !(0.0..=1.0).contains(m)) {
        return Err(Error::invalid(
            format!("{source}: exclusion[{i}]"),
            format!(
                "must be 0..=1, got {}; the payload is corrupt, cook the terrain again",
                exclusion[i]
            ),
        ));
    }
    Ok(())
}
