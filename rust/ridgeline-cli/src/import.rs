//! `ridgeline import`: creates a terrain asset whose graph reads a heightmap file (a Heightmap
//! node straight into the output), after checking that the file imports. The holes of a
//! seed-002 terrain JSON become one `hole` stroke (a square stamp of half a source cell on each
//! hole cell's centre), so they are edited and undone like painted holes.

use crate::files::write_atomic;
use ridgeline_core::formats::{png16, raw, terrain_json::TerrainDocument};
use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use ridgeline_core::recipe::Document;
use serde_json::{Map, Value, json};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// What the verb was asked.
pub struct Args<'a> {
    /// The heightmap.
    pub file: &'a Path,
    /// The asset to write.
    pub out: &'a Path,
    /// World size along X and Z.
    pub size: Option<[f64; 2]>,
    /// Heights of the smallest and largest integer sample.
    pub height_range: Option<[f64; 2]>,
    /// Raw files: samples along X and Z.
    pub raw_size: Option<[usize; 2]>,
}

/// Image facts the asset is built from.
struct Facts {
    format: &'static str,
    samples: [usize; 2],
    /// (min, max) for integer formats.
    range: Option<[f64; 2]>,
    /// World size implied by the file (terrain JSON), else 1 m per pixel.
    size: [f64; 2],
    chunk_cells: Option<u32>,
    /// Hole cells (terrain JSON): their centres in the file's local units, and its cell size.
    holes: Vec<[f64; 2]>,
    cell_size: f64,
}

/// Runs the verb.
pub fn run(a: &Args) -> Result<(), String> {
    let out_name = a
        .out
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let Some(stem) = out_name
        .strip_suffix(".terrain.json")
        .filter(|s| !s.is_empty())
    else {
        return Err(format!(
            "{}: the output must be named <name>.terrain.json",
            a.out.display()
        ));
    };
    let shown = a.file.display().to_string();
    let format = ridgeline_core::nodes::heightmap_format_of(&shown)
        .map(|f| f.name())
        .ok_or_else(|| {
            format!(
                "{shown}: cannot tell the format from the extension (.png, .r16, .raw, .r32, .json)"
            )
        })?;
    eprintln!("reading {shown}");
    let kind = if format == "terrain_json" {
        FileKind::TerrainJson
    } else {
        FileKind::Heightmap
    };
    let bytes = fsio::read_bounded(a.file, kind).map_err(|e| e.to_string())?;
    let facts = facts(format, &bytes, &shown, a)?;
    let [w, d] = facts.samples;
    let size = a.size.unwrap_or(facts.size);
    let out_dir = match a.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("{}: cannot create ({e})", out_dir.display()))?;
    let reference = relative_reference(a.file, &out_dir)?;
    let mut params = Map::new();
    params.insert("file".into(), Value::from(reference.clone()));
    if let Some([lo, hi]) = facts.range {
        params.insert("min".into(), json!(lo));
        params.insert("max".into(), json!(hi));
    }
    if matches!(format, "r16" | "r32") && a.raw_size.is_some() {
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
    if !facts.holes.is_empty() {
        // Scaled with the terrain when --size differs from the file's own extent.
        let [sx, sz] = [size[0] / facts.size[0], size[1] / facts.size[1]];
        let points: Vec<Value> = facts
            .holes
            .iter()
            .map(|[x, z]| json!([x * sx, z * sz]))
            .collect();
        let radius = 0.5 * facts.cell_size * sx.max(sz);
        recipe["edits"] = json!([{"type": "hole", "mask": "square", "falloff": 1,
            "radius": radius, "points": points}]);
        eprintln!(
            "{} hole cells imported as a hole stroke (recipe.edits[0])",
            facts.holes.len()
        );
    }
    let asset = json!({
        "format_version": 1,
        "id": format!("asset://terrain/{stem}"),
        "recipe": recipe,
    });
    let text = serde_json::to_string(&asset).map_err(|e| e.to_string())?;
    let out_shown = a.out.display().to_string();
    let doc = Document::parse(&text, &out_shown).map_err(|e| e.to_string())?;
    // The asset must generate: the file decodes and maps inside the height limits.
    eprintln!(
        "checking the import ({w} × {d} samples, {} format)",
        facts.format
    );
    let checked = doc.recipe().clone().with_source_dir(&out_dir);
    let g = ridgeline_core::pipeline::generate(
        &checked,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())?;
    let [lo, hi] = g.heightfield.height_range();
    write_atomic(a.out, doc.to_canonical_json().as_bytes())?;
    eprintln!(
        "imported {shown} as {out_shown}: {} × {} m, {w} × {d} samples, heights {lo}..{hi}; the graph reads \"{reference}\"",
        size[0], size[1]
    );
    println!("{}", a.out.display());
    Ok(())
}

fn facts(format: &'static str, bytes: &[u8], shown: &str, a: &Args) -> Result<Facts, String> {
    let pixels = |[w, d]: [usize; 2]| [(w - 1) as f64, (d - 1) as f64];
    let integer_range = |embedded: Option<(f32, f32)>| -> [f64; 2] {
        if let Some(r) = a.height_range {
            return r;
        }
        if let Some((lo, hi)) = embedded {
            eprintln!("using the height range the file embeds: {lo}..{hi}");
            return [lo as f64, hi as f64];
        }
        eprintln!(
            "note: no --height-range given and none embedded; mapping samples to 0..100 m (pass --height-range MIN,MAX)"
        );
        [0.0, 100.0]
    };
    let float_only = || -> Result<(), String> {
        if a.height_range.is_some() {
            return Err(format!(
                "{shown}: --height-range applies to PNG and R16 files; {format} stores heights (use the node's scale and offset to change them)"
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
            })
        }
        "r16" | "r32" => {
            let per = if format == "r16" { 2 } else { 4 };
            let samples = match a.raw_size {
                Some(s) => s,
                None => {
                    let side = raw::square_side(bytes.len(), per).ok_or_else(|| {
                        format!(
                            "{shown}: {} bytes is not a square {}-bit raw file; pass --raw-size WIDTH,DEPTH",
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
            if doc.splat.is_some() || !doc.layers.is_empty() {
                eprintln!("note: layers and splat weights are not imported yet (heights only)");
            }
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
            })
        }
    }
}

/// `file` relative to `dir` (forward slashes), refusing files outside `dir`'s project (the
/// asset could not read them).
fn relative_reference(file: &Path, dir: &Path) -> Result<String, String> {
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
