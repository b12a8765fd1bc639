//! The render-path checks: `tests/render/patch_views.gd` renders demo views with chunk meshes
//! and with GPU patches (flat magenta background, water and scatter hidden) under Xvfb into
//! `target/patch-views/`; these judge the pictures.
//!
//! - `render::gpu_path_silhouette`: in every view the top terrain row of each column (the
//!   silhouette) lies within 2 px of the mesh path's in 99 % of the columns and within 4 px in
//!   all (both paths keep their own error within `lod_error_pixels` = 2 of full detail); a view
//!   whose mesh picture shows terrain in fewer than a quarter of its columns fails (it would
//!   judge nothing);
//! - `render::gpu_path_no_cracks`: background pixels below the silhouette (the sky showing
//!   through the ground: cracks between levels, missing skirts) are no more than on the mesh
//!   path plus 0.02 % of the picture;
//! - `render::gpu_path_stitched_edges`: the `overview` and `grazing` views drawn on the GPU
//!   path with the skirts switched off (`Terrain3D._set_patch_seams(false, true)`, pictures
//!   `*_stitched_gpu`) show at most 4 more background pixels under the silhouette than the
//!   mesh path with its skirts: the stitched edges alone close the seams between levels. The same views with
//!   stitching off as well (`*_bare_gpu`) are reported beside them (what an unstitched seam
//!   shows), not judged;
//! - `render::gpu_path_matches_the_mesh_path`: the mean colour difference between the two
//!   paths' pictures stays below 6 levels of 255 (same shading, same materials) and fewer than
//!   1 % of the pixels differ by more than 40 levels (no region drawn wrongly);
//! - `render::gpu_path_draws_edits`: after a `raise` stroke and a hole in view the GPU picture
//!   changed (the height and normal textures followed the edit; mean difference > 0.3 levels
//!   over the picture), and seen from straight above the hole shows the background as on the
//!   mesh path (within 20 %): the hole cells are discarded.
//!
//! The views: `overview`, `grazing`, `stroke` (before the edits), `hole` (after them, from
//! straight above the hole), `stroke_after` (after them, from 40 m: the chunks around the
//! hole at coarse levels — the mesh path once drew garbage there, see `render/chunks.rs`'
//! level keys) and `wall` (from outside, the terrain's border wall: the GPU path's walls once
//! blended into the surface normal at the top and showed lit streaks) and `spike` (after a
//! 1500 m raise, from 1 km away: ground spanning that much puts the GPU path on 32-bit height
//! texels, which the script checks in `get_patch_info()`) and `shadow` (a low sun at the back of
//! a camera looking away from the spike: the shadows of ground the camera does not see fall into
//! the view — the GPU path once culled the chunks outside the camera's frustum, so they cast no
//! shadow; `gpu_path_matches_the_mesh_path` fails on that picture) and `far_chunks` (a 2100 m
//! strip of 5-cell chunks seen from above its far end: the GPU path once named a chunk by its
//! first sample in instance custom data, which the Compatibility renderer keeps as 16-bit
//! floats, so odd first samples past 2048 were rounded and slits of background opened between
//! chunks; `gpu_path_no_cracks` fails on that picture).

use crate::water_views::{Image, Verdict};
use anyhow::Result;
use std::path::Path;

const VIEWS: [&str; 9] = [
    "overview",
    "grazing",
    "stroke",
    "hole",
    "stroke_after",
    "wall",
    "spike",
    "shadow",
    "far_chunks",
];

fn is_background(p: [f32; 3]) -> bool {
    p[0] > 200.0 && p[1] < 70.0 && p[2] > 200.0
}

/// Per column, the first terrain row from the top (`None`: no terrain in the column).
fn silhouette(img: &Image) -> Vec<Option<usize>> {
    (0..img.w)
        .map(|x| (0..img.h).find(|&y| !is_background(img.rgb[y * img.w + x])))
        .collect()
}

/// Background pixels below each column's silhouette.
fn gaps(img: &Image) -> usize {
    silhouette(img)
        .iter()
        .enumerate()
        .filter_map(|(x, top)| top.map(|t| (x, t)))
        .map(|(x, t)| {
            (t..img.h)
                .filter(|&y| is_background(img.rgb[y * img.w + x]))
                .count()
        })
        .sum()
}

fn mean_diff(a: &Image, b: &Image) -> f64 {
    let n = a.rgb.len().min(b.rgb.len()).max(1);
    a.rgb
        .iter()
        .zip(&b.rgb)
        .map(|(p, q)| {
            ((p[0] - q[0]).abs() + (p[1] - q[1]).abs() + (p[2] - q[2]).abs()) as f64 / 3.0
        })
        .sum::<f64>()
        / n as f64
}

/// Share of the pixels whose colour differs by more than 40 levels of 255 in some channel (a
/// region drawn wrongly shows here even when the mean difference over the picture stays small).
fn far_share(a: &Image, b: &Image) -> f64 {
    let n = a.rgb.len().min(b.rgb.len()).max(1);
    let far = a
        .rgb
        .iter()
        .zip(&b.rgb)
        .filter(|(p, q)| (0..3).any(|k| (p[k] - q[k]).abs() > 40.0))
        .count();
    far as f64 / n as f64
}

fn background_count(img: &Image) -> usize {
    img.rgb.iter().filter(|p| is_background(**p)).count()
}

/// Judges the pictures in `dir`.
pub fn judge(dir: &Path) -> Result<Vec<Verdict>> {
    let load = |name: &str| Image::load(&dir.join(format!("{name}.png")));
    let mut pairs = Vec::new();
    for v in VIEWS {
        pairs.push((v, load(&format!("{v}_mesh"))?, load(&format!("{v}_gpu"))?));
    }
    let mut out = Vec::new();
    // Silhouettes.
    let mut detail = Vec::new();
    let mut ok = true;
    for (v, mesh, gpu) in &pairs {
        let (sm, sg) = (silhouette(mesh), silhouette(gpu));
        let mut diffs: Vec<usize> = sm
            .iter()
            .zip(&sg)
            .filter_map(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => Some(a.abs_diff(*b)),
                (None, None) => None,
                _ => Some(usize::MAX / 2),
            })
            .collect();
        diffs.sort_unstable();
        let p99 = diffs.get(diffs.len() * 99 / 100).copied().unwrap_or(0);
        let max = diffs.last().copied().unwrap_or(0);
        // A view must show the terrain (in at least a quarter of the columns), or it judges
        // nothing.
        let shown = sm.iter().filter(|c| c.is_some()).count();
        let empty = shown * 4 < mesh.w;
        ok &= p99 <= 2 && max <= 4 && !empty;
        detail.push(format!(
            "{v}: p99 {p99} px, max {}{}",
            if max > 100_000 {
                "column missing".into()
            } else {
                format!("{max} px")
            },
            if empty {
                format!(" — the view shows terrain in only {shown} columns")
            } else {
                String::new()
            }
        ));
    }
    out.push(Verdict {
        name: "render::gpu_path_silhouette",
        ok,
        detail: detail.join("; "),
    });
    // Cracks.
    let mut detail = Vec::new();
    let mut ok = true;
    for (v, mesh, gpu) in &pairs {
        let (gm, gg) = (gaps(mesh), gaps(gpu));
        let allowed = gm + gpu.rgb.len() / 5000;
        ok &= gg <= allowed;
        detail.push(format!(
            "{v}: {gg} background pixels under the silhouette (mesh {gm})"
        ));
    }
    out.push(Verdict {
        name: "render::gpu_path_no_cracks",
        ok,
        detail: detail.join("; "),
    });
    // Stitched edges alone (no skirts).
    let mut detail = Vec::new();
    let mut ok = true;
    for (v, mesh, _) in pairs.iter().take(2) {
        let stitched = load(&format!("{v}_stitched_gpu"))?;
        let bare = load(&format!("{v}_bare_gpu"))?;
        let (gm, gs, gb) = (gaps(mesh), gaps(&stitched), gaps(&bare));
        // A seam is pixel-thin: on the demo's overview the unstitched seams show 35 pixels, so
        // the allowance is a few single pixels (rasterisation), not a share of the picture.
        ok &= gs <= gm + 4;
        detail.push(format!(
            "{v}: {gs} background pixels under the silhouette without skirts (mesh path {gm}; without skirts and stitching {gb})"
        ));
    }
    out.push(Verdict {
        name: "render::gpu_path_stitched_edges",
        ok,
        detail: detail.join("; "),
    });
    // Same picture.
    let diffs: Vec<(String, f64, f64)> = pairs
        .iter()
        .map(|(v, m, g)| (v.to_string(), mean_diff(m, g), far_share(m, g)))
        .collect();
    out.push(Verdict {
        name: "render::gpu_path_matches_the_mesh_path",
        ok: diffs.iter().all(|(_, d, f)| *d < 6.0 && *f < 0.01),
        detail: diffs
            .iter()
            .map(|(v, d, f)| {
                format!(
                    "{v}: mean difference {d:.2}, {:.2} % of the pixels off by more than 40",
                    f * 100.0
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
    });
    // Edits: the stroke view changed on the GPU path, and the hole (seen from straight
    // above, `hole`, after the edits) shows the background as on the mesh path.
    let stroke_gpu = &pairs[2].2;
    let after_gpu = &pairs[4].2;
    let changed = mean_diff(stroke_gpu, after_gpu);
    let (_, hole_mesh, hole_gpu) = &pairs[3];
    let (bm, bg) = (background_count(hole_mesh), background_count(hole_gpu));
    let hole_ok = bm > 50 && bg.abs_diff(bm) <= bm / 5 + 20;
    out.push(Verdict {
        name: "render::gpu_path_draws_edits",
        ok: changed > 0.3 && hole_ok,
        detail: format!(
            "the raise stroke and the hole changed the GPU picture by {changed:.2}; through the hole the GPU path shows {bg} background pixels, the mesh path {bm}"
        ),
    });
    Ok(out)
}
