//! The row pass: one row of the classification at a time, in struct-of-arrays form.
//!
//! Per row (or row segment of an edited rectangle): climate (the noise row sampler), slope (vectorised central differences), moisture
//! and stream flags, substrate, then every rule over the whole row (bit masks), the decisions,
//! and the roles. Each step is a loop over plain arrays the compiler vectorises; the per-sample
//! definitions are shared with the point path ([`Classifier::context_at`], incremental
//! rectangles, `explain`), so both give the same bits — the incremental and explain tests
//! compare them sample by sample.

use super::classify::{Classifier, Pass};
use super::coverage::COVERED;
use super::moisture::ClimateRows;
use super::roles::{Role, RoleInputs, role_code};
use super::slope::fill_segment_at;
use super::substrate::{Substrate, substrate_code};
use crate::noise::RowScratch;

/// Per-thread buffers, one row long each.
pub(super) struct RowBuffers {
    climate: Vec<f32>,
    slope: Vec<f32>,
    moisture: Vec<f32>,
    water: Vec<f32>,
    erosion: Vec<f32>,
    /// 0/1 flags as `u32`, so every array of a loop has the same lane width.
    covered: Vec<u32>,
    river: Vec<u32>,
    rock: Vec<u32>,
    snow: Vec<u32>,
    /// `1 << substrate id`.
    substrate: Vec<u32>,
    masks: Vec<u32>,
}

impl RowBuffers {
    pub(super) fn new(w: usize) -> Self {
        Self {
            climate: vec![0.0; w],
            slope: vec![0.0; w],
            moisture: vec![0.0; w],
            water: vec![0.0; w],
            erosion: vec![0.0; w],
            covered: vec![0; w],
            river: vec![0; w],
            rock: vec![0; w],
            snow: vec![0; w],
            substrate: vec![0; w],
            masks: vec![0; w],
        }
    }
}

impl Classifier {
    /// Biome and role of the samples `x0..x1` of row `z` (`biome[k]`, `role[k]` for sample
    /// `x0 + k`); `rows` samples the climate of exactly those columns and `b` holds at least
    /// `x1 - x0` samples. The whole row (0..width) in a full pass, the edited rectangle's
    /// columns in an incremental one: the same bits either way.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fill_segment(
        &self,
        pass: &Pass,
        rows: &ClimateRows,
        z: usize,
        [x0, x1]: [usize; 2],
        scratch: &mut RowScratch,
        b: &mut RowBuffers,
        biome: &mut [u16],
        role: &mut [Role],
    ) {
        let w = x1 - x0;
        let p = &self.params;
        rows.fill(z, &mut b.climate[..w], scratch);
        let (pw, ph) = (pass.w, pass.h);
        fill_segment_at(
            pass.heights,
            pw,
            ph,
            pass.dx,
            pass.dz,
            z,
            x0,
            x1,
            &mut b.slope[..w],
        );
        let row = pass.segment(z, x0, x1);
        if !self.rules.row_path() {
            // More rules than mask bits: the per-sample path.
            for x in 0..w {
                let ctx = self.context_in(pass, &row, x, b.climate[x], b.slope[x]);
                let (d, r) = self.decide_in(&row, &ctx, x);
                biome[x] = d.biome;
                role[x] = r;
            }
            return;
        }
        let (climate, slope, heights) = (&b.climate[..w], &b.slope[..w], &row.heights[..w]);
        // Moisture and streams, as `context_in` computes them.
        let (moisture, river) = (&mut b.moisture[..w], &mut b.river[..w]);
        match row.flow {
            Some(f) => {
                for x in 0..w {
                    let wet = p.flow.wetness_with(f[x], pass.cell_area, pass.inv_span);
                    moisture[x] = p.flow.apply(climate[x], wet);
                    river[x] = u32::from(f[x] * pass.cell_area >= p.river_area);
                }
            }
            None => {
                for x in 0..w {
                    moisture[x] = p.flow.apply(climate[x], 0.0);
                }
                river.fill(0);
            }
        }
        let water = &mut b.water[..w];
        match row.distance {
            Some(d) => water.copy_from_slice(d),
            None => water.fill(f32::INFINITY),
        }
        let erosion = &mut b.erosion[..w];
        match row.erosion {
            Some(e) => erosion.copy_from_slice(e),
            None => erosion.fill(0.0),
        }
        let covered = &mut b.covered[..w];
        for (c, &f) in covered.iter_mut().zip(row.flags) {
            *c = u32::from(f & COVERED != 0);
        }
        let (substrate, rock) = (&mut b.substrate[..w], &mut b.rock[..w]);
        let (moisture, river, water, erosion, covered) = (
            &b.moisture[..w],
            &b.river[..w],
            &b.water[..w],
            &b.erosion[..w],
            &b.covered[..w],
        );
        for x in 0..w {
            let s = substrate_code(
                (covered[x] | river[x]) != 0,
                slope[x],
                erosion[x],
                water[x],
                p,
            );
            substrate[x] = 1 << s;
            rock[x] = u32::from(s == Substrate::Rock as u8);
        }
        self.rules.row_masks(
            [slope, moisture, water, heights],
            &b.substrate[..w],
            &mut b.masks[..w],
        );
        let (masks, snow) = (&b.masks[..w], &mut b.snow[..w]);
        let biome = &mut biome[..w];
        for x in 0..w {
            let painted = row.painted.map_or(0, |p| p[x]);
            let id = if painted != 0 {
                painted - 1
            } else {
                match self.rules.winner_from_mask(masks[x], heights[x]) {
                    Some((i, _)) => self.rules.rules()[i].biome,
                    None => self.default_biome,
                }
            };
            biome[x] = id;
            snow[x] = u32::from(self.allow_snow[id as usize]);
        }
        let (snow, rock) = (&b.snow[..w], &b.rock[..w]);
        for (x, r) in role[..w].iter_mut().enumerate() {
            let code = role_code(
                RoleInputs {
                    covered: covered[x] != 0,
                    slope: slope[x],
                    allow_snow: snow[x] != 0,
                    height: heights[x],
                    rock: rock[x] != 0,
                    erosion: erosion[x],
                    river: river[x] != 0,
                    water_distance: water[x],
                    moisture: moisture[x],
                },
                p,
            );
            *r = Role::ALL[code as usize];
        }
    }
}
