//! Strict JSON reading: like `serde_json::from_str::<Value>`, but an object that repeats a key is
//! an error naming the key, its JSON path and its line and column — serde_json would silently keep
//! the last value (a second `"recipe": {}` would replace a whole recipe).
//!
//! Nesting is bounded by serde_json's recursion limit (128 levels), so deep input is an error,
//! never a stack overflow.

use crate::error::{Error, Result};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// Where a value sits, built on the stack while reading (formatted only for an error).
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(parent, key) => {
                if matches!(parent, Path::Root) {
                    write!(f, "{key}")
                } else {
                    write!(f, "{parent}.{key}")
                }
            }
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// Reads one value at `path`, refusing duplicate keys in every object below it.
#[derive(Clone, Copy)]
struct Strict<'a>(Path<'a>);

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // As serde_json's own `Value`: a non-finite number cannot come from JSON text.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        loop {
            let here = Path::Index(&self.0, out.len());
            match seq.next_element_seed(Strict(here))? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(duplicate(&self.0, &key));
            }
            let value = map.next_value_seed(Strict(Path::Key(&self.0, &key)))?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// Walks one value at `path` without building it, refusing duplicate keys (for documents that
/// are then read by a typed deserializer).
#[derive(Clone, Copy)]
struct Check<'a>(Path<'a>);

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while seq
            .next_element_seed(Check(Path::Index(&self.0, i)))?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = std::collections::BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if keys.contains(&key) {
                return Err(duplicate(&self.0, &key));
            }
            map.next_value_seed(Check(Path::Key(&self.0, &key)))?;
            keys.insert(key);
        }
        Ok(())
    }
}

fn duplicate<E: de::Error>(at: &Path, key: &str) -> E {
    let what = match at {
        Path::Root => "the top-level object".to_string(),
        p => format!("`{p}`"),
    };
    E::custom(format!(
        "duplicate key \"{key}\" in {what} (at `{}`): each key may appear once; remove or rename one",
        Path::Key(at, key)
    ))
}

fn located(e: serde_json::Error, source: &str) -> Error {
    Error::invalid(
        format!("{source}:{}:{}", e.line(), e.column()),
        format!("invalid JSON: {e}"),
    )
}

/// Parses JSON text strictly (see the module docs); the raw serde_json error keeps the line and
/// column.
pub fn from_str(text: &str) -> std::result::Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Strict(Path::Root).deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// [`from_str`] on bytes (which must be UTF-8 JSON).
pub fn from_slice(bytes: &[u8]) -> std::result::Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let v = Strict(Path::Root).deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Parses JSON text strictly; errors are located at `source:line:column` and say what is wrong
/// (for a repeated key: which key and its JSON path).
pub fn parse(text: &str, source: &str) -> Result<Value> {
    from_str(text).map_err(|e| located(e, source))
}

/// Checks that `text` is one JSON value without repeated keys, building nothing (for documents a
/// typed deserializer reads next); errors as [`parse`].
pub fn check(text: &str, source: &str) -> Result<()> {
    let mut de = serde_json::Deserializer::from_str(text);
    Check(Path::Root)
        .deserialize(&mut de)
        .and_then(|()| de.end())
        .map_err(|e| located(e, source))
}

/// [`parse`] on bytes.
pub fn parse_slice(bytes: &[u8], source: &str) -> Result<Value> {
    from_slice(bytes).map_err(|e| located(e, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"a": [1, -2, 3.5, 1e300, 18446744073709551615, -9223372036854775808], "b": {"c": null, "d": true}, "e": "ä\u00e4\n"}"#,
            "[]",
            "{}",
            "  12  ",
            r#""x""#,
        ] {
            let ours = from_str(text).unwrap();
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
            assert_eq!(from_slice(text.as_bytes()).unwrap(), theirs);
        }
    }

    #[test]
    fn numbers_are_read_correctly_rounded_so_canonical_json_is_stable() {
        // Found by the recipe fuzz target: without correctly rounded parsing, `1e-45` read back
        // as 1.0000000000000001e-45 and canonical JSON changed on every save.
        for text in [
            "1e-45",
            "5e-324",
            "0.1",
            "1.0000000000000001e-45",
            "2.2250738585072014e-308",
            "9007199254740993.0",
        ] {
            let v = from_str(text).unwrap();
            assert_eq!(v.as_f64(), text.parse::<f64>().ok(), "{text}");
            let again = from_str(&v.to_string()).unwrap();
            assert_eq!(again, v, "{text}");
        }
    }

    #[test]
    fn a_repeated_key_is_located_by_line_column_and_path() {
        let text = "{\"format_version\": 1, \"id\": \"asset://t\",\n \"recipe\": {\"size\": [8, 8]},\n \"recipe\": {}}";
        let e = parse(text, "t.terrain.json").unwrap_err();
        let d = &e.diagnostics()[0];
        assert!(d.path.starts_with("t.terrain.json:3:"), "{d}");
        assert!(
            d.message
                .contains("duplicate key \"recipe\" in the top-level object (at `recipe`)"),
            "{d}"
        );
        let nested = r#"{"recipe": {"graph": {"nodes": [{"id": "a"}, {"id": "b", "type": "x", "id": "c"}]}}}"#;
        let e = parse(nested, "n.json").unwrap_err().to_string();
        assert!(
            e.contains(
                "duplicate key \"id\" in `recipe.graph.nodes[1]` (at `recipe.graph.nodes[1].id`)"
            ),
            "{e}"
        );
        assert!(e.starts_with("n.json:1:"), "{e}");
        let e = check(nested, "n.json").unwrap_err().to_string();
        assert!(e.contains("(at `recipe.graph.nodes[1].id`)"), "{e}");
        assert!(check(r#"{"a": {"b": 1}, "b": [{"a": 2}]}"#, "ok.json").is_ok());
    }

    #[test]
    fn syntax_errors_trailing_text_and_deep_nesting_are_located_errors() {
        let e = parse("{\"a\": [1, 2,]}", "s.json").unwrap_err().to_string();
        assert!(e.starts_with("s.json:1:"), "{e}");
        let e = parse("{} x", "s.json").unwrap_err().to_string();
        assert!(e.contains("trailing characters"), "{e}");
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let e = parse(&deep, "deep.json").unwrap_err().to_string();
        assert!(e.contains("recursion limit"), "{e}");
    }
}
