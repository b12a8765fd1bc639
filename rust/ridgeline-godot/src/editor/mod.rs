//! The editor side of the addon: the editor plugin (Terrain dock, viewport brushes, undo,
//! saving) and the export cooker. Editor-only code calls the same runtime API a game uses.
//!
//! - [`plugin`]: `RidgelineEditorPlugin`, its virtuals and scripting API;
//! - [`dock`]: the dock's stock controls;
//! - [`dock_actions`]: the dock's button and terrain-signal callbacks, status, saving;
//! - [`edit_source`]: what the dock edits (an asset or the inline recipe), or why it cannot;
//! - [`live_stroke`]: strokes while dragging, one undo step on release;
//! - [`input`] (pure) and [`events`]: what a viewport event does;
//! - [`tools`] (pure): tools, brush settings, stroke JSON; [`stamp_path`] (pure): stamp spacing;
//! - [`preview`]: the brush ring; [`settings`]: remembered brush settings;
//! - [`gizmo`]: click-to-select and the terrain's outline;
//! - [`framing`] (pure) and [`frame_view`]: F frames the whole terrain;
//! - [`layers_panel`]: the Layers panel (toggles, renames, add/remove, target layer);
//! - [`biome_palette`]: Biome paint's swatches; [`foliage_tool`]: the Foliage tool's type; [`brush_masks`]: circle, square, PNG masks;
//! - [`create_asset`]: **Create terrain asset…** for a terrain without a source;
//! - [`heightmap_import`]: **Import heightmap…** (file and options dialogs, one undo step);
//! - [`layer_files_dialog`]: **Export layers…** / **Import layers…** (PNG layer files; an
//!   import is one undo step);
//! - [`graph`]: the Terrain Graph workspace (bottom panel) and its Presets tab;
//! - [`icons`]: the editor theme's icons for small buttons.

mod biome_palette;
mod brush_masks;
mod convert_object;
mod create_asset;
mod dock;
mod dock_actions;
mod edit_source;
mod events;
pub mod export_plugin;
mod foliage_tool;
mod frame_view;
mod framing;
mod gizmo;
mod graph;
mod heightmap_import;
mod icons;
mod input;
mod layer_files_dialog;
mod layers_panel;
mod live_stroke;
pub mod plugin;
mod preview;
mod settings;
mod stamp_path;
mod tool_strokes;
mod tools;
