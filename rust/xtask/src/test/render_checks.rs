//! The rendered checks of `cargo xtask test`: the demo covers the view, and the water and
//! surface-role views (Compatibility and Forward+) judged picture by picture.

use super::Tally;
use crate::{godot, project, repo_root};
use anyhow::Result;

/// Renders the demo under Xvfb and checks that the terrain covers the expected part of the
/// screen: not black, not empty, filling the centre of the view.
pub(super) fn render_check(godot: &godot::Godot, tally: &mut Tally) {
    let demo = repo_root().join("demo_project");
    let result = project::import(godot, &demo)
        .and_then(|_| crate::render_demo(godot, &[]))
        .and_then(|png| screen_coverage(&png));
    match result {
        Ok(c) => {
            eprintln!(
                "xtask: render check: terrain covers {:.0} % of the screen, {:.0} % of the centre; mean brightness {:.0}",
                c.covered * 100.0,
                c.centre * 100.0,
                c.brightness
            );
            if c.covered > 0.15 && c.centre > 0.8 && c.brightness > 30.0 {
                tally.passed += 1;
                println!("PASS render::demo_terrain_covers_the_view");
            } else {
                tally.problem(format!(
                    "render check: the terrain covers {:.0} % of the screen and {:.0} % of its centre (brightness {:.0}); expected > 15 %, > 80 %, > 30",
                    c.covered * 100.0,
                    c.centre * 100.0,
                    c.brightness
                ));
            }
        }
        Err(e) => tally.problem(format!("render check failed: {e:#}")),
    }
}

/// The water views (see `water_views`): render, then judge each picture.
pub(super) fn water_render_checks(godot: &godot::Godot, tally: &mut Tally) {
    let demo = repo_root().join("demo_project");
    let result = project::import(godot, &demo)
        .and_then(|_| crate::render_water_views(godot))
        .and_then(|dir| crate::water_views::judge(&dir));
    tally_verdicts(result, tally, "water");
    // The same views on Forward+ (lavapipe): the water shader and the underwater pass read
    // the screen and depth textures differently there (reversed depth, no copy pass).
    let result = crate::render_views_on(
        godot,
        "tests/render/water_views.gd",
        "water-views-forward-plus",
        "the water views on Forward+",
        true,
    )
    .and_then(|dir| crate::water_views::judge_forward_plus(&dir));
    tally_verdicts(result, tally, "Forward+ water");
}

/// The surface-role views (see `role_views`): render both looks top-down, judge the role
/// statistics.
pub(super) fn role_render_checks(godot: &godot::Godot, tally: &mut Tally) {
    let demo = repo_root().join("demo_project");
    let result = project::import(godot, &demo)
        .and_then(|_| {
            crate::render_views(
                godot,
                "tests/render/role_views.gd",
                "role-views",
                "the surface-role views",
            )
        })
        .and_then(|dir| crate::role_views::judge(&dir));
    tally_verdicts(result, tally, "role");
    // The same views on Forward+ (lavapipe): both renderers draw the role map.
    let result = crate::render_views_on(
        godot,
        "tests/render/role_views.gd",
        "role-views-forward-plus",
        "the surface-role views on Forward+",
        true,
    )
    .and_then(|dir| crate::role_views::judge_forward_plus(&dir));
    tally_verdicts(result, tally, "Forward+ role");
}

/// Counts each image verdict as a test; a failed render is one failure naming `what`.
fn tally_verdicts(result: Result<Vec<crate::water_views::Verdict>>, tally: &mut Tally, what: &str) {
    match result {
        Ok(verdicts) => {
            for v in verdicts {
                eprintln!("xtask: {}: {}", v.name, v.detail);
                if v.ok {
                    tally.passed += 1;
                    println!("PASS {}", v.name);
                } else {
                    println!("FAIL {}: {}", v.name, v.detail);
                    tally.problem(format!("{}: {}", v.name, v.detail));
                }
            }
        }
        Err(e) => tally.problem(format!("{what} render checks failed: {e:#}")),
    }
}

/// The render-path views (see `patch_views`): mesh and GPU pictures of the demo, judged
/// against each other.
pub(super) fn patch_render_checks(godot: &godot::Godot, tally: &mut Tally) {
    let demo = repo_root().join("demo_project");
    let result = project::import(godot, &demo)
        .and_then(|_| {
            crate::render_views(
                godot,
                "tests/render/patch_views.gd",
                "patch-views",
                "the render-path views",
            )
        })
        .and_then(|dir| crate::patch_views::judge(&dir));
    tally_verdicts(result, tally, "render-path");
}

/// `cargo xtask patch-views`: build, import, render and judge the render-path views.
pub fn patch_views_verb() -> Result<()> {
    let godot = godot::locate_or_provision()?;
    crate::build_and_install()?;
    let mut tally = Tally::default();
    patch_render_checks(&godot, &mut tally);
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// `cargo xtask water-views`: build, import, render and judge the water views.
pub fn water_views_verb() -> Result<()> {
    let godot = godot::locate_or_provision()?;
    crate::build_and_install()?;
    let mut tally = Tally::default();
    water_render_checks(&godot, &mut tally);
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}

struct Coverage {
    covered: f64,
    centre: f64,
    brightness: f64,
}

/// Share of pixels that differ from the sky (sampled at the top centre), overall and in the
/// central box, and the mean brightness of those pixels.
fn screen_coverage(path: &std::path::Path) -> Result<Coverage> {
    let file = std::fs::File::open(path)?;
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut buf)?;
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = info.line_size / w;
    let px = |x: usize, y: usize| -> [i32; 3] {
        let i = y * info.line_size + x * channels;
        [buf[i] as i32, buf[i + 1] as i32, buf[i + 2] as i32]
    };
    let sky = px(w / 2, h / 12);
    let (mut covered, mut centre, mut centre_n, mut bright) = (0usize, 0usize, 0usize, 0.0f64);
    for y in 0..h {
        for x in 0..w {
            let p = px(x, y);
            let diff: i32 = (0..3).map(|k| (p[k] - sky[k]).abs()).sum();
            let is_terrain = diff > 40;
            let in_centre = x > w * 3 / 10 && x < w * 7 / 10 && y > h * 3 / 10 && y < h * 7 / 10;
            if in_centre {
                centre_n += 1;
            }
            if is_terrain {
                covered += 1;
                bright += (p[0] + p[1] + p[2]) as f64 / 3.0;
                if in_centre {
                    centre += 1;
                }
            }
        }
    }
    Ok(Coverage {
        covered: covered as f64 / (w * h) as f64,
        centre: centre as f64 / centre_n.max(1) as f64,
        brightness: if covered > 0 {
            bright / covered as f64
        } else {
            0.0
        },
    })
}
