//! The **Convert** tool: a click turns the scatter placement nearest to it into an owned scene
//! object (the rule's scene instanced, or a `MeshInstance3D` for a mesh rule) at the
//! placement's transform, as a child of the terrain, and records the placement's stable key in
//! [`Terrain3D`]'s `scatter_exclusions` so the scatter no longer draws it. Both in one
//! `EditorUndoRedoManager` step. The pick itself ([`nearest`]) is pure.

use super::live_stroke::Cursor;
use super::plugin::RidgelineEditorPlugin;
use crate::scatter::chunk_build::placement_transform;
use crate::scatter::rule_geometry::resource_path;
use crate::terrain::Terrain3D;
use godot::classes::packed_scene::GenEditState;
use godot::classes::{EditorInterface, Mesh, MeshInstance3D, Node, PackedScene, ResourceLoader};
use godot::prelude::*;
use ridgeline_core::scatter::Placement;
use ridgeline_core::scatter::palette::Geometry;

/// The index of the placement nearest to terrain-local `at` (X, Z) within `radius`, skipping
/// those `skip` refuses (excluded keys); ties go to the lower index.
pub fn nearest(
    placements: &[Placement],
    at: [f64; 2],
    radius: f64,
    mut skip: impl FnMut(&Placement) -> bool,
) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64)> = None;
    for (i, p) in placements.iter().enumerate() {
        let d = (f64::from(p.position[0]) - at[0]).hypot(f64::from(p.position[2]) - at[1]);
        if d > radius || best.is_some_and(|(_, b)| d >= b) || skip(p) {
            continue;
        }
        best = Some((i, d));
    }
    best
}

/// What a click would convert: the placement, its key, its rule id and the distance.
pub struct Pick {
    placement: Placement,
    key: String,
    rule: String,
    geometry: Option<Geometry>,
    distance: f64,
}

impl RidgelineEditorPlugin {
    /// The placement a click at the cursor would convert, or why there is none.
    pub(super) fn pick_placement(
        &self,
        terrain: &Gd<Terrain3D>,
        c: Cursor,
    ) -> Result<Pick, String> {
        let t = terrain.bind();
        let Some(view) = t.scatter_view() else {
            return Err("The terrain has no surface yet.".into());
        };
        let excluded = t.scatter_exclusions().0;
        let radius = (self.brush().size / 2.0).max(0.5);
        let s = &view.scatter;
        let found = nearest(&s.placements, c.local, radius, |p| {
            excluded
                .as_slice()
                .contains(&GString::from(s.key(&view.owner, p).as_str()))
        });
        let Some((i, distance)) = found else {
            return Err(if s.placements.is_empty() {
                "This terrain has no scatter placements to convert (its recipe has no palette \
                 rules)."
                    .into()
            } else {
                format!("No scatter placement within {radius:.1} m of the cursor.")
            });
        };
        let placement = s.placements[i];
        let rule = s
            .rules
            .get(placement.rule as usize)
            .cloned()
            .unwrap_or_default();
        let geometry = view
            .palette
            .as_ref()
            .and_then(|p| p.rule(&rule))
            .map(|r| r.geometry.clone());
        Ok(Pick {
            key: s.key(&view.owner, &placement),
            placement,
            rule,
            geometry,
            distance,
        })
    }

    /// The cursor label's addition for Convert: what a click would convert.
    pub(super) fn convert_hint(&self) -> String {
        let (Some(t), Some(c)) = (&self.terrain, self.cursor) else {
            return String::new();
        };
        match self.pick_placement(t, c) {
            Ok(p) => format!("  {} at {:.1} m", p.rule, p.distance),
            Err(_) => "  no placement here".into(),
        }
    }

    /// Left click with Convert: converts the nearest placement (one undo step).
    pub(super) fn convert_click(&mut self, terrain: Gd<Terrain3D>, c: Cursor) {
        match self.convert(terrain, c) {
            Ok(msg) => self.show_message(&msg, false),
            Err(why) => self.show_message(&why, true),
        }
    }

    fn convert(&mut self, terrain: Gd<Terrain3D>, c: Cursor) -> Result<String, String> {
        let pick = self.pick_placement(&terrain, c)?;
        let Some(geometry) = &pick.geometry else {
            return Err(
                "This terrain is cooked: its payload names no geometry to convert \
                        (convert on the asset or recipe the payload was cooked from)."
                    .into(),
            );
        };
        let Some(root) = EditorInterface::singleton().get_edited_scene_root() else {
            return Err("Open the scene holding the terrain first.".into());
        };
        if !(root == terrain.clone().upcast::<Node>() || root.is_ancestor_of(&terrain)) {
            return Err("The terrain is not part of the edited scene.".into());
        }
        let mut node = instantiate(geometry)?;
        node.set_name(&object_name(&pick.rule, &pick.placement));
        node.set_transform(placement_transform(&pick.placement));
        let old = terrain.bind().scatter_exclusions().0.clone();
        let mut new = old.clone();
        new.push(pick.key.as_str());
        let Some(mut ur) = self.base().get_undo_redo() else {
            node.free();
            return Err("The editor has no undo history.".into());
        };
        let t = terrain.clone().upcast::<Object>();
        ur.create_action_ex("Ridgeline: convert placement to object")
            .custom_context(&t)
            .done();
        let n = node.clone().upcast::<Object>();
        ur.add_do_method(
            &t,
            "add_child",
            &[n.to_variant(), true.to_variant(), 0.to_variant()],
        );
        ur.add_do_method(&n, "set_owner", &[root.to_variant()]);
        ur.add_do_property(&t, "scatter_exclusions", &new.to_variant());
        ur.add_do_reference(&n);
        ur.add_undo_method(&t, "remove_child", &[n.to_variant()]);
        ur.add_undo_property(&t, "scatter_exclusions", &old.to_variant());
        ur.commit_action();
        Ok(format!(
            "Converted {} into the object `{}` (a child of {}); Ctrl+Z undoes.",
            pick.key,
            node.get_name(),
            terrain.get_name()
        ))
    }
}

/// A readable, unique-per-placement node name: `<rule>_<i>_<j>`.
fn object_name(rule: &str, p: &Placement) -> String {
    format!("{rule}_{}_{}", p.cell[0], p.cell[1])
}

/// The owned object of a geometry reference: an instance of the scene (editable as an
/// instance in the Scene dock) or a `MeshInstance3D` holding the mesh.
fn instantiate(geometry: &Geometry) -> Result<Gd<godot::classes::Node3D>, String> {
    let reference = match geometry {
        Geometry::Model(r) | Geometry::Prefab(r) => r,
    };
    let path = resource_path(reference);
    let mut loader = ResourceLoader::singleton();
    if !loader.exists(&path) {
        return Err(format!("The placement's geometry `{path}` does not exist."));
    }
    let res = loader
        .load(&path)
        .ok_or_else(|| format!("`{path}` could not be loaded."))?;
    let res = match res.try_cast::<PackedScene>() {
        Ok(scene) => {
            let node = scene
                .instantiate_ex()
                .edit_state(GenEditState::INSTANCE)
                .done()
                .ok_or_else(|| format!("`{path}` could not be instanced."))?;
            return match node.try_cast::<godot::classes::Node3D>() {
                Ok(mut n) => {
                    n.set_scene_file_path(&path);
                    Ok(n)
                }
                Err(n) => {
                    n.free();
                    Err(format!("`{path}`'s root is not a Node3D."))
                }
            };
        }
        Err(res) => res,
    };
    match res.try_cast::<Mesh>() {
        Ok(mesh) => {
            let mut mi = MeshInstance3D::new_alloc();
            mi.set_mesh(&mesh);
            Ok(mi.upcast())
        }
        Err(_) => Err(format!("`{path}` is neither a scene nor a mesh.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f32, z: f32, i: u32) -> Placement {
        Placement {
            rule: 0,
            cell: [i, 0],
            position: [x, 0.0, z],
            yaw: 0.0,
            scale: 1.0,
        }
    }

    #[test]
    fn picks_the_nearest_within_the_radius_skipping_excluded() {
        let ps = [at(0.0, 0.0, 0), at(3.0, 4.0, 1), at(1.0, 1.0, 2)];
        assert_eq!(
            nearest(&ps, [1.2, 1.0], 2.0, |_| false).map(|x| x.0),
            Some(2)
        );
        assert_eq!(
            nearest(&ps, [1.2, 1.0], 2.0, |p| p.cell[0] == 2).map(|x| x.0),
            Some(0)
        );
        assert_eq!(nearest(&ps, [10.0, 10.0], 2.0, |_| false), None);
        let (i, d) = nearest(&ps, [3.0, 4.0], 0.5, |_| false).unwrap_or((9, 9.0));
        assert_eq!((i, d), (1, 0.0));
    }
}
