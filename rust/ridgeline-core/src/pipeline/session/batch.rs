//! Batches: several strokes applied as one edit — all or nothing, and one undo step (their
//! history records are joined, so [`EditSession::undo`] and [`EditSession::redo`] take them
//! together). What a layer-file import applies (`crate::formats::layer_import`).

use super::{Change, EditSession};
use crate::edit::rect::Rect;
use crate::error::{Diagnostic, Error, Result};
use serde_json::Value;

impl Change {
    /// Adds `other` to this change: rectangles grow to their bounding boxes, chunks are
    /// listed once.
    pub fn merge(&mut self, other: Change) {
        let u = |a: &mut Rect, b: Rect| *a = a.union(&b);
        u(&mut self.heights, other.heights);
        u(&mut self.touched, other.touched);
        u(&mut self.surface, other.surface);
        u(&mut self.holes, other.holes);
        u(&mut self.exclusion, other.exclusion);
        u(&mut self.regions, other.regions);
        u(&mut self.foliage, other.foliage);
        u(&mut self.user_channels, other.user_channels);
        u(&mut self.surface_paint, other.surface_paint);
        u(&mut self.water, other.water);
        for k in other.chunks {
            if !self.chunks.contains(&k) {
                self.chunks.push(k);
            }
        }
    }
}

impl EditSession {
    /// Applies `strokes` (stroke JSON, as [`EditSession::apply_stroke`] takes) in order as one
    /// edit and one undo step. When any stroke is refused, the ones applied are rolled back,
    /// the redo history is left as it was, and the error names the stroke (`strokes[2].size:
    /// …`): nothing changes. An empty batch changes nothing and records nothing.
    pub fn apply_strokes(&mut self, strokes: &[Value]) -> Result<Change> {
        let start = self.history.len();
        let mut merged = Change::default();
        let redo = std::mem::take(&mut self.redo);
        for (i, v) in strokes.iter().enumerate() {
            match self.apply_stroke(v) {
                Ok(c) => merged.merge(c),
                Err(e) => {
                    while self.history.len() > start {
                        if self.undo_one().is_none() {
                            break;
                        }
                    }
                    self.redo = redo;
                    let at = format!("strokes[{i}]");
                    return Err(match e {
                        Error::Invalid(ds) => Error::Invalid(
                            ds.into_iter()
                                .map(|d| {
                                    Diagnostic::new(d.path.replacen("stroke", &at, 1), d.message)
                                })
                                .collect(),
                        ),
                        other => other,
                    });
                }
            }
        }
        if self.history.len() == start {
            self.redo = redo;
        }
        for r in self.history.iter_mut().skip(start + 1) {
            r.joined = true;
        }
        Ok(merged)
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::Grid;
    use crate::heightfield::Heightfield;
    use crate::pipeline::EditSession;
    use crate::recipe::Document;
    use serde_json::json;

    fn session() -> EditSession {
        let r = Document::parse(r#"{"size": [16, 16], "resolution": [16, 16]}"#, "t")
            .unwrap()
            .recipe()
            .clone();
        let grid = Grid::new([16.0, 16.0], [16, 16], 8).unwrap();
        EditSession::new(
            r,
            Heightfield::new(grid, vec![1.0; 17 * 17], None).unwrap(),
            None,
        )
        .unwrap()
    }

    fn raise(x: f64) -> serde_json::Value {
        json!({"type": "raise", "center": [x, 8], "radius": 2})
    }

    #[test]
    fn a_batch_is_one_undo_step_and_a_refusal_changes_nothing() {
        let mut s = session();
        s.apply_stroke(&raise(2.0)).unwrap();
        let one = s.field().heights().to_vec();
        s.apply_strokes(&[raise(6.0), raise(10.0)]).unwrap();
        let three = s.field().heights().to_vec();
        assert_eq!(s.recipe().edits.len(), 3);
        s.undo().unwrap();
        assert_eq!(
            s.field().heights(),
            &one[..],
            "the batch undoes as one step"
        );
        assert!(s.can_undo(), "the stroke before stays");
        s.redo().unwrap();
        assert_eq!(s.field().heights(), &three[..]);
        let e = s
            .apply_strokes(&[raise(12.0), json!({"type": "raise", "center": [1, 1]})])
            .expect_err("no radius")
            .to_string();
        assert!(e.contains("strokes[1].radius"), "{e}");
        assert_eq!(s.field().heights(), &three[..], "nothing changed");
        assert_eq!(s.recipe().edits.len(), 3);
        s.undo().unwrap();
        assert_eq!(s.field().heights(), &one[..], "history as before");
    }
}
