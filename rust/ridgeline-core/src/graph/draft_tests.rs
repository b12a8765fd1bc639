use super::*;
use crate::graph::eval::GraphCache;
use crate::nodes::Quality;
use crate::pipeline::generate::{base_cache_key, generate};
use crate::recipe::{Document, Recipe};
use std::sync::atomic::AtomicBool;

/// noise → blend.a, flat → blend.b, blend → out.
fn chain() -> Draft {
    let mut d = Draft {
        output: "out".into(),
        nodes: Vec::new(),
    };
    for (ty, at) in [
        ("noise_terrain", [0.0, 0.0]),
        ("flat_terrain", [0.0, 200.0]),
        ("height_blend", [300.0, 0.0]),
        ("terrain_output", [600.0, 0.0]),
    ] {
        d.add(ty, at).unwrap();
    }
    d.nodes[3].id = "out".into();
    d.output = "out".into();
    d.connect("height_blend", "a", "noise_terrain", None)
        .unwrap();
    d.connect("height_blend", "b", "flat_terrain", None)
        .unwrap();
    d.connect("out", "heightfield", "height_blend", None)
        .unwrap();
    d
}

fn recipe_with(d: &Draft) -> Recipe {
    let text =
        serde_json::json!({ "size": [64, 64], "resolution": [32, 32], "graph": d.to_value() });
    Document::parse(&text.to_string(), "draft")
        .unwrap()
        .recipe()
        .clone()
}

#[test]
fn add_gives_fresh_ids_and_refuses_unknown_types() {
    let mut d = chain();
    let id = d.add("noise_terrain", [10.4, 20.6]).unwrap();
    assert_eq!(id, "noise_terrain_2");
    assert_eq!(d.node(&id).unwrap().position, [10.0, 21.0]);
    let before = d.clone();
    let e = d.add("volcano", [0.0, 0.0]).unwrap_err().to_string();
    assert!(e.contains("unknown node type `volcano`"), "{e}");
    assert_eq!(d, before);
}

#[test]
fn connect_replaces_one_input_and_returns_the_old_source() {
    let mut d = chain();
    let old = d
        .connect("height_blend", "a", "flat_terrain", None)
        .unwrap();
    assert_eq!(old.map(|p| p.node), Some("noise_terrain".to_string()));
    let blend = d.node("height_blend").unwrap();
    assert_eq!(blend.inputs["a"].node, "flat_terrain");
    assert_eq!(blend.inputs.len(), 2, "one connection per input");
}

#[test]
fn cycles_kind_mismatches_and_unknown_pins_are_refused_unchanged() {
    let mut d = chain();
    let before = d.clone();
    let e = d
        .connect("height_blend", "b", "height_blend", None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("cycle"), "{e}");
    d.add("height_offset", [0.0, 0.0]).unwrap();
    d.connect("height_offset", "field", "height_blend", None)
        .unwrap();
    let before_cycle = d.clone();
    let e = d
        .connect("height_blend", "a", "height_offset", None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cycle: height_blend → height_offset → height_blend"),
        "{e}"
    );
    assert!(
        e.starts_with("graph.nodes[\"height_blend\"].inputs.a"),
        "located: {e}"
    );
    assert_eq!(d, before_cycle);
    d = before.clone();
    d.add("slope_mask", [0.0, 0.0]).unwrap();
    let with_mask = d.clone();
    let e = d
        .connect("height_blend", "a", "slope_mask", None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("(mask) to `a` (heightfield)"), "{e}");
    assert_eq!(d, with_mask);
    assert!(d.connect("height_blend", "z", "slope_mask", None).is_err());
    assert!(
        d.connect("height_blend", "mask", "slope_mask", Some("nope"))
            .is_err()
    );
    assert!(d.connect("nobody", "a", "slope_mask", None).is_err());
    assert_eq!(d, with_mask);
    d.connect("height_blend", "mask", "slope_mask", None)
        .unwrap();
}

#[test]
fn copy_paste_gives_fresh_ids_and_keeps_only_internal_links() {
    let mut d = chain();
    let ids = vec!["flat_terrain".to_string(), "height_blend".to_string()];
    let clip = d.copy(&ids);
    let pasted = d.paste(&clip, [40.0, 40.0]).unwrap();
    assert_eq!(pasted, vec!["flat_terrain_2", "height_blend_2"]);
    let blend = d.node("height_blend_2").unwrap();
    assert_eq!(
        blend.inputs["b"].node, "flat_terrain_2",
        "internal link kept"
    );
    assert!(
        !blend.inputs.contains_key("a"),
        "the link from outside the copy is dropped"
    );
    assert_eq!(blend.position, [340.0, 40.0]);
    // Pasting twice gives yet other ids; the original is untouched.
    let again = d.paste(&clip, [80.0, 80.0]).unwrap();
    assert_eq!(again, vec!["flat_terrain_3", "height_blend_3"]);
    assert_eq!(
        d.node("height_blend").unwrap().inputs["a"].node,
        "noise_terrain"
    );
    let dup = d
        .duplicate(&["noise_terrain".to_string()], [0.0, 100.0])
        .unwrap();
    assert_eq!(dup, vec!["noise_terrain_2"]);
    // Not a clipboard document: refused, unchanged.
    let before = d.clone();
    assert!(
        d.paste(&serde_json::json!({"nodes": []}), [0.0, 0.0])
            .is_err()
    );
    let bad =
        serde_json::json!({"format": CLIPBOARD_FORMAT, "nodes": [{"id": "x", "type": "nope"}]});
    assert!(d.paste(&bad, [0.0, 0.0]).is_err());
    assert_eq!(d, before);
    recipe_with(&d);
}

#[test]
fn remove_drops_links_and_a_missing_output_is_a_problem() {
    let mut d = chain();
    assert_eq!(d.remove(&["height_blend".to_string()]), 1);
    assert!(d.node("out").unwrap().inputs.is_empty());
    let p = d.problems();
    assert!(
        p.iter().any(|p| p.node.as_deref() == Some("out")
            && p.diagnostic.to_string()
                == "graph.nodes[\"out\"].inputs.heightfield: required heightfield input is not connected"),
        "{p:?}"
    );
    d.remove(&["out".to_string()]);
    assert!(
        d.problems()
            .iter()
            .any(|p| p.node.is_none() && p.diagnostic.path == "graph.output")
    );
    assert!(d.to_graph("graph").is_err());
}

#[test]
fn invalid_params_are_kept_and_reported_per_node() {
    let mut d = chain();
    d.set_param("height_blend", "amount", Some(serde_json::json!(3.0)))
        .unwrap();
    let p = d.problems();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].node.as_deref(), Some("height_blend"));
    assert!(
        p[0].diagnostic
            .path
            .starts_with("graph.nodes[\"height_blend\"].params.amount"),
        "{p:?}"
    );
    assert_eq!(d.node("height_blend").unwrap().params["amount"], 3.0);
    assert!(d.set_param("height_blend", "nope", None).is_err());
    d.set_param("height_blend", "amount", None).unwrap();
    assert!(d.problems().is_empty());
}

#[test]
fn comments_hold_multi_line_text_and_outputs_must_be_terrain_outputs() {
    let mut d = chain();
    let c = d.add("comment", [0.0, -100.0]).unwrap();
    d.set_text(&c, "line one\nline two").unwrap();
    assert!(d.set_text("height_blend", "x").is_err());
    let r = recipe_with(&d);
    let g = r.graph.unwrap();
    assert_eq!(
        g.node(&c).unwrap().text.as_deref(),
        Some("line one\nline two")
    );
    assert!(d.set_output("height_blend").is_err());
    let o = d.add("terrain_output", [0.0, 0.0]).unwrap();
    d.set_output(&o).unwrap();
    assert_eq!(d.output, o);
}

#[test]
fn drafts_round_trip_graphs_and_positions_stay_out_of_cache_keys() {
    for p in crate::recipe::preset::builtins().unwrap() {
        let r = p
            .apply(
                &Recipe::default_recipe(),
                crate::recipe::preset::GridChange::Ask,
            )
            .unwrap()
            .recipe;
        let g = r.graph.clone().unwrap();
        let d = Draft::from_graph(&g);
        assert_eq!(d.to_value(), g.to_value(), "{}", p.id);
        assert_eq!(d.to_graph("graph").unwrap().to_value(), g.to_value());
    }
    let mut d = chain();
    let a = recipe_with(&d);
    d.move_nodes(&[("noise_terrain".to_string(), [999.0, -5.0])])
        .unwrap();
    assert!(d.move_nodes(&[("ghost".to_string(), [0.0, 0.0])]).is_err());
    let b = recipe_with(&d);
    assert_ne!(a.to_value(), b.to_value(), "positions are saved");
    assert_eq!(base_cache_key(&a), base_cache_key(&b), "but not keyed");
}

#[test]
fn the_starter_graph_is_a_working_chain() {
    let d = Draft::starter();
    assert!(d.problems().is_empty(), "{:?}", d.problems());
    let r = recipe_with(&d);
    let g = generate(
        &r,
        Quality::Preview,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    let [lo, hi] = g.heightfield.height_range();
    assert!(hi - lo > 1.0, "relief {lo}..{hi}");
}

#[test]
fn apply_to_validates_the_whole_recipe_and_keeps_the_rest() {
    let base = recipe_with(&chain());
    let mut d = Draft::starter();
    let r = base.with_draft(&d).unwrap();
    assert_eq!(r.size, base.size);
    let mut applied = Draft::from_graph(&r.graph.unwrap());
    // Canonical params may spell defaults the draft left out; the structure is the draft's.
    for n in &mut applied.nodes {
        n.params.clear();
    }
    assert_eq!(applied, d);
    // A landform the recipe does not define is refused by the recipe-level check.
    d.add("landform", [0.0, 0.0]).unwrap();
    d.set_param("landform", "landform", Some(serde_json::json!("nowhere")))
        .unwrap();
    let e = base.with_draft(&d).unwrap_err().to_string();
    assert!(e.contains("nowhere"), "{e}");
    // Unconnected required inputs are refused too.
    let mut d = chain();
    d.disconnect("out", "heightfield").unwrap();
    let e = base.with_draft(&d).unwrap_err().to_string();
    assert!(e.contains("not connected"), "{e}");
}
