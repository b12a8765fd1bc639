//! One scatter chunk's server resources: per rule a MultiMesh and render instance for each
//! mesh part, one static body or area holding the scene's shapes for every placement, or (node
//! mode) one scene instance per placement. Nothing here is a node except node-mode objects.

use super::rule_geometry::RuleGeometry;
use super::rule_settings::{Mode, RuleSettings};
use godot::classes::physics_server_3d::{BodyMode, BodyState};
use godot::classes::rendering_server::{
    MultimeshTransformFormat, ShadowCastingSetting, VisibilityRangeFadeMode,
};
use godot::classes::{Node3D, PhysicsServer3D, RenderingServer};
use godot::prelude::*;
use ridgeline_core::scatter::chunks::RuleGroup;
use ridgeline_core::scatter::palette::Collision;
use ridgeline_core::scatter::{Placement, Scatter};
use std::collections::HashMap;
use std::rc::Rc;

/// A rule ready to render: its geometry and settings.
pub struct RuleRender {
    /// Meshes, shapes and scene.
    pub geometry: RuleGeometry,
    /// Thinning, shadows, mode, collision.
    pub settings: RuleSettings,
}

/// Where chunks are shown.
#[derive(Clone, Copy)]
pub struct Target {
    /// The terrain's global transform (placements are terrain-local).
    pub terrain: Transform3D,
    /// The scatter node's global transform (node-mode objects are its children).
    pub node: Transform3D,
    /// Scenario and physics space of the world.
    pub scenario: Rid,
    pub space: Rid,
    /// Whether the scatter node is visible.
    pub visible: bool,
    /// Instance id reported by physics queries as the collider.
    pub owner_id: u64,
}

/// One MultiMesh and the instance drawing it.
pub struct Part {
    pub multimesh: Rid,
    pub instance: Rid,
    /// Instances allocated in the MultiMesh.
    pub instances: usize,
}

/// One rule's resources in a chunk.
pub struct BuiltGroup {
    /// Rule index.
    pub rule: u16,
    /// Placements in the group.
    pub count: usize,
    /// Currently drawn count (thinning); `usize::MAX` before the first update.
    pub visible: usize,
    /// MultiMesh parts.
    pub parts: Vec<Part>,
    /// Collision body or area and whether it is an area.
    pub body: Option<(Rid, bool)>,
    /// Collision shapes per placement (shape index / this = placement rank in the group).
    pub shapes_per_placement: usize,
    /// Node-mode objects by key.
    pub nodes: Vec<(String, Gd<Node3D>)>,
    /// The rule's settings (thinning).
    pub settings: Rc<RuleRender>,
}

/// A built chunk.
pub struct BuiltChunk {
    /// Its groups.
    pub groups: Vec<BuiltGroup>,
    /// Terrain-local bounds of its placements (min, max).
    pub bounds: (Vector3, Vector3),
    /// Content hash of the placements it was built from.
    pub hash: u64,
}

/// The terrain-local transform of a placement.
pub fn placement_transform(p: &Placement) -> Transform3D {
    let basis = Basis::from_axis_angle(Vector3::UP, p.yaw.to_radians())
        * Basis::from_scale(Vector3::splat(p.scale));
    Transform3D::new(
        basis,
        Vector3::new(p.position[0], p.position[1], p.position[2]),
    )
}

/// A content hash of a chunk's groups (rule, identity, position, yaw, scale, order).
pub fn content_hash(scatter: &Scatter, groups: &[RuleGroup]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |v: u64| {
        h = (h ^ v).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(5);
    };
    for g in groups {
        mix(g.rule as u64 | 1 << 40);
        for &i in &g.placements {
            let p = &scatter.placements[i as usize];
            mix(p.cell[0] as u64 | (p.cell[1] as u64) << 32);
            mix(p.position[0].to_bits() as u64 | (p.position[1].to_bits() as u64) << 32);
            mix(p.position[2].to_bits() as u64 | (p.yaw.to_bits() as u64) << 32);
            mix(p.scale.to_bits() as u64);
        }
    }
    h
}

/// Builds a chunk's groups. `rules` is indexed by rule index (`None`: not rendered); `reuse`
/// holds node-mode objects of the chunk's previous build, moved to their new transforms
/// instead of re-instantiated (scripts keep their state). `key` names a placement; `spawned`
/// receives every newly instantiated object.
#[allow(clippy::too_many_arguments)]
pub fn build(
    scatter: &Scatter,
    groups: &[RuleGroup],
    rules: &[Option<Rc<RuleRender>>],
    target: &Target,
    parent: &mut Gd<Node3D>,
    terrain: &Gd<Node3D>,
    reuse: &mut HashMap<String, Gd<Node3D>>,
    key: &dyn Fn(&Placement) -> String,
    spawned: &mut Vec<(String, Gd<Node3D>)>,
) -> BuiltChunk {
    let mut lo = Vector3::splat(f32::INFINITY);
    let mut hi = Vector3::splat(f32::NEG_INFINITY);
    let mut out = Vec::new();
    for g in groups {
        let Some(Some(rule)) = rules.get(g.rule as usize) else {
            continue;
        };
        let placements: Vec<&Placement> = g
            .placements
            .iter()
            .map(|&i| &scatter.placements[i as usize])
            .collect();
        for p in &placements {
            let v = Vector3::new(p.position[0], p.position[1], p.position[2]);
            lo = lo.coord_min(v);
            hi = hi.coord_max(v);
        }
        let mut built = BuiltGroup {
            rule: g.rule,
            count: placements.len(),
            visible: usize::MAX,
            parts: Vec::new(),
            body: None,
            shapes_per_placement: 0,
            nodes: Vec::new(),
            settings: rule.clone(),
        };
        match (rule.settings.mode, &rule.geometry.scene) {
            (Mode::Node, Some(scene)) => build_nodes(
                &placements,
                scene,
                target,
                parent,
                terrain,
                reuse,
                key,
                spawned,
                &mut built,
            ),
            _ => {
                build_parts(&placements, rule, target, &mut built);
                build_body(&placements, rule, target, &mut built);
            }
        }
        out.push(built);
    }
    BuiltChunk {
        groups: out,
        bounds: (lo, hi),
        hash: content_hash(scatter, groups),
    }
}

fn build_parts(placements: &[&Placement], rule: &RuleRender, t: &Target, out: &mut BuiltGroup) {
    let xforms: Vec<Transform3D> = placements.iter().map(|p| placement_transform(p)).collect();
    let smax = placements.iter().fold(0.0f32, |m, p| m.max(p.scale));
    build_parts_from(&xforms, smax, rule, t, out);
}

/// A MultiMesh group drawing ready instance transforms (terrain-local; `smax`: their largest
/// uniform scale, for the bounds) with `rule`'s meshes and settings: no collision, no nodes.
/// Foliage chunks are built this way.
pub fn transform_group(
    rule_index: u16,
    xforms: &[Transform3D],
    smax: f32,
    rule: &Rc<RuleRender>,
    t: &Target,
) -> BuiltGroup {
    let mut out = BuiltGroup {
        rule: rule_index,
        count: xforms.len(),
        visible: usize::MAX,
        parts: Vec::new(),
        body: None,
        shapes_per_placement: 0,
        nodes: Vec::new(),
        settings: rule.clone(),
    };
    if !xforms.is_empty() {
        build_parts_from(xforms, smax, rule, t, &mut out);
    }
    out
}

fn build_parts_from(
    xforms: &[Transform3D],
    smax: f32,
    rule: &RuleRender,
    t: &Target,
    out: &mut BuiltGroup,
) {
    let mut rs = RenderingServer::singleton();
    let n = xforms.len();
    let (mut lo, mut hi) = (
        Vector3::splat(f32::INFINITY),
        Vector3::splat(f32::NEG_INFINITY),
    );
    for x in xforms {
        lo = lo.coord_min(x.origin);
        hi = hi.coord_max(x.origin);
    }
    let mut buffer = vec![0.0f32; n * 12];
    for part in &rule.geometry.meshes {
        for (x, dst) in xforms.iter().zip(buffer.chunks_exact_mut(12)) {
            let m = *x * part.local;
            let r = &m.basis.rows;
            dst.copy_from_slice(&[
                r[0].x, r[0].y, r[0].z, m.origin.x, r[1].x, r[1].y, r[1].z, m.origin.y, r[2].x,
                r[2].y, r[2].z, m.origin.z,
            ]);
        }
        let mm = rs.multimesh_create();
        rs.multimesh_set_mesh(mm, part.mesh.get_rid());
        rs.multimesh_allocate_data(mm, n as i32, MultimeshTransformFormat::TRANSFORM_3D);
        let reach = part.radius * smax;
        let bmin = Vector3::new(
            lo.x - reach,
            lo.y + part.height[0].min(0.0) * smax,
            lo.z - reach,
        );
        let bmax = Vector3::new(
            hi.x + reach,
            hi.y + part.height[1].max(0.0) * smax,
            hi.z + reach,
        );
        rs.multimesh_set_custom_aabb(mm, Aabb::new(bmin, bmax - bmin));
        rs.multimesh_set_buffer(mm, &PackedFloat32Array::from(buffer.as_slice()));
        let inst = rs.instance_create2(mm, t.scenario);
        rs.instance_set_transform(inst, t.terrain);
        if let Some(m) = &part.material_override {
            rs.instance_geometry_set_material_override(inst, m.get_rid());
        }
        let s = &rule.settings;
        rs.instance_geometry_set_cast_shadows_setting(
            inst,
            if s.cast_shadows {
                ShadowCastingSetting::ON
            } else {
                ShadowCastingSetting::OFF
            },
        );
        if s.visibility_range > 0.0 {
            rs.instance_geometry_set_visibility_range(
                inst,
                0.0,
                s.visibility_range,
                0.0,
                s.visibility_range * 0.1,
                VisibilityRangeFadeMode::SELF,
            );
        }
        rs.instance_set_visible(inst, t.visible);
        out.parts.push(Part {
            multimesh: mm,
            instance: inst,
            instances: n,
        });
    }
}

fn build_body(placements: &[&Placement], rule: &RuleRender, t: &Target, out: &mut BuiltGroup) {
    let shapes = &rule.geometry.shapes;
    if rule.settings.collision == Collision::None || shapes.is_empty() {
        return;
    }
    let mut ps = PhysicsServer3D::singleton();
    let trigger = rule.settings.collision == Collision::Trigger;
    let (layer, mask) = shapes[0].layers;
    let rid = if trigger {
        let a = ps.area_create();
        ps.area_set_collision_layer(a, layer);
        ps.area_set_collision_mask(a, mask);
        ps.area_set_monitorable(a, true);
        ps.area_attach_object_instance_id(a, t.owner_id);
        ps.area_set_transform(a, t.terrain);
        a
    } else {
        let b = ps.body_create();
        ps.body_set_mode(b, BodyMode::STATIC);
        ps.body_set_collision_layer(b, layer);
        ps.body_set_collision_mask(b, mask);
        ps.body_attach_object_instance_id(b, t.owner_id);
        ps.body_set_state(b, BodyState::TRANSFORM, &t.terrain.to_variant());
        b
    };
    for p in placements {
        let x = placement_transform(p);
        for s in shapes {
            let m = x * s.local;
            if trigger {
                ps.area_add_shape_ex(rid, s.shape.get_rid())
                    .transform(m)
                    .done();
            } else {
                ps.body_add_shape_ex(rid, s.shape.get_rid())
                    .transform(m)
                    .done();
            }
        }
    }
    if trigger {
        ps.area_set_space(rid, t.space);
    } else {
        ps.body_set_space(rid, t.space);
    }
    out.body = Some((rid, trigger));
    out.shapes_per_placement = shapes.len();
}

#[allow(clippy::too_many_arguments)]
fn build_nodes(
    placements: &[&Placement],
    scene: &Gd<godot::classes::PackedScene>,
    t: &Target,
    parent: &mut Gd<Node3D>,
    terrain: &Gd<Node3D>,
    reuse: &mut HashMap<String, Gd<Node3D>>,
    key: &dyn Fn(&Placement) -> String,
    spawned: &mut Vec<(String, Gd<Node3D>)>,
    out: &mut BuiltGroup,
) {
    let to_parent = t.node.affine_inverse() * t.terrain;
    for p in placements {
        let k = key(p);
        let xform = to_parent * placement_transform(p);
        if let Some(mut n) = reuse.remove(&k)
            && n.is_instance_valid()
        {
            n.set_transform(xform);
            out.nodes.push((k, n));
            continue;
        }
        let Some(node) = scene.instantiate() else {
            godot_error!("TerrainScatter: the scene of `{k}` could not be instantiated");
            continue;
        };
        let mut n = match node.try_cast::<Node3D>() {
            Ok(n) => n,
            Err(other) => {
                godot_error!(
                    "TerrainScatter: node mode needs a Node3D scene root, `{k}`'s is a {}",
                    other.get_class()
                );
                other.free();
                continue;
            }
        };
        n.set_meta("terrain_object_id", &k.to_variant());
        n.set_meta("terrain", &terrain.to_variant());
        let has = |n: &Gd<Node3D>, prop: &str| {
            n.get_property_list()
                .iter_shared()
                .any(|d| d.get("name").is_some_and(|v| v.to_string() == prop))
        };
        if has(&n, "terrain_object_id") {
            n.set("terrain_object_id", &k.to_variant());
        }
        if has(&n, "terrain") {
            n.set("terrain", &terrain.to_variant());
        }
        n.set_transform(xform);
        parent.add_child(&n);
        spawned.push((k.clone(), n.clone()));
        out.nodes.push((k, n));
    }
}

impl BuiltChunk {
    /// Frees every resource; node-mode objects are moved into `keep` (for reuse) or freed.
    pub fn free(self, keep: Option<&mut HashMap<String, Gd<Node3D>>>) {
        let mut rs = RenderingServer::singleton();
        let mut ps = PhysicsServer3D::singleton();
        let mut keep = keep;
        for g in self.groups {
            for p in g.parts {
                rs.free_rid(p.instance);
                rs.free_rid(p.multimesh);
            }
            if let Some((b, _)) = g.body {
                ps.free_rid(b);
            }
            for (k, n) in g.nodes {
                match keep.as_deref_mut() {
                    Some(m) => {
                        m.insert(k, n);
                    }
                    None => {
                        if n.is_instance_valid() {
                            n.free();
                        }
                    }
                }
            }
        }
    }

    /// Moves every instance and body with the terrain, and every node-mode object by `moved`
    /// (how the terrain moved in the scatter node's space: identity when the scatter node
    /// moves with the terrain). An object's own offset from its placement (a script moved it)
    /// is kept.
    pub fn set_transform(&self, t: &Target, moved: Transform3D) {
        let mut rs = RenderingServer::singleton();
        let mut ps = PhysicsServer3D::singleton();
        for g in &self.groups {
            if moved != Transform3D::IDENTITY {
                for (_, n) in &g.nodes {
                    if n.is_instance_valid() {
                        let mut n = n.clone();
                        let x = n.get_transform();
                        n.set_transform(moved * x);
                    }
                }
            }
            for p in &g.parts {
                rs.instance_set_transform(p.instance, t.terrain);
            }
            match g.body {
                Some((a, true)) => ps.area_set_transform(a, t.terrain),
                Some((b, false)) => {
                    ps.body_set_state(b, BodyState::TRANSFORM, &t.terrain.to_variant())
                }
                None => {}
            }
        }
    }

    /// Terrain-local distance from `viewer` to the chunk's bounds.
    pub fn distance(&self, viewer: Vector3) -> f32 {
        let (lo, hi) = self.bounds;
        let d = (lo - viewer)
            .coord_max(viewer - hi)
            .coord_max(Vector3::ZERO);
        d.length()
    }

    /// Applies distance thinning for a viewer at terrain-local distance `d`: writes the
    /// visible instance count (and hides empty instances) only where it changed. Returns how
    /// many groups changed.
    pub fn thin(&mut self, d: f32, shown: bool) -> usize {
        let mut rs = RenderingServer::singleton();
        let mut changed = 0;
        for g in &mut self.groups {
            if g.parts.is_empty() {
                continue;
            }
            let v = g.settings.settings.thinning.visible(g.count, d);
            if v == g.visible {
                continue;
            }
            for p in &g.parts {
                rs.multimesh_set_visible_instances(p.multimesh, v as i32);
                if (v == 0) != (g.visible == 0) || g.visible == usize::MAX {
                    rs.instance_set_visible(p.instance, shown && v > 0);
                }
            }
            g.visible = v;
            changed += 1;
        }
        changed
    }

    /// Shows or hides every instance (the node's visibility).
    pub fn set_shown(&self, shown: bool) {
        let mut rs = RenderingServer::singleton();
        for g in &self.groups {
            for p in &g.parts {
                rs.instance_set_visible(p.instance, shown && g.visible > 0);
            }
        }
    }

    /// Instances drawn (after thinning) and placed, and MultiMesh bytes of this chunk.
    pub fn instances(&self) -> (usize, usize) {
        self.groups.iter().fold((0, 0), |(v, n), g| {
            (v + g.visible.min(g.count), n + g.count)
        })
    }
}
