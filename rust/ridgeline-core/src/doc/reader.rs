//! Reading JSON values with located diagnostics: every problem names its path, and reading
//! continues past errors so all of them are reported at once.

use crate::error::Diagnostics;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Path of an object member: `a.b`.
pub fn member(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Path of a map entry: `a["name"]`. The key is the user's text: quotes, backslashes and control
/// characters are escaped (a message stays one line) and a key longer than 40 characters is
/// cut there with `…`, so a hostile 5000-character name does not flood the Output panel.
pub fn entry(path: &str, key: &str) -> String {
    let shown: String = key.chars().take(40).collect();
    let more = if shown.len() < key.len() { "…" } else { "" };
    format!("{path}[\"{}{more}\"]", shown.escape_debug())
}

/// Path of an array element: `a[3]`.
pub fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// JSON type name for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads the members of one JSON object, remembering which were read so unknown members can be
/// reported by [`ObjectReader::finish`].
pub struct ObjectReader<'v> {
    path: String,
    map: Option<&'v Map<String, Value>>,
    seen: BTreeSet<&'static str>,
}

impl<'v> ObjectReader<'v> {
    /// Starts reading `value` at `path`; a non-object is reported and reads as empty.
    pub fn new(path: impl Into<String>, value: &'v Value, d: &mut Diagnostics) -> Self {
        let path = path.into();
        let map = match value {
            Value::Object(m) => Some(m),
            other => {
                d.push(
                    &path,
                    format!("must be an object, got {}", type_name(other)),
                );
                None
            }
        };
        Self {
            path,
            map,
            seen: BTreeSet::new(),
        }
    }

    /// This object's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Path of member `key`.
    pub fn at(&self, key: &str) -> String {
        member(&self.path, key)
    }

    /// The raw member, marking it as known.
    pub fn raw(&mut self, key: &'static str) -> Option<&'v Value> {
        self.seen.insert(key);
        self.map.and_then(|m| m.get(key))
    }

    /// True when the member is present.
    pub fn has(&self, key: &str) -> bool {
        self.map.is_some_and(|m| m.contains_key(key))
    }

    /// A finite number; `default` when absent; `check` may reject it with a message.
    pub fn f64(
        &mut self,
        d: &mut Diagnostics,
        key: &'static str,
        default: f64,
        check: impl Fn(f64) -> Option<String>,
    ) -> f64 {
        match self.raw(key) {
            None => default,
            Some(v) => match number(v) {
                Some(x) => {
                    if let Some(msg) = check(x) {
                        d.push(self.at(key), msg);
                        default
                    } else {
                        x
                    }
                }
                None => {
                    d.push(
                        self.at(key),
                        format!("must be a number, got {}", type_name(v)),
                    );
                    default
                }
            },
        }
    }

    /// An integer in `range`; `default` when absent.
    pub fn int(
        &mut self,
        d: &mut Diagnostics,
        key: &'static str,
        default: i64,
        range: std::ops::RangeInclusive<i64>,
    ) -> i64 {
        match self.raw(key) {
            None => default,
            Some(v) => match whole_i64(v) {
                Some(x) if range.contains(&x) => x,
                Some(x) => {
                    d.push(
                        self.at(key),
                        format!("must be {}..={}, got {x}", range.start(), range.end()),
                    );
                    default
                }
                None => {
                    d.push(self.at(key), not_whole("a whole number", v));
                    default
                }
            },
        }
    }

    /// An unsigned 64-bit integer; `default` when absent.
    pub fn u64(&mut self, d: &mut Diagnostics, key: &'static str, default: u64) -> u64 {
        match self.raw(key) {
            None => default,
            Some(v) => whole_u64(v).unwrap_or_else(|| {
                d.push(
                    self.at(key),
                    not_whole("a whole number 0..=18446744073709551615", v),
                );
                default
            }),
        }
    }

    /// A boolean; `default` when absent.
    pub fn bool(&mut self, d: &mut Diagnostics, key: &'static str, default: bool) -> bool {
        match self.raw(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                d.push(
                    self.at(key),
                    format!("must be true or false, got {}", type_name(v)),
                );
                default
            }
        }
    }

    /// A string, if present.
    pub fn opt_str(&mut self, d: &mut Diagnostics, key: &'static str) -> Option<String> {
        match self.raw(key)? {
            Value::String(s) => Some(s.clone()),
            v => {
                d.push(
                    self.at(key),
                    format!("must be a string, got {}", type_name(v)),
                );
                None
            }
        }
    }

    /// A fixed-length array of finite numbers.
    pub fn numbers<const N: usize>(
        &mut self,
        d: &mut Diagnostics,
        key: &'static str,
        default: [f64; N],
    ) -> [f64; N] {
        match self.raw(key) {
            None => default,
            Some(v) => read_numbers(&self.at(key), v, d).unwrap_or(default),
        }
    }

    /// Reports every member that was never read.
    pub fn finish(self, d: &mut Diagnostics) {
        if let Some(m) = self.map {
            for key in m.keys() {
                if !self.seen.contains(key.as_str()) {
                    let known: Vec<_> = self.seen.iter().copied().collect();
                    d.push(
                        member(&self.path, key),
                        format!("unknown field; known fields here are: {}", known.join(", ")),
                    );
                }
            }
        }
    }
}

/// A check that accepts finite values ≥ 0.
pub fn non_negative(x: f64) -> Option<String> {
    (x < 0.0).then(|| format!("must be ≥ 0, got {x}"))
}

/// A check that accepts values > 0 (and still > 0 once stored as `f32`).
pub fn positive(x: f64) -> Option<String> {
    (x <= 0.0 || x as f32 == 0.0).then(|| format!("must be > 0, got {x}"))
}

/// A check for `lo..=hi`.
pub fn within(lo: f64, hi: f64) -> impl Fn(f64) -> Option<String> {
    move |x| (!(lo..=hi).contains(&x)).then(|| format!("must be {lo}..={hi}, got {x}"))
}

/// The largest magnitude below which every whole number is exactly a JSON float (2^53).
const EXACT_FLOAT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// A whole number from a JSON value: an integer, or a float without a fraction (`7.0`, as
/// Godot's `JSON.stringify` writes every number `JSON.parse_string` read) whose magnitude is
/// at most 2^53, below which floats hold every whole number exactly. Larger floats are refused:
/// they may already have been rounded from another integer (a 64-bit seed through a float).
pub fn whole_i64(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|x| x.fract() == 0.0 && x.abs() <= EXACT_FLOAT_INTEGERS)
            .map(|x| x as i64)
    })
}

/// The message for `v` where a whole number is expected (`what`: "a whole number", "a whole
/// number 0..=…"): a float without fraction beyond 2^53 says why it is refused.
pub fn not_whole(what: &str, v: &Value) -> String {
    let rounded = v.is_f64()
        && v.as_f64()
            .is_some_and(|x| x.fract() == 0.0 && x.abs() > EXACT_FLOAT_INTEGERS);
    let why = if rounded {
        " (a float this large may already have been rounded from another integer: write it as an \
         integer, not as a float)"
    } else {
        ""
    };
    format!("must be {what}, got {}{why}", show(v))
}

/// [`whole_i64`] for whole numbers ≥ 0 (all of `u64` as integers).
pub fn whole_u64(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|x| x.fract() == 0.0 && (0.0..=EXACT_FLOAT_INTEGERS).contains(x))
            .map(|x| x as u64)
    })
}

/// A finite number from a JSON value.
pub fn number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite())
}

/// A short rendering of a value for messages: at most 40 characters (cut at a character
/// boundary, never inside a multi-byte character), then `…`.
pub fn show(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s,
    }
}

/// A fixed-length array of finite numbers at `path`.
pub fn read_numbers<const N: usize>(
    path: &str,
    v: &Value,
    d: &mut Diagnostics,
) -> Option<[f64; N]> {
    let Some(arr) = v.as_array().filter(|a| a.len() == N) else {
        d.push(
            path,
            format!("must be an array of {N} numbers, got {}", show(v)),
        );
        return None;
    };
    let mut out = [0.0; N];
    for (i, x) in arr.iter().enumerate() {
        match number(x) {
            Some(n) => out[i] = n,
            None => {
                d.push(
                    index(path, i),
                    format!("must be a finite number, got {}", show(x)),
                );
                return None;
            }
        }
    }
    Some(out)
}

/// A list of `[x, z]` points (finite, within f32 range) with at least `min` entries.
pub fn read_points(
    path: &str,
    v: &Value,
    min: usize,
    d: &mut Diagnostics,
) -> Option<Vec<[f64; 2]>> {
    let Some(arr) = v.as_array() else {
        d.push(
            path,
            format!("must be an array of [x, z] pairs, got {}", type_name(v)),
        );
        return None;
    };
    if arr.len() < min {
        d.push(
            path,
            format!("needs at least {min} points, got {}", arr.len()),
        );
        return None;
    }
    // Every point is read (and every bad one reported) before the list is given up.
    let points: Vec<_> = arr
        .iter()
        .enumerate()
        .map(|(i, p)| read_point::<2>(&index(path, i), p, d))
        .collect();
    points.into_iter().collect()
}

/// One point of a point list at `path`: `N` finite numbers, each within the f32 range.
pub fn read_point<const N: usize>(path: &str, v: &Value, d: &mut Diagnostics) -> Option<[f64; N]> {
    let coords = read_numbers::<N>(path, v, d)?;
    if coords.iter().all(|c| c.abs() <= f32::MAX as f64) {
        Some(coords)
    } else {
        d.push(path, "coordinates must fit the f32 range");
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_every_problem_with_its_path() {
        let v = json!({"a": "x", "b": 3.5, "c": [1, "z"], "zzz": 1});
        let mut d = Diagnostics::default();
        let mut r = ObjectReader::new("root", &v, &mut d);
        let a = r.f64(&mut d, "a", 1.0, |_| None);
        let b = r.int(&mut d, "b", 2, 0..=10);
        let c = r.numbers::<2>(&mut d, "c", [0.0, 0.0]);
        r.finish(&mut d);
        assert_eq!((a, b, c), (1.0, 2, [0.0, 0.0]));
        let msgs: Vec<String> = d.0.iter().map(|x| x.to_string()).collect();
        assert_eq!(msgs[0], "root.a: must be a number, got a string");
        assert_eq!(msgs[1], "root.b: must be a whole number, got 3.5");
        assert_eq!(msgs[2], "root.c[1]: must be a finite number, got \"z\"");
        assert!(msgs[3].starts_with("root.zzz: unknown field; known fields here are: a, b, c"));
    }

    #[test]
    fn entry_paths_escape_and_shorten_the_users_key() {
        assert_eq!(entry("biomes", "alpine"), "biomes[\"alpine\"]");
        assert_eq!(entry("biomes", "ä b"), "biomes[\"ä b\"]");
        assert_eq!(entry("b", "a\"b\nc"), "b[\"a\\\"b\\nc\"]");
        let long = "x".repeat(5000);
        assert_eq!(entry("b", &long), format!("b[\"{}…\"]", "x".repeat(40)));
        assert_eq!(
            entry("b", &"ä".repeat(40)),
            format!("b[\"{}\"]", "ä".repeat(40))
        );
    }

    #[test]
    fn whole_numbers_are_integers_or_floats_without_fraction() {
        for (v, i, u) in [
            (json!(7), Some(7), Some(7)),
            (json!(7.0), Some(7), Some(7)),
            (json!(-3.0), Some(-3), None),
            (json!(0.0), Some(0), Some(0)),
            (
                json!(9_007_199_254_740_992.0_f64),
                Some(1 << 53),
                Some(1 << 53),
            ),
            (json!(u64::MAX), None, Some(u64::MAX)),
            (json!(3.5), None, None),
            (json!(1.8446744073709552e19), None, None),
            (json!(-1.0e300), None, None),
            (json!("7"), None, None),
            (json!(true), None, None),
        ] {
            assert_eq!((whole_i64(&v), whole_u64(&v)), (i, u), "{v}");
        }
    }

    #[test]
    fn long_multibyte_values_are_shortened_at_character_boundaries() {
        // Issue 11: `{"seed": "ääää…"}` panicked slicing through a two-byte character.
        for c in ["ä", "€", "𝄞", "aä"] {
            let v = Value::from(c.repeat(60));
            let s = show(&v);
            assert!(s.ends_with('…'), "{s}");
            assert_eq!(s.chars().count(), 41, "{s}");
        }
        assert_eq!(show(&json!("short")), "\"short\"");
        let exactly = Value::from("x".repeat(38));
        assert_eq!(
            show(&exactly).chars().count(),
            40,
            "40 characters are shown whole"
        );
    }
}
