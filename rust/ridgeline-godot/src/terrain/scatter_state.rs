//! What `Terrain3D` publishes of its scatter placements: the placements of the current surface
//! (refiltered after edits), the palette naming their geometry, and the exclusions by key.
//! [`crate::scatter`] renders them.

use super::Terrain3D;
use godot::prelude::*;
use ridgeline_core::scatter::{Palette, Scatter};
use std::sync::Arc;

/// A terrain's placements as a scatter node reads them.
#[derive(Clone)]
pub struct ScatterView {
    /// The placements of the current surface.
    pub scatter: Arc<Scatter>,
    /// The palette (rule geometry, category, collision; from the recipe or the cooked
    /// payload); `None` without one (and for payloads older than format 5).
    pub palette: Option<Arc<Palette>>,
    /// The owner part of every key ([member Terrain3D.terrain_id], else the node's name).
    pub owner: String,
    /// Terrain size in local units.
    pub size: [f32; 2],
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Adds `key` to [member scatter_exclusions] (no duplicate). Returns false when it was
    /// already excluded.
    #[func]
    pub fn exclude_scatter_placement(&mut self, key: GString) -> bool {
        if self.scatter_exclusions.as_slice().contains(&key) {
            return false;
        }
        self.scatter_exclusions.push(&key);
        self.scatter_exclusions_revision += 1;
        true
    }

    /// The scatter placements of the current surface (after edits), as Dictionaries: `key`
    /// (the stable identity, `owner:palette:rule:i:j`; owner is [member terrain_id], else the
    /// node's name), `rule` (the rule id), `position` (terrain-local [Vector3] on the
    /// surface), `yaw` (degrees about +Y) and `scale`. Excluded placements are included (see
    /// [member scatter_exclusions]). Empty before the first generation or without a palette.
    #[func]
    pub fn get_scatter_placements(&self) -> Array<VarDictionary> {
        let mut out = Array::new();
        let Some(v) = self.scatter_view() else {
            return out;
        };
        for p in &v.scatter.placements {
            let mut d = VarDictionary::new();
            d.set("key", v.scatter.key(&v.owner, p).as_str());
            let rule = v
                .scatter
                .rules
                .get(p.rule as usize)
                .map_or("", String::as_str);
            d.set("rule", rule);
            d.set(
                "position",
                Vector3::new(p.position[0], p.position[1], p.position[2]),
            );
            d.set("yaw", p.yaw);
            d.set("scale", p.scale);
            out.push(&d);
        }
        out
    }

    /// The scatter rule ids by rule index, from the palette's rules (empty before the first
    /// surface or without a palette; a rule that placed nothing is listed too).
    #[func]
    pub fn get_scatter_rules(&self) -> PackedStringArray {
        self.scatter_view()
            .map(|v| {
                v.scatter
                    .rules
                    .iter()
                    .map(|r| GString::from(r.as_str()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Terrain3D {
    /// [member scatter_exclusions] without duplicates (order kept); bumps the revision.
    pub(super) fn store_scatter_exclusions(&mut self, keys: PackedStringArray) {
        let mut seen = std::collections::HashSet::new();
        let mut out = PackedStringArray::new();
        for k in keys.as_slice() {
            if seen.insert(k.to_string()) {
                out.push(k);
            }
        }
        self.scatter_exclusions = out;
        self.scatter_exclusions_revision += 1;
    }

    /// The current placements, palette and key owner (`None` before the first surface).
    pub fn scatter_view(&self) -> Option<ScatterView> {
        let prepared = self.prepared();
        let p = prepared.as_ref()?;
        let owner = if self.terrain_id.is_empty() {
            self.base().get_name().to_string()
        } else {
            self.terrain_id.to_string()
        };
        Some(ScatterView {
            scatter: p.scatter.clone(),
            palette: p.palette().cloned(),
            owner,
            size: p.field.grid().size(),
        })
    }

    /// The excluded keys and their revision (changes whenever they do).
    pub fn scatter_exclusions(&self) -> (&PackedStringArray, u64) {
        (&self.scatter_exclusions, self.scatter_exclusions_revision)
    }
}
