//! Biome paint: the recipe's biomes as colour swatches in the dock, the chosen biome (kept in
//! the project metadata), and the plugin methods scripts and tests use.

use super::edit_source::source_recipe;
use super::plugin::RidgelineEditorPlugin;
use super::settings;
use godot::classes::{Button, ButtonGroup, HFlowContainer, StyleBoxFlat};
use godot::prelude::*;

/// The biomes of the edited terrain's recipe with their tints, in name order (the default
/// biome first when the recipe defines no biomes).
pub fn recipe_biomes(plugin: &RidgelineEditorPlugin) -> Vec<(String, Color)> {
    let Some(t) = &plugin.terrain else {
        return Vec::new();
    };
    let Ok(r) = source_recipe(t) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Color)> = r
        .biomes
        .iter()
        .map(|(name, b)| {
            let [cr, cg, cb, ca] = b.color.map(|c| c as f32);
            (name.clone(), Color::from_rgba(cr, cg, cb, ca))
        })
        .collect();
    if out.is_empty() {
        out.push((r.default_biome.clone(), Color::from_rgb(0.5, 0.5, 0.5)));
    }
    out
}

/// Fills `flow` with one toggle button per biome (its tint as background), the chosen one
/// pressed; presses call the plugin's `_on_biome_button(name)`.
pub fn fill_swatches(
    flow: &mut Gd<HFlowContainer>,
    plugin: &Gd<Object>,
    biomes: &[(String, Color)],
    chosen: &str,
) {
    for mut c in flow.get_children().iter_shared() {
        flow.remove_child(&c);
        c.queue_free();
    }
    let group = ButtonGroup::new_gd();
    for (name, color) in biomes {
        let mut b = Button::new_alloc();
        b.set_text(name);
        b.set_toggle_mode(true);
        b.set_button_group(&group);
        b.set_tooltip_text(&format!("Paint biome `{name}`"));
        b.set_name(&format!("Biome_{name}"));
        // Dark text on light tints, light text on dark ones.
        let light = color.r * 0.3 + color.g * 0.59 + color.b * 0.11 > 0.5;
        let text = if light { Color::BLACK } else { Color::WHITE };
        for (state, border) in [
            ("normal", 0),
            ("hover", 1),
            ("pressed", 3),
            ("hover_pressed", 3),
            ("focus", 0),
        ] {
            let mut style = StyleBoxFlat::new_gd();
            style.set_bg_color(Color::from_rgba(color.r, color.g, color.b, 1.0));
            style.set_border_width_all(border);
            style.set_border_color(Color::from_rgb(1.0, 0.8, 0.2));
            style.set_content_margin_all(4.0);
            if state == "focus" {
                style.set_draw_center(false);
            }
            b.add_theme_stylebox_override(state, &style);
        }
        for key in [
            "font_color",
            "font_hover_color",
            "font_pressed_color",
            "font_hover_pressed_color",
        ] {
            b.add_theme_color_override(key, text);
        }
        b.set_pressed_no_signal(name == chosen);
        let call = Callable::from_object_method(plugin, "_on_biome_button")
            .bindv(&VarArray::from(&[name.to_variant()]));
        b.connect("pressed", &call);
        flow.add_child(&b);
    }
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Chooses the biome **Biome paint** paints (one of the edited recipe's biomes, as the
    /// dock's swatches do). Returns false for a name the recipe does not define.
    #[func]
    pub fn set_paint_biome(&mut self, name: GString) -> bool {
        let name = name.to_string();
        if !self.biomes.iter().any(|(b, _)| *b == name) {
            godot_error!(
                "RidgelineEditorPlugin.set_paint_biome: the recipe has no biome `{name}` (it has {})",
                self.biomes
                    .iter()
                    .map(|(b, _)| b.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return false;
        }
        self.biome = name;
        settings::save_biome(&self.biome);
        self.refresh_biomes();
        true
    }

    /// The biome **Biome paint** paints.
    #[func]
    pub fn get_paint_biome(&self) -> GString {
        self.biome.as_str().into()
    }

    /// Dock: a biome swatch was pressed.
    #[func]
    fn _on_biome_button(&mut self, name: GString) {
        self.set_paint_biome(name);
    }
}

impl RidgelineEditorPlugin {
    /// Re-reads the recipe's biomes, keeps the chosen one when it still exists (else the
    /// remembered one, else the first) and redraws the swatches.
    pub(super) fn refresh_biomes(&mut self) {
        self.biomes = recipe_biomes(self);
        if !self.biomes.iter().any(|(b, _)| *b == self.biome) {
            let remembered = settings::load_biome();
            self.biome = if self.biomes.iter().any(|(b, _)| *b == remembered) {
                remembered
            } else {
                self.biomes
                    .first()
                    .map(|(b, _)| b.clone())
                    .unwrap_or_default()
            };
        }
        let me = self.to_gd().upcast::<Object>();
        let (biomes, chosen) = (self.biomes.clone(), self.biome.clone());
        if let Some(d) = &mut self.dock {
            fill_swatches(&mut d.biome_swatches, &me, &biomes, &chosen);
        }
    }
}
