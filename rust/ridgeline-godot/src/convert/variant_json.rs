//! Converting GDScript values to the JSON the core reads (strokes passed as Dictionaries).
//!
//! The input comes straight from scripts, so it may be hostile: an Array or Dictionary that
//! contains itself, thousands of nested Arrays, or millions of values. The conversion is bounded
//! in depth ([`MAX_DEPTH`]) and size ([`MAX_VALUES`]) and detects cycles, so every such input is
//! a located error instead of a stack overflow or an endless loop.

use godot::builtin::{AnyArray, AnyDictionary};
use godot::global::is_same;
use godot::prelude::*;
use serde_json::{Map, Value};

/// Deepest nesting of Arrays and Dictionaries accepted (a stroke needs 3: the stroke, a point
/// list, a point).
pub const MAX_DEPTH: usize = 32;

/// Most values (strings, containers, numbers outside lists, …) one conversion accepts, besides
/// the numbers of lists.
pub const MAX_VALUES: usize = 4_000_000;

/// Length from which a list's numbers count against [`MAX_NUMBERS`] instead of
/// [`MAX_VALUES`] (positions, sizes and rectangles are shorter).
pub const LONG_LIST: usize = 16;

/// Most numbers the long lists (Arrays of [`LONG_LIST`] or more, and packed arrays) of one
/// conversion may hold together: a
/// height patch of a whole 4097² terrain, the largest stroke a save game holds
/// ([method Terrain3D.get_runtime_strokes]), also after a round trip through GDScript's JSON
/// (which turns packed arrays into Arrays of floats). The caller already holds these numbers in
/// memory; this bounds the JSON they become.
pub const MAX_NUMBERS: usize = 4097 * 4097;

/// Converts a Variant to JSON. Vectors become arrays (`Vector2(x, y)` → `[x, y]`,
/// `Vector3(x, y, z)` → `[x, y, z]`), packed and typed arrays become arrays, `StringName`s
/// strings. Anything else (objects, RIDs, …), a non-finite number, a cycle, nesting deeper than
/// [`MAX_DEPTH`] or more than [`MAX_VALUES`] values (numbers in long lists: more than
/// [`MAX_NUMBERS`]) is an error naming where it was found (`path` is the name of the
/// root, e.g. `stroke`).
pub fn to_json(v: &Variant, path: &str) -> Result<Value, String> {
    let mut walk = Walk {
        ancestors: Vec::new(),
        budget: MAX_VALUES,
        numbers: MAX_NUMBERS,
    };
    walk.value(v, path)
}

struct Walk {
    /// The containers enclosing the value being converted (cycle detection).
    ancestors: Vec<Variant>,
    /// Values still allowed.
    budget: usize,
    /// Numbers in lists still allowed.
    numbers: usize,
}

impl Walk {
    fn count(&mut self, n: usize, path: &str) -> Result<(), String> {
        spend(&mut self.budget, n, path, "values", MAX_VALUES)
    }

    fn count_number(&mut self, n: usize, path: &str) -> Result<(), String> {
        spend(
            &mut self.numbers,
            n,
            path,
            "numbers in long lists",
            MAX_NUMBERS,
        )
    }

    fn value(&mut self, v: &Variant, path: &str) -> Result<Value, String> {
        use godot::builtin::VariantType as T;
        self.count(1, path)?;
        let num = |x: f64| number(x, path);
        Ok(match v.get_type() {
            T::NIL => Value::Null,
            T::BOOL => Value::Bool(v.to::<bool>()),
            T::INT => Value::from(v.to::<i64>()),
            T::FLOAT => num(v.to::<f64>())?,
            T::STRING => Value::from(v.to::<GString>().to_string()),
            T::STRING_NAME => Value::from(v.to::<StringName>().to_string()),
            T::VECTOR2 => {
                let p = v.to::<Vector2>();
                Value::Array(vec![num(p.x as f64)?, num(p.y as f64)?])
            }
            T::VECTOR2I => {
                let p = v.to::<Vector2i>();
                Value::Array(vec![Value::from(p.x), Value::from(p.y)])
            }
            T::VECTOR3 => {
                let p = v.to::<Vector3>();
                Value::Array(vec![num(p.x as f64)?, num(p.y as f64)?, num(p.z as f64)?])
            }
            T::ARRAY => {
                let a = v
                    .try_to::<AnyArray>()
                    .map_err(|e| format!("{path}: unreadable Array ({e})"))?;
                self.enter(v, path)?;
                let mut out = Vec::with_capacity(a.len().min(self.budget.max(self.numbers)));
                let long = a.len() >= LONG_LIST;
                for (i, item) in a.iter_shared().enumerate() {
                    // A number in a long list counts against the number budget (a patch's
                    // heights); short lists (a rectangle, a position) are ordinary values.
                    let converted = match item.get_type() {
                        T::INT if long => self
                            .count_number(1, path)
                            .map(|_| Value::from(item.to::<i64>())),
                        T::FLOAT if long => self
                            .count_number(1, path)
                            .and_then(|_| number(item.to::<f64>(), &format!("{path}[{i}]"))),
                        _ => self.value(&item, &format!("{path}[{i}]")),
                    };
                    out.push(converted?);
                }
                self.ancestors.pop();
                Value::Array(out)
            }
            T::DICTIONARY => {
                let d = v
                    .try_to::<AnyDictionary>()
                    .map_err(|e| format!("{path}: unreadable Dictionary ({e})"))?;
                self.enter(v, path)?;
                let mut m = Map::new();
                for (k, item) in d.iter_shared() {
                    let key = k.to_string();
                    let value = self.value(&item, &format!("{path}.{key}"))?;
                    m.insert(key, value);
                }
                self.ancestors.pop();
                Value::Object(m)
            }
            T::PACKED_FLOAT32_ARRAY => {
                let a = v.to::<PackedFloat32Array>();
                self.count_number(a.len(), path)?;
                numbers(a.as_slice().iter().map(|&x| x as f64), path)?
            }
            T::PACKED_FLOAT64_ARRAY => {
                let a = v.to::<PackedFloat64Array>();
                self.count_number(a.len(), path)?;
                numbers(a.as_slice().iter().copied(), path)?
            }
            T::PACKED_INT32_ARRAY => {
                let a = v.to::<PackedInt32Array>();
                self.count_number(a.len(), path)?;
                Value::Array(a.as_slice().iter().map(|&x| Value::from(x)).collect())
            }
            T::PACKED_INT64_ARRAY => {
                let a = v.to::<PackedInt64Array>();
                self.count_number(a.len(), path)?;
                Value::Array(a.as_slice().iter().map(|&x| Value::from(x)).collect())
            }
            T::PACKED_VECTOR2_ARRAY => {
                let a = v.to::<PackedVector2Array>();
                self.count(a.len() * 3, path)?;
                let points = a.as_slice().iter().enumerate().map(|(i, p)| {
                    let at = format!("{path}[{i}]");
                    Ok(Value::Array(vec![
                        number(p.x as f64, &at)?,
                        number(p.y as f64, &at)?,
                    ]))
                });
                Value::Array(points.collect::<Result<_, String>>()?)
            }
            T::PACKED_VECTOR3_ARRAY => {
                let a = v.to::<PackedVector3Array>();
                self.count(a.len() * 4, path)?;
                let points = a.as_slice().iter().enumerate().map(|(i, p)| {
                    let at = format!("{path}[{i}]");
                    Ok(Value::Array(vec![
                        number(p.x as f64, &at)?,
                        number(p.y as f64, &at)?,
                        number(p.z as f64, &at)?,
                    ]))
                });
                Value::Array(points.collect::<Result<_, String>>()?)
            }
            other => return Err(format!("{path}: a {other:?} cannot be part of a stroke")),
        })
    }

    /// Records entering the container `v`: refused when it is one of its own ancestors or the
    /// nesting is too deep.
    fn enter(&mut self, v: &Variant, path: &str) -> Result<(), String> {
        if self.ancestors.len() >= MAX_DEPTH {
            return Err(format!(
                "{path}: nested deeper than {MAX_DEPTH} Arrays/Dictionaries"
            ));
        }
        if self.ancestors.iter().any(|a| is_same(a, v)) {
            return Err(format!(
                "{path}: contains itself (an Array or Dictionary that holds itself cannot be converted)"
            ));
        }
        self.ancestors.push(v.clone());
        Ok(())
    }
}

/// Takes `n` from the budget `left` (of `limit` `what`), or says at `path` that it ran out.
fn spend(left: &mut usize, n: usize, path: &str, what: &str, limit: usize) -> Result<(), String> {
    *left = left
        .checked_sub(n)
        .ok_or_else(|| format!("{path}: too many {what} (more than {limit} in one call)"))?;
    Ok(())
}

fn number(x: f64, path: &str) -> Result<Value, String> {
    serde_json::Number::from_f64(x)
        .map(Value::Number)
        .ok_or_else(|| format!("{path}: must be a finite number, got {x}"))
}

fn numbers(values: impl Iterator<Item = f64>, path: &str) -> Result<Value, String> {
    values
        .enumerate()
        .map(|(i, x)| number(x, &format!("{path}[{i}]")))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
}
