//! The scatter section of a cooked payload (format 4): `meta.scatter` holds at most one
//! entry `{palette, rules, count, truncated}`; the body ends with `count` placements of 30
//! bytes each: rule u16, lattice i u32, j u32, then x, y, z, yaw (degrees), scale as f32.
//! Decoding validates every placement (rule index, finite values inside the terrain, positive
//! scale) with a located error.

use crate::error::{Error, Result};
use crate::scatter::{Placement, Scatter};
use serde_json::{Value, json};

/// Bytes per placement.
pub(crate) const PLACEMENT_BYTES: usize = 30;

/// The `meta.scatter` value of `s`.
pub(crate) fn meta(s: &Scatter) -> Value {
    if s.rules.is_empty() && s.placements.is_empty() {
        return json!([]);
    }
    json!([{
        "palette": s.palette, "rules": s.rules, "count": s.placements.len(),
        "truncated": s.truncated,
    }])
}

/// Appends the placements of `s`.
pub(crate) fn write(s: &Scatter, body: &mut Vec<u8>) {
    body.reserve(s.placements.len() * PLACEMENT_BYTES);
    for p in &s.placements {
        body.extend_from_slice(&p.rule.to_le_bytes());
        body.extend_from_slice(&p.cell[0].to_le_bytes());
        body.extend_from_slice(&p.cell[1].to_le_bytes());
        for v in [p.position[0], p.position[1], p.position[2], p.yaw, p.scale] {
            body.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// What `meta.scatter` announces: the scatter without placements, and their count.
pub(crate) fn read_meta(v: Option<&Value>, source: &str) -> Result<(Scatter, usize)> {
    let bad = |path: &str, msg: &str| {
        Error::invalid(
            format!("{source}: meta.scatter{path}"),
            format!("{msg}; the payload is corrupt, cook the terrain again"),
        )
    };
    let Some(list) = v.and_then(Value::as_array) else {
        return Err(bad("", "must be an array"));
    };
    match list.as_slice() {
        [] => Ok((Scatter::default(), 0)),
        [e] => {
            let palette = e
                .get("palette")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("[0].palette", "must be a string"))?;
            let rules: Vec<String> = e
                .get("rules")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(|r| r.as_str().map(String::from)).collect())
                .ok_or_else(|| bad("[0].rules", "must be an array of rule ids"))?;
            let count = e
                .get("count")
                .and_then(Value::as_u64)
                .ok_or_else(|| bad("[0].count", "must be a whole number"))?;
            let truncated = e
                .get("truncated")
                .and_then(Value::as_u64)
                .ok_or_else(|| bad("[0].truncated", "must be a whole number"))?;
            if rules.len() > u16::MAX as usize {
                return Err(bad(
                    "[0].rules",
                    "holds more rules than a payload can index",
                ));
            }
            Ok((
                Scatter {
                    palette: palette.to_string(),
                    rules,
                    placements: Vec::new(),
                    stats: Vec::new(),
                    truncated: truncated as usize,
                },
                count as usize,
            ))
        }
        _ => Err(bad("", "holds more than one palette")),
    }
}

/// Reads `count` placements from `bytes` into `s`, checking each against the terrain `size`.
pub(crate) fn read(s: &mut Scatter, bytes: &[u8], size: [f32; 2], source: &str) -> Result<()> {
    let f = |b: &[u8], at: usize| f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let u = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    s.placements.reserve(bytes.len() / PLACEMENT_BYTES);
    for (k, b) in bytes.chunks_exact(PLACEMENT_BYTES).enumerate() {
        let p = Placement {
            rule: u16::from_le_bytes([b[0], b[1]]),
            cell: [u(b, 2), u(b, 6)],
            position: [f(b, 10), f(b, 14), f(b, 18)],
            yaw: f(b, 22),
            scale: f(b, 26),
        };
        let [x, y, z] = p.position;
        let problem = if p.rule as usize >= s.rules.len() {
            Some(format!(
                "rule {} does not exist ({} rules)",
                p.rule,
                s.rules.len()
            ))
        } else if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            Some("position must be finite".to_string())
        } else if !(0.0..=size[0]).contains(&x) || !(0.0..=size[1]).contains(&z) {
            Some(format!("position ({x}, {z}) lies outside the terrain"))
        } else if !(p.yaw.is_finite() && p.scale.is_finite() && p.scale > 0.0) {
            Some("yaw must be finite and scale positive".to_string())
        } else {
            None
        };
        if let Some(msg) = problem {
            return Err(Error::invalid(
                format!("{source}: scatter[{k}]"),
                format!("{msg}; the payload is corrupt, cook the terrain again"),
            ));
        }
        s.placements.push(p);
    }
    Ok(())
}

/// The base sites of `p` worth storing (format 5, optional `meta.scatter_base`): what
/// refiltering after a runtime edit starts from, when they differ from the shown placements.
pub(crate) fn base_sites(p: &crate::pipeline::PreparedTerrain) -> Option<&Scatter> {
    p.scatter_source
        .base_placements
        .as_deref()
        .filter(|b| b.rules == p.scatter.rules && b.placements != p.scatter.placements)
}

/// The `meta.scatter_base` value for `base`.
pub(crate) fn base_meta(base: &Scatter) -> Value {
    json!({ "count": base.placements.len() })
}

/// The base site count `meta.scatter_base` announces (`None` when absent: refiltering starts
/// from the shown placements).
pub(crate) fn read_base_meta(meta: &Value, source: &str) -> Result<Option<usize>> {
    let Some(v) = meta.get("scatter_base") else {
        return Ok(None);
    };
    v.get("count")
        .and_then(Value::as_u64)
        .filter(|_| v.as_object().is_some_and(|o| o.len() == 1))
        .map(|c| Some(c as usize))
        .ok_or_else(|| {
            Error::invalid(
                format!("{source}: meta.scatter_base"),
                "must be {\"count\": whole number}; the payload is corrupt, cook the terrain again",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::super::payload::{decode, encode, encode_as};
    use crate::grid::Grid;
    use crate::heightfield::Heightfield;
    use crate::hydrology::water::WaterSet;
    use crate::pipeline::PreparedTerrain;
    use crate::scatter::{Placement, Scatter};
    use std::sync::Arc;

    fn terrain(scatter: Scatter) -> PreparedTerrain {
        let g = Grid::new([32.0, 32.0], [16, 16], 8).unwrap();
        let mut p = PreparedTerrain::new(
            Heightfield::flat(g, 2.0).unwrap(),
            WaterSet::empty(g),
            "default".into(),
            [0.5; 4],
        );
        p.scatter = Arc::new(scatter);
        p
    }

    fn forest() -> Scatter {
        Scatter {
            palette: "Forest".into(),
            rules: vec!["pine".into(), "rock".into()],
            placements: (0..25u32)
                .map(|k| Placement {
                    rule: (k % 2) as u16,
                    cell: [k, 2 * k],
                    position: [k as f32 + 0.25, 2.0, 31.5 - k as f32],
                    yaw: k as f32 * 13.7,
                    scale: 0.8 + k as f32 * 0.01,
                })
                .collect(),
            stats: Vec::new(),
            truncated: 7,
        }
    }

    #[test]
    fn placements_round_trip_exactly() {
        let p = terrain(forest());
        let back = decode(&encode(&p), "t.bin").unwrap();
        assert_eq!(back.scatter.placements, p.scatter.placements);
        assert_eq!(
            (back.scatter.palette.as_str(), back.scatter.truncated),
            ("Forest", 7)
        );
        assert_eq!(back.scatter.rules, p.scatter.rules);
        assert!(
            decode(&encode(&terrain(Scatter::default())), "t.bin")
                .unwrap()
                .scatter
                .is_empty()
        );
    }

    #[test]
    fn version_3_payloads_still_load_and_corrupt_placements_are_located() {
        let mut v3 = encode_as(&terrain(Scatter::default()), 6);
        v3[8..12].copy_from_slice(&3u32.to_le_bytes());
        // Version 3 carries the FNV-1a checksum.
        let head = 14 + u16::from_le_bytes([v3[12], v3[13]]) as usize;
        let sum = crate::formats::payload::checksum(3, &v3[head + 16..]);
        v3[head + 8..head + 16].copy_from_slice(&sum.to_le_bytes());
        assert!(decode(&v3, "t.bin").unwrap().scatter.is_empty());
        let mut bad = forest();
        bad.placements[4].rule = 9;
        let e = decode(&encode(&terrain(bad)), "t.bin")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.bin: scatter[4]") && e.contains("rule 9 does not exist"),
            "{e}"
        );
        let mut bad = forest();
        bad.placements[2].position[0] = 40.0;
        let e = decode(&encode(&terrain(bad)), "t.bin")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("scatter[2]") && e.contains("outside the terrain"),
            "{e}"
        );
        let mut v3 = encode_as(&terrain(forest()), 6);
        v3[8..12].copy_from_slice(&3u32.to_le_bytes());
        let head = 14 + u16::from_le_bytes([v3[12], v3[13]]) as usize;
        let sum = crate::formats::payload::checksum(3, &v3[head + 16..]);
        v3[head + 8..head + 16].copy_from_slice(&sum.to_le_bytes());
        let e = decode(&v3, "t.bin").unwrap_err().to_string();
        assert!(e.contains("version-3 payload cannot hold scatter"), "{e}");
    }
}
