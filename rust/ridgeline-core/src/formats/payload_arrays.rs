//! The per-sample arrays of a cooked payload, converted and checked on rayon's threads.
//!
//! A 4 km map carries 86–220 MB of little-endian samples (payload version 7 or 6);
//! converting and validating them one after another was most of its load. Every function here
//! gives exactly what the serial loop gives (the same values, the first offending index), only
//! split across threads.

use rayon::prelude::*;

/// Samples per rayon task: each task runs the plain (vectorised) loop over its block.
const BLOCK: usize = 1 << 16;

/// Little-endian `f32`s.
pub(super) fn f32s(bytes: &[u8]) -> Vec<f32> {
    let mut out = vec![0.0f32; bytes.len() / 4];
    out.par_chunks_mut(BLOCK)
        .zip(bytes.par_chunks(BLOCK * 4))
        .for_each(|(o, b)| {
            for (v, c) in o.iter_mut().zip(b.chunks_exact(4)) {
                *v = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
        });
    out
}

/// Little-endian `u16`s.
pub(super) fn u16s(bytes: &[u8]) -> Vec<u16> {
    let mut out = vec![0u16; bytes.len() / 2];
    out.par_chunks_mut(BLOCK)
        .zip(bytes.par_chunks(BLOCK * 2))
        .for_each(|(o, b)| {
            for (v, c) in o.iter_mut().zip(b.chunks_exact(2)) {
                *v = u16::from_le_bytes([c[0], c[1]]);
            }
        });
    out
}

/// Index of the first value for which `bad` holds.
pub(super) fn first<T: Sync>(values: &[T], bad: impl Fn(&T) -> bool + Sync) -> Option<usize> {
    values
        .par_chunks(BLOCK)
        .enumerate()
        .find_map_first(|(k, block)| block.iter().position(&bad).map(|i| k * BLOCK + i))
}

/// Index and value of the first little-endian `u16` in `bytes` for which `bad` holds.
pub(super) fn first_u16(bytes: &[u8], bad: impl Fn(u16) -> bool + Sync) -> Option<(usize, u16)> {
    bytes
        .par_chunks(BLOCK * 2)
        .enumerate()
        .find_map_first(|(k, block)| {
            block
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .enumerate()
                .find(|&(_, v)| bad(v))
                .map(|(i, v)| (k * BLOCK + i, v))
        })
}

/// Appends `values` as little-endian `f32`s (filled in blocks on rayon's threads).
pub(super) fn put_f32s(out: &mut Vec<u8>, values: &[f32]) {
    put(out, values, |x| x.to_le_bytes());
}

/// Appends `values` as little-endian `u16`s (filled in blocks on rayon's threads).
pub(super) fn put_u16s(out: &mut Vec<u8>, values: &[u16]) {
    put(out, values, |x| x.to_le_bytes());
}

/// Appends `values`, each as the `N` bytes `le` gives, in blocks on rayon's threads.
fn put<T: Sync, const N: usize>(
    out: &mut Vec<u8>,
    values: &[T],
    le: impl Fn(&T) -> [u8; N] + Sync,
) {
    let start = out.len();
    out.resize(start + values.len() * N, 0);
    out[start..]
        .par_chunks_mut(BLOCK * N)
        .zip(values.par_chunks(BLOCK))
        .for_each(|(o, v)| {
            for (c, x) in o.chunks_exact_mut(N).zip(v) {
                c.copy_from_slice(&le(x));
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_and_searches_match_the_serial_loops() {
        let n = 3 * BLOCK + 17;
        let values: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin() * 900.0).collect();
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let back = f32s(&bytes);
        assert!(
            back.iter()
                .zip(&values)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        assert_eq!(back.len(), n);
        let mut words: Vec<u16> = (0..n).map(|i| (i * 7919 % 60_000) as u16).collect();
        // The first offending value in the third block, another in the fourth.
        words[2 * BLOCK + 5] = 65_000;
        words[3 * BLOCK + 1] = 65_001;
        let wbytes: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(u16s(&wbytes), words);
        let bad = |w: u16| w >= 65_000;
        assert_eq!(first_u16(&wbytes, bad), Some((2 * BLOCK + 5, 65_000)));
        assert_eq!(first(&words, |&w| bad(w)), Some(2 * BLOCK + 5));
        assert_eq!(first(&words, |&w| w == 65_535), None);
        assert!(first(&words, |&w| w >= 65_000).is_some());
        assert!(first(&words, |&w| w > 65_001).is_none());
        assert!(first(&values, |v| *v <= 0.0).is_some());
        // Writing back gives the bytes read, after what the buffer held.
        let mut out = vec![7u8];
        put_f32s(&mut out, &values);
        assert!(out[0] == 7 && out[1..] == bytes[..]);
        let mut out = Vec::new();
        put_u16s(&mut out, &words);
        assert!(out == wbytes);
    }
}
