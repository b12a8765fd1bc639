//! Typed parameter controls from a catalogue parameter entry (type, default, range, unit, doc):
//! numbers and integers as spin sliders with the range, booleans as check boxes, choices as
//! option buttons, colours as colour pickers, points as coordinate pairs, point lists as rows
//! with add / move up / move down / remove ([`super::point_list`]: folded to one **Show N
//! points** button when longer than [`FOLD_OVER`], shown a page at a time), text and lists as
//! line edits. Every row has the doc
//! as its tooltip and, while its value is set, a reset button (back to the default).

use godot::classes::control::SizeFlags;
use godot::classes::{
    Button, CheckBox, ColorPickerButton, Control, EditorSpinSlider, HBoxContainer, Label, LineEdit,
    OptionButton,
};
use godot::prelude::*;
use serde_json::Value;

/// The parameter's name.
pub fn name(spec: &Value) -> &str {
    spec.get("name").and_then(Value::as_str).unwrap_or("")
}

fn field<'a>(spec: &'a Value, key: &str) -> &'a str {
    spec.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The tooltip: doc, unit, range and default.
pub fn tooltip(spec: &Value) -> String {
    let mut t = format!("{} ({})", name(spec), field(spec, "type"));
    let doc = field(spec, "doc");
    if !doc.is_empty() {
        t.push_str(&format!(": {doc}"));
    }
    let unit = field(spec, "unit");
    if !unit.is_empty() {
        t.push_str(&format!("\nunit: {unit}"));
    }
    if let Some(r) = spec.get("range").and_then(Value::as_object)
        && !r.is_empty()
    {
        let lo = r.get("min").map(|v| v.to_string()).unwrap_or("−∞".into());
        let hi = r.get("max").map(|v| v.to_string()).unwrap_or("∞".into());
        let open = if r.get("min_exclusive").and_then(Value::as_bool) == Some(true) {
            "("
        } else {
            "["
        };
        t.push_str(&format!("\nrange: {open}{lo}, {hi}]"));
    }
    match spec.get("default") {
        Some(Value::Null) | None => t.push_str("\ndefault: unset"),
        Some(v) => t.push_str(&format!("\ndefault: {v}")),
    }
    if spec.get("required").and_then(Value::as_bool) == Some(true) {
        t.push_str("\nrequired");
    }
    t
}

pub(super) fn call(plugin: &Gd<Object>, method: &str, args: &[Variant]) -> Callable {
    Callable::from_object_method(plugin, method).bindv(&VarArray::from(args))
}

/// A number field: the editor's own spin slider (what the inspector uses; it draws itself and
/// creates its line edit only while typing, so a 100-card graph builds fast).
pub(super) fn spin(spec: &Value, value: f64, integer: bool) -> Gd<EditorSpinSlider> {
    let mut s = EditorSpinSlider::new_alloc();
    let r = spec.get("range");
    let lo = r.and_then(|r| r.get("min")).and_then(Value::as_f64);
    let hi = r.and_then(|r| r.get("max")).and_then(Value::as_f64);
    s.set_min(lo.unwrap_or(-1.0e9));
    s.set_max(hi.unwrap_or(1.0e9));
    s.set_allow_lesser(lo.is_none());
    s.set_allow_greater(hi.is_none());
    s.set_step(if integer { 1.0 } else { 0.001 });
    s.set_value_no_signal(value);
    s.set_h_size_flags(SizeFlags::EXPAND_FILL);
    s.set_custom_minimum_size(Vector2::new(90.0, 0.0));
    s.set_suffix(field(spec, "unit"));
    // Unbounded fields (coordinates) have no slider to drag.
    s.set_hide_slider(lo.is_none() || hi.is_none());
    s
}

pub(super) fn as_points(v: Option<&Value>) -> Vec<Vec<f64>> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|p| {
                    p.as_array()
                        .map(|c| c.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect())
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Whether parameter `spec` applies to a node with `values` set: a parameter with
/// `applies_when` (a river's width on a Water Body) is read only while the parameter it names —
/// set, or at its default among `specs` — has one of the listed values. Cards hide the others.
pub fn applies(spec: &Value, values: &serde_json::Map<String, Value>, specs: &[Value]) -> bool {
    let Some(when) = spec.get("applies_when") else {
        return true;
    };
    let param = when.get("param").and_then(Value::as_str).unwrap_or("");
    let current = values.get(param).cloned().or_else(|| {
        specs
            .iter()
            .find(|s| name(s) == param)
            .and_then(|s| s.get("default").cloned())
    });
    when.get("values")
        .and_then(Value::as_array)
        .is_some_and(|vs| current.is_some_and(|c| vs.contains(&c)))
}

/// Whether other parameters of `specs` apply only for some values of parameter `pname` (a
/// card shows other rows when it changes).
pub fn controls_others(specs: &[Value], pname: &str) -> bool {
    specs.iter().any(|s| {
        s.get("applies_when")
            .and_then(|w| w.get("param"))
            .and_then(Value::as_str)
            == Some(pname)
    })
}

pub use super::point_list::{FOLD_OVER, POINTS_PER_PAGE};

/// One parameter row for node `id` showing `value` (None: the default). `open`: the page a
/// point list shows (None: a long list is folded; see [`super::point_list`]).
///
/// A number's name is drawn inside its spin slider (as the inspector's vector fields do); other
/// types get a name label. The reset button exists only while the value is set (the inspector's
/// revert arrow): a 100-card graph builds with a third fewer controls (`graph_ui_build_100`).
pub fn row(
    plugin: &Gd<Object>,
    id: &str,
    spec: &Value,
    value: Option<&Value>,
    open: Option<usize>,
) -> Gd<Control> {
    let pname = name(spec);
    let current = value
        .cloned()
        .unwrap_or_else(|| spec.get("default").cloned().unwrap_or(Value::Null));
    let tip = tooltip(spec);
    let args = [id.to_variant(), pname.to_variant()];
    let mut row = HBoxContainer::new_alloc();
    row.set_name(&format!("param_{pname}"));
    row.set_tooltip_text(&tip);
    let ty = field(spec, "type");
    if !matches!(ty, "number" | "integer") {
        let mut label = Label::new_alloc();
        label.set_name("Name");
        label.set_text(pname);
        label.set_tooltip_text(&tip);
        label.set_mouse_filter(godot::classes::control::MouseFilter::PASS);
        label.set_custom_minimum_size(Vector2::new(110.0, 0.0));
        row.add_child(&label);
    }
    let on_value = call(plugin, "_on_graph_param", &args);
    let editor: Gd<Control> = match ty {
        "number" | "integer" => {
            let mut s = spin(spec, current.as_f64().unwrap_or(0.0), ty == "integer");
            s.set_label(pname);
            s.set_tooltip_text(&tip);
            s.connect("value_changed", &on_value);
            s.upcast()
        }
        "bool" => {
            let mut c = CheckBox::new_alloc();
            c.set_pressed_no_signal(current.as_bool().unwrap_or(false));
            c.set_tooltip_text(&tip);
            c.connect("toggled", &on_value);
            c.upcast()
        }
        "enum" => {
            let mut o = OptionButton::new_alloc();
            let choices: Vec<String> = spec
                .get("choices")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|c| c.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            for c in &choices {
                o.add_item(c);
            }
            if let Some(i) = choices
                .iter()
                .position(|c| Some(c.as_str()) == current.as_str())
            {
                o.select(i as i32);
            }
            o.set_tooltip_text(&tip);
            o.connect("item_selected", &on_value);
            o.upcast()
        }
        "colour" => {
            let mut c = ColorPickerButton::new_alloc();
            let v = as_points(Some(&Value::Array(vec![current.clone()])));
            let rgba = v.first().cloned().unwrap_or_default();
            let g = |i: usize| rgba.get(i).copied().unwrap_or(1.0) as f32;
            c.set_pick_color(Color::from_rgba(g(0), g(1), g(2), g(3)));
            c.set_custom_minimum_size(Vector2::new(60.0, 0.0));
            c.set_tooltip_text(&tip);
            c.connect("color_changed", &on_value);
            c.upcast()
        }
        "point" => {
            let mut h = HBoxContainer::new_alloc();
            let p = as_points(Some(&Value::Array(vec![current.clone()])))
                .pop()
                .unwrap_or_default();
            for k in 0..2 {
                let value = p.get(k).copied().unwrap_or(0.0);
                h.add_child(&super::point_list::coordinate(
                    plugin, id, pname, None, k, value, &tip,
                ));
            }
            h.set_h_size_flags(SizeFlags::EXPAND_FILL);
            h.upcast()
        }
        "point list" => super::point_list::build(plugin, id, spec, &current, &tip, open),
        _ => {
            // string, id list, list (records): text; lists as JSON.
            let mut e = LineEdit::new_alloc();
            let shown = match (&current, ty) {
                (Value::Null, _) => String::new(),
                (Value::String(s), _) => s.clone(),
                (Value::Array(a), "id list") => a
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
                (v, _) => v.to_string(),
            };
            e.set_text(&shown);
            e.set_placeholder(if ty == "id list" {
                "id, id, …"
            } else if ty == "list" {
                "JSON array"
            } else {
                "unset"
            });
            e.set_h_size_flags(SizeFlags::EXPAND_FILL);
            e.set_tooltip_text(&tip);
            e.connect("text_changed", &on_value);
            e.upcast()
        }
    };
    row.add_child(&editor);
    let mut row = row.upcast::<Control>();
    if value.is_some() {
        show_set(plugin, id, pname, &mut row);
    }
    row
}

/// Marks the row of parameter `pname` of node `id` as set in the recipe (the default no longer
/// applies): a non-number's name in the highlight colour, and a reset button (added once).
pub fn show_set(plugin: &Gd<Object>, id: &str, pname: &str, row: &mut Gd<Control>) {
    if row.has_node("Reset") {
        return;
    }
    if let Some(mut label) = row.try_get_node_as::<Label>("Name") {
        label.add_theme_color_override("font_color", Color::from_rgb(0.95, 0.85, 0.55));
    }
    let mut reset = Button::new_alloc();
    reset.set_name("Reset");
    crate::editor::icons::set_icon(&mut reset, "Reload", "Reset");
    reset.set_flat(true);
    reset.set_tooltip_text("Reset to the default");
    reset.connect(
        "pressed",
        &call(
            plugin,
            "_on_graph_param_reset",
            &[id.to_variant(), pname.to_variant()],
        ),
    );
    row.add_child(&reset);
}

/// The JSON of a control's value for parameter `spec` (None: the text cannot be read).
pub fn to_json(spec: &Value, value: &Variant) -> Option<Value> {
    let ty = field(spec, "type");
    // Spin sliders send floats, scripts may send ints; NaN and infinities are refused.
    let number = || {
        value
            .try_to::<f64>()
            .ok()
            .or_else(|| value.try_to::<i64>().ok().map(|i| i as f64))
            .filter(|v| v.is_finite())
    };
    match ty {
        "number" => number().map(Value::from),
        "integer" => number().map(|v| Value::from(v.round() as i64)),
        "bool" => value.try_to::<bool>().ok().map(Value::from),
        "enum" => {
            let i = value.try_to::<i64>().ok()?;
            spec.get("choices")?
                .as_array()?
                .get(usize::try_from(i).ok()?)
                .cloned()
        }
        "colour" => {
            let c = value.try_to::<Color>().ok()?;
            let r = |x: f32| (x as f64 * 1000.0).round() / 1000.0;
            Some(serde_json::json!([r(c.r), r(c.g), r(c.b), r(c.a)]))
        }
        "id list" => {
            let s = value.try_to::<GString>().ok()?.to_string();
            Some(Value::Array(
                s.split(',')
                    .map(str::trim)
                    .filter(|x| !x.is_empty())
                    .map(|x| Value::from(x.to_string()))
                    .collect(),
            ))
        }
        "list" => {
            let s = value.try_to::<GString>().ok()?.to_string();
            serde_json::from_str::<Value>(&s).ok()
        }
        _ => value
            .try_to::<GString>()
            .ok()
            .map(|s| Value::from(s.to_string())),
    }
}
