//! The terrain's server material: one material RID shared by every chunk mesh (or every GPU
//! patch), drawn with the realistic or the faceted shader (or their patch variants,
//! [`super::patch_shader`]). Parameters are kept here, so switching the shader (the look)
//! re-applies them, and replacing chunk meshes never touches the material.

use godot::classes::RenderingServer;
use godot::prelude::*;

/// The realistic shader source (textured, with the tint fallback), embedded at build time.
pub const REALISTIC_SHADER: &str = include_str!("../../../../shaders/terrain.gdshader");
/// The faceted shader source, embedded at build time.
pub const FACETED_SHADER: &str = include_str!("../../../../shaders/terrain_faceted.gdshader");

/// The material RID, its shaders and the parameters set on it.
#[derive(Default)]
pub struct SurfaceMaterial {
    material: Option<Rid>,
    realistic: Option<Rid>,
    faceted: Option<Rid>,
    /// The GPU patch variants (realistic, faceted), created when first drawn with.
    patch_shaders: Option<(Rid, Rid)>,
    is_faceted: bool,
    is_patches: bool,
    params: Vec<(StringName, Variant)>,
}

impl SurfaceMaterial {
    /// The material RID, created (with both shaders) on first use.
    pub fn rid(&mut self) -> Rid {
        if let Some(m) = self.material {
            return m;
        }
        let mut rs = RenderingServer::singleton();
        let realistic = rs.shader_create();
        rs.shader_set_code(realistic, REALISTIC_SHADER);
        let faceted = rs.shader_create();
        rs.shader_set_code(faceted, FACETED_SHADER);
        let material = rs.material_create();
        self.realistic = Some(realistic);
        self.faceted = Some(faceted);
        self.material = Some(material);
        self.apply_shader();
        material
    }

    /// Sets the shader for the look and path on the material and re-applies the parameters.
    fn apply_shader(&mut self) {
        let (Some(material), Some(r), Some(f)) = (self.material, self.realistic, self.faceted)
        else {
            return;
        };
        let mut rs = RenderingServer::singleton();
        let shader = if self.is_patches {
            let (pr, pf) = *self.patch_shaders.get_or_insert_with(|| {
                let mut make = |code: &str| {
                    let s = rs.shader_create();
                    // Both looks' sources have the hooks (unit-tested); a source without them
                    // would draw unplaced patches, so fall back to the plain source.
                    rs.shader_set_code(
                        s,
                        &super::patch_shader::patch_variant(code)
                            .unwrap_or_else(|| code.to_string()),
                    );
                    s
                };
                (make(REALISTIC_SHADER), make(FACETED_SHADER))
            });
            if self.is_faceted { pf } else { pr }
        } else if self.is_faceted {
            f
        } else {
            r
        };
        rs.material_set_shader(material, shader);
        for (name, value) in &self.params {
            rs.material_set_param(material, name, value);
        }
    }

    /// Draws GPU patches (true) or chunk meshes (false).
    pub fn set_patches(&mut self, patches: bool) {
        if patches == self.is_patches {
            return;
        }
        self.is_patches = patches;
        self.apply_shader();
    }

    /// Draws with the faceted (true) or the realistic shader.
    pub fn set_faceted(&mut self, faceted: bool) {
        if faceted == self.is_faceted {
            return;
        }
        self.is_faceted = faceted;
        self.apply_shader();
    }

    /// Sets a shader parameter (kept for shader switches).
    pub fn set(&mut self, name: &str, value: Variant) {
        let name = StringName::from(name);
        if let Some(material) = self.material {
            RenderingServer::singleton().material_set_param(material, &name, &value);
        }
        match self.params.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = value,
            None => self.params.push((name, value)),
        }
    }

    /// The value last set for parameter `name`.
    pub fn param(&self, name: &str) -> Option<&Variant> {
        let name = StringName::from(name);
        self.params.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Frees the material and its shaders (parameters are kept for the next [`Self::rid`]).
    pub fn free(&mut self) {
        let mut rs = RenderingServer::singleton();
        let (pr, pf) = self.patch_shaders.take().unzip();
        for rid in [
            self.material.take(),
            self.realistic.take(),
            self.faceted.take(),
            pr,
            pf,
        ]
        .into_iter()
        .flatten()
        {
            rs.free_rid(rid);
        }
    }
}

impl Drop for SurfaceMaterial {
    fn drop(&mut self) {
        if self.material.is_some() {
            self.free();
        }
    }
}
