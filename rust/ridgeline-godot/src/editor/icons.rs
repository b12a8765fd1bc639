//! The editor theme's own icons for small buttons (reset, remove).
//!
//! Icons, not glyphs: a symbol the editor font lacks (↺, ✕, −) sends every button that shows
//! it through the system font fallback when it enters the tree, about 0.8 ms each — most of
//! the time a 100-card graph took to build.

use godot::classes::{Button, EditorInterface, Texture2D};
use godot::prelude::*;

/// The editor theme's icon `name` (`EditorIcons`), if the theme has one.
pub fn editor_icon(name: &str) -> Option<Gd<Texture2D>> {
    let theme = EditorInterface::singleton().get_editor_theme()?;
    theme
        .has_icon(name, "EditorIcons")
        .then(|| theme.get_icon(name, "EditorIcons"))
        .flatten()
}

/// Shows the editor icon `name` on `button`, or `fallback` text where the theme has none.
pub fn set_icon(button: &mut Gd<Button>, name: &str, fallback: &str) {
    match editor_icon(name) {
        Some(icon) => button.set_button_icon(&icon),
        None => button.set_text(fallback),
    }
}
