//! A wrapping canvas of height, colour and roughness onto which the material recipes stamp
//! small shapes (grass blades, stones, clods). Stamps are painted with a height test: a pixel
//! takes a stamp's colour only where the stamp stands higher than what is already there, so
//! overlapping blades and pebbles occlude each other like real ones.

use super::field::Field;

/// Height, linear albedo and roughness of one material, all periodic.
pub struct Canvas {
    /// Side length in pixels.
    pub size: usize,
    /// Blend height in [0, 1] (also the relief the normal map is derived from).
    pub height: Field,
    /// Linear RGB albedo.
    pub albedo: Vec<[f32; 3]>,
    /// Perceptual roughness in [0, 1].
    pub rough: Field,
}

/// A stamp's cross-section: the height it adds at normalised radius² `r2` (0 centre, 1 rim)
/// and position `t` along its length (-1 root … 1 tip).
#[derive(Clone, Copy)]
pub enum Profile {
    /// A rounded dome (stones, clods, pebbles).
    Dome,
    /// A blade: flat across, rising from root to tip (grass seen from above).
    Blade,
}

/// One stamp: an ellipse (or blade) centred at `(x, y)` pixels with half-lengths `(rx, ry)`,
/// rotated by `angle`, standing from `base` to `base + peak`.
#[derive(Clone, Copy)]
pub struct Stamp {
    /// Centre, pixels.
    pub x: f32,
    /// Centre, pixels.
    pub y: f32,
    /// Half-length along the stamp's own axis, pixels.
    pub rx: f32,
    /// Half-width across it, pixels.
    pub ry: f32,
    /// Rotation in radians.
    pub angle: f32,
    /// Height at the stamp's foot.
    pub base: f32,
    /// Height added at the top.
    pub peak: f32,
    /// Linear colour.
    pub color: [f32; 3],
    /// Roughness.
    pub rough: f32,
    /// Shape.
    pub profile: Profile,
}

impl Canvas {
    /// A flat canvas of one colour and roughness.
    pub fn new(size: usize, color: [f32; 3], rough: f32) -> Self {
        let mut r = Field::new(size);
        r.data.fill(rough);
        Canvas {
            size,
            height: Field::new(size),
            albedo: vec![color; size * size],
            rough: r,
        }
    }

    /// Paints one stamp (wrapping at the edges).
    pub fn stamp(&mut self, s: &Stamp) {
        let n = self.size as i64;
        // libm: the same bits on every platform (std defers to the system maths library).
        let (sin, cos) = (libm::sinf(s.angle), libm::cosf(s.angle));
        let reach = s.rx.max(s.ry).ceil() as i64 + 1;
        let cx = s.x.floor() as i64;
        let cy = s.y.floor() as i64;
        for py in cy - reach..=cy + reach {
            for px in cx - reach..=cx + reach {
                let dx = px as f32 + 0.5 - s.x;
                let dy = py as f32 + 0.5 - s.y;
                // Into the stamp's frame: a along its axis, b across.
                let a = (dx * cos + dy * sin) / s.rx;
                let b = (-dx * sin + dy * cos) / s.ry;
                let (h, inside) = match s.profile {
                    Profile::Dome => {
                        let r2 = a * a + b * b;
                        (s.base + s.peak * (1.0 - r2).max(0.0).sqrt(), r2 < 1.0)
                    }
                    Profile::Blade => {
                        // Tapered towards the tip (a = 1): half-width shrinks linearly.
                        let t = a.clamp(-1.0, 1.0);
                        let half = 1.0 - 0.75 * (t * 0.5 + 0.5);
                        let across = b.abs() / half;
                        let rise = 0.5 + 0.5 * t;
                        (
                            s.base + s.peak * rise * (1.0 - across * across * 0.3),
                            a.abs() < 1.0 && across < 1.0,
                        )
                    }
                };
                if !inside {
                    continue;
                }
                let i = (py.rem_euclid(n) * n + px.rem_euclid(n)) as usize;
                if h > self.height.data[i] {
                    self.height.data[i] = h;
                    let shade = match s.profile {
                        // Blades darken towards the root (self-shadowing in the turf).
                        Profile::Blade => 0.55 + 0.45 * (0.5 + 0.5 * a.clamp(-1.0, 1.0)),
                        Profile::Dome => 1.0,
                    };
                    self.albedo[i] = [s.color[0] * shade, s.color[1] * shade, s.color[2] * shade];
                    self.rough.data[i] = s.rough;
                }
            }
        }
    }
}

/// Linear-space colour from 8-bit sRGB components (authoring convenience).
pub fn srgb(r: u8, g: u8, b: u8) -> [f32; 3] {
    [to_linear(r), to_linear(g), to_linear(b)]
}

fn to_linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        libm::powf((c + 0.055) / 1.055, 2.4)
    }
}

/// Linear interpolation between two colours.
pub fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// A colour scaled by `k`.
pub fn scale(c: [f32; 3], k: f32) -> [f32; 3] {
    [c[0] * k, c[1] * k, c[2] * k]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn higher_stamps_win_and_wrap() {
        let mut c = Canvas::new(32, [0.0; 3], 1.0);
        let base = Stamp {
            x: 0.5,
            y: 16.0,
            rx: 4.0,
            ry: 4.0,
            angle: 0.0,
            base: 0.0,
            peak: 0.5,
            color: [1.0, 0.0, 0.0],
            rough: 0.5,
            profile: Profile::Dome,
        };
        c.stamp(&base);
        // The dome centred on the left edge shows on the right edge too.
        assert!(c.height.data[16 * 32 + 31] > 0.0);
        assert_eq!(c.albedo[16 * 32 + 31], [1.0, 0.0, 0.0]);
        // A lower stamp does not cover it; a higher one does.
        c.stamp(&Stamp {
            peak: 0.1,
            color: [0.0, 1.0, 0.0],
            ..base
        });
        assert_eq!(c.albedo[16 * 32], [1.0, 0.0, 0.0]);
        c.stamp(&Stamp {
            peak: 0.9,
            color: [0.0, 0.0, 1.0],
            ..base
        });
        assert_eq!(c.albedo[16 * 32], [0.0, 0.0, 1.0]);
    }
}
