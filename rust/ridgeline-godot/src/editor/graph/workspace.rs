//! The workspace's controls, its draft and history, and its status line (the cards on the
//! canvas are kept in step with the draft in `card_sync.rs`).

use super::cards;
use super::palette::Palette;
use super::presets_tab::PresetsTab;
use super::run_panel::RunPanel;
use super::settings_panel::SettingsPanel;
use super::target::Target;
use godot::classes::control::{LayoutPreset, SizeFlags};
use godot::classes::{
    Button, Control, GraphEdit, GraphNode, HBoxContainer, HSplitContainer, ItemList, Label,
    TabContainer, VBoxContainer, VSeparator,
};
use godot::prelude::*;
use ridgeline_core::graph::draft::{Draft, DraftNode};
use ridgeline_core::graph::history::History;
use ridgeline_core::recipe::settings::Settings;
use serde_json::Value;
use std::collections::HashMap;

/// Pin kinds in port-type order, with their colours.
pub const KINDS: [(&str, (f32, f32, f32)); 5] = [
    ("heightfield", (0.90, 0.72, 0.42)),
    ("mask", (0.82, 0.82, 0.82)),
    ("drainage", (0.38, 0.60, 1.00)),
    ("water", (0.30, 0.86, 0.92)),
    ("instances", (0.46, 0.86, 0.40)),
];

/// Port type and colour of a pin kind.
pub fn kind_style(kind: &str) -> (i32, Color) {
    KINDS
        .iter()
        .position(|(k, _)| *k == kind)
        .map(|i| {
            let (r, g, b) = KINDS[i].1;
            (i as i32, Color::from_rgb(r, g, b))
        })
        .unwrap_or((99, Color::from_rgb(1.0, 0.3, 0.3)))
}

/// One step of the workspace's history: the draft graph and the recipe settings.
#[derive(Clone)]
pub struct Snapshot {
    /// The graph.
    pub draft: Draft,
    /// The recipe settings.
    pub settings: Settings,
}

/// The workspace.
pub struct Workspace {
    /// The bottom panel's control.
    pub root: Gd<VBoxContainer>,
    /// The canvas.
    pub canvas: Gd<GraphEdit>,
    /// The Terrain Nodes palette.
    pub palette: Palette,
    /// The problem list.
    pub problems: Gd<ItemList>,
    /// The Presets tab.
    pub presets: PresetsTab,
    title: Gd<Label>,
    status: Gd<Label>,
    /// What the workspace is pinned to.
    pub target: Option<Target>,
    /// The edited graph.
    pub draft: Draft,
    /// The draft as last loaded or applied (unapplied changes differ from it).
    pub applied: Draft,
    /// The edited recipe settings (size, resolution, seed, …; the settings panel).
    pub settings: Settings,
    /// The settings as last loaded or applied.
    pub applied_settings: Settings,
    /// The recipe settings panel over the canvas.
    pub settings_panel: SettingsPanel,
    /// The workspace's own history.
    pub history: History<Snapshot>,
    /// The label of the last recorded step, when later edits of the same value coalesce into it.
    pub coalesce: Option<String>,
    /// Copied nodes.
    pub clipboard: Option<Value>,
    /// The last message shown.
    pub message: String,
    /// Catalogue entries by type id.
    pub catalog: HashMap<String, Value>,
    /// Point lists shown on their cards: node id → parameter name → the page shown (lists
    /// longer than [`super::point_list::FOLD_OVER`] are folded until shown, and shown
    /// [`super::point_list::POINTS_PER_PAGE`] points at a time). Kept for the session, not saved.
    pub open_lists: HashMap<String, HashMap<String, usize>>,
    pub(super) cards: HashMap<String, Gd<GraphNode>>,
    pub(super) shown: HashMap<String, (DraftNode, bool)>,
    pub(super) names: HashMap<String, String>,
    pub(super) serial: u64,
    /// Preview, progress and Cancel, and the last run's node footers.
    pub run: RunPanel,
}

/// A named button with a tooltip whose `pressed` goes to `method` on `target`.
pub(super) fn button(
    text: &str,
    name: &str,
    tip: &str,
    target: &Gd<Object>,
    method: &str,
) -> Gd<Button> {
    let mut b = Button::new_alloc();
    b.set_text(text);
    b.set_name(name);
    b.set_tooltip_text(tip);
    b.connect("pressed", &Callable::from_object_method(target, method));
    b
}

impl Workspace {
    /// Builds the panel; signals go to `plugin`.
    pub fn new(plugin: &Gd<Object>) -> Workspace {
        let catalog: HashMap<String, Value> = match ridgeline_core::nodes::catalog() {
            Value::Array(a) => a
                .into_iter()
                .filter_map(|e| Some((e.get("id")?.as_str()?.to_string(), e)))
                .collect(),
            _ => HashMap::new(),
        };
        let mut root = VBoxContainer::new_alloc();
        root.set_name("Terrain Graph");
        root.set_custom_minimum_size(Vector2::new(0.0, 320.0));
        let mut bar = HBoxContainer::new_alloc();
        let mut title = Label::new_alloc();
        title.set_text("Terrain Graph");
        bar.add_child(&title);
        bar.add_child(&VSeparator::new_alloc());
        for (text, name, tip, method) in [
            (
                "Undo graph",
                "UndoGraph",
                "Undo the last graph edit (the workspace's own history)",
                "_on_graph_undo",
            ),
            (
                "Redo graph",
                "RedoGraph",
                "Redo the last undone graph edit",
                "_on_graph_redo",
            ),
            (
                "Starter graph",
                "StarterGraph",
                "Replace the draft with a working chain: noise → erosion → biome rules → output",
                "_on_graph_starter",
            ),
            (
                "Generate",
                "Generate",
                "Generate the draft on the terrain without applying it",
                "_on_graph_generate",
            ),
            (
                "Preview",
                "Preview",
                "Generate the draft at Preview quality (erosion shortened to about an eighth; \
                 never cached) without applying it",
                "_on_graph_preview",
            ),
            (
                "Discard preview",
                "Discard",
                "Show the terrain's own source again",
                "_on_graph_discard",
            ),
            (
                "Apply",
                "Apply",
                "Write the draft into the terrain's asset or recipe (one scene undo step)",
                "_on_graph_apply",
            ),
            (
                "Reload",
                "Reload",
                "Reload the draft from the terrain's source (the graph history is kept)",
                "_on_graph_reload",
            ),
        ] {
            bar.add_child(&button(text, name, tip, plugin, method));
        }
        let run = RunPanel::new(plugin);
        bar.add_child(&run.root);
        root.add_child(&bar);
        let mut tabs = TabContainer::new_alloc();
        tabs.set_name("GraphTabs");
        tabs.set_v_size_flags(SizeFlags::EXPAND_FILL);
        let mut split = HSplitContainer::new_alloc();
        split.set_name("Graph");
        let palette = Palette::new(plugin, &catalog);
        split.add_child(&palette.root);
        let mut inner = HSplitContainer::new_alloc();
        inner.set_h_size_flags(SizeFlags::EXPAND_FILL);
        let mut canvas = GraphEdit::new_alloc();
        canvas.set_name("Canvas");
        canvas.set_h_size_flags(SizeFlags::EXPAND_FILL);
        canvas.set_right_disconnects(true);
        for (signal, method) in [
            ("connection_request", "_on_graph_connection_request"),
            ("disconnection_request", "_on_graph_disconnection_request"),
            ("delete_nodes_request", "_on_graph_delete_request"),
            ("copy_nodes_request", "_on_graph_copy_request"),
            ("cut_nodes_request", "_on_graph_cut_request"),
            ("paste_nodes_request", "_on_graph_paste_request"),
            ("duplicate_nodes_request", "_on_graph_duplicate_request"),
            ("end_node_move", "_on_graph_end_node_move"),
        ] {
            canvas.connect(signal, &Callable::from_object_method(plugin, method));
        }
        canvas.set_drag_forwarding(
            &Callable::invalid(),
            &Callable::from_object_method(plugin, "_graph_can_drop"),
            &Callable::from_object_method(plugin, "_graph_drop"),
        );
        // The canvas and the collapsible recipe settings panel over its top-left corner.
        let mut area = Control::new_alloc();
        area.set_name("CanvasArea");
        area.set_h_size_flags(SizeFlags::EXPAND_FILL);
        area.set_clip_contents(true);
        canvas.set_anchors_preset(LayoutPreset::FULL_RECT);
        area.add_child(&canvas);
        let settings_panel = SettingsPanel::new(plugin);
        area.add_child(&settings_panel.root);
        inner.add_child(&area);
        let mut side = VBoxContainer::new_alloc();
        side.set_custom_minimum_size(Vector2::new(260.0, 0.0));
        let mut head = Label::new_alloc();
        head.set_text("Problems");
        side.add_child(&head);
        let mut problems = ItemList::new_alloc();
        problems.set_name("ProblemList");
        problems.set_v_size_flags(SizeFlags::EXPAND_FILL);
        problems.connect(
            "item_selected",
            &Callable::from_object_method(plugin, "_on_graph_problem_selected"),
        );
        side.add_child(&problems);
        inner.add_child(&side);
        split.add_child(&inner);
        tabs.add_child(&split);
        let presets = PresetsTab::new(plugin);
        tabs.add_child(&presets.root);
        root.add_child(&tabs);
        let mut status = Label::new_alloc();
        status.set_name("Status");
        status.set_autowrap_mode(godot::classes::text_server::AutowrapMode::WORD_SMART);
        root.add_child(&status);
        let draft = Draft::from_graph(&ridgeline_core::graph::Graph::conventional());
        let settings = ridgeline_core::recipe::Recipe::default_recipe().settings();
        Workspace {
            root,
            canvas,
            palette,
            problems,
            presets,
            title,
            status,
            target: None,
            applied: draft.clone(),
            draft,
            applied_settings: settings.clone(),
            settings,
            settings_panel,
            history: History::default(),
            coalesce: None,
            clipboard: None,
            message: String::new(),
            catalog,
            open_lists: HashMap::new(),
            cards: HashMap::new(),
            shown: HashMap::new(),
            names: HashMap::new(),
            serial: 0,
            run,
        }
    }

    /// Pins the workspace to `target` and loads its graph (the graph history starts afresh).
    pub fn pin(&mut self, plugin: &Gd<Object>, target: Target) -> Result<(), String> {
        let doc = target.document()?;
        self.draft = doc.recipe().draft();
        self.applied = self.draft.clone();
        self.settings = doc.recipe().settings();
        self.applied_settings = self.settings.clone();
        self.settings_panel.show(&self.settings);
        self.history.clear();
        self.coalesce = None;
        self.title
            .set_text(&format!("Terrain Graph — {}", target.describe()));
        self.target = Some(target);
        self.refresh(plugin);
        Ok(())
    }

    /// Records an undo step named `label` (the draft before is `before`).
    pub fn record(&mut self, label: &str, before: Draft) {
        if self.coalesce.as_deref() == Some(label) {
            return;
        }
        let settings = self.settings.clone();
        self.history.record(
            label,
            Snapshot {
                draft: before,
                settings,
            },
        );
        self.coalesce = None;
    }

    /// Records an undo step named `label` of a settings edit (the settings before are `before`).
    pub fn record_settings(&mut self, label: &str, before: Settings) {
        let draft = self.draft.clone();
        self.history.record(
            label,
            Snapshot {
                draft,
                settings: before,
            },
        );
        self.coalesce = None;
    }

    /// The draft and settings now, for the history.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            draft: self.draft.clone(),
            settings: self.settings.clone(),
        }
    }

    /// Restores a history snapshot (canvas and settings panel follow).
    pub fn restore(&mut self, plugin: &Gd<Object>, s: Snapshot) {
        self.draft = s.draft;
        if self.settings != s.settings {
            self.settings = s.settings;
            self.settings_panel.show(&self.settings);
        }
        self.refresh(plugin);
    }

    /// The draft and settings are now what the source holds.
    pub fn mark_applied(&mut self) {
        self.applied = self.draft.clone();
        self.applied_settings = self.settings.clone();
        self.refresh_problems();
    }

    /// Takes the graph and settings of `recipe` (a preset applied, a reload) as one history
    /// step named `label`; both count as applied.
    pub fn load_source(
        &mut self,
        plugin: &Gd<Object>,
        label: &str,
        recipe: &ridgeline_core::recipe::Recipe,
    ) {
        let before = self.snapshot();
        self.draft = recipe.draft();
        self.settings = recipe.settings();
        if before.draft != self.draft || before.settings != self.settings {
            self.history.record(label, before);
        }
        self.coalesce = None;
        self.settings_panel.show(&self.settings);
        self.refresh(plugin);
        self.mark_applied();
    }

    pub(super) fn unapplied(&self) -> bool {
        self.draft != self.applied || self.settings != self.applied_settings
    }

    pub(super) fn status_line(&mut self, unapplied: bool) {
        let mut text = String::new();
        if unapplied {
            text.push_str("Draft not applied. ");
        }
        text.push_str(&self.message);
        self.status.set_text(&text);
    }

    /// Shows a message in the status line.
    pub fn show(&mut self, text: &str, error: bool) {
        self.message = text.to_string();
        let c = if error {
            Color::from_rgb(1.0, 0.45, 0.4)
        } else {
            Color::from_rgb(0.7, 0.85, 0.7)
        };
        self.status.add_theme_color_override("font_color", c);
        let unapplied = self.unapplied();
        self.status_line(unapplied);
    }

    /// Shows the last run's footer on every card (none on cards the run did not evaluate).
    pub fn show_footers(&mut self) {
        for (id, card) in &self.cards {
            cards::show_footer(card, self.run.footers.get(id).map(String::as_str));
        }
    }

    /// How many cards the canvas holds (tests and the bench).
    pub fn card_count(&self) -> usize {
        self.cards.len()
    }
}
