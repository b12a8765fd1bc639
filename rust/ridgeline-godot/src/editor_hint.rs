//! Whether Godot runs as the editor, asked of the engine once.

use godot::classes::Engine;
use godot::obj::Singleton;
use std::sync::OnceLock;

static IN_EDITOR: OnceLock<bool> = OnceLock::new();

/// `Engine.is_editor_hint()`, asked once per process: the answer never changes while Godot
/// runs, and asking through the engine's singleton on every write or frame costs a call
/// (about 2 µs of a cold `set_user_channel` tick).
pub fn in_editor() -> bool {
    *IN_EDITOR.get_or_init(|| Engine::singleton().is_editor_hint())
}
