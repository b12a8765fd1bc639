//! Painted foliage density: a multiplier (0–1) per terrain sample and foliage type, written by
//! `foliage_density` strokes in the recipe's `foliage_paint` list.
//!
//! ```json
//! { "type": "foliage_density", "foliage": "grass", "density": 0, "center": [24, 32],
//!   "radius": 6, "falloff": 0.5 }
//! ```
//!
//! Every map starts at 1 (the type's automatic density applies in full). Each stamp moves a
//! sample's multiplier `m` toward `density` by the brush weight `w = strength · fade`:
//! `m ← m + (density − m) · w`. A stamp reads and writes only the samples under it, so
//! replaying the strokes on any rectangle gives the same values there as a full replay: an
//! edit session recomputes only the stroke's footprint. Foliage strokes belong to no layer.

use super::apply::Window;
use super::rect::Rect;
use super::stroke::{Op, Stroke};
use crate::grid::Grid;
use std::collections::BTreeMap;

/// The stroke type.
pub const TYPE: &str = "foliage_density";

/// Painted density multipliers by foliage type id, one value per sample (row-major). A type
/// without a map is 1 everywhere.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FoliageMaps {
    samples: usize,
    maps: BTreeMap<String, Vec<f32>>,
}

impl FoliageMaps {
    /// No painted density on a grid of `samples` samples.
    pub fn new(samples: usize) -> Self {
        Self {
            samples,
            maps: BTreeMap::new(),
        }
    }

    /// Type `id`'s map (`None`: never painted, 1 everywhere).
    pub fn get(&self, id: &str) -> Option<&[f32]> {
        self.maps.get(id).map(Vec::as_slice)
    }

    /// The multiplier of type `id` at sample `i` (1 where unpainted).
    pub fn value(&self, id: &str, i: usize) -> f32 {
        self.get(id).and_then(|m| m.get(i)).copied().unwrap_or(1.0)
    }

    /// The painted type ids.
    pub fn types(&self) -> impl Iterator<Item = &str> {
        self.maps.keys().map(String::as_str)
    }

    /// Sets type `id`'s whole map (one value per sample, as a cooked payload stores it).
    /// Returns false and changes nothing when `values` does not hold one value per sample.
    pub fn insert(&mut self, id: &str, values: Vec<f32>) -> bool {
        if values.len() != self.samples {
            return false;
        }
        self.maps.insert(id.to_string(), values);
        true
    }

    /// Samples per map.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// Bytes held by the maps.
    pub fn heap_bytes(&self) -> usize {
        self.maps.values().map(|m| m.len() * 4).sum()
    }

    /// Type `id`'s values over `rect` (ones where unpainted).
    pub fn copy(&self, id: &str, rect: Rect, all: &Rect) -> Vec<f32> {
        match self.get(id) {
            Some(m) => rect.copy_from(m, all),
            None => vec![1.0; rect.area()],
        }
    }

    /// Writes `values` (row-major over `rect`) into type `id`'s map, creating it.
    pub fn write(&mut self, id: &str, rect: Rect, all: &Rect, values: &[f32]) {
        if rect.is_empty() {
            return;
        }
        let n = self.samples;
        let map = self
            .maps
            .entry(id.to_string())
            .or_insert_with(|| vec![1.0; n]);
        rect.write_into(map, all, values);
    }
}

/// Applies one `foliage_density` stroke to `win` (a window of its type's map).
pub fn apply(stroke: &Stroke, grid: &Grid, win: &mut Window) {
    let Op::FoliageDensity { density, .. } = &stroke.op else {
        return;
    };
    let target = *density as f32;
    let b = &stroke.brush;
    for c in stroke.stamps() {
        let r = stroke.stamp_rect(grid, c).intersect(&win.rect);
        for z in r.z0..r.z1 {
            for x in r.x0..r.x1 {
                let [px, pz] = grid.sample_position(x, z);
                let fade = b.fade(px - c[0], pz - c[1]);
                if fade <= 0.0 {
                    continue;
                }
                let w = b.strength * fade;
                let i = (z - win.rect.z0) * win.rect.width() + (x - win.rect.x0);
                let m = win.values[i];
                win.values[i] = (m + (target - m) * w).clamp(0.0, 1.0);
            }
        }
    }
}

/// Replays `strokes` (in order) of type `id` on `rect` from 1: the map's values there.
pub fn replay<'a>(
    strokes: impl IntoIterator<Item = &'a Stroke>,
    id: &str,
    grid: &Grid,
    rect: Rect,
) -> Vec<f32> {
    replay_onto(strokes, id, grid, rect, vec![1.0; rect.area()])
}

/// Replays `strokes` (`foliage_density` and `foliage_patch`, in order) of type `id` on `rect`
/// starting from `start` (row-major over
/// `rect`: a base map's values there).
pub fn replay_onto<'a>(
    strokes: impl IntoIterator<Item = &'a Stroke>,
    id: &str,
    grid: &Grid,
    rect: Rect,
    start: Vec<f32>,
) -> Vec<f32> {
    let mut win = Window {
        rect,
        values: start,
    };
    for s in strokes {
        match &s.op {
            Op::FoliageDensity { foliage, .. }
                if foliage == id && s.footprint(grid).intersects(&rect) =>
            {
                apply(s, grid, &mut win);
            }
            Op::FoliagePatch { foliage, patch } if foliage == id => {
                patch.write_fractions(rect, &mut win.values);
            }
            _ => {}
        }
    }
    win.values
}
