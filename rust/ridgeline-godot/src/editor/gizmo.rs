//! `TerrainGizmoPlugin`: gives every Terrain3D in the edited scene a gizmo with collision
//! triangles (a coarse copy of the surface), so a click on the terrain in the 3D viewport selects
//! it, and an outline of its bounds. Editor-level class: not registered in games.

use crate::terrain::Terrain3D;
use godot::classes::{
    EditorNode3DGizmo, EditorNode3DGizmoPlugin, IEditorNode3DGizmoPlugin, Node3D, TriangleMesh,
};
use godot::prelude::*;

/// Cells per side of the coarse picking mesh.
const PICK_CELLS: usize = 32;

/// Click-selection and outline gizmo for [Terrain3D] in the 3D editor.
///
/// [RidgelineEditorPlugin] registers it; there is nothing to set up. Each Terrain3D gets a gizmo
/// whose collision triangles are a coarse (32×32 cells) copy of its surface, so a click on the
/// terrain in the viewport selects it, and whose lines outline the terrain's edge. The gizmo is
/// redrawn after every generation and edit. Editor only: not registered in exported games.
#[derive(GodotClass)]
#[class(tool, init, base = EditorNode3DGizmoPlugin)]
pub struct TerrainGizmoPlugin {
    material_ready: bool,
    base: Base<EditorNode3DGizmoPlugin>,
}

#[godot_api]
impl IEditorNode3DGizmoPlugin for TerrainGizmoPlugin {
    fn has_gizmo(&self, node: Option<Gd<Node3D>>) -> bool {
        node.is_some_and(|n| n.try_cast::<Terrain3D>().is_ok())
    }

    fn get_gizmo_name(&self) -> GString {
        "Terrain3D".into()
    }

    fn redraw(&mut self, gizmo: Option<Gd<EditorNode3DGizmo>>) {
        let Some(mut gizmo) = gizmo else {
            return;
        };
        gizmo.clear();
        let Some(node) = gizmo.get_node_3d() else {
            return;
        };
        let Ok(terrain) = node.try_cast::<Terrain3D>() else {
            return;
        };
        self.watch(&terrain);
        let size = terrain.bind().get_size();
        if size == Vector2::ZERO {
            return;
        }
        let xf = terrain.get_global_transform();
        let inv = xf.affine_inverse();
        let n = PICK_CELLS;
        let mut world = Vec::with_capacity((n + 1) * (n + 1));
        for j in 0..=n {
            for i in 0..=n {
                let l = Vector3::new(
                    size.x * i as f32 / n as f32,
                    0.0,
                    size.y * j as f32 / n as f32,
                );
                world.push(xf * l);
            }
        }
        let hs = terrain
            .bind()
            .get_heights(PackedVector3Array::from(world.as_slice()));
        let local: Vec<Vector3> = world
            .iter()
            .zip(hs.as_slice())
            .map(|(w, h)| {
                let h = if h.is_finite() { *h } else { w.y };
                inv * Vector3::new(w.x, h, w.z)
            })
            .collect();
        let at = |i: usize, j: usize| local[j * (n + 1) + i];
        let mut faces = Vec::with_capacity(n * n * 6);
        for j in 0..n {
            for i in 0..n {
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
                faces.extend_from_slice(&[a, b, c, b, d, c]);
            }
        }
        let mut mesh = TriangleMesh::new_gd();
        if mesh.create_from_faces(&PackedVector3Array::from(faces.as_slice())) {
            gizmo.add_collision_triangles(&mesh);
        }
        // Outline: the terrain's edge, on the surface.
        let mut lines = Vec::new();
        for k in 0..n {
            for (p, q) in [
                (at(k, 0), at(k + 1, 0)),
                (at(k, n), at(k + 1, n)),
                (at(0, k), at(0, k + 1)),
                (at(n, k), at(n, k + 1)),
            ] {
                lines.push(p);
                lines.push(q);
            }
        }
        if !self.material_ready {
            self.base_mut()
                .create_material("ridgeline_outline", Color::from_rgba(1.0, 0.8, 0.3, 0.8));
            self.material_ready = true;
        }
        let material = self
            .base()
            .get_material_ex("ridgeline_outline")
            .gizmo(&gizmo)
            .done();
        gizmo.add_lines(
            &PackedVector3Array::from(lines.as_slice()),
            material.as_ref(),
        );
    }
}

impl TerrainGizmoPlugin {
    /// Redraws the terrain's gizmo whenever its surface changes (generation, strokes, undo).
    fn watch(&self, terrain: &Gd<Terrain3D>) {
        let mut t = terrain.clone().upcast::<Object>();
        let call = Callable::from_object_method(terrain, "update_gizmos");
        for signal in ["generation_finished", "surface_changed"] {
            let c = if signal == "generation_finished" {
                call.unbind(2)
            } else {
                call.unbind(1)
            };
            if !t.is_connected(signal, &c) {
                t.connect(signal, &c);
            }
        }
    }
}
