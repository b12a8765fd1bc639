//! Brush shape: radius, strength, falloff, optional slope limits and an optional mask image.
//!
//! The weight of a sample at distance `d` from a stamp's centre is
//! `strength · fade(d / radius) · mask · slope_pass`, where `fade` is 1 up to `falloff` (a
//! fraction of the radius), then a smoothstep down to 0 at the radius (a hard edge when
//! `falloff` is 1). Circle brushes measure Euclidean distance, square ones the larger axis
//! distance. A mask image covers the brush's bounding square (nearest sample, values 0–1).
//! Slope limits skip samples whose slope (degrees, from the surface the stamp reads) lies outside.

use std::sync::Arc;

/// Loads mask images by reference (a file loader is `formats::mask::file_mask_loader`).
pub type MaskLoader =
    Arc<dyn Fn(&str) -> std::result::Result<Arc<MaskImage>, String> + Send + Sync>;

/// A greyscale brush mask, values 0–1, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct MaskImage {
    /// Pixels along X.
    pub width: usize,
    /// Pixels along Z.
    pub depth: usize,
    /// Values 0–1.
    pub values: Vec<f32>,
}

impl MaskImage {
    /// Nearest value at brush-square coordinates `u, v` in `[0, 1]`.
    pub fn sample(&self, u: f32, v: f32) -> f32 {
        let x = ((u * self.width as f32) as usize).min(self.width - 1);
        let z = ((v * self.depth as f32) as usize).min(self.depth - 1);
        self.values[z * self.width + x]
    }
}

/// Brush footprint shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Euclidean distance (the default).
    Circle,
    /// Larger axis distance.
    Square,
    /// A mask image over the bounding square, combined with the circular fade; the string is
    /// the reference as written in the stroke.
    Image(String, Arc<MaskImage>),
}

/// Shared brush settings of a stroke.
#[derive(Clone, Debug, PartialEq)]
pub struct Brush {
    /// Radius in world units (> 0).
    pub radius: f32,
    /// 0–1.
    pub strength: f32,
    /// Fraction of the radius where the fade starts, 0–1.
    pub falloff: f32,
    /// Allowed slope band in degrees, when limited.
    pub slope: Option<[f32; 2]>,
    /// Footprint shape.
    pub shape: Shape,
}

impl Brush {
    /// The geometric part of the weight (fade × mask), without strength and slope, at offset
    /// `(ox, oz)` from the stamp centre. 0 outside the footprint.
    #[inline]
    pub fn fade(&self, ox: f32, oz: f32) -> f32 {
        let r = self.radius;
        let t = match self.shape {
            Shape::Square => ox.abs().max(oz.abs()) / r,
            _ => (ox * ox + oz * oz).sqrt() / r,
        };
        if t > 1.0 {
            return 0.0;
        }
        let mut f = if t <= self.falloff {
            1.0
        } else {
            let s = (t - self.falloff) / (1.0 - self.falloff);
            1.0 - s * s * (3.0 - 2.0 * s)
        };
        if let Shape::Image(_, img) = &self.shape {
            f *= img.sample((ox / r + 1.0) * 0.5, (oz / r + 1.0) * 0.5);
        }
        f
    }

    /// True when `slope_degrees` passes the slope limits.
    #[inline]
    pub fn slope_pass(&self, slope_degrees: f32) -> bool {
        self.slope
            .is_none_or(|[lo, hi]| slope_degrees >= lo && slope_degrees <= hi)
    }

    /// Samples the brush reads around each written sample for its slope limits.
    pub fn slope_reads(&self) -> usize {
        usize::from(self.slope.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brush(falloff: f32, shape: Shape) -> Brush {
        Brush {
            radius: 10.0,
            strength: 1.0,
            falloff,
            slope: None,
            shape,
        }
    }

    #[test]
    fn fade_is_flat_inside_the_falloff_and_zero_at_the_edge() {
        let b = brush(0.5, Shape::Circle);
        assert_eq!(b.fade(0.0, 0.0), 1.0);
        assert_eq!(b.fade(5.0, 0.0), 1.0);
        assert!((b.fade(7.5, 0.0) - 0.5).abs() < 1e-6);
        assert_eq!(b.fade(10.0, 0.0), 0.0);
        assert_eq!(b.fade(10.01, 0.0), 0.0);
        let hard = brush(1.0, Shape::Circle);
        assert_eq!(hard.fade(10.0, 0.0), 1.0);
        let square = brush(1.0, Shape::Square);
        assert_eq!(square.fade(9.0, 9.0), 1.0);
        assert_eq!(hard.fade(9.0, 9.0), 0.0);
    }

    #[test]
    fn mask_image_scales_the_fade() {
        let img = MaskImage {
            width: 2,
            depth: 1,
            values: vec![0.0, 1.0],
        };
        let b = brush(1.0, Shape::Image("m.png".into(), Arc::new(img)));
        assert_eq!(b.fade(-5.0, 0.0), 0.0);
        assert_eq!(b.fade(5.0, 0.0), 1.0);
    }

    #[test]
    fn slope_limits() {
        let mut b = brush(0.5, Shape::Circle);
        assert!(b.slope_pass(80.0));
        b.slope = Some([10.0, 30.0]);
        assert!(b.slope_pass(20.0) && !b.slope_pass(5.0) && !b.slope_pass(31.0));
        assert_eq!(b.slope_reads(), 1);
    }
}
