//! Heightmap PNGs: 16-bit greyscale read and write with an explicit height mapping.
//!
//! Reading accepts 16-bit and 8-bit greyscale (with or without alpha) and 8/16-bit RGB/RGBA
//! (the red channel is the height). Value 0 maps to `min`, the largest value of the bit depth
//! (65535 or 255) to `max`. Interlaced, palette and sub-8-bit images are refused with a clear
//! error, as are truncated or corrupt files.

use super::HeightImage;
use crate::error::{Error, Result};
use crate::grid::MAX_CELLS_PER_AXIS;
use std::io::Cursor;

fn check_range(min: f32, max: f32, path: &str) -> Result<()> {
    if !min.is_finite() || !max.is_finite() || max <= min {
        return Err(Error::invalid(
            path,
            format!("height mapping needs finite min < max, got min {min}, max {max}"),
        ));
    }
    Ok(())
}

/// Decodes a heightmap PNG from `bytes`; `path` names the source in errors.
pub fn read(bytes: &[u8], min: f32, max: f32, path: &str) -> Result<HeightImage> {
    read_limited(bytes, min, max, path, MAX_CELLS_PER_AXIS as usize + 1)
}

/// [`read`] refusing images with a side longer than `max_side` pixels before decoding them.
pub fn read_limited(
    bytes: &[u8],
    min: f32,
    max: f32,
    path: &str,
    max_side: usize,
) -> Result<HeightImage> {
    check_range(min, max, path)?;
    let bad = |m: String| Error::invalid(path, m);
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder
        .read_info()
        .map_err(|e| bad(format!("not a readable PNG ({e})")))?;
    let info = reader.info();
    let (w, h) = (info.width as usize, info.height as usize);
    if info.interlaced {
        return Err(bad(
            "interlaced PNGs are not supported; re-save the heightmap without interlacing".into(),
        ));
    }
    let max_side = max_side.min(MAX_CELLS_PER_AXIS as usize + 1);
    if w < 2 || h < 2 || w > max_side || h > max_side {
        return Err(bad(format!(
            "heightmap is {w} × {h} pixels; each side must be 2..={max_side}"
        )));
    }
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => {
            return Err(bad(
                "palette PNGs cannot hold heights; use 16-bit greyscale".into(),
            ));
        }
    };
    let bytes_per_sample = match info.bit_depth {
        png::BitDepth::Sixteen => 2,
        png::BitDepth::Eight => 1,
        d => {
            return Err(bad(format!(
                "{d:?}-bit samples are too coarse for heights; use 16-bit greyscale"
            )));
        }
    };
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| bad("image too large".into()))?;
    let mut buf = vec![0u8; size];
    reader
        .next_frame(&mut buf)
        .map_err(|e| bad(format!("truncated or corrupt image data ({e})")))?;
    let stride = channels * bytes_per_sample;
    let scale = if bytes_per_sample == 2 {
        65535.0
    } else {
        255.0
    };
    let line = reader.info().raw_row_length() - 1;
    let mut heights = Vec::with_capacity(w * h);
    for row in 0..h {
        let data = &buf[row * line..row * line + w * stride];
        for px in data.chunks_exact(stride) {
            let v = if bytes_per_sample == 2 {
                u16::from_be_bytes([px[0], px[1]]) as f32
            } else {
                px[0] as f32
            };
            heights.push(min + (max - min) * (v / scale));
        }
    }
    Ok(HeightImage {
        width: w,
        depth: h,
        heights,
    })
}

/// Encodes heights as a 16-bit greyscale PNG; heights outside `[min, max]` are clamped.
pub fn write(image: &HeightImage, min: f32, max: f32) -> Result<Vec<u8>> {
    check_range(min, max, "png")?;
    image.check("png")?;
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, image.width as u32, image.depth as u32);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Sixteen);
        let mut writer = enc
            .write_header()
            .map_err(|e| Error::invalid("png", e.to_string()))?;
        let mut data = Vec::with_capacity(image.heights.len() * 2);
        for &hgt in &image.heights {
            let v = ((hgt - min) / (max - min) * 65535.0)
                .round()
                .clamp(0.0, 65535.0) as u16;
            data.extend_from_slice(&v.to_be_bytes());
        }
        writer
            .write_image_data(&data)
            .map_err(|e| Error::invalid("png", e.to_string()))?;
        writer
            .finish()
            .map_err(|e| Error::invalid("png", e.to_string()))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(w: usize, h: usize) -> HeightImage {
        HeightImage {
            width: w,
            depth: h,
            heights: (0..w * h).map(|i| (i as f32 * 0.37).sin() * 50.0).collect(),
        }
    }

    #[test]
    fn round_trip_within_one_step() {
        let img = ramp(37, 21);
        let bytes = write(&img, -50.0, 50.0).unwrap();
        let back = read(&bytes, -50.0, 50.0, "t.png").unwrap();
        assert_eq!((back.width, back.depth), (37, 21));
        let step = 100.0 / 65535.0;
        for (a, b) in img.heights.iter().zip(&back.heights) {
            assert!((a - b).abs() <= step / 2.0 + 1e-5);
        }
        // Writing what was read gives identical bytes.
        assert_eq!(write(&back, -50.0, 50.0).unwrap(), bytes);
    }

    fn encode(w: u32, h: u32, color: png::ColorType, depth: png::BitDepth, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(color);
        enc.set_depth(depth);
        let mut wr = enc.write_header().unwrap();
        wr.write_image_data(data).unwrap();
        wr.finish().unwrap();
        out
    }

    #[test]
    fn reads_8bit_grey_and_16bit_rgba_via_red() {
        let grey = encode(
            2,
            2,
            png::ColorType::Grayscale,
            png::BitDepth::Eight,
            &[0, 255, 51, 102],
        );
        let img = read(&grey, 0.0, 255.0, "g.png").unwrap();
        assert_eq!(img.heights, vec![0.0, 255.0, 51.0, 102.0]);
        let mut rgba = Vec::new();
        for v in [0u16, 65535, 32768, 1] {
            rgba.extend_from_slice(&v.to_be_bytes());
            rgba.extend_from_slice(&[9, 9, 9, 9, 255, 255]);
        }
        let img = read(
            &encode(2, 2, png::ColorType::Rgba, png::BitDepth::Sixteen, &rgba),
            0.0,
            65535.0,
            "c.png",
        )
        .unwrap();
        assert_eq!(img.heights, vec![0.0, 65535.0, 32768.0, 1.0]);
    }

    #[test]
    fn refuses_bad_images_with_located_errors() {
        let good = write(&ramp(8, 8), 0.0, 1.0).unwrap();
        let e = read(&good[..good.len() / 2], 0.0, 1.0, "half.png").unwrap_err();
        assert!(e.to_string().starts_with("half.png: "), "{e}");
        assert!(read(b"not a png at all", 0.0, 1.0, "x.png").is_err());
        assert!(
            read(&good, 1.0, 1.0, "x.png")
                .unwrap_err()
                .to_string()
                .contains("min < max")
        );
        let pal = {
            let mut out = Vec::new();
            let mut enc = png::Encoder::new(&mut out, 2, 2);
            enc.set_color(png::ColorType::Indexed);
            enc.set_palette(vec![0, 0, 0, 255, 255, 255]);
            let mut wr = enc.write_header().unwrap();
            wr.write_image_data(&[0, 1, 1, 0]).unwrap();
            wr.finish().unwrap();
            out
        };
        assert!(
            read(&pal, 0.0, 1.0, "p.png")
                .unwrap_err()
                .to_string()
                .contains("palette")
        );
        let tiny = encode(
            1,
            1,
            png::ColorType::Grayscale,
            png::BitDepth::Sixteen,
            &[0, 0],
        );
        assert!(
            read(&tiny, 0.0, 1.0, "t.png")
                .unwrap_err()
                .to_string()
                .contains("2..=")
        );
    }

    /// A PNG written by another encoder (Python's zlib + struct, standard library only).
    #[test]
    fn reads_png_from_another_encoder() {
        let dir = std::env::temp_dir().join(format!("ridgeline-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("py.png");
        let script = r#"
import struct, zlib, sys
w, h = 3, 2
vals = [0, 1000, 65535, 30000, 12345, 54321]
raw = b''
for y in range(h):
    raw += b'\x00' + b''.join(struct.pack('>H', v) for v in vals[y*w:(y+1)*w])
def chunk(t, d):
    c = struct.pack('>I', len(d)) + t + d
    return c + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 0, 0, 0, 0))
png += chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
open(sys.argv[1], 'wb').write(png)
"#;
        let status = std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&path)
            .status();
        let Ok(status) = status else {
            eprintln!("python3 not available; skipping the foreign-encoder check");
            return;
        };
        assert!(status.success());
        let img = read(&std::fs::read(&path).unwrap(), 0.0, 65535.0, "py.png").unwrap();
        assert_eq!(
            img.heights,
            vec![0.0, 1000.0, 65535.0, 30000.0, 12345.0, 54321.0]
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
