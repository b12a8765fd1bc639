//! The terrain shaders' per-sample control texture (docs/materials.md, "The control texture").
//!
//! One RGBA8 texel per grid sample, row-major (texel `(x, z)` = sample index
//! `z * samples_x + x`), read by the shaders with `texelFetch` only, so ids are exact:
//!
//! - R: **base** id — the sample's material layer (realistic look) or palette entry (faceted);
//! - G: **overlay** id — the most frequent other id among the 8 neighbours (kernel weight 2 for
//!   the 4 edge neighbours, 1 for the diagonal ones; ties go to the smaller id), or R when every
//!   neighbour carries R;
//! - B: overlay weight `⌊W × 255 / 24⌋` with `W` the summed kernel weight of the neighbours
//!   carrying the overlay (out of 12): half the neighbours' share, ≤ 127, so the base always
//!   dominates its own sample; interpolated across a cell, the
//!   overlay weight crosses ½ along a smooth curve instead of a staircase;
//! - A: biome index.
//!
//! The base id comes from a [`LayerTable`]: per biome, the layer id of each of the nine surface
//! roles ([`UNBOUND`] where nothing is bound). Encoding a rectangle rewrites only its texels; a
//! change of a sample's id changes its neighbours' overlays, so callers grow a changed rectangle
//! by one sample first ([`grow`]).

/// Number of surface roles (ground, grass, rock, cliff, sediment, sand, snow, wet_ground,
/// underwater: role ids 0–8).
pub const ROLE_COUNT: usize = 9;

/// The id of an unbound material: the realistic look shows neutral grey under the biome tint,
/// the faceted look magenta.
pub const UNBOUND: u8 = 255;

/// Per biome, the layer id of each role. Biomes past the table use its first row (the default
/// biome); an empty table binds every role to its own index (role palette).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerTable {
    rows: Vec<[u8; ROLE_COUNT]>,
}

impl LayerTable {
    /// A table from per-biome rows (index = biome id).
    pub fn new(rows: Vec<[u8; ROLE_COUNT]>) -> Self {
        Self { rows }
    }

    /// Every role bound to its own index in every biome (the faceted role palette).
    pub fn identity() -> Self {
        Self::default()
    }

    /// The layer of `role` (0–8; larger roles are unbound) in `biome`.
    pub fn layer(&self, biome: u8, role: u8) -> u8 {
        let role = role as usize;
        if role >= ROLE_COUNT {
            return UNBOUND;
        }
        match self.rows.get(biome as usize).or(self.rows.first()) {
            Some(row) => row[role],
            None => role as u8,
        }
    }
}

/// A rectangle of samples `[x0, x1) × [z0, z1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelRect {
    /// First sample along X.
    pub x0: usize,
    /// First sample along Z.
    pub z0: usize,
    /// One past the last sample along X.
    pub x1: usize,
    /// One past the last sample along Z.
    pub z1: usize,
}

/// `rect` grown by one sample on every side, clipped to a `width × depth` sample grid.
pub fn grow(rect: TexelRect, width: usize, depth: usize) -> TexelRect {
    TexelRect {
        x0: rect.x0.saturating_sub(1),
        z0: rect.z0.saturating_sub(1),
        x1: (rect.x1 + 1).min(width),
        z1: (rect.z1 + 1).min(depth),
    }
}

/// The control texture of a `width × depth` sample grid from per-sample surface roles and biome
/// ids (both `width × depth`, row-major); RGBA8 bytes. Mismatched input lengths give an empty
/// vector.
pub fn encode(
    width: usize,
    depth: usize,
    roles: &[u8],
    biomes: &[u8],
    table: &LayerTable,
) -> Vec<u8> {
    let n = width * depth;
    if roles.len() != n || biomes.len() != n {
        return Vec::new();
    }
    let mut out = vec![0u8; n * 4];
    let all = TexelRect {
        x0: 0,
        z0: 0,
        x1: width,
        z1: depth,
    };
    encode_rect(width, depth, roles, biomes, table, all, &mut out);
    out
}

/// Rewrites the texels of `rect` in `texels` (a whole `width × depth` control texture). Does
/// nothing when the lengths do not match the grid.
pub fn encode_rect(
    width: usize,
    depth: usize,
    roles: &[u8],
    biomes: &[u8],
    table: &LayerTable,
    rect: TexelRect,
    texels: &mut [u8],
) {
    let n = width * depth;
    if roles.len() != n || biomes.len() != n || texels.len() != n * 4 {
        return;
    }
    let (z0, z1) = (rect.z0.min(depth), rect.z1.min(depth));
    let (x0, x1) = (rect.x0.min(width), rect.x1.min(width));
    if z1 <= z0 || x1 <= x0 {
        return;
    }
    // Layer ids of the rectangle grown by one sample (clipped), looked up once per sample
    // rather than once per neighbour.
    let (gx0, gz0) = (x0.saturating_sub(1), z0.saturating_sub(1));
    let (gx1, gz1) = ((x1 + 1).min(width), (z1 + 1).min(depth));
    let gw = gx1 - gx0;
    let parallel = (x1 - x0) * (z1 - z0) >= PARALLEL_TEXELS;
    let mut ids = vec![0u8; gw * (gz1 - gz0)];
    let id_row = |(k, out): (usize, &mut [u8])| {
        let start = (gz0 + k) * width + gx0;
        for (o, (&b, &r)) in out.iter_mut().zip(
            biomes[start..start + gw]
                .iter()
                .zip(&roles[start..start + gw]),
        ) {
            *o = table.layer(b, r);
        }
    };
    // A brush stamp's few hundred texels cost less than waking the thread pool; whole maps
    // (a terrain's first control map) go row-parallel (each row is written by one thread, so
    // the result is the same).
    if parallel {
        use rayon::prelude::*;
        ids.par_chunks_mut(gw).enumerate().for_each(id_row);
    } else {
        ids.chunks_mut(gw).enumerate().for_each(id_row);
    }
    let ids = &ids;
    let id = |x: usize, z: usize| ids[(z - gz0) * gw + (x - gx0)];
    const NEIGHBOURS: [(isize, isize, u32); 8] = [
        (-1, 0, 2),
        (1, 0, 2),
        (0, -1, 2),
        (0, 1, 2),
        (-1, -1, 1),
        (1, -1, 1),
        (-1, 1, 1),
        (1, 1, 1),
    ];
    // The overlay of the sample at (x, z) whose own layer is `base`: the weighted majority of
    // the other layers around it, and its weight in 0..=255.
    let overlay = |x: usize, z: usize, base: u8| {
        // (id, weight) of the other ids around, at most 8 distinct.
        let mut others: [(u8, u32); 8] = [(0, 0); 8];
        let mut count = 0;
        for (dx, dz, w) in NEIGHBOURS {
            let (nx, nz) = (x as isize + dx, z as isize + dz);
            if nx < 0 || nz < 0 || nx >= width as isize || nz >= depth as isize {
                continue;
            }
            let other = id(nx as usize, nz as usize);
            if other == base {
                continue;
            }
            match others[..count].iter_mut().find(|(o, _)| *o == other) {
                Some(entry) => entry.1 += w,
                None => {
                    others[count] = (other, w);
                    count += 1;
                }
            }
        }
        let (overlay, weight) = others[..count]
            .iter()
            .copied()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .unwrap_or((base, 0));
        (overlay, (weight * 255 / 24) as u8)
    };
    let line = |z: usize| &ids[(z - gz0) * gw..(z - gz0 + 1) * gw];
    let row = |(k, out): (usize, &mut [u8])| {
        let z = z0 + k;
        let here = line(z);
        // An interior row's three id rows, for the test below by slices.
        let around = (z > 0 && z + 1 < depth).then(|| (line(z - 1), here, line(z + 1)));
        let own = &biomes[z * width..(z + 1) * width];
        for (x, t) in (x0..x1).zip(out[x0 * 4..x1 * 4].chunks_exact_mut(4)) {
            let j = x - gx0;
            let base = here[j];
            t[0] = base;
            t[3] = own[x];
            // Most samples lie inside one layer: no overlay.
            if let Some((a, b, c)) = around
                && x > 0
                && x + 1 < width
            {
                let same = |r: &[u8]| r[j - 1..j + 2].iter().all(|&v| v == base);
                if same(a) && same(b) && same(c) {
                    t[1] = base;
                    t[2] = 0;
                    continue;
                }
            }
            (t[1], t[2]) = overlay(x, z, base);
        }
    };
    let rows = &mut texels[z0 * width * 4..z1 * width * 4];
    if parallel {
        use rayon::prelude::*;
        rows.par_chunks_mut(width * 4).enumerate().for_each(row);
    } else {
        rows.chunks_mut(width * 4).enumerate().for_each(row);
    }
}

/// Texels from which [`encode_rect`] works row-parallel.
const PARALLEL_TEXELS: usize = 1 << 16;

/// The tint a biome colour (linear RGBA 0–1) applies to textured or palette materials: the
/// colour's hue and saturation at `strength` (0 = white, 1 = the colour normalised to mean 1),
/// never its darkness, so a dark green tint colour does not darken rock textures. Components are
/// clamped to 0–2; alpha is 1.
pub fn material_tint(color: [f32; 4], strength: f32) -> [f32; 4] {
    let rgb = [color[0], color[1], color[2]].map(|c| if c.is_finite() { c.max(0.0) } else { 0.0 });
    let mean = (rgb[0] + rgb[1] + rgb[2]) / 3.0;
    if mean <= 1e-6 {
        return [1.0; 4];
    }
    let s = if strength.is_finite() {
        strength.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let t = rgb.map(|c| (1.0 + s * (c / mean - 1.0)).clamp(0.0, 2.0));
    [t[0], t[1], t[2], 1.0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(texels: &[u8], width: usize, x: usize, z: usize) -> [u8; 4] {
        let i = (z * width + x) * 4;
        [texels[i], texels[i + 1], texels[i + 2], texels[i + 3]]
    }

    #[test]
    fn uniform_roles_have_no_overlay() {
        let roles = vec![2u8; 16];
        let biomes = vec![1u8; 16];
        let t = encode(4, 4, &roles, &biomes, &LayerTable::identity());
        for z in 0..4 {
            for x in 0..4 {
                assert_eq!(decode(&t, 4, x, z), [2, 2, 0, 1]);
            }
        }
    }

    #[test]
    fn table_maps_roles_per_biome_and_unbound_roles() {
        let mut row0 = [UNBOUND; ROLE_COUNT];
        row0[0] = 7;
        let row1 = [3u8; ROLE_COUNT];
        let table = LayerTable::new(vec![row0, row1]);
        assert_eq!(table.layer(0, 0), 7);
        assert_eq!(table.layer(0, 1), UNBOUND);
        assert_eq!(table.layer(1, 5), 3);
        // Unknown biomes use the default row, unknown roles are unbound.
        assert_eq!(table.layer(9, 0), 7);
        assert_eq!(table.layer(0, 9), UNBOUND);
        assert_eq!(LayerTable::identity().layer(4, 6), 6);
    }

    #[test]
    fn overlay_is_the_weighted_majority_neighbour() {
        // 3 × 3: centre and top/bottom edges 0, left/right edges 1 (weight 4), four corners 2
        // (weight 4): the tie goes to the smaller id.
        let roles = [2u8, 0, 2, 1, 0, 1, 2, 0, 2];
        let t = encode(3, 3, &roles, &[0; 9], &LayerTable::identity());
        let c = decode(&t, 3, 1, 1);
        assert_eq!(c[0], 0);
        assert_eq!(c[1], 1);
        assert_eq!(c[2], (4 * 255 / 24) as u8);
        // A corner sample: id 2; right edge 0 (2) + diagonal 0 (1) beat the lower edge 1 (2).
        let k = decode(&t, 3, 0, 0);
        assert_eq!(k[0], 2);
        assert_eq!(k[1], 0);
        assert_eq!(k[2], (3 * 255 / 24) as u8);
    }

    #[test]
    fn overlay_weight_never_exceeds_half() {
        let mut roles = vec![0u8; 25];
        roles[12] = 5;
        let t = encode(5, 5, &roles, &[0; 25], &LayerTable::identity());
        let c = decode(&t, 5, 2, 2);
        assert_eq!(c[..3], [5, 0, 127]);
        for i in 0..25 {
            assert!(t[i * 4 + 2] <= 127);
        }
    }

    #[test]
    fn rect_encoding_equals_full_encoding() {
        let (w, d) = (13, 9);
        let mut roles: Vec<u8> = (0..w * d).map(|i| ((i * 7 + i / w) % 9) as u8).collect();
        let biomes: Vec<u8> = (0..w * d).map(|i| (i % 3) as u8).collect();
        let table = LayerTable::new(vec![
            [0, 1, 2, 3, 4, 5, 6, 7, 8],
            [8, 7, 6, 5, 4, 3, 2, 1, 0],
        ]);
        let mut texels = encode(w, d, &roles, &biomes, &table);
        // Change a block of roles, re-encode only the grown block.
        for z in 3..5 {
            for x in 4..8 {
                roles[z * w + x] = 4;
            }
        }
        let rect = grow(
            TexelRect {
                x0: 4,
                z0: 3,
                x1: 8,
                z1: 5,
            },
            w,
            d,
        );
        encode_rect(w, d, &roles, &biomes, &table, rect, &mut texels);
        assert_eq!(texels, encode(w, d, &roles, &biomes, &table));
    }

    #[test]
    fn bad_lengths_are_refused() {
        assert!(encode(4, 4, &[0; 15], &[0; 16], &LayerTable::identity()).is_empty());
        let mut texels = [9u8; 64];
        encode_rect(
            4,
            4,
            &[0; 16],
            &[0; 16],
            &LayerTable::identity(),
            TexelRect {
                x0: 0,
                z0: 0,
                x1: 4,
                z1: 4,
            },
            &mut texels[..60],
        );
        assert!(texels.iter().all(|&t| t == 9));
    }

    #[test]
    fn tint_keeps_hue_not_darkness() {
        let t = material_tint([0.42, 0.52, 0.3, 1.0], 1.0);
        let mean = (t[0] + t[1] + t[2]) / 3.0;
        assert!((mean - 1.0).abs() < 1e-5);
        assert!(t[1] > t[0] && t[0] > t[2]);
        assert_eq!(material_tint([0.42, 0.52, 0.3, 1.0], 0.0), [1.0; 4]);
        assert_eq!(material_tint([0.0, 0.0, 0.0, 1.0], 1.0), [1.0; 4]);
        assert_eq!(material_tint([f32::NAN, 1.0, 1.0, 1.0], f32::NAN), [1.0; 4]);
    }

    #[test]
    fn whole_maps_encode_in_parallel_as_row_by_row() {
        let (w, d) = (300, 260);
        let roles: Vec<u8> = (0..w * d).map(|i| ((i * 7 + i / 13) % 9) as u8).collect();
        let biomes: Vec<u8> = (0..w * d).map(|i| ((i / 50) % 3) as u8).collect();
        let table = LayerTable::identity();
        let mut whole = vec![0u8; w * d * 4];
        let all = TexelRect {
            x0: 0,
            z0: 0,
            x1: w,
            z1: d,
        };
        encode_rect(w, d, &roles, &biomes, &table, all, &mut whole);
        let mut rows = vec![0u8; w * d * 4];
        for z in 0..d {
            let one = TexelRect {
                x0: 0,
                z0: z,
                x1: w,
                z1: z + 1,
            };
            encode_rect(w, d, &roles, &biomes, &table, one, &mut rows);
        }
        assert_eq!(whole, rows);
        assert!(whole.iter().any(|&b| b != 0));
    }

    /// The overlay rule written plainly: every neighbour looked up, no shortcut.
    fn reference(w: usize, d: usize, roles: &[u8], biomes: &[u8], t: &LayerTable) -> Vec<u8> {
        let id = |x: usize, z: usize| t.layer(biomes[z * w + x], roles[z * w + x]);
        let mut out = vec![0u8; w * d * 4];
        for z in 0..d {
            for x in 0..w {
                let base = id(x, z);
                let mut weights = std::collections::BTreeMap::<u8, u32>::new();
                for dz in -1isize..=1 {
                    for dx in -1isize..=1 {
                        let (nx, nz) = (x as isize + dx, z as isize + dz);
                        if (dx, dz) == (0, 0)
                            || nx < 0
                            || nz < 0
                            || nx >= w as isize
                            || nz >= d as isize
                        {
                            continue;
                        }
                        let other = id(nx as usize, nz as usize);
                        if other != base {
                            *weights.entry(other).or_default() +=
                                if dx == 0 || dz == 0 { 2 } else { 1 };
                        }
                    }
                }
                // Heaviest; on a tie the smaller id (the map iterates ids ascending).
                let (overlay, weight) =
                    weights.iter().fold(
                        (base, 0),
                        |best, (&o, &wt)| if wt > best.1 { (o, wt) } else { best },
                    );
                let i = (z * w + x) * 4;
                out[i..i + 4].copy_from_slice(&[
                    base,
                    overlay,
                    (weight * 255 / 24) as u8,
                    biomes[z * w + x],
                ]);
            }
        }
        out
    }

    #[test]
    fn blobs_encode_as_the_plain_rule_whole_and_by_rectangle() {
        let (w, d) = (301, 263);
        // Blocks of one role (most samples have no overlay) with specks of others.
        let roles: Vec<u8> = (0..w * d)
            .map(|i| {
                let (x, z) = (i % w, i / w);
                let speck = (x * 31 + z * 17) % 97 == 0;
                (((x / 23 + z / 19) % 4) as u8 + u8::from(speck) * 4) % 9
            })
            .collect();
        let biomes: Vec<u8> = (0..w * d).map(|i| ((i % w) / 120) as u8).collect();
        let mut row0 = [UNBOUND; ROLE_COUNT];
        row0[..4].copy_from_slice(&[4, 5, 5, 6]);
        let table = LayerTable::new(vec![row0, [1, 2, 3, 4, 5, 6, 7, 8, 9], [2; ROLE_COUNT]]);
        let want = reference(w, d, &roles, &biomes, &table);
        assert_eq!(encode(w, d, &roles, &biomes, &table), want);
        // Rectangles (edges, corners, one sample) rewrite exactly their texels.
        let mut part = want.clone();
        for (x0, z0, x1, z1) in [
            (0, 0, 7, 5),
            (290, 250, 301, 263),
            (100, 0, 101, 263),
            (37, 41, 38, 42),
        ] {
            for z in z0..z1 {
                part[(z * w + x0) * 4..(z * w + x1) * 4].fill(0xAA);
            }
            encode_rect(
                w,
                d,
                &roles,
                &biomes,
                &table,
                TexelRect { x0, z0, x1, z1 },
                &mut part,
            );
        }
        assert_eq!(part, want);
        let plain = (0..w * d).filter(|&i| want[i * 4 + 2] == 0).count();
        assert!(
            plain > w * d / 2 && plain < w * d,
            "{plain} samples without overlay"
        );
    }
}
