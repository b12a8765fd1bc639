//! The Terrain Graph workspace: a bottom panel built on GraphEdit, opened from the Terrain dock
//! (**Open Terrain Graph**) and pinned to one terrain's source (asset or inline recipe). It edits
//! a draft ([`ridgeline_core::graph::draft::Draft`]) with its own **Undo graph** history; the
//! draft stays unapplied until Generate (shown on the terrain, source unchanged) or
//! Apply (one scene undo step). Cards come from the node catalogue, so a new node type needs no
//! editor code. A Presets tab applies built-in and project presets.
//!
//! - [`workspace`]: the panel's controls and keeping the canvas in step with the draft;
//! - [`cards`] and [`params`]: one GraphNode per node, typed parameter controls;
//! - [`palette`]: the searchable **Terrain Nodes** list, click or drag to insert;
//! - [`presets_tab`]: the preset list and its confirmation;
//! - [`run_panel`]: Preview, progress and Cancel, the cards' last-run footers;
//! - [`source_picker`]: an input's source picked from a menu of compatible outputs;
//! - [`settings_panel`] and [`settings_actions`]: the recipe settings over the canvas (size,
//!   resolution, seed, chunk size, landforms, biomes, layers, rules), edited in the same draft;
//! - [`target`]: the pinned terrain and its document;
//! - the handlers on the editor plugin: [`api`] (scripting API), [`toolbar`], [`canvas`],
//!   [`fields`] (parameter controls), [`insert`] (palette and drops), [`preset_actions`], and the
//!   shared [`edits`] plumbing (target, message line, one history step per edit).

mod api;
mod canvas;
mod card_sync;
mod cards;
mod edits;
mod fields;
mod insert;
mod palette;
mod params;
mod point_list;
mod preset_actions;
mod presets_tab;
mod run_panel;
mod settings_actions;
mod settings_panel;
mod source_picker;
mod target;
mod toolbar;
mod workspace;

pub use workspace::Workspace;
