//! Heightmap node (`heightmap`): heights from a file — a 16- or 8-bit greyscale PNG, raw R16 or
//! R32, or a seed-002 terrain JSON — mapped to world heights and resampled onto the recipe grid
//! inside a placement rectangle.
//!
//! Mapping: integer samples `v` (PNG, R16; `full` = 65535, or 255 for 8-bit PNGs) give
//! `h = offset + scale · (min + v / full · (max − min))` (seed 004's PNG16 rule with the
//! defaults `scale` 1, `offset` 0); float samples `s` (R32, terrain JSON) give
//! `h = offset + scale · s`. The pipeline reads the file before evaluation (the one rule for
//! referenced files); the node decodes it only when its cached result cannot be reused, and its
//! cache key holds the file's content hash, so editing the file regenerates.

use super::util::optional_input;
use super::{
    Canonical, Category, EvalContext, Evaluated, FileRequest, Inputs, NodeFile, NodeImpl, NodeSpec,
    PinKind, PinValue, Read, optional, pin,
};
use crate::doc::params::{Initial, ParamSpec, ParamType, Range};
use crate::doc::reader::member;
use crate::error::{Diagnostic, Diagnostics, Error, Result};
use crate::fsio::FileKind;
use crate::heightfield::MAX_HEIGHT;
use crate::heightmap::resample::{self, Filter};
use crate::heightmap::{HeightImage, png16, raw, terrain_json::TerrainDocument};
use std::sync::Arc;

/// The registry entry.
pub(crate) const SPEC: NodeSpec = NodeSpec {
    id: "heightmap",
    title: "Heightmap",
    category: Category::Generator,
    description: "Heights from a PNG, R16, R32 or terrain JSON file, resampled onto the grid",
    icon: "heightmap",
    inputs: &[optional("base", PinKind::Heightfield)],
    outputs: &[pin("heightfield", PinKind::Heightfield)],
    params: &[PARAMS],
    reads: &[Read::File],
    canonical: Canonical::OmitDefaults,
    build,
};

const FORMATS: &[&str] = &["auto", "png", "r16", "r32", "terrain_json"];
const FILTERS: &[&str] = &["bilinear", "bicubic", "nearest"];

const PARAMS: &[ParamSpec] = &[
    ParamSpec::of("file", ParamType::String, Initial::Unset)
        .required()
        .doc("the heightmap, relative to the asset's folder or `res://…` (never outside the project)"),
    ParamSpec::of("format", ParamType::Enum(FORMATS), Initial::Text("auto"))
        .doc("`auto` goes by the extension: .png, .r16/.raw, .r32, .json"),
    ParamSpec::integer("raw_width", 0, 0, 8193)
        .doc("R16/R32 samples along X; 0 infers a square file"),
    ParamSpec::integer("raw_depth", 0, 0, 8193)
        .doc("R16/R32 samples along Z; 0 infers a square file"),
    ParamSpec::number("min", 0.0, Range::Magnitude(MAX_HEIGHT as f64))
        .unit("m")
        .doc("height of integer sample 0 (PNG, R16)"),
    ParamSpec::number("max", 100.0, Range::Magnitude(MAX_HEIGHT as f64))
        .unit("m")
        .doc("height of the largest integer sample (65535, or 255 in an 8-bit PNG); > min"),
    ParamSpec::number("scale", 1.0, Range::PositiveMagnitude(1e6))
        .doc("multiplies every mapped height (float formats: the stored value)"),
    ParamSpec::number("offset", 0.0, Range::Magnitude(MAX_HEIGHT as f64))
        .unit("m")
        .doc("added after scaling"),
    ParamSpec::of("filter", ParamType::Enum(FILTERS), Initial::Text("bilinear"))
        .doc("between pixels: bilinear, bicubic (Catmull-Rom) or nearest; samples on a pixel copy it exactly"),
    ParamSpec::of("area_min", ParamType::Point, Initial::Unset)
        .unit("m")
        .doc("terrain-local [x, z] of the image's first pixel; with `area_size` (default: the whole terrain)"),
    ParamSpec::of("area_size", ParamType::Point, Initial::Unset)
        .unit("m")
        .doc("[width, depth] the image spans (> 0 each); with `area_min`"),
    ParamSpec::number("fill", 0.0, Range::Magnitude(MAX_HEIGHT as f64))
        .unit("m")
        .doc("height outside the area when `base` is not connected"),
];

/// The file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 16- or 8-bit greyscale PNG (RGB: the red channel).
    Png,
    /// Unsigned 16-bit little endian.
    R16,
    /// f32 little endian.
    R32,
    /// Seed-002 terrain JSON.
    TerrainJson,
}

impl Format {
    /// The `format` parameter's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::R16 => "r16",
            Format::R32 => "r32",
            Format::TerrainJson => "terrain_json",
        }
    }
}

/// The format `reference`'s extension names.
pub fn format_of(reference: &str) -> Option<Format> {
    let lower = reference.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e)?;
    match ext {
        "png" => Some(Format::Png),
        "r16" | "raw" => Some(Format::R16),
        "r32" => Some(Format::R32),
        "json" => Some(Format::TerrainJson),
        _ => None,
    }
}

fn build(p: &crate::doc::params::Params, path: &str, d: &mut Diagnostics) -> Box<dyn NodeImpl> {
    let file = p.text("file").unwrap_or_default().to_string();
    let format = match p.text("format").unwrap_or("auto") {
        "png" => Some(Format::Png),
        "r16" => Some(Format::R16),
        "r32" => Some(Format::R32),
        "terrain_json" => Some(Format::TerrainJson),
        _ => format_of(&file),
    };
    if format.is_none() && !file.is_empty() {
        d.push(
            member(path, "format"),
            format!(
                "cannot tell the format of \"{file}\" from its extension; set `format` to png, r16, r32 or terrain_json"
            ),
        );
    }
    let (min, max) = (p.number("min"), p.number("max"));
    if max <= min {
        d.push(
            member(path, "max"),
            format!("must be greater than `min` ({min}), got {max}"),
        );
    }
    let area = match (p.present("area_min"), p.present("area_size")) {
        (false, false) => None,
        (true, true) => {
            let size = p.point("area_size");
            if size.iter().any(|&s| s <= 0.0) {
                d.push(
                    member(path, "area_size"),
                    format!("each side must be > 0, got [{}, {}]", size[0], size[1]),
                );
            }
            Some((p.point("area_min"), size))
        }
        (has_min, _) => {
            let missing = if has_min { "area_size" } else { "area_min" };
            d.push(
                member(path, missing),
                "is required with `area_min`/`area_size`: set both, or neither for the whole terrain",
            );
            None
        }
    };
    Box::new(Heightmap {
        file,
        format: format.unwrap_or(Format::Png),
        raw_dims: [
            p.integer("raw_width") as usize,
            p.integer("raw_depth") as usize,
        ],
        min,
        max,
        scale: p.number("scale"),
        offset: p.number("offset"),
        filter: Filter::from_name(p.text("filter").unwrap_or("bilinear"))
            .unwrap_or(Filter::Bilinear),
        area,
        fill: p.single("fill"),
    })
}

/// Parameters (see the registry entry for ranges and defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct Heightmap {
    /// The reference as written.
    pub file: String,
    /// Its format.
    pub format: Format,
    /// Raw dimensions (0 = infer a square file).
    pub raw_dims: [usize; 2],
    /// Height of integer sample 0.
    pub min: f64,
    /// Height of the largest integer sample.
    pub max: f64,
    /// Multiplies mapped heights.
    pub scale: f64,
    /// Added after scaling.
    pub offset: f64,
    /// Between pixels.
    pub filter: Filter,
    /// Terrain-local `(min corner, size)`; `None` = the whole terrain.
    pub area: Option<([f64; 2], [f64; 2])>,
    /// Height outside the area without `base`.
    pub fill: f32,
}

/// Moves a decoder's diagnostics (located at the file) to `params.file`, naming the file.
fn at_file(e: Error) -> Error {
    match e {
        Error::Invalid(ds) => Error::Invalid(
            ds.into_iter()
                .map(|d| Diagnostic::new("params.file", d.to_string()))
                .collect(),
        ),
        other => Error::invalid("params.file", other.to_string()),
    }
}

impl Heightmap {
    /// `(width, depth)` of a raw file of `len` bytes with `per` bytes per sample.
    fn raw_dims(&self, len: usize, per: usize, shown: &str) -> Result<(usize, usize)> {
        match self.raw_dims {
            [0, 0] => raw::square_side(len, per).map(|s| (s, s)).ok_or_else(|| {
                Error::invalid(
                    "params.file",
                    format!(
                        "{shown}: {len} bytes is not a square {}-bit raw file; set `raw_width` and `raw_depth`",
                        per * 8
                    ),
                )
            }),
            [0, _] | [_, 0] => Err(Error::invalid(
                "params.raw_width",
                "set both `raw_width` and `raw_depth`, or neither to infer a square file",
            )),
            [w, d] => Ok((w, d)),
        }
    }

    /// Decodes `file` into world heights.
    pub fn decode(&self, file: &NodeFile) -> Result<HeightImage> {
        let shown = file.shown();
        let bytes = file.bytes.as_slice();
        let (lo, hi) = (
            (self.offset + self.scale * self.min) as f32,
            (self.offset + self.scale * self.max) as f32,
        );
        let image = match self.format {
            Format::Png => png16::read(bytes, lo, hi, &shown).map_err(at_file)?,
            Format::R16 => {
                let (w, d) = self.raw_dims(bytes.len(), 2, &shown)?;
                raw::read_r16(bytes, w, d, lo, hi, &shown).map_err(at_file)?
            }
            Format::R32 => {
                let (w, d) = self.raw_dims(bytes.len(), 4, &shown)?;
                self.affine(raw::read_r32(bytes, w, d, &shown).map_err(at_file)?)
            }
            Format::TerrainJson => {
                let text = std::str::from_utf8(bytes).map_err(|e| {
                    Error::invalid(
                        "params.file",
                        format!(
                            "{shown}: is not UTF-8 text (invalid byte at offset {})",
                            e.valid_up_to()
                        ),
                    )
                })?;
                let doc = TerrainDocument::parse(text, &shown).map_err(at_file)?;
                self.affine(HeightImage {
                    width: doc.resolution[0],
                    depth: doc.resolution[1],
                    heights: doc.heights,
                })
            }
        };
        if let Some(i) = image
            .heights
            .iter()
            .position(|&h| !crate::heightfield::height_in_range(h))
        {
            return Err(Error::invalid(
                "params.file",
                format!(
                    "{shown}: sample {i} maps to height {}, outside ±{MAX_HEIGHT}; lower `scale` or the range",
                    image.heights[i]
                ),
            ));
        }
        Ok(image)
    }

    /// `offset + scale · s` for float formats (bit-exact when it is the identity).
    fn affine(&self, mut image: HeightImage) -> HeightImage {
        if self.scale != 1.0 || self.offset != 0.0 {
            for h in &mut image.heights {
                *h = (self.offset + self.scale * *h as f64) as f32;
            }
        }
        image
    }
}

impl NodeImpl for Heightmap {
    fn file_request(&self) -> Option<FileRequest> {
        Some(FileRequest {
            reference: self.file.clone(),
            kind: match self.format {
                Format::TerrainJson => FileKind::TerrainJson,
                _ => FileKind::Heightmap,
            },
        })
    }

    fn evaluate(&self, ctx: &EvalContext, inputs: &Inputs) -> Result<Evaluated> {
        let file = ctx.file()?;
        let base = optional_input(inputs, 0)?;
        let grid = ctx.grid;
        let [w, h] = grid.samples();
        if let Some(b) = base
            && (b.width() != w || b.depth() != h)
        {
            return Err(Error::invalid("inputs.base", "is not on the recipe grid"));
        }
        let image = self.decode(file)?;
        ctx.check_cancel()?;
        let size = grid.size();
        let cells = grid.cells();
        let spacing = [
            size[0] as f64 / cells[0] as f64,
            size[1] as f64 / cells[1] as f64,
        ];
        let (start, length) = self
            .area
            .unwrap_or(([0.0, 0.0], [size[0] as f64, size[1] as f64]));
        let xs = resample::taps(w, spacing[0], start[0], length[0], image.width);
        let zs = resample::taps(h, spacing[1], start[1], length[1], image.depth);
        let fill = self.fill;
        let out = ctx.par_rows(|z, out| {
            let outside = |x: usize| base.map_or(fill, |b| b.get(x, z));
            match zs[z] {
                None => {
                    for (x, o) in out.iter_mut().enumerate() {
                        *o = outside(x);
                    }
                }
                Some(zt) => {
                    for (x, o) in out.iter_mut().enumerate() {
                        *o = match xs[x] {
                            Some(xt) => resample::sample(&image, self.filter, xt, zt),
                            None => outside(x),
                        };
                    }
                }
            }
        })?;
        Ok(vec![PinValue::Heightfield(Arc::new(out))].into())
    }
}
