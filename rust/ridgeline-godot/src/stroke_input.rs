//! Converting GDScript values to the JSON the core reads (strokes passed as Dictionaries).

use godot::prelude::*;
use serde_json::{Map, Value};

/// Converts a Variant to JSON. Vectors become arrays (`Vector2(x, y)` → `[x, y]`,
/// `Vector3(x, y, z)` → `[x, y, z]`), packed arrays become arrays, `StringName`s strings.
/// Anything else (objects, RIDs, …) is an error naming where it was found.
pub fn to_json(v: &Variant, path: &str) -> Result<Value, String> {
    use godot::builtin::VariantType as T;
    let num = |x: f64| {
        serde_json::Number::from_f64(x)
            .map(Value::Number)
            .ok_or_else(|| format!("{path}: must be a finite number, got {x}"))
    };
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
            let a = v.to::<VarArray>();
            let mut out = Vec::with_capacity(a.len());
            for (i, item) in a.iter_shared().enumerate() {
                out.push(to_json(&item, &format!("{path}[{i}]"))?);
            }
            Value::Array(out)
        }
        T::PACKED_FLOAT32_ARRAY => Value::Array(
            v.to::<PackedFloat32Array>()
                .as_slice()
                .iter()
                .map(|&x| num(x as f64))
                .collect::<Result<_, _>>()?,
        ),
        T::PACKED_FLOAT64_ARRAY => Value::Array(
            v.to::<PackedFloat64Array>()
                .as_slice()
                .iter()
                .map(|&x| num(x))
                .collect::<Result<_, _>>()?,
        ),
        T::PACKED_VECTOR2_ARRAY => Value::Array(
            v.to::<PackedVector2Array>()
                .as_slice()
                .iter()
                .map(|p| Ok(Value::Array(vec![num(p.x as f64)?, num(p.y as f64)?])))
                .collect::<Result<_, String>>()?,
        ),
        T::DICTIONARY => {
            let d = v.to::<VarDictionary>();
            let mut m = Map::new();
            for (k, item) in d.iter_shared() {
                let key = k.to_string();
                let value = to_json(&item, &format!("{path}.{key}"))?;
                m.insert(key, value);
            }
            Value::Object(m)
        }
        other => return Err(format!("{path}: a {other:?} cannot be part of a stroke")),
    })
}
