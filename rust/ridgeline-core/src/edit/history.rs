//! Undo records: before/after sample values of what an edit changed, deflate-compressed
//! (after-values are stored as an XOR delta against before-values, which compresses well).

use super::rect::Rect;
use super::stroke::{List, Stroke};

/// What an undo record restores in the recipe.
#[derive(Clone, Debug)]
pub enum RecordKind {
    /// A stroke appended to a list.
    Stroke {
        /// The list.
        list: List,
        /// The stroke.
        stroke: Stroke,
    },
    /// A layer toggled to `enabled`.
    Layer {
        /// Layer id.
        id: String,
        /// The new state.
        enabled: bool,
    },
    /// The layer list edited (a layer added, renamed or removed; no sample changes).
    Layers {
        /// The list before.
        before: Vec<crate::edit::layer::Layer>,
        /// The list after.
        after: Vec<crate::edit::layer::Layer>,
    },
}

/// Compressed f32 values. Equal values pack to equal bytes (deterministic compression), so
/// `==` compares the values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    len: usize,
    bytes: Vec<u8>,
}

impl Packed {
    /// Compresses `values`.
    pub fn pack(values: &[f32]) -> Self {
        let raw: Vec<u8> = values
            .iter()
            .flat_map(|v| v.to_bits().to_le_bytes())
            .collect();
        Self {
            len: values.len(),
            bytes: miniz_oxide::deflate::compress_to_vec(&raw, 1),
        }
    }

    /// Compresses `values` as an XOR delta against `base` (same length).
    pub fn pack_delta(values: &[f32], base: &[f32]) -> Self {
        let raw: Vec<u8> = values
            .iter()
            .zip(base)
            .flat_map(|(v, b)| (v.to_bits() ^ b.to_bits()).to_le_bytes())
            .collect();
        Self {
            len: values.len(),
            bytes: miniz_oxide::deflate::compress_to_vec(&raw, 1),
        }
    }

    /// The values (empty if the data were damaged, which cannot happen for records made here).
    pub fn unpack(&self) -> Vec<f32> {
        let raw = miniz_oxide::inflate::decompress_to_vec(&self.bytes).unwrap_or_default();
        let out: Vec<f32> = raw
            .chunks_exact(4)
            .map(|c| f32::from_bits(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect();
        if out.len() == self.len {
            out
        } else {
            Vec::new()
        }
    }

    /// The values of a delta against `base`.
    pub fn unpack_delta(&self, base: &[f32]) -> Vec<f32> {
        self.unpack()
            .iter()
            .zip(base)
            .map(|(d, b)| f32::from_bits(d.to_bits() ^ b.to_bits()))
            .collect()
    }

    /// Compressed size in bytes.
    pub fn compressed_bytes(&self) -> usize {
        self.bytes.len()
    }
}

/// A foliage density edit: one type's map over a sample rectangle, before and after.
#[derive(Clone, Debug)]
pub struct FoliageRecord {
    /// The foliage type id.
    pub id: String,
    /// Samples recomputed.
    pub rect: Rect,
    /// Values before, row-major over `rect`.
    pub before: Packed,
    /// Values after (delta against before).
    pub after: Packed,
}

/// One undoable edit.
#[derive(Clone, Debug)]
pub struct Record {
    /// The recipe change.
    pub kind: RecordKind,
    /// Samples whose heights changed.
    pub heights: Rect,
    /// Heights before, row-major over `heights`.
    pub before_heights: Packed,
    /// Heights after (delta against before).
    pub after_heights: Packed,
    /// Samples whose exclusion/region values were recomputed.
    pub masks: Rect,
    /// Exclusion values and region ids before.
    pub before_masks: (Packed, Vec<u16>),
    /// Exclusion values and region ids after.
    pub after_masks: (Packed, Vec<u16>),
    /// Cells whose hole flags were recomputed (a cell rectangle; empty for most edits).
    pub holes: Rect,
    /// Hole flags before, row-major over `holes`.
    pub before_holes: Vec<bool>,
    /// Hole flags after.
    pub after_holes: Vec<bool>,
    /// A foliage density edit (`foliage_density` strokes only).
    pub foliage: Option<FoliageRecord>,
    /// Undone and redone together with the record before it (a batch of strokes applied as
    /// one step, `EditSession::apply_strokes`).
    pub joined: bool,
}

impl Record {
    /// A record that changes only the recipe (`kind`) and no sample: layer-list edits, paint
    /// strokes (their undo replays the footprint) and, with [`Record::foliage`] set, foliage
    /// density strokes.
    pub fn recipe_only(kind: RecordKind) -> Record {
        Record {
            kind,
            heights: Rect::EMPTY,
            before_heights: Packed::default(),
            after_heights: Packed::default(),
            masks: Rect::EMPTY,
            before_masks: (Packed::default(), Vec::new()),
            after_masks: (Packed::default(), Vec::new()),
            holes: Rect::EMPTY,
            before_holes: Vec::new(),
            after_holes: Vec::new(),
            foliage: None,
            joined: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_bits() {
        let a: Vec<f32> = (0..1000).map(|i| (i as f32 * 0.37).sin() * 40.0).collect();
        let b: Vec<f32> = a.iter().map(|x| x + 0.25).collect();
        let p = Packed::pack(&a);
        assert_eq!(p.unpack(), a);
        let d = Packed::pack_delta(&b, &a);
        assert_eq!(d.unpack_delta(&a), b);
        assert!(p.compressed_bytes() < 4000);
    }
}
