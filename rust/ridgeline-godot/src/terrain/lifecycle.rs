//! `Terrain3D`'s engine callbacks: construction, entering and leaving the tree and the world,
//! transform and visibility changes, polling the generation job.

use super::query_view::QueryView;
use super::{Terrain3D, registry};
use crate::render::chunk_data::ChunkData;
use crate::render::chunks::{ChunkResources, Placement};
use crate::render::patches::GpuPatches;
use crate::render::water_node::TerrainWaterSurface;
use crate::render::water_surfaces::WaterSurfaces;
use godot::classes::node::InternalMode;
use godot::classes::notify::Node3DNotification;
use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::mesh::near_chunks::CollisionMode;
use ridgeline_core::mesh::patch::RenderPath;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

#[godot_api]
impl INode3D for Terrain3D {
    fn init(base: Base<Node3D>) -> Self {
        Self {
            asset: None,
            recipe: GString::new(),
            lod_error_pixels: 2.0,
            surface_blending: true,
            material_set: None,
            look: super::look::Look::Realistic,
            overlay: super::overlay::Overlay::None,
            collision_layer: 1,
            collision_mask: 1,
            collision_mode: super::collision::CollisionMode::Auto,
            collision_radius: 96.0,
            near_bodies: Default::default(),
            render_path: super::render_path::RenderPath::Auto,
            render_path_reason: "",
            frame_cost: Default::default(),
            terrain_id: GString::new(),
            use_generation_cache: true,
            scatter_exclusions: PackedStringArray::new(),
            scatter_exclusions_revision: 0,
            foliage_feed: Default::default(),
            user_channel_types: Array::new(),
            user_tint_channel: -1,
            user_tint_color: Color::from_rgba(0.55, 0.75, 0.3, 1.0),
            user_paint: Default::default(),
            view: Rc::new(QueryView::default()),
            hit_keys: Default::default(),
            pending_chunks: None,
            source_replaced: false,
            draft: Default::default(),
            asset_sync: Default::default(),
            chunks: ChunkResources::default(),
            materials: Default::default(),
            resource_builds: 0,
            chunk_updates: 0,
            last_vertex_edit_frame: 0,
            process_state: Default::default(),
            signal_names: Default::default(),
            water: WaterSurfaces::default(),
            water_node: None,
            job: None,
            cache: Arc::new(Mutex::new(GraphCache::default())),
            masks: None,
            session_lost: None,
            next_edit_fault: None,
            editor_history: Default::default(),
            last_error: String::new(),
            source_stamps: Default::default(),
            base,
        }
    }

    fn ready(&mut self) {
        self.base_mut().set_notify_transform(true);
        if self.prepared().is_none() && self.job.is_none() && self.has_source() {
            self.generate();
        }
    }

    fn process(&mut self, _delta: f64) {
        let start = std::time::Instant::now();
        self.poll_job();
        // One upload per frame for every paint write since the last frame.
        let uploaded = self.flush_paint_uploads();
        self.refresh_stale_lods();
        let patches_uploaded = self.show_patches();
        self.settle_process(uploaded || patches_uploaded);
        self.frame_cost.process = start.elapsed().as_secs_f64() * 1e6;
    }

    fn on_notification(&mut self, what: Node3DNotification) {
        match what {
            Node3DNotification::ENTER_TREE => {
                // Local transform changes must reach the transform cache synchronously.
                self.base_mut().set_notify_local_transform(true);
                self.process_state.forget();
                self.view.xform.reconsider(&self.base());
                self.view.forget_placement_id();
                self.view.set_visible(self.base().is_visible_in_tree());
                registry::register(self.to_gd(), &self.view);
            }
            Node3DNotification::EXIT_TREE => {
                self.stop_following_bodies();
                self.view.xform.reconsider(&self.base());
                self.view.forget_placement_id();
                registry::unregister(self.base().instance_id());
            }
            Node3DNotification::ENTER_WORLD => self.rebuild_resources(),
            Node3DNotification::EXIT_WORLD => {
                self.stop_following_bodies();
                self.chunks.free();
                self.free_water();
            }
            Node3DNotification::LOCAL_TRANSFORM_CHANGED => self.view.xform.invalidate(),
            Node3DNotification::TRANSFORM_CHANGED => {
                self.view.xform.invalidate();
                let t = self.base().get_global_transform();
                self.chunks.set_transform(t);
            }
            Node3DNotification::VISIBILITY_CHANGED => {
                let v = self.base().is_visible_in_tree();
                self.view.set_visible(v);
                self.chunks.set_visible(v);
            }
            Node3DNotification::PATH_RENAMED => self.view.forget_placement_id(),
            _ => {}
        }
    }
}

impl Terrain3D {
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

    /// Recreates every server resource from the current surface (entering a world, a new
    /// generation).
    pub(super) fn rebuild_resources(&mut self) {
        self.chunks.free();
        self.free_water();
        let (Some(prepared), Some(place)) = (self.prepared().clone(), self.placement()) else {
            return;
        };
        let mode = self.resolved_collision_mode(prepared.field.grid());
        let (path, reason) = self.render_path.core().resolve(prepared.field.grid());
        let gpu = path == RenderPath::Gpu;
        let mut chunks = self
            .pending_chunks
            .take()
            .unwrap_or_else(|| ChunkData::build(&prepared.field, mode, !gpu));
        let chunk_count = {
            let [nx, nz] = prepared.field.grid().chunks();
            nx as usize * nz as usize
        };
        if mode == CollisionMode::Full && chunks.collisions.len() != chunk_count {
            // The mode changed to full since the job built the chunks without collision.
            chunks.build_collisions(&prepared.field);
        }
        if gpu {
            chunks.meshes.clear();
        } else if chunks.meshes.len() != chunk_count {
            // The path changed to meshes since the job built the chunks without them.
            chunks.meshes = ridgeline_core::mesh::build_all(&prepared.field);
        }
        self.refresh_materials();
        self.materials.surface.set_patches(gpu);
        let material = self.materials.surface.rid();
        self.chunks = ChunkResources::build(&prepared.field, &chunks, &place, material, mode);
        self.render_path_reason = reason;
        if gpu {
            let patches = GpuPatches::build(&prepared.field, &place, &mut self.materials.surface);
            self.chunks.set_patches(patches);
            self.want_process();
        }
        self.resource_builds += 1;
        self.follow_bodies();
        self.water = WaterSurfaces::build(&prepared.field, &prepared.water);
        self.attach_water();
    }

    /// Shows the water mesh in the terrain's [`TerrainWaterSurface`]: the first such child (a
    /// designer's), else an internal one added here (only when there is water).
    pub(super) fn attach_water(&mut self) {
        let mesh = self.water.mesh();
        if self.water_node_moved() {
            self.water_node = self
                .base()
                .get_children_ex()
                .include_internal(true)
                .done()
                .iter_shared()
                .find_map(|c| c.try_cast::<TerrainWaterSurface>().ok());
        }
        if self.water_node.is_none() && mesh.is_some() {
            let mut node = TerrainWaterSurface::new_alloc();
            node.set_name("Water");
            self.base_mut()
                .add_child_ex(&node)
                .internal(InternalMode::BACK)
                .done();
            self.water_node = Some(node);
        }
        let prepared = self.prepared().clone();
        if let Some(node) = &mut self.water_node {
            node.set_base(mesh.unwrap_or(Rid::Invalid));
            let water = prepared
                .as_ref()
                .filter(|_| mesh.is_some())
                .map(|p| (&*p.water, &*p.field));
            node.bind_mut().show_underwater(water);
        }
    }

    /// True when the remembered water node is gone, freed or no longer this terrain's child.
    fn water_node_moved(&self) -> bool {
        self.water_node.as_ref().is_none_or(|n| {
            !n.is_instance_valid() || n.get_parent().as_ref() != Some(&self.to_gd().upcast())
        })
    }

    /// After the water surfaces followed an edit in place (same mesh): the underwater view
    /// reads the edited water where it can have changed (`samples`: x0, z0, x1, z1). A water
    /// node replaced since the last build (a designer's added at runtime) gets the mesh and the
    /// whole view instead ([`Self::attach_water`]).
    pub(super) fn show_water_after_edit(&mut self, samples: [usize; 4]) {
        if self.water_node_moved() {
            self.attach_water();
            return;
        }
        let prepared = self.prepared().clone();
        if let Some(node) = &mut self.water_node
            && node.is_instance_valid()
            && let Some(p) = &prepared
        {
            if self.water.mesh().is_some() {
                node.bind_mut()
                    .update_underwater(&p.water, &p.field, samples);
            } else {
                node.bind_mut().show_underwater(None);
            }
        }
    }

    /// Detaches the water mesh from its node and frees it.
    pub(super) fn free_water(&mut self) {
        if let Some(node) = &mut self.water_node
            && node.is_instance_valid()
        {
            node.set_base(Rid::Invalid);
            node.bind_mut().show_underwater(None);
        }
        self.water.free();
    }
}
