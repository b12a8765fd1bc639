//! Heightmap PNGs: 16-bit greyscale read and write with an explicit height mapping.
//!
//! Reading accepts 16-bit and 8-bit greyscale (with or without alpha) and 8/16-bit RGB/RGBA
//! (the red channel is the height). Value 0 maps to `min`, the largest value of the bit depth
//! (65535 or 255) to `max`. Interlaced, palette and sub-8-bit images are refused with a clear
//! error, as are truncated or corrupt files.
//!
//! Quantising (seed 004): a height `h` is written as `v = round((h − min) / (max − min) · 65535)`
//! clamped to 0..=65535 and read back as `h = min + v / 65535 · (max − min)` (computed in f64,
//! stored as f32). [`write`] embeds the range in a `tEXt` chunk ([`RANGE_KEYWORD`]), so a
//! Ridgeline PNG carries its own mapping ([`embedded_range`]); other readers ignore the chunk.
//! Writing what was read with the same range gives the same bytes.

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
    let full = if bytes_per_sample == 2 { 65535 } else { 255 };
    // One dequantised height per sample value.
    let table: Vec<f32> = (0..=full)
        .map(|v| dequantise(v as f64, full as f64, min, max))
        .collect();
    let line = reader.info().raw_row_length() - 1;
    let mut heights = vec![0f32; w * h];
    {
        use rayon::prelude::*;
        heights
            .par_chunks_mut(w)
            .zip(buf.par_chunks(line))
            .for_each(|(out, row)| {
                let data = &row[..w * stride];
                for (o, px) in out.iter_mut().zip(data.chunks_exact(stride)) {
                    let v = if bytes_per_sample == 2 {
                        u16::from_be_bytes([px[0], px[1]]) as usize
                    } else {
                        px[0] as usize
                    };
                    *o = table[v];
                }
            });
    }
    Ok(HeightImage {
        width: w,
        depth: h,
        heights,
    })
}

/// `min + v / full · (max − min)`, computed in f64 (so `v = 0` gives `min` and `v = full` gives
/// `max` exactly).
#[inline]
pub fn dequantise(v: f64, full: f64, min: f32, max: f32) -> f32 {
    let (lo, hi) = (min as f64, max as f64);
    if v >= full {
        return max;
    }
    (lo + v / full * (hi - lo)) as f32
}

/// `round((h − min) / (max − min) · 65535)` clamped to 0..=65535 (f64).
#[inline]
pub fn quantise(h: f32, min: f32, max: f32) -> u16 {
    let (lo, hi) = (min as f64, max as f64);
    ((h as f64 - lo) / (hi - lo) * 65535.0)
        .round()
        .clamp(0.0, 65535.0) as u16
}

/// Keyword of the `tEXt` chunk holding the height range (`"<min> <max>"`, shortest f32 text).
pub const RANGE_KEYWORD: &str = "Ridgeline height range";

/// The height range a Ridgeline-written PNG embeds (`None` for other PNGs or unreadable data).
pub fn embedded_range(bytes: &[u8]) -> Option<(f32, f32)> {
    let reader = png::Decoder::new(Cursor::new(bytes)).read_info().ok()?;
    let chunk = reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .find(|c| c.keyword == RANGE_KEYWORD)?;
    let (a, b) = chunk.text.split_once(' ')?;
    let (min, max) = (a.parse::<f32>().ok()?, b.parse::<f32>().ok()?);
    (min.is_finite() && max.is_finite() && max > min).then_some((min, max))
}

/// Encodes heights as a 16-bit greyscale PNG; heights outside `[min, max]` are clamped. The
/// range is embedded ([`RANGE_KEYWORD`]). Compression: fdeflate's fast mode with adaptive
/// filtering (see `docs/formats.md` for the measured choice).
pub fn write(image: &HeightImage, min: f32, max: f32) -> Result<Vec<u8>> {
    check_range(min, max, "png")?;
    image.check("png")?;
    let mut out = Vec::with_capacity(image.heights.len());
    {
        let mut enc = png::Encoder::new(&mut out, image.width as u32, image.depth as u32);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Sixteen);
        enc.set_compression(COMPRESSION);
        enc.set_filter(FILTER);
        enc.add_text_chunk(RANGE_KEYWORD.to_string(), format!("{min} {max}"))
            .map_err(|e| Error::invalid("png", e.to_string()))?;
        let mut writer = enc
            .write_header()
            .map_err(|e| Error::invalid("png", e.to_string()))?;
        let mut data = vec![0u8; image.heights.len() * 2];
        {
            use rayon::prelude::*;
            data.par_chunks_mut(2 * 4096)
                .zip(image.heights.par_chunks(4096))
                .for_each(|(out, hs)| {
                    for (o, &h) in out.chunks_exact_mut(2).zip(hs) {
                        o.copy_from_slice(&quantise(h, min, max).to_be_bytes());
                    }
                });
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

/// Deflate setting of [`write`].
pub const COMPRESSION: png::Compression = png::Compression::Fast;
/// Row filter of [`write`].
pub const FILTER: png::Filter = png::Filter::Adaptive;

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
