//! Following a renamed recipe entry into the graph: a landform renamed in the recipe settings
//! keeps every Landform node that named it pointing at it.

use super::draft::Draft;
use serde_json::Value;

impl Draft {
    /// Renames landform `old` to `new` in every `landform` node's `landform` parameter and
    /// returns how many nodes changed.
    pub fn rename_landform(&mut self, old: &str, new: &str) -> usize {
        let mut changed = 0;
        for n in self.nodes.iter_mut().filter(|n| n.type_id == "landform") {
            if n.params.get("landform").and_then(Value::as_str) == Some(old) {
                n.params.insert("landform".into(), Value::from(new));
                changed += 1;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::draft::DraftNode;
    use serde_json::Map;

    fn node(id: &str, type_id: &str, landform: &str) -> DraftNode {
        let mut params = Map::new();
        params.insert("landform".into(), Value::from(landform));
        DraftNode {
            id: id.into(),
            type_id: type_id.into(),
            position: [0.0, 0.0],
            params,
            text: None,
            inputs: Default::default(),
        }
    }

    #[test]
    fn renaming_a_landform_follows_into_landform_nodes_only() {
        let mut d = Draft {
            output: "out".into(),
            nodes: vec![
                node("a", "landform", "hills"),
                node("b", "landform", "plains"),
                node("c", "comment", "hills"),
            ],
        };
        assert_eq!(d.rename_landform("hills", "downs"), 1);
        let p = |i: usize| d.nodes[i].params["landform"].as_str().unwrap().to_string();
        assert_eq!(
            (p(0), p(1), p(2)),
            ("downs".into(), "plains".into(), "hills".into())
        );
        assert_eq!(d.rename_landform("nothing", "x"), 0);
    }
}
