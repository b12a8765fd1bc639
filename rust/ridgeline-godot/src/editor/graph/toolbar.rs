//! The workspace toolbar's handlers: graph undo/redo, Starter graph, Generate (an unapplied
//! draft; Preview and Cancel are in [`super::run_panel`]), Discard preview, Apply (one scene undo step) and Reload.
//! Editor-only: nothing here is registered in games.

use super::target::{Target, document_with_edits};
use crate::editor::plugin::RidgelineEditorPlugin;
use godot::prelude::*;
use ridgeline_core::graph::draft::Draft;
use ridgeline_core::pipeline::compact::needs_regrid_decision;
use ridgeline_core::recipe::Document;

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Toolbar: **Undo graph**.
    #[func]
    fn _on_graph_undo(&mut self) {
        self.graph_history(true);
    }

    /// Toolbar: **Redo graph**.
    #[func]
    fn _on_graph_redo(&mut self) {
        self.graph_history(false);
    }

    /// Toolbar: **Starter graph**.
    #[func]
    fn _on_graph_starter(&mut self) {
        self.graph_edit("Starter graph", |d| {
            *d = Draft::starter();
            Ok(())
        });
    }

    /// Toolbar: **Generate** (the draft, unapplied).
    #[func]
    fn _on_graph_generate(&mut self) {
        self.graph_generate(false);
    }

    /// Toolbar: **Discard preview**.
    #[func]
    fn _on_graph_discard(&mut self) {
        let Some(mut t) = self.graph_target().map(|t| t.terrain) else {
            return;
        };
        t.call_deferred("generate", &[]);
        self.graph_show("Showing the terrain's own source again.", false);
    }

    /// Toolbar: **Apply**.
    #[func]
    fn _on_graph_apply(&mut self) {
        self.graph_apply();
    }

    /// Toolbar: **Reload**.
    #[func]
    fn _on_graph_reload(&mut self) {
        let Some(target) = self.graph_target() else {
            return;
        };
        match target.document() {
            Ok(doc) => {
                let me = self.to_gd().upcast::<Object>();
                if let Some(w) = &mut self.graph {
                    w.load_source(&me, "Reload from source", doc.recipe());
                    w.show("Reload from source.", false);
                }
            }
            Err(e) => self.graph_show(&e, true),
        }
    }

    /// A scene undo or redo of Apply (or of a preset applied) replaced the pinned source: what
    /// counts as applied follows it (the draft stays as it is, now unapplied if it differs).
    /// Deferred, so it reads the source after every operation of the step ran.
    #[func]
    fn _on_graph_source_restored(&mut self) {
        self.to_gd().call_deferred("_graph_follow_source", &[]);
    }

    #[func]
    fn _graph_follow_source(&mut self) {
        let Some(target) = self.graph_target() else {
            return;
        };
        if let (Ok(doc), Some(w)) = (target.document(), &mut self.graph) {
            w.applied = doc.recipe().draft();
            w.applied_settings = doc.recipe().settings();
            w.refresh_problems();
        }
    }

    /// Rebuilds the canvas from the draft (deferred after card controls).
    #[func]
    fn _graph_refresh(&mut self) {
        let me = self.to_gd().upcast::<Object>();
        if let Some(w) = &mut self.graph {
            w.refresh(&me);
        }
    }

    /// The pinned terrain finished generating.
    #[func]
    fn _on_graph_generation_finished(&mut self, ok: bool, message: GString) {
        if self.graph.as_ref().is_some_and(|w| w.target.is_some()) {
            self.graph_run_finished(ok, &message.to_string());
        }
    }
}

impl RidgelineEditorPlugin {
    /// The dock changed the layers of a source (a layer toggled, renamed, added, removed, or
    /// such an edit undone): when it is the pinned source and the settings panel has not edited
    /// its layers, the panel shows the source's layers (Apply keeps them either way).
    pub(in crate::editor) fn graph_follow_layers(&mut self) {
        let Some(current) = self.graph_target().and_then(|t| t.layers_setting()) else {
            return;
        };
        let Some(w) = &mut self.graph else {
            return;
        };
        let path = [ridgeline_core::recipe::settings::Step::Key("layers".into())];
        let Some(applied) = w.applied_settings.get("layers").cloned() else {
            return;
        };
        if w.settings.get("layers") != Some(&applied) || applied == current {
            return;
        }
        // Every Undo graph step that holds the old layers holds the new ones too, so undoing
        // a settings edit does not bring back (and then Apply) the layers as they were.
        w.history.for_each_state_mut(|s| {
            if s.settings.get("layers") == Some(&applied) {
                let _ = s.settings.set(&path, current.clone());
            }
        });
        if w.settings.set(&path, current.clone()).is_ok()
            && w.applied_settings.set(&path, current).is_ok()
        {
            w.settings_panel.show(&w.settings);
        }
    }

    /// The pinned source's document with the draft and settings in it, or why not.
    pub(super) fn graph_document(&self) -> Result<(Target, Document), String> {
        let w = self.graph.as_ref().ok_or("the Terrain Graph is not open")?;
        let target = w.target.clone().ok_or("the Terrain Graph is not pinned")?;
        let doc = target.document()?;
        let merged = document_with_edits(&doc, &w.settings, &w.applied_settings, &w.draft)?;
        Ok((target, merged))
    }

    /// Generates the draft on the pinned terrain (unapplied), at Preview quality when
    /// `preview`.
    pub(super) fn graph_generate(&mut self, preview: bool) {
        match self.graph_document() {
            Ok((target, doc)) => {
                let text = doc.to_canonical_json();
                let mut t = target.terrain.clone();
                t.call_deferred("generate_draft", &[text.to_variant(), preview.to_variant()]);
                if let Some(w) = &mut self.graph {
                    w.run.running(0.0, "starting");
                }
                let at = if preview { " at Preview quality" } else { "" };
                self.graph_show(&format!("Generating the draft{at} (not applied)…"), false);
            }
            Err(e) => self.graph_show(&format!("Not generated; the last surface stays: {e}"), true),
        }
    }

    /// **Apply**: writes the draft and settings into the source; a grid change under strokes
    /// first asks whether to keep or clear them.
    pub(super) fn graph_apply(&mut self) {
        let (target, doc) = match self.graph_document() {
            Ok(x) => x,
            Err(e) => {
                self.graph_show(&format!("Not applied: {e}"), true);
                return;
            }
        };
        let old = target.document().map(|d| d.recipe().clone());
        if let (Ok(old), Some(w)) = (old, &mut self.graph)
            && needs_regrid_decision(&old, doc.recipe())
        {
            w.settings_panel.ask_regrid(&old, doc.recipe());
            w.show("The grid changes under strokes: keep or clear them.", false);
            return;
        }
        self.graph_write(&target, &doc);
    }

    /// Writes `doc` (the draft and settings) into the target's source as one scene undo step.
    pub(super) fn graph_write(&mut self, target: &Target, doc: &Document) {
        self.write_source(
            target,
            &doc.to_canonical_json(),
            "Ridgeline: apply Terrain Graph",
        );
        // A draft on screen gives way to the asset just written (its own change regenerates it
        // too, unless the text did not change; an inline recipe regenerates when it is set).
        if target.asset.is_some() && target.terrain.bind().is_showing_draft() {
            target.terrain.clone().call_deferred("generate", &[]);
        }
        if let Some(w) = &mut self.graph {
            // The source may hold settings edited elsewhere since (the dock's layers): the
            // panel shows what was written.
            let written = doc.recipe().settings();
            if w.settings != written {
                w.settings = written;
                w.settings_panel.show(&w.settings);
            }
            w.mark_applied();
        }
        self.graph_show("Applied to the terrain's source (Ctrl+Z undoes it).", false);
    }

    /// Writes `text` into the target's source as one scene undo step (applied deferred).
    pub(super) fn write_source(&mut self, target: &Target, text: &str, action: &str) {
        let old = target.source_text();
        let terrain = target.terrain.clone().upcast::<Object>();
        if let Some(mut ur) = self.base().get_undo_redo() {
            ur.create_action_ex(action).custom_context(&terrain).done();
            match &target.asset {
                Some(a) => {
                    let a = a.clone().upcast::<Object>();
                    ur.add_do_method(&a, "set_source_json", &[text.to_variant()]);
                    ur.add_undo_method(&a, "set_source_json", &[old.to_variant()]);
                }
                None => {
                    ur.add_do_property(&terrain, "recipe", &text.to_variant());
                    ur.add_undo_property(&terrain, "recipe", &old.to_variant());
                }
            }
            let me = self.to_gd().upcast::<Object>();
            ur.add_do_method(&me, "_on_graph_source_restored", &[]);
            ur.add_undo_method(&me, "_on_graph_source_restored", &[]);
            ur.commit_action_ex().execute(false).done();
        }
        match &target.asset {
            Some(a) => {
                // Undo and redo of this step change the asset too: it is marked unsaved then
                // as well (after a save in between).
                self.watch_source(
                    &target.terrain,
                    &crate::editor::edit_source::EditSource::Asset(a.clone()),
                );
                let mut a = a.clone();
                a.call_deferred("set_source_json", &[text.to_variant()]);
                if !self.dirty.contains(&a) {
                    self.dirty.push(a);
                }
            }
            None => {
                let mut t = target.terrain.clone();
                t.call_deferred("set", &["recipe".to_variant(), text.to_variant()]);
            }
        }
    }
}
