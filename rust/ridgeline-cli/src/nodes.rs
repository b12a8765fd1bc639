//! `ridgeline nodes`: every node type from the core registry (id, category, pins, parameters
//! with type, default, range, unit and doc). The JSON form is the catalogue the editor's graph
//! workspace builds its cards from.

use crate::Format;
use ridgeline_core::nodes::{REGISTRY, catalog};

/// The listing in `format`.
pub fn render(format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(&catalog()).unwrap_or_default() + "\n",
        Format::Text => {
            let mut out = String::new();
            for s in REGISTRY {
                out.push_str(&format!(
                    "{} — {} ({}): {}\n",
                    s.id,
                    s.title,
                    s.category.name(),
                    s.description
                ));
                let pins = |pins: &[ridgeline_core::nodes::PinSpec], inputs: bool| {
                    pins.iter()
                        .map(|p| {
                            let opt = if inputs && !p.required { "?" } else { "" };
                            format!("{}{opt}:{}", p.name, p.kind.name())
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                out.push_str(&format!(
                    "  in  [{}]\n  out [{}]\n",
                    pins(s.inputs, true),
                    pins(s.outputs, false)
                ));
                for p in s.param_specs() {
                    let default = match p.default_json() {
                        serde_json::Value::Null => "unset".to_string(),
                        v => v.to_string(),
                    };
                    let range = p.range_text();
                    let unit = if p.unit.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", p.unit)
                    };
                    out.push_str(&format!(
                        "  {:<22} {:<10} = {default}{unit}{}  {}\n",
                        p.name,
                        p.ty.name(),
                        if range.is_empty() {
                            String::new()
                        } else {
                            format!("  [{range}]")
                        },
                        p.doc
                    ));
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lists_every_node_type_with_params() {
        let v: serde_json::Value = serde_json::from_str(&render(Format::Json)).unwrap();
        let arr = v.as_array().unwrap();
        assert_eq!(arr.len(), 20);
        for n in arr {
            assert!(n["inputs"].is_array() && n["outputs"].is_array());
            for p in n["params"].as_array().unwrap() {
                assert!(p.get("default").is_some() && p.get("range").is_some());
                assert!(!p["doc"].as_str().unwrap().is_empty());
            }
        }
        let text = render(Format::Text);
        assert!(text.contains("river_route — River Route (water)"));
    }
}
