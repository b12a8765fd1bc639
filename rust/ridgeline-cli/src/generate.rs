//! `ridgeline generate`: evaluates a recipe and writes its outputs.

use crate::QualityArg;
use crate::files::{load, write_atomic};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ridgeline_core::formats::{HeightImage, png16};
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use ridgeline_core::preview;
use serde_json::json;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Runs the verb.
pub fn run(file: &Path, out: &Path, quality: QualityArg) -> Result<(), String> {
    let doc = load(file)?;
    let recipe = doc.recipe();
    let quality = match quality {
        QualityArg::Preview => Quality::Preview,
        QualityArg::Final => Quality::Final,
    };
    std::fs::create_dir_all(out).map_err(|e| format!("{}: cannot create ({e})", out.display()))?;
    let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {percent:>3}% {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = std::time::Instant::now();
    let generated = ridgeline_core::pipeline::generate_with_masks(
        recipe,
        quality,
        &mut GraphCache::default(),
        &|f, stage| {
            bar.set_position((f * 1000.0) as u64);
            bar.set_message(stage.to_string());
        },
        &AtomicBool::new(false),
        Some(ridgeline_core::formats::file_mask_loader(
            file.parent().map(Path::to_path_buf).unwrap_or_default(),
        )),
    )
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let total_ms = started.elapsed().as_secs_f64() * 1e3;
    let field = &generated.heightfield;
    let [w, h] = field.grid().samples();
    let [lo, hi] = field.height_range();
    let (map_lo, map_hi) = if hi > lo { (lo, hi) } else { (lo, lo + 1.0) };
    let image = HeightImage {
        width: w,
        depth: h,
        heights: field.heights().to_vec(),
    };
    let png = png16::write(&image, map_lo, map_hi).map_err(|e| e.to_string())?;
    write_atomic(&out.join("heightmap.png"), &png)?;
    let raw: Vec<u8> = field
        .heights()
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    write_atomic(&out.join("heights.f32"), &raw)?;
    let mut rgb = preview::hillshade_rgb(field);
    preview::draw_water(&mut rgb, field, &generated.water);
    let pre = preview::encode_rgb_png(w, h, &rgb).map_err(|e| e.to_string())?;
    write_atomic(&out.join("preview.png"), &pre)?;
    let report = json!({
        "generator_version": ridgeline_core::GENERATOR_VERSION,
        "quality": match quality { Quality::Preview => "preview", Quality::Final => "final" },
        "grid": {
            "size": field.grid().size(),
            "cells": field.grid().cells(),
            "samples": [w, h],
            "chunk_cells": field.grid().chunk_cells(),
        },
        "height": { "min": lo, "max": hi },
        "heightmap_png": { "file": "heightmap.png", "bits": 16, "min": map_lo, "max": map_hi },
        "heights_f32": { "file": "heights.f32", "layout": "little-endian f32, row-major, Z outer", "samples": [w, h] },
        "preview_png": "preview.png",
        "total_ms": total_ms,
        "nodes": generated.nodes.iter().map(|n| json!({
            "id": n.id, "type": n.type_id, "time_ms": n.time_ms, "reused": n.reused, "details": n.details
        })).collect::<Vec<_>>(),
        "water": generated.water.bodies.iter().map(|b| json!({
            "id": b.id, "kind": b.kind.name(), "level": b.level, "wet_samples": b.wet_samples,
            "flow_speed": b.flow_speed, "warnings": b.warnings,
        })).collect::<Vec<_>>(),
        "diagnostics": generated.water.bodies.iter().flat_map(|b| b.warnings.clone()).collect::<Vec<_>>(),
    });
    let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    write_atomic(&out.join("report.json"), text.as_bytes())?;
    eprintln!(
        "generated {}×{} samples in {:.0} ms; heights {lo:.2}..{hi:.2}; wrote {}",
        w,
        h,
        total_ms,
        out.display()
    );
    Ok(())
}
