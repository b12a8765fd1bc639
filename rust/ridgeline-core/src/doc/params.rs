//! Declarative parameter specs: one table per parameter set (a node type's params, a landform's
//! shape controls) gives each parameter's name, type, default, range, unit and one-line doc.
//! Reading ([`Params::read`]), validation messages, canonical JSON ([`Params::write`]) and the
//! documentation tables ([`ParamSpec::to_json`], [`ParamSpec::range_text`]) all come from it, so
//! a default or a range is written once.

pub use super::param_values::{ParamValue, Params, read_point_list};
use super::write::json_number;
use serde_json::{Map, Value, json};

/// What kind of value a parameter holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamType {
    /// A finite number. `single` values are stored at f32 precision (as the algorithms use
    /// them), so canonical JSON writes the f32 value.
    Number {
        /// Stored at f32 precision.
        single: bool,
    },
    /// A whole number (`Range::Within` bounds it; `Range::Any` means 0..=u64::MAX).
    Integer,
    /// `true` or `false`.
    Bool,
    /// One of the listed strings.
    Enum(&'static [&'static str]),
    /// One `[x, z]` pair.
    Point,
    /// A list of `[x, z]` points (`dims` 2) or `[x, y, z]` points (`dims` 3).
    PointList {
        /// Coordinates per point.
        dims: usize,
        /// Fewest points.
        min: usize,
        /// Most points (bounded work).
        max: usize,
    },
    /// RGBA, each 0..=1.
    Colour,
    /// Free text.
    String,
    /// A list of ids (strings).
    IdList,
    /// A list of objects, each read with the nested specs.
    Records(&'static [ParamSpec]),
}

impl ParamType {
    /// Name used in `ridgeline nodes`, the catalogue and the docs.
    pub fn name(&self) -> &'static str {
        match self {
            ParamType::Number { .. } => "number",
            ParamType::Integer => "integer",
            ParamType::Bool => "bool",
            ParamType::Enum(_) => "enum",
            ParamType::Point => "point",
            ParamType::PointList { .. } => "point list",
            ParamType::Colour => "colour",
            ParamType::String => "string",
            ParamType::IdList => "id list",
            ParamType::Records(_) => "list",
        }
    }
}

/// Which values a number or integer accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// Any finite value (integers: 0..=u64::MAX).
    Any,
    /// `lo..=hi`.
    Within(f64, f64),
    /// `> 0`.
    Positive,
    /// `≥ 0`.
    NonNegative,
    /// `-m..=m`.
    Magnitude(f64),
    /// `> 0` and `≤ hi`.
    PositiveUpTo(f64),
    /// `≥ 0` and `≤ hi`.
    NonNegativeUpTo(f64),
    /// `> 0` and `≤ m` (reported as "within ±m").
    PositiveMagnitude(f64),
    /// `≥ 0` and `≤ m` (reported as "within ±m").
    NonNegativeMagnitude(f64),
}

impl Range {
    /// The message for a rejected value, `None` when `x` is accepted.
    pub fn check(&self, x: f64) -> Option<String> {
        let within = |lo: f64, hi: f64| {
            (!(lo..=hi).contains(&x)).then(|| format!("must be {lo}..={hi}, got {x}"))
        };
        let positive = || (x <= 0.0 || x as f32 == 0.0).then(|| format!("must be > 0, got {x}"));
        let non_negative = || (x < 0.0).then(|| format!("must be ≥ 0, got {x}"));
        let magnitude = |m: f64| (x.abs() > m).then(|| format!("must be within ±{m}, got {x}"));
        match *self {
            Range::Any => None,
            Range::Within(lo, hi) => within(lo, hi),
            Range::Positive => positive(),
            Range::NonNegative => non_negative(),
            Range::Magnitude(m) => magnitude(m),
            Range::PositiveMagnitude(m) => positive().or_else(|| magnitude(m)),
            Range::NonNegativeMagnitude(m) => non_negative().or_else(|| magnitude(m)),
            Range::PositiveUpTo(hi) => positive().or_else(|| within(0.0, hi)),
            Range::NonNegativeUpTo(hi) => non_negative().or_else(|| within(0.0, hi)),
        }
    }

    /// Short text for docs (`0..=1`, `> 0`, `±1000000`); empty for [`Range::Any`].
    pub fn text(&self) -> String {
        match *self {
            Range::Any => String::new(),
            Range::Within(lo, hi) => format!("{lo}..={hi}"),
            Range::Positive => "> 0".into(),
            Range::NonNegative => "≥ 0".into(),
            Range::Magnitude(m) => format!("±{m}"),
            Range::PositiveUpTo(hi) => format!("> 0, ≤ {hi}"),
            Range::NonNegativeUpTo(hi) | Range::NonNegativeMagnitude(hi) => format!("0..={hi}"),
            Range::PositiveMagnitude(hi) => format!("> 0, ≤ {hi}"),
        }
    }

    /// Machine-readable bounds: `{ "min", "max", "min_exclusive" }` (absent bounds omitted).
    pub fn to_json(&self) -> Value {
        let (min, max, exclusive) = match *self {
            Range::Any => (None, None, false),
            Range::Within(lo, hi) => (Some(lo), Some(hi), false),
            Range::Positive => (Some(0.0), None, true),
            Range::NonNegative => (Some(0.0), None, false),
            Range::Magnitude(m) => (Some(-m), Some(m), false),
            Range::PositiveUpTo(hi) => (Some(0.0), Some(hi), true),
            Range::NonNegativeUpTo(hi) | Range::NonNegativeMagnitude(hi) => {
                (Some(0.0), Some(hi), false)
            }
            Range::PositiveMagnitude(hi) => (Some(0.0), Some(hi), true),
        };
        let mut m = Map::new();
        if let Some(v) = min {
            m.insert("min".into(), json_number(v));
        }
        if let Some(v) = max {
            m.insert("max".into(), json_number(v));
        }
        if exclusive {
            m.insert("min_exclusive".into(), Value::Bool(true));
        }
        Value::Object(m)
    }
}

/// A parameter's default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Initial {
    /// No default: absent means "not set" (what that means is in the doc line).
    Unset,
    /// A number.
    Number(f64),
    /// An integer.
    Integer(i64),
    /// A boolean.
    Bool(bool),
    /// A string or enum choice.
    Text(&'static str),
    /// One point.
    Point([f64; 2]),
    /// A point list.
    Points(&'static [[f64; 2]]),
    /// A colour.
    Colour([f64; 4]),
    /// An empty list.
    Empty,
}

/// One parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// JSON key.
    pub name: &'static str,
    /// Value type.
    pub ty: ParamType,
    /// Default when absent.
    pub default: Initial,
    /// Accepted values (numbers and integers).
    pub range: Range,
    /// Unit (`m`, `degrees`, …; empty when unitless).
    pub unit: &'static str,
    /// One-line description.
    pub doc: &'static str,
    /// Written to canonical JSON even at its default.
    pub always: bool,
    /// Must be present.
    pub required: bool,
    /// Read only while parameter `.0` has one of the values `.1` (a river's width on a Water
    /// Body whose `kind` is `river`); editors hide it otherwise. `None`: always read.
    pub applies_when: Option<(&'static str, &'static [&'static str])>,
}

impl ParamSpec {
    /// A number with a default and range.
    pub const fn number(name: &'static str, default: f64, range: Range) -> Self {
        Self {
            name,
            ty: ParamType::Number { single: false },
            default: Initial::Number(default),
            range,
            unit: "",
            doc: "",
            always: false,
            required: false,
            applies_when: None,
        }
    }
    /// A number stored at f32 precision.
    pub const fn single(name: &'static str, default: f64, range: Range) -> Self {
        Self {
            ty: ParamType::Number { single: true },
            ..Self::number(name, default, range)
        }
    }
    /// An integer in `lo..=hi`.
    pub const fn integer(name: &'static str, default: i64, lo: i64, hi: i64) -> Self {
        Self {
            ty: ParamType::Integer,
            default: Initial::Integer(default),
            range: Range::Within(lo as f64, hi as f64),
            ..Self::number(name, 0.0, Range::Any)
        }
    }
    /// A parameter of any other type.
    pub const fn of(name: &'static str, ty: ParamType, default: Initial) -> Self {
        Self {
            ty,
            default,
            ..Self::number(name, 0.0, Range::Any)
        }
    }
    /// With a unit.
    pub const fn unit(self, unit: &'static str) -> Self {
        Self { unit, ..self }
    }
    /// With a doc line.
    pub const fn doc(self, doc: &'static str) -> Self {
        Self { doc, ..self }
    }
    /// Written even at its default.
    pub const fn always(self) -> Self {
        Self {
            always: true,
            ..self
        }
    }
    /// Without a default: absent means "not set" (e.g. "keep the current value").
    pub const fn unset(self) -> Self {
        Self {
            default: Initial::Unset,
            ..self
        }
    }
    /// Read only while `param` has one of `values` (see [`ParamSpec::applies_when`]).
    pub const fn applies_when(self, param: &'static str, values: &'static [&'static str]) -> Self {
        Self {
            applies_when: Some((param, values)),
            ..self
        }
    }
    /// Must be present.
    pub const fn required(self) -> Self {
        Self {
            required: true,
            ..self
        }
    }

    /// The default as JSON (`null` when unset).
    pub fn default_json(&self) -> Value {
        match self.default {
            Initial::Unset => Value::Null,
            Initial::Number(x) => json_number(x),
            Initial::Integer(i) => Value::from(i),
            Initial::Bool(b) => Value::Bool(b),
            Initial::Text(s) => Value::from(s),
            Initial::Point(p) => json!([json_number(p[0]), json_number(p[1])]),
            Initial::Points(p) => super::write::json_points(p),
            Initial::Colour(c) => Value::Array(c.iter().map(|&v| json_number(v)).collect()),
            Initial::Empty => Value::Array(Vec::new()),
        }
    }

    /// Range text for docs (also enum choices and point-list limits).
    pub fn range_text(&self) -> String {
        match self.ty {
            ParamType::Enum(choices) => choices.join(" · "),
            ParamType::PointList { min, max, .. } => format!("{min}..={max} points"),
            ParamType::Colour => "0..=1 each".into(),
            ParamType::Integer if self.range == Range::Any => "0..=18446744073709551615".into(),
            _ => self.range.text(),
        }
    }

    /// The spec as JSON (for the catalogue and `ridgeline nodes --format json`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), Value::from(self.name));
        m.insert("type".into(), Value::from(self.ty.name()));
        m.insert("default".into(), self.default_json());
        let range = match self.ty {
            ParamType::Number { .. } | ParamType::Integer => self.range.to_json(),
            ParamType::PointList { min, max, .. } => json!({ "min": min, "max": max }),
            ParamType::Colour => json!({ "min": 0, "max": 1 }),
            _ => Value::Object(Map::new()),
        };
        m.insert("range".into(), range);
        m.insert("unit".into(), Value::from(self.unit));
        m.insert("doc".into(), Value::from(self.doc));
        if let ParamType::Enum(choices) = self.ty {
            m.insert("choices".into(), json!(choices));
        }
        if let ParamType::PointList { dims, .. } = self.ty {
            m.insert("dims".into(), Value::from(dims));
        }
        if let ParamType::Records(fields) = self.ty {
            m.insert(
                "fields".into(),
                Value::Array(fields.iter().map(ParamSpec::to_json).collect()),
            );
        }
        if self.required {
            m.insert("required".into(), Value::Bool(true));
        }
        if let Some((param, values)) = self.applies_when {
            m.insert(
                "applies_when".into(),
                json!({ "param": param, "values": values }),
            );
        }
        Value::Object(m)
    }
}
