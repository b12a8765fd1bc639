//! Generating a terrain from a draft recipe without changing its source: the editor's Terrain
//! Graph workspace previews an unapplied graph this way.

use super::Terrain3D;
use super::job::{GenerationJob, Source};
use crate::convert::panic_guard;
use godot::prelude::*;
use ridgeline_core::nodes::Quality;
use ridgeline_core::recipe::Document;

#[godot_api(secondary)]
impl Terrain3D {
    /// Generates the surface from `document` (recipe or asset JSON, strokes included) instead of
    /// [member asset] or [member recipe], which stay unchanged: a preview of an unapplied edit.
    /// With `preview` true it runs at Preview quality (erosion shortened to about an eighth of
    /// its droplets; the development cache is neither read nor written). Emits the usual
    /// signals. An invalid document returns false with its located problems in
    /// [method get_last_error] and keeps the current surface. The next [method generate]
    /// returns to the terrain's own source.
    #[func]
    pub fn generate_draft(
        &mut self,
        document: GString,
        #[opt(default = false)] preview: bool,
    ) -> bool {
        let text = document.to_string();
        let quality = if preview {
            Quality::Preview
        } else {
            Quality::Final
        };
        match panic_guard::catch(|| self.start_draft(&text, quality)) {
            Ok(Ok(())) => true,
            Ok(Err(msg)) => {
                self.fail(&msg);
                false
            }
            Err(e) => {
                self.fail(&format!("Terrain3D.generate_draft: {e}"));
                false
            }
        }
    }

    /// What each graph node did in the generation that made the current surface: one
    /// Dictionary per evaluated node, in evaluation order, with `id`, `type`, `time_ms` (wall
    /// clock; 0 when reused) and `reused` (the result came from the graph cache). Empty when
    /// nothing was evaluated: a development-cache hit, a cooked payload, a recipe without a
    /// graph, or before the first generation.
    #[func]
    pub fn get_node_reports(&self) -> Array<VarDictionary> {
        let mut out = Array::new();
        if let Some(p) = self.prepared().as_ref() {
            for n in p.nodes.iter() {
                let mut d = VarDictionary::new();
                d.set("id", n.id.as_str());
                d.set("type", n.type_id.as_str());
                d.set("time_ms", n.time_ms);
                d.set("reused", n.reused);
                out.push(&d);
            }
        }
        out
    }

    /// True while the surface shows a draft from [method generate_draft] instead of the
    /// terrain's own source (until the next [method generate] finishes). Edits (strokes, brush
    /// and runtime writes) are refused meanwhile.
    #[func]
    pub fn is_showing_draft(&self) -> bool {
        self.draft.shown
    }

    /// The quality of the current surface: `"preview"` after [method generate_draft] with
    /// `preview`, `"final"` otherwise (and before the first generation).
    #[func]
    pub fn get_generation_quality(&self) -> GString {
        match self.prepared().as_ref().map(|p| p.quality) {
            Some(Quality::Preview) => "preview".into(),
            _ => "final".into(),
        }
    }
}

/// Whether the surface shows a draft from [`Terrain3D::generate_draft`] instead of the
/// terrain's own source. Edits are refused while it does: they would be measured on the
/// draft's surface and written into the source.
#[derive(Default)]
pub struct DraftState {
    /// The running generation is a draft.
    running: bool,
    /// The current surface is a draft.
    shown: bool,
}

impl Terrain3D {
    /// A generation from the terrain's own source starts.
    pub(super) fn draft_source_generation_started(&mut self) {
        self.draft.running = false;
    }

    /// The running generation finished (`ok`) or failed; a failed one keeps the surface.
    pub(super) fn draft_generation_ended(&mut self, ok: bool) {
        let running = std::mem::take(&mut self.draft.running);
        if ok {
            self.draft.shown = running;
        }
    }

    /// Whether the surface is a draft.
    pub(super) fn draft_shown(&self) -> bool {
        self.draft.shown
    }

    /// `Err` while the surface shows a draft: edits must wait for the source's surface.
    pub(super) fn check_not_draft(&self) -> Result<(), String> {
        if self.draft.shown {
            Err(
                "the surface shows an unapplied draft (generate_draft): apply it to the \
                 source or call generate() before editing"
                    .into(),
            )
        } else {
            Ok(())
        }
    }

    fn start_draft(&mut self, text: &str, quality: Quality) -> Result<(), String> {
        let doc = Document::parse(text, "draft").map_err(|e| e.to_string())?;
        let masks = self.new_mask_cache();
        let recipe = doc.recipe().clone().with_source_dir(self.source_dir());
        let source = Source::Recipe(
            Box::new(recipe),
            self.dev_cache(),
            Some(masks.loader()),
            quality,
        );
        if let Some(old) = self.job.take() {
            old.cancel();
        }
        self.masks = Some(masks);
        self.job = Some(GenerationJob::start(
            source,
            self.cache.clone(),
            (self.collision_mode.core(), self.render_path.core()),
        ));
        // The draft's surface is not the source's: the next generation starts afresh from the
        // source, and the asset revision shown is unknown until then.
        self.source_replaced = true;
        self.asset_sync_generation_failed();
        self.draft.running = true;
        self.want_process();
        Ok(())
    }
}
