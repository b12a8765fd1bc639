//! The surface-role render checks: `tests/render/role_views.gd` renders the demo terrain straight
//! down (orthographic, fog off, everything but the terrain hidden) in both looks and writes, per
//! look, the mean colour of the pixels of each surface role (pixels whose neighbourhood has one
//! role, from `Terrain3D.get_surface_role`) and the correlation ratio η² — the share of the
//! pixel-chromaticity variance (colour over brightness, so sun and shadow are no variation) that
//! the role map explains. These verdicts judge `roles.json`:
//!
//! - `render::roles_<look>_renders`: the look draws something: not black, not blown out, and
//!   at least three roles cover 1 % of the judged pixels each;
//! - `render::roles_<look>_follow_the_role_map`: η² ≥ 0.7 (faceted: one flat colour per
//!   surface; 0.83 measured on the demo) or ≥ 0.4 (realistic: textures add variance within a
//!   role; 0.62 measured); a shader that ignores the control texture scores near 0;
//! - `render::roles_<look>_grass_greener_than_rock`: where both show, grass's mean colour is
//!   greener (G − (R + B) / 2) than rock's.
//!
//! The same views are rendered a second time on Forward+ (Vulkan on Mesa's lavapipe, from the
//! provisioned root's `mesa-vulkan-drivers`) and judged the same way as
//! `render::forward_plus_roles_<look>_…` (η² ≥ 0.6 faceted, ≥ 0.35 realistic: see
//! [`ETA2_FORWARD_PLUS`]), so both renderers the issue names are checked.

use crate::water_views::{Verdict, leak};
use anyhow::{Context, Result};
use serde_json::Value;
use std::path::Path;

/// η² each look must reach (Compatibility renderer).
const ETA2: [(&str, f64); 2] = [("faceted", 0.7), ("realistic", 0.4)];
/// η² each look must reach on Forward+: its directional shadows take the sky's blue ambient
/// and its tone mapping bends bright colours, so shading moves chromaticity more than on the
/// Compatibility renderer (measured 0.70 faceted, 0.43 realistic on lavapipe; a shader that
/// ignores the control texture still scores near 0).
const ETA2_FORWARD_PLUS: [(&str, f64); 2] = [("faceted", 0.6), ("realistic", 0.35)];

/// Judges `dir/roles.json` (verdicts named `render::roles_…`).
pub fn judge(dir: &Path) -> Result<Vec<Verdict>> {
    judge_as(dir, "roles", ETA2)
}

/// Judges the Forward+ rendering of the views (verdicts named `render::forward_plus_roles_…`).
pub fn judge_forward_plus(dir: &Path) -> Result<Vec<Verdict>> {
    judge_as(dir, "forward_plus_roles", ETA2_FORWARD_PLUS)
}

/// [`judge`] with verdicts named `render::<prefix>_<look>_…` and the looks' η² thresholds.
fn judge_as(dir: &Path, prefix: &str, thresholds: [(&str, f64); 2]) -> Result<Vec<Verdict>> {
    let path = dir.join("roles.json");
    let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
    let report: Value =
        serde_json::from_str(&text).with_context(|| format!("{}", path.display()))?;
    let mut out = Vec::new();
    for (look, min_eta2) in thresholds {
        let s = &report["looks"][look];
        let pixels = s["pixels"].as_f64().unwrap_or(0.0);
        let brightness = s["brightness"].as_f64().unwrap_or(0.0);
        let eta2 = s["eta2"].as_f64().unwrap_or(0.0);
        let roles = s["roles"].as_object().cloned().unwrap_or_default();
        let mean = |r: &str| -> Option<[f64; 3]> {
            let m = roles.get(r)?;
            (m["pixels"].as_f64()? >= pixels * 0.01).then_some(())?;
            let a = m["mean"].as_array()?;
            Some([a[0].as_f64()?, a[1].as_f64()?, a[2].as_f64()?])
        };
        let shown: Vec<String> = roles
            .iter()
            .filter(|(r, _)| mean(r).is_some())
            .map(|(r, m)| {
                format!(
                    "{r} {:.0} %",
                    m["pixels"].as_f64().unwrap_or(0.0) * 100.0 / pixels.max(1.0)
                )
            })
            .collect();
        out.push(Verdict {
            name: leak(format!("render::{prefix}_{look}_renders")),
            ok: pixels >= 10_000.0
                && (30.0..=240.0).contains(&brightness)
                && shown.len() >= 3,
            detail: format!(
                "{pixels:.0} judged pixels, brightness {brightness:.0} (30..240), roles {} (≥ 3 at 1 %)",
                shown.join(", ")
            ),
        });
        out.push(Verdict {
            name: leak(format!("render::{prefix}_{look}_follow_the_role_map")),
            ok: eta2 >= min_eta2,
            detail: format!("η² = {eta2:.3} (≥ {min_eta2})"),
        });
        if let (Some(g), Some(r)) = (mean("grass"), mean("rock")) {
            let green = |c: [f64; 3]| c[1] - 0.5 * (c[0] + c[2]);
            out.push(Verdict {
                name: leak(format!("render::{prefix}_{look}_grass_greener_than_rock")),
                ok: green(g) > green(r),
                detail: format!(
                    "grass {:.0},{:.0},{:.0} (greenness {:.1}) vs rock {:.0},{:.0},{:.0} ({:.1})",
                    g[0],
                    g[1],
                    g[2],
                    green(g),
                    r[0],
                    r[1],
                    r[2],
                    green(r)
                ),
            });
        }
    }
    Ok(out)
}
