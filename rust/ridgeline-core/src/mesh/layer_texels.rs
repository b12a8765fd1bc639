//! Texel packing of terrain texture layers into the two texture arrays the realistic shader
//! samples (docs/materials.md, "Building the texture arrays"):
//!
//! - **albedo + height**: RGB = albedo (sRGB as authored) × occlusion when an ORM map is given,
//!   A = blend height (the height map's red channel);
//! - **normal + roughness**: RGB = tangent-space normal (OpenGL convention; G inverted for
//!   DirectX maps), A = roughness (ORM green, else a roughness map's red, else a constant).
//!
//! Inputs are RGBA8 images of one size (`n` texels, `4 n` bytes), any of them optional; missing
//! maps take neutral values (white albedo, height 128, flat normal, the constant roughness).

/// The source maps of one layer, RGBA8, all `texels` long (× 4 bytes) or absent.
#[derive(Clone, Copy, Debug, Default)]
pub struct LayerSources<'a> {
    /// Albedo (sRGB).
    pub albedo: Option<&'a [u8]>,
    /// Tangent-space normal map.
    pub normal: Option<&'a [u8]>,
    /// Occlusion (R), roughness (G), metallic (B, ignored).
    pub orm: Option<&'a [u8]>,
    /// Roughness (R), used without an ORM map.
    pub roughness: Option<&'a [u8]>,
    /// Blend height (R).
    pub height: Option<&'a [u8]>,
}

/// How the sources are combined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PackOptions {
    /// Invert the normal map's green channel (DirectX convention).
    pub normal_y_flip: bool,
    /// Roughness (0–1) when neither an ORM nor a roughness map is given.
    pub roughness: f32,
}

/// Why a layer could not be packed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackError {
    /// Which map (`albedo`, `normal`, `orm`, `roughness`, `height`).
    pub map: &'static str,
    /// Its length in bytes.
    pub got: usize,
    /// The expected length in bytes.
    pub expected: usize,
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} map has {} bytes of RGBA8, expected {}",
            self.map, self.got, self.expected
        )
    }
}

/// Packs one layer of `texels` texels: returns (albedo + height, normal + roughness), RGBA8.
pub fn pack(
    texels: usize,
    src: &LayerSources<'_>,
    opts: PackOptions,
) -> Result<(Vec<u8>, Vec<u8>), PackError> {
    let expected = texels * 4;
    for (map, data) in [
        ("albedo", src.albedo),
        ("normal", src.normal),
        ("orm", src.orm),
        ("roughness", src.roughness),
        ("height", src.height),
    ] {
        if let Some(d) = data
            && d.len() != expected
        {
            return Err(PackError {
                map,
                got: d.len(),
                expected,
            });
        }
    }
    let constant_rough = if opts.roughness.is_finite() {
        (opts.roughness.clamp(0.0, 1.0) * 255.0).round() as u8
    } else {
        230
    };
    let mut ah = vec![0u8; expected];
    let mut nr = vec![0u8; expected];
    for i in 0..texels {
        let o = i * 4;
        let (mut r, mut g, mut b) = match src.albedo {
            Some(a) => (a[o], a[o + 1], a[o + 2]),
            None => (255, 255, 255),
        };
        if let Some(orm) = src.orm {
            let occ = orm[o] as u32;
            let mul = |c: u8| ((c as u32 * occ + 127) / 255) as u8;
            (r, g, b) = (mul(r), mul(g), mul(b));
        }
        ah[o] = r;
        ah[o + 1] = g;
        ah[o + 2] = b;
        ah[o + 3] = src.height.map_or(128, |h| h[o]);
        let (nx, ny, nz) = match src.normal {
            Some(n) => (n[o], n[o + 1], n[o + 2]),
            None => (128, 128, 255),
        };
        nr[o] = nx;
        nr[o + 1] = if opts.normal_y_flip { 255 - ny } else { ny };
        nr[o + 2] = nz;
        nr[o + 3] = match (src.orm, src.roughness) {
            (Some(orm), _) => orm[o + 1],
            (None, Some(rough)) => rough[o],
            (None, None) => constant_rough,
        };
    }
    Ok((ah, nr))
}

/// The mean colour (sRGB bytes averaged, 0–1) of an RGBA8 image: the faceted look's default
/// flat colour for a layer. `None` for an empty image.
pub fn mean_color(rgba: &[u8]) -> Option<[f32; 3]> {
    let n = rgba.len() / 4;
    if n == 0 {
        return None;
    }
    let mut sum = [0u64; 3];
    for px in rgba.chunks_exact(4) {
        for c in 0..3 {
            sum[c] += px[c] as u64;
        }
    }
    Some(sum.map(|s| s as f32 / (n as f32 * 255.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: PackOptions = PackOptions {
        normal_y_flip: false,
        roughness: 0.5,
    };

    #[test]
    fn missing_maps_take_neutral_values() {
        let (ah, nr) = pack(2, &LayerSources::default(), OPTS).unwrap();
        assert_eq!(ah, [255, 255, 255, 128, 255, 255, 255, 128]);
        assert_eq!(nr, [128, 128, 255, 128, 128, 128, 255, 128]);
    }

    #[test]
    fn channels_go_where_documented() {
        let albedo = [10, 20, 30, 255, 40, 50, 60, 255];
        let normal = [100, 110, 250, 255, 90, 80, 240, 255];
        let height = [7, 0, 0, 255, 200, 0, 0, 255];
        let rough = [33, 0, 0, 255, 44, 0, 0, 255];
        let src = LayerSources {
            albedo: Some(&albedo),
            normal: Some(&normal),
            roughness: Some(&rough),
            height: Some(&height),
            orm: None,
        };
        let (ah, nr) = pack(2, &src, OPTS).unwrap();
        assert_eq!(ah, [10, 20, 30, 7, 40, 50, 60, 200]);
        assert_eq!(nr, [100, 110, 250, 33, 90, 80, 240, 44]);
        let flipped = PackOptions {
            normal_y_flip: true,
            ..OPTS
        };
        let (_, nr) = pack(2, &src, flipped).unwrap();
        assert_eq!(nr[1], 255 - 110);
    }

    #[test]
    fn orm_wins_over_roughness_and_darkens_albedo() {
        let albedo = [200, 100, 50, 255];
        let orm = [128, 77, 0, 255];
        let rough = [9, 9, 9, 255];
        let src = LayerSources {
            albedo: Some(&albedo),
            orm: Some(&orm),
            roughness: Some(&rough),
            ..Default::default()
        };
        let (ah, nr) = pack(1, &src, OPTS).unwrap();
        assert_eq!(ah[..3], [100, 50, 25]);
        assert_eq!(nr[3], 77);
    }

    #[test]
    fn wrong_sizes_name_the_map() {
        let short = [0u8; 4];
        let src = LayerSources {
            height: Some(&short),
            ..Default::default()
        };
        let e = pack(2, &src, OPTS).unwrap_err();
        assert_eq!(e.map, "height");
        assert!(e.to_string().contains("expected 8"));
    }

    #[test]
    fn mean_color_averages() {
        assert_eq!(
            mean_color(&[0, 255, 51, 255, 255, 255, 153, 0]),
            Some([0.5, 1.0, 0.4])
        );
        assert_eq!(mean_color(&[]), None);
    }
}
