//! Which outputs an input could connect from: the workspace's source dropdown lists exactly the
//! connections [`Draft::connect`] would accept (kind, no cycle, not the node itself).

use super::PinRef;
use super::draft::Draft;

impl Draft {
    /// Every `(node, output)` that input `pin` of node `to` can connect from, in the draft's
    /// node order then output order: the connections [`Draft::connect`] accepts (matching kind,
    /// no cycle). Empty when `to` or `pin` does not exist.
    pub fn sources_for(&self, to: &str, pin: &str) -> Vec<PinRef> {
        let Some(spec) = self.node(to).and_then(|n| n.spec()) else {
            return Vec::new();
        };
        if !spec.inputs.iter().any(|p| p.name == pin) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for n in &self.nodes {
            let Some(s) = n.spec() else { continue };
            for o in s.outputs {
                let mut trial = self.clone();
                if trial.connect(to, pin, &n.id, Some(o.name)).is_ok() {
                    out.push(PinRef {
                        node: n.id.clone(),
                        pin: o.name.to_string(),
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[PinRef]) -> Vec<String> {
        v.iter().map(|p| format!("{}.{}", p.node, p.pin)).collect()
    }

    #[test]
    fn sources_match_the_kind_and_never_make_a_cycle() {
        let d = Draft::starter();
        // The erosion's field: the noise's heightfield only (not erosion itself, not the
        // biome rules downstream of it, which would close a cycle).
        let erode = names(&d.sources_for("erode", "field"));
        assert!(
            erode.contains(&"hills.heightfield".to_string()),
            "{erode:?}"
        );
        assert!(erode.iter().all(|s| !s.starts_with("erode.")), "{erode:?}");
        assert!(erode.iter().all(|s| !s.starts_with("biomes.")), "{erode:?}");
        // Every listed source is accepted by connect, and every other output is refused.
        for n in &d.nodes {
            for o in n.spec().map_or(&[][..], |s| s.outputs) {
                let listed = erode.contains(&format!("{}.{}", n.id, o.name));
                let ok = d
                    .clone()
                    .connect("erode", "field", &n.id, Some(o.name))
                    .is_ok();
                assert_eq!(listed, ok, "{}.{}", n.id, o.name);
            }
        }
        assert!(d.sources_for("erode", "nope").is_empty());
        assert!(d.sources_for("nobody", "field").is_empty());
    }
}
