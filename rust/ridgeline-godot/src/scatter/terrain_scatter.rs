//! The `TerrainScatter` node: renders a terrain's scatter placements.

use super::chunk_build::{RuleRender, Target};
use super::rule_geometry::{self, RuleGeometry};
use super::rule_settings::{Mode, RuleSettings};
use super::streaming::{Ident, Streamer, parse_key};
use crate::terrain::Terrain3D;
use crate::terrain::scatter_state::ScatterView;
use godot::builtin::math::ApproxEq;
use godot::classes::{INode3D, Node3D, Resource};
use godot::prelude::*;
use ridgeline_core::scatter::palette::{Collision, RuleCategory};
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::Arc;

/// Renders the scatter placements of a [Terrain3D]: trees, rocks, grass and props from the
/// recipe's palette, placed deterministically by the terrain.
///
/// Link it to its terrain with [member terrain_path] (empty: the parent node). Placements are
/// drawn per chunk ([member chunk_size] units square) and rule through RenderingServer
/// MultiMeshes — one per mesh of the rule's scene, never a node per instance. A rule's
/// geometry is its palette reference (`prefab` or `model`) loaded as a resource path (see
/// [method resource_path_for]) — a [PackedScene] whose [MeshInstance3D]s (every surface and
/// material, with their local transforms) are drawn, or a [Mesh] — or the `resource` of its
/// [member rule_settings] entry.
///
/// Only chunks within [member build_radius] of the camera are built, nearest first, spending
/// at most [member build_budget_usec] per frame; chunks farther away are freed. Distance
/// thinning draws a chunk's full density up to a rule's `full_density_distance`, fewer
/// instances (an even sample: the core orders each chunk's placements so any prefix is even)
/// down to `density_floor` at `max_distance`, and nothing beyond; the visible count is written
/// only when it changes.
///
/// Rules with `collision` `static` get one static body per chunk holding the scene's own
/// [CollisionShape3D] shapes at every placement, `trigger` rules one area (through
/// PhysicsServer3D; the collider reported by physics queries is this node, and
/// [method get_collision_object_id] names the placement hit). Rules in node `mode` instantiate
/// their scene per placement (children of this node, never saved) with the meta and, when the
/// script declares them, the properties `terrain_object_id` (the placement's stable key) and
/// `terrain`, set before the object enters the tree.
///
/// The node follows its terrain: a regeneration, an edit (strokes refilter the placements) or
/// a change of [member Terrain3D.scatter_exclusions] rebuilds only the chunks whose placements
/// changed; node-mode objects that stay are moved to their new height, not re-created.
#[derive(GodotClass)]
#[class(tool, base = Node3D)]
pub struct TerrainScatter {
    /// The [Terrain3D] whose placements to draw; empty uses the parent node. (The inspector's
    /// node picker offers only terrains.)
    #[export(node_path = ("Terrain3D"))]
    #[var(set = set_terrain_path)]
    terrain_path: NodePath,
    /// Side of a render chunk in terrain-local units (> 0; default 32). Changing it rebuilds
    /// everything. A side that would split the terrain into more than 1024 chunks along an
    /// edge is raised to the smallest that does not, with a warning.
    #[export(range = (4.0, 512.0, 1.0, or_greater))]
    #[var(set = set_chunk_size)]
    chunk_size: f32,
    /// Chunks within this distance (terrain-local units, horizontal) of the camera are built;
    /// others are freed. Default 300.
    #[export(range = (0.0, 5000.0, 1.0, or_greater))]
    #[var(set = set_build_radius)]
    build_radius: f32,
    /// Time per frame spent building chunks, in microseconds (at least one chunk per frame
    /// while any is queued; negative builds every queued chunk at once). Default 2000.
    #[export]
    #[var]
    build_budget_usec: i64,
    /// Per-rule overrides, keyed by rule id (or category name: `grass`, `tree`, `rock`,
    /// `prop`; a rule id wins). Each value is a Dictionary with any of: `resource` (a
    /// [PackedScene], [Mesh] or `res://` path replacing the palette reference), `mode`
    /// (`"multimesh"` or `"node"`), `cast_shadows` (bool), `visibility_range` (units, 0 =
    /// none), `full_density_distance`, `max_distance`, `density_floor` (0–1) and `collision`
    /// (`"none"`, `"static"`, `"trigger"`). Defaults: grass thins from 40 to 120 units down to
    /// 15 % without shadows; trees draw every built instance with shadows; rocks and props
    /// thin from 150 to 300 units down to 50 %, with shadows.
    #[export]
    #[var(set = set_rule_settings)]
    rule_settings: VarDictionary,

    pub(super) streamer: Streamer,
    /// The palette's foliage types (placed per chunk on demand).
    pub(super) foliage: super::foliage_layer::FoliageLayer,
    /// What the streamer was built from: scatter, exclusion revision, removal revision.
    synced: Option<(Arc<ridgeline_core::scatter::Scatter>, u64, u64)>,
    /// Rules must be resolved again (settings, chunk size or palette changed).
    rules_dirty: bool,
    palette: Option<Arc<ridgeline_core::scatter::Palette>>,
    /// Placements removed with [method remove_object] (kept across regenerations).
    removed: HashSet<String>,
    removed_revision: u64,
    /// The terrain's exclusions as last read, and their revision.
    excluded: (Option<u64>, Vec<String>),
    last_transform: Option<(Transform3D, Transform3D)>,
    last_viewer: Vector3,
    shown: bool,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for TerrainScatter {
    fn init(base: Base<Node3D>) -> Self {
        Self {
            terrain_path: NodePath::default(),
            chunk_size: 32.0,
            build_radius: 300.0,
            build_budget_usec: 2000,
            rule_settings: VarDictionary::new(),
            streamer: Streamer::default(),
            foliage: Default::default(),
            synced: None,
            rules_dirty: true,
            palette: None,
            removed: HashSet::new(),
            removed_revision: 0,
            excluded: (None, Vec::new()),
            last_transform: None,
            last_viewer: Vector3::ZERO,
            shown: true,
            base,
        }
    }

    fn ready(&mut self) {
        self.base_mut().set_process(true);
    }

    fn process(&mut self, _delta: f64) {
        if let Some(v) = self.camera_position() {
            self.update_for_viewer(v, self.build_budget_usec);
        }
    }

    fn exit_tree(&mut self) {
        self.streamer.reset();
        self.foliage.reset();
        self.synced = None;
    }
}

#[godot_api]
impl TerrainScatter {
    /// Emitted when a node-mode object has been instantiated and added (after its
    /// `terrain_object_id` and `terrain` were set).
    #[signal]
    fn object_spawned(id: GString, node: Gd<Node3D>);

    /// Sets [member terrain_path] and rebuilds from the new terrain.
    #[func]
    pub fn set_terrain_path(&mut self, path: NodePath) {
        self.terrain_path = path;
        self.streamer.reset();
        self.foliage.reset();
        self.synced = None;
        self.rules_dirty = true;
    }

    /// Sets [member chunk_size] (finite and > 0, else refused with an error).
    #[func]
    pub fn set_chunk_size(&mut self, size: f32) {
        if !size.is_finite() || size <= 0.0 {
            godot_error!("TerrainScatter.chunk_size: must be finite and > 0, got {size}");
            return;
        }
        self.chunk_size = size;
        self.streamer.reset();
        self.foliage.reset();
        self.synced = None;
    }

    /// Sets [member build_radius] (finite and ≥ 0, else refused with an error).
    #[func]
    pub fn set_build_radius(&mut self, radius: f32) {
        if !radius.is_finite() || radius < 0.0 {
            godot_error!("TerrainScatter.build_radius: must be finite and ≥ 0, got {radius}");
            return;
        }
        self.build_radius = radius;
    }

    /// Sets [member rule_settings] and rebuilds every chunk with the new settings.
    #[func]
    pub fn set_rule_settings(&mut self, settings: VarDictionary) {
        self.rule_settings = settings;
        self.rules_dirty = true;
        self.foliage.dirty = true;
    }

    /// One update as a frame does it, for a viewer at global position `viewer`: follows the
    /// terrain's placements (rebuilding changed chunks), frees chunks beyond
    /// [member build_radius], builds queued chunks nearest first within `budget_usec`
    /// microseconds (negative: all) and applies distance thinning. Returns the chunks built.
    /// Frames call it with the current camera; call it for another viewer or in tests.
    #[func]
    pub fn update_for_viewer(&mut self, viewer: Vector3, budget_usec: i64) -> i64 {
        let Some((terrain, target)) = self.sync() else {
            return 0;
        };
        let local = target.terrain.affine_inverse() * viewer;
        self.last_viewer = local;
        let mut parent = self.to_gd().upcast::<Node3D>();
        let (built, spawned) = self.streamer.frame(
            local,
            self.build_radius,
            budget_usec,
            &target,
            &mut parent,
            &terrain,
            None,
        );
        self.announce(spawned);
        let foliage = self.foliage.frame(
            &terrain,
            local,
            self.build_radius,
            self.chunk_size,
            budget_usec,
            &self.rule_settings,
            &target,
        );
        (built + foliage) as i64
    }

    /// Builds every chunk within [member build_radius] of the current camera now (no budget).
    #[func]
    pub fn build_now(&mut self) {
        if let Some(v) = self.camera_position() {
            self.update_for_viewer(v, -1);
        }
    }

    /// Removes the placement with stable key `id` (see [method Terrain3D.get_scatter_placements])
    /// at runtime: its instance, collision and node disappear, and it stays removed across
    /// regenerations of this node's terrain (not saved; use
    /// [member Terrain3D.scatter_exclusions] for that). Returns false for an unknown key or one
    /// already removed.
    #[func]
    pub fn remove_object(&mut self, id: GString) -> bool {
        let key = id.to_string();
        let exists = self.streamer.scatter.as_ref().is_some_and(|s| {
            parse_key(s, &self.streamer.owner, &key).is_some_and(|(r, i, j)| {
                s.placements.iter().any(|p| p.rule == r && p.cell == [i, j])
            })
        });
        if !exists || self.removed.contains(&key) {
            return false;
        }
        if let Some(n) = self.streamer.objects.remove(&key)
            && n.is_instance_valid()
        {
            n.free();
        }
        self.removed.insert(key);
        self.removed_revision += 1;
        let v = self.last_viewer;
        if let Some((terrain, target)) = self.sync() {
            self.streamer.thin(v, target.visible);
            drop(terrain);
        }
        true
    }

    /// The node-mode object of placement `id` (null when the placement is not in node mode,
    /// not built — beyond [member build_radius] — or removed).
    #[func]
    pub fn get_object_node(&self, id: GString) -> Option<Gd<Node3D>> {
        self.streamer
            .objects
            .get(&id.to_string())
            .filter(|n| n.is_instance_valid())
            .cloned()
    }

    /// The stable key of the placement whose collision a physics query hit: `collider_rid` and
    /// `shape` as [method PhysicsDirectSpaceState3D.intersect_ray] reports them. Empty when the
    /// body is not one of this node's.
    #[func]
    pub fn get_collision_object_id(&self, collider_rid: Rid, shape: i64) -> GString {
        let s = &self.streamer;
        let Some(scatter) = &s.scatter else {
            return GString::new();
        };
        for &c in &s.built_ids {
            let Some(b) = &s.built[c] else { continue };
            for g in &b.groups {
                if g.body.is_some_and(|(r, _)| r == collider_rid) && g.shapes_per_placement > 0 {
                    let rank = shape.max(0) as usize / g.shapes_per_placement;
                    let group = s.index.groups[c].iter().find(|x| x.rule == g.rule);
                    if let Some(&i) = group.and_then(|x| x.placements.get(rank)) {
                        return scatter
                            .key(&s.owner, &scatter.placements[i as usize])
                            .as_str()
                            .into();
                    }
                }
            }
        }
        GString::new()
    }

    /// The `res://` path a palette geometry reference loads from: `res://…` and `uid://…` as
    /// written, anything else relative to the project root (`vegetation/pine.tscn` →
    /// `res://vegetation/pine.tscn`).
    #[func]
    pub fn resource_path_for(reference: GString) -> GString {
        rule_geometry::resource_path(&reference.to_string())
            .as_str()
            .into()
    }
}

impl TerrainScatter {
    fn camera_position(&self) -> Option<Vector3> {
        let cam = self.base().get_viewport()?.get_camera_3d()?;
        Some(cam.get_global_position())
    }

    fn terrain(&self) -> Option<Gd<Terrain3D>> {
        let node = if self.terrain_path.is_empty() {
            self.base().get_parent()?
        } else {
            self.base().get_node_or_null(&self.terrain_path)?
        };
        node.try_cast::<Terrain3D>().ok()
    }

    /// Brings the streamer up to date with the terrain; the terrain node and where to draw.
    fn sync(&mut self) -> Option<(Gd<Node3D>, Target)> {
        if !self.base().is_inside_tree() {
            return None;
        }
        let Some(terrain) = self.terrain() else {
            if self.synced.take().is_some() {
                self.streamer.reset();
            }
            return None;
        };
        let world = self.base().get_world_3d()?;
        // Polled, not notified: a notification handler would need this node's borrow, which
        // node-mode `add_child` calls already hold.
        let shown = self.base().is_visible_in_tree();
        if shown != self.shown {
            self.shown = shown;
            self.streamer.set_shown(shown);
        }
        let t = terrain.bind();
        let view = t.scatter_view();
        let (exclusions, rev) = t.scatter_exclusions();
        // Copied only when they changed (the frame path stays allocation-free).
        if self.excluded.0 != Some(rev) {
            self.excluded = (
                Some(rev),
                exclusions
                    .as_slice()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            );
        }
        drop(t);
        let target = Target {
            terrain: terrain.get_global_transform(),
            node: self.base().get_global_transform(),
            scenario: world.get_scenario(),
            space: world.get_space(),
            visible: self.shown,
            owner_id: self.base().instance_id().to_i64() as u64,
        };
        let terrain_node = terrain.clone().upcast::<Node3D>();
        let Some(view) = view.filter(|v| !v.scatter.is_empty()) else {
            if self.synced.take().is_some() {
                self.streamer.reset();
            }
            return Some((terrain_node, target));
        };
        let current = self.synced.as_ref().is_some_and(|(s, r, rr)| {
            Arc::ptr_eq(s, &view.scatter) && *r == rev && *rr == self.removed_revision
        });
        let palette_changed = match (&self.palette, &view.palette) {
            (Some(a), Some(b)) => !Arc::ptr_eq(a, b) && a != b,
            (None, None) => false,
            _ => true,
        };
        let rules_changed = self.rules_dirty
            || palette_changed
            || self
                .streamer
                .scatter
                .as_ref()
                .is_none_or(|s| s.rules != view.scatter.rules);
        if let Some((terrain, node)) = self.last_transform
            && (terrain, node) != (target.terrain, target.node)
        {
            // Node-mode objects are this node's children: they follow the terrain by how much
            // it moved relative to this node (nothing when this node moves with the terrain).
            let before = node.affine_inverse() * terrain;
            let now = target.node.affine_inverse() * target.terrain;
            let moved = if now.approx_eq(&before) {
                Transform3D::IDENTITY
            } else {
                now * before.affine_inverse()
            };
            self.streamer.set_transform(&target, moved);
        }
        self.last_transform = Some((target.terrain, target.node));
        if !current || rules_changed {
            if rules_changed {
                self.palette = view.palette.clone();
                self.streamer.clear();
                self.streamer.rules = self.resolve_rules(&view);
                self.rules_dirty = false;
            }
            self.streamer.owner = view.owner.clone();
            let mut hidden: HashSet<Ident> = HashSet::new();
            for k in self.excluded.1.iter().chain(self.removed.iter()) {
                if let Some(id) = parse_key(&view.scatter, &view.owner, k) {
                    hidden.insert(id);
                }
            }
            let mut parent = self.to_gd().upcast::<Node3D>();
            let spawned = self.streamer.reindex(
                view.scatter.clone(),
                view.size,
                self.chunk_size,
                &hidden,
                &target,
                &mut parent,
                &terrain_node,
                false,
            );
            self.announce(spawned);
            self.synced = Some((view.scatter.clone(), rev, self.removed_revision));
        }
        Some((terrain_node, target))
    }

    fn announce(&mut self, spawned: Vec<(String, Gd<Node3D>)>) {
        for (k, n) in spawned {
            self.signals()
                .object_spawned()
                .emit(&GString::from(k.as_str()), &n);
        }
    }

    /// Resolves every rule's geometry and settings (errors reported once, located).
    fn resolve_rules(&self, view: &ScatterView) -> Vec<Option<Rc<RuleRender>>> {
        let settings = &self.rule_settings;
        view.scatter
            .rules
            .iter()
            .map(|id| {
                let rule = view.palette.as_ref().and_then(|p| p.rule(id));
                let category = rule.map_or(RuleCategory::Prop, |r| r.category);
                let collision = rule.map_or(Collision::Static, |r| r.collision);
                let mut s = RuleSettings::defaults(category, collision);
                for key in [category.name(), id.as_str()] {
                    if let Some(v) = settings.get(key) {
                        match v.try_to::<VarDictionary>() {
                            Ok(d) => s.apply(&d, &format!("TerrainScatter.rule_settings[\"{key}\"]")),
                            Err(_) => godot_error!(
                                "TerrainScatter.rule_settings[\"{key}\"]: must be a Dictionary, got {v}"
                            ),
                        }
                    }
                }
                let at = format!("TerrainScatter: rule `{id}` of palette `{}`", view.scatter.palette);
                let geometry: Result<RuleGeometry, String> = match (&s.resource, rule) {
                    (Some(v), _) => match v.try_to::<Gd<Resource>>() {
                        Ok(r) => rule_geometry::from_resource(r),
                        Err(_) => rule_geometry::load(&rule_geometry::resource_path(&v.to_string())),
                    },
                    (None, Some(r)) => rule_geometry::load(&rule_geometry::resource_path(
                        r.geometry.reference(),
                    )),
                    (None, None) => Err(format!(
                        "no palette reference (a cooked terrain stores none): give it \
                         rule_settings[\"{id}\"].resource"
                    )),
                };
                match geometry {
                    Ok(geometry) => {
                        // Without a palette (cooked terrains) an all-area scene is a trigger.
                        let shapes = &geometry.shapes;
                        if rule.is_none()
                            && s.collision == Collision::Static
                            && !shapes.is_empty()
                            && shapes.iter().all(|p| p.trigger)
                        {
                            s.collision = Collision::Trigger;
                        }
                        if s.mode == Mode::Node && geometry.scene.is_none() {
                            godot_error!("{at}: node mode needs a PackedScene; drawing its mesh");
                            s.mode = Mode::MultiMesh;
                        }
                        Some(Rc::new(RuleRender {
                            geometry,
                            settings: s,
                        }))
                    }
                    Err(e) => {
                        if !crate::editor_hint::in_editor() || !e.is_empty() {
                            godot_error!("{at}: {e}; the rule is not drawn");
                        }
                        None
                    }
                }
            })
            .collect()
    }
}
