//! The workspace's generation controls: **Preview** (the draft at Preview quality), a progress
//! bar with **Cancel** while the pinned terrain generates, and the per-card footers with what
//! each node did in the last completed run ("12.3 ms" or "reused").
//! Editor-only: nothing here is registered in games.

use crate::editor::plugin::RidgelineEditorPlugin;
use godot::classes::{HBoxContainer, ProgressBar};
use godot::prelude::*;
use std::collections::HashMap;

/// The progress bar and Cancel button (hidden while idle), and the last run's node footers.
pub struct RunPanel {
    /// The controls, placed in the workspace toolbar.
    pub root: Gd<HBoxContainer>,
    progress: Gd<ProgressBar>,
    /// Footer text per node id from the last completed run (empty before any, and after a run
    /// that evaluated nothing).
    pub footers: HashMap<String, String>,
}

impl RunPanel {
    /// Builds the (hidden) controls; Cancel goes to `plugin`.
    pub fn new(plugin: &Gd<Object>) -> RunPanel {
        let mut root = HBoxContainer::new_alloc();
        root.set_name("Run");
        root.set_visible(false);
        let mut progress = ProgressBar::new_alloc();
        progress.set_name("Progress");
        progress.set_custom_minimum_size(Vector2::new(160.0, 0.0));
        progress.set_max(1.0);
        progress.set_step(0.001);
        progress.set_v_size_flags(godot::classes::control::SizeFlags::SHRINK_CENTER);
        root.add_child(&progress);
        root.add_child(&super::workspace::button(
            "Cancel",
            "Cancel",
            "Stop the generation; the last surface stays",
            plugin,
            "_on_graph_cancel",
        ));
        RunPanel {
            root,
            progress,
            footers: HashMap::new(),
        }
    }

    /// Shows the generation at `fraction` (0–1) in stage `stage`.
    pub fn running(&mut self, fraction: f32, stage: &str) {
        self.root.set_visible(true);
        self.progress.set_value(f64::from(fraction.clamp(0.0, 1.0)));
        self.progress.set_tooltip_text(stage);
    }

    /// Hides the progress controls.
    pub fn idle(&mut self) {
        self.root.set_visible(false);
    }

    /// Footers from `Terrain3D.get_node_reports()`.
    pub fn set_reports(&mut self, reports: &Array<VarDictionary>) {
        self.footers.clear();
        for d in reports.iter_shared() {
            let id = d.get("id").map(|v| v.to_string()).unwrap_or_default();
            let reused = d.get("reused").and_then(|v| v.try_to::<bool>().ok());
            let ms = d.get("time_ms").and_then(|v| v.try_to::<f64>().ok());
            let text = match (reused, ms) {
                (Some(true), _) => "reused".to_string(),
                (_, Some(ms)) if ms >= 100.0 => format!("{ms:.0} ms"),
                (_, Some(ms)) => format!("{ms:.1} ms"),
                _ => continue,
            };
            self.footers.insert(id, text);
        }
    }
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Toolbar: **Preview** (the draft at Preview quality, unapplied).
    #[func]
    fn _on_graph_preview(&mut self) {
        self.graph_generate(true);
    }

    /// Toolbar: **Cancel** (the running generation of the pinned terrain).
    #[func]
    fn _on_graph_cancel(&mut self) {
        if let Some(mut t) = self.graph_target().map(|t| t.terrain) {
            t.call_deferred("cancel_generation", &[]);
            self.graph_show("Cancelling…", false);
        }
    }

    /// The pinned terrain's `generation_progress`.
    #[func]
    fn _on_graph_generation_progress(&mut self, fraction: f32, stage: GString) {
        if let Some(w) = &mut self.graph
            && w.target.is_some()
        {
            w.run.running(fraction, &stage.to_string());
        }
    }
}

impl RidgelineEditorPlugin {
    /// After a finished generation of the pinned terrain: hide the progress, take the node
    /// reports when it succeeded, and say what ran.
    pub(super) fn graph_run_finished(&mut self, ok: bool, message: &str) {
        let Some(target) = self.graph_target() else {
            return;
        };
        let (reports, quality) = if ok {
            let t = target.terrain.bind();
            (
                Some(t.get_node_reports()),
                t.get_generation_quality().to_string(),
            )
        } else {
            (None, String::new())
        };
        let Some(w) = &mut self.graph else { return };
        w.run.idle();
        if let Some(r) = &reports {
            w.run.set_reports(r);
            w.show_footers();
        }
        if ok {
            let at = if quality == "preview" {
                " at Preview quality"
            } else {
                ""
            };
            let nodes = if w.run.footers.is_empty() {
                String::from("; no node evaluated")
            } else {
                format!(
                    "; {} nodes ran, footers show their times",
                    w.run.footers.len()
                )
            };
            self.graph_show(&format!("Generated{at} ({message}{nodes})."), false);
        } else {
            self.graph_show(
                &format!("Generation failed; the last surface stays: {message}"),
                true,
            );
        }
    }
}
