//! The `Terrain3D` node, split by concern: this file holds the class, its properties and
//! signals; [`lifecycle`] the engine callbacks; [`generation`] background generation;
//! [`editing`] and [`edit_session`] strokes, undo and layers; [`queries`] and [`surface_info`]
//! what games ask. [`registry`] tracks the terrains inside the tree for the water queries.

use crate::render::chunk_data::ChunkData;
use crate::render::chunks::ChunkResources;
use crate::render::water_surfaces::WaterSurfaces;
use crate::resources::mask_cache::MaskCache;
use crate::resources::material_set::TerrainMaterialSet;
use crate::resources::terrain_asset::TerrainAsset;
use godot::classes::{Node3D, ProjectSettings};
use godot::prelude::*;
use job::{GenerationJob, Prepared};
use look::Look;
use query_view::QueryView;
use ridgeline_core::graph::eval::GraphCache;
use std::cell::{Ref, RefMut};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

pub use surface_info::{TerrainHandle, WaterColumn};

/// A heightmap terrain generated from a Ridgeline recipe.
///
/// Assign a [TerrainAsset] to [member asset] (or an inline recipe JSON to [member recipe], not
/// both). The terrain generates in the background when it enters the tree or its source changes:
/// [signal generation_progress] reports progress and [signal generation_finished] the outcome.
/// The last completed surface stays visible and queryable while a new one generates, and stays
/// when a generation fails or is cancelled.
///
/// Terrain-local X and Z run from 0 to [method get_size]; the node's transform (translation,
/// rotation and scale) places the terrain, and every query honours it. Chunk meshes (with index
/// LODs) and collision bodies are created through the rendering and physics servers: they are
/// not nodes in the scene tree and are never saved into the scene.
///
/// Queries: [method get_height], [method get_heights], [method get_normal], [method raycast],
/// [method raycast_batch] (many rays, no Dictionary: the form for hot loops),
/// [method get_biome], [method get_surface_role] and [method get_exclusion]. Water:
/// [TerrainWater]. Queries are answered on the main thread.
///
/// Surfaces: [member look] draws the terrain realistic (textured from [member material_set]'s
/// layers through a per-sample control texture of surface roles and biomes) or faceted (flat
/// colours); [member surface_blending] blends or keeps one material per triangle.
///
/// Editing: [method apply_stroke] sculpts or paints with the recipe's stroke format (raise,
/// lower, flatten, smooth, set_height, ramp, protect, exclude, erase, region), recomputing only
/// the stroke's footprint and rebuilding only the touched chunks, then
/// [signal surface_changed]. [method undo_stroke], [method redo_stroke] and
/// [method set_layer_enabled] restore or toggle exactly; strokes survive regeneration.
///
/// Errors never pass silently: a method that fails reports why with [code]push_error[/code]
/// and answers its documented failure value (false, NAN, an empty result), and the terrain
/// keeps its previous state.
#[derive(GodotClass)]
#[class(tool, base = Node3D)]
pub struct Terrain3D {
    /// The terrain asset to show. Setting both this and [member recipe] is an error.
    #[export]
    #[var(set)]
    asset: Option<Gd<TerrainAsset>>,
    /// An inline recipe (JSON) for deliberately procedural scenes; generated at runtime.
    /// Setting both this and [member asset] is an error. In the editor the Terrain dock's
    /// brushes, layer edits, undo and redo write their strokes into it (as canonical JSON, saved
    /// with the scene; see [signal source_edited]); a game's edits never change it.
    #[export(multiline)]
    #[var(set)]
    recipe: GString,
    /// Largest projected surface error in pixels for render LOD selection (finite, ≥ 0; 0
    /// disables LOD). Default 2. Invalid values are refused with an error and the old value kept.
    #[export(range = (0.0, 16.0, 0.1, or_greater))]
    #[var(set)]
    lod_error_pixels: f32,
    /// Smooth, height-weighted transitions between surface materials across each cell (true),
    /// or one material per triangle, its vertices' majority (false). Only the shader changes.
    #[export]
    #[var(set)]
    surface_blending: bool,
    /// The surface materials: the nine surface roles bound to [TerrainTextureLayer]s, with
    /// per-biome overrides. Without one the realistic look draws the untextured tint look and
    /// the faceted look a palette per role. Changing the set, its layers or their settings
    /// updates the material only: heights are never regenerated and collision never rebuilt.
    #[export]
    #[var(set = set_material_set)]
    material_set: Option<Gd<TerrainMaterialSet>>,
    /// How the surface is drawn: [constant LOOK_REALISTIC] (textured) or [constant LOOK_FACETED]
    /// (flat colours, face normals, crisp edges). Switching changes only the shader.
    #[export]
    #[var(set = set_look)]
    look: Look,
    /// An overlay drawn over the surface in either look: the exclusion mask, elevation bands
    /// with contour lines, slope or biome regions (see [enum Overlay]). View state for editing
    /// and debugging: not saved with the scene; the editor's Terrain dock sets it.
    #[var(set = set_overlay)]
    overlay: overlay::Overlay,
    /// Physics layers the terrain's collision is on.
    #[export(flags_3d_physics)]
    #[var(set)]
    collision_layer: u32,
    /// Physics layers the terrain's collision scans.
    #[export(flags_3d_physics)]
    #[var(set)]
    collision_mask: u32,
    /// How the collision is kept: every chunk's shape, or only the chunks near moving bodies
    /// (large maps; see [enum CollisionMode]). [constant COLLISION_AUTO] (default) keeps every
    /// chunk up to 600,000 triangles (a 512 m map at 1 m) and only the chunks near bodies above
    /// (in the editor: every chunk up to a 2 km map at 1 m).
    /// Changing it rebuilds the collision.
    #[export]
    #[var(set)]
    collision_mode: collision::CollisionMode,
    /// Near-bodies collision: chunks whose rectangle lies within this distance (metres,
    /// terrain-local X/Z) of a moving body get their shape; they are released once every body
    /// is one chunk farther. Default 96. Invalid values are refused with an error.
    #[export(range = (0.0, 1000.0, 1.0, or_greater, suffix = "m"))]
    #[var(set)]
    collision_radius: f32,
    /// The moving bodies near-bodies collision follows (see [`collision`]).
    near_bodies: collision::NearBodies,
    /// How the terrain is drawn: GPU patches or chunk meshes (see [enum RenderPath]).
    /// [constant RENDER_AUTO] (default) draws with GPU patches and falls back to chunk meshes
    /// when the chunks cannot coarsen on patches (`chunk_cells` not a multiple of 4). Changing
    /// it rebuilds the drawn surface; [method get_render_path_reason] says which path is in use
    /// and why.
    #[export]
    #[var(set)]
    render_path: render_path::RenderPath,
    /// Why the current render path was chosen.
    render_path_reason: &'static str,
    /// CPU time of the last `_process` and near-collision tick (see [method get_frame_cost_usec]).
    frame_cost: render_path::FrameCost,
    /// Stable id of this placement for water queries and trackers
    /// ([method TerrainWater.sample]'s `terrain_id`); empty uses the node's path.
    #[export]
    #[var(set)]
    terrain_id: GString,
    /// Reuse prepared terrains from the user's cache directory (`OS.get_cache_dir()/ridgeline`,
    /// or `$RIDGELINE_CACHE_DIR`), keyed by the canonical recipe and generator version: a warm
    /// load skips graph evaluation. Never writes into the project. Cooked payloads ignore it.
    #[export]
    #[var]
    use_generation_cache: bool,
    /// Stable keys (`owner:palette:rule:i:j`, see [method get_scatter_placements]) of scatter
    /// placements not to render: [TerrainScatter] skips them (no mesh, collision or node).
    /// Saved with the scene; duplicates are dropped when set.
    #[export]
    #[var(set = set_scatter_exclusions)]
    scatter_exclusions: PackedStringArray,
    /// Bumped whenever [member scatter_exclusions] changes (scatter nodes poll it).
    scatter_exclusions_revision: u64,
    /// What changed for foliage (scatter nodes poll it).
    foliage_feed: foliage::FoliageFeed,
    /// The four game-defined user channels ([TerrainUserChannel]: name, kind, legend); at most
    /// four, index = channel. A missing entry or an empty slot is an unnamed value channel. See
    /// [method set_user_channel].
    /// Reading it gives a copy of the list: assign a new array to change it (the channel
    /// resources themselves are shared; editing one, its kind say, takes effect at once).
    #[export]
    #[var(get = get_user_channel_types, set = set_user_channel_types)]
    user_channel_types: Array<Option<Gd<crate::resources::user_channel::TerrainUserChannel>>>,
    /// The user channel (0–3) that tints the drawn surface toward [member user_tint_color] by
    /// its value (a "cut grass" or "wet ground" look), or -1 for none.
    #[export(range = (-1.0, 3.0, 1.0))]
    #[var(set = set_user_tint_channel)]
    user_tint_channel: i32,
    /// The colour [member user_tint_channel] tints toward (alpha = strength at value 1).
    #[export]
    #[var(set = set_user_tint_color)]
    user_tint_color: Color,
    /// Which user channels are ids, and their GPU texture.
    user_paint: user_channels::UserChannelState,

    /// The current surface and placement, shared with the hot queries (see [`query_view`]).
    view: Rc<QueryView>,
    /// The keys of [`Self::raycast`]'s Dictionary.
    hit_keys: ray_hit::HitKeys,
    /// Chunk data from the last generation, until the servers have it.
    pending_chunks: Option<ChunkData>,
    /// The asset or recipe was replaced since the last generation started.
    source_replaced: bool,
    /// Whether the surface (or the running generation) is an unapplied draft.
    draft: draft_generation::DraftState,
    /// Which revision of [member asset] the surface and edit session reflect, and which one
    /// the running generation reads (see [`asset_sync`]).
    asset_sync: asset_sync::AssetSync,
    chunks: ChunkResources,
    /// The surface material and what feeds it (declared after `chunks`: dropped after them).
    materials: materials::MaterialState,
    /// Whole-terrain mesh and collision builds, and edit chunk rebuilds (test counters).
    resource_builds: u64,
    chunk_updates: u64,
    /// The process frame of the last in-place chunk update (see [`chunk_refresh`]).
    last_vertex_edit_frame: u64,
    /// Whether `_process` runs (see [`processing`]).
    process_state: processing::ProcessState,
    /// Names of the deferred signals, interned once (see [`SignalNames`]).
    signal_names: SignalNames,
    water: WaterSurfaces,
    /// The node showing [`Self::water`] (see [`lifecycle`]).
    water_node: Option<Gd<crate::render::water_node::TerrainWaterSurface>>,
    job: Option<GenerationJob>,
    cache: Arc<Mutex<GraphCache>>,
    /// Mask images of the current generation and its edits.
    masks: Option<Arc<MaskCache>>,
    /// Why the edit session was dropped (an internal error while editing); edits are refused
    /// until the next generation rebuilds it.
    session_lost: Option<String>,
    /// Fault injection for tests (`_test_break_edit_session`): what goes wrong in the next edit.
    next_edit_fault: Option<editing::Fault>,
    /// Ids of the editor's undo steps (see [`editor_history`]).
    editor_history: editor_history::EditorHistory,
    last_error: String,
    /// The files the graph read when the last generation started (see [`source_watch`]).
    source_stamps: source_watch::SourceStamps,
    base: Base<Node3D>,
}

#[godot_api]
impl Terrain3D {
    /// Emitted on the main thread while a generation runs: `fraction` in 0..1 and the current
    /// stage.
    #[signal]
    fn generation_progress(fraction: f32, stage: GString);

    /// Emitted when a generation ends. `ok` is false on failure or cancellation; `message` says
    /// why. On success `message` says where the surface came from: `"generated"`,
    /// `"development cache"` or `"cooked payload"`, followed by `"; water warnings: …"` when
    /// water bodies found bank problems (also in [method get_warnings]). A failed generation
    /// keeps the previous surface.
    #[signal]
    fn generation_finished(ok: bool, message: GString);

    /// Emitted (deferred) in the editor after an edit — a stroke, undo, redo or layer edit —
    /// wrote the terrain's strokes and layers into its source: the [member asset]'s recipe
    /// (which also emits [signal Resource.changed]) or the inline [member recipe].
    #[signal]
    fn source_edited();

    /// Emitted after a stroke, undo, redo or layer toggle, once the meshes and collision of the
    /// touched chunks are rebuilt (only those). `region` is the touched sample rectangle
    /// (terrain-local sample indices: position = first sample, size = sample counts).
    #[signal]
    fn surface_changed(region: Rect2i);

    /// Emitted synchronously at the end of every write — [method apply_stroke],
    /// [method set_height_rect], [method undo_stroke], [method redo_stroke],
    /// [method set_layer_enabled] and the editor's strokes — once the touched chunks' meshes and
    /// collision are rebuilt, so handlers read the new data. `layers` is a bit set of the
    /// `LAYER_*` constants ([constant LAYER_HEIGHT], [constant LAYER_SURFACE], …; 0 when the write
    /// changed nothing); `cells` the touched sample rectangle (terrain-local sample indices,
    /// as in [signal surface_changed]); `chunks` the rebuilt chunks' rectangle (chunk indices);
    /// `from_undo` is true for undo and redo. Handlers may query and edit the terrain, but must
    /// not free it synchronously (use [method Node.queue_free]).
    #[signal]
    fn terrain_changed(layers: i32, cells: Rect2i, chunks: Rect2i, from_undo: bool);

    /// Sets [member asset] and regenerates (inside the tree).
    #[func]
    pub fn set_asset(&mut self, asset: Option<Gd<TerrainAsset>>) {
        self.asset = asset;
        self.listen_to_asset();
        self.source_changed();
    }

    /// Sets [member asset] and [member recipe] together and regenerates once (one of them
    /// should be empty: both set is the usual error). The editor's undoable source changes
    /// (**Import heightmap…**) use it, so no intermediate state generates.
    #[func]
    pub fn set_source(&mut self, asset: Option<Gd<TerrainAsset>>, recipe: GString) {
        self.asset = asset;
        self.recipe = recipe;
        self.listen_to_asset();
        self.source_changed();
    }

    /// Sets the inline [member recipe] JSON and regenerates (inside the tree).
    #[func]
    pub fn set_recipe(&mut self, recipe: GString) {
        self.recipe = recipe;
        self.source_changed();
    }

    /// Sets [member lod_error_pixels]; refuses negative or non-finite values (keeping the old
    /// one).
    #[func]
    pub fn set_lod_error_pixels(&mut self, pixels: f32) {
        if !pixels.is_finite() || pixels < 0.0 {
            godot_error!(
                "Terrain3D.lod_error_pixels must be finite and ≥ 0, got {pixels}; keeping {}",
                self.lod_error_pixels
            );
            return;
        }
        self.lod_error_pixels = pixels;
        let bias = self.lod_bias();
        self.chunks.set_lod_bias(bias);
    }

    /// Turns [member surface_blending] on or off.
    #[func]
    pub fn set_surface_blending(&mut self, on: bool) {
        self.surface_blending = on;
        self.materials
            .surface
            .set("surface_blending", on.to_variant());
    }

    /// Sets [member material_set] and updates the material (never the heights or collision).
    #[func]
    pub fn set_material_set(&mut self, set: Option<Gd<TerrainMaterialSet>>) {
        self.material_set = set;
        self.material_set_changed();
    }

    /// Sets [member look]: switches the shader of the shared material only.
    #[func]
    pub fn set_look(&mut self, look: Look) {
        self.look = look;
        self.look_changed();
    }

    /// Sets [member overlay]: only shader parameters change (and, for the exclusion overlay,
    /// one texture upload).
    #[func]
    pub fn set_overlay(&mut self, overlay: overlay::Overlay) {
        self.overlay = overlay;
        self.refresh_overlay(true);
    }

    /// Gets [member user_channel_types]: a copy of the list (assign a new array to change it).
    #[func]
    pub fn get_user_channel_types(
        &self,
    ) -> Array<Option<Gd<crate::resources::user_channel::TerrainUserChannel>>> {
        self.user_channel_types.duplicate_shallow()
    }

    /// Sets [member user_channel_types] (at most four; later entries are refused with an
    /// error).
    #[func]
    pub fn set_user_channel_types(
        &mut self,
        channels: Array<Option<Gd<crate::resources::user_channel::TerrainUserChannel>>>,
    ) {
        self.store_user_channel_types(channels);
    }

    /// Sets [member user_tint_channel] (-1 = off; other values outside 0–3 are refused with an
    /// error, keeping the old one).
    #[func]
    pub fn set_user_tint_channel(&mut self, channel: i32) {
        if !(-1..=3).contains(&channel) {
            godot_error!(
                "Terrain3D.user_tint_channel must be -1 or 0..=3, got {channel}; keeping {}",
                self.user_tint_channel
            );
            return;
        }
        self.user_tint_channel = channel;
        self.apply_user_tint();
    }

    /// Sets [member user_tint_color].
    #[func]
    pub fn set_user_tint_color(&mut self, color: Color) {
        self.user_tint_color = color;
        self.apply_user_tint();
    }

    /// Sets [member terrain_id].
    #[func]
    pub fn set_terrain_id(&mut self, id: GString) {
        self.view.set_terrain_id(id.clone());
        self.terrain_id = id;
    }

    /// Sets [member collision_layer].
    #[func]
    pub fn set_collision_layer(&mut self, layer: u32) {
        self.collision_layer = layer;
        self.chunks
            .set_collision(self.collision_layer, self.collision_mask);
    }

    /// Sets [member collision_mode]; the terrain's collision is rebuilt in the new mode.
    #[func]
    pub fn set_collision_mode(&mut self, mode: collision::CollisionMode) {
        if self.collision_mode == mode {
            return;
        }
        self.collision_mode = mode;
        if self.chunks.is_built() {
            self.rebuild_resources();
        }
    }

    /// Sets [member collision_radius]; refuses negative or non-finite values (keeping the old
    /// one).
    #[func]
    pub fn set_collision_radius(&mut self, radius: f32) {
        if !radius.is_finite() || radius < 0.0 {
            godot_error!(
                "Terrain3D.collision_radius must be finite and ≥ 0, got {radius}; keeping {}",
                self.collision_radius
            );
            return;
        }
        self.collision_radius = radius;
    }

    /// Sets [member render_path]; the drawn surface is rebuilt on the new path.
    #[func]
    pub fn set_render_path(&mut self, path: render_path::RenderPath) {
        if self.render_path == path {
            return;
        }
        self.render_path = path;
        if self.chunks.is_built() {
            self.rebuild_resources();
        }
    }

    /// Sets [member collision_mask].
    #[func]
    pub fn set_collision_mask(&mut self, mask: u32) {
        self.collision_mask = mask;
        self.chunks
            .set_collision(self.collision_layer, self.collision_mask);
    }

    /// Sets [member scatter_exclusions] (duplicates dropped, order kept); [TerrainScatter]s
    /// rebuild the chunks whose placements it changes.
    #[func]
    pub fn set_scatter_exclusions(&mut self, keys: PackedStringArray) {
        self.store_scatter_exclusions(keys);
    }

    /// Version of the Ridgeline generator this extension was built with (part of every cache
    /// key and payload header).
    #[func]
    pub fn get_generator_version() -> GString {
        GString::from(ridgeline_core::GENERATOR_VERSION)
    }
}

impl Terrain3D {
    /// The current surface.
    fn prepared(&self) -> Ref<'_, Option<Arc<Prepared>>> {
        self.view.prepared()
    }

    /// The current surface, to replace or edit in place. Keep the borrow short: queries read the
    /// same cell.
    fn prepared_mut(&self) -> RefMut<'_, Option<Arc<Prepared>>> {
        self.view.prepared_mut()
    }

    fn lod_bias(&self) -> f32 {
        if self.lod_error_pixels == 0.0 {
            // Never coarse: no level's projected error is ever small enough.
            return 1.0e9;
        }
        let threshold = ProjectSettings::singleton()
            .get_setting("rendering/mesh_lod/lod_change/threshold_pixels")
            .try_to::<f32>()
            .unwrap_or(1.0);
        threshold / self.lod_error_pixels
    }

    /// Signals are emitted deferred: handlers (which may free this node, as an awaiting
    /// coroutine can) then never run while Rust holds a borrow of it. Order is preserved.
    /// Queueing a call cannot re-enter this node, so it goes through a plain handle to the base
    /// object: `base_mut()` would type-check the object through the engine first (its
    /// `to_gd()`), about 4 µs of a cold `set_user_channel` tick.
    fn emit_deferred(&mut self, signal: &'static str, args: &[Variant]) {
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(self.signal_names.get(signal).to_variant());
        all.extend_from_slice(args);
        let emit = self.signal_names.get("emit_signal").clone();
        let mut base: Gd<Node3D> = (*self.base()).clone();
        base.call_deferred(&emit, &all);
    }
}

/// Names as `StringName`s, interned once per terrain: building one from text locks the
/// engine's name table, a cost of every write's deferred signal otherwise.
#[derive(Default)]
struct SignalNames(Vec<(&'static str, StringName)>);

impl SignalNames {
    fn get(&mut self, name: &'static str) -> &StringName {
        let i = match self.0.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                self.0.push((name, StringName::from(name)));
                self.0.len() - 1
            }
        };
        &self.0[i].1
    }
}

// The concerns, declared after the class: gdext's derive defines helper macros that the
// `#[godot_api]` blocks in these files expand to, and `macro_rules!` are only visible after their
// definition.
mod asset_sync;
mod bounds;
mod cells;
mod change_signal;
mod chunk_refresh;
pub mod collision;
mod draft_generation;
mod edit_session;
mod editing;
mod editor_history;
mod flow_refresh;
pub mod foliage;
mod generation;
mod height_rect;
pub mod job;
mod layer_edits;
mod layer_files;
pub mod layer_kind;
mod lifecycle;
pub mod look;
mod materials;
pub mod overlay;
pub mod paint_state;
mod processing;
mod queries;
pub mod query_view;
pub mod ray_hit;
pub mod registry;
pub mod render_path;
mod runtime_strokes;
pub mod scatter_state;
mod source_watch;
mod surface_classes;
mod surface_info;
mod surface_paint;
mod surface_queries;
mod transform_cache;
mod user_channels;
mod water_edits;
mod water_paint;
