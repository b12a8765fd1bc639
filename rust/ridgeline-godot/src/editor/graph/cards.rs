//! One GraphNode card per draft node, built from its catalogue entry: a row per input/output
//! pin (ports coloured by kind), the parameters, the Terrain Output's active-output toggle, a
//! comment's text, and the node's problems (on first use).

use super::params;
use super::workspace::kind_style;
use godot::classes::control::SizeFlags;
use godot::classes::text_edit::LineWrappingMode;
use godot::classes::{
    CheckBox, Control, GraphNode, HBoxContainer, Label, TextEdit, text_server::AutowrapMode,
};
use godot::global::HorizontalAlignment;
use godot::prelude::*;
use ridgeline_core::graph::draft::DraftNode;
use serde_json::Value;

/// What a card is built from.
pub struct CardRefs<'a> {
    /// The node type's catalogue entry.
    pub entry: &'a Value,
    /// The node.
    pub node: &'a DraftNode,
    /// True for the active Terrain Output.
    pub active: bool,
    /// The card's node name.
    pub name: &'a str,
    /// The node's point lists shown (parameter name → page shown).
    pub open_lists: Option<&'a std::collections::HashMap<String, usize>>,
}

/// A node name for the card of `id`: the id itself when it is a valid node name.
pub fn card_name(id: &str, serial: u64) -> String {
    if !id.is_empty() && GString::from(id).validate_node_name() == id {
        id.to_string()
    } else {
        format!("node_{serial}")
    }
}

fn pins(entry: &Value, side: &str) -> Vec<(String, String)> {
    entry
        .get(side)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|p| {
                    let s = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                    (s("name"), s("kind"))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn text(entry: &Value, key: &str) -> String {
    entry
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// Builds the card; its controls' signals go to `plugin`.
pub fn build(plugin: &Gd<Object>, r: &CardRefs) -> Gd<GraphNode> {
    let mut card = GraphNode::new_alloc();
    card.set_name(r.name);
    let title = text(r.entry, "title");
    card.set_title(&format!("{title} · {}", r.node.id));
    card.set_tooltip_text(&text(r.entry, "description"));
    card.set_custom_minimum_size(Vector2::new(220.0, 0.0));
    let inputs = pins(r.entry, "inputs");
    let outputs = pins(r.entry, "outputs");
    let required: Vec<bool> = r
        .entry
        .get("inputs")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|p| p.get("required").and_then(Value::as_bool).unwrap_or(false))
                .collect()
        })
        .unwrap_or_default();
    let rows = inputs.len().max(outputs.len());
    for i in 0..rows {
        let input = inputs.get(i).map(|(name, kind)| {
            let opt = if required.get(i).copied().unwrap_or(false) {
                ""
            } else {
                " (optional)"
            };
            let mut left = Label::new_alloc();
            left.set_h_size_flags(SizeFlags::EXPAND_FILL);
            left.set_text(name);
            left.set_tooltip_text(&format!(
                "input `{name}`: {kind}{opt}\nClick to pick its source from the compatible outputs"
            ));
            left.set_mouse_filter(godot::classes::control::MouseFilter::PASS);
            left.set_name(&format!("in_{name}"));
            left.connect(
                "gui_input",
                &Callable::from_object_method(plugin, "_on_graph_input_label_event").bindv(
                    &VarArray::from(&[r.node.id.to_variant(), name.to_variant()]),
                ),
            );
            left
        });
        let output = outputs.get(i).map(|(name, kind)| {
            let mut right = Label::new_alloc();
            right.set_h_size_flags(SizeFlags::EXPAND_FILL);
            right.set_horizontal_alignment(HorizontalAlignment::RIGHT);
            right.set_text(name);
            right.set_tooltip_text(&format!("output `{name}`: {kind}"));
            right.set_mouse_filter(godot::classes::control::MouseFilter::PASS);
            right
        });
        // A row with one pin is that pin's label alone (fewer controls: every control costs
        // the editor ~0.1 ms to enter the tree, `graph_ui_build_100`).
        match (input, output) {
            (Some(left), Some(right)) => {
                let mut row = HBoxContainer::new_alloc();
                row.add_child(&left);
                row.add_child(&right);
                card.add_child(&row);
            }
            (Some(one), None) | (None, Some(one)) => card.add_child(&one),
            (None, None) => {}
        }
        let (lt, lc) = inputs
            .get(i)
            .map(|(_, k)| kind_style(k))
            .unwrap_or((0, Color::WHITE));
        let (rt, rc) = outputs
            .get(i)
            .map(|(_, k)| kind_style(k))
            .unwrap_or((0, Color::WHITE));
        card.set_slot(
            i as i32,
            i < inputs.len(),
            lt,
            lc,
            i < outputs.len(),
            rt,
            rc,
        );
    }
    let id = r.node.id.as_str();
    if r.node.type_id == "terrain_output" {
        let mut active = CheckBox::new_alloc();
        active.set_name("ActiveOutput");
        active.set_text("Active output");
        active.set_tooltip_text("The graph's result: the recipe's `graph.output` names this node");
        active.set_pressed_no_signal(r.active);
        active.set_disabled(r.active);
        active.connect(
            "pressed",
            &Callable::from_object_method(plugin, "_on_graph_active_output")
                .bindv(&VarArray::from(&[id.to_variant()])),
        );
        card.add_child(&active);
    }
    if r.node.type_id == "comment" {
        let mut edit = TextEdit::new_alloc();
        edit.set_name("CommentText");
        edit.set_text(r.node.text.as_deref().unwrap_or(""));
        edit.set_line_wrapping_mode(LineWrappingMode::BOUNDARY);
        // The whole note is shown: the card grows with its text (no scroll bar hiding it).
        edit.set_fit_content_height_enabled(true);
        edit.set_custom_minimum_size(Vector2::new(260.0, 90.0));
        edit.set_v_size_flags(SizeFlags::EXPAND_FILL);
        edit.set_placeholder("Notes for this part of the graph…");
        edit.connect(
            "text_changed",
            &Callable::from_object_method(plugin, "_on_graph_comment_changed")
                .bindv(&VarArray::from(&[id.to_variant()])),
        );
        card.add_child(&edit);
        card.set_resizable(true);
        card.set_self_modulate(Color::from_rgba(1.0, 0.95, 0.7, 1.0));
    }
    let specs = r
        .entry
        .get("params")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for spec in &specs {
        if !params::applies(spec, &r.node.params, &specs) {
            continue;
        }
        let pname = params::name(spec);
        let open = r.open_lists.and_then(|o| o.get(pname)).copied();
        let row: Gd<Control> = params::row(plugin, id, spec, r.node.params.get(pname), open);
        card.add_child(&row);
    }
    card
}

/// Shows `messages` at the bottom of the card, above the footer (hidden when there are none).
/// The label is created on first use: cards without problems carry none.
pub fn show_problems(card: &Gd<GraphNode>, messages: &[String]) {
    let mut label = match card.try_get_node_as::<Label>("Problems") {
        Some(l) => l,
        None if messages.is_empty() => return,
        None => {
            let mut l = Label::new_alloc();
            l.set_name("Problems");
            l.set_autowrap_mode(AutowrapMode::WORD_SMART);
            l.set_custom_minimum_size(Vector2::new(200.0, 0.0));
            l.add_theme_color_override("font_color", Color::from_rgb(1.0, 0.55, 0.45));
            let mut c = card.clone();
            c.add_child(&l);
            if let Some(footer) = card.get_node_or_null("Footer") {
                c.move_child(&l, footer.get_index());
            }
            l
        }
    };
    label.set_text(&messages.join("\n"));
    label.set_visible(!messages.is_empty());
}

/// Shows `text` (the last run's time or "reused") in the card's footer, or removes the footer.
/// Created on first use: cards of a graph that never ran carry none.
pub fn show_footer(card: &Gd<GraphNode>, text: Option<&str>) {
    let existing = card.try_get_node_as::<Label>("Footer");
    match (existing, text) {
        (Some(mut l), Some(t)) => l.set_text(t),
        (Some(mut l), None) => {
            l.set_name("FooterGone");
            l.queue_free();
        }
        (None, Some(t)) => {
            let mut l = Label::new_alloc();
            l.set_name("Footer");
            l.set_text(t);
            l.set_horizontal_alignment(HorizontalAlignment::RIGHT);
            l.add_theme_color_override("font_color", Color::from_rgba(0.7, 0.75, 0.8, 0.8));
            l.set_tooltip_text(
                "The last generation: this node's wall-clock time, or \"reused\" when its \
                 result came from the graph cache",
            );
            l.set_mouse_filter(godot::classes::control::MouseFilter::PASS);
            let mut c = card.clone();
            c.add_child(&l);
        }
        (None, None) => {}
    }
}
