//! Ridgeline GDExtension: the Godot classes of the Ridgeline terrain addon.
//!
//! This crate only converts and owns engine resources; everything that computes lives in
//! `ridgeline-core`.
//!
//! ## Layers
//! Each module imports only modules of its own or a lower layer, and no two modules import
//! each other (directly or through others). `cargo xtask test` checks this table against the
//! `crate::…` references in every module's files (tests excepted).
//!
//! | layer | modules |
//! |---|---|
//! | foundations | convert |
//! | render | render |
//! | resources | resources |
//! | terrain | terrain |
//! | water | water |
//! | editor | editor |
//!
//! - `convert`: GDScript values to JSON, caught panics as errors, Rust enums as class enums.
//! - `render`: chunk meshes, collision bodies and water surfaces through the servers.
//! - `resources`: `TerrainAsset`, its loader and saver, brush-mask reading off the main thread.
//! - `terrain`: `Terrain3D` (class, lifecycle, generation, editing, queries), `TerrainRayHit`,
//!   the live-terrain registry.
//! - `water`: `TerrainWater`, `WaterSample`, `WaterEvent`, `WaterTracker`.
//! - `editor`: the editor plugin and the export cooker.
//!
//! ## Threads
//! The crate is built without gdext's `experimental-threads` feature, so binding a Rust object
//! costs no lock (an empty `#[func]` call costs what the engine's own calls cost). What runs off
//! Godot's main thread, and why that is sound:
//! - generation jobs and brush-mask reads are Rust threads with owned data that never touch an
//!   engine object; results come back through channels polled on the main thread;
//! - `TerrainAssetLoader` (and `TerrainAssetSaver`) are called by Godot on loader threads: their
//!   methods take the object handle, not `&self` (`#[func(gd_self)]`), so no Rust object is ever
//!   borrowed from two threads, and a load only builds a fresh `TerrainAsset` that no other
//!   thread sees until the loader returns it.
//!
//! Every other class, like Godot's own nodes, is used from the main thread.

// gdext's entry point requires `unsafe impl ExtensionLibrary`; nothing else here is unsafe.
#![allow(unsafe_code)]

use godot::classes::{ResourceLoader, ResourceSaver};
use godot::init::InitStage;
use godot::prelude::*;
use std::cell::RefCell;

mod convert;
mod editor;
mod render;
mod resources;
mod terrain;
mod water;

use convert::class_enum;
use resources::loader::TerrainAssetLoader;
use resources::saver::TerrainAssetSaver;

/// The extension library entry (`gdext_rust_init`).
struct RidgelineExtension;

thread_local! {
    static FORMATS: RefCell<Option<(Gd<TerrainAssetLoader>, Gd<TerrainAssetSaver>)>> = const { RefCell::new(None) };
}

#[gdextension]
unsafe impl ExtensionLibrary for RidgelineExtension {
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            // gdext has registered this stage's classes; their enums follow.
            class_enum::register::<terrain::layer_kind::LayerKind>();
            class_enum::register::<water::sample::WaterKind>();
            class_enum::register::<water::event::WaterPhase>();
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
