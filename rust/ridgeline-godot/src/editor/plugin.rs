//! `RidgelineEditorPlugin`: the Terrain dock, viewport brushes with one undo step per stroke,
//! saving edited assets, and the export cooker.

use super::dock::Dock;
use super::export_plugin::TerrainExportPlugin;
use super::gizmo::TerrainGizmoPlugin;
use super::input::{self, Command};
use super::live_stroke::LiveStroke;
use super::preview::Ring;
use super::tools::{Brush, Group, Tool};
use super::{events, settings};
use crate::resources::terrain_asset::TerrainAsset;
use crate::terrain::Terrain3D;
use godot::classes::editor_plugin::{AfterGuiInput, DockSlot};
use godot::classes::{Camera3D, Control, EditorPlugin, IEditorPlugin, InputEvent, Viewport};
use godot::prelude::*;
use std::collections::HashMap;

/// Ridgeline's editor plugin, added automatically when the extension loads in the editor.
///
/// With a [Terrain3D] selected it shows the **Terrain** dock (tools, brush settings, saving)
/// and paints strokes in the 3D viewport: each drag is one stroke and one undo step
/// (Ctrl+Z / Ctrl+Y), written into the terrain's asset, which is saved with the scene (Ctrl+S)
/// or with **Apply changes to asset**. It also registers [TerrainExportPlugin], so every export
/// ships cooked terrains. Nothing to enable: the extension loads it in every project that
/// contains the addon. See `docs/editor.md`.
#[derive(GodotClass)]
#[class(tool, init, base = EditorPlugin)]
pub struct RidgelineEditorPlugin {
    export: Option<Gd<TerrainExportPlugin>>,
    gizmo: Option<Gd<TerrainGizmoPlugin>>,
    pub(super) dock: Option<Dock>,
    /// The edited terrain.
    pub(super) terrain: Option<Gd<Terrain3D>>,
    pub(super) tool: Tool,
    pub(super) brushes: HashMap<Group, Brush>,
    /// Brush masks per group (empty: circle; see [`super::brush_masks`]).
    pub(super) masks: HashMap<Group, String>,
    pub(super) stroke: Option<LiveStroke>,
    pub(super) ring: Option<Ring>,
    /// Terrain-local cursor position over the surface, with its height and slope.
    pub(super) cursor: Option<super::live_stroke::Cursor>,
    /// Modifiers of the last event (the ring's colour).
    pub(super) shift: bool,
    pub(super) ctrl: bool,
    /// Assets edited since they were last saved.
    pub(super) dirty: Vec<Gd<TerrainAsset>>,
    /// The last message shown in the dock.
    pub(super) message: String,
    /// The **Import heightmap…** dialogs.
    pub(super) import: Option<super::heightmap_import::ImportDialogs>,
    /// The **Export layers…** / **Import layers…** folder dialog.
    pub(super) layer_files: Option<super::layer_files_dialog::LayerFilesDialog>,
    /// The **Create terrain asset…** dialog.
    pub(super) create_dialog: Option<super::create_asset::CreateDialog>,
    /// Seconds since the terrains' source files were last checked.
    since_source_check: f64,
    /// The Terrain Graph workspace (bottom panel), once opened.
    pub(super) graph: Option<super::graph::Workspace>,
    /// F's framed view, held for a few frames (see [`super::frame_view`]).
    pub(super) framing: Option<super::frame_view::Framed>,
    /// Ramp: the first click's terrain-local `[x, z, height]`, until the second click.
    pub(super) ramp_start: Option<[f64; 3]>,
    /// Live-stroke stamps applied this frame (see [`super::stamp_path::stamps_per_frame`]).
    pub(super) stamps_this_frame: usize,
    /// Biome paint: the edited recipe's biomes and tints, and the chosen one.
    pub(super) biomes: Vec<(String, Color)>,
    pub(super) biome: String,
    /// Foliage: the palette foliage type painted.
    pub(super) foliage: String,
    /// The layer each layer kind's tools paint into (empty or missing: the kind's first
    /// layer; see [`super::layers_panel`]).
    pub(super) target_layers: HashMap<&'static str, String>,
    base: Base<EditorPlugin>,
}

#[godot_api]
impl IEditorPlugin for RidgelineEditorPlugin {
    fn enter_tree(&mut self) {
        let plugin = TerrainExportPlugin::new_gd();
        self.base_mut().add_export_plugin(&plugin);
        self.export = Some(plugin);
        let gizmo = TerrainGizmoPlugin::new_gd();
        self.base_mut().add_node_3d_gizmo_plugin(&gizmo);
        self.gizmo = Some(gizmo);
        self.brushes = settings::load_brushes();
        self.masks = settings::load_masks();
        let dock = Dock::new(&self.to_gd().upcast());
        let control = dock.control();
        self.base_mut()
            .add_control_to_dock(DockSlot::RIGHT_UL, &control);
        self.dock = Some(dock);
        self.import = Some(super::heightmap_import::ImportDialogs::new(
            &self.to_gd().upcast(),
        ));
        self.create_dialog = Some(super::create_asset::CreateDialog::new(
            &self.to_gd().upcast(),
        ));
        self.layer_files = Some(super::layer_files_dialog::LayerFilesDialog::new(
            &self.to_gd().upcast(),
        ));
        self.refresh_dock();
        self.base_mut().set_process(true);
    }

    fn process(&mut self, delta: f64) {
        // A new frame: the live stroke may show more of its pending stamps.
        self.stamps_this_frame = 0;
        self.flush_pending_stamps();
        self.hold_framing();
        // About once a second: regenerate terrains whose heightmap files changed on disk.
        self.since_source_check += delta;
        if self.since_source_check < 1.0 {
            return;
        }
        self.since_source_check = 0.0;
        for mut t in crate::terrain::registry::live_terrains() {
            if t.bind_mut().regenerate_if_sources_changed() && Some(&t) == self.terrain.as_ref() {
                self.show_message("A heightmap changed on disk: regenerating…", false);
            }
        }
    }

    fn exit_tree(&mut self) {
        self.leave_terrain();
        self.close_terrain_graph();
        if let Some(plugin) = self.export.take() {
            self.base_mut().remove_export_plugin(&plugin);
        }
        if let Some(gizmo) = self.gizmo.take() {
            self.base_mut().remove_node_3d_gizmo_plugin(&gizmo);
        }
        if let Some(d) = self.import.take() {
            d.free();
        }
        if let Some(d) = self.create_dialog.take() {
            d.free();
        }
        if let Some(d) = self.layer_files.take() {
            d.free();
        }
        if let Some(dock) = self.dock.take() {
            // Detach first: on 4.6 removing the dock frees its wrapper and everything in it.
            let mut control = dock.control();
            if let Some(mut parent) = control.get_parent() {
                parent.remove_child(&control);
            }
            self.base_mut().remove_control_from_docks(&control);
            control.queue_free();
        }
    }

    fn get_plugin_name(&self) -> GString {
        "Ridgeline".into()
    }

    fn handles(&self, object: Gd<Object>) -> bool {
        object.try_cast::<Terrain3D>().is_ok()
    }

    fn edit(&mut self, object: Option<Gd<Object>>) {
        let next = object.and_then(|o| o.try_cast::<Terrain3D>().ok());
        if next == self.terrain {
            return;
        }
        self.leave_terrain();
        self.terrain = next;
        self.refresh_dock();
    }

    fn make_visible(&mut self, visible: bool) {
        if visible && let Some(d) = &self.dock {
            d.bring_to_front();
        }
        if !visible {
            self.leave_terrain();
            self.terrain = None;
            self.refresh_dock();
        }
    }

    fn forward_3d_gui_input(
        &mut self,
        camera: Option<Gd<Camera3D>>,
        event: Option<Gd<InputEvent>>,
    ) -> i32 {
        let (Some(camera), Some(event)) = (camera, event) else {
            return AfterGuiInput::PASS.ord();
        };
        if self.terrain.is_none() {
            return AfterGuiInput::PASS.ord();
        }
        let ev = events::convert(&event);
        if std::env::var_os("RIDGELINE_EDITOR_DEBUG").is_some() {
            godot_print!("ridgeline editor input: {} -> {ev:?}", event.as_text());
        }
        if ev.navigation_held
            || matches!(
                ev.kind,
                input::EventKind::Button {
                    button: input::Button::Navigation,
                    ..
                } | input::EventKind::Key { pressed: true, .. }
            )
        {
            self.release_framing();
        }
        let busy = self.stroke.is_some() || self.ramp_start.is_some();
        let decision = input::decide(self.tool, busy, &ev);
        self.shift = ev.shift;
        self.ctrl = ev.ctrl;
        let ray = events::viewport_position(&camera, &event)
            .map(|p| (camera.project_ray_origin(p), camera.project_ray_normal(p)));
        if let Some((from, dir)) = ray {
            self.update_cursor(from, dir);
        }
        match decision.command {
            Some(Command::Frame) => self.frame_terrain(&camera),
            Some(cmd) => self.run(cmd),
            None => {}
        }
        self.update_ring();
        self.base().update_overlays();
        if decision.consume {
            if event.is_class("InputEventKey") {
                mark_handled(&camera);
            }
            AfterGuiInput::STOP.ord()
        } else {
            AfterGuiInput::PASS.ord()
        }
    }

    fn forward_3d_draw_over_viewport(&mut self, overlay: Option<Gd<Control>>) {
        let (Some(overlay), Some(_)) = (overlay, &self.terrain) else {
            return;
        };
        if self.tool == Tool::None {
            return;
        }
        let Some(font) = overlay.get_theme_default_font() else {
            return;
        };
        let text = self.cursor_label();
        let pos = Vector2::new(12.0, overlay.get_size().y - 16.0);
        overlay
            .draw_string_outline_ex(&font, pos, &text)
            .size(4)
            .font_size(15)
            .modulate(Color::from_rgba(0.0, 0.0, 0.0, 0.8))
            .done();
        overlay
            .draw_string_ex(&font, pos, &text)
            .font_size(15)
            .modulate(Color::from_rgb(1.0, 1.0, 1.0))
            .done();
    }

    fn save_external_data(&mut self) {
        self.save_dirty();
    }

    fn get_unsaved_status(&self, _for_scene: GString) -> GString {
        if self.dirty.is_empty() {
            return GString::new();
        }
        let names: Vec<String> = self
            .dirty
            .iter()
            .map(|a| a.get_path().to_string())
            .collect();
        format!(
            "Save changes to the terrain asset(s) {} before closing?",
            names.join(", ")
        )
        .as_str()
        .into()
    }
}

#[godot_api]
impl RidgelineEditorPlugin {
    /// Selects a tool by name (`none`, `raise`, `lower`, `smooth`, `flatten`, `set_height`,
    /// `exclude`, `erase`, `hole`, `fill_hole`, `ramp`, `protect`, `biome_paint`,
    /// `foliage_paint`, `foliage_restore`, `convert_object`, `water`, `water_remove`), as the
    /// dock's buttons do.
    /// Returns false for an unknown name.
    #[func]
    pub fn set_tool(&mut self, name: GString) -> bool {
        match Tool::from_name(&name.to_string()) {
            Some(t) => {
                self.select_tool(t);
                true
            }
            None => {
                godot_error!("RidgelineEditorPlugin.set_tool: unknown tool `{name}`");
                false
            }
        }
    }

    /// The current tool's name.
    #[func]
    pub fn get_tool(&self) -> GString {
        self.tool.name().into()
    }

    /// The current tool group's brush settings: `size`, `strength`, `falloff`, `spacing`,
    /// `target_height` (Set height's target, the Water tool's water level), `slope_min`,
    /// `slope_max` (degrees; 0 and 90 limit nothing), `density` (the Foliage tool's density
    /// multiplier, 0..1), `water_depth` (the Water tool's depth, 0..8 m) and `water_level` (1:
    /// level mode on, the default; 0 off).
    #[func]
    pub fn get_brush(&self) -> VarDictionary {
        let b = self.brush();
        let mut d = VarDictionary::new();
        d.set("size", b.size);
        d.set("strength", b.strength);
        d.set("falloff", b.falloff);
        d.set("spacing", b.spacing);
        d.set("target_height", b.target_height);
        d.set("slope_min", b.slope_min);
        d.set("slope_max", b.slope_max);
        d.set("density", b.density);
        d.set("water_depth", b.water_depth);
        d.set("water_level", b.water_level);
        d
    }

    /// Sets brush settings of the current tool group from a Dictionary with any of the keys of
    /// [method get_brush]; values (floats, ints, or a bool for `water_level`) are clamped into
    /// range. Remembered per project. An unknown key or a value that is not a number is
    /// reported with an error and skipped; the other keys still apply.
    #[func]
    pub fn set_brush(&mut self, values: VarDictionary) {
        let mut b = self.brush().to_json();
        for (k, v) in values.iter_shared() {
            let key = k.to_string();
            let number = v
                .try_to::<f64>()
                .or_else(|_| v.try_to::<i64>().map(|i| i as f64))
                .or_else(|_| v.try_to::<bool>().map(|t| if t { 1.0 } else { 0.0 }));
            match (b.get(&key).is_some(), number) {
                (true, Ok(n)) => b[key] = serde_json::json!(n),
                (false, _) => godot_error!(
                    "RidgelineEditorPlugin.set_brush: unknown key `{}`; the keys are those of get_brush()",
                    key.escape_debug()
                ),
                (true, Err(_)) => godot_error!(
                    "RidgelineEditorPlugin.set_brush: `{key}` must be a number, got {:?}",
                    v.get_type()
                ),
            }
        }
        self.set_current_brush(Brush::from_json(&b));
    }

    /// The text of the label drawn next to the cursor: tool, size, strength, and the height and
    /// slope under the cursor.
    #[func]
    pub fn get_cursor_label(&self) -> GString {
        self.cursor_label().as_str().into()
    }

    /// The last message the dock shows (errors, saves, read-only sources).
    #[func]
    pub fn get_message(&self) -> GString {
        self.message.as_str().into()
    }

    /// True while a brush stroke is in progress (left button held).
    #[func]
    pub fn is_stroking(&self) -> bool {
        self.stroke.is_some()
    }
}

impl RidgelineEditorPlugin {
    /// The brush of the current tool's group.
    pub(super) fn brush(&self) -> Brush {
        self.brushes
            .get(&self.tool.group())
            .copied()
            .unwrap_or_default()
    }

    pub(super) fn set_current_brush(&mut self, b: Brush) {
        let g = self.tool.group();
        self.brushes.insert(g, b.clamped());
        settings::save_brush(g, &b.clamped());
        self.refresh_tool();
    }

    pub(super) fn select_tool(&mut self, t: Tool) {
        if self.stroke.is_some() || self.ramp_start.is_some() {
            self.cancel_stroke();
        }
        self.tool = t;
        if t == Tool::None {
            self.ring = None;
        }
        self.refresh_masks();
        self.refresh_tool();
    }

    pub(super) fn refresh_tool(&mut self) {
        let (tool, brush) = (self.tool, self.brush());
        if let Some(d) = &mut self.dock {
            d.show_tool(tool, &brush);
        }
        self.update_ring();
        self.refresh_layers();
        self.base().update_overlays();
    }

    /// Cancels a live stroke and hides the cursor when the terrain stops being edited. Edits
    /// already made stay (and stay unsaved until saved).
    fn leave_terrain(&mut self) {
        if self.stroke.is_some() || self.ramp_start.is_some() {
            self.cancel_stroke();
        }
        self.ring = None;
        self.cursor = None;
    }

    /// Runs one brush command.
    fn run(&mut self, cmd: Command) {
        match cmd {
            Command::Begin { invert } => self.begin_stroke(invert),
            Command::Extend => self.extend_stroke(),
            Command::End => self.end_stroke(),
            Command::Cancel => self.cancel_stroke(),
            Command::SelectTool(t) => self.select_tool(t),
            Command::Resize(up) => self.set_current_brush(self.brush().resized(up)),
            Command::Strength(up) => self.set_current_brush(self.brush().restrengthened(up)),
            Command::PickHeight => {
                if let Some(c) = self.cursor {
                    let b = Brush {
                        target_height: c.height,
                        ..self.brush()
                    };
                    self.set_current_brush(b);
                }
            }
            Command::AdjustTarget(d) => {
                let b = self.brush();
                let t = ((b.target_height + d) * 10.0).round() / 10.0;
                self.set_current_brush(Brush {
                    target_height: t,
                    ..b
                });
            }
            // Needs the camera: handled in `forward_3d_gui_input`.
            Command::Hover | Command::Frame => {}
        }
    }
}

/// Marks a consumed key handled on the window that dispatches it (the viewport surface's
/// window, not the 3D SubViewport), so the editor's shortcuts do not also act on it.
fn mark_handled(camera: &Gd<Camera3D>) {
    let outer: Option<Gd<Viewport>> = camera
        .get_viewport()
        .and_then(|v| v.get_parent())
        .and_then(|p| p.get_viewport());
    if let Some(mut v) = outer {
        v.set_input_as_handled();
    }
}
