//! Packed per-sample layer data: [method get_cells] reads and [method set_cells] writes the
//! painted layers of a sample rectangle as bytes; a write is one `paint_patch` stroke (the
//! core's `edit::paint_patch`), so it undoes exactly and replays on regeneration.

use super::Terrain3D;
use super::change_signal::flags;
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::edit::paint::{USER_CHANNELS, WEIGHT_SLOTS};

/// The layers [method get_cells] and [method set_cells] accept, with bytes per sample, in the
/// order their blocks appear.
const CELL_LAYERS: [(i32, usize, &str); 2] = [
    (flags::SURFACE, WEIGHT_SLOTS, "LAYER_SURFACE"),
    (flags::USER_CHANNELS, USER_CHANNELS, "LAYER_USER_CHANNELS"),
];

#[godot_api(secondary)]
impl Terrain3D {
    /// The painted layers `layers` (a bit set of [constant LAYER_SURFACE] and
    /// [constant LAYER_USER_CHANNELS]) of the sample rectangle `rect` (as in
    /// [method get_height_rect]) as bytes: one block per layer, [constant LAYER_SURFACE] first,
    /// each row-major over the rectangle (`block[(row * rect.size.x + column) * n + k]`):
    /// [constant LAYER_SURFACE] has n = 10 bytes per sample — the weights (0–255) of the nine
    /// surfaces of [method get_surface_names], then the weight left to the classified
    /// (generated) surface; they sum to 255 — and [constant LAYER_USER_CHANNELS] n = 4, the
    /// stored bytes of channels 0–3 (a value channel's 0–1 times 255, an id channel's id).
    /// Empty with an error for an empty or outside rectangle or unsupported layer bits.
    #[func]
    pub fn get_cells(&self, rect: Rect2i, layers: i32) -> PackedByteArray {
        let prepared = self.prepared();
        let Some(p) = prepared.as_ref() else {
            godot_error!("Terrain3D.get_cells: nothing generated yet");
            return PackedByteArray::new();
        };
        let [w, h] = p.field.grid().samples();
        let r = match check(rect, layers, [w, h]) {
            Ok(r) => r,
            Err(e) => {
                godot_error!("Terrain3D.get_cells: {e}");
                return PackedByteArray::new();
            }
        };
        let mut out = Vec::new();
        if layers & flags::SURFACE != 0 {
            out.extend(p.paint.layers.weights_or_default(r, w));
        }
        if layers & flags::USER_CHANNELS != 0 {
            out.extend(p.paint.layers.user_or_default(r, w));
        }
        PackedByteArray::from(out.as_slice())
    }

    /// Writes `data` (laid out as [method get_cells] returns it for the same `rect` and
    /// `layers`) into the painted layers, as one replayable `paint_patch` stroke:
    /// [method undo_stroke] restores the previous bytes exactly, regeneration replays it, and
    /// [method get_runtime_strokes] saves it. [signal terrain_changed] follows. Returns false
    /// with an error — nothing changed, no signal — for an empty or outside rectangle,
    /// unsupported layer bits, `data` of the wrong size, or surface weights of a sample that
    /// do not sum to 255.
    #[func]
    pub fn set_cells(&mut self, rect: Rect2i, layers: i32, data: PackedByteArray) -> bool {
        let r = {
            let prepared = self.prepared();
            let Some(p) = prepared.as_ref() else {
                godot_error!("Terrain3D.set_cells: nothing generated yet");
                return false;
            };
            match check(rect, layers, p.field.grid().samples()) {
                Ok(r) => r,
                Err(e) => {
                    godot_error!("Terrain3D.set_cells: {e}; nothing changed");
                    return false;
                }
            }
        };
        let bytes = data.as_slice();
        let need: usize = CELL_LAYERS
            .iter()
            .filter(|(f, _, _)| layers & f != 0)
            .map(|(_, n, _)| n * r.area())
            .sum();
        if bytes.len() != need {
            godot_error!(
                "Terrain3D.set_cells: data has {} bytes; the {}×{} rectangle with these layers needs {need}; nothing changed",
                bytes.len(),
                r.width(),
                r.depth()
            );
            return false;
        }
        let mut at = 0;
        let mut take = |flag: i32, n: usize| -> &[u8] {
            if layers & flag == 0 {
                return &[];
            }
            let s = &bytes[at..at + n * r.area()];
            at += n * r.area();
            s
        };
        let weights = take(flags::SURFACE, WEIGHT_SLOTS).to_vec();
        let user = take(flags::USER_CHANNELS, USER_CHANNELS).to_vec();
        self.edit("set_cells", |s| {
            s.set_paint_rect(r, &user, &weights)
                .map_err(|e| e.to_string())
        })
    }
}

/// `rect` and `layers` checked against a `samples` grid.
fn check(rect: Rect2i, layers: i32, samples: [usize; 2]) -> Result<Rect, String> {
    let known = CELL_LAYERS.iter().fold(0, |a, (f, _, _)| a | f);
    if layers == 0 || layers & !known != 0 {
        let names: Vec<&str> = CELL_LAYERS.iter().map(|(_, _, n)| *n).collect();
        return Err(format!(
            "layers {layers} must be a non-empty bit set of {}",
            names.join(" and ")
        ));
    }
    super::height_rect::sample_rect(rect, samples)
}
