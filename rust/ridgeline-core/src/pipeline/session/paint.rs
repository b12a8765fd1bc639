//! The edit session's painted layers (`crate::edit::paint`): user channels and surface paint.
//!
//! Paint strokes (`user_channel`, `paint_surface`, `paint_patch`) live in the recipe's `regions`
//! list and write only the painted layers, so their commit skips height replay, masks and
//! reclassification: a stamp is applied directly when its stroke is the last paint stroke in
//! evaluation order, else its rectangle is replayed from the defaults. Undo and redo replay the
//! stroke's footprint (the layers are a pure function of the paint strokes in order), so they
//! are exact without storing sample values.
//!
//! **Compaction** ([`EditSession::apply_paint_stamp`]): a single-stamp paint write that repeats
//! the last edit's settings (same type, channel or surface, value, mode, brush and layer) is
//! merged into that stroke as one more stamp instead of becoming a stroke of its own — one undo
//! step and one saved stroke for a whole run of per-tick writes — and a stamp repeating the
//! last stamp's position is dropped when the stroke is idempotent (ids, dither, or a full
//! strength hard-edged value brush). Merging never changes the result: the stamps apply in the
//! same order either way.

use super::{Change, EditSession};
use crate::edit::brush::{Brush, Shape};
use crate::edit::history::{Record, RecordKind};
use crate::edit::paint::{PaintLayers, UserChannelOp};
use crate::edit::rect::Rect;
use crate::edit::stroke::{
    List, MAX_POINTS, MAX_POSITION, MAX_RADIUS, MAX_SAMPLE_UPDATES, MIN_RADIUS, Op, Stroke,
};
use crate::error::{Error, Result};
use serde_json::Value;

impl EditSession {
    /// The painted layers (user channels and surface paint weights).
    pub fn paint(&self) -> &PaintLayers {
        &self.paint
    }

    /// Gives the session the painted layers its paint strokes paint over (a cooked terrain's,
    /// from its payload): the layers become them, replayed under the session's own paint
    /// strokes, and undo comes back to them. Call it after `classify_surface` so the painted
    /// surfaces reach the published roles. Layers of another grid are an error.
    pub fn set_base_paint(&mut self, base: &PaintLayers) -> Result<()> {
        if base.samples() != self.grid.sample_count() {
            return Err(Error::invalid(
                "base paint",
                format!(
                    "has {} samples; the grid has {}",
                    base.samples(),
                    self.grid.sample_count()
                ),
            ));
        }
        self.base_paint = base.clone();
        let all = self.all();
        self.replay_paint(all);
        self.publish_paint(all);
        Ok(())
    }

    /// Replays the painted layers on `rect` from their base (defaults, or a cooked terrain's).
    pub(super) fn replay_paint(&mut self, rect: Rect) {
        if rect.is_empty() {
            return;
        }
        let [w, _] = self.grid.samples();
        let mut paint = std::mem::take(&mut self.paint);
        if self.base_paint.is_empty() {
            paint.clear(rect, w);
        } else {
            paint.copy_rect(&self.base_paint, rect, w);
        }
        for i in self.order(List::Regions) {
            let s = &self.painted[i];
            if s.is_paint() && s.footprint(&self.grid).intersects(&rect) {
                paint.apply(s, &self.grid, rect);
            }
        }
        self.paint = paint;
    }

    /// Republishes the surface roles of `rect` with the painted surfaces over the classified
    /// roles. Returns true when a published role changed.
    pub(super) fn publish_paint(&mut self, rect: Rect) -> bool {
        let paint = &self.paint;
        match &mut self.surface {
            Some(state) if !rect.is_empty() => {
                state.override_roles(rect, |i, classified| paint.role(i, classified))
            }
            _ => false,
        }
    }

    /// True when `stroke` (in the regions list) evaluates after every other paint stroke: its
    /// layer is the last enabled biomes layer, and it is the last stroke of the list.
    fn paints_last(&self, stroke: &Stroke) -> bool {
        let Some(last) = self
            .recipe
            .layers
            .iter()
            .rev()
            .find(|l| l.enabled && l.kind == "biomes")
        else {
            return false;
        };
        self.effective_layer(stroke, List::Regions) == Some(last.id.as_str())
    }

    /// Commits a new paint stroke (already parsed; not yet in the list).
    pub(super) fn commit_paint(&mut self, stroke: Stroke, value: Value) -> Change {
        let fp = stroke.footprint(&self.grid);
        self.painted.push(stroke.clone());
        self.recipe.regions.push(value);
        if self.paints_last(&stroke) {
            self.paint.apply(&stroke, &self.grid, fp);
        } else {
            self.replay_paint(fp);
        }
        let change = self.paint_change(&stroke, fp);
        self.history.push(Record::recipe_only(RecordKind::Stroke {
            list: List::Regions,
            stroke,
        }));
        self.redo.clear();
        change
    }

    /// The change of a paint write of `stroke` over `rect`.
    fn paint_change(&mut self, stroke: &Stroke, rect: Rect) -> Change {
        let (user, surface) = writes(stroke);
        self.paint_change_of(rect, user, surface)
    }

    /// The change of a paint write over `rect` that wrote the user channels (`user`) and/or
    /// the surface weights (`surface`).
    fn paint_change_of(&mut self, rect: Rect, user: bool, surface: bool) -> Change {
        let roles = surface && self.publish_paint(rect);
        let mut c = Change::default();
        if rect.is_empty() {
            return c;
        }
        c.touched = rect;
        if user {
            c.user_channels = rect;
        }
        if surface {
            c.surface_paint = rect;
            if roles {
                c.surface = rect;
            }
            let [w, h] = self.grid.samples();
            self.refilter_scatter(rect.grow(1, w, h));
        }
        c
    }

    /// Undo/redo of a paint stroke (the list already reverted or reapplied).
    pub(super) fn restore_paint(&mut self, stroke: &Stroke) -> Change {
        let fp = stroke.footprint(&self.grid);
        self.replay_paint(fp);
        self.paint_change(stroke, fp)
    }

    /// Replays the paint strokes of layer `id` (toggled, or its toggle undone) and reports
    /// what they cover.
    pub(super) fn refresh_layer_paint(&mut self, id: &str) -> Change {
        let (mut fp, mut user, mut surface) = (Rect::EMPTY, false, false);
        for s in &self.painted {
            if s.is_paint() && self.effective_layer(s, List::Regions) == Some(id) {
                fp = fp.union(&s.footprint(&self.grid));
                let (u, p) = writes(s);
                user |= u;
                surface |= p;
            }
        }
        self.replay_paint(fp);
        self.paint_change_of(fp, user, surface)
    }

    /// Applies a single-stamp paint stroke (`user_channel` or `paint_surface` with one
    /// `center`), merging it into the last edit when that is a paint stroke with the same
    /// settings (see the module docs); otherwise it is applied as a stroke of its own
    /// ([`Self::apply_stroke`]). Errors are located at `stroke…` and change nothing.
    pub fn apply_paint_stamp(&mut self, value: &Value) -> Result<Change> {
        let stroke = self.parse_one(value, List::Regions)?;
        if !matches!(stroke.op, Op::UserChannel(_) | Op::PaintSurface(_))
            || stroke.points.len() != 1
            || !self.extends_last(&stroke)
        {
            return self.apply_stroke(value);
        }
        Ok(self.extend_last(&stroke))
    }

    /// A `user_channel` stamp of `radius` (hard-edged: `falloff` 1) at terrain-local
    /// `center`, without JSON: exactly [`Self::apply_paint_stamp`] of
    /// [`user_channel_stamp`]'s stroke (the same merging, result, recipe and errors), but a
    /// stamp that extends the last stroke skips building and parsing its JSON — the path of a
    /// write every physics tick (`Terrain3D.set_user_channel`).
    pub fn apply_user_channel_stamp(
        &mut self,
        channel: u8,
        value: f32,
        id: bool,
        center: [f32; 2],
        radius: f32,
    ) -> Result<Change> {
        let stroke = user_channel_stroke(channel, value, id, center, radius);
        // Only values the parser would accept unchanged take the short path; anything else
        // goes through the JSON stroke and gets its located error there.
        let valid = UserChannelOp::channel_ok(channel as f64)
            && UserChannelOp::value_ok(value as f64, id)
            && (MIN_RADIUS..=MAX_RADIUS).contains(&(radius as f64))
            && center
                .iter()
                .all(|c| c.is_finite() && (*c as f64).abs() <= MAX_POSITION);
        if valid && self.extends_last(&stroke) {
            return Ok(self.extend_last(&stroke));
        }
        self.apply_paint_stamp(&user_channel_stamp(channel, value, id, center, radius))
    }

    /// Whether the single-stamp paint stroke `stroke` merges into the last edit: that edit is
    /// a paint stroke with the same settings, nothing waits to be redone, and one more stamp
    /// keeps the stroke within the parser's limits (stamps and sample updates), so the saved
    /// recipe always reads back.
    fn extends_last(&self, stroke: &Stroke) -> bool {
        self.redo.is_empty()
            && matches!(self.history.last(), Some(Record {
                kind: RecordKind::Stroke { list: List::Regions, stroke: last }, ..
            }) if last.mergeable(stroke) && last.is_paint())
            && self.painted.last().is_some_and(|l| {
                l.mergeable(stroke)
                    && l.points.len() < MAX_POINTS
                    && (l.points.len() as u64 + 1) * self.largest_stamp(stroke)
                        <= MAX_SAMPLE_UPDATES
            })
    }

    /// An upper bound of the samples one stamp of `stroke` updates anywhere on the grid (the
    /// parser's sample-update limit sums the stamps' rectangles).
    fn largest_stamp(&self, stroke: &Stroke) -> u64 {
        let [w, h] = self.grid.samples();
        let [sx, sz] = self.grid.spacing();
        let centre = [sx * (w / 2) as f32, sz * (h / 2) as f32];
        let r = stroke.stamp_rect(&self.grid, centre);
        // One more sample each way: another position may align one sample more.
        (r.width() as u64 + 1) * (r.depth() as u64 + 1)
    }

    /// Adds `stroke`'s single stamp to the last stroke (see [`Self::extends_last`]), its
    /// history record and its JSON, and applies it.
    fn extend_last(&mut self, stroke: &Stroke) -> Change {
        let point = stroke.points[0];
        let c = [point[0] as f32, point[1] as f32];
        let last_point = self.painted.last().and_then(|l| l.points.last().copied());
        if last_point == Some(point) && idempotent(stroke) {
            return Change::default();
        }
        // One more stamp on the last stroke, its record and its JSON.
        if let Some(l) = self.painted.last_mut() {
            l.points.push(point);
            l.center_form = false;
        }
        if let Some(Record {
            kind: RecordKind::Stroke { stroke: r, .. },
            ..
        }) = self.history.last_mut()
        {
            r.points.push(point);
            r.center_form = false;
        }
        if let Some(Value::Object(m)) = self.recipe.regions.last_mut() {
            let mut pts = match (m.remove("points"), m.remove("center")) {
                (Some(Value::Array(p)), _) => p,
                (_, Some(c)) => vec![c],
                _ => Vec::new(),
            };
            pts.push(Value::Array(vec![
                crate::doc::write::json_number(point[0]),
                crate::doc::write::json_number(point[1]),
            ]));
            m.insert("points".into(), Value::Array(pts));
        }
        let rect = stroke.stamp_rect(&self.grid, c);
        if self.paints_last(stroke) {
            self.paint.apply_stamp(stroke, &self.grid, c, rect);
        } else {
            self.replay_paint(rect);
        }
        self.paint_change(stroke, rect)
    }

    /// Replaces the painted layers' bytes of a sample rectangle as one `paint_patch` stroke
    /// (`user`: 4 bytes per sample, `weights`: 10 per sample summing to 255; either may be
    /// empty to leave that layer). Errors are located and change nothing.
    pub fn set_paint_rect(&mut self, rect: Rect, user: &[u8], weights: &[u8]) -> Result<Change> {
        let value = crate::edit::paint_patch::stroke_value(self.grid.cells(), rect, user, weights);
        if user.is_empty() && weights.is_empty() {
            return Err(Error::invalid("cells", "no layer data given"));
        }
        self.apply_stroke(&value)
    }
}

/// Which painted layers `stroke` writes: (user channels, surface weights).
fn writes(stroke: &Stroke) -> (bool, bool) {
    match &stroke.op {
        Op::UserChannel(_) => (true, false),
        Op::PaintSurface(_) => (false, true),
        Op::PaintPatch(p) => (!p.user.is_empty(), !p.weights.is_empty()),
        _ => (false, false),
    }
}

/// The stroke [`user_channel_stamp`]'s JSON parses to (for values the parser accepts).
pub(crate) fn user_channel_stroke(
    channel: u8,
    value: f32,
    id: bool,
    center: [f32; 2],
    radius: f32,
) -> Stroke {
    Stroke {
        op: Op::UserChannel(UserChannelOp { channel, value, id }),
        layer: None,
        brush: Brush {
            radius,
            strength: 1.0,
            falloff: 1.0,
            slope: None,
            shape: Shape::Circle,
        },
        points: vec![[center[0] as f64, center[1] as f64]],
        center_form: true,
    }
}

/// The JSON of a `user_channel` stroke with one stamp (what
/// [`EditSession::apply_user_channel_stamp`] records): `value` in `id` mode when `id`, a hard
/// edge (`falloff` 1).
pub(crate) fn user_channel_stamp(
    channel: u8,
    value: f32,
    id: bool,
    center: [f32; 2],
    radius: f32,
) -> Value {
    let mut v = serde_json::json!({
        "type": "user_channel", "channel": channel, "value": value,
        "center": [center[0], center[1]], "radius": radius, "falloff": 1,
    });
    if id {
        v["mode"] = serde_json::json!("id");
    }
    v
}

/// True when applying a stamp of `stroke` twice at one place equals applying it once.
fn idempotent(stroke: &Stroke) -> bool {
    let b = &stroke.brush;
    let hard = b.falloff == 1.0 && b.strength == 1.0 && !matches!(b.shape, Shape::Image(..));
    match &stroke.op {
        Op::UserChannel(u) => u.id || hard,
        Op::PaintSurface(p) => !p.blend || hard,
        _ => false,
    }
}
