//! The terrain's bounding box, for the editor's framing (F) and for scripts.

use super::Terrain3D;
use godot::prelude::*;

#[godot_api(secondary)]
impl Terrain3D {
    /// The terrain's bounds in terrain-local coordinates: X and Z from 0 to [method get_size],
    /// Y from the lowest to the highest surface height. The node's transform places it in the
    /// world. An empty AABB before the first generation.
    #[func]
    pub fn get_aabb(&self) -> Aabb {
        self.prepared().as_ref().map_or(Aabb::default(), |p| {
            let [x, z] = p.field.grid().size();
            let [lo, hi] = p.field.height_range();
            let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
                (lo, hi)
            } else {
                (0.0, 0.0)
            };
            Aabb::new(Vector3::new(0.0, lo, 0.0), Vector3::new(x, hi - lo, z))
        })
    }
}
