//! The scatter source section of a cooked payload (format 5): what drawing the scatter reads
//! besides the placements ([`ScatterSource`]).
//!
//! - `meta.palette`: the palette document as authored (rule geometry references, categories,
//!   collision, foliage types), or `null`. It is read back with the palette parser, so a
//!   corrupt palette is refused with the palette's own located errors under `meta.palette`.
//! - `meta.foliage`: `{seed, density, protection}` — the scatter sub-seed, the ids of the
//!   foliage types with a painted density map (each a foliage type of the palette, sorted,
//!   unique) and whether a protection mask follows.
//! - body, after the placements: each listed type's density map (f32 × samples, 0–1), then
//!   the protection mask (f32 × samples, 0–1) when announced.
//!
//! Payloads of formats 3 and 4 have neither: they load with an empty source (no palette).

use crate::edit::foliage_density::FoliageMaps;
use crate::error::{Diagnostic, Error, Result};
use crate::pipeline::ScatterSource;
use crate::scatter::{Palette, Scatter};
use serde_json::{Value, json};
use std::sync::Arc;

/// The first payload format holding a scatter source.
pub(crate) const SINCE_VERSION: u32 = 5;

const CORRUPT: &str = "the payload is corrupt, cook the terrain again";

/// The `meta.palette` and `meta.foliage` values of `s`.
pub(crate) fn meta(s: &ScatterSource) -> (Value, Value) {
    let palette = s.palette.as_ref().map_or(Value::Null, |p| p.to_value());
    let density: Vec<&str> = s.foliage_density.types().collect();
    let foliage = json!({
        "seed": s.seed, "density": density, "protection": !s.protection.is_empty(),
    });
    (palette, foliage)
}

/// Appends the density maps (in `meta` order) and the protection mask of `s`.
pub(crate) fn write(s: &ScatterSource, body: &mut Vec<u8>) {
    for id in s.foliage_density.types() {
        for v in s.foliage_density.get(id).unwrap_or_default() {
            body.extend_from_slice(&v.to_le_bytes());
        }
    }
    for v in &s.protection {
        body.extend_from_slice(&v.to_le_bytes());
    }
}

/// What the metadata announces: the source without its arrays, the density map ids and
/// whether a protection mask follows.
pub(crate) struct Announced {
    source: ScatterSource,
    density: Vec<String>,
    protection: bool,
}

impl Announced {
    /// The body bytes the arrays take on a grid of `samples` samples.
    pub(crate) fn bytes(&self, samples: usize) -> Option<usize> {
        let maps = self.density.len() + usize::from(self.protection);
        maps.checked_mul(samples)?.checked_mul(4)
    }
}

fn bad(source: &str, path: &str, msg: impl std::fmt::Display) -> Error {
    Error::invalid(
        format!("{source}: meta.{path}"),
        format!("{msg}; {CORRUPT}"),
    )
}

/// Reads `meta.palette` and `meta.foliage` of a payload of `version`.
pub(crate) fn read_meta(
    meta: &Value,
    version: u32,
    samples: usize,
    source: &str,
) -> Result<Announced> {
    let mut out = Announced {
        source: ScatterSource {
            foliage_density: FoliageMaps::new(samples),
            ..Default::default()
        },
        density: Vec::new(),
        protection: false,
    };
    if version < SINCE_VERSION {
        return Ok(out);
    }
    out.source.palette = match meta.get("palette") {
        None => return Err(bad(source, "palette", "is missing")),
        Some(Value::Null) => None,
        Some(v) => {
            let at = format!("{source}: meta.palette");
            let p = Palette::parse(v, &at).map_err(|e| {
                Error::Invalid(
                    e.diagnostics()
                        .iter()
                        .map(|d| Diagnostic::new(&d.path, format!("{}; {CORRUPT}", d.message)))
                        .collect(),
                )
            })?;
            Some(Arc::new(p))
        }
    };
    let Some(f) = meta.get("foliage").and_then(Value::as_object) else {
        return Err(bad(source, "foliage", "must be an object"));
    };
    out.source.seed = f
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad(source, "foliage.seed", "must be a whole number"))?;
    out.protection = f
        .get("protection")
        .and_then(Value::as_bool)
        .ok_or_else(|| bad(source, "foliage.protection", "must be true or false"))?;
    let Some(ids) = f.get("density").and_then(Value::as_array) else {
        return Err(bad(
            source,
            "foliage.density",
            "must be an array of foliage type ids",
        ));
    };
    for (i, id) in ids.iter().enumerate() {
        let at = format!("foliage.density[{i}]");
        let Some(id) = id.as_str() else {
            return Err(bad(source, &at, "must be a foliage type id"));
        };
        let known = out
            .source
            .palette
            .as_ref()
            .is_some_and(|p| p.foliage_type(id).is_some());
        if !known {
            return Err(bad(
                source,
                &at,
                format!("names foliage type `{id}`, which the payload's palette does not define"),
            ));
        }
        if out.density.last().is_some_and(|last| last.as_str() >= id) {
            return Err(bad(source, &at, "the ids must be sorted and unique"));
        }
        out.density.push(id.to_string());
    }
    Ok(out)
}

/// Reads the arrays `a` announces from `bytes` (exactly [`Announced::bytes`] long), checking
/// every value is within 0–1, and every placement's rule against the palette.
pub(crate) fn read(
    a: Announced,
    scatter: &Scatter,
    bytes: &[u8],
    samples: usize,
    file: &str,
) -> Result<ScatterSource> {
    let Announced {
        source: mut out,
        density,
        protection,
    } = a;
    let mut arrays = bytes.chunks(samples.max(1) * 4);
    let mut next = |what: &str| -> Result<Vec<f32>> {
        let v: Vec<f32> = arrays
            .next()
            .unwrap_or_default()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if v.len() != samples {
            return Err(Error::invalid(
                format!("{file}: {what}"),
                format!(
                    "holds {} values, the grid has {samples} samples; {CORRUPT}",
                    v.len()
                ),
            ));
        }
        if let Some(i) = v.iter().position(|m| !(0.0..=1.0).contains(m)) {
            return Err(Error::invalid(
                format!("{file}: {what}[{i}]"),
                format!("must be 0..=1, got {}; {CORRUPT}", v[i]),
            ));
        }
        Ok(v)
    };
    for id in &density {
        let v = next(&format!("foliage_density[\"{id}\"]"))?;
        out.foliage_density.insert(id, v);
    }
    if protection {
        out.protection = next("protection")?;
    }
    if let Some(p) = &out.palette
        && let Some(rule) = scatter.rules.iter().find(|r| p.rule(r).is_none())
    {
        return Err(bad(
            file,
            "scatter[0].rules",
            format!("names rule `{rule}`, which the payload's palette does not define"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
#[path = "payload_scatter_source_tests.rs"]
mod tests;
