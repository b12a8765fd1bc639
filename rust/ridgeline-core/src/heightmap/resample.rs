//! Resampling a decoded heightmap onto a grid inside a terrain-local placement rectangle.
//!
//! The image spans the rectangle corner to corner: pixel `(0, 0)` sits at the rectangle's
//! minimum corner, pixel `(width − 1, depth − 1)` at its maximum corner (image rows run along
//! +Z). A grid sample that falls exactly on a pixel (within 1e-9 pixel) takes that pixel's value
//! bit for bit, whatever the filter, so an image with one pixel per grid sample is copied exactly.
//! Between pixels: nearest, bilinear, or Catmull-Rom bicubic (which may overshoot the pixels'
//! range slightly, like every interpolating cubic). Edges clamp.

use super::HeightImage;

/// How values between pixels are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// The nearest pixel.
    Nearest,
    /// Linear along X and Z.
    Bilinear,
    /// Catmull-Rom cubic along X and Z (4 × 4 pixels).
    Bicubic,
}

impl Filter {
    /// The filter named `name` (`nearest`, `bilinear`, `bicubic`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "nearest" => Some(Filter::Nearest),
            "bilinear" => Some(Filter::Bilinear),
            "bicubic" => Some(Filter::Bicubic),
            _ => None,
        }
    }
}

/// Where one grid line falls in the image: the pixel index and fraction, or outside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tap {
    /// Pixel index (floor).
    pub index: usize,
    /// Fraction 0..1 towards the next pixel (exactly 0 on a pixel).
    pub frac: f32,
}

/// Image positions of `samples` grid lines `i · spacing` (i = 0..samples) for a rectangle
/// starting at `start` with length `length`, over an image axis of `pixels` pixels. `None`
/// outside the rectangle.
pub fn taps(
    samples: usize,
    spacing: f64,
    start: f64,
    length: f64,
    pixels: usize,
) -> Vec<Option<Tap>> {
    let last = (pixels - 1) as f64;
    (0..samples)
        .map(|i| {
            let p = i as f64 * spacing;
            let u = (p - start) / length * last;
            let snapped = u.round();
            let u = if (u - snapped).abs() < 1e-9 {
                snapped
            } else {
                u
            };
            if !(0.0..=last).contains(&u) {
                return None;
            }
            let index = (u.floor() as usize).min(pixels - 1);
            Some(Tap {
                index,
                frac: (u - index as f64) as f32,
            })
        })
        .collect()
}

fn catmull_rom(t: f32) -> [f32; 4] {
    let t2 = t * t;
    let t3 = t2 * t;
    [
        0.5 * (-t3 + 2.0 * t2 - t),
        0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
        0.5 * (-3.0 * t3 + 4.0 * t2 + t),
        0.5 * (t3 - t2),
    ]
}

/// The image value at column tap `x` and row tap `z` with `filter`.
#[inline]
pub fn sample(image: &HeightImage, filter: Filter, x: Tap, z: Tap) -> f32 {
    let (w, d) = (image.width, image.depth);
    let h = &image.heights;
    let at = |i: usize, j: usize| h[j.min(d - 1) * w + i.min(w - 1)];
    if x.frac == 0.0 && z.frac == 0.0 {
        return at(x.index, z.index);
    }
    match filter {
        Filter::Nearest => {
            let i = x.index + (x.frac >= 0.5) as usize;
            let j = z.index + (z.frac >= 0.5) as usize;
            at(i, j)
        }
        Filter::Bilinear => {
            let (i, j) = (x.index, z.index);
            let a = at(i, j) + (at(i + 1, j) - at(i, j)) * x.frac;
            let b = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * x.frac;
            a + (b - a) * z.frac
        }
        Filter::Bicubic => {
            let wx = catmull_rom(x.frac);
            let wz = catmull_rom(z.frac);
            let mut acc = 0.0f32;
            for (dj, &wzj) in wz.iter().enumerate() {
                let j = (z.index + dj).saturating_sub(1);
                let mut row = 0.0f32;
                for (di, &wxi) in wx.iter().enumerate() {
                    let i = (x.index + di).saturating_sub(1);
                    row += at(i, j) * wxi;
                }
                acc += row * wzj;
            }
            acc
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image() -> HeightImage {
        HeightImage {
            width: 4,
            depth: 3,
            heights: (0..12).map(|i| (i * i) as f32 * 0.5 - 3.0).collect(),
        }
    }

    #[test]
    fn aligned_samples_copy_pixels_exactly_with_every_filter() {
        let img = image();
        // A grid with one sample per pixel over a 3 × 2 m rectangle at the origin.
        let xs = taps(4, 1.0, 0.0, 3.0, 4);
        let zs = taps(3, 1.0, 0.0, 2.0, 3);
        for f in [Filter::Nearest, Filter::Bilinear, Filter::Bicubic] {
            for (j, z) in zs.iter().enumerate() {
                for (i, x) in xs.iter().enumerate() {
                    let v = sample(&img, f, x.unwrap(), z.unwrap());
                    assert_eq!(v.to_bits(), img.heights[j * 4 + i].to_bits());
                }
            }
        }
        // Awkward spacings still land exactly on pixels.
        let xs = taps(4097, 1000.0 / 4096.0, 0.0, 1000.0, 4097);
        assert!(xs.iter().all(|t| t.unwrap().frac == 0.0));
    }

    #[test]
    fn between_pixels_bilinear_is_linear_and_bicubic_reproduces_a_ramp() {
        let ramp = HeightImage {
            width: 5,
            depth: 2,
            heights: (0..10).map(|i| (i % 5) as f32 * 2.0).collect(),
        };
        let x = Tap {
            index: 1,
            frac: 0.25,
        };
        let z = Tap {
            index: 0,
            frac: 0.5,
        };
        assert_eq!(sample(&ramp, Filter::Bilinear, x, z), 2.5);
        assert!((sample(&ramp, Filter::Bicubic, x, z) - 2.5).abs() < 1e-5);
        assert_eq!(sample(&ramp, Filter::Nearest, x, z), 2.0);
    }

    #[test]
    fn outside_the_rectangle_is_none() {
        let t = taps(5, 1.0, 1.0, 2.0, 3);
        assert!(t[0].is_none() && t[4].is_none());
        assert_eq!(
            t[1],
            Some(Tap {
                index: 0,
                frac: 0.0
            })
        );
        assert_eq!(
            t[2],
            Some(Tap {
                index: 1,
                frac: 0.0
            })
        );
        assert_eq!(
            t[3],
            Some(Tap {
                index: 2,
                frac: 0.0
            })
        );
    }
}
