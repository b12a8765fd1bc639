//! The water render checks: `tests/render/water_views.gd` renders the demo from a few metres
//! above the river and a lake (and below the lake surface) under Xvfb (OpenGL 3) into
//! `target/water-views/`; these image statistics judge the pictures.
//!
//! - `render::water_no_moire`: the far water of `lake_shore` has no high-contrast regular dot
//!   pattern (the aliased wave normals drew one): the mean absolute difference between a
//!   pixel's luminance and its 5 × 5 neighbourhood stays low.
//! - `render::water_refracts`: `river_low` differs from `river_low_dry` (the same view without
//!   water) over the water, yet keeps the bed's detail there (the water is not an opaque sheet).
//! - `render::water_underwater_tint`: under the lake the view's mean colour takes the water's
//!   hue and detail fades with distance (near bank kept, far bed gone) against the same view
//!   with the underwater view off; above the lake nothing changes but the waves.

use anyhow::{Context, Result};
use std::path::Path;

/// An RGB image, 0–255 per channel.
pub struct Image {
    pub w: usize,
    pub h: usize,
    pub rgb: Vec<[f32; 3]>,
}

impl Image {
    pub fn load(path: &Path) -> Result<Image> {
        let file = std::fs::File::open(path).with_context(|| format!("{}", path.display()))?;
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let mut reader = decoder.read_info()?;
        let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let info = reader.next_frame(&mut buf)?;
        let (w, h) = (info.width as usize, info.height as usize);
        let channels = info.line_size / w;
        let mut rgb = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                let i = y * info.line_size + x * channels;
                rgb.push([buf[i] as f32, buf[i + 1] as f32, buf[i + 2] as f32]);
            }
        }
        Ok(Image { w, h, rgb })
    }

    fn px(&self, x: usize, y: usize) -> [f32; 3] {
        self.rgb[y * self.w + x]
    }

    fn lum(&self, x: usize, y: usize) -> f32 {
        let p = self.px(x, y);
        0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]
    }
}

/// A pixel rectangle as fractions of the image: x0, y0, x1, y1.
pub type Region = [f32; 4];

fn pixels(img: &Image, r: Region) -> impl Iterator<Item = (usize, usize)> + '_ {
    let (x0, x1) = (
        (r[0] * img.w as f32) as usize,
        (r[2] * img.w as f32) as usize,
    );
    let (y0, y1) = (
        (r[1] * img.h as f32) as usize,
        (r[3] * img.h as f32) as usize,
    );
    (y0.max(2)..y1.min(img.h - 2))
        .flat_map(move |y| (x0.max(2)..x1.min(img.w - 2)).map(move |x| (x, y)))
}

/// Water-coloured pixel: blue clearly above red.
fn is_water(p: [f32; 3]) -> bool {
    p[2] > p[0] + 25.0
}

/// Mean |luminance − 5 × 5 mean| over the water-coloured pixels of `r`, and how many there were.
pub fn ripple_contrast(img: &Image, r: Region) -> (f64, usize) {
    contrast_where(img, r, is_water)
}

/// Mean |luminance − 5 × 5 mean| over every pixel of `r`: how much detail it shows.
pub fn local_contrast(img: &Image, r: Region) -> f64 {
    contrast_where(img, r, |_| true).0
}

/// Mean |luminance − 5 × 5 mean| over the pixels of `r` that pass `keep`, and their count.
fn contrast_where(img: &Image, r: Region, keep: impl Fn([f32; 3]) -> bool) -> (f64, usize) {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for (x, y) in pixels(img, r) {
        if !keep(img.px(x, y)) {
            continue;
        }
        let mut m = 0.0f32;
        for dy in 0..5 {
            for dx in 0..5 {
                m += img.lum(x + dx - 2, y + dy - 2);
            }
        }
        sum += (img.lum(x, y) - m / 25.0).abs() as f64;
        n += 1;
    }
    (if n > 0 { sum / n as f64 } else { 0.0 }, n)
}

/// Mean absolute difference of two images over `r` (per channel, 0–255).
pub fn mean_difference(a: &Image, b: &Image, r: Region) -> f64 {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for (x, y) in pixels(a, r) {
        let (p, q) = (a.px(x, y), b.px(x, y));
        sum += (0..3).map(|k| (p[k] - q[k]).abs() as f64).sum::<f64>() / 3.0;
        n += 1;
    }
    sum / n.max(1) as f64
}

/// Mean colour of `r` (0–255 per channel).
pub fn mean_colour(img: &Image, r: Region) -> [f64; 3] {
    let (mut sum, mut n) = ([0.0f64; 3], 0usize);
    for (x, y) in pixels(img, r) {
        let p = img.px(x, y);
        for k in 0..3 {
            sum[k] += p[k] as f64;
        }
        n += 1;
    }
    sum.map(|v| v / n.max(1) as f64)
}

/// Distance between the chromaticities (r, g, b over their sum) of two colours: 0 for the same
/// hue and saturation at any brightness.
pub fn chroma_distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    let c = |v: [f64; 3]| {
        let s = (v[0] + v[1] + v[2]).max(1e-9);
        v.map(|x| x / s)
    };
    let (a, b) = (c(a), c(b));
    ((0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>()).sqrt()
}

/// The underwater fog colour of the demo's lake (the default appearance) for a camera `depth`
/// below the surface, as the underwater shader mixes it (sRGB, 0–1 per channel).
fn water_colour(depth: f32) -> [f64; 3] {
    let a = ridgeline_core::hydrology::water::Appearance::default();
    let k = 1.0 - (-depth / a.absorption_distance.max(1e-3)).exp();
    std::array::from_fn(|i| {
        (a.shallow_color[i] + (a.deep_color[i] - a.shallow_color[i]) * k) as f64
    })
}

/// `render::water_underwater_tint`: `underwater` (2 m below the lake surface, looking along the
/// shore: a pebble bank close on the left, hills of the bed 10–40 m away on the right) against
/// `underwater_off` (the same view with `TerrainWaterSurface.underwater` off), and
/// `above_water` against `above_water_off` (3 m above the same column).
fn underwater_tint(on: &Image, off: &Image, above_on: &Image, above_off: &Image) -> Verdict {
    let all: Region = [0.0, 0.0, 1.0, 1.0];
    // The mean colour turns towards the water's.
    let water = water_colour(2.0);
    let (m_on, m_off) = (mean_colour(on, all), mean_colour(off, all));
    let (d_on, d_off) = (chroma_distance(m_on, water), chroma_distance(m_off, water));
    let lum = |c: [f64; 3]| 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    let colour_ok = d_on < 0.05 && d_on < d_off / 3.0 && lum(m_on) > 40.0;
    // Detail fades with distance: the near bank keeps some, the far bed almost none.
    let near: Region = [0.0, 0.6, 0.3, 1.0];
    let far: Region = [0.5, 0.45, 1.0, 0.85];
    let keep_near = local_contrast(on, near) / local_contrast(off, near).max(1e-9);
    let keep_far = local_contrast(on, far) / local_contrast(off, far).max(1e-9);
    let fog_ok = keep_near > 0.2 && keep_far < 0.1 && keep_far < keep_near * 0.25;
    // Above water nothing changes: the land and sky are identical, the water differs only by
    // its animated waves.
    let land = mean_difference(above_on, above_off, [0.0, 0.0, 1.0, 0.4]);
    let (w_on, w_off) = (
        mean_colour(above_on, [0.0, 0.5, 1.0, 1.0]),
        mean_colour(above_off, [0.0, 0.5, 1.0, 1.0]),
    );
    let water_shift = (0..3)
        .map(|k| (w_on[k] - w_off[k]).abs())
        .fold(0.0, f64::max);
    let above_ok = land < 0.5 && water_shift < 4.0;
    let rgb = |c: [f64; 3]| format!("({:.0}, {:.0}, {:.0})", c[0], c[1], c[2]);
    Verdict {
        name: "render::water_underwater_tint",
        ok: colour_ok && fog_ok && above_ok,
        detail: format!(
            "under water the mean colour {} is {d_on:.3} from the water's hue (expected < 0.05 and < a third of the {d_off:.3} of {} without the view; luminance > 40); detail kept near {keep_near:.2} (expected > 0.2), far {keep_far:.3} (expected < 0.1 and < a quarter of near); above water the land differs by {land:.2} (expected < 0.5) and the water's mean colour by {water_shift:.1} (expected < 4, waves only)",
            rgb(m_on),
            rgb(m_off),
        ),
    }
}

/// Correlation of two images' high-pass luminance (pixel − 5 × 5 mean) over `r`: near 1 when
/// `a` shows `b`'s detail, near 0 when it hides it.
pub fn detail_correlation(a: &Image, b: &Image, r: Region) -> f64 {
    let hp = |img: &Image, x: usize, y: usize| -> f64 {
        let mut m = 0.0f32;
        for dy in 0..5 {
            for dx in 0..5 {
                m += img.lum(x + dx - 2, y + dy - 2);
            }
        }
        (img.lum(x, y) - m / 25.0) as f64
    };
    let (mut ab, mut aa, mut bb, mut n) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (x, y) in pixels(a, r) {
        let (p, q) = (hp(a, x, y), hp(b, x, y));
        ab += p * q;
        aa += p * p;
        bb += q * q;
        n += 1.0;
    }
    // No detail (a flat image, up to f32 rounding of the local mean): no correlation.
    let flat = 1e-6 * n.max(1.0);
    if aa <= flat || bb <= flat {
        0.0
    } else {
        ab / (aa * bb).sqrt()
    }
}

/// One check's outcome: name, pass, what was measured.
pub struct Verdict {
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
}

/// Judges the Forward+ rendering of the views in `dir` by the same measures (verdicts named
/// `render::forward_plus_water_…`): both renderers must draw water without moiré, refract the
/// bed and tint the underwater view.
pub fn judge_forward_plus(dir: &Path) -> Result<Vec<Verdict>> {
    Ok(judge(dir)?
        .into_iter()
        .map(|v| Verdict {
            name: leak(v.name.replacen("render::", "render::forward_plus_", 1)),
            ..v
        })
        .collect())
}

/// A verdict name built at run time (the names are `&'static str`; a few per run).
pub(crate) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Judges the views in `dir`.
pub fn judge(dir: &Path) -> Result<Vec<Verdict>> {
    let load = |n: &str| Image::load(&dir.join(format!("{n}.png")));
    let mut out = Vec::new();
    // The far half of the lake, above the shore: the aliased dots were there.
    let lake = load("lake_shore")?;
    let (c, n) = ripple_contrast(&lake, [0.0, 0.49, 0.7, 0.62]);
    out.push(Verdict {
        name: "render::water_no_moire",
        ok: n > 5000 && c < 4.0,
        detail: format!(
            "far-water ripple contrast {c:.2} over {n} water pixels (expected < 4.0 over > 5000)"
        ),
    });
    // Refraction: the lower half of the river view is water.
    let wet = load("river_low")?;
    let dry = load("river_low_dry")?;
    let water: Region = [0.1, 0.75, 0.9, 0.98];
    let diff = mean_difference(&wet, &dry, water);
    let corr = detail_correlation(&wet, &dry, water);
    out.push(Verdict {
        name: "render::water_refracts",
        ok: diff > 10.0 && corr > 0.05 && corr < 0.9,
        detail: format!(
            "water vs no water differ by {diff:.1} (expected > 10); the bed's detail shows through, displaced (high-pass correlation {corr:.2}, expected 0.05..0.9: 0 is an opaque sheet, 1 an undistorted overlay)"
        ),
    });
    out.push(underwater_tint(
        &load("underwater")?,
        &load("underwater_off")?,
        &load("above_water")?,
        &load("above_water_off")?,
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(w: usize, h: usize, f: impl Fn(usize, usize) -> [f32; 3]) -> Image {
        Image {
            w,
            h,
            rgb: (0..w * h).map(|i| f(i % w, i / w)).collect(),
        }
    }

    #[test]
    fn a_dot_pattern_has_high_ripple_contrast_and_a_smooth_sheet_none() {
        let dots = image(64, 64, |x, y| {
            if x % 4 == 0 && y % 3 == 0 {
                [200.0, 220.0, 255.0]
            } else {
                [20.0, 60.0, 140.0]
            }
        });
        let smooth = image(64, 64, |x, _| [20.0, 60.0, 140.0 + x as f32 * 0.2]);
        let all = [0.0, 0.0, 1.0, 1.0];
        assert!(ripple_contrast(&dots, all).0 > 10.0);
        assert!(ripple_contrast(&smooth, all).0 < 0.5);
        assert_eq!(
            ripple_contrast(&image(8, 8, |_, _| [200.0, 10.0, 10.0]), all).1,
            0
        );
    }

    #[test]
    fn difference_and_colour_statistics() {
        let a = image(16, 16, |_, _| [10.0, 20.0, 30.0]);
        let b = image(16, 16, |_, _| [13.0, 23.0, 33.0]);
        let all = [0.0, 0.0, 1.0, 1.0];
        assert!((mean_difference(&a, &b, all) - 3.0).abs() < 1e-9);
        assert_eq!(detail_correlation(&a, &b, all), 0.0);
        assert_eq!(mean_colour(&a, all), [10.0, 20.0, 30.0]);
        assert!(chroma_distance([10.0, 20.0, 30.0], [20.0, 40.0, 60.0]) < 1e-12);
        assert!(chroma_distance([10.0, 20.0, 30.0], [30.0, 20.0, 10.0]) > 0.3);
        assert!(local_contrast(&a, all) < 1e-3);
    }

    #[test]
    fn the_tint_check_fails_without_the_effect_and_passes_a_fogged_view() {
        // Near detail in the lower left, far detail on the right, like the demo's view.
        let detail = |x: usize, y: usize| if (x + y).is_multiple_of(2) { 60.0 } else { 0.0 };
        let off = image(40, 40, |x, y| {
            let d = detail(x, y);
            [110.0 + d, 110.0 + d, 100.0 + d]
        });
        let water = water_colour(2.0).map(|c| (c * 255.0) as f32);
        let on = image(40, 40, |x, y| {
            let near = x < 12 && y >= 24;
            let keep = if near { 0.5 } else { 0.0 };
            let p = off.px(x, y);
            std::array::from_fn(|k| water[k] + (p[k] - water[k]) * keep)
        });
        let above = image(40, 40, |_, _| [150.0, 160.0, 170.0]);
        assert!(!underwater_tint(&off, &off, &above, &above).ok);
        let v = underwater_tint(&on, &off, &above, &above);
        assert!(v.ok, "{}", v.detail);
        let tinted_above = image(40, 40, |_, _| [150.0, 170.0, 180.0]);
        assert!(!underwater_tint(&on, &off, &tinted_above, &above).ok);
    }
}
