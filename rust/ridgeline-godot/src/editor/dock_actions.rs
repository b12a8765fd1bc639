//! The Terrain dock's actions: its buttons' and the edited terrain's signal callbacks, and the
//! dock's status and message lines, and saving edited assets.

use super::plugin::RidgelineEditorPlugin;
use super::tools::Brush;
use crate::resources::terrain_asset::TerrainAsset;
use crate::terrain::Terrain3D;
use godot::classes::ResourceSaver;
use godot::global::Error;
use godot::prelude::*;

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Dock: a tool button was pressed.
    #[func]
    fn _on_tool_button(&mut self, name: GString) {
        self.set_tool(name);
    }

    /// Dock: a brush check box changed (`water_level`: 1 on, 0 off).
    #[func]
    fn _on_brush_toggle(&mut self, pressed: bool, key: GString) {
        self._on_brush_value(if pressed { 1.0 } else { 0.0 }, key);
    }

    /// Dock: a brush value changed.
    #[func]
    fn _on_brush_value(&mut self, value: f64, key: GString) {
        let mut b = self.brush().to_json();
        b[key.to_string()] = serde_json::json!(value);
        self.set_current_brush(Brush::from_json(&b));
    }

    /// Dock: an **Overlay** was chosen (item index = [enum Terrain3D.Overlay] value).
    #[func]
    fn _on_overlay_selected(&mut self, index: i64) {
        use crate::convert::class_enum::ClassEnum;
        use crate::terrain::overlay::Overlay;
        let (Some(t), Some(mode)) = (self.terrain.clone(), Overlay::from_ord(index)) else {
            return;
        };
        let mut t = t;
        t.bind_mut().set_overlay(mode);
    }

    /// Dock: **Apply changes to asset** was pressed.
    #[func]
    fn _on_save_pressed(&mut self) {
        let inline = self.terrain.as_ref().is_some_and(|t| {
            matches!(
                super::edit_source::source_of(t),
                Ok(super::edit_source::EditSource::Inline)
            )
        });
        if self.dirty.is_empty() && inline {
            self.show_message(
                "This terrain's strokes live in its inline recipe: save the scene (Ctrl+S).",
                false,
            );
        } else if self.dirty.is_empty() {
            self.show_message("Nothing to save: the asset has no unsaved edits.", false);
        }
        self.save_dirty();
    }

    /// Dock: **Generate** was pressed.
    #[func]
    fn _on_generate_pressed(&mut self) {
        if let Some(t) = &self.terrain {
            let mut t = t.clone();
            self.run_deferred_generate(&mut t);
        }
    }

    /// An edited asset emitted `changed` (a stroke, undo or redo wrote into it).
    #[func]
    fn _on_asset_changed(&mut self, asset: Gd<TerrainAsset>) {
        if !self.dirty.contains(&asset) {
            self.dirty.push(asset);
            self.refresh_status();
        }
        // Strokes, layer edits, undo and redo all change the asset's recipe.
        self.refresh_layers();
    }

    /// An edit (stroke, layer edit, undo, redo) wrote into an edited terrain's inline recipe.
    #[func]
    fn _on_inline_recipe_edited(&mut self) {
        self.refresh_status();
        self.refresh_layers();
    }

    /// The edited terrain reported generation progress.
    #[func]
    fn _on_generation_progress(&mut self, fraction: f32, stage: GString) {
        if let Some(d) = &mut self.dock {
            d.progress.set_visible(true);
            d.progress.set_value(fraction as f64);
            d.progress.set_tooltip_text(&stage);
        }
    }

    /// The edited terrain finished generating.
    #[func]
    fn _on_generation_finished(&mut self, ok: bool, message: GString) {
        if let Some(d) = &mut self.dock {
            d.progress.set_visible(false);
        }
        let warnings: Vec<String> = match (&self.terrain, ok) {
            (Some(t), true) => t
                .bind()
                .get_warnings()
                .as_slice()
                .iter()
                .map(|w| w.to_string())
                .collect(),
            _ => Vec::new(),
        };
        let text = if !ok {
            format!("Generation failed: {message}")
        } else if warnings.is_empty() {
            format!("Generated ({message}).")
        } else {
            format!(
                "Generated ({message}), with {} warning(s): {}",
                warnings.len(),
                warnings.join(" · ")
            )
        };
        self.show_message(&text, !ok || !warnings.is_empty());
        self.refresh_status();
        self.refresh_biomes();
        self.refresh_foliage();
    }
}

impl RidgelineEditorPlugin {
    /// Shows the dock's page for the edited terrain (or the idle hint) and connects signals.
    pub(super) fn refresh_dock(&mut self) {
        let editing = self.terrain.is_some();
        if let Some(d) = &mut self.dock {
            d.show_editing(editing);
        }
        if let Some(t) = self.terrain.clone() {
            let me = self.to_gd();
            let mut t = t.upcast::<Object>();
            for (signal, method) in [
                ("generation_progress", "_on_generation_progress"),
                ("generation_finished", "_on_generation_finished"),
            ] {
                let call = Callable::from_object_method(&me, method);
                if !t.is_connected(signal, &call) {
                    t.connect(signal, &call);
                }
            }
        }
        self.refresh_status();
        self.refresh_biomes();
        self.refresh_foliage();
        self.refresh_masks();
        self.refresh_tool();
        let overlay = self
            .terrain
            .as_ref()
            .map(|t| t.get("overlay").try_to::<i32>().unwrap_or(0));
        if let (Some(d), Some(o)) = (&mut self.dock, overlay) {
            d.overlay_option.select(o);
        }
    }

    /// The source line: what a stroke edits, or why it cannot.
    pub(super) fn refresh_status(&mut self) {
        let text = match &self.terrain {
            None => String::new(),
            Some(t) => match super::edit_source::source_of(t) {
                Ok(s) => {
                    let unsaved = s.asset().is_some_and(|a| self.dirty.contains(a));
                    s.describe(t, unsaved)
                }
                Err(why) => why,
            },
        };
        let no_source = self
            .terrain
            .as_ref()
            .is_some_and(|t| t.get("asset").is_nil() && t.get("recipe").to::<GString>().is_empty());
        if let Some(d) = &mut self.dock {
            d.set_status(&text, no_source);
        }
    }

    pub(super) fn show_message(&mut self, text: &str, error: bool) {
        if error {
            godot_warn!("Ridgeline: {text}");
        }
        self.message = text.to_string();
        if let Some(d) = &mut self.dock {
            d.set_message(text, error);
        }
    }

    /// Saves every edited asset through the atomic saver; a failure keeps it unsaved.
    pub(super) fn save_dirty(&mut self) {
        let mut failed = Vec::new();
        let mut saved = Vec::new();
        for asset in std::mem::take(&mut self.dirty) {
            let err = ResourceSaver::singleton().save(&asset);
            if err == Error::OK {
                saved.push(asset.get_path().to_string());
            } else {
                failed.push(format!("{}: {err:?}", asset.get_path()));
                self.dirty.push(asset);
            }
        }
        if !failed.is_empty() {
            self.show_message(
                &format!(
                    "Saving failed, the edits stay unsaved: {}",
                    failed.join("; ")
                ),
                true,
            );
        } else if !saved.is_empty() {
            self.show_message(&format!("Saved {}.", saved.join(", ")), false);
        }
        self.refresh_status();
    }

    pub(super) fn run_deferred_generate(&mut self, t: &mut Gd<Terrain3D>) {
        if self.stroke.is_some() {
            self.cancel_stroke();
        }
        t.call_deferred("generate", &[]);
        self.show_message("Generating…", false);
    }
}
