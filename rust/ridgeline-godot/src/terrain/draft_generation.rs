//! Generating a terrain from a draft recipe without changing its source: the editor's Terrain
//! Graph workspace previews an unapplied graph this way.

use super::Terrain3D;
use super::job::{GenerationJob, Source};
use crate::convert::panic_guard;
use godot::prelude::*;
use ridgeline_core::recipe::Document;

#[godot_api(secondary)]
impl Terrain3D {
    /// Generates the surface from `document` (recipe or asset JSON, strokes included) instead of
    /// [member asset] or [member recipe], which stay unchanged: a preview of an unapplied edit.
    /// Emits the usual signals. An invalid document returns false with its located problems in
    /// [method get_last_error] and keeps the current surface. The next [method generate] returns
    /// to the terrain's own source.
    #[func]
    pub fn generate_draft(&mut self, document: GString) -> bool {
        let text = document.to_string();
        match panic_guard::catch(|| self.start_draft(&text)) {
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
}

impl Terrain3D {
    fn start_draft(&mut self, text: &str) -> Result<(), String> {
        let doc = Document::parse(text, "draft").map_err(|e| e.to_string())?;
        let masks = self.new_mask_cache();
        let recipe = doc.recipe().clone().with_source_dir(self.source_dir());
        let source = Source::Recipe(Box::new(recipe), self.dev_cache(), Some(masks.loader()));
        if let Some(old) = self.job.take() {
            old.cancel();
        }
        self.masks = Some(masks);
        self.job = Some(GenerationJob::start(source, self.cache.clone()));
        // The draft's surface is not the source's: the next generation starts afresh from the
        // source, and the asset revision shown is unknown until then.
        self.source_replaced = true;
        self.asset_sync_generation_failed();
        self.base_mut().set_process(true);
        Ok(())
    }
}
