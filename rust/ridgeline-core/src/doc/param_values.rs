//! Parameter values read with a spec ([`Params::read`]): located validation messages from the
//! spec's type and range, defaults for what is absent, canonical JSON ([`Params::write`]) that
//! omits defaults, and typed accessors for node builders. The specs themselves are in
//! [`super::params`].

use super::params::{Initial, ParamSpec, ParamType, Range};
use super::reader::{
    ObjectReader, index, not_whole, number, read_numbers, read_point, type_name, whole_i64,
    whole_u64,
};
use super::write::json_number;
use crate::error::Diagnostics;
use serde_json::{Map, Value, json};

/// A parameter value as read.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// Absent without a default, or unreadable.
    Unset,
    /// A number (f32-rounded for single-precision params).
    Number(f64),
    /// An integer.
    Integer(i64),
    /// An integer beyond i64 (0..=u64::MAX params).
    Unsigned(u64),
    /// A boolean.
    Bool(bool),
    /// A string or enum choice.
    Text(String),
    /// One point.
    Point([f64; 2]),
    /// Points (each `dims` long).
    Points(Vec<Vec<f64>>),
    /// A colour.
    Colour([f64; 4]),
    /// Ids.
    Ids(Vec<String>),
    /// Nested records.
    Records(Vec<Params>),
}

/// Values read with a spec, in spec order.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    entries: Vec<(ParamSpec, ParamValue, bool)>,
}

fn default_value(spec: &ParamSpec) -> ParamValue {
    match spec.default {
        Initial::Unset => ParamValue::Unset,
        Initial::Number(x) => ParamValue::Number(round(spec, x)),
        Initial::Integer(i) if spec.range == Range::Any => ParamValue::Unsigned(i as u64),
        Initial::Integer(i) => ParamValue::Integer(i),
        Initial::Bool(b) => ParamValue::Bool(b),
        Initial::Text(s) => ParamValue::Text(s.to_string()),
        Initial::Point(p) => ParamValue::Point(p),
        Initial::Points(p) => ParamValue::Points(p.iter().map(|q| q.to_vec()).collect()),
        Initial::Colour(c) => ParamValue::Colour(c),
        Initial::Empty => match spec.ty {
            ParamType::IdList => ParamValue::Ids(Vec::new()),
            ParamType::Records(_) => ParamValue::Records(Vec::new()),
            _ => ParamValue::Points(Vec::new()),
        },
    }
}

fn round(spec: &ParamSpec, x: f64) -> f64 {
    match spec.ty {
        ParamType::Number { single: true } => x as f32 as f64,
        _ => x,
    }
}

/// `"a", "b" or "c"`.
fn choice_list(choices: &[&str]) -> String {
    let quoted: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

impl Params {
    /// Reads `value` (an object) at `path` with the specs of `groups`, reporting type and range
    /// problems and unknown members. Unreadable values fall back to their defaults.
    pub fn read(groups: &[&[ParamSpec]], value: &Value, path: &str, d: &mut Diagnostics) -> Params {
        let mut r = ObjectReader::new(path, value, d);
        let p = Self::read_members(groups, &mut r, d);
        r.finish(d);
        p
    }

    /// Reads the members of `groups` from an open reader (other members are left to the
    /// caller, who finishes the reader).
    pub fn read_members(
        groups: &[&[ParamSpec]],
        r: &mut ObjectReader,
        d: &mut Diagnostics,
    ) -> Params {
        let mut entries = Vec::new();
        for spec in groups.iter().flat_map(|g| g.iter()) {
            let present = r.has(spec.name);
            let v = read_one(spec, r, d);
            entries.push((*spec, v, present));
        }
        Params { entries }
    }

    fn get(&self, name: &str) -> Option<&(ParamSpec, ParamValue, bool)> {
        let e = self.entries.iter().find(|(s, _, _)| s.name == name);
        debug_assert!(e.is_some(), "parameter `{name}` is not in the spec");
        e
    }

    /// Whether `name` was present in the document.
    pub fn present(&self, name: &str) -> bool {
        self.get(name).is_some_and(|e| e.2)
    }

    /// A number parameter.
    pub fn number(&self, name: &str) -> f64 {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Number(x)) => *x,
            _ => 0.0,
        }
    }

    /// A number parameter at f32 precision.
    pub fn single(&self, name: &str) -> f32 {
        self.number(name) as f32
    }

    /// A number parameter, `None` when unset.
    pub fn opt_number(&self, name: &str) -> Option<f64> {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Number(x)) => Some(*x),
            _ => None,
        }
    }

    /// An integer parameter.
    pub fn integer(&self, name: &str) -> i64 {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Integer(i)) => *i,
            Some(ParamValue::Unsigned(u)) => *u as i64,
            _ => 0,
        }
    }

    /// An unsigned 64-bit integer parameter.
    pub fn unsigned(&self, name: &str) -> u64 {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Integer(i)) => *i as u64,
            Some(ParamValue::Unsigned(u)) => *u,
            _ => 0,
        }
    }

    /// A boolean parameter.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name).map(|e| &e.1), Some(ParamValue::Bool(true)))
    }

    /// A string or enum parameter, `None` when unset.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Text(s)) => Some(s),
            _ => None,
        }
    }

    /// A point parameter.
    pub fn point(&self, name: &str) -> [f64; 2] {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Point(p)) => *p,
            _ => [0.0, 0.0],
        }
    }

    /// A 2-D point list, `None` when unset or unreadable.
    pub fn points2(&self, name: &str) -> Option<Vec<[f64; 2]>> {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Points(p)) => Some(p.iter().map(|q| [q[0], q[1]]).collect()),
            _ => None,
        }
    }

    /// A 3-D point list, `None` when unset or unreadable.
    pub fn points3(&self, name: &str) -> Option<Vec<[f64; 3]>> {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Points(p)) => Some(p.iter().map(|q| [q[0], q[1], q[2]]).collect()),
            _ => None,
        }
    }

    /// A colour parameter.
    pub fn colour(&self, name: &str) -> [f64; 4] {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Colour(c)) => *c,
            _ => [0.0; 4],
        }
    }

    /// An id-list parameter.
    pub fn ids(&self, name: &str) -> &[String] {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Ids(v)) => v,
            _ => &[],
        }
    }

    /// A record-list parameter.
    pub fn records(&self, name: &str) -> &[Params] {
        match self.get(name).map(|e| &e.1) {
            Some(ParamValue::Records(v)) => v,
            _ => &[],
        }
    }

    /// Canonical JSON members: every value that differs from its default (or is marked
    /// `always`, or has no default and was set).
    pub fn write(&self, m: &mut Map<String, Value>) {
        for (spec, value, _) in &self.entries {
            if *value == ParamValue::Unset || (!spec.always && *value == default_value(spec)) {
                continue;
            }
            m.insert(spec.name.into(), value_json(value));
        }
    }

    /// Canonical JSON object.
    pub fn to_map(&self) -> Map<String, Value> {
        let mut m = Map::new();
        self.write(&mut m);
        m
    }

    /// Replaces the value of `name` (used when a typed value is written back, e.g. a landform's
    /// shape controls).
    pub fn set(&mut self, name: &str, value: ParamValue) {
        if let Some(e) = self.entries.iter_mut().find(|(s, _, _)| s.name == name) {
            e.1 = value;
            e.2 = true;
        }
    }

    /// Defaults for every spec of `groups`.
    pub fn defaults(groups: &[&[ParamSpec]]) -> Params {
        Params {
            entries: groups
                .iter()
                .flat_map(|g| g.iter())
                .map(|s| (*s, default_value(s), false))
                .collect(),
        }
    }
}

fn value_json(v: &ParamValue) -> Value {
    match v {
        ParamValue::Unset => Value::Null,
        ParamValue::Number(x) => json_number(*x),
        ParamValue::Integer(i) => Value::from(*i),
        ParamValue::Unsigned(u) => Value::from(*u),
        ParamValue::Bool(b) => Value::Bool(*b),
        ParamValue::Text(s) => Value::from(s.clone()),
        ParamValue::Point(p) => json!([json_number(p[0]), json_number(p[1])]),
        ParamValue::Points(p) => Value::Array(
            p.iter()
                .map(|q| Value::Array(q.iter().map(|&c| json_number(c)).collect()))
                .collect(),
        ),
        ParamValue::Colour(c) => Value::Array(c.iter().map(|&x| json_number(x)).collect()),
        ParamValue::Ids(ids) => Value::Array(ids.iter().map(|s| Value::from(s.clone())).collect()),
        ParamValue::Records(rs) => {
            Value::Array(rs.iter().map(|r| Value::Object(r.to_map())).collect())
        }
    }
}

fn read_one(spec: &ParamSpec, r: &mut ObjectReader, d: &mut Diagnostics) -> ParamValue {
    let key = spec.name;
    let Some(v) = r.raw(key) else {
        if spec.required {
            d.push(r.at(key), "is required");
        }
        return default_value(spec);
    };
    let at = r.at(key);
    let fallback = default_value(spec);
    match spec.ty {
        ParamType::Number { .. } => match number(v) {
            Some(x) => match spec.range.check(x) {
                Some(msg) => {
                    d.push(at, msg);
                    fallback
                }
                None => ParamValue::Number(round(spec, x)),
            },
            None => {
                d.push(at, format!("must be a number, got {}", type_name(v)));
                fallback
            }
        },
        ParamType::Integer => match spec.range {
            Range::Any => match whole_u64(v) {
                Some(u) => ParamValue::Unsigned(u),
                None => {
                    d.push(at, not_whole("a whole number 0..=18446744073709551615", v));
                    fallback
                }
            },
            range => match whole_i64(v) {
                Some(i) => match range.check(i as f64) {
                    Some(_) => {
                        let (lo, hi) = match range {
                            Range::Within(lo, hi) => (lo as i64, hi as i64),
                            _ => (i64::MIN, i64::MAX),
                        };
                        d.push(at, format!("must be {lo}..={hi}, got {i}"));
                        fallback
                    }
                    None => ParamValue::Integer(i),
                },
                None => {
                    d.push(at, not_whole("a whole number", v));
                    fallback
                }
            },
        },
        ParamType::Bool => match v {
            Value::Bool(b) => ParamValue::Bool(*b),
            other => {
                d.push(
                    at,
                    format!("must be true or false, got {}", type_name(other)),
                );
                fallback
            }
        },
        ParamType::Enum(choices) => match v {
            Value::String(s) if choices.contains(&s.as_str()) => ParamValue::Text(s.clone()),
            Value::String(s) => {
                d.push(at, format!("must be {}, got \"{s}\"", choice_list(choices)));
                fallback
            }
            other => {
                d.push(at, format!("must be a string, got {}", type_name(other)));
                fallback
            }
        },
        ParamType::String => match v {
            Value::String(s) => ParamValue::Text(s.clone()),
            other => {
                d.push(at, format!("must be a string, got {}", type_name(other)));
                fallback
            }
        },
        ParamType::Point => match read_numbers::<2>(&at, v, d) {
            Some(p) => ParamValue::Point(p),
            None => fallback,
        },
        ParamType::Colour => match read_numbers::<4>(&at, v, d) {
            Some(c) => {
                for (i, x) in c.iter().enumerate() {
                    if !(0.0..=1.0).contains(x) {
                        d.push(index(&at, i), format!("must be 0..=1, got {x}"));
                    }
                }
                ParamValue::Colour(c)
            }
            None => fallback,
        },
        ParamType::PointList { dims, min, max } => read_point_list(&at, v, dims, min, max, d)
            .map(ParamValue::Points)
            .unwrap_or(ParamValue::Unset),
        ParamType::IdList => match v.as_array() {
            Some(items) => {
                let mut ids = Vec::new();
                for (i, x) in items.iter().enumerate() {
                    match x.as_str() {
                        Some(s) => ids.push(s.to_string()),
                        None => d.push(
                            index(&at, i),
                            format!("must be an id string, got {}", type_name(x)),
                        ),
                    }
                }
                ParamValue::Ids(ids)
            }
            None => {
                d.push(at, format!("must be an array of ids, got {}", type_name(v)));
                fallback
            }
        },
        ParamType::Records(fields) => match v.as_array() {
            Some(items) => ParamValue::Records(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| Params::read(&[fields], item, &index(&at, i), d))
                    .collect(),
            ),
            None => {
                d.push(at, format!("must be an array, got {}", type_name(v)));
                fallback
            }
        },
    }
}

/// A list of `[x, z]` (`dims` 2) or `[x, y, z]` (`dims` 3) points, finite and within the f32
/// range, with `min..=max` entries.
pub fn read_point_list(
    path: &str,
    v: &Value,
    dims: usize,
    min: usize,
    max: usize,
    d: &mut Diagnostics,
) -> Option<Vec<Vec<f64>>> {
    let shape = if dims == 3 { "[x, y, z]" } else { "[x, z]" };
    let Some(arr) = v.as_array() else {
        let what = if dims == 3 {
            "[x, y, z]"
        } else {
            "[x, z] pairs"
        };
        d.push(
            path,
            format!("must be an array of {what}, got {}", type_name(v)),
        );
        return None;
    };
    if arr.len() < min {
        if dims == 3 {
            d.push(path, format!("needs at least {min} {shape} points"));
        } else {
            d.push(
                path,
                format!("needs at least {min} points, got {}", arr.len()),
            );
        }
        return None;
    }
    if arr.len() > max {
        d.push(
            path,
            format!(
                "has {} points; the limit is {max} (it bounds the work per generation)",
                arr.len()
            ),
        );
        return None;
    }
    // Every point is read (and every bad one reported) before the list is given up.
    let points: Vec<_> = arr
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let at = index(path, i);
            if dims == 3 {
                read_point::<3>(&at, p, d).map(|c| c.to_vec())
            } else {
                read_point::<2>(&at, p, d).map(|c| c.to_vec())
            }
        })
        .collect();
    points.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec::number("a", 1.0, Range::Within(0.0, 2.0)),
        ParamSpec::single("b", 0.05, Range::Positive),
        ParamSpec::integer("n", 3, 1, 8),
        ParamSpec::of("k", ParamType::Enum(&["x", "y", "z"]), Initial::Text("x")),
    ];

    #[test]
    fn defaults_are_omitted_and_messages_come_from_the_spec() {
        let mut d = Diagnostics::default();
        let p = Params::read(&[SPECS], &json!({"a": 1, "b": 0.05, "n": 4}), "p", &mut d);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(Value::Object(p.to_map()), json!({"n": 4}));
        let mut d = Diagnostics::default();
        Params::read(
            &[SPECS],
            &json!({"a": 3, "n": 0, "k": "w", "q": 1}),
            "p",
            &mut d,
        );
        let msgs: Vec<String> = d.0.iter().map(|x| x.to_string()).collect();
        assert_eq!(msgs[0], "p.a: must be 0..=2, got 3");
        assert_eq!(msgs[1], "p.n: must be 1..=8, got 0");
        assert_eq!(msgs[2], "p.k: must be \"x\", \"y\" or \"z\", got \"w\"");
        assert!(msgs[3].starts_with("p.q: unknown field"), "{msgs:?}");
    }

    #[test]
    fn point_lists_are_bounded() {
        let mut d = Diagnostics::default();
        let v = Value::Array((0..5).map(|i| json!([i, i])).collect());
        assert!(read_point_list("p", &v, 2, 2, 4, &mut d).is_none());
        assert_eq!(
            d.0[0].to_string(),
            "p: has 5 points; the limit is 4 (it bounds the work per generation)"
        );
    }
}
