//! What a scatter rule draws and collides with, read from its PackedScene or Mesh.
//!
//! A scene is instantiated once, walked and freed: every visible `MeshInstance3D` becomes a
//! mesh part (its mesh with every surface, its surface override materials and material
//! override, and its transform relative to the scene root), every enabled `CollisionShape3D`
//! under a `StaticBody3D`/`AnimatableBody3D`/`RigidBody3D` or an `Area3D` becomes a shape part
//! (the scene's own `Shape3D`, its transform relative to the root, and the body's collision
//! layer and mask). The root's own transform is replaced by the placement's.

use godot::classes::{
    Area3D, ArrayMesh, CollisionObject3D, CollisionShape3D, Material, Mesh, MeshInstance3D, Node,
    Node3D, PackedScene, PrimitiveMesh, Resource, ResourceLoader, Shape3D,
};
use godot::prelude::*;

/// One mesh to draw per instance.
pub struct MeshPart {
    /// The mesh (every surface; a copy holding the mesh instance's surface override materials
    /// when it has any).
    pub mesh: Gd<Mesh>,
    /// Transform relative to the scene root.
    pub local: Transform3D,
    /// The mesh instance's material override.
    pub material_override: Option<Gd<Material>>,
    /// Farthest extent of the mesh from the placement origin (unscaled), for bounds.
    pub radius: f32,
    /// Lowest and highest Y of the mesh relative to the placement origin (unscaled).
    pub height: [f32; 2],
}

/// One collision shape per instance.
pub struct ShapePart {
    /// The scene's shape (kept alive while bodies use its RID).
    pub shape: Gd<Shape3D>,
    /// Transform relative to the scene root.
    pub local: Transform3D,
    /// True for an `Area3D`'s shape (a trigger), false for a body's.
    pub trigger: bool,
    /// The owning collision object's layer and mask.
    pub layers: (u32, u32),
}

/// A rule's geometry.
pub struct RuleGeometry {
    /// What to draw.
    pub meshes: Vec<MeshPart>,
    /// What to collide with (empty for a Mesh, or a scene without shapes).
    pub shapes: Vec<ShapePart>,
    /// The scene, for node mode (`None` for a Mesh).
    pub scene: Option<Gd<PackedScene>>,
}

/// The `res://` path of a palette geometry reference: `res://…` and `uid://…` as written,
/// anything else relative to the project root (`vegetation/pine.tscn` →
/// `res://vegetation/pine.tscn`).
pub fn resource_path(reference: &str) -> String {
    if reference.starts_with("res://") || reference.starts_with("uid://") {
        reference.to_string()
    } else {
        format!("res://{}", reference.trim_start_matches('/'))
    }
}

/// Loads the resource at `path` (a PackedScene or a Mesh).
pub fn load(path: &str) -> Result<RuleGeometry, String> {
    let mut loader = ResourceLoader::singleton();
    if !loader.exists(path) {
        return Err(format!("no resource at `{path}`"));
    }
    let res = loader
        .load(path)
        .ok_or_else(|| format!("`{path}` could not be loaded"))?;
    from_resource(res).map_err(|e| format!("`{path}`: {e}"))
}

/// The geometry of a PackedScene or Mesh resource.
pub fn from_resource(res: Gd<Resource>) -> Result<RuleGeometry, String> {
    let res = match res.try_cast::<Mesh>() {
        Ok(mesh) => {
            let part = mesh_part(mesh, Transform3D::IDENTITY, Vec::new(), None);
            return Ok(RuleGeometry {
                meshes: vec![part],
                shapes: Vec::new(),
                scene: None,
            });
        }
        Err(r) => r,
    };
    let scene = res
        .try_cast::<PackedScene>()
        .map_err(|r| format!("is a {}, not a PackedScene or Mesh", r.get_class()))?;
    let root = scene
        .instantiate()
        .ok_or("the scene could not be instantiated")?;
    let mut out = RuleGeometry {
        meshes: Vec::new(),
        shapes: Vec::new(),
        scene: Some(scene),
    };
    walk(&root, Transform3D::IDENTITY, None, true, &mut out);
    root.free();
    if out.meshes.is_empty() && out.shapes.is_empty() {
        return Err("the scene holds no MeshInstance3D and no CollisionShape3D".into());
    }
    Ok(out)
}

fn walk(
    node: &Gd<Node>,
    parent: Transform3D,
    owner: Option<(bool, (u32, u32))>,
    is_root: bool,
    out: &mut RuleGeometry,
) {
    let mut xform = parent;
    let mut owner = owner;
    if let Ok(n3) = node.clone().try_cast::<Node3D>() {
        if !n3.is_visible() && n3.clone().try_cast::<CollisionShape3D>().is_err() {
            return;
        }
        if !is_root {
            xform = parent * n3.get_transform();
        }
        if let Ok(co) = n3.clone().try_cast::<CollisionObject3D>() {
            let trigger = co.clone().try_cast::<Area3D>().is_ok();
            owner = Some((trigger, (co.get_collision_layer(), co.get_collision_mask())));
        }
        if let Ok(mi) = n3.clone().try_cast::<MeshInstance3D>()
            && let Some(mesh) = mi.get_mesh()
        {
            let n = mesh.get_surface_count();
            let surfaces = (0..n)
                .map(|i| mi.get_surface_override_material(i))
                .collect();
            out.meshes
                .push(mesh_part(mesh, xform, surfaces, mi.get_material_override()));
        }
        if let Ok(cs) = n3.try_cast::<CollisionShape3D>()
            && !cs.is_disabled()
            && let (Some(shape), Some((trigger, layers))) = (cs.get_shape(), owner)
        {
            out.shapes.push(ShapePart {
                shape,
                local: xform,
                trigger,
                layers,
            });
        }
    }
    for child in node.get_children().iter_shared() {
        walk(&child, xform, owner, false, out);
    }
}

fn mesh_part(
    mesh: Gd<Mesh>,
    local: Transform3D,
    surface_materials: Vec<Option<Gd<Material>>>,
    material_override: Option<Gd<Material>>,
) -> MeshPart {
    let aabb = local * mesh.get_aabb();
    let (lo, hi) = (aabb.position, aabb.position + aabb.size);
    let radius = [lo.x.abs(), hi.x.abs()]
        .iter()
        .fold(0.0f32, |m, v| m.max(*v))
        .hypot(
            [lo.z.abs(), hi.z.abs()]
                .iter()
                .fold(0.0f32, |m, v| m.max(*v)),
        );
    MeshPart {
        mesh: bake(mesh, &surface_materials),
        local,
        material_override,
        radius,
        height: [lo.y, hi.y],
    }
}

/// `mesh`, or a copy with the surface override materials set on its surfaces (a MultiMesh
/// instance has no per-surface overrides).
fn bake(mesh: Gd<Mesh>, materials: &[Option<Gd<Material>>]) -> Gd<Mesh> {
    if materials.iter().all(Option::is_none) {
        return mesh;
    }
    let Some(copy) = mesh.duplicate_resource().try_cast::<Mesh>().ok() else {
        return mesh;
    };
    if let Ok(mut am) = copy.clone().try_cast::<ArrayMesh>() {
        for (i, m) in materials.iter().enumerate() {
            if let Some(m) = m {
                am.surface_set_material(i as i32, m);
            }
        }
        return copy;
    }
    if let Ok(mut pm) = copy.clone().try_cast::<PrimitiveMesh>()
        && let Some(Some(m)) = materials.first()
    {
        pm.set_material(m);
        return copy;
    }
    godot_warn!(
        "TerrainScatter: surface override materials of a {} are not drawn (use an ArrayMesh or a material override)",
        mesh.get_class()
    );
    mesh
}
