//! A per-sample map cut into the square tiles of a texture array (the GPU path's height
//! texture, the control and paint maps): tile `(tx, tz)` holds samples
//! `tx·tile .. (tx+1)·tile` × `tz·tile .. (tz+1)·tile`, row-major, `tile` texels per row;
//! texels past the map's edge are zero. The tiles are filled on rayon's threads — a 4 km map's
//! height texels were a tenth of its load on one thread — and come back in layer order
//! (row-major over tiles), each exactly what filling it alone gives.

use rayon::prelude::*;

/// Writes the texels of the sample rectangle `[x0, z0, x1, z1)` into the start of `out`
/// (`stride` texels per row).
pub type Fill<'a> = dyn Fn([usize; 4], &mut [u8], usize) + Sync + 'a;

/// Every tile of a `w × h` sample map, `texel_bytes` per texel, filled by `fill`.
pub fn fill_tiles(
    [w, h]: [usize; 2],
    tile: usize,
    texel_bytes: usize,
    fill: &Fill,
) -> Vec<Vec<u8>> {
    if tile == 0 {
        return Vec::new();
    }
    let count = w.div_ceil(tile) * h.div_ceil(tile);
    let all: Vec<usize> = (0..count).collect();
    fill_listed_tiles([w, h], tile, texel_bytes, &all, fill)
}

/// The tiles `tiles` (row-major tile indices) of a `w × h` sample map, `texel_bytes` per
/// texel, filled by `fill` on rayon's threads (each tile on its own: the bytes do not depend on
/// the thread count). A few tiles — an edit's usual one to four — are filled on the calling
/// thread: waking the pool would cost more than they do.
pub fn fill_listed_tiles(
    [w, h]: [usize; 2],
    tile: usize,
    texel_bytes: usize,
    tiles: &[usize],
    fill: &Fill,
) -> Vec<Vec<u8>> {
    if tile == 0 {
        return Vec::new();
    }
    let tiles_x = w.div_ceil(tile);
    let one = |&k: &usize| {
        let mut out = vec![0u8; tile * tile * texel_bytes];
        fill_tile([w, h], tile, [k % tiles_x, k / tiles_x], &mut out, fill);
        out
    };
    if tiles.len() <= SERIAL_TILES {
        tiles.iter().map(one).collect()
    } else {
        tiles.par_iter().map(one).collect()
    }
}

/// Tile lists up to this long are filled on the calling thread.
const SERIAL_TILES: usize = 4;

/// Fills tile `(tx, tz)` of a `w × h` map into `out` (`tile²` texels, zeroed by the caller).
pub fn fill_tile(
    [w, h]: [usize; 2],
    tile: usize,
    [tx, tz]: [usize; 2],
    out: &mut [u8],
    fill: &Fill,
) {
    let (x0, z0) = (tx * tile, tz * tile);
    let (x1, z1) = ((x0 + tile).min(w), (z0 + tile).min(h));
    if x1 > x0 && z1 > z0 {
        fill([x0, z0, x1, z1], out, tile);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_hold_their_samples_in_layer_order_and_zero_past_the_edge() {
        // A 70 × 45 map of 2-byte texels whose value is the sample index, in 32-texel tiles:
        // 3 × 2 tiles, the last row and column partial.
        let [w, h] = [70usize, 45];
        let fill = |[x0, z0, x1, z1]: [usize; 4], out: &mut [u8], stride: usize| {
            for z in z0..z1 {
                for x in x0..x1 {
                    let k = ((z - z0) * stride + (x - x0)) * 2;
                    out[k..k + 2].copy_from_slice(&((z * w + x) as u16).to_le_bytes());
                }
            }
        };
        let tiles = fill_tiles([w, h], 32, 2, &fill);
        assert_eq!(tiles.len(), 6);
        for (k, t) in tiles.iter().enumerate() {
            assert_eq!(t.len(), 32 * 32 * 2);
            let (tx, tz) = (k % 3, k / 3);
            for j in 0..32 {
                for i in 0..32 {
                    let (x, z) = (tx * 32 + i, tz * 32 + j);
                    let v = u16::from_le_bytes([t[(j * 32 + i) * 2], t[(j * 32 + i) * 2 + 1]]);
                    let want = if x < w && z < h {
                        (z * w + x) as u16
                    } else {
                        0
                    };
                    assert_eq!(v, want, "tile {k} texel ({i}, {j})");
                }
            }
        }
        assert!(fill_tiles([w, h], 0, 2, &fill).is_empty());
        // Listed tiles, in the listed order, equal the same tiles of the whole map.
        let listed = fill_listed_tiles([w, h], 32, 2, &[5, 1, 3], &fill);
        assert_eq!(
            listed,
            vec![tiles[5].clone(), tiles[1].clone(), tiles[3].clone()]
        );
    }
}
