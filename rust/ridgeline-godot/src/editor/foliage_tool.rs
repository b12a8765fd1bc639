//! The **Foliage** tool's choice of foliage type: the edited terrain's palette foliage types in
//! the dock (kept in the project metadata), and the plugin methods scripts and tests use. The
//! strokes themselves (`foliage_density`) come from [`super::tools::stroke_json`].

use super::plugin::RidgelineEditorPlugin;
use super::settings;
use godot::prelude::*;

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Chooses the foliage type **Foliage** paints (one of the edited terrain's palette foliage
    /// types, see [method Terrain3D.get_foliage_types]). Returns false for an unknown type.
    #[func]
    pub fn set_foliage_type(&mut self, name: GString) -> bool {
        let name = name.to_string();
        let types = self.foliage_types();
        if !types.contains(&name) {
            godot_error!(
                "RidgelineEditorPlugin.set_foliage_type: the palette has no foliage type `{name}` \
                 (it has {})",
                if types.is_empty() {
                    "none".to_string()
                } else {
                    types.join(", ")
                }
            );
            return false;
        }
        self.foliage = name;
        settings::save_foliage(&self.foliage);
        self.refresh_foliage();
        true
    }

    /// The foliage type **Foliage** paints (empty when the palette has none).
    #[func]
    pub fn get_foliage_type(&self) -> GString {
        self.foliage.as_str().into()
    }

    /// Dock: a foliage type was chosen.
    #[func]
    fn _on_foliage_selected(&mut self, index: i64) {
        let types = self.foliage_types();
        if let Some(name) = usize::try_from(index).ok().and_then(|i| types.get(i)) {
            let name = name.clone();
            self.set_foliage_type(name.as_str().into());
        }
    }
}

impl RidgelineEditorPlugin {
    /// The edited terrain's foliage types, in palette order.
    fn foliage_types(&self) -> Vec<String> {
        self.terrain
            .as_ref()
            .map(|t| {
                t.bind()
                    .get_foliage_types()
                    .as_slice()
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Re-reads the palette's foliage types, keeps the chosen one when it still exists (else
    /// the remembered one, else the first) and refills the dock's choice.
    pub(super) fn refresh_foliage(&mut self) {
        let types = self.foliage_types();
        if !types.contains(&self.foliage) {
            let remembered = settings::load_foliage();
            self.foliage = if types.contains(&remembered) {
                remembered
            } else {
                types.first().cloned().unwrap_or_default()
            };
        }
        let chosen = types.iter().position(|t| *t == self.foliage);
        if let Some(d) = &mut self.dock {
            let o = &mut d.foliage_option;
            o.clear();
            for t in &types {
                o.add_item(t.as_str());
            }
            if types.is_empty() {
                o.add_item("(the palette has no foliage types)");
                o.set_disabled(true);
            } else {
                o.set_disabled(false);
            }
            o.select(chosen.map_or(0, |i| i as i32));
        }
    }
}
