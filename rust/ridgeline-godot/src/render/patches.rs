//! The GPU terrain path's server side: the height texture (a tiled texture array updated by
//! sub-rectangle, [`PaintTexture`]; the hole flags ride in it and the shader derives normals
//! from it), one shared grid-patch mesh per level, and one
//! MultiMesh per level whose instances are the chunks drawn at that level this frame (chosen
//! by the core's [`select_patches`]). The surface material draws them with its patch shader
//! variant ([`super::patch_shader`]). A one-texel-per-chunk level texture tells the shader
//! each chunk's level this frame, so edges to coarser neighbours are stitched (the core's
//! `select::stitch_along_edge`). Collision and queries never read any of this.

use super::chunks::Placement;
use super::paint_texture::{PaintTexture, Texel};
use super::surface_material::SurfaceMaterial;
use godot::classes::image::Format;
use godot::classes::rendering_server::{ArrayType, MultimeshTransformFormat, PrimitiveType};
use godot::classes::{Image, RenderingServer};
use godot::obj::EngineEnum;
use godot::prelude::*;
use ridgeline_core::Heightfield;
use ridgeline_core::edit::Rect;
use ridgeline_core::grid::Grid;
use ridgeline_core::mesh::patch::grid::{patch_grid, patch_steps};
use ridgeline_core::mesh::patch::levels::{PatchLevels, all_patch_levels, patch_levels};
use ridgeline_core::mesh::patch::select::{NOT_DRAWN, PatchSelection, PatchView, select_patches};
use ridgeline_core::mesh::patch::texels::{HeightTexels, height_texels};

/// Floats per MultiMesh instance: a 3×4 transform and the custom data.
const INSTANCE_FLOATS: usize = 16;

/// One level's shared mesh, its MultiMesh and the instance drawing it.
struct Level {
    mesh: Rid,
    multimesh: Rid,
    instance: Rid,
    step: u32,
    /// Instances allocated in the MultiMesh.
    allocated: usize,
}

/// GPU patches of one terrain.
pub struct GpuPatches {
    grid: Grid,
    heights: PaintTexture,
    /// How the texture encodes heights (re-chosen when edits leave its range).
    code: HeightTexels,
    chunks: Vec<PatchLevels>,
    levels: Vec<Level>,
    selection: PatchSelection,
    shown: PatchSelection,
    buffer: Vec<f32>,
    wall_bottom: f32,
    /// Chunks whose levels wait for a re-measure (edited since the last flush).
    stale: Vec<bool>,
    any_stale: bool,
    /// Level buffers uploaded, and selections that changed something (checks and benches).
    pub uploads: u64,
    /// Chunks drawn by the last selection.
    pub drawn: usize,
    /// One R8 texel per chunk: its level this frame ([`NOT_DRAWN`] before the first selection).
    level_texture: Option<Rid>,
    /// Skirts under the patch edges and stitched edges (both on; checks turn one off to see
    /// the other alone).
    skirts: bool,
    stitch: bool,
}

impl GpuPatches {
    /// Textures, shared meshes and (empty) MultiMeshes for `field`, drawn with `material`
    /// (switched to its patch shaders).
    pub fn build(field: &Heightfield, place: &Placement, material: &mut SurfaceMaterial) -> Self {
        let grid = *field.grid();
        let code = HeightTexels::for_field(field);
        let heights = height_texture(field, &code);
        let chunks = all_patch_levels(field);
        material.set_patches(true);
        let material_rid = material.rid();
        let mut out = GpuPatches {
            grid,
            heights,
            code,
            chunks,
            levels: Vec::new(),
            selection: PatchSelection::default(),
            shown: PatchSelection::default(),
            buffer: Vec::new(),
            wall_bottom: 0.0,
            stale: Vec::new(),
            any_stale: false,
            uploads: 0,
            drawn: 0,
            level_texture: None,
            skirts: true,
            stitch: true,
        };
        let [nx, nz] = grid.chunks();
        out.level_texture = level_image(&vec![NOT_DRAWN; (nx * nz) as usize], [nx, nz])
            .map(|img| RenderingServer::singleton().texture_2d_create(&img));
        out.set_params(field, material);
        let aabb = out.local_aabb(field);
        let mut rs = RenderingServer::singleton();
        for step in patch_steps(grid.chunk_cells()) {
            let mesh = patch_mesh(grid.chunk_cells() / step, material_rid);
            rs.mesh_set_custom_aabb(mesh, aabb);
            let multimesh = rs.multimesh_create();
            rs.multimesh_set_mesh(multimesh, mesh);
            allocate(multimesh, 0);
            rs.multimesh_set_custom_aabb(multimesh, aabb);
            let instance = rs.instance_create2(multimesh, place.scenario);
            rs.instance_set_transform(instance, place.transform);
            rs.instance_set_visible(instance, place.visible);
            out.levels.push(Level {
                mesh,
                multimesh,
                instance,
                step,
                allocated: 0,
            });
        }
        out
    }

    /// The texture layouts, height code, grid and wall bottom on the material. When the
    /// surface's heights left the code's range (edits), a new code is chosen and every tile is
    /// marked for re-encoding.
    fn set_params(&mut self, field: &Heightfield, material: &mut SurfaceMaterial) {
        let [lo, hi] = field.height_range();
        if !self.code.covers(lo, hi) {
            let code = HeightTexels::for_field(field);
            if code.bytes() == self.code.bytes() {
                self.heights.mark_all();
            } else {
                // 16-bit texels became too coarse for the ground: a 32-bit texture replaces
                // them (the old one is freed as it drops), every tile uploaded anew.
                let uploads = self.heights.tile_uploads;
                self.heights = height_texture(field, &code);
                self.heights.tile_uploads = uploads + self.heights.tile_count() as u64;
            }
            self.code = code;
        }
        let [base, step] = self.code.shader_code();
        material.set(
            "ridgeline_height_code",
            Vector2::new(base, step).to_variant(),
        );
        let [dx, dz] = self.grid.spacing();
        self.wall_bottom = ridgeline_core::mesh::wall_base(field);
        if let Some(hr) = self.heights.rid() {
            material.set("ridgeline_heights", hr.to_variant());
        }
        material.set(
            "ridgeline_layout",
            self.heights.shader_layout().to_variant(),
        );
        material.set(
            "ridgeline_grid",
            Vector3::new(dx, dz, self.wall_bottom).to_variant(),
        );
        if let Some(rid) = self.level_texture {
            material.set("ridgeline_levels", rid.to_variant());
        }
        material.set(
            "ridgeline_chunk_cells",
            (self.grid.chunk_cells() as i32).to_variant(),
        );
        let stitch = self.stitch && self.level_texture.is_some();
        material.set("ridgeline_stitch", stitch.to_variant());
    }

    /// Turns the skirts under patch edges and the stitching of edges between levels on or off
    /// (both on by default; the render checks draw each alone to see it work).
    pub fn set_seams(
        &mut self,
        skirts: bool,
        stitch: bool,
        field: &Heightfield,
        material: &mut SurfaceMaterial,
    ) {
        self.skirts = skirts;
        self.stitch = stitch;
        self.set_params(field, material);
        self.shown = PatchSelection::default();
    }

    /// The terrain's local bounds, skirts and walls included (every level's culling box: each
    /// level's instances are culled by the renderer as one, per view and shadow pass).
    fn local_aabb(&self, field: &Heightfield) -> Aabb {
        let [lo, hi] = field.height_range();
        let skirt = self.chunks.iter().map(|c| c.skirt).fold(0.0f32, f32::max);
        let bottom = self.wall_bottom.min(lo - skirt);
        let [sx, sz] = self.grid.size();
        Aabb::new(
            Vector3::new(0.0, bottom, 0.0),
            Vector3::new(sx, (hi - bottom).max(1e-3), sz),
        )
    }

    /// Picks the chunks and levels for `view` and uploads the levels whose instances changed.
    pub fn show(&mut self, view: &PatchView) {
        select_patches(&self.grid, &self.chunks, view, &mut self.selection);
        self.drawn = self.selection.drawn();
        let [nx, _] = self.grid.chunks();
        let mut rs = RenderingServer::singleton();
        // Equal lists at every level mean equal chunk levels: the level texture follows the
        // lists that changed.
        let mut changed = false;
        for (k, level) in self.levels.iter_mut().enumerate() {
            let list = self
                .selection
                .levels
                .get(k)
                .map_or(&[][..], |l| l.as_slice());
            if self.shown.levels.get(k).map(|l| l.as_slice()) == Some(list) {
                continue;
            }
            changed = true;
            if level.allocated != list.len() {
                allocate(level.multimesh, list.len());
                level.allocated = list.len();
            }
            if !list.is_empty() {
                self.buffer.clear();
                for &i in list {
                    let (cx, cz) = (i % nx, i / nx);
                    let skirt = if self.skirts {
                        self.chunks[i as usize].skirt
                    } else {
                        0.0
                    };
                    self.buffer.extend_from_slice(&[
                        1.0,
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        1.0,
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        1.0,
                        0.0,
                        // Chunk indices (whole in the 16-bit floats the Compatibility
                        // renderer keeps custom data in; the shader multiplies by chunk_cells).
                        cx as f32,
                        cz as f32,
                        level.step as f32,
                        skirt,
                    ]);
                }
                debug_assert_eq!(self.buffer.len(), list.len() * INSTANCE_FLOATS);
                rs.multimesh_set_buffer(
                    level.multimesh,
                    &PackedFloat32Array::from(self.buffer.as_slice()),
                );
            }
            self.uploads += 1;
        }
        if changed
            && let Some(rid) = self.level_texture
            && let Some(img) = level_image(&self.selection.chunk_levels, self.grid.chunks())
        {
            rs.texture_2d_update(rid, &img, 0);
        }
        std::mem::swap(&mut self.shown, &mut self.selection);
    }

    /// After an edit of the samples in `rect` (heights or holes): marks the texture tiles (the
    /// shader derives normals from the neighbouring texels, so nothing wider) and the chunks whose levels
    /// must be re-measured. Both happen at the next [`Self::flush`] (once per frame, however
    /// many edits came).
    pub fn edited(&mut self, field: &Heightfield, rect: Rect) {
        if rect.is_empty() || *field.grid() != self.grid {
            return;
        }
        self.heights.mark(rect);
        let c = self.grid.chunk_cells() as usize;
        let [nx, nz] = self.grid.chunks();
        // A sample on a chunk edge belongs to both chunks.
        let cx0 = rect.x0.saturating_sub(1) / c;
        let cz0 = rect.z0.saturating_sub(1) / c;
        let cx1 = (rect.x1 / c + 1).min(nx as usize);
        let cz1 = (rect.z1 / c + 1).min(nz as usize);
        if self.stale.len() != self.chunks.len() {
            self.stale = vec![false; self.chunks.len()];
        }
        for cz in cz0..cz1 {
            for cx in cx0..cx1 {
                self.stale[cz * nx as usize + cx] = true;
                self.any_stale = true;
            }
        }
    }

    /// Once per frame: re-measures the levels of the chunks edits touched (then the material's
    /// wall bottom and the levels' culling box follow, and every level uploads at the next selection:
    /// skirt depths may have changed), and uploads the texture tiles edits dirtied. Returns the
    /// tiles uploaded.
    pub fn flush(&mut self, field: &Heightfield, material: &mut SurfaceMaterial) -> usize {
        if *field.grid() != self.grid {
            return 0;
        }
        if self.any_stale {
            self.any_stale = false;
            let [nx, _] = self.grid.chunks();
            let touched: Vec<usize> = (0..self.stale.len())
                .filter(|&i| std::mem::take(&mut self.stale[i]))
                .collect();
            let remeasured = ridgeline_core::mesh::par_map(&touched, |&i| {
                (
                    i,
                    patch_levels(field, (i % nx as usize) as u32, (i / nx as usize) as u32),
                )
            });
            for (i, l) in remeasured {
                self.chunks[i] = l;
            }
            self.set_params(field, material);
            let aabb = self.local_aabb(field);
            let mut rs = RenderingServer::singleton();
            for level in &self.levels {
                rs.mesh_set_custom_aabb(level.mesh, aabb);
                rs.multimesh_set_custom_aabb(level.multimesh, aabb);
            }
            self.shown = PatchSelection::default();
        }
        let code = self.code;
        self.heights
            .flush_with(&|r, out, stride| height_texels(field, &code, r, out, stride))
    }

    /// True when texture tiles or chunk levels wait for a flush.
    pub fn is_dirty(&self) -> bool {
        self.any_stale || self.heights.is_dirty()
    }

    /// Moves the patches with the node.
    pub fn set_transform(&self, transform: Transform3D) {
        let mut rs = RenderingServer::singleton();
        for l in &self.levels {
            rs.instance_set_transform(l.instance, transform);
        }
    }

    /// Shows or hides the patches.
    pub fn set_visible(&self, visible: bool) {
        let mut rs = RenderingServer::singleton();
        for l in &self.levels {
            rs.instance_set_visible(l.instance, visible);
        }
    }

    /// Number of patch levels.
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// Chunks per level in the last selection.
    pub fn drawn_per_level(&self) -> Vec<usize> {
        self.shown.levels.iter().map(Vec::len).collect()
    }

    /// How the texture encodes heights.
    pub fn height_code(&self) -> HeightTexels {
        self.code
    }

    /// Height texture tiles uploaded after the texture was made (edits; every tile when a new
    /// height code re-encodes it).
    pub fn tile_uploads(&self) -> u64 {
        self.heights.tile_uploads
    }

    /// Bytes of the height texture on the GPU (2 or 4 per sample, tiles padded).
    pub fn texture_bytes(&self) -> usize {
        self.heights.gpu_bytes()
    }

    /// Bytes held on the heap (the chunks' level errors and the instance buffer).
    pub fn heap_bytes(&self) -> usize {
        self.chunks
            .iter()
            .map(|c| c.errors.len() * 4 + 12)
            .sum::<usize>()
            + self.buffer.capacity() * 4
    }
}

/// The height texture of `field` encoded as `code` says.
fn height_texture(field: &Heightfield, code: &HeightTexels) -> PaintTexture {
    let [w, h] = field.grid().samples();
    let mut heights = PaintTexture::new(if code.bytes() == 2 {
        Texel::Rg8
    } else {
        Texel::Rgba8
    });
    heights.ensure_with([w, h], &|r, out, stride| {
        height_texels(field, code, r, out, stride)
    });
    heights
}

impl Drop for GpuPatches {
    fn drop(&mut self) {
        let mut rs = RenderingServer::singleton();
        for l in self.levels.drain(..) {
            rs.free_rid(l.instance);
            rs.free_rid(l.multimesh);
            rs.free_rid(l.mesh);
        }
        if let Some(rid) = self.level_texture.take() {
            rs.free_rid(rid);
        }
    }
}

/// The level texture's image: one R8 texel per chunk (`chunks` = chunks along X and Z).
fn level_image(levels: &[u8], chunks: [u32; 2]) -> Option<Gd<Image>> {
    let [nx, nz] = chunks;
    if levels.len() != (nx * nz) as usize || nx == 0 || nz == 0 {
        return None;
    }
    Image::create_from_data(
        nx as i32,
        nz as i32,
        false,
        Format::R8,
        &PackedByteArray::from(levels),
    )
}

/// (Re)allocates `multimesh` for `n` instances: 3D transforms with custom data.
fn allocate(multimesh: Rid, n: usize) {
    RenderingServer::singleton()
        .multimesh_allocate_data_ex(multimesh, n as i32, MultimeshTransformFormat::TRANSFORM_3D)
        .color_format(false)
        .custom_data_format(true)
        .done();
}

/// The shared patch mesh of `quads × quads` quads, drawn with `material`.
fn patch_mesh(quads: u32, material: Rid) -> Rid {
    let p = patch_grid(quads);
    let mut arrays = VarArray::new();
    arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
    let verts =
        PackedVector3Array::from_iter(p.vertices.iter().map(|v| Vector3::new(v[0], v[1], v[2])));
    // The shader derives the surface normal and writes every UV; a wall (a skirt on the
    // terrain's border) keeps its edge's outward normal from here.
    let normals =
        PackedVector3Array::from_iter(p.normals.iter().map(|n| Vector3::new(n[0], n[1], n[2])));
    let uvs = PackedVector2Array::from_iter(p.vertices.iter().map(|_| Vector2::ZERO));
    let indices = PackedInt32Array::from_iter(p.indices.iter().map(|&i| i as i32));
    arrays.set(ArrayType::VERTEX.ord() as usize, &verts.to_variant());
    arrays.set(ArrayType::NORMAL.ord() as usize, &normals.to_variant());
    arrays.set(ArrayType::TEX_UV.ord() as usize, &uvs.to_variant());
    arrays.set(ArrayType::INDEX.ord() as usize, &indices.to_variant());
    let mut rs = RenderingServer::singleton();
    let mesh = rs.mesh_create();
    rs.mesh_add_surface_from_arrays(mesh, PrimitiveType::TRIANGLES, &arrays);
    rs.mesh_surface_set_material(mesh, 0, material);
    mesh
}
