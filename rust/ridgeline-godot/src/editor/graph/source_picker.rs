//! Picking an input's source from a list: a click on an input's name on a card opens a menu of
//! the outputs it can connect from (the core's [`Draft::sources_for`]: matching kind, no cycle),
//! with **None** to disconnect. The choice is one graph history step, like a dragged wire.
//! Editor-only: nothing here is registered in games.
//!
//! [`Draft::sources_for`]: ridgeline_core::graph::draft::Draft::sources_for

use crate::editor::plugin::RidgelineEditorPlugin;
use godot::classes::{DisplayServer, InputEvent, InputEventMouseButton, PopupMenu};
use godot::global::MouseButton;
use godot::prelude::*;

/// The menu's first item: disconnect.
const NONE: &str = "None (disconnect)";

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Outputs input `pin` of node `id` can connect from, as `node.output` (what the menu
    /// lists after **None**).
    #[func]
    pub fn get_graph_input_sources(&self, id: GString, pin: GString) -> PackedStringArray {
        let Some(w) = &self.graph else {
            return PackedStringArray::new();
        };
        w.draft
            .sources_for(&id.to_string(), &pin.to_string())
            .iter()
            .map(|p| GString::from(format!("{}.{}", p.node, p.pin).as_str()))
            .collect()
    }

    /// Connects input `pin` of node `id` from `source` (`node.output`), or disconnects it when
    /// `source` is empty — one graph history step. False (with the reason in the status line)
    /// when the draft refuses it.
    #[func]
    pub fn pick_graph_input_source(&mut self, id: GString, pin: GString, source: GString) -> bool {
        let (to, pin, source) = (id.to_string(), pin.to_string(), source.to_string());
        let Some(w) = &self.graph else { return false };
        let before = w.draft.clone();
        if source.is_empty() {
            if before
                .node(&to)
                .is_none_or(|n| !n.inputs.contains_key(&pin))
            {
                return false;
            }
            self.graph_edit(&format!("Disconnect {to}.{pin}"), |d| {
                d.disconnect(&to, &pin).map(|_| ())
            });
        } else {
            let Some((from, out)) = source.rsplit_once('.') else {
                self.graph_show(&format!("Refused: `{source}` is not node.output"), true);
                return false;
            };
            let replacing = before
                .node(&to)
                .is_some_and(|n| n.inputs.contains_key(&pin));
            let label = if replacing {
                format!("Replace connection to {to}.{pin}")
            } else {
                format!("Connect {from}.{out} → {to}.{pin}")
            };
            let (from, out) = (from.to_string(), out.to_string());
            self.graph_edit(&label, |d| {
                d.connect(&to, &pin, &from, Some(&out)).map(|_| ())
            });
        }
        self.graph.as_ref().is_some_and(|w| w.draft != before)
    }

    /// A card's input name was clicked: the source menu.
    #[func]
    fn _on_graph_input_label_event(&mut self, event: Gd<InputEvent>, id: GString, pin: GString) {
        let Ok(click) = event.try_cast::<InputEventMouseButton>() else {
            return;
        };
        if click.get_button_index() != MouseButton::LEFT || !click.is_pressed() {
            return;
        }
        let sources = self.get_graph_input_sources(id.clone(), pin.clone());
        let me = self.to_gd().upcast::<Object>();
        let Some(w) = &mut self.graph else { return };
        let current = w
            .draft
            .node(&id.to_string())
            .and_then(|n| n.inputs.get(&pin.to_string()))
            .map(|p| format!("{}.{}", p.node, p.pin));
        let mut menu = PopupMenu::new_alloc();
        menu.set_name("SourceMenu");
        menu.add_item(NONE);
        for (i, s) in sources.as_slice().iter().enumerate() {
            menu.add_radio_check_item(s);
            if current.as_deref() == Some(s.to_string().as_str()) {
                menu.set_item_checked(i as i32 + 1, true);
            }
        }
        if sources.is_empty() {
            menu.add_separator_ex().label("no compatible output").done();
        }
        menu.connect(
            "index_pressed",
            &Callable::from_object_method(&me, "_on_graph_source_chosen").bindv(&VarArray::from(
                &[id.to_variant(), pin.to_variant(), sources.to_variant()],
            )),
        );
        let free = Callable::from_object_method(&menu, "queue_free");
        menu.connect("popup_hide", &free);
        w.root.add_child(&menu);
        menu.set_position(DisplayServer::singleton().mouse_get_position());
        menu.popup();
    }

    /// The source menu: item `index` (0 = None) for input `pin` of node `id`.
    #[func]
    fn _on_graph_source_chosen(
        &mut self,
        index: i64,
        id: GString,
        pin: GString,
        sources: PackedStringArray,
    ) {
        let source = match index {
            0 => GString::new(),
            i => match usize::try_from(i - 1).ok().and_then(|i| sources.get(i)) {
                Some(s) => s,
                None => return,
            },
        };
        self.pick_graph_input_source(id, pin, source);
    }
}
