//! Adding, renaming, removing, enabling and disabling layers of an edit session. Each is one
//! undo step. Adding, renaming and removing change only the recipe's layer list: a new layer is
//! empty, a renamed one keeps its id (strokes and rules refer to ids), and only an empty user
//! layer can be removed, so none of them moves a sample. Enabling or disabling replays the
//! layer's strokes' footprint.

use super::{Change, EditSession, merge_paint};
use crate::edit::apply::cells_of;
use crate::edit::history::{Record, RecordKind};
use crate::edit::layer::{LAYER_KINDS, Layer};
use crate::edit::rect::Rect;
use crate::edit::stroke::List;
use crate::error::{Error, Result};

/// Longest layer name, in characters.
pub const MAX_LAYER_NAME: usize = 64;

/// Kinds a user may add layers of (everything but `generation`).
pub const USER_LAYER_KINDS: [&str; 4] = ["biomes", "sculpt", "protection", "exclusions"];

impl EditSession {
    /// Enables or disables a layer; its strokes stay stored. Recorded in the history.
    pub fn set_layer_enabled(&mut self, id: &str, enabled: bool) -> Result<Change> {
        let Some(pos) = self.recipe.layers.iter().position(|l| l.id == id) else {
            let ids: Vec<&str> = self.recipe.layers.iter().map(|l| l.id.as_str()).collect();
            return Err(Error::invalid(
                "layer",
                format!("no layer `{id}`; layers are {}", ids.join(", ")),
            ));
        };
        if self.recipe.layers[pos].enabled == enabled {
            return Ok(Change::default());
        }
        self.recipe.layers[pos].enabled = enabled;
        let layer = self.recipe.layers[pos].clone();
        let list = match layer.kind.as_str() {
            "exclusions" => List::Exclusions,
            "biomes" => List::Regions,
            "generation" => {
                // The generation layer freezes/thaws the base; heights are replayed fully.
                List::Edits
            }
            _ => List::Edits,
        };
        let in_layer = || {
            self.list(list)
                .iter()
                .filter(|s| self.effective_layer(s, list) == Some(id))
        };
        let fp = in_layer().fold(Rect::EMPTY, |acc, s| acc.union(&s.footprint(&self.grid)));
        let holes = in_layer()
            .filter(|s| s.is_hole())
            .fold(Rect::EMPTY, |acc, s| acc.union(&s.footprint(&self.grid)));
        let holes = cells_of(holes, &self.grid);
        self.commit(
            RecordKind::Layer {
                id: id.to_string(),
                enabled,
            },
            list,
            fp,
            holes,
        )
        .map(|mut change| {
            if list == List::Regions {
                let p = self.refresh_layer_paint(id);
                merge_paint(&mut change, &p);
            }
            change
        })
        .map_err(|(i, o)| {
            self.recipe.layers[pos].enabled = !enabled;
            Error::invalid(
                "layer",
                format!(
                    "{} `{id}` would make recipe.{}[{i}] fail: it {o}; nothing was changed",
                    if enabled { "enabling" } else { "disabling" },
                    list.key(),
                ),
            )
        })
    }

    /// Appends an enabled, empty layer of `kind` named `name` (evaluated after the existing
    /// layers of its kind) and returns its id: `name` in lower case with runs of other characters
    /// as `_`, made unique with a number. Recorded in the history.
    pub fn add_layer(&mut self, kind: &str, name: &str) -> Result<(String, Change)> {
        if !USER_LAYER_KINDS.contains(&kind) {
            let why = if LAYER_KINDS.contains(&kind) {
                "there is exactly one generation layer".to_string()
            } else {
                format!("must be one of {}", USER_LAYER_KINDS.join(", "))
            };
            return Err(Error::invalid(
                "layer.kind",
                format!("{why}, got \"{kind}\""),
            ));
        }
        let name = self.checked_name(name, None)?;
        let id = unique_id(&name, kind, &self.recipe.layers);
        let before = self.recipe.layers.clone();
        self.recipe.layers.push(Layer {
            id: id.clone(),
            name,
            kind: kind.to_string(),
            enabled: true,
        });
        Ok((id, self.record_layers(before)))
    }

    /// Renames layer `id` (its id stays, so strokes and rules keep pointing at it). Recorded in
    /// the history; renaming to the current name records nothing.
    pub fn rename_layer(&mut self, id: &str, name: &str) -> Result<Change> {
        let pos = self.layer_position(id)?;
        let name = self.checked_name(name, Some(pos))?;
        if self.recipe.layers[pos].name == name {
            return Ok(Change::default());
        }
        let before = self.recipe.layers.clone();
        self.recipe.layers[pos].name = name;
        Ok(self.record_layers(before))
    }

    /// Removes the user layer `id`. Refused for the five default layers and for a layer that
    /// strokes or biome rules still use (undo or move them first). Recorded in the history.
    pub fn remove_layer(&mut self, id: &str) -> Result<Change> {
        let pos = self.layer_position(id)?;
        if LAYER_KINDS.contains(&id) {
            return Err(Error::invalid(
                "layer",
                format!("`{id}` is a default layer and cannot be removed (disable it instead)"),
            ));
        }
        let strokes = self.strokes_in_layer(id);
        let rules = self
            .recipe
            .rules
            .iter()
            .filter(|r| r.layer.as_deref() == Some(id))
            .count();
        if strokes + rules > 0 {
            return Err(Error::invalid(
                "layer",
                format!(
                    "`{id}` still holds {strokes} stroke(s) and {rules} biome rule(s); undo or \
                     move them first, or disable the layer"
                ),
            ));
        }
        let before = self.recipe.layers.clone();
        self.recipe.layers.remove(pos);
        Ok(self.record_layers(before))
    }

    fn layer_position(&self, id: &str) -> Result<usize> {
        self.recipe
            .layers
            .iter()
            .position(|l| l.id == id)
            .ok_or_else(|| {
                let ids: Vec<&str> = self.recipe.layers.iter().map(|l| l.id.as_str()).collect();
                Error::invalid(
                    "layer",
                    format!("no layer `{id}`; layers are {}", ids.join(", ")),
                )
            })
    }

    /// `name` trimmed, or why it cannot name a layer (`except`: the layer being renamed).
    fn checked_name(&self, name: &str, except: Option<usize>) -> Result<String> {
        let name = name.trim();
        let bad = if name.is_empty() {
            Some("must not be empty".to_string())
        } else if name.chars().count() > MAX_LAYER_NAME {
            Some(format!("must be at most {MAX_LAYER_NAME} characters"))
        } else if name.chars().any(char::is_control) {
            Some("must not contain control characters".to_string())
        } else if self
            .recipe
            .layers
            .iter()
            .enumerate()
            .any(|(i, l)| Some(i) != except && l.name == name)
        {
            Some(format!("`{name}` is taken by another layer"))
        } else {
            None
        };
        match bad {
            Some(why) => Err(Error::invalid("layer.name", why)),
            None => Ok(name.to_string()),
        }
    }

    /// Records a layer-list edit (no sample changes) as one undo step.
    fn record_layers(&mut self, before: Vec<crate::recipe::Layer>) -> Change {
        let after = self.recipe.layers.clone();
        self.history
            .push(Record::recipe_only(RecordKind::Layers { before, after }));
        self.redo.clear();
        Change::default()
    }
}

/// A layer id from `name`: lower case ASCII letters and digits, other runs as `_`; `kind` when
/// nothing is left; a number appended until no layer has it.
fn unique_id(name: &str, kind: &str, layers: &[Layer]) -> String {
    let mut slug = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('_') && !slug.is_empty() {
            slug.push('_');
        }
    }
    let slug = slug.trim_end_matches('_');
    let base = if slug.is_empty() { kind } else { slug };
    let taken = |id: &str| layers.iter().any(|l| l.id == id);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|id| !taken(id))
        .unwrap_or_else(|| base.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::heightfield::Heightfield;
    use crate::pipeline::session::EditSession;
    use crate::recipe::{Document, Recipe};
    use serde_json::json;
    fn recipe() -> Recipe {
        let text = r#"{"size": [64, 64], "resolution": [64, 64], "chunk_cells": 16, "seed": 1}"#;
        Document::parse(text, "t").expect("recipe").recipe().clone()
    }

    fn session() -> EditSession {
        EditSession::new(recipe(), base(), None).expect("session")
    }

    fn base() -> Heightfield {
        let grid = Grid::new([64.0, 64.0], [64, 64], 16).expect("grid");
        let heights = (0..65 * 65)
            .map(|i| ((i % 65) as f32 * 0.21).sin() * 6.0 + ((i / 65) as f32 * 0.13).cos() * 4.0)
            .collect();
        Heightfield::new(grid, heights, None).expect("base")
    }

    fn raise(layer: Option<&str>) -> serde_json::Value {
        let mut s = json!({"type": "raise", "center": [20, 20], "radius": 6, "amount": 2});
        if let Some(l) = layer {
            s["layer"] = json!(l);
        }
        s
    }

    #[test]
    fn add_rename_remove_are_undo_steps_that_move_no_sample() {
        let mut s = session();
        let heights = s.field().heights().to_vec();
        let (id, _) = s.add_layer("sculpt", "Roads & paths").expect("add");
        assert_eq!(id, "roads_paths");
        assert_eq!(
            s.layers().last().map(|l| l.name.as_str()),
            Some("Roads & paths")
        );
        s.rename_layer(&id, "  Roads ").expect("rename");
        assert_eq!(
            s.layers().last().map(|l| (l.id.as_str(), l.name.as_str())),
            Some((id.as_str(), "Roads"))
        );
        s.remove_layer(&id).expect("remove");
        assert!(s.layers().iter().all(|l| l.id != id));
        assert_eq!(s.field().heights(), &heights[..]);
        // Undo: back through remove, rename, add.
        s.undo().expect("undo remove");
        assert_eq!(s.layers().last().map(|l| l.name.as_str()), Some("Roads"));
        s.undo().expect("undo rename");
        assert_eq!(
            s.layers().last().map(|l| l.name.as_str()),
            Some("Roads & paths")
        );
        s.undo().expect("undo add");
        assert_eq!(s.layers(), &crate::recipe::Layer::defaults()[..]);
        s.redo().expect("redo add");
        assert_eq!(
            s.layers().last().map(|l| l.id.as_str()),
            Some("roads_paths")
        );
        assert_eq!(s.field().heights(), &heights[..]);
    }

    #[test]
    fn strokes_target_an_added_layer_and_its_toggle_and_the_recipe_keep_it() {
        let mut s = session();
        let before = s.field().heights().to_vec();
        let (id, _) = s.add_layer("sculpt", "Mounds").expect("add");
        s.apply_stroke(&raise(Some(&id))).expect("stroke");
        assert_ne!(s.field().heights(), &before[..]);
        assert_eq!(s.strokes_in_layer(&id), 1);
        assert_eq!(
            s.recipe().strokes_in_layer(&id),
            1,
            "the recipe counts as the session"
        );
        assert_eq!(s.recipe().strokes_in_layer("sculpt"), 0);
        s.set_layer_enabled(&id, false).expect("disable");
        assert_eq!(
            s.field().heights(),
            &before[..],
            "a disabled layer's strokes do not evaluate"
        );
        s.set_layer_enabled(&id, true).expect("enable");
        // Removal is refused while it holds the stroke; nothing changes.
        let layers = s.layers().to_vec();
        let err = s.remove_layer(&id).expect_err("holds a stroke").to_string();
        assert!(err.contains("1 stroke"), "{err}");
        assert_eq!(s.layers(), &layers[..]);
        // The recipe (what the editor saves) carries the layer and the stroke's reference, and
        // a session built from it replays the same surface.
        let text = s.recipe().to_value().to_string();
        let saved = Document::parse(&text, "saved").expect("saved recipe parses");
        let again = EditSession::new(saved.recipe().clone(), base(), None).expect("replayed");
        assert_eq!(again.field().heights(), s.field().heights());
        assert_eq!(again.layers(), s.layers());
    }

    #[test]
    fn bad_layer_edits_are_located_errors_that_change_nothing() {
        let mut s = session();
        let layers = s.layers().to_vec();
        for (kind, name, needle) in [
            ("generation", "Base 2", "exactly one generation layer"),
            ("weather", "Rain", "must be one of"),
            ("sculpt", "   ", "must not be empty"),
            ("sculpt", "sculpt", "taken"),
            ("sculpt", "bad\u{7}name", "control characters"),
        ] {
            let e = s.add_layer(kind, name).expect_err(name).to_string();
            assert!(e.contains(needle), "{kind}/{name}: {e}");
        }
        let long = "x".repeat(MAX_LAYER_NAME + 1);
        assert!(s.add_layer("sculpt", &long).is_err());
        assert!(
            s.rename_layer("nope", "A")
                .expect_err("unknown")
                .to_string()
                .contains("no layer `nope`")
        );
        assert!(
            s.remove_layer("sculpt")
                .expect_err("default")
                .to_string()
                .contains("default layer")
        );
        assert_eq!(s.layers(), &layers[..]);
        assert!(!s.can_undo(), "refused edits record nothing");
    }

    #[test]
    fn ids_are_unique_slugs() {
        let mut s = session();
        let a = s.add_layer("exclusions", "Road").expect("a").0;
        let b = s.add_layer("exclusions", "road!").expect("b").0;
        let c = s.add_layer("biomes", "!!!").expect("c").0;
        assert_eq!(
            (a.as_str(), b.as_str(), c.as_str()),
            ("road", "road_2", "biomes_2")
        );
    }
}
