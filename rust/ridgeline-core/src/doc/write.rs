//! Writing canonical JSON values: integers stay integers, defaults are omitted.

use serde_json::{Map, Value};

/// Inserts `key: value` unless it equals `default`.
pub fn put_f64(m: &mut Map<String, Value>, key: &str, value: f64, default: Option<f64>) {
    if default != Some(value) {
        m.insert(key.into(), json_number(value));
    }
}

/// A JSON number, written as an integer when it is one (so `20` stays `20`).
pub fn json_number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

/// `[[x, z], …]` as JSON.
pub fn json_points(points: &[[f64; 2]]) -> Value {
    Value::Array(
        points
            .iter()
            .map(|p| Value::Array(vec![json_number(p[0]), json_number(p[1])]))
            .collect(),
    )
}
