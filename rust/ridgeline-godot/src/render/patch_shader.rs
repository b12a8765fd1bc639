//! The GPU path's shader variants: the realistic and faceted terrain shaders with the patch
//! vertex stage (`shaders/terrain_patches.gdshaderinc`) composed in — vertices placed from the
//! height texture (normals derived from it) before the shader's own `vertex()` body runs, and
//! hole cells discarded first thing in `fragment()`. Everything else (the looks, the uniforms the
//! extension sets) is the mesh path's shader unchanged.

/// The patch vertex stage, embedded at build time.
pub const PATCH_STAGE: &str = include_str!("../../../../shaders/terrain_patches.gdshaderinc");

/// `code` (a terrain shader with `terrain_size`, `void vertex() {` and `void fragment() {`)
/// turned into its GPU patch variant, or `None` when it lacks one of those.
pub fn patch_variant(code: &str) -> Option<String> {
    if !code.contains("uniform vec2 terrain_size")
        || code.matches("void vertex() {").count() != 1
        || code.matches("void fragment() {").count() != 1
    {
        return None;
    }
    let vertex = format!(
        "{PATCH_STAGE}\nvoid vertex() {{\n\tridgeline_patch_vertex(VERTEX, NORMAL, UV, INSTANCE_CUSTOM, terrain_size);\n\tv_ridgeline_xz = VERTEX.xz;"
    );
    let fragment = "void fragment() {\n\tif (ridgeline_hole(v_ridgeline_xz)) {\n\t\tdiscard;\n\t}";
    Some(
        code.replacen("void vertex() {", &vertex, 1)
            .replacen("void fragment() {", fragment, 1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::surface_material::{FACETED_SHADER, REALISTIC_SHADER};

    #[test]
    fn both_looks_have_a_patch_variant() {
        for code in [REALISTIC_SHADER, FACETED_SHADER] {
            let v = patch_variant(code).expect("variant");
            assert!(v.contains("ridgeline_patch_vertex(VERTEX, NORMAL, UV, INSTANCE_CUSTOM"));
            assert!(v.contains("if (ridgeline_hole(v_ridgeline_xz))"));
            // The stage sits before vertex(), after the shader's own uniforms.
            assert!(v.find("uniform vec2 terrain_size") < v.find("void ridgeline_patch_vertex"));
        }
        assert!(patch_variant("shader_type spatial;").is_none());
    }
}
