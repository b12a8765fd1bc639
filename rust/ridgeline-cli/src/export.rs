//! `ridgeline export`: writes the prepared surface of a recipe (generated, Final, strokes
//! replayed) or of a cooked payload as a 16-bit PNG, raw R16 or R32, or a seed-002 terrain JSON.

use crate::files::{load_placed, write_atomic};
use clap::ValueEnum;
use ridgeline_core::Heightfield;
use ridgeline_core::formats::splat_export::splat_layers;
use ridgeline_core::formats::{HeightImage, payload, png16, raw, terrain_json::TerrainDocument};
use ridgeline_core::fsio::{self, FileKind};
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use ridgeline_core::pipeline::Surface;
use ridgeline_core::recipe::Recipe;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Output format.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ExportFormat {
    /// 16-bit greyscale PNG (the height range embedded in a tEXt chunk).
    Png16,
    /// Raw unsigned 16-bit little endian, mapped like the PNG.
    R16,
    /// Raw f32 little endian, heights as they are.
    R32,
    /// Seed-002 terrain JSON (heights, holes, chunk_cells; the texture layers and splat of a
    /// terrain JSON the graph reads, when the grid matches, else the resolved biomes as layers).
    TerrainJson,
}

/// Runs the verb.
pub fn run(
    input: &Path,
    format: ExportFormat,
    out: &Path,
    height_range: Option<[f64; 2]>,
) -> Result<(), String> {
    if height_range.is_some() && matches!(format, ExportFormat::R32 | ExportFormat::TerrainJson) {
        return Err(
            "--height-range applies to png16 and r16 only (r32 and terrain-json write heights \
             as they are)"
                .into(),
        );
    }
    let (field, recipe, resolved) = surface(input)?;
    let [w, d] = field.grid().samples();
    let [lo, hi] = field.height_range();
    let (min, max) = match height_range {
        Some([a, b]) => (a as f32, b as f32),
        None if hi > lo => (lo, hi),
        None => (lo, lo + 1.0),
    };
    let image = || HeightImage {
        width: w,
        depth: d,
        heights: field.heights().to_vec(),
    };
    let bytes = match format {
        ExportFormat::Png16 => png16::write(&image(), min, max).map_err(|e| e.to_string())?,
        ExportFormat::R16 => raw::write_r16(&image(), min, max).map_err(|e| e.to_string())?,
        ExportFormat::R32 => raw::write_r32(&image()).map_err(|e| e.to_string())?,
        ExportFormat::TerrainJson => {
            let mut doc = TerrainDocument::from_heightfield(&field, [0.0; 3], Vec::new())
                .map_err(|e| e.to_string())?;
            // The cell size from the grid's size (f32) so an import gives the same grid back.
            doc.cell_size = field.grid().size()[0] as f64 / field.grid().cells()[0] as f64;
            if let Some(source) = recipe.as_ref().and_then(|r| layer_source(r, &field)) {
                eprintln!(
                    "keeping the texture layers, splat weights and origin of {}",
                    source.0
                );
                doc.origin = source.1.origin;
                doc.layers = source.1.layers;
                doc.splat = source.1.splat;
            } else if let Some(l) = splat_layers(&resolved) {
                eprintln!(
                    "writing the resolved biomes as texture layers: {}",
                    l.biomes.join(", ")
                );
                if !l.merged.is_empty() {
                    eprintln!(
                        "note: a terrain JSON holds four layers; {} written as layer 0 ({})",
                        l.merged.join(", "),
                        l.biomes[0]
                    );
                }
                doc.layers = l.layers;
                doc.splat = l.splat;
            }
            doc.to_json().into_bytes()
        }
    };
    write_atomic(out, &bytes)?;
    match format {
        ExportFormat::Png16 | ExportFormat::R16 => eprintln!(
            "exported {w} × {d} samples to {}; heights {min}..{max} mapped to 0..65535 (import with --height-range {min},{max})",
            out.display()
        ),
        _ => eprintln!(
            "exported {w} × {d} samples to {}; heights {lo}..{hi}",
            out.display()
        ),
    }
    println!("{}", out.display());
    Ok(())
}

/// The seed-002 terrain JSON the recipe's graph reads, when it has texture layers or splat
/// weights and exactly the exported grid: those are kept unchanged (the file's own blended
/// weights, not the one-layer-per-vertex biomes an import paints from them). With another grid
/// they cannot be carried over and the resolved biomes are written instead.
fn layer_source(recipe: &Recipe, field: &Heightfield) -> Option<(String, TerrainDocument)> {
    let files = ridgeline_core::pipeline::files::referenced_files(recipe);
    let mut sources = files.iter().filter_map(|f| {
        ridgeline_core::nodes::heightmap_format_of(&f.reference)
            .filter(|k| k.name() == "terrain_json")?;
        let bytes = fsio::read_bounded(&f.path, FileKind::TerrainJson).ok()?;
        let doc = TerrainDocument::parse(std::str::from_utf8(&bytes).ok()?, &f.reference).ok()?;
        (doc.splat.is_some() || !doc.layers.is_empty()).then(|| (f.reference.clone(), doc))
    });
    let (name, doc) = sources.next()?;
    if sources.next().is_some() {
        eprintln!("note: several terrain JSON sources carry layers; none are kept");
        return None;
    }
    if doc.resolution != field.grid().samples() {
        eprintln!(
            "note: {name}'s layers and splat are not kept: its grid ({} × {}) differs from the terrain's",
            doc.resolution[0], doc.resolution[1]
        );
        return None;
    }
    Some((name, doc))
}

/// The prepared surface of a cooked payload (`*.terrain.bin`) or a recipe (and the recipe), with
/// its resolved biomes.
fn surface(input: &Path) -> Result<(Heightfield, Option<Recipe>, Surface), String> {
    let name = input.to_string_lossy();
    if name.ends_with(".terrain.bin") {
        let bytes = fsio::read_bounded(input, FileKind::Payload).map_err(|e| e.to_string())?;
        let p = payload::decode(&bytes, &name).map_err(|e| e.to_string())?;
        return Ok((p.field, None, p.surface));
    }
    let recipe = load_placed(input)?;
    eprintln!("generating {name}");
    let prepared = ridgeline_core::pipeline::prepare(
        &recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
        Some(ridgeline_core::formats::file_mask_loader(
            input.parent().map(Path::to_path_buf).unwrap_or_default(),
        )),
    )
    .map_err(|e| e.to_string())?;
    Ok((prepared.field, Some(recipe), prepared.surface))
}
