//! The `terrain_changed` signal: which data layers a write changed, the sample and chunk
//! rectangles it touched, and whether it came from undo or redo. Raised synchronously at the
//! end of every write (strokes, height rectangles, user channels, surface paint, undo, redo,
//! layer toggles), after the meshes and collision of the touched chunks are rebuilt.

use super::Terrain3D;
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::pipeline::Change;

/// Layer flags of [`Change`] (see the constants on `Terrain3D`).
pub(super) mod flags {
    pub const HEIGHT: i32 = 1;
    pub const SURFACE: i32 = 2;
    pub const USER_CHANNELS: i32 = 4;
    pub const HOLES: i32 = 8;
    pub const EXCLUSION: i32 = 16;
    pub const REGIONS: i32 = 32;
    pub const WATER: i32 = 64;
    pub const FOLIAGE: i32 = 128;
}

#[godot_api(secondary)]
impl Terrain3D {
    /// [signal terrain_changed] layer flag: sample heights changed (and with them normals,
    /// meshes and collision).
    #[constant]
    pub const LAYER_HEIGHT: i32 = flags::HEIGHT;
    /// [signal terrain_changed] layer flag: the surface classification changed (biome ids,
    /// surface roles, painted surfaces: what [method get_surface] and
    /// [method get_layer_weight] answer).
    #[constant]
    pub const LAYER_SURFACE: i32 = flags::SURFACE;
    /// [signal terrain_changed] layer flag: a user channel changed
    /// ([method set_user_channel]).
    #[constant]
    pub const LAYER_USER_CHANNELS: i32 = flags::USER_CHANNELS;
    /// [signal terrain_changed] layer flag: cells were cut or filled (hole strokes).
    #[constant]
    pub const LAYER_HOLES: i32 = flags::HOLES;
    /// [signal terrain_changed] layer flag: the exclusion mask changed (exclude/erase strokes;
    /// [method get_exclusion]).
    #[constant]
    pub const LAYER_EXCLUSION: i32 = flags::EXCLUSION;
    /// [signal terrain_changed] layer flag: painted biome regions changed (region strokes;
    /// [method get_biome]).
    #[constant]
    pub const LAYER_REGIONS: i32 = flags::REGIONS;
    /// [signal terrain_changed] layer flag: the terrain's water bodies were re-resolved on the
    /// changed ground, or painted water changed ([method paint_water]); what
    /// [method get_water_depth] and [TerrainWater] answer.
    #[constant]
    pub const LAYER_WATER: i32 = flags::WATER;
}

/// The layer flags of `change`; `water`: the terrain has water bodies (they follow heights).
pub(super) fn layers_of(change: &Change, water: bool) -> i32 {
    let mut out = 0;
    let mut set = |on: bool, flag: i32| {
        if on {
            out |= flag;
        }
    };
    set(!change.heights.is_empty(), flags::HEIGHT);
    set(
        !change.surface.is_empty() || !change.surface_paint.is_empty(),
        flags::SURFACE,
    );
    set(!change.user_channels.is_empty(), flags::USER_CHANNELS);
    set(!change.holes.is_empty(), flags::HOLES);
    set(!change.exclusion.is_empty(), flags::EXCLUSION);
    set(!change.regions.is_empty(), flags::REGIONS);
    set(
        (water && !change.heights.is_empty()) || !change.water.is_empty(),
        flags::WATER,
    );
    set(!change.foliage.is_empty(), flags::FOLIAGE);
    out
}

/// A sample (or chunk) rectangle as `Rect2i` (position = first index, size = counts).
pub(super) fn rect2i(r: Rect) -> Rect2i {
    Rect2i::new(
        Vector2i::new(r.x0 as i32, r.z0 as i32),
        Vector2i::new(r.width() as i32, r.depth() as i32),
    )
}

/// The bounding rectangle of chunk indices (empty for none).
pub(super) fn chunk_rect(chunks: &[[u32; 2]]) -> Rect {
    chunks.iter().fold(Rect::EMPTY, |acc, &[x, z]| {
        acc.union(&Rect::new(
            x as usize,
            z as usize,
            x as usize + 1,
            z as usize + 1,
        ))
    })
}

/// What one write tells `terrain_changed`.
pub(super) struct ChangeReport {
    pub layers: i32,
    pub cells: Rect2i,
    pub chunks: Rect2i,
    pub from_undo: bool,
}

impl ChangeReport {
    /// The report of `change`.
    pub(super) fn of(change: &Change, water: bool, from_undo: bool) -> Self {
        Self {
            layers: layers_of(change, water),
            cells: rect2i(change.touched),
            chunks: rect2i(chunk_rect(&change.chunks)),
            from_undo,
        }
    }
}

impl Terrain3D {
    /// Emits `terrain_changed` now (synchronously). Call it with no borrow of the terrain's
    /// state and no session lock held: handlers may query or write the terrain again.
    pub(super) fn emit_terrain_changed(&mut self, report: ChangeReport) {
        let args = [
            report.layers.to_variant(),
            report.cells.to_variant(),
            report.chunks.to_variant(),
            report.from_undo.to_variant(),
        ];
        // The interned name (building a StringName from text locks the engine's name table).
        let name = self.signal_names.get("terrain_changed").clone();
        self.base_mut().emit_signal(&name, &args);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_chunk_rectangles() {
        let mut c = Change {
            heights: Rect::new(1, 1, 3, 3),
            ..Default::default()
        };
        assert_eq!(layers_of(&c, false), flags::HEIGHT);
        assert_eq!(layers_of(&c, true), flags::HEIGHT | flags::WATER);
        c.heights = Rect::EMPTY;
        c.exclusion = Rect::new(0, 0, 1, 1);
        c.holes = Rect::new(0, 0, 1, 1);
        assert_eq!(layers_of(&c, true), flags::EXCLUSION | flags::HOLES);
        c.water = Rect::new(0, 0, 1, 1);
        assert_eq!(
            layers_of(&c, false),
            flags::EXCLUSION | flags::HOLES | flags::WATER
        );
        assert_eq!(chunk_rect(&[[2, 1], [3, 1], [2, 2]]), Rect::new(2, 1, 4, 3));
        assert!(chunk_rect(&[]).is_empty());
    }
}
