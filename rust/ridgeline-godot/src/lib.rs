//! Ridgeline GDExtension: the Godot classes of the Ridgeline terrain addon.
//!
//! This crate only converts and owns engine resources; everything that computes lives in
//! `ridgeline-core`.

// gdext's entry point requires `unsafe impl ExtensionLibrary`; nothing else here is unsafe.
#![allow(unsafe_code)]

use godot::classes::{ResourceLoader, ResourceSaver};
use godot::init::InitStage;
use godot::prelude::*;
use std::cell::RefCell;

mod chunk_resources;
mod generation_job;
mod ridgeline_editor_plugin;
mod stroke_input;
mod terrain3d;
mod terrain_asset;
mod terrain_asset_loader;
mod terrain_asset_saver;
mod terrain_export_plugin;
mod terrain_water;
mod water_resources;

use terrain_asset_loader::TerrainAssetLoader;
use terrain_asset_saver::TerrainAssetSaver;

/// The extension library entry (`gdext_rust_init`).
struct RidgelineExtension;

thread_local! {
    static FORMATS: RefCell<Option<(Gd<TerrainAssetLoader>, Gd<TerrainAssetSaver>)>> = const { RefCell::new(None) };
}

#[gdextension]
unsafe impl ExtensionLibrary for RidgelineExtension {
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            let loader = TerrainAssetLoader::new_gd();
            let saver = TerrainAssetSaver::new_gd();
            ResourceLoader::singleton()
                .add_resource_format_loader_ex(&loader)
                .at_front(true)
                .done();
            ResourceSaver::singleton()
                .add_resource_format_saver_ex(&saver)
                .at_front(true)
                .done();
            FORMATS.with(|f| *f.borrow_mut() = Some((loader, saver)));
        }
    }

    fn on_stage_deinit(stage: InitStage) {
        if stage == InitStage::Scene
            && let Some((loader, saver)) = FORMATS.with(|f| f.borrow_mut().take())
        {
            ResourceLoader::singleton().remove_resource_format_loader(&loader);
            ResourceSaver::singleton().remove_resource_format_saver(&saver);
        }
    }
}
