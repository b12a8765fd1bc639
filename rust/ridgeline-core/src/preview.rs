//! Preview images: a hillshaded, height-coloured RGB picture of a heightfield.

use crate::error::{Error, Result};
use crate::heightfield::Heightfield;
use glam::Vec3;

/// Height colour ramp: (normalised height, RGB).
const RAMP: [(f32, [f32; 3]); 6] = [
    (0.0, [0.20, 0.36, 0.22]),
    (0.25, [0.36, 0.52, 0.26]),
    (0.5, [0.60, 0.58, 0.38]),
    (0.7, [0.52, 0.44, 0.36]),
    (0.88, [0.62, 0.60, 0.58]),
    (1.0, [0.96, 0.96, 0.98]),
];

fn ramp(t: f32) -> [f32; 3] {
    let t = t.clamp(0.0, 1.0);
    for w in RAMP.windows(2) {
        let ((a, ca), (b, cb)) = (w[0], w[1]);
        if t <= b {
            let k = (t - a) / (b - a);
            return [0, 1, 2].map(|i| ca[i] + (cb[i] - ca[i]) * k);
        }
    }
    RAMP[RAMP.len() - 1].1
}

/// RGB8 pixels (one per sample, row-major with Z down the image): colour by height, shaded by
/// a sun from the north-west. Hole cells' samples are drawn dark.
pub fn hillshade_rgb(field: &Heightfield) -> Vec<u8> {
    let [w, h] = field.grid().samples();
    let [lo, hi] = field.height_range();
    let span = (hi - lo).max(1e-6);
    let sun = Vec3::new(-1.0, 1.4, -1.0).normalize();
    let mut out = Vec::with_capacity(w * h * 3);
    for z in 0..h {
        for x in 0..w {
            let n = field.vertex_normal(x, z);
            let shade = 0.35 + 0.75 * n.dot(sun).max(0.0);
            let c = ramp((field.sample(x, z) - lo) / span);
            for ch in c {
                out.push(((ch * shade).clamp(0.0, 1.0) * 255.0).round() as u8);
            }
        }
    }
    out
}

/// Draws water over a preview: shallow-to-deep colour by depth, blended by the body's opacity.
pub fn draw_water(rgb: &mut [u8], field: &Heightfield, water: &crate::hydrology::water::WaterSet) {
    for (i, &owner) in water.owner.iter().enumerate() {
        if owner == 0 {
            continue;
        }
        let body = &water.bodies[owner as usize - 1];
        let a = &body.appearance;
        let depth = (water.surface[i] - field.heights()[i]).max(0.0);
        let k = 1.0 - (-depth / a.absorption_distance).exp();
        let c =
            [0, 1, 2, 3].map(|j| a.shallow_color[j] + (a.deep_color[j] - a.shallow_color[j]) * k);
        let alpha = c[3].clamp(0.3, 1.0);
        for ch in 0..3 {
            let base = rgb[i * 3 + ch] as f32 / 255.0;
            rgb[i * 3 + ch] =
                ((base * (1.0 - alpha) + c[ch] * alpha).clamp(0.0, 1.0) * 255.0).round() as u8;
        }
    }
}

/// Encodes RGB8 pixels as PNG.
pub fn encode_rgb_png(width: usize, height: usize, rgb: &[u8]) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut buf, width as u32, height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc
            .write_header()
            .map_err(|e| Error::invalid("preview.png", e.to_string()))?;
        wr.write_image_data(rgb)
            .map_err(|e| Error::invalid("preview.png", e.to_string()))?;
        wr.finish()
            .map_err(|e| Error::invalid("preview.png", e.to_string()))?;
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn preview_is_shaded_and_coloured_by_height() {
        let g = Grid::new([32.0, 32.0], [32, 32], 8).unwrap();
        let heights: Vec<f32> = (0..33 * 33)
            .map(|i| ((i % 33) as f32 * 0.3).sin() * 5.0 + (i / 33) as f32)
            .collect();
        let f = Heightfield::new(g, heights, None).unwrap();
        let rgb = hillshade_rgb(&f);
        assert_eq!(rgb.len(), 33 * 33 * 3);
        let distinct: std::collections::HashSet<_> = rgb.chunks(3).collect();
        assert!(distinct.len() > 50, "not flat");
        let png = encode_rgb_png(33, 33, &rgb).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
