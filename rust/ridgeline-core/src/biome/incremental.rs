//! Incremental reclassification after an edit: the same bytes as a full pass, for the cost of
//! the edited rectangle.
//!
//! A sample's biome and role depend on its own inputs (height, flow, erosion change, painted
//! biome), on its four edge neighbours' heights (the slope stencil) and on two fields that are
//! not local: water coverage and the distance to it. So after an edit confined to a rectangle:
//!
//! 1. coverage is checked exactly. In inferred-sea mode it can only change when an edited
//!    sample crossed the sea level (then the sea is flooded again); with connected water the
//!    new coverage is compared with the old over the whole grid (bodies may have been
//!    refreshed on the new ground).
//! 2. If coverage is unchanged, only the rectangle grown by one sample is reclassified.
//! 3. If it changed, the distance transform runs again and every sample is reclassified (the
//!    rare case: an edit at a shoreline that moves the water's edge).
//!
//! Either way the result is what [`Classifier::classify`] gives on the new input; a property
//! test checks it bit for bit on random rectangles.

use super::SampleRect;
use super::classify::{Classification, Classifier, SurfaceInput};
use super::coverage::{self, BELOW_SEA, COVERED, WaterSource};
use super::water_distance::distance_transform;
use crate::error::{Error, Result};
use std::sync::atomic::AtomicBool;

impl Classifier {
    /// Brings `cls` up to date with `input` after an edit. `changed` must hold every sample
    /// whose height, flow, erosion change or painted biome differs from the input of the pass
    /// that produced `cls`; water coverage may differ anywhere (it is checked). Returns the
    /// bounds of the samples whose biome or role changed, `None` when none did.
    pub fn reclassify(
        &self,
        cls: &mut Classification,
        input: &SurfaceInput,
        changed: SampleRect,
    ) -> Result<Option<SampleRect>> {
        let grid = input.grid;
        let [w, h] = grid.samples();
        input.validate_in(self.biomes().len(), Some(changed.clipped(w, h)))?;
        if cls.grid.samples() != [w, h] || cls.grid.spacing() != grid.spacing() {
            return Err(Error::invalid(
                "grid",
                "the classification was made on another grid; run a full pass",
            ));
        }
        let never = AtomicBool::new(false);
        let same_mode = match (input.water, cls.sea) {
            (None, Some(level)) => level.to_bits() == input.sea_level.to_bits(),
            (Some(_), None) => true,
            _ => false,
        };
        if !same_mode {
            let fresh = self.classify(input, &never)?;
            return Ok(replace(cls, fresh));
        }
        let changed = changed.clipped(w, h);
        let new_flags = match input.water_source() {
            // Painted water: the flags are recomputed whole (painted coverage may change
            // anywhere the edit reached, and the comparison below finds whether it moved).
            source if input.painted_water.is_some() => Some(coverage::flags_with_painted(
                &grid,
                input.heights,
                source,
                input.painted_water,
            )),
            WaterSource::InferredSea { level } => {
                let crossed = (changed.z0..changed.z1).any(|z| {
                    (changed.x0..changed.x1).any(|x| {
                        let i = z * w + x;
                        (input.heights[i] < level) != (cls.flags[i] & BELOW_SEA != 0)
                    })
                });
                crossed.then(|| coverage::flags(&grid, input.heights, input.water_source()))
            }
            WaterSource::Bodies(set) => {
                let differs = (0..w * h).any(|i| {
                    (set.get(i).copied().unwrap_or(0) != 0) != (cls.flags[i] & COVERED != 0)
                });
                differs.then(|| coverage::flags(&grid, input.heights, input.water_source()))
            }
        };
        if let Some(flags) = new_flags {
            let coverage_moved = flags
                .iter()
                .zip(&cls.flags)
                .any(|(a, b)| (a ^ b) & COVERED != 0);
            cls.flags = flags;
            if coverage_moved {
                let old = (cls.biome.clone(), cls.role.clone());
                cls.distance = distance_transform(&grid, &cls.flags);
                self.fill_rows(input, cls, &never)?;
                return Ok(diff_bounds(w, &old.0, &old.1, cls, SampleRect::all(w, h)));
            }
        }
        if changed.is_empty() {
            return Ok(None);
        }
        let rect = changed.grown(1, w, h);
        let mut old_biome = Vec::with_capacity(rect.area());
        let mut old_role = Vec::with_capacity(rect.area());
        for z in rect.z0..rect.z1 {
            old_biome.extend_from_slice(&cls.biome[z * w + rect.x0..z * w + rect.x1]);
            old_role.extend_from_slice(&cls.role[z * w + rect.x0..z * w + rect.x1]);
        }
        self.fill_rect(input, cls, rect);
        let mut bounds: Option<SampleRect> = None;
        let rw = rect.x1 - rect.x0;
        for z in rect.z0..rect.z1 {
            for x in rect.x0..rect.x1 {
                let (i, k) = (z * w + x, (z - rect.z0) * rw + (x - rect.x0));
                if cls.biome[i] != old_biome[k] || cls.role[i] != old_role[k] {
                    let one = SampleRect::new(x, z, x + 1, z + 1);
                    bounds = Some(bounds.map_or(one, |b| b.union(&one)));
                }
            }
        }
        Ok(bounds)
    }
}

/// Swaps in a fresh classification; the bounds of what differs.
fn replace(cls: &mut Classification, fresh: Classification) -> Option<SampleRect> {
    let [w, h] = fresh.grid.samples();
    let old = std::mem::replace(cls, fresh);
    diff_bounds(w, &old.biome, &old.role, cls, SampleRect::all(w, h))
}

fn diff_bounds(
    w: usize,
    biome: &[u16],
    role: &[super::Role],
    cls: &Classification,
    area: SampleRect,
) -> Option<SampleRect> {
    let mut bounds: Option<SampleRect> = None;
    for z in area.z0..area.z1 {
        let row = z * w;
        let differs =
            |x: usize| biome[row + x] != cls.biome[row + x] || role[row + x] != cls.role[row + x];
        let Some(first) = (area.x0..area.x1).find(|&x| differs(x)) else {
            continue;
        };
        let last = (area.x0..area.x1)
            .rev()
            .find(|&x| differs(x))
            .unwrap_or(first);
        let one = SampleRect::new(first, z, last + 1, z + 1);
        bounds = Some(bounds.map_or(one, |b| b.union(&one)));
    }
    bounds
}

#[cfg(test)]
mod tests;
