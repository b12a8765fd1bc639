//! Payload version 7's compact per-sample sections.
//!
//! - **Water arrays only with water**: the water owner (`u16`) and surface (`f32`) per sample
//!   follow the hole mask only when `meta.water_samples` is true — some water body exists or
//!   some sample is owned. A dry map (most large worlds) loses 6 bytes per sample: 100 MB of a
//!   4 km map.
//! - **Classes as codes**: a classified surface with at most 256 (biome, role) pairs — every
//!   classification's case, see [`crate::biome::SampleClasses`] — stores its pair table in
//!   `meta.class_pairs` (`[[biome id, role id], …]`, no pair twice) and one code byte per sample
//!   (an index into the table) instead of a `u16` biome id and a `u8` role id: 2 bytes per
//!   sample less, and the load reads the classes as they are kept in memory. With more pairs
//!   `meta.class_pairs` is `null` and the plain arrays follow as before.
//!
//! Versions 3–6 always carry both water arrays and the plain class arrays.

use crate::biome::sample_classes::Pair;
use crate::biome::{Role, SampleClasses};
use crate::error::{Error, Result};
use crate::pipeline::PreparedTerrain;
use serde_json::{Value, json};
use std::borrow::Cow;

/// The first payload version with the compact sections.
pub(crate) const SINCE_VERSION: u32 = 7;

/// What a payload's metadata announces about the compact sections.
pub(crate) struct Announced {
    /// The water owner and surface arrays follow the hole mask (always before version 7).
    pub water_samples: bool,
    /// The classes' pair table when the body holds one code per sample (version 7).
    pub class_pairs: Option<Vec<(u16, u8)>>,
}

/// True when `p`'s per-sample water arrays are written: a body exists or a sample is owned.
pub(crate) fn water_samples(p: &PreparedTerrain) -> bool {
    !p.water.bodies.is_empty() || p.water.owner.iter().any(|&o| o != 0)
}

/// The pair table and codes a version-7 payload writes for `classes`, or `None` when they are
/// stored as plain arrays. Pairs no sample uses any more (left by edits) are dropped and the
/// codes renumbered, so every written pair is one a sample has.
pub(crate) fn class_codes(classes: &SampleClasses) -> Option<(Vec<Pair>, Cow<'_, [u8]>)> {
    let (pairs, codes) = classes.packed()?;
    let mut used = [false; 256];
    for &c in codes {
        used[c as usize] = true;
    }
    if used[..pairs.len()].iter().all(|&u| u) {
        return Some((pairs.to_vec(), Cow::Borrowed(codes)));
    }
    let mut renumber = [0u8; 256];
    let mut kept = Vec::new();
    for (i, &p) in pairs.iter().enumerate() {
        if used[i] {
            renumber[i] = kept.len() as u8;
            kept.push(p);
        }
    }
    let codes = codes.iter().map(|&c| renumber[c as usize]).collect();
    Some((kept, Cow::Owned(codes)))
}

/// The metadata value of a pair table (`null` without one).
pub(crate) fn pairs_meta(pairs: Option<&[(u16, u8)]>) -> Value {
    match pairs {
        Some(p) => json!(
            p.iter()
                .map(|&(b, r)| [b as u32, r as u32])
                .collect::<Vec<_>>()
        ),
        None => Value::Null,
    }
}

/// Reads `meta.water_samples` and `meta.class_pairs` of a payload of `version`, whose biome
/// table holds `biomes` entries and which lists `bodies` water bodies.
pub(crate) fn read_meta(
    meta: &Value,
    version: u32,
    classified: bool,
    biomes: usize,
    bodies: usize,
    source: &str,
) -> Result<Announced> {
    if version < SINCE_VERSION {
        return Ok(Announced {
            water_samples: true,
            class_pairs: None,
        });
    }
    let at = |path: &str, msg: String| {
        Error::invalid(
            format!("{source}: meta.{path}"),
            format!("{msg}; the payload is corrupt, cook the terrain again"),
        )
    };
    let water_samples = match meta.get("water_samples") {
        Some(Value::Bool(b)) => *b,
        None => return Err(at("water_samples", "is missing".into())),
        Some(other) => {
            return Err(at(
                "water_samples",
                format!("must be true or false, got {other}"),
            ));
        }
    };
    if !water_samples && bodies > 0 {
        return Err(at(
            "water_samples",
            format!("is false but {bodies} water bodies are listed"),
        ));
    }
    let class_pairs = match meta.get("class_pairs") {
        None => return Err(at("class_pairs", "is missing".into())),
        Some(Value::Null) => None,
        Some(Value::Array(list)) if classified => Some(read_pairs(list, biomes, &at)?),
        Some(Value::Array(_)) => {
            return Err(at(
                "class_pairs",
                "lists pairs but the surface is not classified".into(),
            ));
        }
        Some(other) => {
            return Err(at(
                "class_pairs",
                format!("must be a list of [biome, role] pairs or null, got {other}"),
            ));
        }
    };
    Ok(Announced {
        water_samples,
        class_pairs,
    })
}

fn read_pairs(
    list: &[Value],
    biomes: usize,
    at: &dyn Fn(&str, String) -> Error,
) -> Result<Vec<(u16, u8)>> {
    if list.len() > crate::biome::sample_classes::MAX_PAIRS {
        return Err(at(
            "class_pairs",
            format!("at most 256 pairs, got {}", list.len()),
        ));
    }
    let mut pairs = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let pair = v.as_array().filter(|a| a.len() == 2);
        let ids = pair.map(|a| (a[0].as_u64(), a[1].as_u64()));
        let (biome, role) = match ids {
            Some((Some(b), Some(r))) => (b, r),
            _ => {
                return Err(at(
                    &format!("class_pairs[{i}]"),
                    format!("must be [biome id, role id], got {v}"),
                ));
            }
        };
        if biome >= biomes as u64 {
            return Err(at(
                &format!("class_pairs[{i}]"),
                format!("biome id {biome} does not exist ({biomes} biomes)"),
            ));
        }
        let role = u8::try_from(role)
            .ok()
            .filter(|&r| Role::from_id(r).is_some());
        let Some(role) = role else {
            return Err(at(
                &format!("class_pairs[{i}]"),
                "the role id is not one of the nine roles (0..=8)".into(),
            ));
        };
        let pair = (biome as u16, role);
        if pairs.contains(&pair) {
            return Err(at(
                &format!("class_pairs[{i}]"),
                format!("the pair {v} is listed twice"),
            ));
        }
        pairs.push(pair);
    }
    Ok(pairs)
}
