//! `Terrain3D`'s render paths: chunk meshes, or GPU patches (shared grid patches reading a
//! height texture and deriving normals from it, drawn instanced; [`crate::render::patches`]).
//! On the GPU path the terrain picks every chunk's level each frame from the camera that shows
//! it — the editor's 3D view in the editor, the viewport's current camera in a game.

use super::Terrain3D;
use crate::convert::class_enum::class_enum;
use godot::classes::camera_3d::{KeepAspect, ProjectionType};
use godot::classes::{Camera3D, EditorInterface};
use godot::prelude::*;
use ridgeline_core::mesh::patch::RenderPath as CorePath;
use ridgeline_core::mesh::patch::select::PatchView;

class_enum! {
    /// How a terrain is drawn ([member Terrain3D.render_path]).
    pub enum RenderPath for Terrain3D as "RenderPath" {
        /// GPU patches, unless the chunks cannot coarsen on them ([member
        /// Terrain3D.render_path]'s fallback: `chunk_cells` not a multiple of 4); then chunk
        /// meshes. [method Terrain3D.get_render_path_reason] says which and why.
        Auto = 0 as "RENDER_AUTO",
        /// GPU patches: one shared grid patch per level of detail, drawn instanced; the vertex
        /// shader reads heights and normals from textures updated by sub-rectangle on edits.
        Gpu = 1 as "RENDER_GPU",
        /// One mesh per chunk with index-only levels of detail (Godot's mesh LOD): the fallback.
        Mesh = 2 as "RENDER_MESH",
    }
}

impl RenderPath {
    /// The core's path.
    pub fn core(self) -> CorePath {
        match self {
            RenderPath::Auto => CorePath::Auto,
            RenderPath::Gpu => CorePath::Gpu,
            RenderPath::Mesh => CorePath::Mesh,
        }
    }
}

/// CPU time the terrain spent in its last frame, microseconds.
#[derive(Default, Clone, Copy)]
pub struct FrameCost {
    /// The last `_process` (generation polling, uploads, the GPU path's level selection).
    pub process: f64,
    /// The last near-bodies collision step (before a physics tick).
    pub physics: f64,
}

#[godot_api(secondary)]
impl Terrain3D {
    /// CPU time (microseconds) the terrain spent in its last `_process` (generation polling,
    /// paint and texture uploads, the GPU path's level choice) plus its last
    /// near-bodies collision step; 0 for a part that did not run. The
    /// `godot_frame_cpu_4km` benchmark reads it.
    #[func]
    pub fn get_frame_cost_usec(&self) -> f64 {
        self.frame_cost.process + self.frame_cost.physics
    }

    /// The path drawing the terrain: [constant RENDER_GPU] or [constant RENDER_MESH]
    /// ([constant RENDER_AUTO] decided by the map's size), or [constant RENDER_AUTO] before the
    /// first surface is shown. [method get_render_path_reason] says why.
    #[func]
    pub fn get_render_path_in_use(&self) -> RenderPath {
        if !self.chunks.is_built() {
            RenderPath::Auto
        } else if self.chunks.patches().is_some() {
            RenderPath::Gpu
        } else {
            RenderPath::Mesh
        }
    }

    /// Why [method get_render_path_in_use] is what it is (empty before the first surface is
    /// shown).
    #[func]
    pub fn get_render_path_reason(&self) -> GString {
        if !self.chunks.is_built() {
            return GString::new();
        }
        GString::from(self.render_path_reason)
    }

    /// Chunks of the shown surface (drawn by chunk meshes or GPU patches; 0 before the first
    /// surface is shown).
    #[func]
    pub fn get_chunk_count(&self) -> i32 {
        if self.chunks.is_built() {
            self.chunks.bodies().total() as i32
        } else {
            0
        }
    }

    /// GPU path state: `levels` (patch levels), `drawn` (chunks drawn by the last frame's
    /// selection), `per_level` (chunks drawn at each level, finest first), `uploads` (instance
    /// buffers uploaded so far), `texture_bytes` (the height texture on the GPU), `height_code`
    /// (`Vector2`: the height of unit 0 and metres per unit of 16-bit height texels; `(0, 0)` when
    /// the texels are 32-bit, for ground spanning kilometres) and
    /// `tile_uploads` (height texture tiles re-uploaded after edits). Empty on the mesh path.
    #[func]
    pub fn get_patch_info(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        if let Some(p) = self.chunks.patches() {
            d.set("levels", p.level_count() as i64);
            d.set("drawn", p.drawn as i64);
            d.set(
                "per_level",
                &PackedInt32Array::from_iter(p.drawn_per_level().iter().map(|&n| n as i32)),
            );
            d.set("uploads", p.uploads as i64);
            d.set("texture_bytes", p.texture_bytes() as i64);
            let [base, step] = p.height_code().shader_code();
            d.set("height_code", Vector2::new(base, step));
            d.set("tile_uploads", p.tile_uploads() as i64);
        }
        d
    }

    /// A check's switch on the GPU path: draws patch edges with or without their skirts and
    /// with or without stitching to coarser neighbours (both on by default and after every
    /// rebuild). The render checks turn one off to see that the other alone closes every seam.
    /// Does nothing on the mesh path.
    #[func]
    pub fn _set_patch_seams(&mut self, skirts: bool, stitch: bool) {
        let Some(prepared) = self.prepared().clone() else {
            return;
        };
        if let Some(p) = self.chunks.patches_mut() {
            p.set_seams(skirts, stitch, &prepared.field, &mut self.materials.surface);
        }
    }
}

impl Terrain3D {
    /// The camera the terrain is seen through: the editor's first 3D view in the editor, else
    /// the viewport's current camera.
    fn viewing_camera(&self) -> Option<Gd<Camera3D>> {
        if crate::editor_hint::in_editor()
            && let Some(vp) = EditorInterface::singleton().get_editor_viewport_3d()
            && let Some(cam) = vp.get_camera_3d()
        {
            return Some(cam);
        }
        self.base().get_viewport()?.get_camera_3d()
    }

    /// Once per frame on the GPU path: uploads edited texture tiles and picks every chunk's
    /// level for the viewing camera. Returns whether it uploaded texture tiles.
    pub(super) fn show_patches(&mut self) -> bool {
        if self.chunks.patches().is_none() {
            return false;
        }
        let Some(prepared) = self.prepared().clone() else {
            return false;
        };
        let mut uploaded = false;
        if let Some(p) = self.chunks.patches_mut()
            && p.is_dirty()
        {
            uploaded = p.flush(&prepared.field, &mut self.materials.surface) > 0;
        }
        let Some(camera) = self.viewing_camera() else {
            return uploaded;
        };
        let Some(view) = self.patch_view(&camera) else {
            return uploaded;
        };
        if let Some(p) = self.chunks.patches_mut() {
            p.show(&view);
        }
        uploaded
    }

    /// `camera` in terrain-local coordinates, with the lod_error_pixels allowance.
    ///
    /// The chunks' errors are terrain-local heights and the distances terrain-local lengths, so
    /// the node's scale enters the pixels per unit: a local height error is `scale.y` world
    /// units, and a local distance at least the smallest axis scale — a terrain stretched 3×
    /// in Y shows its errors 3× larger and gets finer levels, as the mesh path's meshes (whose
    /// levels Godot picks in world space) do. The camera's `fov` and `size` span the viewport's
    /// height, or its width with `keep_aspect` = `KEEP_WIDTH`.
    fn patch_view(&self, camera: &Gd<Camera3D>) -> Option<PatchView> {
        let to_world = self.base().get_global_transform();
        let det = to_world.basis.determinant();
        if !det.is_finite() || det.abs() < 1e-12 {
            return None;
        }
        let to_local = to_world.affine_inverse();
        let eye = to_local * camera.get_global_position();
        let size = camera.get_viewport()?.get_visible_rect().size;
        let span = if camera.get_keep_aspect_mode() == KeepAspect::WIDTH {
            size.x
        } else {
            size.y
        }
        .max(1.0);
        let scale = [
            to_world.basis.col_a().length(),
            to_world.basis.col_b().length(),
            to_world.basis.col_c().length(),
        ];
        let smallest = scale[0].min(scale[1]).min(scale[2]).max(1e-12);
        let orthographic = camera.get_projection() == ProjectionType::ORTHOGONAL;
        let pixels_per_unit = if orthographic {
            span / camera.get_size().max(1e-6) * scale[1]
        } else {
            let half = (camera.get_fov().to_radians() * 0.5).tan().max(1e-6);
            span / (2.0 * half) * scale[1] / smallest
        };
        Some(PatchView {
            eye: [eye.x, eye.y, eye.z],
            pixels_per_unit,
            orthographic,
            error_pixels: self.lod_error_pixels,
        })
    }
}
