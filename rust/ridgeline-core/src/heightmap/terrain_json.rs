//! The terrain JSON interchange format (reference document 002): a heightmap on a regular
//! grid with base64 heights, up to four texture layers, optional splat weights and holes.
//!
//! Vertex (i, j) sits at `origin + (i * cell_size, heights[j * nx + i], j * cell_size)`.
//! Reading keeps the splat and hole bytes exactly as stored, so writing what was read gives the
//! same data back; splat weights are normalised when asked for ([`TerrainDocument::splat_weights`]).

use crate::error::{Diagnostics, Error, Result};
use crate::grid::{Grid, HoleMask, MAX_CELLS_PER_AXIS};
use crate::heightfield::Heightfield;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde::{Deserialize, Serialize};

/// Most texture layers a terrain may have.
pub const MAX_LAYERS: usize = 4;
/// Default chunk size in cells.
pub const DEFAULT_CHUNK_CELLS: u32 = 32;
/// Most `layers` entries read before a document is refused outright (more than
/// [`MAX_LAYERS`] is refused either way, with the count, up to this many): a file of millions of
/// entries never becomes millions of layers in memory.
const LAYERS_READ_LIMIT: usize = 64;

/// Reads `layers`, refusing the document at the first entry past [`LAYERS_READ_LIMIT`].
fn bounded_layers<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<TerrainLayer>, D::Error> {
    struct Layers;
    impl<'de> serde::de::Visitor<'de> for Layers {
        type Value = Vec<TerrainLayer>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "an array of at most {MAX_LAYERS} texture layers")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(layer) = seq.next_element::<TerrainLayer>()? {
                if out.len() == LAYERS_READ_LIMIT {
                    return Err(serde::de::Error::custom(format!(
                        "layers: at most {MAX_LAYERS} layers, got more than {LAYERS_READ_LIMIT}"
                    )));
                }
                out.push(layer);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Layers)
}

/// One texture layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainLayer {
    /// Material painted by this layer.
    pub material: String,
    /// Map units per texture repeat (default 256).
    #[serde(default = "default_tile")]
    pub tile: f64,
    /// 0..1: how strongly the repeat is broken up (default 0).
    #[serde(default)]
    pub detile: f64,
    /// 0..1: how crisp the de-tiled result stays (default 0.5).
    #[serde(default = "default_sharpen")]
    pub detile_sharpen: f64,
}

fn default_tile() -> f64 {
    256.0
}
fn default_sharpen() -> f64 {
    0.5
}
fn default_chunk() -> u32 {
    DEFAULT_CHUNK_CELLS
}

/// The document exactly as stored (base64 still encoded).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    origin: [f64; 3],
    resolution: [u64; 2],
    cell_size: f64,
    heights: String,
    #[serde(deserialize_with = "bounded_layers")]
    layers: Vec<TerrainLayer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    splat: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    holes: Option<String>,
    #[serde(default = "default_chunk")]
    chunk_cells: u32,
}

/// A decoded terrain document.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainDocument {
    /// World position of the first vertex.
    pub origin: [f64; 3],
    /// Vertex counts along X and Z.
    pub resolution: [usize; 2],
    /// Map units between neighbouring vertices.
    pub cell_size: f64,
    /// One height per vertex, row-major with Z outer.
    pub heights: Vec<f32>,
    /// Up to four texture layers.
    pub layers: Vec<TerrainLayer>,
    /// Four weight bytes per vertex, as stored.
    pub splat: Option<Vec<u8>>,
    /// One byte per cell, as stored; non-zero cuts the cell out.
    pub holes: Option<Vec<u8>>,
    /// Cells per chunk side.
    pub chunk_cells: u32,
}

impl TerrainDocument {
    /// Parses and validates a document. `path` names the source in errors; every problem found
    /// is reported.
    pub fn parse(text: &str, path: &str) -> Result<Self> {
        // Duplicate keys are refused first (serde would keep one silently in nested maps).
        crate::doc::strict_json::check(text, path)?;
        let stored: Stored = serde_json::from_str(text).map_err(|e| {
            Error::invalid(format!("{path}:{}:{}", e.line(), e.column()), e.to_string())
        })?;
        let mut d = Diagnostics::default();
        let max = MAX_CELLS_PER_AXIS as u64 + 1;
        let [nx, nz] = stored.resolution;
        let dims_ok = (2..=max).contains(&nx) && (2..=max).contains(&nz);
        if !dims_ok {
            d.push(
                "resolution",
                format!("each axis needs 2..={max} vertices, got [{nx}, {nz}]"),
            );
        }
        if !stored.cell_size.is_finite() || stored.cell_size <= 0.0 {
            d.push(
                "cell_size",
                format!("must be a finite number > 0, got {}", stored.cell_size),
            );
        }
        for (i, v) in stored.origin.iter().enumerate() {
            if !v.is_finite() {
                d.push(format!("origin[{i}]"), format!("must be finite, got {v}"));
            }
        }
        if !crate::grid::CHUNK_CELLS_RANGE.contains(&stored.chunk_cells) {
            d.push(
                "chunk_cells",
                format!(
                    "must be {}..={}, got {}",
                    crate::grid::CHUNK_CELLS_RANGE.start(),
                    crate::grid::CHUNK_CELLS_RANGE.end(),
                    stored.chunk_cells
                ),
            );
        }
        if stored.layers.len() > MAX_LAYERS {
            d.push(
                "layers",
                format!("at most {MAX_LAYERS} layers, got {}", stored.layers.len()),
            );
        }
        for (i, layer) in stored.layers.iter().enumerate() {
            if layer.material.trim().is_empty() {
                d.push(format!("layers[{i}].material"), "must name a material");
            }
            if !layer.tile.is_finite() || layer.tile <= 0.0 {
                d.push(
                    format!("layers[{i}].tile"),
                    format!("must be a finite number > 0, got {}", layer.tile),
                );
            }
            for (name, v) in [
                ("detile", layer.detile),
                ("detile_sharpen", layer.detile_sharpen),
            ] {
                if !(0.0..=1.0).contains(&v) {
                    d.push(
                        format!("layers[{i}].{name}"),
                        format!("must be 0..=1, got {v}"),
                    );
                }
            }
        }
        let (nx, nz) = (nx as usize, nz as usize);
        let mut heights = Vec::new();
        let mut splat = None;
        let mut holes = None;
        if dims_ok {
            if let Some(bytes) = decode(&stored.heights, "heights", nx * nz * 4, &mut d) {
                {
                    heights = bytes
                        .chunks_exact(4)
                        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                        .collect();
                    if let Some(i) = heights
                        .iter()
                        .position(|&h: &f32| !crate::heightfield::height_in_range(h))
                    {
                        d.push(
                            format!("heights[{i}]"),
                            crate::heightfield::height_problem(heights[i]).unwrap_or_default(),
                        );
                    }
                }
            }
            if let Some(s) = &stored.splat {
                splat = decode(s, "splat", nx * nz * 4, &mut d);
            }
            if let Some(h) = &stored.holes {
                holes = decode(h, "holes", (nx - 1) * (nz - 1), &mut d);
            }
        }
        d.into_result().map_err(|e| prefix(e, path))?;
        Ok(Self {
            origin: stored.origin,
            resolution: [nx, nz],
            cell_size: stored.cell_size,
            heights,
            layers: stored.layers,
            splat,
            holes,
            chunk_cells: stored.chunk_cells,
        })
    }

    /// Serialises the document (pretty JSON; `chunk_cells` always written).
    pub fn to_json(&self) -> String {
        let stored = Stored {
            origin: self.origin,
            resolution: [self.resolution[0] as u64, self.resolution[1] as u64],
            cell_size: self.cell_size,
            heights: B64.encode(
                self.heights
                    .iter()
                    .flat_map(|h| h.to_le_bytes())
                    .collect::<Vec<_>>(),
            ),
            layers: self.layers.clone(),
            splat: self.splat.as_ref().map(|s| B64.encode(s)),
            holes: self.holes.as_ref().map(|h| B64.encode(h)),
            chunk_cells: self.chunk_cells,
        };
        serde_json::to_string_pretty(&stored).unwrap_or_default()
    }

    /// Normalised weights of the four layers at vertex `i`; an all-zero entry means layer 0.
    pub fn splat_weights(&self, i: usize) -> [f32; 4] {
        let Some(s) = &self.splat else {
            return [1.0, 0.0, 0.0, 0.0];
        };
        let b = &s[i * 4..i * 4 + 4];
        let sum: u32 = b.iter().map(|&v| v as u32).sum();
        if sum == 0 {
            return [1.0, 0.0, 0.0, 0.0];
        }
        [0, 1, 2, 3].map(|k| b[k] as f32 / sum as f32)
    }

    /// The heightfield this document describes (terrain-local: the first vertex at 0, heights
    /// as stored; place the terrain at `origin`).
    pub fn to_heightfield(&self) -> Result<Heightfield> {
        let [nx, nz] = self.resolution;
        let cells = [(nx - 1) as u32, (nz - 1) as u32];
        let size = [
            (cells[0] as f64 * self.cell_size) as f32,
            (cells[1] as f64 * self.cell_size) as f32,
        ];
        let grid = Grid::new(size, cells, self.chunk_cells)?;
        let holes = self.holes.as_ref().map(|bytes| {
            let mut mask = HoleMask::new(nx - 1, nz - 1);
            for (i, &b) in bytes.iter().enumerate() {
                if b != 0 {
                    mask.set(i % (nx - 1), i / (nx - 1), true);
                }
            }
            mask
        });
        Heightfield::new(grid, self.heights.clone(), holes)
    }

    /// A document for a heightfield (square cells required), with the given origin and layers.
    pub fn from_heightfield(
        field: &Heightfield,
        origin: [f64; 3],
        layers: Vec<TerrainLayer>,
    ) -> Result<Self> {
        let grid = field.grid();
        let [dx, dz] = grid.spacing();
        if (dx - dz).abs() > 1e-6 * dx.max(dz) {
            return Err(Error::invalid(
                "cell_size",
                format!("the format needs square cells, this terrain has {dx} × {dz}"),
            ));
        }
        if layers.len() > MAX_LAYERS {
            return Err(Error::invalid(
                "layers",
                format!("at most {MAX_LAYERS} layers, got {}", layers.len()),
            ));
        }
        let [cx, cz] = grid.cells();
        let holes = (field.holes().count() > 0).then(|| {
            let mut v = Vec::with_capacity((cx * cz) as usize);
            for z in 0..cz as usize {
                for x in 0..cx as usize {
                    v.push(field.holes().is_hole(x, z) as u8);
                }
            }
            v
        });
        Ok(Self {
            origin,
            resolution: grid.samples(),
            cell_size: dx as f64,
            heights: field.heights().to_vec(),
            layers,
            splat: None,
            holes,
            chunk_cells: grid.chunk_cells(),
        })
    }
}

fn prefix(e: Error, path: &str) -> Error {
    match e {
        Error::Invalid(ds) => Error::Invalid(
            ds.into_iter()
                .map(|mut d| {
                    d.path = format!("{path}: {}", d.path);
                    d
                })
                .collect(),
        ),
        other => other,
    }
}

fn decode(text: &str, field: &str, expected: usize, d: &mut Diagnostics) -> Option<Vec<u8>> {
    match B64.decode(text.trim()) {
        Ok(bytes) if bytes.len() == expected => Some(bytes),
        Ok(bytes) => {
            d.push(
                field,
                format!("decodes to {} bytes, expected {expected}", bytes.len()),
            );
            None
        }
        Err(e) => {
            d.push(field, format!("is not valid base64 ({e})"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_doc() -> TerrainDocument {
        let (nx, nz) = (5, 4);
        TerrainDocument {
            origin: [10.5, -2.0, 0.1],
            resolution: [nx, nz],
            cell_size: 2.0,
            heights: (0..nx * nz).map(|i| (i as f32 * 0.7).cos() * 3.0).collect(),
            layers: vec![
                TerrainLayer {
                    material: "res://grass.tres".into(),
                    tile: 256.0,
                    detile: 0.0,
                    detile_sharpen: 0.5,
                },
                TerrainLayer {
                    material: "res://rock.tres".into(),
                    tile: 64.0,
                    detile: 0.3,
                    detile_sharpen: 0.9,
                },
            ],
            splat: Some((0..nx * nz * 4).map(|i| (i * 37 % 256) as u8).collect()),
            holes: Some(
                (0..(nx - 1) * (nz - 1))
                    .map(|i| (i % 5 == 0) as u8 * 3)
                    .collect(),
            ),
            chunk_cells: 32,
        }
    }

    #[test]
    fn exact_round_trip() {
        let doc = sample_doc();
        let text = doc.to_json();
        let back = TerrainDocument::parse(&text, "t.json").unwrap();
        assert_eq!(back, doc);
        assert_eq!(back.to_json(), text);
        assert!(text.contains("\"chunk_cells\": 32"));
    }

    #[test]
    fn defaults_and_splat_normalisation() {
        let h = B64.encode([0u8; 16]);
        let splat = B64.encode([0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 9, 1, 1, 1, 1]);
        let text = format!(
            r#"{{"origin":[0,0,0],"resolution":[2,2],"cell_size":1,"heights":"{h}",
               "layers":[{{"material":"m"}}],"splat":"{splat}"}}"#
        );
        let doc = TerrainDocument::parse(&text, "d.json").unwrap();
        assert_eq!(doc.chunk_cells, 32);
        assert_eq!(doc.layers[0].tile, 256.0);
        assert_eq!(doc.layers[0].detile, 0.0);
        assert_eq!(doc.layers[0].detile_sharpen, 0.5);
        assert_eq!(doc.splat_weights(0), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(doc.splat_weights(1), [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(doc.splat_weights(2), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(doc.splat_weights(3), [0.25; 4]);
    }

    #[test]
    fn heightfield_conversion_keeps_holes_and_heights() {
        let doc = sample_doc();
        let f = doc.to_heightfield().unwrap();
        assert_eq!(f.grid().cells(), [4, 3]);
        assert_eq!(f.grid().size(), [8.0, 6.0]);
        assert_eq!(f.heights(), &doc.heights[..]);
        assert!(f.holes().is_hole(0, 0) && !f.holes().is_hole(1, 0));
        let back = TerrainDocument::from_heightfield(&f, doc.origin, doc.layers.clone()).unwrap();
        assert_eq!(back.heights, doc.heights);
        assert_eq!(
            back.holes
                .unwrap()
                .iter()
                .map(|&b| b != 0)
                .collect::<Vec<_>>(),
            doc.holes
                .unwrap()
                .iter()
                .map(|&b| b != 0)
                .collect::<Vec<_>>()
        );
    }

    fn errors_of(text: &str) -> Vec<String> {
        TerrainDocument::parse(text, "bad.json")
            .unwrap_err()
            .diagnostics()
            .iter()
            .map(|d| d.to_string())
            .collect()
    }

    #[test]
    fn a_document_with_thousands_of_layers_is_refused_while_reading() {
        let h4 = B64.encode([0u8; 16]);
        let layers = vec![r#"{"material":"a"}"#; 10_000].join(",");
        let errs = errors_of(&format!(
            r#"{{"origin":[0,0,0],"resolution":[2,2],"cell_size":1,"heights":"{h4}","layers":[{layers}]}}"#
        ));
        assert!(
            errs.join("\n")
                .contains("layers: at most 4 layers, got more than 64"),
            "{errs:?}"
        );
    }

    #[test]
    fn malformed_documents_give_located_errors() {
        let h4 = B64.encode([0u8; 16]);
        // Several problems at once are all reported.
        let errs = errors_of(&format!(
            r#"{{"origin":[0,0,0],"resolution":[2,2],"cell_size":-1,"heights":"{h4}",
               "layers":[{{"material":"a"}},{{"material":"b"}},{{"material":"c"}},{{"material":"d"}},{{"material":"e","detile":2}}],
               "holes":"AAAA"}}"#
        ));
        let joined = errs.join("\n");
        assert!(
            joined.contains("bad.json: cell_size: must be a finite number > 0"),
            "{joined}"
        );
        assert!(
            joined.contains("bad.json: layers: at most 4 layers, got 5"),
            "{joined}"
        );
        assert!(
            joined.contains("bad.json: layers[4].detile: must be 0..=1, got 2"),
            "{joined}"
        );
        assert!(
            joined.contains("bad.json: holes: decodes to 3 bytes, expected 1"),
            "{joined}"
        );
        // Bad base64, wrong lengths, NaN heights, resolution < 2, huge sizes, syntax errors.
        let nan = B64.encode([f32::NAN.to_le_bytes(), [0; 4], [0; 4], [0; 4]].concat());
        for (text, needle) in [
            (
                r#"{"origin":[0,0,0],"resolution":[2,2],"cell_size":1,"heights":"!!","layers":[]}"#
                    .to_string(),
                "heights: is not valid base64",
            ),
            (
                format!(
                    r#"{{"origin":[0,0,0],"resolution":[3,2],"cell_size":1,"heights":"{h4}","layers":[]}}"#
                ),
                "heights: decodes to 16 bytes, expected 24",
            ),
            (
                format!(
                    r#"{{"origin":[0,0,0],"resolution":[2,2],"cell_size":1,"heights":"{nan}","layers":[]}}"#
                ),
                "heights[0]: height must be finite",
            ),
            (
                format!(
                    r#"{{"origin":[0,0,0],"resolution":[1,2],"cell_size":1,"heights":"{h4}","layers":[]}}"#
                ),
                "resolution: each axis needs 2..=8193",
            ),
            (
                format!(
                    r#"{{"origin":[0,0,0],"resolution":[100000,100000],"cell_size":1,"heights":"{h4}","layers":[]}}"#
                ),
                "resolution: each axis needs",
            ),
            (
                r#"{"origin":[0,0,0],"resolution":[2,2],"#.to_string(),
                "bad.json:1:",
            ),
            (
                format!(
                    r#"{{"origin":[0,0,0],"resolution":[2,2],"cell_size":1,"heights":"{h4}","layers":[],"extra":1}}"#
                ),
                "unknown field `extra`",
            ),
        ] {
            let joined = errors_of(&text).join("\n");
            assert!(joined.contains(needle), "expected `{needle}` in `{joined}`");
        }
    }

    #[test]
    fn repeated_keys_are_refused_with_their_location() {
        let h = B64.encode([0u8; 16]);
        let text = format!(
            "{{\"origin\":[0,0,0],\"resolution\":[2,2],\"cell_size\":1,\"heights\":\"{h}\",\n\"layers\":[{{\"material\":\"m\",\"tile\":2,\"tile\":3}}]}}"
        );
        let joined = errors_of(&text).join("\n");
        assert!(
            joined.starts_with("bad.json:2:")
                && joined.contains("duplicate key \"tile\" in `layers[0]`"),
            "{joined}"
        );
    }
}
