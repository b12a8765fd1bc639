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
//! | foundations | convert, catalog, editor_hint |
//! | render | render |
//! | resources | resources |
//! | terrain | terrain |
//! | water | water |
//! | scatter | scatter |
//! | editor | editor |
//!
//! - `convert`: GDScript values to JSON, caught panics as errors, Rust enums as class enums.
//! - `catalog`: `TerrainNodes`, the graph node catalogue from the core's registry.
//! - `editor_hint`: whether Godot runs as the editor, asked of the engine once.
//! - `render`: chunk meshes, collision bodies and water surfaces through the servers.
//! - `resources`: `TerrainAsset`, its loader and saver, brush-mask reading off the main thread;
//!   `TerrainTextureLayer`, `TerrainMaterialSet` (and its `*.material_set.json` loader), texture
//!   array packing.
//! - `terrain`: `Terrain3D` (class, lifecycle, generation, editing, queries), `TerrainRayHit`
//!   (the reusable ray-cast result),
//!   the live-terrain registry.
//! - `water`: `TerrainWater`, `WaterSample`, `WaterEvent`, `WaterTracker`.
//! - `scatter`: `TerrainScatter`, the MultiMesh renderer of a terrain's scatter placements.
//! - `editor`: the editor plugin and the export cooker.
//!
//! ## Threads
//! Godot constructs the extension's Resource classes on its loader threads —
//! `ResourceLoader.load_threaded_request`, sub-thread loads of scenes, the editor's file scan and
//! previews: `TerrainAssetLoader` reads a file and creates a `TerrainAsset` there, and a `.tres`
//! holding a `TerrainMaterialSet` or `TerrainTextureLayer` is instantiated there by Godot itself.
//! Without gdext's `experimental-threads` feature, gdext refuses every engine call off the main
//! thread ("attempted to access binding from different thread than main thread"; gdext issues
//! #597 and #1257) and the `.tres` case aborts the process: `tests/runtime/test_threaded_loading.gd`
//! shows both. The feature stays on. Its price was a condition-variable wake (a futex system
//! call) on every `&self`/`&mut self` method call; the workspace patches gdext's `godot-cell`
//! (`vendor/godot-cell/RIDGELINE.md`) so that an uncontended borrow makes no system call.
//! Then:
//! - the hot queries (`get_height`, `get_heights`, `get_normal`, `raycast`, `raycast_batch`,
//!   `get_biome`, `get_exclusion`) take `&self` and read the node's
//!   `terrain::query_view::QueryView`; `#[func(gd_self)]` would cost more (gdext clones and
//!   type-checks the handle through the engine on each call). The water queries reach the view
//!   without binding the terrain;
//! - the loader and saver take the object handle, so concurrent loads never contend for a Rust
//!   borrow; a load builds a fresh `TerrainAsset` that no other thread sees until Godot receives
//!   it;
//! - generation jobs and brush-mask reads are Rust threads with owned data that never touch an
//!   engine object; results come back through channels polled on the main thread.
//!
//! Every other class, like Godot's own nodes, is used from the main thread; queries from other
//! threads answer their failure value with an error.

// gdext's entry point requires `unsafe impl ExtensionLibrary`; nothing else here is unsafe.
#![allow(unsafe_code)]

use godot::classes::{ResourceLoader, ResourceSaver};
use godot::init::InitStage;
use godot::prelude::*;
use std::cell::RefCell;

mod catalog;
mod convert;
mod editor;
mod editor_hint;
mod render;
mod resources;
mod scatter;
mod terrain;
mod water;

use convert::class_enum;
use resources::loader::TerrainAssetLoader;
use resources::material_set_loader::TerrainMaterialSetLoader;
use resources::saver::TerrainAssetSaver;

/// The resource formats the extension registers (removed again at shutdown).
type Formats = (
    Gd<TerrainAssetLoader>,
    Gd<TerrainAssetSaver>,
    Gd<TerrainMaterialSetLoader>,
);

/// The extension library entry (`gdext_rust_init`).
struct RidgelineExtension;

thread_local! {
    static FORMATS: RefCell<Option<Formats>> = const { RefCell::new(None) };
}

#[gdextension]
unsafe impl ExtensionLibrary for RidgelineExtension {
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            // gdext has registered this stage's classes; their enums follow.
            class_enum::register::<terrain::layer_kind::LayerKind>();
            class_enum::register::<terrain::look::Look>();
            class_enum::register::<terrain::collision::CollisionMode>();
            class_enum::register::<terrain::render_path::RenderPath>();
            class_enum::register::<terrain::overlay::Overlay>();
            class_enum::register::<resources::user_channel::UserChannelKind>();
            class_enum::register::<water::sample::WaterKind>();
            class_enum::register::<water::event::WaterPhase>();
            let loader = TerrainAssetLoader::new_gd();
            let saver = TerrainAssetSaver::new_gd();
            let set_loader = TerrainMaterialSetLoader::new_gd();
            ResourceLoader::singleton()
                .add_resource_format_loader_ex(&loader)
                .at_front(true)
                .done();
            ResourceLoader::singleton()
                .add_resource_format_loader_ex(&set_loader)
                .at_front(true)
                .done();
            ResourceSaver::singleton()
                .add_resource_format_saver_ex(&saver)
                .at_front(true)
                .done();
            FORMATS.with(|f| *f.borrow_mut() = Some((loader, saver, set_loader)));
        }
    }

    fn on_stage_deinit(stage: InitStage) {
        if stage == InitStage::Scene
            && let Some((loader, saver, set_loader)) = FORMATS.with(|f| f.borrow_mut().take())
        {
            ResourceLoader::singleton().remove_resource_format_loader(&loader);
            ResourceLoader::singleton().remove_resource_format_loader(&set_loader);
            ResourceSaver::singleton().remove_resource_format_saver(&saver);
        }
    }
}
