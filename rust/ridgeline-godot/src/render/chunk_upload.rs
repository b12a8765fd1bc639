//! Writing a chunk's changed vertices into its server mesh in place
//! (`RenderingServer.mesh_surface_update_vertex_region`), in the byte layout the mesh was
//! created with: Godot keeps a surface's positions (3 × f32 each) for every vertex, followed by
//! its normals (octahedral, 2 × u16 each), each followed by the tangent Godot derives from the
//! normal when the arrays have none (octahedral with sign, 2 × u16). UVs live in the attribute
//! stream and never change.

use godot::classes::RenderingServer;
use godot::classes::rendering_server::{ArrayFormat, ArrayType};
use godot::obj::{EngineBitfield, EngineEnum};
use godot::prelude::*;
use ridgeline_core::mesh::vertex_update::ChunkVertexUpdate;

/// Byte offsets of one surface's vertex stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexLayout {
    /// Bytes per position.
    pub position_stride: usize,
    /// Where the normals start.
    pub normal_offset: usize,
    /// Bytes per normal (4, or 8 with the derived tangent after it).
    pub normal_stride: usize,
}

impl VertexLayout {
    /// The layout of a surface of `format` with `vertex_count` vertices, when in-place updates
    /// can write it: uncompressed f32 positions and 4-byte normals, with or without the 4-byte
    /// tangent Godot derives from them. `None` otherwise (the caller recreates the mesh).
    pub fn of(format: ArrayFormat, vertex_count: usize) -> Option<Self> {
        let bits = format.ord();
        let unsupported = ArrayFormat::FLAG_COMPRESS_ATTRIBUTES.ord()
            | ArrayFormat::FLAG_USE_2D_VERTICES.ord()
            | ArrayFormat::BONES.ord();
        let needed = ArrayFormat::VERTEX.ord() | ArrayFormat::NORMAL.ord();
        if bits & unsupported != 0 || bits & needed != needed {
            return None;
        }
        let rs = RenderingServer::singleton();
        let n = i32::try_from(vertex_count).ok()?;
        let layout = VertexLayout {
            position_stride: rs.mesh_surface_get_format_vertex_stride(format, n) as usize,
            normal_offset: rs.mesh_surface_get_format_offset(format, n, ArrayType::NORMAL.ord())
                as usize,
            normal_stride: rs.mesh_surface_get_format_normal_tangent_stride(format, n) as usize,
        };
        let tangent = bits & ArrayFormat::TANGENT.ord() != 0;
        (layout.position_stride == 12
            && layout.normal_stride == if tangent { 8 } else { 4 }
            && layout.normal_offset == 12 * vertex_count)
            .then_some(layout)
    }

    /// The vertex-region writes (byte offset, bytes) that bring a surface in this layout up to
    /// date with `u`: positions and normals of the changed rows and of the tail.
    pub fn writes(&self, u: &ChunkVertexUpdate) -> Vec<(usize, PackedByteArray)> {
        self.encode(u)
            .into_iter()
            .map(|(o, b)| (o, PackedByteArray::from(b.as_slice())))
            .collect()
    }

    /// [`Self::writes`] as plain bytes (no engine type: safe on any thread).
    pub fn encode(&self, u: &ChunkVertexUpdate) -> Vec<(usize, Vec<u8>)> {
        let mut out = Vec::with_capacity(4);
        for (first, positions, normals) in [
            (u.rows_first, &u.rows_positions, &u.rows_normals),
            (u.tail_first, &u.tail_positions, &u.tail_normals),
        ] {
            if positions.is_empty() {
                continue;
            }
            let first = first as usize;
            out.push((first * self.position_stride, encode_positions(positions)));
            out.push((
                self.normal_offset + first * self.normal_stride,
                encode_normals(normals, self.normal_stride == 8),
            ));
        }
        out
    }
}

/// Positions as Godot stores them: three little-endian f32 each.
fn encode_positions(p: &[[f32; 3]]) -> Vec<u8> {
    let mut bytes = vec![0u8; p.len() * 12];
    for (v, out) in p.iter().zip(bytes.chunks_exact_mut(12)) {
        out[0..4].copy_from_slice(&v[0].to_le_bytes());
        out[4..8].copy_from_slice(&v[1].to_le_bytes());
        out[8..12].copy_from_slice(&v[2].to_le_bytes());
    }
    bytes
}

/// Normals as Godot stores them: `Vector3.octahedron_encode` scaled to two little-endian u16,
/// each followed by its derived tangent when `tangents`.
fn encode_normals(n: &[[f32; 3]], tangents: bool) -> Vec<u8> {
    let stride = if tangents { 8 } else { 4 };
    let mut bytes = vec![0u8; n.len() * stride];
    for (&v, out) in n.iter().zip(bytes.chunks_exact_mut(stride)) {
        let [x, y] = octahedron_encode(v);
        out[0..2].copy_from_slice(&unorm16(x).to_le_bytes());
        out[2..4].copy_from_slice(&unorm16(y).to_le_bytes());
        if tangents {
            let [x, y] = tangent_encode(derived_tangent(v));
            let (mut tx, ty) = (unorm16(x), unorm16(y));
            // Godot: (0, 1) and (1, 1) decode alike; it stores (1, 1).
            if tx == 0 && ty == 65535 {
                tx = 65535;
            }
            out[4..6].copy_from_slice(&tx.to_le_bytes());
            out[6..8].copy_from_slice(&ty.to_le_bytes());
        }
    }
    bytes
}

/// Godot: `(uint16_t)CLAMP(c * 65535, 0, 65535)`.
fn unorm16(c: f32) -> u16 {
    (c * 65535.0).clamp(0.0, 65535.0) as u16
}

/// Godot's `Vector3::normalized` (zero stays zero).
fn normalized([x, y, z]: [f32; 3]) -> [f32; 3] {
    let l = (x * x + y * y + z * z).sqrt();
    if l == 0.0 {
        [0.0; 3]
    } else {
        [x / l, y / l, z / l]
    }
}

/// The tangent Godot gives a vertex whose arrays have none:
/// `Vector3(n.z, -n.x, n.y).cross(n.normalized()).normalized()`.
fn derived_tangent([x, y, z]: [f32; 3]) -> [f32; 3] {
    let a = [z, -x, y];
    let b = normalized([x, y, z]);
    normalized([
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ])
}

/// Godot's `Vector3::octahedron_tangent_encode(1.0)`.
fn tangent_encode(t: [f32; 3]) -> [f32; 2] {
    let [x, y] = octahedron_encode(t);
    let y = y.max(1.0 / 32767.0);
    [x, y * 0.5 + 0.5]
}

/// Godot's `Vector3::octahedron_encode` (single precision, the same operations in the same
/// order).
fn octahedron_encode([x, y, z]: [f32; 3]) -> [f32; 2] {
    let s = x.abs() + y.abs() + z.abs();
    let (nx, ny, nz) = (x / s, y / s, z / s);
    let (ox, oy) = if nz >= 0.0 {
        (nx, ny)
    } else {
        (
            (1.0 - ny.abs()) * if nx >= 0.0 { 1.0 } else { -1.0 },
            (1.0 - nx.abs()) * if ny >= 0.0 { 1.0 } else { -1.0 },
        )
    };
    [ox * 0.5 + 0.5, oy * 0.5 + 0.5]
}

/// Applies `writes` to a copy of `bytes` (what the server does with them), for checks.
pub fn apply_writes(bytes: &PackedByteArray, writes: &[(usize, PackedByteArray)]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for (offset, data) in writes {
        let d = data.as_slice();
        if let Some(dst) = out.get_mut(*offset..*offset + d.len()) {
            dst.copy_from_slice(d);
        }
    }
    out
}
