//! What the plugin does with a viewport event: pass it to Godot (navigation, selection) or
//! consume it as a brush command. Pure Rust over [`ViewportEvent`], converted from Godot's
//! `InputEvent` by the plugin (modifiers and buttons are read from the event, never from
//! `Input`, so synthetic events in tests behave like real ones).

use super::tools::{TOOLS, Tool};

/// Mouse buttons the decision cares about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// Left: brush.
    Left,
    /// Right or middle: navigation.
    Navigation,
    /// Wheel up.
    WheelUp,
    /// Wheel down.
    WheelDown,
    /// Anything else.
    Other,
}

/// Keys the decision cares about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Esc.
    Escape,
    /// `[`.
    BracketLeft,
    /// `]`.
    BracketRight,
    /// `-`.
    Minus,
    /// `=`.
    Equal,
    /// `0`…`9`.
    Digit(u8),
    /// A letter `A`…`Z` (upper case).
    Letter(char),
    /// Anything else.
    Other,
}

/// The kind of a viewport event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EventKind {
    /// A mouse button went down or up.
    Button {
        /// Which.
        button: Button,
        /// Down (true) or up.
        pressed: bool,
    },
    /// The mouse moved.
    Motion,
    /// A key went down or up.
    Key {
        /// Which.
        key: Key,
        /// Down (true) or up.
        pressed: bool,
        /// A repeat of a held key.
        echo: bool,
    },
    /// Anything else (gestures, joypads).
    Other,
}

/// A viewport event in the terms of the decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewportEvent {
    /// What happened.
    pub kind: EventKind,
    /// Shift held.
    pub shift: bool,
    /// Ctrl (Cmd) held.
    pub ctrl: bool,
    /// Alt held.
    pub alt: bool,
    /// The left button is held (from the event's button mask).
    pub left_held: bool,
    /// The right or middle button is held.
    pub navigation_held: bool,
}

/// A brush command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// Left press: start a stroke (`invert`: Shift was held).
    Begin {
        /// Shift held: the stroke uses [`Tool::inverted`].
        invert: bool,
    },
    /// Left drag: extend the stroke.
    Extend,
    /// Left release: commit the stroke as one undo step.
    End,
    /// Esc during a stroke: restore the surface exactly, drop the stroke.
    Cancel,
    /// Switch tool (Esc with no stroke: [`Tool::None`]).
    SelectTool(Tool),
    /// `[` (false) or `]` (true).
    Resize(bool),
    /// `-` (false) or `=` (true).
    Strength(bool),
    /// Ctrl+click with Set height: take the height under the cursor as the target.
    PickHeight,
    /// Ctrl(+Alt)+wheel with Set height: move the target by this many metres.
    AdjustTarget(f64),
    /// Cursor moved or a modifier changed: update the ring and label (event passes on).
    Hover,
    /// F: frame the whole terrain in the editor camera.
    Frame,
}

/// The decision on one event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// Consume the event (Godot's `AFTER_GUI_INPUT_STOP`) or pass it on.
    pub consume: bool,
    /// What to do, if anything.
    pub command: Option<Command>,
}

const PASS: Decision = Decision {
    consume: false,
    command: None,
};

fn stop(c: Command) -> Decision {
    Decision {
        consume: true,
        command: Some(c),
    }
}

fn hover() -> Decision {
    Decision {
        consume: false,
        command: Some(Command::Hover),
    }
}

/// Decides what `ev` does with `tool` active (`stroking`: a stroke is in progress, or a
/// ramp's first point is set). Called only with a terrain selected.
pub fn decide(tool: Tool, stroking: bool, ev: &ViewportEvent) -> Decision {
    // F frames the selected terrain whatever the tool (Godot's own focus would only centre
    // the view on the node's origin, a corner of the terrain).
    if let EventKind::Key {
        key: Key::Letter('F'),
        pressed: true,
        echo: false,
    } = ev.kind
        && !(ev.ctrl || ev.alt || ev.shift || ev.navigation_held || stroking)
    {
        return stop(Command::Frame);
    }
    if tool == Tool::None {
        return PASS;
    }
    match ev.kind {
        EventKind::Key { key, pressed, echo } => {
            if !pressed {
                return hover();
            }
            if key == Key::Escape && !ev.ctrl && !ev.alt && !ev.shift {
                return stop(if stroking {
                    Command::Cancel
                } else {
                    Command::SelectTool(Tool::None)
                });
            }
            // Hotkeys: no modifiers, and not while navigating (freelook uses WASD).
            if ev.ctrl || ev.alt || ev.navigation_held {
                return hover();
            }
            let cmd = match key {
                Key::BracketLeft => Command::Resize(false),
                Key::BracketRight => Command::Resize(true),
                Key::Minus => Command::Strength(false),
                Key::Equal => Command::Strength(true),
                Key::Digit(d) if !echo && (1..=9).contains(&d) => {
                    Command::SelectTool(TOOLS[d as usize])
                }
                Key::Digit(0) if !echo => Command::SelectTool(Tool::Ramp),
                Key::Letter(c) if !echo => match Tool::from_hotkey(c) {
                    Some(t) => Command::SelectTool(t),
                    None => return hover(),
                },
                _ => return hover(),
            };
            stop(cmd)
        }
        EventKind::Button { button, pressed } => match button {
            Button::Left if ev.alt && !stroking => PASS,
            Button::Left if pressed => {
                if ev.ctrl && tool.picks_height() {
                    stop(Command::PickHeight)
                } else if ev.navigation_held {
                    PASS
                } else {
                    stop(Command::Begin { invert: ev.shift })
                }
            }
            Button::Left => {
                if stroking {
                    stop(Command::End)
                } else {
                    PASS
                }
            }
            Button::WheelUp | Button::WheelDown if ev.ctrl && tool.picks_height() => {
                if !pressed {
                    return stop(Command::Hover);
                }
                let step = if ev.alt { 0.1 } else { 1.0 };
                let sign = if button == Button::WheelUp { 1.0 } else { -1.0 };
                stop(Command::AdjustTarget(sign * step))
            }
            _ => PASS,
        },
        EventKind::Motion => {
            if stroking && ev.left_held {
                stop(Command::Extend)
            } else {
                hover()
            }
        }
        EventKind::Other => PASS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: EventKind) -> ViewportEvent {
        ViewportEvent {
            kind,
            shift: false,
            ctrl: false,
            alt: false,
            left_held: false,
            navigation_held: false,
        }
    }

    fn key(k: Key) -> ViewportEvent {
        ev(EventKind::Key {
            key: k,
            pressed: true,
            echo: false,
        })
    }

    fn left(pressed: bool) -> ViewportEvent {
        ev(EventKind::Button {
            button: Button::Left,
            pressed,
        })
    }

    #[test]
    fn tool_none_passes_everything() {
        for e in [
            left(true),
            key(Key::Escape),
            key(Key::Digit(1)),
            ev(EventKind::Motion),
        ] {
            assert_eq!(decide(Tool::None, false, &e), PASS);
        }
    }

    #[test]
    fn left_drag_is_a_stroke() {
        assert_eq!(
            decide(Tool::Raise, false, &left(true)),
            stop(Command::Begin { invert: false })
        );
        let mut drag = ev(EventKind::Motion);
        drag.left_held = true;
        assert_eq!(decide(Tool::Raise, true, &drag), stop(Command::Extend));
        assert_eq!(decide(Tool::Raise, true, &left(false)), stop(Command::End));
        let mut shifted = left(true);
        shifted.shift = true;
        assert_eq!(
            decide(Tool::Raise, false, &shifted),
            stop(Command::Begin { invert: true })
        );
    }

    #[test]
    fn navigation_reaches_godot() {
        for b in [Button::Navigation, Button::WheelUp, Button::WheelDown] {
            let e = ev(EventKind::Button {
                button: b,
                pressed: true,
            });
            assert_eq!(decide(Tool::Raise, false, &e), PASS);
        }
        let mut alt_left = left(true);
        alt_left.alt = true;
        assert_eq!(decide(Tool::Raise, false, &alt_left), PASS);
        let mut motion = ev(EventKind::Motion);
        motion.navigation_held = true;
        assert!(!decide(Tool::Raise, false, &motion).consume);
        // Freelook: WASD and digits while the right button is held go to Godot.
        let mut held = key(Key::Digit(2));
        held.navigation_held = true;
        assert!(!decide(Tool::Raise, false, &held).consume);
    }

    #[test]
    fn hotkeys_and_escape_ladder() {
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::BracketRight)),
            stop(Command::Resize(true))
        );
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::Minus)),
            stop(Command::Strength(false))
        );
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::Digit(3))),
            stop(Command::SelectTool(Tool::Smooth))
        );
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::Digit(9))),
            stop(Command::SelectTool(Tool::FillHole))
        );
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::Digit(0))),
            stop(Command::SelectTool(Tool::Ramp))
        );
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::Letter('P'))),
            stop(Command::SelectTool(Tool::Protect))
        );
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::Letter('B'))),
            stop(Command::SelectTool(Tool::BiomePaint))
        );
        // Other letters (W, E, R, Q: Godot's transform modes) pass.
        assert!(!decide(Tool::Raise, false, &key(Key::Letter('W'))).consume);
        assert_eq!(
            decide(Tool::Raise, true, &key(Key::Escape)),
            stop(Command::Cancel)
        );
        assert_eq!(
            decide(Tool::Raise, false, &key(Key::Escape)),
            stop(Command::SelectTool(Tool::None))
        );
        let mut ctrl_s = key(Key::Other);
        ctrl_s.ctrl = true;
        assert!(!decide(Tool::Raise, false, &ctrl_s).consume);
    }

    #[test]
    fn f_frames_the_terrain_with_any_tool() {
        for tool in [Tool::None, Tool::Raise, Tool::Ramp] {
            assert_eq!(
                decide(tool, false, &key(Key::Letter('F'))),
                stop(Command::Frame)
            );
        }
        // Shift+F (freelook), Ctrl+F, during a stroke, while navigating: Godot's or nothing.
        let mut shifted = key(Key::Letter('F'));
        shifted.shift = true;
        assert!(!decide(Tool::None, false, &shifted).consume);
        let mut ctrl = key(Key::Letter('F'));
        ctrl.ctrl = true;
        assert!(!decide(Tool::None, false, &ctrl).consume);
        let mut nav = key(Key::Letter('F'));
        nav.navigation_held = true;
        assert!(!decide(Tool::Raise, false, &nav).consume);
        assert_ne!(
            decide(Tool::Raise, true, &key(Key::Letter('F'))).command,
            Some(Command::Frame)
        );
    }

    #[test]
    fn set_height_pick_and_wheel() {
        let mut pick = left(true);
        pick.ctrl = true;
        assert_eq!(
            decide(Tool::SetHeight, false, &pick),
            stop(Command::PickHeight)
        );
        let mut wheel = ev(EventKind::Button {
            button: Button::WheelDown,
            pressed: true,
        });
        wheel.ctrl = true;
        wheel.alt = true;
        assert_eq!(
            decide(Tool::SetHeight, false, &wheel),
            stop(Command::AdjustTarget(-0.1))
        );
        assert!(!decide(Tool::Raise, false, &wheel).consume);
    }
}
