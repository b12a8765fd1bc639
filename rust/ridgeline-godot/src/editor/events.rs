//! Converting Godot's `InputEvent`s into [`ViewportEvent`]s (modifiers and buttons from the
//! event itself) and the event's position into viewport pixels.

use super::input::{Button, EventKind, Key, ViewportEvent};
use godot::classes::{
    InputEvent, InputEventKey, InputEventMouse, InputEventMouseButton, InputEventWithModifiers,
};
use godot::global::{Key as GKey, MouseButton, MouseButtonMask};
use godot::obj::{EngineBitfield, EngineEnum};
use godot::prelude::*;

/// The event as the decision sees it.
pub fn convert(event: &Gd<InputEvent>) -> ViewportEvent {
    let (shift, ctrl, alt) = match event.clone().try_cast::<InputEventWithModifiers>() {
        Ok(m) => (
            m.is_shift_pressed(),
            m.is_ctrl_pressed() || m.is_meta_pressed(),
            m.is_alt_pressed(),
        ),
        Err(_) => (false, false, false),
    };
    let mask = event
        .clone()
        .try_cast::<InputEventMouse>()
        .map_or(0, |m| m.get_button_mask().ord());
    let nav = MouseButtonMask::RIGHT.ord() | MouseButtonMask::MIDDLE.ord();
    let kind = if let Ok(b) = event.clone().try_cast::<InputEventMouseButton>() {
        let i = b.get_button_index();
        let button = if i == MouseButton::LEFT {
            Button::Left
        } else if i == MouseButton::RIGHT || i == MouseButton::MIDDLE {
            Button::Navigation
        } else if i == MouseButton::WHEEL_UP {
            Button::WheelUp
        } else if i == MouseButton::WHEEL_DOWN {
            Button::WheelDown
        } else {
            Button::Other
        };
        EventKind::Button {
            button,
            pressed: b.is_pressed(),
        }
    } else if event.is_class("InputEventMouseMotion") {
        EventKind::Motion
    } else if let Ok(k) = event.clone().try_cast::<InputEventKey>() {
        // Digits by their physical key: with "Emulate Numpad" (on by default) the 3D viewport
        // turns the top-row digits into keypad keys before plugins see them, and the real
        // keypad keeps Godot's view shortcuts.
        let mut key = key_of(k.get_keycode());
        if let Key::Digit(_) | Key::Other = key {
            key = match key_of(k.get_physical_keycode()) {
                d @ Key::Digit(_) => d,
                _ if matches!(key, Key::Digit(_)) => Key::Other,
                _ => key,
            };
        }
        EventKind::Key {
            key,
            pressed: k.is_pressed(),
            echo: k.is_echo(),
        }
    } else {
        EventKind::Other
    };
    ViewportEvent {
        kind,
        shift,
        ctrl,
        alt,
        left_held: mask & MouseButtonMask::LEFT.ord() != 0,
        navigation_held: mask & nav != 0,
    }
}

fn key_of(k: GKey) -> Key {
    const DIGITS: [GKey; 10] = [
        GKey::KEY_0,
        GKey::KEY_1,
        GKey::KEY_2,
        GKey::KEY_3,
        GKey::KEY_4,
        GKey::KEY_5,
        GKey::KEY_6,
        GKey::KEY_7,
        GKey::KEY_8,
        GKey::KEY_9,
    ];
    if let Some(d) = DIGITS.iter().position(|d| *d == k) {
        return Key::Digit(d as u8);
    }
    match k {
        GKey::ESCAPE => Key::Escape,
        GKey::BRACKETLEFT => Key::BracketLeft,
        GKey::BRACKETRIGHT => Key::BracketRight,
        GKey::MINUS => Key::Minus,
        GKey::EQUAL => Key::Equal,
        k if (GKey::A.ord()..=GKey::Z.ord()).contains(&k.ord()) => {
            Key::Letter(char::from(b'A' + (k.ord() - GKey::A.ord()) as u8))
        }
        _ => Key::Other,
    }
}

/// The mouse position of `event` in the camera viewport's pixels (the surface may show the
/// viewport at half resolution: positions are divided by the container's `stretch_shrink`).
pub fn viewport_position(
    camera: &Gd<godot::classes::Camera3D>,
    event: &Gd<InputEvent>,
) -> Option<Vector2> {
    let m = event.clone().try_cast::<InputEventMouse>().ok()?;
    let shrink = camera
        .get_viewport()
        .and_then(|v| v.get_parent())
        .and_then(|p| p.try_cast::<godot::classes::SubViewportContainer>().ok())
        .map_or(1, |c| c.get_stretch_shrink().max(1));
    Some(m.get_position() / shrink as f32)
}
