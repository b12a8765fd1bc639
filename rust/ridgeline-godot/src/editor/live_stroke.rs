//! Brush strokes in the viewport. While the left button is held each new run of stamps is
//! applied at once (the surface follows the brush); on release those partial strokes are undone
//! — restoring the exact samples — and the whole drag is applied again as **one** stroke, which
//! becomes one `EditorUndoRedoManager` action committed without executing (it is already
//! applied). Undo and redo call `Terrain3D._editor_undo/_editor_redo(id)`, which act only when
//! the core history's top record is that stroke. Esc undoes the partial strokes: exact.

use super::edit_source::{EditSource, source_of};
use super::plugin::RidgelineEditorPlugin;
use super::preview::{Ring, RingState};
use super::stamp_path::{self, StampPath};
use super::tools::{self, Brush, Target, Tool};
use crate::terrain::Terrain3D;
use godot::classes::Json;
use godot::prelude::*;

/// Where the cursor meets the surface.
#[derive(Clone, Copy, Debug)]
pub struct Cursor {
    /// Terrain-local X, Z.
    pub local: [f64; 2],
    /// Terrain-local height.
    pub height: f64,
    /// Slope in degrees (0 flat).
    pub slope_deg: f64,
}

/// A stroke in progress.
pub struct LiveStroke {
    terrain: Gd<Terrain3D>,
    tool: Tool,
    brush: Brush,
    target: Target,
    path: StampPath,
    points: Vec<[f64; 2]>,
    /// Stamps placed along the drag but not yet applied: the live preview applies at most
    /// [`stamp_path::stamps_per_frame`] per frame and carries the rest to the next frames.
    pending: Vec<[f64; 2]>,
    /// Partial strokes applied so far (core history records).
    applied: u32,
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Stamps of the stroke in progress placed along the drag but not yet shown: a fast drag
    /// shows at most a few brush areas per frame and the rest over the next frames (the
    /// committed stroke holds every stamp either way). 0 without a stroke.
    #[func]
    pub fn get_pending_stamps(&self) -> i64 {
        self.stroke.as_ref().map_or(0, |s| s.pending.len() as i64)
    }
}

/// Applies a stroke given as JSON; false (with the terrain's error printed) when refused.
fn apply(terrain: &mut Gd<Terrain3D>, stroke: &serde_json::Value) -> bool {
    let v = Json::parse_string(&stroke.to_string());
    let Ok(dict) = v.try_to::<VarDictionary>() else {
        return false;
    };
    terrain.bind_mut().apply_stroke(dict)
}

impl RidgelineEditorPlugin {
    /// Picks the surface under the ray; the cursor is cleared on a miss.
    pub(super) fn update_cursor(&mut self, from: Vector3, dir: Vector3) {
        let Some(t) = &self.terrain else {
            self.cursor = None;
            return;
        };
        let hit = t.bind().raycast(from, dir, 1.0e6);
        let (Some(p), Some(n)) = (hit.get("position"), hit.get("normal")) else {
            self.cursor = None;
            return;
        };
        let (p, n) = (p.to::<Vector3>(), n.to::<Vector3>());
        let local = t.get_global_transform().affine_inverse() * p;
        self.cursor = Some(Cursor {
            local: [local.x as f64, local.z as f64],
            height: local.y as f64,
            slope_deg: (n.y.clamp(-1.0, 1.0) as f64).acos().to_degrees(),
        });
    }

    /// The tool a stroke started now would use.
    fn effective_tool(&self) -> Tool {
        match &self.stroke {
            Some(s) => s.tool,
            None if self.shift => self.tool.inverted(),
            None => self.tool,
        }
    }

    pub(super) fn cursor_label(&self) -> String {
        let c = self.cursor;
        let tool = self.effective_tool();
        let mut s = tools::label(
            tool,
            &self.brush(),
            c.map(|c| c.height),
            c.map(|c| c.slope_deg),
        );
        match tool {
            Tool::Ramp => match (self.ramp_start, c) {
                (Some(from), Some(c)) => {
                    s += &format!("  from h {:.1} m", from[2]);
                    if let Some((pct, deg)) = tools::grade(from, [c.local[0], c.local[1], c.height])
                    {
                        s += &format!("  grade {pct:.1}% ({deg:.1}°)");
                    }
                }
                _ => s += "  click the start",
            },
            Tool::BiomePaint => s += &format!("  biome {}", self.biome),
            Tool::FoliagePaint => {
                s += &format!("  {}  density {:.2}", self.foliage, self.brush().density)
            }
            Tool::FoliageRestore => s += &format!("  {}  density 1", self.foliage),
            Tool::ConvertObject => s += &self.convert_hint(),
            _ => {}
        }
        s
    }

    /// Redraws (or hides) the ring at the cursor.
    pub(super) fn update_ring(&mut self) {
        let (Some(t), Some(c)) = (self.terrain.clone(), self.cursor) else {
            if let Some(r) = &mut self.ring {
                r.hide();
            }
            return;
        };
        if self.tool == Tool::None || !t.is_inside_tree() {
            self.ring = None;
            return;
        }
        let Some(world) = t.get_world_3d() else {
            return;
        };
        let scenario = world.get_scenario();
        if self.ring.as_ref().is_none_or(|r| r.scenario() != scenario) {
            self.ring = Some(Ring::new(scenario));
        }
        let state = if self.ctrl && self.tool.picks_height() {
            RingState::Pick
        } else if self.effective_tool() != self.tool {
            RingState::Invert
        } else {
            RingState::Idle
        };
        let b = self.brush();
        if let Some(r) = &mut self.ring {
            r.update(&t, c.local, b.size / 2.0, b.falloff, state);
        }
    }

    /// Left press: the first stamp.
    pub(super) fn begin_stroke(&mut self, invert: bool) {
        let Some(mut terrain) = self.terrain.clone() else {
            return;
        };
        let Some(c) = self.cursor else {
            return;
        };
        if self.tool == Tool::ConvertObject {
            self.convert_click(terrain, c);
            return;
        }
        let source = match source_of(&terrain) {
            Ok(s) => s,
            Err(why) => {
                self.show_message(&why, true);
                return;
            }
        };
        if terrain.bind().is_generating() {
            self.show_message("Wait for the generation to finish before painting.", true);
            return;
        }
        if terrain.bind().is_showing_draft() {
            self.show_message(
                "The terrain shows the Terrain Graph's unapplied draft: Apply it or Discard the \
                 preview before painting.",
                true,
            );
            return;
        }
        let tool = if invert {
            self.tool.inverted()
        } else {
            self.tool
        };
        let brush = self.brush();
        let layer = match self.stroke_layer() {
            Ok(l) => l,
            Err(why) => {
                self.show_message(&why, true);
                return;
            }
        };
        if tool == Tool::Ramp {
            self.ramp_click(terrain, &source, &brush, c, &layer);
            return;
        }
        let target = Target {
            layer,
            height: match tool {
                Tool::Flatten => c.height,
                Tool::SetHeight | Tool::Water => brush.target_height,
                _ => 0.0,
            },
            biome: self.biome.clone(),
            foliage: self.foliage.clone(),
            mask: self.mask(),
        };
        if tool == Tool::BiomePaint && !self.biomes.iter().any(|(b, _)| *b == self.biome) {
            self.show_message("Pick a biome in the dock first.", true);
            return;
        }
        if matches!(tool, Tool::FoliagePaint | Tool::FoliageRestore) && self.foliage.is_empty() {
            self.show_message(
                "This terrain's palette has no foliage types to paint (see docs/scatter.md).",
                true,
            );
            return;
        }
        let Some(stroke) = tools::stroke_json(tool, &brush, &target, &[c.local]) else {
            return;
        };
        if !apply(&mut terrain, &stroke) {
            self.show_message(
                "The stroke was refused (see the Output panel for the reason).",
                true,
            );
            return;
        }
        self.watch_source(&terrain, &source);
        self.stroke = Some(LiveStroke {
            terrain,
            tool,
            brush,
            target,
            path: StampPath::begin(c.local, brush.stamp_spacing()),
            points: vec![c.local],
            pending: Vec::new(),
            applied: 1,
        });
        self.stamps_this_frame += 1;
    }

    /// Left drag: stamps along the new segment; the live preview applies them up to this
    /// frame's cap at once, the rest in the next frames ([`Self::flush_pending_stamps`]).
    pub(super) fn extend_stroke(&mut self) {
        let Some(c) = self.cursor else {
            return;
        };
        let Some(s) = &mut self.stroke else {
            return;
        };
        // One stroke holds at most as many stamps as the core accepts (`MAX_POINTS`): a drag
        // beyond that (a tiny spacing across a huge terrain) stops adding stamps.
        let room = ridgeline_core::edit::stroke::MAX_POINTS.saturating_sub(s.points.len());
        let mut stamps = Vec::new();
        let complete = s.path.extend_at_most(c.local, &mut stamps, room);
        s.points.extend_from_slice(&stamps);
        s.pending.extend(stamps);
        self.flush_pending_stamps();
        if !complete && room > 0 {
            self.show_message(
                &format!(
                    "This stroke holds the most stamps one stroke may ({}); release and start \
                     another one to paint on.",
                    ridgeline_core::edit::stroke::MAX_POINTS
                ),
                true,
            );
        }
    }

    /// Applies pending stamps of the live stroke, as many as this frame's cap leaves room
    /// for. Called on every drag event and once per frame.
    pub(super) fn flush_pending_stamps(&mut self) {
        let used = self.stamps_this_frame;
        let Some(s) = &mut self.stroke else {
            return;
        };
        let room = stamp_path::stamps_per_frame(s.brush.size).saturating_sub(used);
        let n = room.min(s.pending.len());
        if n == 0 {
            return;
        }
        let stamps: Vec<[f64; 2]> = s.pending.drain(..n).collect();
        if let Some(json) = tools::stroke_json(s.tool, &s.brush, &s.target, &stamps)
            && apply(&mut s.terrain, &json)
        {
            s.applied += 1;
        }
        self.stamps_this_frame += n;
    }

    /// Esc (or leaving the terrain) during a stroke: the surface returns exactly to its state
    /// before the stroke.
    pub(super) fn cancel_stroke(&mut self) {
        if self.ramp_start.take().is_some() {
            self.show_message("Ramp cancelled.", false);
        }
        let Some(mut s) = self.stroke.take() else {
            return;
        };
        for _ in 0..s.applied {
            s.terrain.bind_mut().undo_stroke();
        }
        self.show_message("Stroke cancelled.", false);
    }

    /// Left release: the drag becomes one stroke and one undo step.
    pub(super) fn end_stroke(&mut self) {
        let Some(mut s) = self.stroke.take() else {
            return;
        };
        for _ in 0..s.applied {
            s.terrain.bind_mut().undo_stroke();
        }
        let Some(json) = tools::stroke_json(s.tool, &s.brush, &s.target, &s.points) else {
            return;
        };
        if !apply(&mut s.terrain, &json) {
            self.show_message("The stroke was refused (see the Output panel).", true);
            return;
        }
        self.commit_undo_step(&mut s.terrain, s.tool);
        self.show_message(
            &format!("{} stroke, {} stamps.", s.tool.label(), s.points.len()),
            false,
        );
    }

    /// Ramp: the first click sets the start, the second applies the ramp between them (the
    /// heights under both clicks) as one stroke and one undo step.
    fn ramp_click(
        &mut self,
        mut terrain: Gd<Terrain3D>,
        source: &EditSource,
        brush: &Brush,
        c: Cursor,
        layer: &str,
    ) {
        let here = [c.local[0], c.local[1], c.height];
        let Some(from) = self.ramp_start.take() else {
            self.ramp_start = Some(here);
            self.show_message("Ramp: click where it ends (Esc cancels).", false);
            return;
        };
        if tools::grade(from, here).is_none() {
            self.ramp_start = Some(from);
            self.show_message("Ramp: the end must differ from the start.", true);
            return;
        }
        let mut json = tools::ramp_json(brush, from, here);
        if !layer.is_empty() {
            json["layer"] = layer.into();
        }
        if !apply(&mut terrain, &json) {
            self.show_message("The ramp was refused (see the Output panel).", true);
            return;
        }
        self.watch_source(&terrain, source);
        self.commit_undo_step(&mut terrain, Tool::Ramp);
        let (pct, deg) = tools::grade(from, here).unwrap_or_default();
        self.show_message(
            &format!(
                "Ramp from {:.1} m to {:.1} m, grade {pct:.1}% ({deg:.1}°).",
                from[2], here[2]
            ),
            false,
        );
    }

    /// Records the stroke just applied to `terrain` as one `EditorUndoRedoManager` action,
    /// committed without executing (it is already applied).
    fn commit_undo_step(&mut self, terrain: &mut Gd<Terrain3D>, tool: Tool) {
        self.commit_edit_step(terrain, &format!("Ridgeline: {} stroke", tool.label()));
    }

    /// Records the edit just made on `terrain` (a stroke, a layer toggle, …: the newest record
    /// of its history) as one `EditorUndoRedoManager` action named `name`, committed without
    /// executing (it is already applied).
    pub(super) fn commit_edit_step(&mut self, terrain: &mut Gd<Terrain3D>, name: &str) {
        let id = terrain.bind_mut()._editor_commit();
        // The edit is complete: the drainage flow follows the new heights (not an undo step).
        terrain.bind_mut().refresh_flow();
        let Some(mut ur) = self.base().get_undo_redo() else {
            return;
        };
        let target = terrain.clone().upcast::<Object>();
        ur.create_action_ex(name).custom_context(&target).done();
        ur.add_do_method(&target, "_editor_redo", &[id.to_variant()]);
        ur.add_undo_method(&target, "_editor_undo", &[id.to_variant()]);
        ur.commit_action_ex().execute(false).done();
    }

    /// Follows the edited source: an asset is marked unsaved whenever it changes (strokes,
    /// undo, redo); an inline recipe refreshes the dock when an edit wrote into it (the scene
    /// saves it, and the undo step already marked the scene unsaved).
    pub(super) fn watch_source(&mut self, terrain: &Gd<Terrain3D>, source: &EditSource) {
        match source {
            EditSource::Asset(asset) => {
                let call = Callable::from_object_method(&self.to_gd(), "_on_asset_changed")
                    .bindv(&VarArray::from(&[asset.to_variant()]));
                let mut a = asset.clone();
                if !a.is_connected("changed", &call) {
                    a.connect("changed", &call);
                }
            }
            EditSource::Inline => {
                let call = Callable::from_object_method(&self.to_gd(), "_on_inline_recipe_edited");
                let mut t = terrain.clone();
                if !t.is_connected("source_edited", &call) {
                    t.connect("source_edited", &call);
                }
            }
        }
    }
}
