//! The edit session's painted water (`crate::edit::water`): the depth fractions replayed from
//! the `paint_water` strokes, the bed lowering applied to every height replay, and the
//! Godot-facing write ([`EditSession::paint_water`]).

use super::{Change, EditSession};
use crate::edit::rect::Rect;
use crate::edit::stroke::List;
use crate::edit::water::{MAX_WATER_DEPTH, WaterLayer, replay_from};
use crate::error::{Error, Result};

impl EditSession {
    /// The painted water layer (depth fractions per sample).
    pub fn water(&self) -> &WaterLayer {
        &self.water
    }

    /// The painted water depths in metres per sample, or empty when nothing is painted (what
    /// `hydrology::water::WaterSet::set_painted` takes).
    pub fn water_depths(&self) -> Vec<f32> {
        self.water.depths()
    }

    /// The depth fractions of `rect` replayed from the enabled `paint_water` strokes.
    pub(super) fn replay_water(&self, rect: Rect) -> Vec<f32> {
        let [w, _] = self.grid.samples();
        let start = self.base_water.read_rect(rect, w);
        if rect.is_empty() || !self.has_water_strokes() {
            return start;
        }
        let order = self.order(List::Edits);
        replay_from(
            start,
            order.iter().map(|&i| &self.edits[i]),
            &self.grid,
            rect,
        )
    }

    /// Makes `depths` (metres per sample: a cooked terrain's painted water, the payload's
    /// `meta.paint.water`) the water the `paint_water` strokes paint over. The session's
    /// heights are the beds under it; the height strokes replay from the surface above them
    /// (bed + depth), so a stroke moves the ground as on the recipe, level mode included, and
    /// samples no stroke touches keep their cooked heights exactly. Depths of another grid,
    /// or not finite and within 0..=[`MAX_WATER_DEPTH`], are an error and change nothing.
    pub fn set_base_water(&mut self, depths: &[f32]) -> Result<()> {
        let n = self.grid.sample_count();
        if depths.len() != n {
            return Err(Error::invalid(
                "base water",
                format!("has {} samples; the grid has {n}", depths.len()),
            ));
        }
        if let Some(i) = depths
            .iter()
            .position(|d| !d.is_finite() || !(0.0..=MAX_WATER_DEPTH).contains(d))
        {
            return Err(Error::invalid(
                format!("base water[{i}]"),
                format!("must be 0..={MAX_WATER_DEPTH} metres, got {}", depths[i]),
            ));
        }
        // The base heights go back up to the surface by the old base's depth and down by nothing.
        for (i, h) in self.base.iter_mut().enumerate() {
            let old = self.base_water.depth(i);
            let d = depths[i];
            if d != old {
                *h += d - old;
            }
        }
        self.base_water = WaterLayer::from_depths(n, depths);
        self.water = self.base_water.clone();
        let all = self.all();
        self.refresh_water(all);
        // A classification made before covers the water now (underwater roles, wet distances).
        self.cover_painted_water();
        Ok(())
    }

    /// True when any sample may hold painted water (a `paint_water` stroke or base water).
    pub(super) fn has_water(&self) -> bool {
        self.has_water_strokes() || !self.base_water.is_dry()
    }

    /// Hands the painted water to the classification (the next reclassification covers the
    /// wet samples like water bodies: `underwater` roles, wet distances, scatter's water rules).
    pub(super) fn sync_surface_water(&mut self) {
        if let Some(state) = &mut self.surface {
            state.set_painted_water(self.water.all_depths());
        }
    }

    /// True when any height stroke paints water.
    pub(super) fn has_water_strokes(&self) -> bool {
        self.edits.iter().any(|s| {
            matches!(
                s.op,
                crate::edit::stroke::Op::PaintWater(_) | crate::edit::stroke::Op::WaterPatch(_)
            )
        })
    }

    /// Replays the water layer on `rect` and stores it; returns true when a fraction changed.
    pub(super) fn refresh_water(&mut self, rect: Rect) -> bool {
        if rect.is_empty() {
            return false;
        }
        let [w, _] = self.grid.samples();
        let before = self.water.read_rect(rect, w);
        let after = self.replay_water(rect);
        if before == after {
            return false;
        }
        self.water.write_rect(rect, w, &after);
        true
    }

    /// Paints water with one `paint_water` stamp at terrain-local `center` (see
    /// [`crate::edit::water`]): `depth` metres (0..=[`MAX_WATER_DEPTH`]; 0 removes), brush
    /// `radius` and `strength` (0–1), and in level mode the water `level` the height moves
    /// toward. Errors name the bad argument and change nothing.
    pub fn paint_water(
        &mut self,
        center: [f32; 2],
        radius: f32,
        depth: f32,
        strength: f32,
        level: Option<f32>,
    ) -> Result<Change> {
        let bad = |what: &str, msg: String| Err(Error::invalid(what, msg));
        if !center.iter().all(|c| c.is_finite()) {
            return bad("center", format!("must be finite, got {center:?}"));
        }
        if !radius.is_finite() || radius <= 0.0 {
            return bad("radius", format!("must be finite and > 0, got {radius}"));
        }
        if !depth.is_finite() || !(0.0..=MAX_WATER_DEPTH).contains(&depth) {
            return bad(
                "depth",
                format!("must be 0..={MAX_WATER_DEPTH} metres, got {depth}"),
            );
        }
        if !strength.is_finite() || !(0.0..=1.0).contains(&strength) {
            return bad("strength", format!("must be 0..=1, got {strength}"));
        }
        if let Some(l) = level
            && !l.is_finite()
        {
            return bad("level", format!("must be finite, got {l}"));
        }
        let mut v = serde_json::json!({
            "type": crate::edit::water::TYPE,
            "center": [center[0], center[1]],
            "radius": radius,
            "depth": depth,
            "strength": strength,
        });
        if let (Some(l), Some(m)) = (level, v.as_object_mut()) {
            m.insert("level".into(), serde_json::Value::from(l));
        }
        self.apply_stroke(&v)
    }
}
