//! `Terrain3D`'s edit session: created on the first edit, shared with the generation that made
//! it, and dropped — never reused — when an internal error may have left it half-applied.

use super::Terrain3D;
use godot::prelude::*;
use ridgeline_core::pipeline::EditSession;
use ridgeline_core::recipe::Document;
use std::sync::{Arc, Mutex, MutexGuard};

/// What edits answer after the session was dropped.
const LOST: &str = "Terrain3D: the edit session was dropped after an internal error";

/// Locks a session. A poisoned lock means a panic happened while the session was being
/// changed: its state may be half-applied, so it is an error, never a value to continue with.
pub(super) fn lock(s: &Mutex<EditSession>) -> Result<MutexGuard<'_, EditSession>, String> {
    s.lock().map_err(|_| {
        format!(
            "{LOST} (a panic interrupted an earlier edit); the surface stays as the last completed \
             edit left it — call generate() to rebuild the session from the asset"
        )
    })
}

impl Terrain3D {
    /// The session of the current surface, if one exists.
    pub(super) fn current_session(&self) -> Option<Arc<Mutex<EditSession>>> {
        self.prepared().as_ref().and_then(|p| p.edits.clone())
    }

    /// Drops the edit session after an internal error: its undo history and the runtime strokes
    /// it held are gone, the shown surface stays as the last completed edit left it, and edits
    /// are refused (with `why`) until the next generation rebuilds a session from the asset.
    pub(super) fn drop_session(&mut self, why: &str) {
        godot_error!("{why}");
        if let Some(p) = self.prepared_mut().as_mut() {
            Arc::make_mut(p).edits = None;
        }
        self.session_lost = Some(why.to_string());
    }

    /// Locks `s`, dropping the session (with an error) when its lock is poisoned.
    pub(super) fn lock_or_drop<'a>(
        &mut self,
        s: &'a Mutex<EditSession>,
    ) -> Option<MutexGuard<'a, EditSession>> {
        match lock(s) {
            Ok(g) => Some(g),
            Err(e) => {
                self.drop_session(&e);
                None
            }
        }
    }

    /// The edit session, created on first use: from the generation (recipes with strokes), else
    /// with the current surface as the base (recipes without strokes, cooked payloads).
    pub(super) fn session(&mut self) -> Result<Arc<Mutex<EditSession>>, String> {
        if let Some(why) = &self.session_lost {
            return Err(why.clone());
        }
        // Every write after the first: the session exists (a shared borrow; the surface index
        // the queries keep stays valid).
        if let Some(s) = self.current_session() {
            return Ok(s);
        }
        if self.masks.is_none() {
            self.masks = Some(self.new_mask_cache());
        }
        let masks = self.masks.as_ref().map(|m| m.loader());
        // Creating the session changes no sample the queries read.
        let mut guard = self.view.prepared_mut_for_edit();
        let Some(prepared) = guard.as_mut() else {
            return Err("Terrain3D: nothing to edit before the first generation".into());
        };
        let grid = *prepared.field.grid();
        let recipe = match (&self.asset, self.recipe.is_empty()) {
            (Some(a), _) if a.bind().document().is_some() => {
                a.bind().document().map(|d| d.recipe().clone())
            }
            (None, false) => Document::parse(&self.recipe.to_string(), "Terrain3D.recipe")
                .ok()
                .map(|d| d.recipe().clone()),
            _ => None,
        };
        let (recipe, cooked_recipe) = match recipe {
            Some(r) if r.grid().ok() == Some(grid) => (r, false),
            _ => (cooked_recipe(prepared)?, true),
        };
        let mut fresh = recipe;
        fresh.clear_strokes();
        let mut session =
            EditSession::new(fresh, (*prepared.field).clone(), masks).map_err(|e| e.to_string())?;
        if cooked_recipe {
            // The payload's palette and scatter seed: foliage strokes and placement refiltering
            // work as on the recipe it was cooked from. Its biome rules and climate (payloads
            // that store them) make sculpting re-resolve biomes and moisture like the recipe.
            session.set_scatter_source(&prepared.scatter_source);
        }
        session
            .set_base_masks(
                &prepared.exclusion,
                &prepared.regions,
                &prepared.region_biomes,
            )
            .map_err(|e| e.to_string())?;
        // Painted foliage density (a cooked payload's) is what foliage strokes paint over.
        session
            .set_base_foliage(&prepared.scatter_source.foliage_density)
            .map_err(|e| e.to_string())?;
        // A cooked payload's painted water is what `paint_water` strokes paint over (its heights
        // are the beds); before classifying, so the classification counts it as water.
        if !prepared.water.painted.is_empty() {
            session
                .set_base_water(&prepared.water.painted)
                .map_err(|e| e.to_string())?;
        }
        // Reclassify edits locally from here on (a cooked terrain without stored biome rules
        // keeps its biomes, only roles follow the edits; with them the session re-resolves).
        let mut core = ridgeline_core::pipeline::PreparedTerrain::new(
            (*prepared.field).clone(),
            (*prepared.water).clone(),
            prepared.default_biome.clone(),
            prepared.biome_color,
        );
        core.sources = prepared.sources.clone();
        core.surface = (*prepared.surface).clone();
        let cooked = prepared.origin == "cooked payload";
        if !core.surface.is_empty() {
            session
                .classify_surface(&core, prepared.field.height_range(), cooked)
                .map_err(|e| e.to_string())?;
        }
        // Painted layers (a cooked payload's user channels and surface paint) are what paint
        // strokes paint over; after classifying, so painted surfaces reach the roles.
        if !prepared.scatter_source.paint.is_empty() {
            session
                .set_base_paint(&prepared.scatter_source.paint)
                .map_err(|e| e.to_string())?;
        }
        // Edits refilter the shown placements from the base sites (every spaced site before
        // the environment filters, so suitable ground grows placements; undo restores the same
        // identities); without stored sites, from the shown placements (only removes).
        let sites = prepared.scatter_source.base_placements.clone();
        if session.scatter().is_none() && (!prepared.scatter.is_empty() || sites.is_some()) {
            let base = sites.unwrap_or_else(|| prepared.scatter.clone());
            session.attach_scatter(base, prepared.scatter.clone());
        }
        let session = Arc::new(Mutex::new(session));
        Arc::make_mut(prepared).edits = Some(session.clone());
        Ok(session)
    }
}

/// The recipe of a cooked payload's edit session: its grid, its biome table (names, colours,
/// materials) and default biome. The palette, scatter seed, biome rules and climate come
/// separately (`EditSession::set_scatter_source`).
fn cooked_recipe(
    prepared: &super::job::Prepared,
) -> Result<ridgeline_core::recipe::Recipe, String> {
    let grid = *prepared.field.grid();
    let [sx, sz] = grid.size();
    let [cx, cz] = grid.cells();
    let mut biomes = serde_json::Map::new();
    for b in &prepared.surface.biomes {
        let mut m = serde_json::Map::new();
        m.insert("color".into(), serde_json::json!(b.color));
        if let Some(mat) = &b.material {
            m.insert("material".into(), mat.clone().into());
        }
        m.insert("texture_scale".into(), serde_json::json!(b.texture_scale));
        m.insert("allow_snow".into(), b.allow_snow.into());
        biomes.insert(b.name.clone(), m.into());
    }
    if !biomes.contains_key(&prepared.default_biome) {
        biomes.insert(
            prepared.default_biome.clone(),
            serde_json::json!({ "color": prepared.biome_color }),
        );
    }
    let text = serde_json::json!({
        "size": [sx, sz], "resolution": [cx, cz], "chunk_cells": grid.chunk_cells(),
        "default_biome": prepared.default_biome,
        "biomes": biomes,
    })
    .to_string();
    Ok(Document::parse(&text, "cooked terrain")
        .map_err(|e| e.to_string())?
        .recipe()
        .clone())
}
