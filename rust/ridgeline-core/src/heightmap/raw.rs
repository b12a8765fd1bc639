//! Raw heightmaps: R16 (unsigned 16-bit little endian, mapped to `[min, max]`) and R32
//! (IEEE f32 little endian, heights as-is). Dimensions are explicit (or inferred for a square
//! file, [`square_side`]); row-major, Z outer. R16 quantises like the 16-bit PNG
//! ([`super::png16::quantise`], [`super::png16::dequantise`]).

use super::{HeightImage, check_dimensions};
use crate::error::{Error, Result};

fn check_len(bytes: &[u8], width: usize, depth: usize, per: usize, path: &str) -> Result<()> {
    check_dimensions(width, depth, path)?;
    let want = width * depth * per;
    if bytes.len() != want {
        return Err(Error::invalid(
            path,
            format!(
                "a {width} × {depth} raw file with {per} bytes per sample has {want} bytes, this one has {}",
                bytes.len()
            ),
        ));
    }
    Ok(())
}

/// The side of a square raw file of `len` bytes with `per` bytes per sample, when there is one.
pub fn square_side(len: usize, per: usize) -> Option<usize> {
    if per == 0 || !len.is_multiple_of(per) {
        return None;
    }
    let n = len / per;
    let side = (n as f64).sqrt().round() as usize;
    (side * side == n).then_some(side)
}

/// Reads R16: 0 maps to `min`, 65535 to `max`.
pub fn read_r16(
    bytes: &[u8],
    width: usize,
    depth: usize,
    min: f32,
    max: f32,
    path: &str,
) -> Result<HeightImage> {
    if !min.is_finite() || !max.is_finite() || max <= min {
        return Err(Error::invalid(
            path,
            format!("height mapping needs finite min < max, got min {min}, max {max}"),
        ));
    }
    check_len(bytes, width, depth, 2, path)?;
    let heights = bytes
        .chunks_exact(2)
        .map(|b| {
            super::png16::dequantise(u16::from_le_bytes([b[0], b[1]]) as f64, 65535.0, min, max)
        })
        .collect();
    Ok(HeightImage {
        width,
        depth,
        heights,
    })
}

/// Writes R16; heights outside `[min, max]` are clamped.
pub fn write_r16(image: &HeightImage, min: f32, max: f32) -> Result<Vec<u8>> {
    image.check("r16")?;
    if !min.is_finite() || !max.is_finite() || max <= min {
        return Err(Error::invalid(
            "r16",
            format!("height mapping needs finite min < max, got min {min}, max {max}"),
        ));
    }
    Ok(image
        .heights
        .iter()
        .flat_map(|&h| super::png16::quantise(h, min, max).to_le_bytes())
        .collect())
}

/// Reads R32 (f32 little endian); every height must be finite.
pub fn read_r32(bytes: &[u8], width: usize, depth: usize, path: &str) -> Result<HeightImage> {
    check_len(bytes, width, depth, 4, path)?;
    let image = HeightImage {
        width,
        depth,
        heights: bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    };
    image.check(path)?;
    Ok(image)
}

/// Writes R32 (f32 little endian).
pub fn write_r32(image: &HeightImage) -> Result<Vec<u8>> {
    image.check("r32")?;
    Ok(image.heights.iter().flat_map(|h| h.to_le_bytes()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r32_round_trip_is_bit_exact() {
        let img = HeightImage {
            width: 3,
            depth: 2,
            heights: vec![0.1, -7.25, 1e6, 3.3, -0.0, 42.0],
        };
        let back = read_r32(&write_r32(&img).unwrap(), 3, 2, "a.r32").unwrap();
        assert_eq!(
            back.heights.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
            img.heights.iter().map(|h| h.to_bits()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn r16_round_trip_within_one_step() {
        let img = HeightImage {
            width: 4,
            depth: 2,
            heights: vec![-10.0, 0.0, 10.0, 3.3, 7.7, -9.99, 9.99, 1.0],
        };
        let bytes = write_r16(&img, -10.0, 10.0).unwrap();
        let back = read_r16(&bytes, 4, 2, -10.0, 10.0, "a.r16").unwrap();
        for (a, b) in img.heights.iter().zip(&back.heights) {
            assert!((a - b).abs() <= 20.0 / 65535.0);
        }
        assert_eq!(write_r16(&back, -10.0, 10.0).unwrap(), bytes);
    }

    #[test]
    fn square_sides_are_inferred_only_for_square_files() {
        assert_eq!(square_side(4097 * 4097 * 2, 2), Some(4097));
        assert_eq!(square_side(16, 4), Some(2));
        assert_eq!(square_side(24, 4), None);
        assert_eq!(square_side(15, 2), None);
    }

    #[test]
    fn bad_raw_input_is_located() {
        assert!(
            read_r32(&[0; 15], 2, 2, "x.r32")
                .unwrap_err()
                .to_string()
                .contains("16 bytes, this one has 15")
        );
        let nan = [f32::NAN.to_le_bytes(), [0; 4], [0; 4], [0; 4]].concat();
        assert_eq!(
            read_r32(&nan, 2, 2, "x.r32").unwrap_err().diagnostics()[0].path,
            "x.r32[0]"
        );
        assert!(read_r16(&[0; 8], 1, 4, 0.0, 1.0, "y.r16").is_err());
        assert!(read_r16(&[0; 8], 2, 2, 1.0, 0.0, "y.r16").is_err());
        assert!(read_r16(&[0; 8], 100_000, 2, 0.0, 1.0, "y.r16").is_err());
    }
}
