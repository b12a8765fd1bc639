//! Reading and writing a rectangle of sample heights: `get_height_rect` copies the current
//! heights out, `set_height_rect` writes them back as one replayable `height_patch` stroke
//! (the core's `edit::height_patch`), so the write undoes exactly and survives regeneration.

use super::Terrain3D;
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::edit::height_patch::stroke_value;
use ridgeline_core::heightfield::{MAX_HEIGHT, height_in_range};

#[godot_api(secondary)]
impl Terrain3D {
    /// The heights of the sample rectangle `rect` (terrain-local sample indices: position = first
    /// column and row, size = sample counts; samples run 0..=[method get_cell_counts]), row-major
    /// (`values[row * rect.size.x + column]`), in terrain-local units. Empty with an error when
    /// the rectangle is empty or leaves the grid, or before the first generation. (Named
    /// `_rect` because [method get_heights] is the batch point query.)
    #[func]
    pub fn get_height_rect(&self, rect: Rect2i) -> PackedFloat32Array {
        let prepared = self.prepared();
        let Some(p) = prepared.as_ref() else {
            godot_error!("Terrain3D.get_height_rect: nothing generated yet");
            return PackedFloat32Array::new();
        };
        let [w, h] = p.field.grid().samples();
        match sample_rect(rect, [w, h]) {
            Ok(r) => {
                let values = r.copy_from(p.field.heights(), &Rect::new(0, 0, w, h));
                PackedFloat32Array::from(values.as_slice())
            }
            Err(e) => {
                godot_error!("Terrain3D.get_height_rect: {e}");
                PackedFloat32Array::new()
            }
        }
    }

    /// Sets the heights of the sample rectangle `rect` (as in [method get_height_rect]) to
    /// `values` (row-major, `rect.size.x * rect.size.y` of them, finite, within ±1e7), as one
    /// replayable height-patch stroke: only the rectangle's chunks, normals and collision are
    /// rebuilt, [method undo_stroke] restores it exactly, and it stays through regeneration
    /// like every stroke (in the editor it is written into the asset's recipe; in a game see
    /// [method get_runtime_strokes]). Strokes applied after it see the written heights.
    /// [signal terrain_changed] follows. Returns false with an error — and changes nothing —
    /// when the rectangle is empty or leaves the grid, the array has the wrong size, or a
    /// value is NaN, infinite or out of range.
    #[func]
    pub fn set_height_rect(&mut self, rect: Rect2i, values: PackedFloat32Array) -> bool {
        let (grid, r) = {
            let prepared = self.prepared();
            let Some(p) = prepared.as_ref() else {
                godot_error!("Terrain3D.set_height_rect: nothing generated yet");
                return false;
            };
            let g = *p.field.grid();
            match sample_rect(rect, g.samples()) {
                Ok(r) => (g.cells(), r),
                Err(e) => {
                    godot_error!("Terrain3D.set_height_rect: {e}; nothing changed");
                    return false;
                }
            }
        };
        let values = values.as_slice();
        if values.len() != r.area() {
            godot_error!(
                "Terrain3D.set_height_rect: values has {} heights, the {}×{} rectangle has {} samples; nothing changed",
                values.len(),
                r.width(),
                r.depth(),
                r.area()
            );
            return false;
        }
        if let Some(i) = values.iter().position(|&v| !height_in_range(v)) {
            godot_error!(
                "Terrain3D.set_height_rect: values[{i}] is {}; heights must be finite and within ±{MAX_HEIGHT}; nothing changed",
                values[i]
            );
            return false;
        }
        // Adding zero turns −0 into +0, the value the stored stroke replays.
        let heights: Vec<f32> = values.iter().map(|v| v + 0.0).collect();
        let stroke = stroke_value(grid, r, &heights);
        self.edit("set_height_rect", |s| {
            s.apply_stroke(&stroke).map_err(|e| e.to_string())
        })
    }
}

/// `rect` as a sample rectangle inside a `samples` grid, or why not.
pub(super) fn sample_rect(rect: Rect2i, samples: [usize; 2]) -> Result<Rect, String> {
    let (p, s) = (rect.position, rect.size);
    let [w, h] = samples;
    if s.x <= 0 || s.y <= 0 {
        return Err(format!("rect {rect} is empty (size must be positive)"));
    }
    let (x1, z1) = (p.x as i64 + s.x as i64, p.y as i64 + s.y as i64);
    if p.x < 0 || p.y < 0 || x1 > w as i64 || z1 > h as i64 {
        return Err(format!(
            "rect {rect} leaves the grid's samples (0, 0)–({}, {})",
            w - 1,
            h - 1
        ));
    }
    Ok(Rect::new(
        p.x as usize,
        p.y as usize,
        x1 as usize,
        z1 as usize,
    ))
}
