//! The `Terrain3D` node.

use crate::chunk_resources::{ChunkResources, Placement};
use crate::generation_job::{ChunkData, Finished, GenerationJob, Poll, Prepared, Source};
use crate::terrain_asset::TerrainAsset;
use godot::classes::notify::Node3DNotification;
use godot::classes::{INode3D, Node3D, ProjectSettings};
use godot::prelude::*;
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::pipeline::DevCache;
use ridgeline_core::recipe::Document;
use std::sync::{Arc, Mutex};

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
/// Editing: [method apply_stroke] sculpts or paints with the recipe's stroke format (raise,
/// lower, flatten, smooth, set_height, ramp, protect, exclude, erase, region), recomputing only
/// the stroke's footprint and rebuilding only the touched chunks, then
/// [signal surface_changed]. [method undo_stroke], [method redo_stroke] and
/// [method set_layer_enabled] restore or toggle exactly; strokes survive regeneration.
#[derive(GodotClass)]
#[class(tool, base = Node3D)]
pub struct Terrain3D {
    /// The terrain asset to show. Setting both this and [member recipe] is an error.
    #[export]
    #[var(set)]
    asset: Option<Gd<TerrainAsset>>,
    /// An inline recipe (JSON) for deliberately procedural scenes; generated at runtime.
    /// Setting both this and [member asset] is an error.
    #[export(multiline)]
    #[var(set)]
    recipe: GString,
    /// Largest projected surface error in pixels for render LOD selection (finite, ≥ 0; 0
    /// disables LOD). Default 2.
    #[export(range = (0.0, 16.0, 0.1, or_greater))]
    #[var(set)]
    lod_error_pixels: f32,
    /// Smooth transitions between surface roles (grass, rock, snow) in the terrain shader.
    #[export]
    #[var(set)]
    surface_blending: bool,
    /// Physics layers the terrain's collision is on.
    #[export(flags_3d_physics)]
    #[var(set)]
    collision_layer: u32,
    /// Physics layers the terrain's collision scans.
    #[export(flags_3d_physics)]
    #[var(set)]
    collision_mask: u32,
    /// Stable id of this placement for water queries and trackers (`TerrainWater.sample(…,
    /// terrain_id)`); empty uses the node's path.
    #[export]
    #[var]
    terrain_id: GString,
    /// Reuse prepared terrains from the user's cache directory (`OS.get_cache_dir()/ridgeline`,
    /// or `$RIDGELINE_CACHE_DIR`), keyed by the canonical recipe and generator version: a warm
    /// load skips graph evaluation. Never writes into the project. Cooked payloads ignore it.
    #[export]
    #[var]
    use_generation_cache: bool,

    prepared: Option<Arc<Prepared>>,
    /// Chunk data from the last generation, until the servers have it.
    pending_chunks: Option<ChunkData>,
    /// The asset or recipe was replaced since the last generation started.
    source_replaced: bool,
    resources: ChunkResources,
    water: crate::water_resources::WaterResources,
    job: Option<GenerationJob>,
    cache: Arc<Mutex<GraphCache>>,
    last_error: String,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for Terrain3D {
    fn init(base: Base<Node3D>) -> Self {
        Self {
            asset: None,
            recipe: GString::new(),
            lod_error_pixels: 2.0,
            surface_blending: true,
            collision_layer: 1,
            collision_mask: 1,
            terrain_id: GString::new(),
            use_generation_cache: true,
            prepared: None,
            pending_chunks: None,
            source_replaced: false,
            resources: ChunkResources::default(),
            water: crate::water_resources::WaterResources::default(),
            job: None,
            cache: Arc::new(Mutex::new(GraphCache::default())),
            last_error: String::new(),
            base,
        }
    }

    fn ready(&mut self) {
        self.base_mut().set_notify_transform(true);
        if self.prepared.is_none() && self.job.is_none() && self.has_source() {
            self.generate();
        }
    }

    fn process(&mut self, _delta: f64) {
        self.poll_job();
    }

    fn on_notification(&mut self, what: Node3DNotification) {
        match what {
            Node3DNotification::ENTER_TREE => register(self.to_gd()),
            Node3DNotification::EXIT_TREE => unregister(self.base().instance_id()),
            Node3DNotification::ENTER_WORLD => self.rebuild_resources(),
            Node3DNotification::EXIT_WORLD => {
                self.resources.free();
                self.water.free();
            }
            Node3DNotification::TRANSFORM_CHANGED => {
                let t = self.base().get_global_transform();
                self.resources.set_transform(t);
                self.water.set_transform(t);
            }
            Node3DNotification::VISIBILITY_CHANGED => {
                let v = self.base().is_visible_in_tree();
                self.resources.set_visible(v);
                self.water.set_visible(v);
            }
            _ => {}
        }
    }
}

#[godot_api]
impl Terrain3D {
    /// Emitted on the main thread while a generation runs: `fraction` in 0..1 and the current
    /// stage.
    #[signal]
    fn generation_progress(fraction: f32, stage: GString);

    /// Emitted when a generation ends. `ok` is false on failure or cancellation; `message` says
    /// why. A failed generation keeps the previous surface.
    #[signal]
    fn generation_finished(ok: bool, message: GString);

    /// Emitted after a stroke, undo, redo or layer toggle, once the meshes and collision of the
    /// touched chunks are rebuilt (only those). `region` is the touched sample rectangle
    /// (terrain-local sample indices: position = first sample, size = sample counts).
    #[signal]
    fn surface_changed(region: Rect2i);

    /// Applies a brush stroke (the recipe's stroke JSON shape as a Dictionary; `Vector2`/
    /// `Vector3` and packed arrays are accepted for points and ends). Positions are
    /// terrain-local. Only the stroke's footprint is recomputed and only touched chunks are
    /// rebuilt; [signal surface_changed] follows. In the editor the stroke is also written into
    /// the asset's recipe (save the asset to keep it); in a game it changes the loaded terrain.
    /// Returns false and reports a located error (`stroke.radius: must be > 0, …`) when the
    /// stroke is invalid; nothing changes then.
    #[func]
    pub fn apply_stroke(&mut self, stroke: VarDictionary) -> bool {
        let value = match crate::stroke_input::to_json(&stroke.to_variant(), "stroke") {
            Ok(v) => v,
            Err(e) => {
                godot_error!("Terrain3D.apply_stroke: {e}");
                return false;
            }
        };
        self.edit(|s| s.apply_stroke(&value).map_err(|e| e.to_string()))
    }

    /// Undoes the last stroke or layer toggle made through this node (restores stored sample
    /// values; nothing regenerates). Returns false when there is nothing to undo.
    #[func]
    pub fn undo_stroke(&mut self) -> bool {
        self.edit(|s| s.undo().ok_or_else(String::new))
    }

    /// Redoes the last undone edit. Returns false when there is nothing to redo.
    #[func]
    pub fn redo_stroke(&mut self) -> bool {
        self.edit(|s| s.redo().ok_or_else(String::new))
    }

    /// Enables or disables a layer; its strokes stay stored (undoable like a stroke).
    #[func]
    pub fn set_layer_enabled(&mut self, layer_id: GString, enabled: bool) -> bool {
        let id = layer_id.to_string();
        self.edit(|s| s.set_layer_enabled(&id, enabled).map_err(|e| e.to_string()))
    }

    /// The layers in evaluation order: Dictionaries with `id`, `name`, `kind` (generation,
    /// biomes, sculpt, protection, exclusions), `enabled` and `strokes` (how many strokes
    /// target it).
    #[func]
    pub fn get_layers(&mut self) -> Array<VarDictionary> {
        let mut out = Array::new();
        let Ok(session) = self.session() else {
            return out;
        };
        let s = session.lock().unwrap_or_else(|e| e.into_inner());
        for l in s.layers() {
            let mut d = VarDictionary::new();
            d.set("id", l.id.as_str());
            d.set("name", l.name.as_str());
            d.set("kind", l.kind.as_str());
            d.set("enabled", l.enabled);
            d.set("strokes", s.strokes_in_layer(&l.id) as i64);
            out.push(&d);
        }
        out
    }

    /// Writes every stroke and layer of this terrain (runtime strokes included) into its
    /// [member asset]'s recipe, so saving the asset (`ResourceSaver.save`) keeps them. The
    /// editor does this after every edit. Returns false for inline recipes and cooked assets
    /// (nothing to write into) or before anything was edited.
    #[func]
    pub fn save_strokes_to_asset(&mut self) -> bool {
        let Some(session) = self.prepared.as_ref().and_then(|p| p.edits.clone()) else {
            return false;
        };
        let s = session.lock().unwrap_or_else(|e| e.into_inner());
        self.write_strokes_to_asset(&s)
    }

    /// True when [method undo_stroke] has something to undo.
    #[func]
    pub fn can_undo_stroke(&self) -> bool {
        self.prepared
            .as_ref()
            .and_then(|p| p.edits.as_ref())
            .is_some_and(|s| s.lock().unwrap_or_else(|e| e.into_inner()).can_undo())
    }

    /// Exclusion weight (0–1) painted at `world_position`; 0 where nothing is painted or outside.
    #[func]
    pub fn get_exclusion(&self, world_position: Vector3) -> f32 {
        let Some(p) = &self.prepared else {
            return 0.0;
        };
        let local = self.base().get_global_transform().affine_inverse() * world_position;
        let Some((x, z)) = nearest_sample(p, local) else {
            return 0.0;
        };
        let i = p.field.grid().index(x, z);
        match &p.edits {
            Some(s) => s.lock().unwrap_or_else(|e| e.into_inner()).exclusion()[i],
            None => p.exclusion.get(i).copied().unwrap_or(0.0),
        }
    }

    /// Sets the asset and regenerates (inside the tree).
    #[func]
    pub fn set_asset(&mut self, asset: Option<Gd<TerrainAsset>>) {
        self.asset = asset;
        self.source_changed();
    }

    /// Sets the inline recipe JSON and regenerates (inside the tree).
    #[func]
    pub fn set_recipe(&mut self, recipe: GString) {
        self.recipe = recipe;
        self.source_changed();
    }

    /// Sets the LOD error in pixels; rejects negative or non-finite values (keeping the old one).
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
        self.resources.set_lod_bias(bias);
    }

    /// Turns smooth surface-role transitions on or off.
    #[func]
    pub fn set_surface_blending(&mut self, on: bool) {
        self.surface_blending = on;
        self.resources.set_surface_blending(on);
    }

    /// Sets the collision layer.
    #[func]
    pub fn set_collision_layer(&mut self, layer: u32) {
        self.collision_layer = layer;
        self.resources
            .set_collision(self.collision_layer, self.collision_mask);
    }

    /// Sets the collision mask.
    #[func]
    pub fn set_collision_mask(&mut self, mask: u32) {
        self.collision_mask = mask;
        self.resources
            .set_collision(self.collision_layer, self.collision_mask);
    }

    /// Starts (or restarts) generating from the current asset or recipe in the background.
    /// Returns false (and reports why) when the source is missing or invalid; the previous
    /// surface stays.
    #[func]
    pub fn generate(&mut self) -> bool {
        let mut source = match self.source() {
            Ok(s) => s,
            Err(msg) => {
                self.fail(&msg);
                return false;
            }
        };
        // Regenerating the same source keeps every stroke made since (runtime strokes
        // included); a new asset or recipe starts from its own strokes.
        let fresh = std::mem::take(&mut self.source_replaced);
        // A disabled generation layer freezes the base: nothing regenerates, strokes stay
        // editable on top of the current base.
        if !fresh
            && let Some(session) = self.prepared.as_ref().and_then(|p| p.edits.clone())
            && session
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .layers()
                .iter()
                .any(|l| l.kind == "generation" && !l.enabled)
        {
            self.emit_deferred(
                "generation_finished",
                &[
                    true.to_variant(),
                    "generation layer disabled: the base is frozen".to_variant(),
                ],
            );
            return true;
        }
        if !fresh
            && let Source::Recipe(recipe, _, _) = &mut source
            && let Some(session) = self.prepared.as_ref().and_then(|p| p.edits.clone())
        {
            let s = session.lock().unwrap_or_else(|e| e.into_inner());
            let edited = s.recipe();
            if edited.grid().ok() == recipe.grid().ok() {
                recipe.set_strokes_from(edited);
            }
        }
        if let Some(old) = self.job.take() {
            old.cancel();
        }
        self.job = Some(GenerationJob::start(source, self.cache.clone()));
        self.base_mut().set_process(true);
        true
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
    /// Returns whether the terrain is ready. For tools and tests; games should use the signal.
    #[func]
    pub fn wait_for_generation(&mut self) -> bool {
        if let Some(job) = self.job.take() {
            let result = job.wait();
            self.finish(result);
        }
        self.prepared.is_some()
    }

    /// The message of the last failed generation (empty after a success).
    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }

    /// Version of the Ridgeline generator this extension was built with (part of every cache
    /// key and payload header).
    #[func]
    pub fn get_generator_version() -> GString {
        GString::from(ridgeline_core::GENERATOR_VERSION)
    }

    /// Terrain size in terrain-local units (X, Z); zero before the first generation.
    #[func]
    pub fn get_size(&self) -> Vector2 {
        self.prepared.as_ref().map_or(Vector2::ZERO, |p| {
            let [x, z] = p.field.grid().size();
            Vector2::new(x, z)
        })
    }

    /// Height of the terrain surface under (or over) `world_position`: the point on the drawn
    /// full-detail triangle at the position's terrain-local X/Z, returned as a world-space Y.
    /// NAN outside the terrain, in a hole, or before the first generation.
    #[func]
    pub fn get_height(&self, world_position: Vector3) -> f32 {
        let Some(p) = &self.prepared else {
            return f32::NAN;
        };
        let xf = self.base().get_global_transform();
        let local = xf.affine_inverse() * world_position;
        match p.field.height_at(local.x, local.z) {
            Some(h) => (xf * Vector3::new(local.x, h, local.z)).y,
            None => f32::NAN,
        }
    }

    /// An extension call that does nothing, with `get_height`'s signature: the baseline the
    /// `godot_get_height_call` benchmark compares against (call and argument overhead only).
    #[func]
    pub fn _empty_query(&self, _world_position: Vector3) -> f32 {
        0.0
    }

    /// `get_height` for many positions at once (NAN where outside or in a hole).
    #[func]
    pub fn get_heights(&self, world_positions: PackedVector3Array) -> PackedFloat32Array {
        let Some(p) = &self.prepared else {
            return PackedFloat32Array::from_iter(
                world_positions.as_slice().iter().map(|_| f32::NAN),
            );
        };
        let xf = self.base().get_global_transform();
        let inv = xf.affine_inverse();
        let points: Vec<[f32; 2]> = world_positions
            .as_slice()
            .iter()
            .map(|w| {
                let l = inv * *w;
                [l.x, l.z]
            })
            .collect();
        let mut out = vec![0.0f32; points.len()];
        p.field.heights_at(&points, &mut out);
        for (h, pt) in out.iter_mut().zip(&points) {
            if h.is_finite() {
                *h = (xf * Vector3::new(pt[0], *h, pt[1])).y;
            }
        }
        PackedFloat32Array::from(out.as_slice())
    }

    /// Face normal of the terrain triangle under `world_position`, in world space (unit
    /// length). Zero vector outside, in a hole, or before the first generation.
    #[func]
    pub fn get_normal(&self, world_position: Vector3) -> Vector3 {
        let Some(p) = &self.prepared else {
            return Vector3::ZERO;
        };
        let xf = self.base().get_global_transform();
        let local = xf.affine_inverse() * world_position;
        match p.field.normal_at(local.x, local.z) {
            Some(n) => normal_to_world(&xf, Vector3::new(n.x, n.y, n.z)),
            None => Vector3::ZERO,
        }
    }

    /// Casts a ray against the terrain surface (both faces; holes are skipped). Returns
    /// `{ "position": Vector3, "normal": Vector3, "distance": float }` in world space, or an
    /// empty Dictionary on a miss.
    #[func]
    pub fn raycast(&self, from: Vector3, direction: Vector3, max_distance: f32) -> VarDictionary {
        let mut out = VarDictionary::new();
        let Some(p) = &self.prepared else { return out };
        if !direction.is_finite()
            || direction.length_squared() == 0.0
            || max_distance.is_nan()
            || max_distance <= 0.0
        {
            return out;
        }
        let xf = self.base().get_global_transform();
        let inv = xf.affine_inverse();
        let dir = direction.normalized();
        let lo = inv * from;
        let ld = inv.basis * dir;
        let scale = ld.length();
        if scale == 0.0 || !scale.is_finite() {
            return out;
        }
        let hit = p.field.raycast(
            glam::Vec3::new(lo.x, lo.y, lo.z),
            glam::Vec3::new(ld.x, ld.y, ld.z),
            max_distance * scale,
        );
        if let Some(h) = hit {
            let pos = xf * Vector3::new(h.position.x, h.position.y, h.position.z);
            let mut n = normal_to_world(&xf, Vector3::new(h.normal.x, h.normal.y, h.normal.z));
            if n.dot(dir) > 0.0 {
                n = -n;
            }
            out.set("position", pos);
            out.set("normal", n);
            out.set("distance", (pos - from).length());
        }
        out
    }

    /// The biome at `world_position` (the recipe's default biome until biome rules and painted
    /// regions are applied); an empty name outside the terrain.
    #[func]
    pub fn get_biome(&self, world_position: Vector3) -> StringName {
        let Some(p) = &self.prepared else {
            return StringName::default();
        };
        let local = self.base().get_global_transform().affine_inverse() * world_position;
        if p.field.height_at(local.x, local.z).is_none() {
            return StringName::default();
        }
        if let Some(s) = &p.edits {
            let s = s.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(b) = s.biome_at(local.x, local.z) {
                return StringName::from(b);
            }
        } else if let Some((x, z)) = nearest_sample(p, local)
            && let Some(&id) = p.regions.get(p.field.grid().index(x, z))
            && id > 0
            && let Some(name) = p.region_biomes.get(id as usize - 1)
        {
            return StringName::from(name.as_str());
        }
        StringName::from(p.default_biome.as_str())
    }

    /// Height of grid sample (x, z) in terrain-local units (NAN outside the grid). For tools and
    /// tests that need the raw grid.
    #[func]
    pub fn get_sample_height(&self, x: i32, z: i32) -> f32 {
        let Some(p) = &self.prepared else {
            return f32::NAN;
        };
        let [w, h] = p.field.grid().samples();
        if x < 0 || z < 0 || x as usize >= w || z as usize >= h {
            return f32::NAN;
        }
        p.field.sample(x as usize, z as usize)
    }

    /// Cells along X and Z (zero before the first generation).
    #[func]
    pub fn get_cell_counts(&self) -> Vector2i {
        self.prepared.as_ref().map_or(Vector2i::ZERO, |p| {
            let [x, z] = p.field.grid().cells();
            Vector2i::new(x as i32, z as i32)
        })
    }

    /// Number of water surface render instances currently owned (one per body; water has no
    /// collider).
    #[func]
    pub fn get_water_instance_count(&self) -> i32 {
        self.water.instance_count() as i32
    }

    /// Number of chunk render instances currently owned (for diagnostics and tests).
    #[func]
    pub fn get_chunk_instance_count(&self) -> i32 {
        self.resources.instance_count() as i32
    }

    /// Bytes the extension itself holds for the current surface, by part: `surface` (heights,
    /// normals, holes, bounds), `meshes` and `collision` (CPU chunk data waiting for the servers;
    /// zero once the terrain is shown — it is rebuilt from the surface when needed), `water`
    /// and `total`. Server-side copies (GPU
    /// buffers, physics shapes) are counted by Godot, not here.
    #[func]
    pub fn get_memory_usage(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let (surface, water) = self
            .prepared
            .as_ref()
            .map_or((0, 0), |p| (p.field.heap_bytes(), p.water.heap_bytes()));
        let (meshes, collision) = self.pending_chunks.as_ref().map_or((0, 0), |c| {
            (
                c.meshes.iter().map(|m| m.heap_bytes()).sum::<usize>(),
                c.collisions.iter().map(|c| c.heap_bytes()).sum::<usize>(),
            )
        });
        d.set("surface", surface as i64);
        d.set("meshes", meshes as i64);
        d.set("collision", collision as i64);
        d.set("water", water as i64);
        d.set("total", (surface + meshes + collision + water) as i64);
        d
    }
}

/// The grid sample nearest to terrain-local `local` (X/Z), if inside.
fn nearest_sample(p: &Prepared, local: Vector3) -> Option<(usize, usize)> {
    p.field.grid().nearest_sample(local.x, local.z)
}

thread_local! {
    /// Terrains inside the tree, in the order they entered (main thread only).
    static LIVE: std::cell::RefCell<Vec<InstanceId>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn register(terrain: Gd<Terrain3D>) {
    let id = terrain.instance_id();
    LIVE.with(|l| {
        let mut l = l.borrow_mut();
        if !l.contains(&id) {
            l.push(id);
        }
    });
}

fn unregister(id: InstanceId) {
    LIVE.with(|l| l.borrow_mut().retain(|x| *x != id));
}

/// Terrains currently in the tree and visible (water queries skip hidden ones).
pub(crate) fn live_terrains() -> Vec<Gd<Terrain3D>> {
    let ids: Vec<InstanceId> = LIVE.with(|l| l.borrow().clone());
    ids.into_iter()
        .filter_map(|id| Gd::<Terrain3D>::try_from_instance_id(id).ok())
        .filter(|t| t.is_visible_in_tree())
        .collect()
}

fn normal_to_world(xf: &Transform3D, n: Vector3) -> Vector3 {
    (xf.basis.inverse().transposed() * n).normalized()
}

impl Terrain3D {
    /// The id water queries match: `terrain_id`, or the node path when empty.
    pub(crate) fn placement_id(&self) -> GString {
        if self.terrain_id.is_empty() {
            GString::from(self.base().get_path().to_string().as_str())
        } else {
            self.terrain_id.clone()
        }
    }

    /// Key identifying this placement in tracker identities.
    pub(crate) fn instance_key(&self) -> i64 {
        self.base().instance_id().to_i64()
    }

    /// The water column at a world position, if this terrain has one there.
    pub(crate) fn water_sample(
        &self,
        world: Vector3,
    ) -> Option<Gd<crate::terrain_water::WaterSample>> {
        let p = self.prepared.as_ref()?;
        let xf = self.base().get_global_transform();
        let local = xf.affine_inverse() * world;
        let s = p.water.sample(&p.field, local.x, local.z)?;
        Some(crate::terrain_water::make_sample(self, &xf, local, &s))
    }

    fn has_source(&self) -> bool {
        self.asset.is_some() || !self.recipe.is_empty()
    }

    fn source(&self) -> Result<Source, String> {
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
                        Box::new(doc.recipe().clone()),
                        self.dev_cache(),
                        Some(self.mask_loader()),
                    )),
                    None => {
                        Err("Terrain3D: the assigned TerrainAsset holds no valid recipe".into())
                    }
                }
            }
            (None, false) => Document::parse(&self.recipe.to_string(), "Terrain3D.recipe")
                .map(|d| {
                    Source::Recipe(
                        Box::new(d.recipe().clone()),
                        self.dev_cache(),
                        Some(self.mask_loader()),
                    )
                })
                .map_err(|e| e.to_string()),
        }
    }

    /// Brush mask images resolve relative to the asset's folder (the project root for an
    /// inline recipe).
    fn mask_loader(&self) -> ridgeline_core::edit::MaskLoader {
        let res = self
            .asset
            .as_ref()
            .map(|a| a.get_path().get_base_dir())
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| GString::from("res://"));
        let dir = ProjectSettings::singleton()
            .globalize_path(&res)
            .to_string();
        ridgeline_core::formats::file_mask_loader(std::path::PathBuf::from(dir))
    }

    /// The edit session, created on first use: from the generation (recipes with strokes), else
    /// with the current surface as the base (recipes without strokes, cooked payloads).
    fn session(&mut self) -> Result<Arc<Mutex<ridgeline_core::pipeline::EditSession>>, String> {
        let masks = self.mask_loader();
        let Some(prepared) = self.prepared.as_mut() else {
            return Err("Terrain3D: nothing to edit before the first generation".into());
        };
        if let Some(s) = &prepared.edits {
            return Ok(s.clone());
        }
        let grid = *prepared.field.grid();
        let recipe = match (&self.asset, self.recipe.is_empty()) {
            (Some(a), _) if a.bind().document().is_some() => {
                a.bind().document().map(|d| d.recipe().clone())
            }
            (None, false) => Document::parse(&self.recipe.to_string(), "Terrain3D.recipe")
                .ok()
                .map(|d| d.recipe().clone()),
            _ => None,
        };
        let recipe = match recipe {
            Some(r) if r.grid().ok() == Some(grid) => r,
            _ => {
                // A cooked payload: a recipe for its grid and biome, runtime strokes only.
                let [sx, sz] = grid.size();
                let [cx, cz] = grid.cells();
                let c = prepared.biome_color;
                let text = serde_json::json!({
                    "size": [sx, sz], "resolution": [cx, cz], "chunk_cells": grid.chunk_cells(),
                    "default_biome": prepared.default_biome,
                    "biomes": { prepared.default_biome.clone(): { "color": c } },
                })
                .to_string();
                Document::parse(&text, "cooked terrain")
                    .map_err(|e| e.to_string())?
                    .recipe()
                    .clone()
            }
        };
        let mut fresh = recipe;
        fresh.clear_strokes();
        let mut session = ridgeline_core::pipeline::EditSession::new(
            fresh,
            (*prepared.field).clone(),
            Some(masks),
        )
        .map_err(|e| e.to_string())?;
        session
            .set_base_masks(
                &prepared.exclusion,
                &prepared.regions,
                &prepared.region_biomes,
            )
            .map_err(|e| e.to_string())?;
        let session = Arc::new(Mutex::new(session));
        Arc::make_mut(prepared).edits = Some(session.clone());
        Ok(session)
    }

    /// Runs an edit, publishes what it changed and reports errors. An empty error message
    /// means "nothing to do" (returns false silently).
    fn edit(
        &mut self,
        f: impl FnOnce(
            &mut ridgeline_core::pipeline::EditSession,
        ) -> Result<ridgeline_core::pipeline::Change, String>,
    ) -> bool {
        if self.job.is_some() {
            godot_error!("Terrain3D: wait for the running generation before editing");
            return false;
        }
        let session = match self.session() {
            Ok(s) => s,
            Err(e) => {
                godot_error!("{e}");
                return false;
            }
        };
        let mut s = session.lock().unwrap_or_else(|e| e.into_inner());
        let change = match f(&mut s) {
            Ok(c) => c,
            Err(e) => {
                if !e.is_empty() {
                    godot_error!("Terrain3D: {e}");
                }
                return false;
            }
        };
        self.publish(&s, &change);
        true
    }

    /// Copies the changed samples into the shown surface, rebuilds the touched chunks' meshes
    /// and collision, writes the recipe back to the asset in the editor, and signals.
    fn publish(
        &mut self,
        s: &ridgeline_core::pipeline::EditSession,
        change: &ridgeline_core::pipeline::Change,
    ) {
        let Some(prepared) = self.prepared.as_mut() else {
            return;
        };
        let p = Arc::make_mut(prepared);
        let r = change.heights;
        if !r.is_empty() {
            let [w, h] = s.field().grid().samples();
            let values = r.copy_from(
                s.field().heights(),
                &ridgeline_core::edit::Rect::new(0, 0, w, h),
            );
            let _ = Arc::make_mut(&mut p.field).write_region(r.x0, r.z0, r.x1, r.z1, &values);
        }
        let field = p.field.clone();
        // Chunk data not yet uploaded is stale now; it is rebuilt from the surface on upload.
        self.pending_chunks = None;
        let [nx, _] = field.grid().chunks();
        // Touched chunks mesh in parallel (pure core work); server updates follow on this thread.
        let built: Vec<_> = ridgeline_core::mesh::par_map(&change.chunks, |&[cx, cz]| {
            (
                (cz * nx + cx) as usize,
                ridgeline_core::mesh::build_chunk(&field, cx, cz),
                ridgeline_core::mesh::chunk_collision(&field, cx, cz),
            )
        });
        for (i, mesh, col) in &built {
            self.resources.update_chunk(*i, mesh, col);
        }
        let [lo, hi] = field.height_range();
        self.resources.set_height_range(lo, hi);
        if godot::classes::Engine::singleton().is_editor_hint() {
            self.write_strokes_to_asset(s);
        }
        let t = change.touched;
        let region = Rect2i::new(
            Vector2i::new(t.x0 as i32, t.z0 as i32),
            Vector2i::new(t.width() as i32, t.depth() as i32),
        );
        self.emit_deferred("surface_changed", &[region.to_variant()]);
    }

    /// Writes the session's strokes and layers into the asset's recipe and emits `changed`.
    fn write_strokes_to_asset(&mut self, s: &ridgeline_core::pipeline::EditSession) -> bool {
        let Some(asset) = &mut self.asset else {
            return false;
        };
        let mut a = asset.bind_mut();
        let Some(doc) = a.document().cloned() else {
            return false;
        };
        let edited = s.recipe();
        let with = |mut r: ridgeline_core::recipe::Recipe| {
            r.set_strokes_from(edited);
            r
        };
        let doc = match doc {
            Document::Asset(mut d) => {
                d.recipe = with(d.recipe);
                Document::Asset(d)
            }
            Document::Recipe(r) => Document::Recipe(with(r)),
        };
        a.set_document(doc);
        drop(a);
        asset.emit_changed();
        true
    }

    /// The development cache, when enabled.
    fn dev_cache(&self) -> Option<DevCache> {
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

    fn source_changed(&mut self) {
        self.source_replaced = true;
        if self.base().is_inside_tree() {
            self.generate();
        }
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

    fn placement(&self) -> Option<Placement> {
        let world = self.base().get_world_3d()?;
        Some(Placement {
            transform: self.base().get_global_transform(),
            scenario: world.get_scenario(),
            space: world.get_space(),
            lod_bias: self.lod_bias(),
            visible: self.base().is_visible_in_tree(),
            collision: (self.collision_layer, self.collision_mask),
            owner_id: self.base().instance_id().to_i64(),
        })
    }

    fn rebuild_resources(&mut self) {
        self.resources.free();
        self.water.free();
        let (Some(prepared), Some(place)) = (self.prepared.clone(), self.placement()) else {
            return;
        };
        let chunks = self
            .pending_chunks
            .take()
            .unwrap_or_else(|| ChunkData::build(&prepared.field));
        self.resources = ChunkResources::build(&prepared, &chunks, &place, self.surface_blending);
        self.water = crate::water_resources::WaterResources::build(
            &prepared.field,
            &prepared.water,
            place.scenario,
            place.transform,
            place.visible,
        );
    }

    fn poll_job(&mut self) {
        let Some(job) = &self.job else {
            self.base_mut().set_process(false);
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
        self.base_mut().set_process(false);
        match result {
            Ok((prepared, chunks)) => {
                self.pending_chunks = Some(chunks);
                for w in &prepared.warnings {
                    godot_warn!("{w}");
                }
                let origin = prepared.origin;
                self.prepared = Some(Arc::new(prepared));
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
                    &[true.to_variant(), origin.to_variant()],
                );
            }
            Err(msg) => self.fail(&msg),
        }
    }

    fn fail(&mut self, msg: &str) {
        self.last_error = msg.to_string();
        godot_error!("{msg}");
        self.emit_deferred(
            "generation_finished",
            &[false.to_variant(), msg.to_variant()],
        );
    }

    /// Signals are emitted deferred: handlers (which may free this node, as an awaiting
    /// coroutine can) then never run while Rust holds a borrow of it. Order is preserved.
    fn emit_deferred(&mut self, signal: &str, args: &[Variant]) {
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(StringName::from(signal).to_variant());
        all.extend_from_slice(args);
        self.base_mut().call_deferred("emit_signal", &all);
    }
}
