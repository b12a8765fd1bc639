//! Turning a material canvas into 8-bit maps (sRGB albedo, OpenGL normal, height, roughness),
//! writing PNGs, and composing the contact sheet used to review the set.

use super::field::normals;
use super::paint::Canvas;
use anyhow::{Context, Result};
use std::path::Path;

/// The four maps of one material, 8 bits per channel.
pub struct Maps {
    /// Side length in pixels.
    pub size: usize,
    /// sRGB albedo, RGB.
    pub albedo: Vec<u8>,
    /// Tangent-space normal (OpenGL convention), RGB.
    pub normal: Vec<u8>,
    /// Blend height, grey.
    pub height: Vec<u8>,
    /// Roughness, grey.
    pub roughness: Vec<u8>,
}

fn unorm(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// Linear → sRGB transfer, 8 bits.
pub fn to_srgb(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * libm::powf(c, 1.0 / 2.4) - 0.055
    };
    unorm(s)
}

impl Maps {
    /// Quantises a canvas; the normal map comes from its height with `normal_strength`.
    pub fn from_canvas(c: &Canvas, normal_strength: f32) -> Self {
        let n = normals(&c.height, normal_strength);
        Maps {
            size: c.size,
            albedo: c.albedo.iter().flat_map(|p| p.map(to_srgb)).collect(),
            normal: n
                .iter()
                .flat_map(|v| v.map(|x| unorm(x * 0.5 + 0.5)))
                .collect(),
            height: c.height.data.iter().map(|&h| unorm(h)).collect(),
            roughness: c.rough.data.iter().map(|&r| unorm(r)).collect(),
        }
    }
}

/// PNG bytes of an 8-bit image with `channels` (1 grey, 3 RGB). Fixed encoder settings, so the
/// bytes depend only on the pixels.
pub fn png_bytes(width: usize, height: usize, channels: usize, data: &[u8]) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut buf, width as u32, height as u32);
        enc.set_color(match channels {
            1 => png::ColorType::Grayscale,
            _ => png::ColorType::Rgb,
        });
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header().context("png header")?;
        w.write_image_data(data).context("png data")?;
    }
    Ok(buf)
}

/// Writes `bytes` to `path` through a temporary file and a rename (no half-written PNG is ever
/// seen by a running Godot).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("png.tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// An RGB image under composition.
struct Sheet {
    w: usize,
    h: usize,
    rgb: Vec<u8>,
}

impl Sheet {
    fn put(&mut self, x: usize, y: usize, c: [u8; 3]) {
        let i = (y * self.w + x) * 3;
        self.rgb[i..i + 3].copy_from_slice(&c);
    }
}

/// The contact sheet: one column per material, rows = lit preview, lit 2 × 2 repeat (shows
/// seams and repetition), albedo, normal, height, roughness; `cell` pixels per tile.
pub fn contact_sheet(maps: &[Maps], cell: usize) -> Result<Vec<u8>> {
    const ROWS: usize = 6;
    const GAP: usize = 4;
    let w = maps.len() * (cell + GAP) + GAP;
    let h = ROWS * (cell + GAP) + GAP;
    let mut sheet = Sheet {
        w,
        h,
        rgb: vec![40; w * h * 3],
    };
    // Sun from the upper left of the image, as the contact sheet is read.
    let l = {
        let v = [-0.45f32, 0.55, 0.7];
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        [v[0] / len, v[1] / len, v[2] / len]
    };
    for (col, m) in maps.iter().enumerate() {
        let n = m.size;
        let ox = GAP + col * (cell + GAP);
        let lit = |sx: usize, sy: usize| -> [u8; 3] {
            let i = sy * n + sx;
            let nv = [
                m.normal[i * 3] as f32 / 127.5 - 1.0,
                m.normal[i * 3 + 1] as f32 / 127.5 - 1.0,
                m.normal[i * 3 + 2] as f32 / 127.5 - 1.0,
            ];
            let ndl = (nv[0] * l[0] + nv[1] * l[1] + nv[2] * l[2]).max(0.0);
            let k = 0.3 + 0.85 * ndl;
            let a = |c: u8| {
                let c = c as f32 / 255.0;
                let lin = if c <= 0.04045 {
                    c / 12.92
                } else {
                    libm::powf((c + 0.055) / 1.055, 2.4)
                };
                to_srgb(lin * k)
            };
            [
                a(m.albedo[i * 3]),
                a(m.albedo[i * 3 + 1]),
                a(m.albedo[i * 3 + 2]),
            ]
        };
        for row in 0..ROWS {
            let oy = GAP + row * (cell + GAP);
            for y in 0..cell {
                for x in 0..cell {
                    // Source pixel: the 2 × 2 row shows two repeats per axis.
                    let repeats = if row == 1 { 2 } else { 1 };
                    let sx = (x * n * repeats / cell) % n;
                    let sy = (y * n * repeats / cell) % n;
                    let i = sy * n + sx;
                    let c = match row {
                        0 | 1 => lit(sx, sy),
                        2 => [m.albedo[i * 3], m.albedo[i * 3 + 1], m.albedo[i * 3 + 2]],
                        3 => [m.normal[i * 3], m.normal[i * 3 + 1], m.normal[i * 3 + 2]],
                        4 => [m.height[i]; 3],
                        _ => [m.roughness[i]; 3],
                    };
                    sheet.put(ox + x, oy + y, c);
                }
            }
        }
    }
    png_bytes(sheet.w, sheet.h, 3, &sheet.rgb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_round_trip_endpoints() {
        assert_eq!(to_srgb(0.0), 0);
        assert_eq!(to_srgb(1.0), 255);
        assert_eq!(to_srgb(0.2158), 128);
    }
}
