//! Generating `Terrain3D`'s surface in the background: the source (asset, inline recipe or
//! cooked payload), the job, its progress and outcome.

use super::Terrain3D;
use super::job::{Finished, GenerationJob, Poll, Source};
use super::layer_kind::LayerKind;
use crate::convert::panic_guard;
use crate::resources::mask_cache::MaskCache;
use godot::classes::ProjectSettings;
use godot::prelude::*;
use ridgeline_core::nodes::Quality;
use ridgeline_core::pipeline::DevCache;
use ridgeline_core::recipe::Document;
use std::sync::Arc;

#[godot_api(secondary)]
impl Terrain3D {
    /// Starts (or restarts) generating from the current asset or recipe in the background.
    /// Returns false (and reports why) when the source is missing or invalid; the previous
    /// surface stays. [signal generation_finished] reports the outcome.
    #[func]
    pub fn generate(&mut self) -> bool {
        match panic_guard::catch(|| self.start_generation()) {
            Ok(Ok(())) => true,
            Ok(Err(msg)) => {
                self.fail(&msg);
                false
            }
            Err(e) => {
                self.fail(&format!("Terrain3D.generate: {e}"));
                false
            }
        }
    }

    /// Stops the running generation; the last completed surface stays.
    #[func]
    pub fn cancel_generation(&mut self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
    }

    /// True while a generation runs.
    #[func]
    pub fn is_generating(&self) -> bool {
        self.job.is_some()
    }

    /// Blocks until the running generation finishes and applies it (emitting its signals).
    /// Returns whether the terrain has a surface. For tools and tests; games should use
    /// [signal generation_finished].
    #[func]
    pub fn wait_for_generation(&mut self) -> bool {
        if let Some(job) = self.job.take() {
            let result = job.wait();
            self.finish(result);
        }
        self.prepared().is_some()
    }

    /// The message of the last failed generation (empty after a success).
    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }
}

impl Terrain3D {
    pub(super) fn has_source(&self) -> bool {
        self.asset.is_some() || !self.recipe.is_empty()
    }

    fn start_generation(&mut self) -> Result<(), String> {
        // Every generation reads its masks afresh (a mask edited on disk is picked up).
        let masks = self.new_mask_cache();
        let mut source = self.source(&masks)?;
        // Regenerating the same source keeps every stroke made since (runtime strokes
        // included); a new asset or recipe starts from its own strokes.
        // While a draft is on screen its session is the draft's: the source starts afresh
        // (also after a cancelled or failed return to the source).
        let fresh = std::mem::take(&mut self.source_replaced) || self.draft_shown();
        let session = if fresh { None } else { self.current_session() };
        if let Some(session) = session {
            // A poisoned session is dropped here and the generation rebuilds one from the
            // asset's strokes.
            if let Some(s) = self.lock_or_drop(&session) {
                // A disabled generation layer freezes the base: nothing regenerates, strokes
                // stay editable on top of the current base.
                let frozen = s.layers().iter().any(|l| {
                    LayerKind::from_recipe(&l.kind) == Some(LayerKind::Generation) && !l.enabled
                });
                if frozen {
                    drop(s);
                    self.emit_deferred(
                        "generation_finished",
                        &[
                            true.to_variant(),
                            "generation layer disabled: the base is frozen".to_variant(),
                        ],
                    );
                    return Ok(());
                }
                if let Source::Recipe(recipe, ..) = &mut source {
                    let edited = s.recipe();
                    if edited.grid().ok() == recipe.grid().ok() {
                        recipe.set_strokes_from(edited);
                    }
                }
            }
        }
        self.source_stamps = match &source {
            Source::Recipe(recipe, ..) => super::source_watch::SourceStamps::capture(recipe),
            Source::Cooked(_) => Default::default(),
        };
        if let Some(old) = self.job.take() {
            old.cancel();
        }
        self.masks = Some(masks);
        self.job = Some(GenerationJob::start(
            source,
            self.cache.clone(),
            (self.collision_mode.core(), self.render_path.core()),
        ));
        self.asset_generation_started();
        self.draft_source_generation_started();
        self.want_process();
        Ok(())
    }

    fn source(&self, masks: &Arc<MaskCache>) -> Result<Source, String> {
        match (&self.asset, self.recipe.is_empty()) {
            (Some(_), false) => {
                Err("Terrain3D: set either `asset` or an inline `recipe`, not both".into())
            }
            (None, true) => Err("Terrain3D: no `asset` or `recipe` to generate from".into()),
            (Some(a), true) => {
                let a = a.bind();
                if let Some(cooked) = a.cooked() {
                    return Ok(Source::Cooked(cooked));
                }
                match a.document() {
                    Some(doc) => Ok(Source::Recipe(
                        Box::new(doc.recipe().clone().with_source_dir(self.source_dir())),
                        self.dev_cache(),
                        Some(masks.loader()),
                        Quality::Final,
                    )),
                    None => {
                        Err("Terrain3D: the assigned TerrainAsset holds no valid recipe".into())
                    }
                }
            }
            (None, false) => Document::parse(&self.recipe.to_string(), "Terrain3D.recipe")
                .map(|d| {
                    Source::Recipe(
                        Box::new(d.recipe().clone().with_source_dir(self.source_dir())),
                        self.dev_cache(),
                        Some(masks.loader()),
                        Quality::Final,
                    )
                })
                .map_err(|e| e.to_string()),
        }
    }

    /// The folder referenced files (brush masks, heightmaps) resolve from: the asset's folder,
    /// the project root for an inline recipe.
    pub(super) fn source_dir(&self) -> std::path::PathBuf {
        let res = self
            .asset
            .as_ref()
            .map(|a| a.get_path().get_base_dir())
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| GString::from("res://"));
        std::path::PathBuf::from(
            ProjectSettings::singleton()
                .globalize_path(&res)
                .to_string(),
        )
    }

    /// A mask cache reading images relative to [`Self::source_dir`], on threads of its own.
    pub(super) fn new_mask_cache(&self) -> Arc<MaskCache> {
        MaskCache::new(ridgeline_core::formats::file_mask_loader(self.source_dir()))
    }

    /// The development cache, when enabled.
    pub(super) fn dev_cache(&self) -> Option<DevCache> {
        if !self.use_generation_cache {
            return None;
        }
        if std::env::var_os("RIDGELINE_CACHE_DIR").is_some_and(|v| !v.is_empty()) {
            return DevCache::from_environment(ridgeline_core::formats::payload::CODEC);
        }
        let dir = godot::classes::Os::singleton().get_cache_dir().to_string();
        (!dir.is_empty()).then(|| {
            DevCache::new(
                std::path::Path::new(&dir).join("ridgeline").join("terrain"),
                ridgeline_core::formats::payload::CODEC,
            )
        })
    }

    pub(super) fn source_changed(&mut self) {
        self.source_replaced = true;
        if self.base().is_inside_tree() {
            self.generate();
        }
    }

    pub(super) fn poll_job(&mut self) {
        let Some(job) = &self.job else {
            return;
        };
        match job.poll() {
            Poll::Running(Some((f, stage))) => {
                self.emit_deferred("generation_progress", &[f.to_variant(), stage.to_variant()]);
            }
            Poll::Running(None) => {}
            Poll::Done(result) => {
                self.job = None;
                self.finish(result);
            }
        }
    }

    fn finish(&mut self, result: Result<Finished, String>) {
        match result {
            Ok((prepared, chunks)) => {
                self.asset_generation_finished();
                self.draft_generation_ended(true);
                self.pending_chunks = Some(chunks);
                for w in &prepared.warnings {
                    godot_warn!("{w}");
                }
                let origin = prepared.origin;
                *self.prepared_mut() = Some(Arc::new(prepared));
                self.foliage_feed.regenerated();
                // Water bank warnings: pushed, listed by get_warnings() and appended to the
                // message (`generated; water warnings: …`).
                let water_warnings = self.water_warnings();
                for w in &water_warnings {
                    godot_warn!("{w}");
                }
                let message = if water_warnings.is_empty() {
                    origin.to_string()
                } else {
                    format!("{origin}; water warnings: {}", water_warnings.join("; "))
                };
                self.session_lost = None;
                self.last_error.clear();
                if self.base().is_inside_tree() {
                    self.rebuild_resources();
                }
                self.emit_deferred(
                    "generation_progress",
                    &[1.0f32.to_variant(), "done".to_variant()],
                );
                self.emit_deferred(
                    "generation_finished",
                    &[true.to_variant(), message.to_variant()],
                );
            }
            Err(msg) => {
                self.asset_sync_generation_failed();
                self.draft_generation_ended(false);
                self.fail(&msg)
            }
        }
    }

    pub(super) fn fail(&mut self, msg: &str) {
        self.last_error = msg.to_string();
        godot_error!("{msg}");
        self.emit_deferred(
            "generation_finished",
            &[false.to_variant(), msg.to_variant()],
        );
    }
}
