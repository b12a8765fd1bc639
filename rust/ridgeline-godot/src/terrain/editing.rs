//! Editing `Terrain3D` at runtime and in the editor: strokes, undo and redo, layers, and writing
//! the strokes back into the asset.

use super::Terrain3D;
use super::change_signal::ChangeReport;
use super::edit_session::lock;
use super::layer_kind::LayerKind;
use crate::convert::{panic_guard, variant_json};
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::pipeline::{Change, EditSession};
use ridgeline_core::recipe::Document;
use std::sync::Arc;

#[godot_api(secondary)]
impl Terrain3D {
    /// Applies a brush stroke (the recipe's stroke JSON shape as a Dictionary; `Vector2`/
    /// `Vector3` and packed arrays are accepted for points and ends). Positions are
    /// terrain-local. Only the stroke's footprint is recomputed and only touched chunks are
    /// rebuilt; [signal surface_changed] follows. In the editor the stroke is also written into
    /// the asset's recipe (save the asset to keep it); in a game it changes the loaded terrain.
    /// Returns false and reports a located error (`stroke.radius: must be > 0, …`) when the
    /// stroke is invalid — including values no stroke can hold, such as an Array that contains
    /// itself or nesting deeper than 32 levels; nothing changes then. Mask images load on a
    /// worker thread: a stroke waits at most 2 s for its mask.
    #[func]
    pub fn apply_stroke(&mut self, stroke: VarDictionary) -> bool {
        let value = match variant_json::to_json(&stroke.to_variant(), "stroke") {
            Ok(v) => v,
            Err(e) => {
                godot_error!("Terrain3D.apply_stroke: {e}");
                return false;
            }
        };
        self.edit("apply_stroke", |s| {
            s.apply_stroke(&value).map_err(|e| e.to_string())
        })
    }

    /// Undoes the last stroke or layer toggle made through this node (restores stored sample
    /// values; nothing regenerates). Returns false when there is nothing to undo.
    #[func]
    pub fn undo_stroke(&mut self) -> bool {
        self.edit_from("undo_stroke", true, |s| s.undo().ok_or_else(String::new))
    }

    /// Redoes the last undone edit. Returns false when there is nothing to redo.
    #[func]
    pub fn redo_stroke(&mut self) -> bool {
        self.edit_from("redo_stroke", true, |s| s.redo().ok_or_else(String::new))
    }

    /// Enables or disables the layer `layer_id`; its strokes stay stored (undoable like a
    /// stroke). Returns false with an error for an unknown layer.
    #[func]
    pub fn set_layer_enabled(&mut self, layer_id: GString, enabled: bool) -> bool {
        let id = layer_id.to_string();
        self.edit("set_layer_enabled", |s| {
            s.set_layer_enabled(&id, enabled).map_err(|e| e.to_string())
        })
    }

    /// The layers in evaluation order: Dictionaries with `id` (String), `name` (String),
    /// `kind` (a [enum LayerKind] value), `enabled` (bool) and `strokes` (how many strokes
    /// target it). Empty (with an error) when there is nothing to edit.
    #[func]
    pub fn get_layers(&mut self) -> Array<VarDictionary> {
        let mut out = Array::new();
        let session = match self.session() {
            Ok(s) => s,
            Err(e) => {
                godot_error!("Terrain3D.get_layers: {e}");
                return out;
            }
        };
        let Some(s) = self.lock_or_drop(&session) else {
            return out;
        };
        for l in s.layers() {
            let mut d = VarDictionary::new();
            d.set("id", l.id.as_str());
            d.set("name", l.name.as_str());
            match LayerKind::from_recipe(&l.kind) {
                Some(k) => d.set("kind", k),
                None => godot_error!("Terrain3D.get_layers: unknown layer kind `{}`", l.kind),
            }
            d.set("enabled", l.enabled);
            d.set("strokes", s.strokes_in_layer(&l.id) as i64);
            out.push(&d);
        }
        out
    }

    /// Writes every stroke and layer of this terrain (runtime strokes included) into its
    /// [member asset]'s recipe, so saving the asset ([method ResourceSaver.save]) keeps them.
    /// The editor does this after every edit. Returns false for inline recipes and cooked
    /// assets (nothing to write into), before anything was edited, and with an error while the
    /// surface shows a draft ([method is_showing_draft]: its session is not the asset's).
    #[func]
    pub fn save_strokes_to_asset(&mut self) -> bool {
        if let Err(e) = self.check_not_draft() {
            godot_error!("Terrain3D.save_strokes_to_asset: {e}");
            return false;
        }
        let Some(session) = self.current_session() else {
            return false;
        };
        let Some(s) = self.lock_or_drop(&session) else {
            return false;
        };
        self.write_strokes_to_asset(&s)
    }

    /// True when [method undo_stroke] has something to undo.
    #[func]
    pub fn can_undo_stroke(&self) -> bool {
        self.current_session()
            .is_some_and(|s| lock(&s).is_ok_and(|s| s.can_undo()))
    }

    /// Fault injection for Ridgeline's own tests (not for games): `mode` 0 makes the next edit
    /// panic right after it changed the edit session, as an internal error would; `mode` 1
    /// poisons the session's lock now, as a panic on another thread holding it would; `mode` 2
    /// makes the next edit hand the surface a non-finite sample, which the surface refuses.
    /// Each way the edit fails, the following edits fail with an error until
    /// [method generate] rebuilds the session, and the surface stays as the last completed edit
    /// left it. Returns false when there is no session to break.
    #[func]
    pub fn _test_break_edit_session(&mut self, mode: i32) -> bool {
        match mode {
            0 => {
                self.next_edit_fault = Some(Fault::Panic);
                true
            }
            2 => {
                self.next_edit_fault = Some(Fault::NonFiniteSample);
                true
            }
            1 => {
                let Ok(session) = self.session() else {
                    return false;
                };
                std::thread::scope(|scope| {
                    let holder = scope.spawn(|| {
                        let _held = session.lock();
                        panic!("injected by Terrain3D._test_break_edit_session(1)");
                    });
                    holder.join().is_err()
                })
            }
            _ => false,
        }
    }
}

/// A fault `_test_break_edit_session` injects into the next edit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Fault {
    /// A panic after the session changed.
    Panic,
    /// A non-finite sample handed to the surface.
    NonFiniteSample,
}

impl Terrain3D {
    /// Runs an edit, publishes what it changed and reports errors. An empty error message
    /// means "nothing to do" (returns false silently). A panic while editing drops the session
    /// (its state may be half-applied) and answers false.
    pub(super) fn edit(
        &mut self,
        what: &str,
        f: impl FnOnce(&mut EditSession) -> Result<Change, String>,
    ) -> bool {
        self.edit_from(what, false, f)
    }

    /// [`Self::edit`]; `from_undo` marks undo and redo in `terrain_changed`.
    pub(super) fn edit_from(
        &mut self,
        what: &str,
        from_undo: bool,
        f: impl FnOnce(&mut EditSession) -> Result<Change, String>,
    ) -> bool {
        if self.job.is_some() {
            godot_error!("Terrain3D.{what}: wait for the running generation before editing");
            return false;
        }
        if let Err(e) = self
            .check_not_draft()
            .and_then(|_| self.check_asset_current())
        {
            godot_error!("Terrain3D.{what}: {e}");
            return false;
        }
        let session = match self.session() {
            Ok(s) => s,
            Err(e) => {
                godot_error!("Terrain3D.{what}: {e}");
                return false;
            }
        };
        let Some(mut s) = self.lock_or_drop(&session) else {
            return false;
        };
        let fault = self.next_edit_fault.take();
        let change = match panic_guard::catch(|| {
            let change = f(&mut s);
            if fault == Some(Fault::Panic) {
                panic!("injected by Terrain3D._test_break_edit_session(0)");
            }
            change
        }) {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => {
                if !e.is_empty() {
                    godot_error!("Terrain3D.{what}: {e}");
                }
                return false;
            }
            Err(e) => {
                drop(s);
                self.drop_session(&format!(
                    "Terrain3D.{what}: {e}; the edit session was dropped (its undo history is \
                     lost), the surface stays as before this edit — call generate() to rebuild it"
                ));
                return false;
            }
        };
        let corrupt = fault == Some(Fault::NonFiniteSample);
        match panic_guard::catch(|| self.publish(&s, &change, corrupt)).and_then(|r| r) {
            Ok(()) => {
                drop(s);
                let water = self
                    .prepared()
                    .as_ref()
                    .is_some_and(|p| !p.water.bodies.is_empty());
                let report = ChangeReport::of(&change, water, from_undo);
                self.emit_terrain_changed(report);
                true
            }
            Err(e) => {
                drop(s);
                self.drop_session(&format!(
                    "Terrain3D.{what}: the edit could not be shown ({e}); the edit session was \
                     dropped (its undo history is lost) — call generate() to rebuild it"
                ));
                false
            }
        }
    }

    /// Copies the changed samples into the shown surface, updates the touched chunks' meshes
    /// and collision (see [`super::chunk_refresh`]), writes the recipe back to the asset in the
    /// editor, and signals. Nothing changes when the session's samples cannot be written into
    /// the surface (an error).
    fn publish(&mut self, s: &EditSession, change: &Change, corrupt: bool) -> Result<(), String> {
        let range_before;
        let field = {
            // Heights, holes and painted water change only inside the change's rectangles.
            self.view
                .invalidate_surface_samples(change.heights.union(&change.water));
            self.view.invalidate_surface_cells(change.holes);
            let mut guard = self.view.prepared_mut_for_edit();
            let Some(prepared) = guard.as_mut() else {
                return Err("no surface".into());
            };
            range_before = prepared.field.height_range();
            let r = change.heights;
            if !r.is_empty() {
                let [w, h] = s.field().grid().samples();
                let mut values = r.copy_from(s.field().heights(), &Rect::new(0, 0, w, h));
                if corrupt && let Some(v) = values.first_mut() {
                    *v = f32::NAN;
                }
                // `write_region` checks the rectangle and every value before writing anything, so a
                // refused write leaves the shown surface untouched.
                Arc::make_mut(&mut Arc::make_mut(prepared).field)
                    .write_region(r.x0, r.z0, r.x1, r.z1, &values)
                    .map_err(|e| e.to_string())?;
            }
            // Hole strokes: copy the changed cells' flags (the session already refused any cut
            // that would leave a chunk without a solid cell).
            let c = change.holes;
            if !c.is_empty() {
                let holes = s.field().holes();
                let flags: Vec<bool> = (c.z0..c.z1)
                    .flat_map(|z| (c.x0..c.x1).map(move |x| holes.is_hole(x, z)))
                    .collect();
                Arc::make_mut(&mut Arc::make_mut(prepared).field)
                    .write_holes(c.x0, c.z0, c.x1, c.z1, &flags)
                    .map_err(|e| e.to_string())?;
            }
            // Painted water: copy the changed rectangle's depths into the water the queries read.
            let wr = change.water;
            if !wr.is_empty() {
                let water = Arc::make_mut(&mut Arc::make_mut(prepared).water);
                if water.painted.is_empty() {
                    water.set_painted(s.water_depths());
                } else {
                    let [w, _] = s.field().grid().samples();
                    for z in wr.z0..wr.z1 {
                        for i in z * w + wr.x0..z * w + wr.x1 {
                            water.painted[i] = s.water().depth(i);
                        }
                    }
                }
            }
            // The session reclassifies locally: copy its changed rectangle of biome ids and roles.
            let sr = change.surface;
            if let Some(surface) = s.surface()
                && !sr.is_empty()
            {
                let target = Arc::make_mut(&mut Arc::make_mut(prepared).surface);
                if target.classes.len() != surface.classes.len() || target.biomes != surface.biomes
                {
                    *target = surface.clone();
                } else {
                    let [w, _] = s.field().grid().samples();
                    for z in sr.z0..sr.z1 {
                        let (a, b) = (z * w + sr.x0, z * w + sr.x1);
                        target.classes.copy_range(&surface.classes, a..b);
                    }
                }
            }
            // Painted layers (user channels, surface weights) and the classified roles under them.
            let pr = change.user_channels.union(&change.surface_paint);
            let classified =
                !prepared.paint.classified.is_empty() || !s.paint().weight_bytes().is_empty();
            if !pr.is_empty() || (classified && !sr.is_empty()) {
                let [w, _] = s.field().grid().samples();
                let paint = Arc::make_mut(&mut Arc::make_mut(prepared).paint);
                paint.copy_from(s, pr.union(&sr), w, classified);
            }
            // Placements refiltered inside the touched rectangle (TerrainScatter follows).
            if let Some(sc) = s.scatter()
                && !Arc::ptr_eq(sc, &prepared.scatter)
            {
                Arc::make_mut(prepared).scatter = sc.clone();
            }
            prepared.field.clone()
        };
        // Chunk data not yet uploaded is stale now; it is rebuilt from the surface on upload.
        self.pending_chunks = None;
        self.update_chunks_after_edit(&field, change, range_before);
        if !change.heights.is_empty() {
            let [lo, hi] = field.height_range();
            self.materials.surface.set("min_height", lo.to_variant());
            self.materials.surface.set("max_height", hi.to_variant());
        }
        if !change.user_channels.is_empty() {
            self.mark_user_channels(change.user_channels);
        }
        let r = change.heights.union(&change.surface);
        if !r.is_empty() {
            self.update_control_rect(r.x0, r.z0, r.x1, r.z1);
        }
        // Water follows ground, hole and painted-water changes.
        let cells = change.water_cells();
        if !cells.is_empty() {
            self.refresh_water_after_edit(cells);
        }
        if self.overlay != super::overlay::Overlay::None {
            // The session is locked here: hand its weights over.
            self.refresh_overlay_after_edit(s.exclusion(), !change.exclusion.is_empty());
        }
        if crate::editor_hint::in_editor() {
            self.write_strokes_to_source(s);
        }
        let t = change.touched;
        // Painted density, and user channels (a foliage type's `channel_cutoff`), re-place the
        // foliage chunks they touch like height and mask edits (`touched` holds them all).
        self.foliage_feed
            .touched(t.union(&change.foliage).union(&change.user_channels));
        let region = Rect2i::new(
            Vector2i::new(t.x0 as i32, t.z0 as i32),
            Vector2i::new(t.width() as i32, t.depth() as i32),
        );
        self.emit_deferred("surface_changed", &[region.to_variant()]);
        Ok(())
    }

    /// In the editor: writes the session's strokes and layers into the source — the asset's
    /// recipe, or the inline [member recipe] (saved with the scene) — and signals it.
    fn write_strokes_to_source(&mut self, s: &EditSession) -> bool {
        if self.asset.is_some() {
            return self.write_strokes_to_asset(s);
        }
        if self.recipe.is_empty() {
            return false;
        }
        let text = self.recipe.to_string();
        let Ok(doc) = Document::parse(&text, "Terrain3D.recipe") else {
            return false;
        };
        let doc = with_strokes_of(doc, s);
        // Written straight into the field: the setter would regenerate what is already shown.
        self.recipe = GString::from(doc.to_canonical_json().as_str());
        // Deferred: handlers (the Terrain dock) may call back into this node, bound here.
        self.emit_deferred("source_edited", &[]);
        true
    }

    /// Writes the session's strokes and layers into the asset's recipe and emits `changed`.
    fn write_strokes_to_asset(&mut self, s: &EditSession) -> bool {
        let Some(asset) = &mut self.asset else {
            return false;
        };
        let mut a = asset.bind_mut();
        let Some(doc) = a.document().cloned() else {
            return false;
        };
        a.set_document(with_strokes_of(doc, s));
        drop(a);
        // Deferred: this node is mutably bound here, and `changed` handlers (the inspector, the
        // editor plugin) may call back into it.
        asset.call_deferred("emit_changed", &[]);
        self.asset_written();
        self.emit_deferred("source_edited", &[]);
        true
    }
}

/// `doc` with the strokes and layers of the edit session `s`.
fn with_strokes_of(doc: Document, s: &EditSession) -> Document {
    let edited = s.recipe();
    let with = |mut r: ridgeline_core::recipe::Recipe| {
        r.set_strokes_from(edited);
        r
    };
    match doc {
        Document::Asset(mut d) => {
            d.recipe = with(d.recipe);
            Document::Asset(d)
        }
        Document::Recipe(r) => Document::Recipe(with(r)),
    }
}
