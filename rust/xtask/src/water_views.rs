//! The water render checks: `tests/render/water_views.gd` renders the demo from a few metres
//! above the river and a lake (and below the lake surface) under Xvfb (OpenGL 3) into
//! `target/water-views/`; these image statistics judge the pictures.
//!
//! - `render::water_no_moire`: the far water of `lake_shore` has no high-contrast regular dot
//!   pattern (the aliased wave normals drew one): the mean absolute difference between a
//!   pixel's luminance and its 5 × 5 neighbourhood stays low.
//! - `render::water_refracts`: `river_low` differs from `river_low_dry` (the same view without
//!   water) over the water, yet keeps the bed's detail there (the water is not an opaque sheet).

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
    let (mut sum, mut n) = (0.0f64, 0usize);
    for (x, y) in pixels(img, r) {
        if !is_water(img.px(x, y)) {
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
    }
}
