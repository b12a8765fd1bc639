//! Save games: the strokes a running game applied (runtime writes are never saved into the
//! asset) come out as stroke data, and go back in with one call.

use super::Terrain3D;
use super::edit_session::lock;
use crate::convert::variant_json;
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::pipeline::{Change, EditSession};
use ridgeline_core::recipe::{Document, Recipe};
use serde_json::Value;

#[godot_api(secondary)]
impl Terrain3D {
    /// The strokes applied to this terrain since it was generated from its source and not in
    /// the source's recipe — [method apply_stroke], [method set_height_rect] and the other
    /// runtime writes, minus undone ones — as stroke Dictionaries (the recipe's stroke JSON
    /// shape), height edits first, then exclusions, then regions, then foliage density, each list
    /// in the order applied.
    /// A game saves them and hands them to [method apply_strokes] after loading the same
    /// terrain. Layer toggles are not included. In the editor, where strokes are written into
    /// the asset, this is empty. Empty before anything was edited.
    #[func]
    pub fn get_runtime_strokes(&self) -> Array<VarDictionary> {
        let mut out = Array::new();
        let Some(session) = self.current_session() else {
            return out;
        };
        let Ok(s) = lock(&session) else {
            godot_error!("Terrain3D.get_runtime_strokes: the edit session is unusable");
            return out;
        };
        let source = self.source_recipe();
        let edited = s.recipe();
        let counts = |r: &Recipe| [r.edits.len(), r.exclusions.len(), r.regions.len()];
        let base = source.as_ref().map_or([0; 3], counts);
        let lists = [&edited.edits, &edited.exclusions, &edited.regions];
        let foliage = source.as_ref().map_or(0, |r| r.foliage_paint.len());
        let lists = lists
            .into_iter()
            .zip(base)
            .chain([(&edited.foliage_paint, foliage)]);
        for (list, skip) in lists {
            for v in list.iter().skip(skip) {
                match from_json(v).try_to::<VarDictionary>() {
                    Ok(d) => out.push(&d),
                    Err(_) => {
                        godot_error!("Terrain3D.get_runtime_strokes: a stroke is not an object")
                    }
                }
            }
        }
        out
    }

    /// Applies `strokes` (stroke Dictionaries, as [method get_runtime_strokes] returns them)
    /// in order, as one write: the touched chunks are rebuilt once and one
    /// [signal terrain_changed] follows. Each stroke is its own undo step. When any stroke is
    /// invalid, the error names it (`strokes[3].radius: …`) and nothing changes.
    #[func]
    pub fn apply_strokes(&mut self, strokes: Array<VarDictionary>) -> bool {
        let mut values = Vec::with_capacity(strokes.len());
        for (i, d) in strokes.iter_shared().enumerate() {
            match variant_json::to_json(&d.to_variant(), &format!("strokes[{i}]")) {
                Ok(v) => values.push(v),
                Err(e) => {
                    godot_error!("Terrain3D.apply_strokes: {e}; nothing changed");
                    return false;
                }
            }
        }
        if values.is_empty() {
            return true;
        }
        self.edit("apply_strokes", |s| apply_all(s, &values))
    }
}

/// Applies every stroke of `values`, merging their changes; on the first refusal undoes the
/// ones applied and answers the located error.
fn apply_all(s: &mut EditSession, values: &[Value]) -> Result<Change, String> {
    let mut merged = Change::default();
    for (i, v) in values.iter().enumerate() {
        match s.apply_stroke(v) {
            Ok(c) => merge(&mut merged, c),
            Err(e) => {
                for _ in 0..i {
                    s.undo();
                }
                s.discard_redo();
                let at = format!("strokes[{i}]");
                let msg: Vec<String> = e
                    .to_string()
                    .lines()
                    .map(|l| l.replacen("stroke", &at, 1))
                    .collect();
                return Err(format!("{}; nothing changed", msg.join("\n")));
            }
        }
    }
    Ok(merged)
}

/// The length from which a list of numbers is returned as a packed array.
const PACK_FROM: usize = 16;

/// A JSON value as a Variant (whole numbers as `int`, objects as Dictionaries, lists of at
/// least [`PACK_FROM`] numbers as `PackedInt64Array` / `PackedFloat64Array`).
fn from_json(v: &Value) -> Variant {
    match v {
        Value::Null => Variant::nil(),
        Value::Bool(b) => b.to_variant(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_variant(),
            None => n.as_f64().unwrap_or(f64::NAN).to_variant(),
        },
        Value::String(s) => s.as_str().to_variant(),
        // A long list of numbers (a patch's heights or bytes) becomes a packed array: compact
        // in a save game and read back by apply_strokes within variant_json::MAX_NUMBERS.
        Value::Array(items) if items.len() >= PACK_FROM && items.iter().all(Value::is_i64) => {
            PackedInt64Array::from_iter(items.iter().filter_map(Value::as_i64)).to_variant()
        }
        Value::Array(items) if items.len() >= PACK_FROM && items.iter().all(Value::is_number) => {
            PackedFloat64Array::from_iter(items.iter().filter_map(Value::as_f64)).to_variant()
        }
        Value::Array(items) => {
            let mut a = VarArray::new();
            for item in items {
                a.push(&from_json(item));
            }
            a.to_variant()
        }
        Value::Object(m) => {
            let mut d = VarDictionary::new();
            for (k, item) in m {
                d.set(k.as_str(), &from_json(item));
            }
            d.to_variant()
        }
    }
}

/// Adds `c` to `into` (rectangles' bounding boxes, chunk lists without repeats).
fn merge(into: &mut Change, c: Change) {
    let u = |a: &mut Rect, b: Rect| *a = a.union(&b);
    u(&mut into.heights, c.heights);
    u(&mut into.touched, c.touched);
    u(&mut into.surface, c.surface);
    u(&mut into.holes, c.holes);
    u(&mut into.exclusion, c.exclusion);
    u(&mut into.regions, c.regions);
    u(&mut into.foliage, c.foliage);
    u(&mut into.user_channels, c.user_channels);
    u(&mut into.surface_paint, c.surface_paint);
    u(&mut into.water, c.water);
    for k in c.chunks {
        if !into.chunks.contains(&k) {
            into.chunks.push(k);
        }
    }
}

impl Terrain3D {
    /// The recipe of the source (asset document or inline recipe); `None` for cooked assets.
    pub(crate) fn source_recipe(&self) -> Option<Recipe> {
        match (&self.asset, self.recipe.is_empty()) {
            (Some(a), _) => a.bind().document().map(|d| d.recipe().clone()),
            (None, false) => Document::parse(&self.recipe.to_string(), "Terrain3D.recipe")
                .ok()
                .map(|d| d.recipe().clone()),
            _ => None,
        }
    }
}
