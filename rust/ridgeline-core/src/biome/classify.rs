//! The classification pass: a biome id and a surface role for every sample.
//!
//! [`Classifier`] holds what does not change between passes (biome table, compiled rules,
//! thresholds, the climate of the world seed); [`SurfaceInput`] is the surface being
//! classified. The pass computes water coverage and distance once for the whole grid, then
//! every row independently (rows in parallel): climate, slope, moisture, substrate, the rule
//! decision and the role. Each sample's result depends only on its inputs, never on the thread
//! that computed it, so any thread count gives the same bytes.

use super::context::{SampleContext, SurfaceParams};
use super::coverage::{self, COVERED, WaterSource};
use super::moisture::Climate;
use super::roles::Role;
use super::row_pass::RowBuffers;
use super::rules::{BiomeLayer, Decision, RuleSet, RuleSpec};
use super::slope::slope_at;
use super::substrate::Substrate;
use super::water_distance::distance_transform;
use super::{BiomeSpec, SampleRect};
use crate::error::{Diagnostics, Error, Result};
use crate::grid::Grid;
use crate::noise::RowScratch;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The surface to classify. Per-sample slices are row-major on `grid`.
#[derive(Clone, Copy, Debug)]
pub struct SurfaceInput<'a> {
    /// The grid.
    pub grid: Grid,
    /// Final heights (strokes replayed).
    pub heights: &'a [f32],
    /// Sea level: the inferred sea's level when `water` is `None`, and what `explain` reports.
    pub sea_level: f32,
    /// Connected water, as its per-sample owner (`hydrology::water::WaterSet::owner`: body
    /// index + 1, 0 = dry; empty = no body): its resolved coverage replaces the inferred sea.
    pub water: Option<&'a [u16]>,
    /// Drainage flow accumulation (upstream samples including the sample itself, as
    /// `hydrology::Drainage::accumulation`), when drainage is connected.
    pub flow: Option<&'a [f32]>,
    /// Signed erosion change (+ deposition, − removal), when erosion ran.
    pub erosion: Option<&'a [f32]>,
    /// Painted biome per sample: 0 = none, `k` = biome id `k − 1`.
    pub painted: Option<&'a [u16]>,
    /// Painted water depth per sample (`crate::edit::water`; `None`: none was ever painted):
    /// a sample with depth above 0 is covered by water like a body's.
    pub painted_water: Option<&'a [f32]>,
}

impl<'a> SurfaceInput<'a> {
    /// A dry, unpainted surface (inferred sea at `sea_level`, no drainage or erosion).
    pub fn new(grid: Grid, heights: &'a [f32], sea_level: f32) -> Self {
        Self {
            grid,
            heights,
            sea_level,
            water: None,
            flow: None,
            erosion: None,
            painted: None,
            painted_water: None,
        }
    }

    /// Where coverage comes from.
    pub fn water_source(&self) -> WaterSource<'a> {
        match self.water {
            Some(set) => WaterSource::Bodies(set),
            None => WaterSource::InferredSea {
                level: self.sea_level,
            },
        }
    }

    /// Checks lengths and values against the grid and a table of `biomes` biomes.
    pub fn validate(&self, biomes: usize) -> Result<()> {
        self.validate_in(biomes, None)
    }

    /// [`SurfaceInput::validate`] with the per-sample values checked only inside `rect` (all
    /// samples when `None`); lengths are always checked. An incremental pass checks only what
    /// an edit changed: the rest was checked by the pass that classified it.
    pub fn validate_in(&self, biomes: usize, rect: Option<SampleRect>) -> Result<()> {
        let n = self.grid.sample_count();
        if let Some(r) = rect {
            let mut d = Diagnostics::default();
            let w = self.grid.samples()[0];
            let lens = [
                self.heights.len(),
                self.flow.map_or(n, <[f32]>::len),
                self.erosion.map_or(n, <[f32]>::len),
                self.painted.map_or(n, <[u16]>::len),
                self.water
                    .map_or(n, |o| if o.is_empty() { n } else { o.len() }),
            ];
            if lens.iter().any(|&l| l != n) {
                return self.validate_in(biomes, None);
            }
            for z in r.z0..r.z1 {
                for i in z * w + r.x0..z * w + r.x1 {
                    if !self.heights[i].is_finite() {
                        d.push(format!("heights[{i}]"), "height must be finite");
                    }
                    for (name, s) in [("flow", self.flow), ("erosion", self.erosion)] {
                        if s.is_some_and(|s| !s[i].is_finite()) {
                            d.push(format!("{name}[{i}]"), "must be finite");
                        }
                    }
                    if let Some(p) = self.painted
                        && p[i] as usize > biomes
                    {
                        d.push(
                            format!("painted[{i}]"),
                            format!("biome id {} does not exist ({biomes} biomes)", p[i] - 1),
                        );
                    }
                }
            }
            return d.into_result();
        }
        let mut d = Diagnostics::default();
        let mut len = |name: &str, got: usize| {
            if got != n {
                d.push(
                    name,
                    format!("expected {n} samples (one per grid sample), got {got}"),
                );
            }
        };
        len("heights", self.heights.len());
        if let Some(f) = self.flow {
            len("flow", f.len());
        }
        if let Some(e) = self.erosion {
            len("erosion", e.len());
        }
        if let Some(p) = self.painted {
            len("painted", p.len());
        }
        if let Some(i) = self.heights.iter().position(|h| !h.is_finite()) {
            d.push(format!("heights[{i}]"), "height must be finite");
        }
        if self.sea_level.is_nan() {
            d.push("sea_level", "must be a number");
        }
        for (name, s) in [("flow", self.flow), ("erosion", self.erosion)] {
            if let Some(i) = s.and_then(|s| s.iter().position(|v| !v.is_finite())) {
                d.push(format!("{name}[{i}]"), "must be finite");
            }
        }
        if let Some(p) = self.painted
            && let Some(i) = p.iter().position(|&v| v as usize > biomes)
        {
            d.push(
                format!("painted[{i}]"),
                format!("biome id {} does not exist ({biomes} biomes)", p[i] - 1),
            );
        }
        if let Some(w) = self.water
            && !(w.is_empty() || w.len() == n)
        {
            d.push(
                "water",
                format!(
                    "connected water has {} samples, the terrain {n}: it must be on the terrain grid",
                    w.len()
                ),
            );
        }
        d.into_result()
    }
}

/// Biomes and roles of every sample, plus what incremental passes and `explain` reuse.
#[derive(Clone, Debug, PartialEq)]
pub struct Classification {
    pub(super) grid: Grid,
    pub(super) biome: Vec<u16>,
    pub(super) role: Vec<Role>,
    /// Coverage flags ([`coverage::COVERED`], [`coverage::BELOW_SEA`]).
    pub(super) flags: Vec<u8>,
    /// Water distance per sample; `None` when nothing is covered (all infinite).
    pub(super) distance: Option<Vec<f32>>,
    /// The inferred sea's level, `None` when connected water was used.
    pub(super) sea: Option<f32>,
}

impl Classification {
    /// A classification of no sample on `grid` (a placeholder until a pass fills one).
    pub fn empty(grid: Grid) -> Self {
        Self {
            grid,
            biome: Vec::new(),
            role: Vec::new(),
            flags: Vec::new(),
            distance: None,
            sea: None,
        }
    }
    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
    /// Biome id per sample (an index into [`Classifier::biomes`]).
    pub fn biome_ids(&self) -> &[u16] {
        &self.biome
    }
    /// Surface role per sample.
    pub fn roles(&self) -> &[Role] {
        &self.role
    }
    /// Role ids per sample (payloads, control maps).
    pub fn role_ids(&self) -> Vec<u8> {
        self.role.iter().map(|&r| r as u8).collect()
    }
    /// The biome id and role id of every sample, packed ([`super::SampleClasses`]).
    pub fn classes(&self) -> super::SampleClasses {
        super::SampleClasses::from_pairs(
            self.biome
                .iter()
                .zip(&self.role)
                .map(|(&b, &r)| (b, r as u8)),
        )
    }
    /// True when sample `i` is under water.
    pub fn covered(&self, i: usize) -> bool {
        self.flags[i] & COVERED != 0
    }
    /// Water distance of sample `i` (infinite when nothing is covered).
    pub fn water_distance(&self, i: usize) -> f32 {
        self.distance.as_ref().map_or(f32::INFINITY, |d| d[i])
    }
    /// Role of triangle `upper` (false: lower) of cell (x, z): its vertices' majority.
    pub fn triangle_role(&self, x: usize, z: usize, upper: bool) -> Role {
        super::roles::triangle_role(&self.grid, &self.role, x, z, upper)
    }
    /// Bytes held on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.biome.len() * 2
            + self.role.len()
            + self.flags.len()
            + self.distance.as_ref().map_or(0, |d| d.len() * 4)
    }
}

/// Everything classification needs that does not change between passes.
#[derive(Clone, Debug, PartialEq)]
pub struct Classifier {
    biomes: Vec<BiomeSpec>,
    /// `allow_snow` per biome id (the inner loop reads it).
    pub(super) allow_snow: Vec<bool>,
    pub(super) default_biome: u16,
    pub(super) rules: RuleSet,
    pub(super) params: SurfaceParams,
    climate: Climate,
}

impl Classifier {
    /// Compiles a classifier. `biomes` is the biome table (ids are positions); `default_biome`
    /// must name one; `layers` are the recipe's biome layers in order. Problems are located
    /// (`default_biome`, `rules[2].biome`, `surface.cliff_slope`).
    pub fn new(
        seed: u64,
        biomes: Vec<BiomeSpec>,
        default_biome: &str,
        rules: &[RuleSpec],
        layers: &[BiomeLayer],
        params: SurfaceParams,
    ) -> Result<Self> {
        let mut d = Diagnostics::default();
        if biomes.is_empty() || biomes.len() >= u16::MAX as usize {
            d.push(
                "biomes",
                format!("needs 1..={} biomes, got {}", u16::MAX - 1, biomes.len()),
            );
        }
        let default = biomes.iter().position(|b| b.name == default_biome);
        if default.is_none() {
            d.push(
                "default_biome",
                format!("names `{default_biome}`, which is not a defined biome"),
            );
        }
        params.validate("surface", &mut d);
        let compiled = RuleSet::compile(rules, &biomes, layers, "rules");
        if let Err(Error::Invalid(list)) = &compiled {
            d.0.extend(list.iter().cloned());
        }
        d.into_result()?;
        Ok(Self {
            allow_snow: biomes.iter().map(|b| b.allow_snow).collect(),
            default_biome: default.unwrap_or(0) as u16,
            rules: compiled?,
            biomes,
            params,
            climate: Climate::new(seed),
        })
    }

    /// The same classifier with the climate of `biome_placement` sub-seed `sub_seed` (a cooked
    /// payload's: it stores the sub-seed, not the world seed).
    pub fn with_climate_sub_seed(mut self, sub_seed: u64) -> Self {
        self.climate = Climate::from_sub_seed(sub_seed);
        self
    }

    /// The same classifier with snow from height `line` (infinity: no snow).
    pub fn with_snow_line(&self, line: f32) -> Self {
        let mut c = self.clone();
        c.params.snow_line = line;
        c
    }

    /// The biome table.
    pub fn biomes(&self) -> &[BiomeSpec] {
        &self.biomes
    }
    /// The default biome's id.
    pub fn default_biome(&self) -> u16 {
        self.default_biome
    }
    /// The compiled rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }
    /// The thresholds.
    pub fn params(&self) -> &SurfaceParams {
        &self.params
    }
    /// The climate field.
    pub fn climate(&self) -> &Climate {
        &self.climate
    }

    /// Classifies every sample. Checks `cancel` between rows.
    pub fn classify(&self, input: &SurfaceInput, cancel: &AtomicBool) -> Result<Classification> {
        input.validate(self.biomes.len())?;
        let grid = input.grid;
        let flags = coverage::flags_with_painted(
            &grid,
            input.heights,
            input.water_source(),
            input.painted_water,
        );
        let distance = distance_transform(&grid, &flags);
        let n = grid.sample_count();
        let mut cls = Classification {
            grid,
            biome: vec![0; n],
            role: vec![Role::Ground; n],
            flags,
            distance,
            sea: input.water.is_none().then_some(input.sea_level),
        };
        self.fill_rows(input, &mut cls, cancel)?;
        Ok(cls)
    }

    /// Recomputes biome and role of every sample from the coverage and distance in `cls`.
    pub(super) fn fill_rows(
        &self,
        input: &SurfaceInput,
        cls: &mut Classification,
        cancel: &AtomicBool,
    ) -> Result<()> {
        let grid = input.grid;
        let w = grid.samples()[0];
        let rows = self.climate.rows(&grid);
        let pass = Pass::new(input, &self.params, &cls.flags, cls.distance.as_deref());
        cls.biome
            .par_chunks_mut(w)
            .zip(cls.role.par_chunks_mut(w))
            .enumerate()
            .for_each_init(
                || (RowScratch::default(), RowBuffers::new(w)),
                |(scratch, buf), (z, (biome, role))| {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    self.fill_segment(&pass, &rows, z, [0, w], scratch, buf, biome, role);
                },
            );
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        Ok(())
    }

    /// Recomputes biome and role of the samples of `rect` with the row pass over the
    /// rectangle's row segments (climate, slope, rules: the same bits as a full pass).
    pub(super) fn fill_rect(
        &self,
        input: &SurfaceInput,
        cls: &mut Classification,
        rect: SampleRect,
    ) {
        let w = input.grid.samples()[0];
        let pass = Pass::new(input, &self.params, &cls.flags, cls.distance.as_deref());
        let rows = self.climate.segments(&input.grid, rect.x0, rect.x1);
        let mut scratch = RowScratch::default();
        let mut buf = RowBuffers::new(rect.x1.saturating_sub(rect.x0));
        for z in rect.z0..rect.z1 {
            let span = z * w + rect.x0..z * w + rect.x1;
            let (biome, role) = (&mut cls.biome[span.clone()], &mut cls.role[span]);
            let segment = [rect.x0, rect.x1];
            self.fill_segment(
                &pass,
                &rows,
                z,
                segment,
                &mut scratch,
                &mut buf,
                biome,
                role,
            );
        }
    }

    /// The context of sample (x, z), given its climate value.
    #[inline(always)]
    pub(super) fn context(&self, pass: &Pass, x: usize, z: usize, climate: f32) -> SampleContext {
        let slope = slope_at(pass.heights, pass.w, pass.h, pass.dx, pass.dz, x, z);
        self.context_in(pass, &pass.row(z), x, climate, slope)
    }

    /// The context of sample `x` of `row`, given its climate and slope: the one definition
    /// the row pass and the per-sample paths share.
    #[inline(always)]
    pub(super) fn context_in(
        &self,
        pass: &Pass,
        row: &Row,
        x: usize,
        climate: f32,
        slope: f32,
    ) -> SampleContext {
        let p = &self.params;
        let (wetness, river) = match row.flow {
            Some(f) => (
                p.flow.wetness_with(f[x], pass.cell_area, pass.inv_span),
                f[x] * pass.cell_area >= p.river_area,
            ),
            None => (0.0, false),
        };
        let mut ctx = SampleContext {
            height: row.heights[x],
            slope,
            moisture: p.flow.apply(climate, wetness),
            water_distance: row.distance.map_or(f32::INFINITY, |d| d[x]),
            covered: row.flags[x] & COVERED != 0,
            river,
            erosion: row.erosion.map_or(0.0, |e| e[x]),
            substrate: Substrate::Soil,
        };
        ctx.substrate = Substrate::of(&ctx, p);
        ctx
    }

    /// The biome decision and the role of sample `i` with context `ctx`.
    #[inline(always)]
    pub(super) fn decide(&self, pass: &Pass, ctx: &SampleContext, i: usize) -> (Decision, Role) {
        let w = pass.w;
        self.decide_in(&pass.row(i / w), ctx, i % w)
    }

    /// The biome decision and the role of sample `x` of `row`.
    #[inline(always)]
    pub(super) fn decide_in(&self, row: &Row, ctx: &SampleContext, x: usize) -> (Decision, Role) {
        let painted = row.painted.map_or(0, |p| p[x]);
        let d = self.rules.decide(ctx, painted, self.default_biome);
        let snow = self.allow_snow[d.biome as usize];
        (d, Role::of(ctx, snow, &self.params))
    }

    /// The context of sample (x, z) as the last pass saw it (for `explain`).
    pub fn context_at(
        &self,
        input: &SurfaceInput,
        cls: &Classification,
        x: usize,
        z: usize,
    ) -> SampleContext {
        let [px, pz] = input.grid.sample_position(x, z);
        let pass = Pass::new(input, &self.params, &cls.flags, cls.distance.as_deref());
        self.context(&pass, x, z, self.climate.at(px, pz))
    }

    /// The decision (biome and source) and role of sample (x, z) with context `ctx`.
    pub fn decision_at(
        &self,
        input: &SurfaceInput,
        cls: &Classification,
        ctx: &SampleContext,
        x: usize,
        z: usize,
    ) -> (Decision, Role) {
        let pass = Pass::new(input, &self.params, &cls.flags, cls.distance.as_deref());
        self.decide(&pass, ctx, input.grid.index(x, z))
    }
}

/// One pass's inputs with the grid's numbers at hand (the per-sample loop reads these).
pub(super) struct Pass<'a> {
    pub(super) heights: &'a [f32],
    pub(super) w: usize,
    pub(super) h: usize,
    pub(super) dx: f32,
    pub(super) dz: f32,
    pub(super) cell_area: f32,
    pub(super) inv_span: f32,
    flow: Option<&'a [f32]>,
    erosion: Option<&'a [f32]>,
    painted: Option<&'a [u16]>,
    flags: &'a [u8],
    distance: Option<&'a [f32]>,
}

/// One row (or row segment) of a pass's per-sample inputs (every slice is as long).
pub(super) struct Row<'a> {
    pub(super) heights: &'a [f32],
    pub(super) flow: Option<&'a [f32]>,
    pub(super) erosion: Option<&'a [f32]>,
    pub(super) painted: Option<&'a [u16]>,
    pub(super) flags: &'a [u8],
    pub(super) distance: Option<&'a [f32]>,
}

impl<'a> Pass<'a> {
    /// The inputs of row `z`.
    #[inline(always)]
    pub(super) fn row(&self, z: usize) -> Row<'a> {
        self.segment(z, 0, self.w)
    }

    /// The inputs of samples `x0..x1` of row `z`.
    #[inline(always)]
    pub(super) fn segment(&self, z: usize, x0: usize, x1: usize) -> Row<'a> {
        let r = z * self.w + x0..z * self.w + x1;
        Row {
            heights: &self.heights[r.clone()],
            flow: self.flow.map(|f| &f[r.clone()]),
            erosion: self.erosion.map(|e| &e[r.clone()]),
            painted: self.painted.map(|p| &p[r.clone()]),
            flags: &self.flags[r.clone()],
            distance: self.distance.map(|d| &d[r]),
        }
    }

    fn new(
        input: &SurfaceInput<'a>,
        params: &SurfaceParams,
        flags: &'a [u8],
        distance: Option<&'a [f32]>,
    ) -> Self {
        let [w, h] = input.grid.samples();
        let [dx, dz] = input.grid.spacing();
        Self {
            heights: input.heights,
            w,
            h,
            dx,
            dz,
            cell_area: dx * dz,
            inv_span: params.flow.inv_span(),
            flow: input.flow,
            erosion: input.erosion,
            painted: input.painted,
            flags,
            distance,
        }
    }
}

#[cfg(test)]
mod tests;
