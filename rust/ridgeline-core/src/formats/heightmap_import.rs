//! Importing a heightmap as a terrain asset: the asset's graph reads the file (a Heightmap node
//! straight into the output), sized from the file or the caller, with the path stored relative to
//! the asset. The holes of a seed-002 terrain JSON become one `hole` stroke (a square stamp of
//! half a source cell on each hole cell's centre), so they are edited and undone like painted
//! holes; its texture layers become biomes and its splat painted regions
//! ([`super::splat_regions`]). Shared by `ridgeline import` and the editor's **Import heightmap…**.
//!
//! [`plan`] decodes the whole file (a corrupt, interlaced or oversized file is an error naming
//! it) and validates the asset it builds; it writes nothing. Callers write
//! [`ImportPlan::document`] atomically and may generate it to check the height limits.

use crate::fsio::{self, FileKind};
use crate::heightmap::{png16, raw, terrain_json::TerrainDocument};
use crate::recipe::Document;
use serde_json::{Map, Value, json};
use std::path::{Component, Path, PathBuf};

/// The end of the error a raw file that is not square gives without [`ImportOptions::raw_size`]:
/// front ends recognise it and ask for the width and depth (`--raw-size`, the dock's dialog).
pub const RAW_SIZE_NEEDED: &str = "give its width and depth";

/// What the caller chose (every field optional: the file's own facts fill the rest).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// World size along X and Z (default: the file's extent, else one unit per pixel).
    pub size: Option<[f64; 2]>,
    /// Heights of the smallest and largest integer sample (PNG, R16). Default: the range a
    /// Ridgeline-written PNG embeds, else 0..100.
    pub height_range: Option<[f64; 2]>,
    /// Raw files: samples along X and Z (default: a square file's side).
    pub raw_size: Option<[usize; 2]>,
}

/// A validated import, not yet written.
#[derive(Clone, Debug)]
pub struct ImportPlan {
    /// The asset (canonical JSON through [`Document::to_canonical_json`]).
    pub document: Document,
    /// The Heightmap node's `file`, relative to the asset's folder.
    pub reference: String,
    /// The format, as people name it ("PNG", "R16", "R32", "terrain JSON").
    pub format: &'static str,
    /// Samples along X and Z.
    pub samples: [usize; 2],
    /// World size along X and Z.
    pub size: [f64; 2],
    /// The height mapping used for integer samples (`None` for float formats).
    pub height_range: Option<[f64; 2]>,
    /// Choices the caller may want to tell the user about (defaults taken, holes imported).
    pub notes: Vec<String>,
}

/// Image facts the asset is built from.
struct Facts {
    format: &'static str,
    samples: [usize; 2],
    /// (min, max) for integer formats.
    range: Option<[f64; 2]>,
    /// World size implied by the file (terrain JSON), else 1 unit per pixel.
    size: [f64; 2],
    chunk_cells: Option<u32>,
    /// Hole cells (terrain JSON): their centres in the file's local units, and its cell size.
    holes: Vec<[f64; 2]>,
    cell_size: f64,
    /// A terrain JSON with texture layers (its heights dropped): imported as painted regions.
    layered: Option<TerrainDocument>,
}

/// Plans importing `file` as the asset `asset_path` (`<name>.terrain.json`, whose folder must
/// exist). Errors name the file or the asset.
pub fn plan(file: &Path, asset_path: &Path, opts: &ImportOptions) -> Result<ImportPlan, String> {
    let out_name = asset_path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let Some(stem) = out_name
        .strip_suffix(".terrain.json")
        .filter(|s| !s.is_empty())
    else {
        return Err(format!(
            "{}: the asset must be named <name>.terrain.json",
            asset_path.display()
        ));
    };
    let shown = file.display().to_string();
    let format = crate::nodes::heightmap_format_of(&shown)
        .map(|f| f.name())
        .ok_or_else(|| {
            format!(
                "{shown}: cannot tell the format from the extension (.png, .r16, .raw, .r32, .json)"
            )
        })?;
    for (what, v) in [("size", opts.size), ("height range", opts.height_range)] {
        if let Some(v) = v
            && !v.iter().all(|x| x.is_finite())
        {
            return Err(format!("{shown}: the {what} must be finite, got {v:?}"));
        }
    }
    if let Some([x, z]) = opts.size
        && (x <= 0.0 || z <= 0.0)
    {
        return Err(format!("{shown}: the size must be positive, got {x} × {z}"));
    }
    let kind = if format == "terrain_json" {
        FileKind::TerrainJson
    } else {
        FileKind::Heightmap
    };
    let bytes = fsio::read_bounded(file, kind).map_err(|e| e.to_string())?;
    let mut notes = Vec::new();
    let facts = facts(format, &bytes, &shown, opts, &mut notes)?;
    let [w, d] = facts.samples;
    if w < 2 || d < 2 {
        return Err(format!(
            "{shown}: {w} × {d} samples; a terrain needs at least 2 × 2"
        ));
    }
    let size = opts.size.unwrap_or(facts.size);
    let out_dir = match asset_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let reference = relative_reference(file, &out_dir)?;
    let mut params = Map::new();
    params.insert("file".into(), Value::from(reference.clone()));
    if let Some([lo, hi]) = facts.range {
        params.insert("min".into(), json!(lo));
        params.insert("max".into(), json!(hi));
    }
    if matches!(format, "r16" | "r32") && opts.raw_size.is_some() {
        params.insert("raw_width".into(), json!(w));
        params.insert("raw_depth".into(), json!(d));
    }
    let mut recipe = json!({
        "size": size,
        "resolution": [w - 1, d - 1],
        "seed": 0,
        "graph": {
            "format_version": 1,
            "output": "output",
            "nodes": [
                {"id": "heightmap", "type": "heightmap", "position": [0, 0], "params": params},
                {"id": "output", "type": "terrain_output", "position": [300, 0],
                 "inputs": {"heightfield": "heightmap"}},
            ],
        },
    });
    if let Some(c) = facts.chunk_cells {
        recipe["chunk_cells"] = json!(c);
    }
    // Scaled with the terrain when the size differs from the file's own extent.
    let [sx, sz] = [size[0] / facts.size[0], size[1] / facts.size[1]];
    if !facts.holes.is_empty() {
        let points: Vec<Value> = facts
            .holes
            .iter()
            .map(|[x, z]| json!([x * sx, z * sz]))
            .collect();
        let radius = 0.5 * facts.cell_size * sx.max(sz);
        recipe["edits"] = json!([{"type": "hole", "mask": "square", "falloff": 1,
            "radius": radius, "points": points}]);
        notes.push(format!(
            "{} hole cells imported as a hole stroke (recipe.edits[0])",
            facts.holes.len()
        ));
    }
    if let Some(doc) = &facts.layered {
        let cell = [facts.cell_size * sx, facts.cell_size * sz];
        if let Some(r) = super::splat_regions::splat_regions(doc, cell) {
            let painted: usize = r.counts.iter().skip(1).sum();
            notes.push(format!(
                "{} texture layers imported as biomes ({}); {painted} vertices painted as regions in {} strokes (recipe.regions), the rest is the default biome `{}`",
                r.counts.len(),
                r.biomes.keys().cloned().collect::<Vec<_>>().join(", "),
                r.strokes.len(),
                r.default_biome
            ));
            recipe["biomes"] = Value::Object(r.biomes);
            recipe["default_biome"] = Value::from(r.default_biome);
            if !r.strokes.is_empty() {
                recipe["regions"] = Value::Array(r.strokes);
            }
        }
    }
    let asset = json!({
        "format_version": 1,
        "id": format!("asset://terrain/{stem}"),
        "recipe": recipe,
    });
    let text = serde_json::to_string(&asset).map_err(|e| e.to_string())?;
    let document =
        Document::parse(&text, &asset_path.display().to_string()).map_err(|e| e.to_string())?;
    Ok(ImportPlan {
        document,
        reference,
        format: facts.format,
        samples: facts.samples,
        size,
        height_range: facts.range,
        notes,
    })
}

fn facts(
    format: &'static str,
    bytes: &[u8],
    shown: &str,
    a: &ImportOptions,
    notes: &mut Vec<String>,
) -> Result<Facts, String> {
    let pixels = |[w, d]: [usize; 2]| [w.saturating_sub(1) as f64, d.saturating_sub(1) as f64];
    let mut integer_range = |embedded: Option<(f32, f32)>| -> [f64; 2] {
        if let Some(r) = a.height_range {
            return r;
        }
        if let Some((lo, hi)) = embedded {
            notes.push(format!(
                "using the height range the file embeds: {lo}..{hi}"
            ));
            return [lo as f64, hi as f64];
        }
        notes.push(
            "no height range given and none embedded; mapping samples to 0..100 m (set the height range)"
                .into(),
        );
        [0.0, 100.0]
    };
    let float_only = || -> Result<(), String> {
        if a.height_range.is_some() {
            return Err(format!(
                "{shown}: a height range applies to PNG and R16 files; {format} stores heights (use the node's scale and offset to change them)"
            ));
        }
        Ok(())
    };
    match format {
        "png" => {
            let img = png16::read(bytes, 0.0, 1.0, shown).map_err(|e| e.to_string())?;
            let samples = [img.width, img.depth];
            Ok(Facts {
                format: "PNG",
                samples,
                range: Some(integer_range(png16::embedded_range(bytes))),
                size: pixels(samples),
                chunk_cells: None,
                holes: Vec::new(),
                cell_size: 1.0,
                layered: None,
            })
        }
        "r16" | "r32" => {
            let per = if format == "r16" { 2 } else { 4 };
            let samples = match a.raw_size {
                Some([w, d]) => {
                    if w.checked_mul(d).and_then(|n| n.checked_mul(per)) != Some(bytes.len()) {
                        return Err(format!(
                            "{shown}: {} bytes does not hold {w} × {d} {}-bit samples",
                            bytes.len(),
                            per * 8
                        ));
                    }
                    [w, d]
                }
                None => {
                    let side = raw::square_side(bytes.len(), per).ok_or_else(|| {
                        format!(
                            "{shown}: {} bytes is not a square {}-bit raw file; {RAW_SIZE_NEEDED}",
                            bytes.len(),
                            per * 8
                        )
                    })?;
                    [side, side]
                }
            };
            let range = if format == "r16" {
                Some(integer_range(None))
            } else {
                float_only()?;
                None
            };
            Ok(Facts {
                format: if per == 2 { "R16" } else { "R32" },
                samples,
                range,
                size: pixels(samples),
                chunk_cells: None,
                holes: Vec::new(),
                cell_size: 1.0,
                layered: None,
            })
        }
        _ => {
            float_only()?;
            let text = std::str::from_utf8(bytes).map_err(|e| {
                format!(
                    "{shown}: is not UTF-8 text (invalid byte at offset {})",
                    e.valid_up_to()
                )
            })?;
            let doc = TerrainDocument::parse(text, shown).map_err(|e| e.to_string())?;
            let [nx, nz] = doc.resolution;
            let cells_x = nx - 1;
            let holes: Vec<[f64; 2]> = doc
                .holes
                .iter()
                .flatten()
                .enumerate()
                .filter(|&(_, &b)| b != 0)
                .map(|(i, _)| {
                    let (x, z) = ((i % cells_x) as f64, (i / cells_x) as f64);
                    [(x + 0.5) * doc.cell_size, (z + 0.5) * doc.cell_size]
                })
                .collect();
            Ok(Facts {
                format: "terrain JSON",
                samples: [nx, nz],
                range: None,
                size: [
                    doc.cell_size * (nx - 1) as f64,
                    doc.cell_size * (nz - 1) as f64,
                ],
                chunk_cells: Some(doc.chunk_cells),
                holes,
                cell_size: doc.cell_size,
                layered: (!doc.layers.is_empty()).then(|| TerrainDocument {
                    heights: Vec::new(),
                    ..doc
                }),
            })
        }
    }
}

/// `file` relative to `dir` (forward slashes), refusing files outside `dir`'s project (the
/// asset could not read them).
pub fn relative_reference(file: &Path, dir: &Path) -> Result<String, String> {
    let canon = |p: &Path| {
        std::fs::canonicalize(p).map_err(|e| format!("{}: cannot resolve ({e})", p.display()))
    };
    let (file_abs, dir_abs) = (canon(file)?, canon(dir)?);
    let root = fsio::project_root(&dir_abs);
    if !file_abs.starts_with(&root) {
        return Err(format!(
            "{}: is outside the project of the asset ({}); an asset may only read files inside its project — copy the heightmap there first",
            file.display(),
            root.display()
        ));
    }
    let a: Vec<Component> = file_abs.components().collect();
    let b: Vec<Component> = dir_abs.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); b.len() - common];
    parts.extend(
        a[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(parts.join("/"))
}

#[cfg(test)]
#[path = "heightmap_import_tests.rs"]
mod tests;
