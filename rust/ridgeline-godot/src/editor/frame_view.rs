//! F over the viewport: frame the whole selected terrain in the editor camera.
//!
//! Godot's *Focus Selection* (`Node3DEditorViewport::focus_selection`, Godot 4.6) only sets the
//! orbit pivot to the node's origin and keeps the orbit distance; it reads no bounds, so no
//! AABB the node could offer changes what it does. The plugin therefore consumes F for a
//! selected terrain and places the camera itself ([`super::framing`]). The editor adopts a
//! camera moved from outside on its next frame (`_camera_moved_externally`): it keeps the
//! camera's view and puts the pivot at its current orbit distance ahead. To make that pivot
//! the terrain's centre the orbit distance is set first through the editor's own wheel zoom:
//! one zoom-in far past the nearest distance (clamped there: `4 × near`) and one zoom-out by
//! the factor that reaches the framed distance (`1 + 0.08 × factor` per event). All three go
//! through the message queue, after this input event, because the wheel events reach this
//! plugin again.

use super::framing;
use super::plugin::RidgelineEditorPlugin;
use godot::builtin::math::ApproxEq;
use godot::classes::{Camera3D, Control, InputEventMouseButton, Node};
use godot::global::MouseButton;
use godot::prelude::*;

/// The editor's zoom step per unit of wheel factor (`ZOOM_FREELOOK_MULTIPLIER − 1`).
const ZOOM_STEP: f64 = 0.08;
/// The editor's bounds on the orbit distance (`ZOOM_FREELOOK_MIN`, `ZOOM_FREELOOK_MAX`).
const ZOOM_MIN: f64 = 0.01;
const ZOOM_MAX: f64 = 10_000.0;

/// Frames after F during which the framed view is put back if something else moved the camera
/// (the editor re-deriving its view from the camera over the first frames).
const HOLD_FRAMES: u32 = 10;

/// A framing being held for a few frames.
pub(super) struct Framed {
    camera: Gd<Camera3D>,
    transform: Transform3D,
    frames: u32,
}

impl RidgelineEditorPlugin {
    /// Once per frame: re-applies the framed view while it is held; navigation input ends
    /// the hold ([`Self::release_framing`]).
    pub(super) fn hold_framing(&mut self) {
        let Some(f) = &mut self.framing else {
            return;
        };
        if f.frames == 0 || !f.camera.is_instance_valid() {
            self.framing = None;
            return;
        }
        f.frames -= 1;
        if !f.camera.get_global_transform().approx_eq(&f.transform) {
            let t = f.transform;
            f.camera.set_global_transform(t);
        }
    }

    /// The user navigates: the framed view is no longer held.
    pub(super) fn release_framing(&mut self) {
        self.framing = None;
    }

    /// Frames the edited terrain in `camera` (the editor camera that received F).
    pub(super) fn frame_terrain(&mut self, camera: &Gd<Camera3D>) {
        let Some(t) = self.terrain.clone() else {
            return;
        };
        let aabb = t.bind().get_aabb();
        if aabb.size.x <= 0.0 || aabb.size.z <= 0.0 {
            self.show_message("Nothing to frame yet: the terrain has no surface.", false);
            return;
        }
        let xf = t.get_global_transform();
        let corners: Vec<[f64; 3]> = (0..8)
            .map(|i| {
                let local = aabb.position
                    + Vector3::new(
                        if i & 1 == 0 { 0.0 } else { aabb.size.x },
                        if i & 2 == 0 { 0.0 } else { aabb.size.y },
                        if i & 4 == 0 { 0.0 } else { aabb.size.z },
                    );
                let w = xf * local;
                [w.x as f64, w.y as f64, w.z as f64]
            })
            .collect();
        let cam_xf = camera.get_global_transform();
        let fwd = -cam_xf.basis.col_c();
        let aspect = camera
            .get_viewport()
            .map(|v| v.get_visible_rect().size)
            .filter(|s| s.y > 0.0)
            .map_or(16.0 / 9.0, |s| (s.x / s.y) as f64);
        let Some(f) = framing::frame(
            &corners,
            [fwd.x as f64, fwd.y as f64, fwd.z as f64],
            camera.get_fov() as f64,
            aspect,
        ) else {
            return;
        };
        let v = |a: [f64; 3]| Vector3::new(a[0] as f32, a[1] as f32, a[2] as f32);
        let [x, y, z] = f.basis_columns();
        let transform = Transform3D::new(Basis::from_cols(v(x), v(y), v(z)), v(f.eye));
        let (near, far) = (camera.get_near() as f64, camera.get_far() as f64);
        let dmin = (near * 4.0).max(ZOOM_MIN);
        let dmax = (far / 4.0).min(ZOOM_MAX);
        if let Some(mut surface) = viewport_surface(camera)
            && dmin < dmax
        {
            let centre = surface.get_size() / 2.0;
            let dist = f.distance.clamp(dmin, dmax);
            for (button, factor) in [
                (MouseButton::WHEEL_UP, 1.0e9),
                (MouseButton::WHEEL_DOWN, (dist / dmin - 1.0) / ZOOM_STEP),
            ] {
                let mut e = InputEventMouseButton::new_gd();
                e.set_button_index(button);
                e.set_pressed(true);
                e.set_factor(factor as f32);
                e.set_position(centre);
                e.set_global_position(centre);
                surface.call_deferred("emit_signal", &["gui_input".to_variant(), e.to_variant()]);
            }
        }
        camera
            .clone()
            .call_deferred("set_global_transform", &[transform.to_variant()]);
        self.framing = Some(Framed {
            camera: camera.clone(),
            transform,
            frames: HOLD_FRAMES,
        });
        let mut text = "Framed the terrain (F).".to_string();
        if f.distance + aabb.size.length() as f64 / 2.0 > far {
            text += &format!(
                " It reaches beyond the editor camera's far plane ({far:.0} m): raise View > \
                 Settings > Z Far to see all of it."
            );
        }
        self.show_message(&text, false);
    }
}

/// The 3D viewport's input surface: the control whose `gui_input` feeds the editor's viewport
/// input (a sibling of the SubViewportContainer that shows `camera`'s viewport).
fn viewport_surface(camera: &Gd<Camera3D>) -> Option<Gd<Control>> {
    let container: Gd<Node> = camera.get_viewport()?.get_parent()?;
    let editor_viewport = container.get_parent()?;
    editor_viewport
        .get_children()
        .iter_shared()
        .filter_map(|c| c.try_cast::<Control>().ok())
        .find(|c| !c.get_signal_connection_list("gui_input").is_empty())
}
