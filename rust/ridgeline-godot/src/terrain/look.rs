//! `Terrain3D.Look`: how the surface is drawn.

use super::Terrain3D;
use crate::convert::class_enum::class_enum;

class_enum! {
    /// How a terrain's surface is drawn ([member Terrain3D.look]).
    pub enum Look for Terrain3D as "Look" {
        /// Textured: the [member Terrain3D.material_set]'s layers from texture arrays, height
        /// blended, triplanar on steep ground, anti-tiled, with macro variation and distance
        /// fading; without a material set, the untextured tint look.
        Realistic = 0 as "LOOK_REALISTIC",
        /// Flat colour per surface (each layer's flat colour, or a palette per surface role
        /// without a material set), exact face normals, crisp triangle edges; no textures.
        Faceted = 1 as "LOOK_FACETED",
    }
}
