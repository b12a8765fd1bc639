//! A point-list parameter on a card: one row of coordinates per point with move up / move
//! down / remove, and **+ point**. Lists longer than [`FOLD_OVER`] are folded to one **Show N
//! points** button until shown, and shown [`POINTS_PER_PAGE`] points at a time with first /
//! previous / next / last page buttons (as the inspector pages long arrays): a 65 536-point
//! list would otherwise build half a million controls at once.

use super::params::{as_points, call, name, spin};
use godot::classes::control::SizeFlags;
use godot::classes::{Button, Control, EditorSpinSlider, HBoxContainer, Label, VBoxContainer};
use godot::prelude::*;
use serde_json::Value;

/// Point lists longer than this are folded on their card until shown: a 20-point polygon would
/// otherwise make a card over a thousand pixels tall that covers its neighbours.
pub const FOLD_OVER: usize = 4;

/// Points shown at once on an open list; longer lists get page buttons.
pub const POINTS_PER_PAGE: usize = 50;

/// The pages a list of `count` points has (at least one).
pub fn page_count(count: usize) -> usize {
    count.div_ceil(POINTS_PER_PAGE).max(1)
}

/// The button that folds or unfolds a long point list (`_on_graph_points_toggled`).
fn fold_button(plugin: &Gd<Object>, id: &str, pname: &str, count: usize, open: bool) -> Gd<Button> {
    let mut b = Button::new_alloc();
    let (name, icon, text, tip) = if open {
        (
            "HidePoints",
            "GuiTreeArrowDown",
            format!("Hide {count} points"),
            "Fold the list back to one line",
        )
    } else {
        (
            "ShowPoints",
            "GuiTreeArrowRight",
            format!("Show {count} points"),
            "Show the points of the list to edit them",
        )
    };
    b.set_name(name);
    crate::editor::icons::set_icon(&mut b, icon, "");
    b.set_text(&text);
    b.set_flat(true);
    b.set_text_alignment(godot::global::HorizontalAlignment::LEFT);
    b.set_tooltip_text(tip);
    b.connect(
        "pressed",
        &call(
            plugin,
            "_on_graph_points_toggled",
            &[id.to_variant(), pname.to_variant()],
        ),
    );
    b
}

/// First / previous / "Points a–b of N" / next / last: the page buttons of a long list
/// (`_on_graph_points_page` with the page each one shows).
fn page_bar(
    plugin: &Gd<Object>,
    id: &str,
    pname: &str,
    page: usize,
    count: usize,
) -> Gd<HBoxContainer> {
    let pages = page_count(count);
    let mut bar = HBoxContainer::new_alloc();
    bar.set_name("PointPages");
    let button = |name: &str, icon: &str, tip: &str, to: usize, enabled: bool| {
        let mut b = Button::new_alloc();
        b.set_name(name);
        crate::editor::icons::set_icon(&mut b, icon, name);
        b.set_flat(true);
        b.set_tooltip_text(tip);
        b.set_disabled(!enabled);
        b.connect(
            "pressed",
            &call(
                plugin,
                "_on_graph_points_page",
                &[
                    id.to_variant(),
                    pname.to_variant(),
                    (to as i64).to_variant(),
                ],
            ),
        );
        b
    };
    let last = pages - 1;
    bar.add_child(&button(
        "FirstPoints",
        "PageFirst",
        "First page",
        0,
        page > 0,
    ));
    bar.add_child(&button(
        "PreviousPoints",
        "PagePrevious",
        &format!("Previous {POINTS_PER_PAGE} points"),
        page.saturating_sub(1),
        page > 0,
    ));
    let mut label = Label::new_alloc();
    label.set_name("PointRange");
    let first = page * POINTS_PER_PAGE;
    let end = (first + POINTS_PER_PAGE).min(count);
    label.set_text(&format!("{}–{end} of {count}", first + 1));
    label.set_tooltip_text(&format!("Page {} of {pages}", page + 1));
    label.set_h_size_flags(SizeFlags::EXPAND_FILL);
    label.set_horizontal_alignment(godot::global::HorizontalAlignment::CENTER);
    bar.add_child(&label);
    bar.add_child(&button(
        "NextPoints",
        "PageNext",
        &format!("Next {POINTS_PER_PAGE} points"),
        (page + 1).min(last),
        page < last,
    ));
    bar.add_child(&button(
        "LastPoints",
        "PageLast",
        "Last page",
        last,
        page < last,
    ));
    bar
}

/// The spin slider of coordinate `k` of point `row` of parameter `pname` (`row` None: a single
/// point parameter), edited through `_on_graph_point`.
pub(super) fn coordinate(
    plugin: &Gd<Object>,
    id: &str,
    pname: &str,
    row: Option<usize>,
    k: usize,
    value: f64,
    tip: &str,
) -> Gd<EditorSpinSlider> {
    let mut s = spin(&Value::Null, value, false);
    s.set_tooltip_text(tip);
    let row = row.map_or(-1, |r| r as i64);
    s.connect(
        "value_changed",
        &call(
            plugin,
            "_on_graph_point",
            &[
                id.to_variant(),
                pname.to_variant(),
                row.to_variant(),
                (k as i64).to_variant(),
            ],
        ),
    );
    s
}

/// The control of a point list: see the module documentation. `open`: the page shown (None:
/// folded when long; a page past the end shows the last one).
pub fn build(
    plugin: &Gd<Object>,
    id: &str,
    spec: &Value,
    current: &Value,
    tip: &str,
    open: Option<usize>,
) -> Gd<Control> {
    let dims = spec.get("dims").and_then(Value::as_u64).unwrap_or(2) as usize;
    let pname = name(spec);
    let points = as_points(Some(current));
    let foldable = points.len() > FOLD_OVER;
    if foldable && open.is_none() {
        let mut b = fold_button(plugin, id, pname, points.len(), false);
        b.set_h_size_flags(SizeFlags::EXPAND_FILL);
        return b.upcast();
    }
    let page = open.unwrap_or(0).min(page_count(points.len()) - 1);
    let first = page * POINTS_PER_PAGE;
    let last = (first + POINTS_PER_PAGE).min(points.len());
    let mut list = VBoxContainer::new_alloc();
    list.set_h_size_flags(SizeFlags::EXPAND_FILL);
    if foldable {
        list.add_child(&fold_button(plugin, id, pname, points.len(), true));
    }
    if points.len() > POINTS_PER_PAGE {
        list.add_child(&page_bar(plugin, id, pname, page, points.len()));
    }
    for (i, p) in points.iter().enumerate().take(last).skip(first) {
        let mut r = HBoxContainer::new_alloc();
        r.set_name(&format!("point_{i}"));
        for k in 0..dims {
            let value = p.get(k).copied().unwrap_or(0.0);
            r.add_child(&coordinate(plugin, id, pname, Some(i), k, value, tip));
        }
        let count = points.len();
        for (icon, fallback, delta, tip) in [
            (
                "MoveUp",
                "Up",
                -1i64,
                "Move this point up (earlier in the list)",
            ),
            (
                "MoveDown",
                "Down",
                1,
                "Move this point down (later in the list)",
            ),
        ] {
            let mut b = Button::new_alloc();
            b.set_name(&format!("move_{fallback}").to_lowercase());
            crate::editor::icons::set_icon(&mut b, icon, fallback);
            b.set_flat(true);
            b.set_tooltip_text(tip);
            let to = i as i64 + delta;
            b.set_disabled(to < 0 || to >= count as i64);
            b.connect(
                "pressed",
                &call(
                    plugin,
                    "_on_graph_point_move",
                    &[
                        id.to_variant(),
                        pname.to_variant(),
                        (i as i64).to_variant(),
                        delta.to_variant(),
                    ],
                ),
            );
            r.add_child(&b);
        }
        let mut del = Button::new_alloc();
        crate::editor::icons::set_icon(&mut del, "Remove", "Remove");
        del.set_tooltip_text("Remove this point");
        del.connect(
            "pressed",
            &call(
                plugin,
                "_on_graph_point_remove",
                &[id.to_variant(), pname.to_variant(), (i as i64).to_variant()],
            ),
        );
        r.add_child(&del);
        list.add_child(&r);
    }
    let mut add = Button::new_alloc();
    add.set_name("AddPoint");
    add.set_text("+ point");
    add.set_tooltip_text("Add a point after the last one");
    add.connect(
        "pressed",
        &call(
            plugin,
            "_on_graph_point_add",
            &[id.to_variant(), pname.to_variant()],
        ),
    );
    list.add_child(&add);
    list.upcast()
}
