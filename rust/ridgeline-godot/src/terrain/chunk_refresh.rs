//! Bringing chunk meshes and collision up to date after an edit, in time proportional to the
//! edit: a height edit writes only the changed vertex rows (plus skirts and walls) into each
//! touched chunk's server mesh and replaces its collision heights; the chunk's level errors
//! (Godot's LOD switch distances) are refreshed by a full chunk rebuild in a later frame
//! without edits, a few chunks per frame. Hole edits change triangles and rebuild the touched
//! chunks at once.

use super::Terrain3D;
use crate::render::chunk_upload;
use crate::render::chunks::mesh_arrays;
use godot::classes::rendering_server::PrimitiveType;
use godot::classes::{Engine, RenderingServer};
use godot::prelude::*;
use ridgeline_core::Heightfield;
use ridgeline_core::mesh::{self, vertex_update};
use ridgeline_core::pipeline::Change;

/// Chunks rebuilt per frame to refresh their level errors.
const LOD_REFRESHES_PER_FRAME: usize = 4;

#[godot_api(secondary)]
impl Terrain3D {
    /// For Ridgeline's own tests (not for games): how many chunks still wait for the rebuild
    /// that refreshes their level-of-detail distances after an in-place height edit (it runs
    /// in frames without edits, a few chunks per frame).
    #[func]
    pub fn _test_pending_lod_refreshes(&self) -> i64 {
        self.chunks.stale_lod_count() as i64
    }

    /// For Ridgeline's own tests (not for games): checks the in-place vertex updates against
    /// the server's own encoding. For every chunk, a copy of the surface moved by `offset` over
    /// the sample rows `row0..row1` is encoded by the server, the in-place writes of the
    /// current surface are applied to those bytes, and the result must equal the server's
    /// encoding of the current chunk. Returns the number of chunks that differ, or -1 when no
    /// chunk can be updated in place (nothing was checked).
    #[func]
    pub fn _test_vertex_upload_mismatches(&self, row0: i64, row1: i64, offset: f32) -> i64 {
        let Some(p) = self.prepared().clone() else {
            return -1;
        };
        let field = &p.field;
        let [w, h] = field.grid().samples();
        let (z0, z1) = (
            row0.clamp(0, h as i64) as usize,
            row1.clamp(0, h as i64) as usize,
        );
        if z0 >= z1 {
            return -1;
        }
        let mut moved: Heightfield = (**field).clone();
        let values: Vec<f32> = (z0..z1)
            .flat_map(|z| (0..w).map(move |x| (x, z)))
            .map(|(x, z)| field.sample(x, z) + offset)
            .collect();
        if moved.write_region(0, z0, w, z1, &values).is_err() {
            return -1;
        }
        let [nx, nz] = field.grid().chunks();
        let mut checked = 0;
        let mut mismatches = 0;
        for i in 0..(nx * nz) as usize {
            let Some(layout) = self.chunks.vertex_layout(i) else {
                continue;
            };
            let (cx, cz) = (i as u32 % nx, i as u32 / nx);
            let before = server_vertex_bytes(&mesh::build_chunk(&moved, cx, cz));
            let after = server_vertex_bytes(&mesh::build_chunk(field, cx, cz));
            let update = vertex_update::vertex_update(field, cx, cz, z0, z1);
            checked += 1;
            if chunk_upload::apply_writes(&before, &layout.writes(&update)) != after.to_vec() {
                mismatches += 1;
            }
        }
        if checked == 0 { -1 } else { mismatches }
    }
}

/// The vertex stream the server encodes for `m` (through a temporary mesh).
fn server_vertex_bytes(m: &mesh::ChunkMesh) -> PackedByteArray {
    let mut rs = RenderingServer::singleton();
    let tmp = rs.mesh_create();
    rs.mesh_add_surface_from_arrays(tmp, PrimitiveType::TRIANGLES, &mesh_arrays(m));
    let bytes = rs
        .mesh_get_surface(tmp, 0)
        .get("vertex_data")
        .and_then(|v| v.try_to::<PackedByteArray>().ok())
        .unwrap_or_default();
    rs.free_rid(tmp);
    bytes
}

impl Terrain3D {
    /// Updates the meshes and collision of the chunks `change` touched on `field` (the surface
    /// after the edit; `range_before` is its height range before).
    pub(super) fn update_chunks_after_edit(
        &mut self,
        field: &Heightfield,
        change: &Change,
        range_before: [f32; 2],
    ) {
        let [nx, _] = field.grid().chunks();
        if self.chunks.patches().is_some() {
            // GPU path: the textures follow by tile, the levels are re-measured (at the next
            // frame); collision as on the mesh path. The height texture holds each sample's
            // height and the hole flag of the cell starting there, so only height and hole
            // changes reach it, the levels and collision: painting biome regions, exclusion or
            // surface roles changes none of them (the paint textures follow on their own).
            let shape = change.shape_samples();
            if change.chunks.is_empty() || shape.is_empty() {
                return;
            }
            let cols = mesh::par_map(&change.chunks, |&[cx, cz]| {
                (
                    (cz * nx + cx) as usize,
                    mesh::chunk_collision(field, cx, cz),
                )
            });
            for (i, col) in &cols {
                self.chunks.bodies_mut().update(*i, col);
            }
            if let Some(p) = self.chunks.patches_mut() {
                p.edited(field, shape);
            }
            self.chunk_updates += cols.len() as u64;
            self.want_process();
            return;
        }
        let index = |[cx, cz]: [u32; 2]| (cz * nx + cx) as usize;
        let mut rebuild: Vec<[u32; 2]> = Vec::new();
        if !change.holes.is_empty() {
            // Holes change triangles: rebuild the touched chunks.
            rebuild.extend_from_slice(&change.chunks);
        } else if !change.heights.is_empty() {
            let (z0, z1) = (change.heights.z0, change.heights.z1);
            let jobs: Vec<_> = change
                .chunks
                .iter()
                .map(|&c| (c, self.chunks.vertex_layout(index(c))))
                .collect();
            // Core work and byte encoding in parallel; the server writes follow on this thread.
            let updates = mesh::par_map(&jobs, |&([cx, cz], layout)| {
                let u = vertex_update::vertex_update(field, cx, cz, z0, z1);
                let bytes = layout.map(|l| l.encode(&u));
                ([cx, cz], u, bytes, mesh::chunk_collision(field, cx, cz))
            });
            for (c, u, bytes, col) in &updates {
                if !self
                    .chunks
                    .update_chunk_vertices(index(*c), u, bytes.as_deref(), Some(col))
                {
                    rebuild.push(*c);
                }
            }
            self.chunk_updates += updates.len() as u64;
        }
        if !rebuild.is_empty() {
            let built = mesh::par_map(&rebuild, |&[cx, cz]| {
                (
                    index([cx, cz]),
                    mesh::build_chunk(field, cx, cz),
                    mesh::chunk_collision(field, cx, cz),
                )
            });
            for (i, m, col) in &built {
                self.chunks.update_chunk(*i, m, col);
            }
            self.chunk_updates += built.len() as u64;
        }
        // The border walls hang to below the terrain's lowest point: when an edit moved the
        // height range, every wall chunk follows (walls only, collision unchanged).
        if field.height_range() != range_before {
            for c in vertex_update::wall_chunks(field.grid()) {
                if change.chunks.contains(&c) {
                    continue;
                }
                let u = vertex_update::vertex_update(field, c[0], c[1], 0, 0);
                if !self.chunks.update_chunk_vertices(index(c), &u, None, None) {
                    let m = mesh::build_chunk(field, c[0], c[1]);
                    self.chunks.update_chunk(
                        index(c),
                        &m,
                        &mesh::chunk_collision(field, c[0], c[1]),
                    );
                }
            }
        }
        self.last_vertex_edit_frame = Engine::singleton().get_process_frames();
        if self.chunks.stale_lod_count() > 0 {
            self.want_process();
        }
    }

    /// Rebuilds a few chunks whose level errors are stale, once a frame has passed without
    /// edits (called every processed frame, after the generation poll; keeps the node
    /// processing while chunks wait).
    pub(super) fn refresh_stale_lods(&mut self) {
        if self.chunks.stale_lod_count() == 0 {
            return;
        }
        if Engine::singleton().get_process_frames() <= self.last_vertex_edit_frame {
            return;
        }
        let Some(p) = self.prepared().clone() else {
            return;
        };
        let field = &p.field;
        let [nx, _] = field.grid().chunks();
        let stale = self.chunks.take_stale_lods(LOD_REFRESHES_PER_FRAME);
        let built = mesh::par_map(&stale, |&i| {
            let (cx, cz) = (i as u32 % nx, i as u32 / nx);
            (
                i,
                mesh::build_chunk(field, cx, cz),
                mesh::chunk_collision(field, cx, cz),
            )
        });
        for (i, m, col) in &built {
            self.chunks.update_chunk(*i, m, col);
        }
    }
}
