//! The painted layers section of a cooked payload (format 5, optional): the user channels and
//! surface paint weights a terrain was cooked with (`crate::edit::paint`).
//!
//! - `meta.paint`: `{user, weights, water?}` — whether the user channels follow, whether the
//!   surface weights and the classified roles follow, and whether painted water follows
//!   (`water`, optional, false when absent). Absent (payloads cooked before it was stored, or
//!   nothing painted) = unpainted.
//! - body, after the scatter source: the user channels (4 bytes per sample, channel
//!   interleaved) when `user`; then, when `weights`, the surface weights
//!   ([`WEIGHT_SLOTS`] bytes per sample, each sample summing to 255) and the classified role per
//!   sample (1 byte, 0–8: what the paint's generated slot stands for); then, when `water`, the
//!   painted water depth per sample (f32 metres, 0..=[`MAX_WATER_DEPTH`]; the cooked heights
//!   are the beds under it, `crate::edit::water`).

use crate::edit::paint::{PaintLayers, SURFACES, USER_CHANNELS, WEIGHT_SLOTS};
use crate::edit::water::MAX_WATER_DEPTH;
use crate::error::{Error, Result};
use crate::pipeline::ScatterSource;
use serde_json::{Value, json};

const CORRUPT: &str = "the payload is corrupt, cook the terrain again";

/// The `meta.paint` value of `s` with the painted water depths `water` (metres per sample,
/// empty when none), `None` when nothing is painted.
pub(crate) fn meta(s: &ScatterSource, water: &[f32]) -> Option<Value> {
    let user = !s.paint.user_bytes().is_empty();
    let weights = !s.paint.weight_bytes().is_empty() && !s.classified.is_empty();
    let wet = !water.is_empty();
    (user || weights || wet).then(|| {
        let mut v = json!({"user": user, "weights": weights});
        if let (true, Some(m)) = (wet, v.as_object_mut()) {
            m.insert("water".into(), true.into());
        }
        v
    })
}

/// Appends the layers [`meta`] announces.
pub(crate) fn write(s: &ScatterSource, water: &[f32], body: &mut Vec<u8>) {
    body.extend_from_slice(s.paint.user_bytes());
    if !s.paint.weight_bytes().is_empty() && !s.classified.is_empty() {
        body.extend_from_slice(s.paint.weight_bytes());
        body.extend_from_slice(&s.classified);
    }
    for d in water {
        body.extend_from_slice(&d.to_le_bytes());
    }
}

/// What `meta.paint` announces.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Announced {
    user: bool,
    weights: bool,
    water: bool,
}

impl Announced {
    /// The body bytes the layers take on a grid of `samples` samples.
    pub(crate) fn bytes(&self, samples: usize) -> Option<usize> {
        let per = usize::from(self.user) * USER_CHANNELS
            + usize::from(self.weights) * (WEIGHT_SLOTS + 1)
            + usize::from(self.water) * 4;
        per.checked_mul(samples)
    }
}

fn bad(source: &str, path: &str, msg: impl std::fmt::Display) -> Error {
    Error::invalid(format!("{source}: {path}"), format!("{msg}; {CORRUPT}"))
}

/// Reads `meta.paint` of a payload of `version`.
pub(crate) fn read_meta(meta: &Value, version: u32, source: &str) -> Result<Announced> {
    if version < super::payload_scatter_source::SINCE_VERSION {
        return Ok(Announced::default());
    }
    let Some(v) = meta.get("paint") else {
        return Ok(Announced::default());
    };
    let Some(o) = v.as_object() else {
        return Err(bad(source, "meta.paint", "must be an object"));
    };
    if let Some(k) = o
        .keys()
        .find(|k| !["user", "weights", "water"].contains(&k.as_str()))
    {
        return Err(bad(
            source,
            &format!("meta.paint.{k}"),
            "is not a known key",
        ));
    }
    let flag = |k: &str| {
        o.get(k)
            .and_then(Value::as_bool)
            .ok_or_else(|| bad(source, &format!("meta.paint.{k}"), "must be true or false"))
    };
    Ok(Announced {
        user: flag("user")?,
        weights: flag("weights")?,
        water: o.contains_key("water") && flag("water")?,
    })
}

/// Reads the layers `a` announces from `bytes` (exactly [`Announced::bytes`] long) into `out`;
/// returns the painted water depths (metres per sample, empty when none).
pub(crate) fn read(
    a: Announced,
    bytes: &[u8],
    samples: usize,
    source: &str,
    out: &mut ScatterSource,
) -> Result<Vec<f32>> {
    let (user, rest) =
        bytes.split_at((usize::from(a.user) * USER_CHANNELS * samples).min(bytes.len()));
    let (rest, water) =
        rest.split_at(rest.len() - (usize::from(a.water) * 4 * samples).min(rest.len()));
    let (weights, classified) = if a.weights {
        rest.split_at((WEIGHT_SLOTS * samples).min(rest.len()))
    } else {
        (&[][..], &[][..])
    };
    if water.len() != usize::from(a.water) * 4 * samples {
        return Err(bad(source, "paint.water", "the section is short"));
    }
    let depths: Vec<f32> = water
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if let Some(i) = depths
        .iter()
        .position(|d| !d.is_finite() || !(0.0..=MAX_WATER_DEPTH).contains(d))
    {
        return Err(bad(
            source,
            &format!("paint.water[{i}]"),
            format!("depth {} is not 0..={MAX_WATER_DEPTH} metres", depths[i]),
        ));
    }
    if classified.len() != if a.weights { samples } else { 0 } {
        return Err(bad(source, "paint", "the section is short"));
    }
    if let Some(i) = classified.iter().position(|&r| r as usize >= SURFACES) {
        return Err(bad(
            source,
            &format!("paint.classified[{i}]"),
            format!("role {} does not exist (0–8)", classified[i]),
        ));
    }
    out.paint = PaintLayers::from_bytes(samples, user.to_vec(), weights.to_vec())
        .map_err(|e| bad(source, "paint", e))?;
    out.classified = classified.to_vec();
    Ok(depths)
}
