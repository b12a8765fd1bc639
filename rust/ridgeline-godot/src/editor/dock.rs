//! The Terrain dock, built from stock controls (no Control subclass: nothing editor-only is
//! registered in games). Its signals call the plugin's `_on_*` methods.

use super::tools::{Brush, SIZE_RANGE, TARGET_HEIGHT_RANGE, TOOLS, Tool};
use godot::classes::control::SizeFlags;
use godot::classes::scroll_container::ScrollMode;
use godot::classes::{
    Button, ButtonGroup, CheckBox, Control, GridContainer, HFlowContainer, HSeparator, Label,
    OptionButton, ProgressBar, ScrollContainer, SpinBox, TabContainer, VBoxContainer,
};
use godot::prelude::*;

/// A brush field of the dock: key (as in [`Brush::to_json`]), label, range, step.
/// Only the rows the current tool reads are shown ([`Tool::reads`]).
const FIELDS: [(&str, &str, f64, f64, f64); 10] = [
    ("size", "Size (m)", SIZE_RANGE.0, SIZE_RANGE.1, 0.1),
    ("strength", "Strength", 0.0, 1.0, 0.01),
    ("falloff", "Falloff", 0.0, 1.0, 0.01),
    ("spacing", "Spacing", 0.05, 1.0, 0.01),
    (
        "target_height",
        "Target height (m)",
        TARGET_HEIGHT_RANGE.0,
        TARGET_HEIGHT_RANGE.1,
        0.1,
    ),
    ("slope_min", "Slope min (°)", 0.0, 90.0, 0.5),
    ("slope_max", "Slope max (°)", 0.0, 90.0, 0.5),
    ("density", "Density", 0.0, 1.0, 0.01),
    ("water_depth", "Water depth (m)", 0.0, 8.0, 0.1),
    // A check box (on: 1, off: 0).
    ("water_level", "Level surface", 0.0, 1.0, 1.0),
];

/// The hotkeys, as the dock lists them.
pub const HELP: &str = "LMB paint · Shift invert · Ctrl+LMB pick height (Set height, Water level)\n\
    [ ] size · - = strength · 1–9, 0, P, B, G, L, O tool · Esc cancel stroke, then None\n\
    Ramp: click start, click end · F frames the terrain\n\
    Ctrl+wheel ±1 m, Ctrl+Alt+wheel ±0.1 m target (Set height, Water level)\n\
    RMB/MMB/wheel/Alt navigate · Ctrl+Z / Ctrl+Y undo / redo · Ctrl+S saves the asset";

/// The dock's controls.
pub struct Dock {
    /// The dock's root (its name is the tab title).
    pub root: Gd<VBoxContainer>,
    /// The scrolling page shown with a Terrain3D selected.
    scroll: Gd<ScrollContainer>,
    /// Shown without one.
    idle: Gd<Label>,
    status: Gd<Label>,
    buttons: Vec<(Tool, Gd<Button>)>,
    /// The brush rows: key, label, control (a spin box, or the check box of `water_level`).
    rows: Vec<(&'static str, Gd<Label>, Gd<Control>)>,
    /// The generation progress bar.
    pub progress: Gd<ProgressBar>,
    /// Biome paint's swatches (filled by [`super::biome_palette`]).
    pub biome_swatches: Gd<HFlowContainer>,
    biome_section: Gd<VBoxContainer>,
    /// Foliage's type choice (filled by [`super::foliage_tool`]).
    pub foliage_option: Gd<OptionButton>,
    foliage_section: Gd<VBoxContainer>,
    /// The brush mask (filled by [`super::brush_masks`]).
    pub mask_option: Gd<OptionButton>,
    /// **Overlay**: None / Exclusions / Elevation / Slope / Biome ([`crate::terrain::overlay`]).
    pub overlay_option: Gd<OptionButton>,
    /// The **Layers** panel.
    pub layers: super::layers_panel::LayersPanel,
    /// **Create terrain asset…**, shown for a terrain without a source.
    create: Gd<Button>,
    message: Gd<Label>,
}

fn label(text: &str) -> Gd<Label> {
    let mut l = Label::new_alloc();
    l.set_text(text);
    l
}

/// A named choice whose `item_selected` goes to `method` on `target`.
fn option(name: &str, tip: &str, target: &Gd<Object>, method: &str) -> Gd<OptionButton> {
    let mut o = OptionButton::new_alloc();
    o.set_name(name);
    o.set_tooltip_text(tip);
    o.connect(
        "item_selected",
        &Callable::from_object_method(target, method),
    );
    o
}

fn button(text: &str, target: &Gd<Object>, method: &str, args: &[Variant]) -> Gd<Button> {
    let mut b = Button::new_alloc();
    b.set_text(text);
    let mut call = Callable::from_object_method(target, method);
    if !args.is_empty() {
        call = call.bindv(&VarArray::from(args));
    }
    b.connect("pressed", &call);
    b
}

impl Dock {
    /// Builds the dock; signals go to `plugin`.
    pub fn new(plugin: &Gd<Object>) -> Dock {
        let mut root = VBoxContainer::new_alloc();
        root.set_name("Terrain");
        root.set_custom_minimum_size(Vector2::new(260.0, 0.0));
        let mut idle = label("Select a Terrain3D to edit it.");
        idle.set_autowrap_mode(godot::classes::text_server::AutowrapMode::WORD_SMART);
        root.add_child(&idle);
        // The page scrolls: its tools, brush, layers and help are taller than a laptop screen,
        // and an unscrolled dock would push the editor's bottom panel off the window.
        let mut scroll = ScrollContainer::new_alloc();
        scroll.set_name("TerrainDockScroll");
        scroll.set_v_size_flags(SizeFlags::EXPAND_FILL);
        scroll.set_horizontal_scroll_mode(ScrollMode::DISABLED);
        scroll.set_visible(false);
        root.add_child(&scroll);
        let mut page = VBoxContainer::new_alloc();
        page.set_h_size_flags(SizeFlags::EXPAND_FILL);
        scroll.add_child(&page);

        let mut status = label("");
        status.set_name("Status");
        status.set_autowrap_mode(godot::classes::text_server::AutowrapMode::WORD_SMART);
        page.add_child(&status);
        let mut create = button(
            "Create terrain asset…",
            plugin,
            "_on_create_asset_pressed",
            &[],
        );
        create.set_name("CreateTerrainAsset");
        create.set_tooltip_text(
            "Write a new .terrain.json (size, resolution, seed, chunk size) and assign it (undoable)",
        );
        create.set_visible(false);
        page.add_child(&create);
        page.add_child(&label("Tools"));
        let mut flow = HFlowContainer::new_alloc();
        let group = ButtonGroup::new_gd();
        let mut buttons = Vec::new();
        for t in TOOLS.iter() {
            let text = if *t == Tool::None {
                t.label().to_string()
            } else {
                format!("{} {}", t.hotkey(), t.label())
            };
            let mut b = button(&text, plugin, "_on_tool_button", &[t.name().to_variant()]);
            b.set_toggle_mode(true);
            b.set_button_group(&group);
            b.set_tooltip_text(&format!("{} (hotkey {})", t.label(), t.hotkey()));
            flow.add_child(&b);
            buttons.push((*t, b));
        }
        page.add_child(&flow);
        page.add_child(&HSeparator::new_alloc());
        page.add_child(&label("Brush"));
        let mut grid = GridContainer::new_alloc();
        grid.set_columns(2);
        let mut rows = Vec::new();
        for (key, text, lo, hi, step) in FIELDS {
            let name = label(text);
            grid.add_child(&name);
            let control: Gd<Control> = if key == "water_level" {
                let mut c = CheckBox::new_alloc();
                c.set_name("WaterLevel");
                c.set_text("to target height");
                c.set_tooltip_text(
                    "On: the water's surface moves toward the target height too (Ctrl+click picks it), so a pond painted into a dip comes out flat and full. Off: only the depth is painted",
                );
                c.connect(
                    "toggled",
                    &Callable::from_object_method(plugin, "_on_brush_toggle")
                        .bindv(&VarArray::from(&[key.to_variant()])),
                );
                c.upcast()
            } else {
                let mut s = SpinBox::new_alloc();
                s.set_min(lo);
                s.set_max(hi);
                s.set_step(step);
                s.set_h_size_flags(SizeFlags::EXPAND_FILL);
                let call = Callable::from_object_method(plugin, "_on_brush_value")
                    .bindv(&VarArray::from(&[key.to_variant()]));
                s.connect("value_changed", &call);
                s.upcast()
            };
            grid.add_child(&control);
            rows.push((key, name, control));
        }
        grid.add_child(&label("Mask"));
        let mut mask_option = option(
            "BrushMask",
            "Brush footprint: circle, square, or a greyscale PNG from res://brush_masks/",
            plugin,
            "_on_mask_selected",
        );
        mask_option.set_h_size_flags(SizeFlags::EXPAND_FILL);
        grid.add_child(&mask_option);
        page.add_child(&grid);
        let mut biome_section = VBoxContainer::new_alloc();
        biome_section.add_child(&label("Biome to paint"));
        let biome_swatches = HFlowContainer::new_alloc();
        biome_section.add_child(&biome_swatches);
        biome_section.set_visible(false);
        page.add_child(&biome_section);
        let mut foliage_section = VBoxContainer::new_alloc();
        foliage_section.add_child(&label("Foliage type"));
        let foliage_option = option(
            "FoliageType",
            "The palette's foliage type whose density the brush paints (Shift restores it)",
            plugin,
            "_on_foliage_selected",
        );
        foliage_section.add_child(&foliage_option);
        foliage_section.set_visible(false);
        page.add_child(&foliage_section);
        page.add_child(&HSeparator::new_alloc());
        let layers = super::layers_panel::LayersPanel::new(plugin);
        page.add_child(&layers.root);
        let mut overlay_row = HFlowContainer::new_alloc();
        overlay_row.add_child(&label("Overlay"));
        let mut overlay_option = option(
            "Overlay",
            "Draw the exclusion mask, elevation bands with contours, slope or biome regions over the terrain (view only, not saved)",
            plugin,
            "_on_overlay_selected",
        );
        for (i, text) in ["None", "Exclusions", "Elevation", "Slope", "Biome"]
            .iter()
            .enumerate()
        {
            overlay_option.add_item_ex(*text).id(i as i32).done();
        }
        overlay_row.add_child(&overlay_option);
        page.add_child(&overlay_row);
        page.add_child(&HSeparator::new_alloc());
        let mut row = HFlowContainer::new_alloc();
        let mut save = button("Apply changes to asset", plugin, "_on_save_pressed", &[]);
        save.set_tooltip_text("Save the edited terrain asset now (Ctrl+S saves it too)");
        row.add_child(&save);
        row.add_child(&button("Generate", plugin, "_on_generate_pressed", &[]));
        let mut import = button("Import heightmap…", plugin, "_on_import_pressed", &[]);
        import.set_tooltip_text(
            "Create a terrain asset from a heightmap file (PNG, R16, R32, terrain JSON) and assign it (undoable)",
        );
        row.add_child(&import);
        let mut export_layers = button("Export layers…", plugin, "_on_export_layers_pressed", &[]);
        export_layers.set_name("ExportLayers");
        export_layers.set_tooltip_text(
            "Write the terrain's layers as PNG layer files (heightmap, surface, splat weights, user channels, water, foliage) into a folder; unchanged files are kept",
        );
        row.add_child(&export_layers);
        let mut import_layers = button("Import layers…", plugin, "_on_import_layers_pressed", &[]);
        import_layers.set_name("ImportLayers");
        import_layers.set_tooltip_text(
            "Read PNG layer files from a folder into the terrain: each changed layer becomes a patch stroke, all as one undo step",
        );
        row.add_child(&import_layers);
        let mut graph = button("Open Terrain Graph", plugin, "_on_open_graph_pressed", &[]);
        graph.set_name("OpenTerrainGraph");
        graph.set_tooltip_text("Edit this terrain's generation graph in the Terrain Graph panel");
        row.add_child(&graph);
        page.add_child(&row);
        let mut progress = ProgressBar::new_alloc();
        progress.set_max(1.0);
        progress.set_step(0.001);
        progress.set_visible(false);
        page.add_child(&progress);
        let mut message = label("");
        message.set_autowrap_mode(godot::classes::text_server::AutowrapMode::WORD_SMART);
        page.add_child(&message);
        page.add_child(&HSeparator::new_alloc());
        let mut help = label(HELP);
        help.set_autowrap_mode(godot::classes::text_server::AutowrapMode::WORD_SMART);
        help.add_theme_font_size_override("font_size", 11);
        page.add_child(&help);
        Dock {
            root,
            scroll,
            idle,
            status,
            buttons,
            rows,
            progress,
            biome_swatches,
            biome_section,
            foliage_option,
            foliage_section,
            mask_option,
            overlay_option,
            layers,
            create,
            message,
        }
    }

    /// Shows the editing page (a terrain is selected) or the idle hint.
    pub fn show_editing(&mut self, editing: bool) {
        self.scroll.set_visible(editing);
        self.idle.set_visible(!editing);
    }

    /// Reflects the tool and brush without emitting signals.
    pub fn show_tool(&mut self, tool: Tool, brush: &Brush) {
        for (t, b) in &mut self.buttons {
            b.set_pressed_no_signal(*t == tool);
        }
        let values = brush.to_json();
        for (key, name, control) in &mut self.rows {
            let shown = tool.reads(key);
            name.set_visible(shown);
            control.set_visible(shown);
            let Some(v) = values.get(*key).and_then(|v| v.as_f64()) else {
                continue;
            };
            if let Ok(mut s) = control.clone().try_cast::<SpinBox>() {
                s.set_value_no_signal(v);
            } else if let Ok(mut c) = control.clone().try_cast::<CheckBox>() {
                c.set_pressed_no_signal(v >= 0.5);
            }
        }
        self.biome_section.set_visible(tool == Tool::BiomePaint);
        self.foliage_section
            .set_visible(matches!(tool, Tool::FoliagePaint | Tool::FoliageRestore));
    }

    /// The source line (what is edited, or why it is read-only); `no_source` shows
    /// **Create terrain asset…**.
    pub fn set_status(&mut self, text: &str, no_source: bool) {
        self.status.set_text(text);
        self.create.set_visible(no_source);
    }

    /// The message line (the last error, warning or save result).
    pub fn set_message(&mut self, text: &str, error: bool) {
        self.message.set_text(text);
        let c = if error {
            Color::from_rgb(1.0, 0.45, 0.4)
        } else {
            Color::from_rgb(0.7, 0.85, 0.7)
        };
        self.message.add_theme_color_override("font_color", c);
    }

    /// Brings the dock's tab to the front of its tab container.
    pub fn bring_to_front(&self) {
        let mut page: Gd<Node> = self.root.clone().upcast();
        while let Some(parent) = page.get_parent() {
            if let Ok(mut tabs) = parent.clone().try_cast::<TabContainer>() {
                let i = page.get_index();
                if tabs.get_current_tab() != i {
                    tabs.set_current_tab(i);
                }
                return;
            }
            page = parent;
        }
    }

    /// The root as a Control.
    pub fn control(&self) -> Gd<Control> {
        self.root.clone().upcast()
    }
}
