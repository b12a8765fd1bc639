//! The session's stroke lists: parsing one stroke against the recipe, filling a protect
//! stroke's snapshot from the current surface, the list behind each [`List`], each stroke's
//! effective layer and the evaluation order (enabled layers only).

use super::EditSession;
use crate::edit::stroke::{List, ParseContext, Stroke, layer_kinds};
use crate::error::{Diagnostics, Error, Result};
use serde_json::Value;

impl EditSession {
    pub(super) fn parse_one(&self, value: &Value, list: List) -> Result<Stroke> {
        let mut d = Diagnostics::default();
        let has_biome =
            |b: &str| self.recipe.biomes.contains_key(b) || b == self.recipe.default_biome;
        let loader = self.masks.as_deref().map(|m| m as &dyn Fn(&str) -> _);
        let ctx = ParseContext {
            layers: &self.recipe.layers,
            has_biome: &has_biome,
            grid: Some(self.grid),
            masks: loader,
        };
        let stroke = Stroke::parse(value, "stroke", list, &ctx, &mut d);
        if let Some(st) = &stroke {
            super::foliage_paint::check_type(&self.recipe, st, "stroke", &mut d);
        }
        d.into_result()?;
        stroke.ok_or_else(|| Error::invalid("stroke", "invalid stroke"))
    }

    /// Fills `grid` and `heights` of a protect stroke from the current surface.
    pub(super) fn capture_protection(&self, value: &mut Value) -> Result<()> {
        let Some(obj) = value.as_object_mut() else {
            return Err(Error::invalid("stroke", "must be an object"));
        };
        let cells = self.grid.cells();
        obj.insert("grid".into(), serde_json::json!([cells[0], cells[1]]));
        obj.insert("heights".into(), Value::Array(Vec::new()));
        let mut d = Diagnostics::default();
        let none = |_: &str| true;
        let ctx = ParseContext {
            layers: &self.recipe.layers,
            has_biome: &none,
            grid: None,
            masks: None,
        };
        let shape = Stroke::parse(value, "stroke", List::Edits, &ctx, &mut d);
        d.into_result()?;
        let shape = shape.ok_or_else(|| Error::invalid("stroke", "invalid stroke"))?;
        let mut heights = Vec::new();
        shape.for_each_covered(&self.grid, |x, z| {
            let h = self.field.heights()[self.grid.index(x, z)];
            heights.push(crate::doc::write::json_number(
                crate::edit::stroke::shortest(h),
            ));
        });
        if let Some(obj) = value.as_object_mut() {
            obj.insert("heights".into(), Value::Array(heights));
        }
        Ok(())
    }

    pub(super) fn list(&self, list: List) -> &Vec<Stroke> {
        match list {
            List::Edits => &self.edits,
            List::Exclusions => &self.exclusions,
            List::Regions => &self.painted,
            List::Foliage => &self.foliage,
        }
    }

    pub(super) fn list_mut(&mut self, list: List) -> &mut Vec<Stroke> {
        match list {
            List::Edits => &mut self.edits,
            List::Exclusions => &mut self.exclusions,
            List::Regions => &mut self.painted,
            List::Foliage => &mut self.foliage,
        }
    }

    pub(super) fn values_mut(&mut self, list: List) -> &mut Vec<Value> {
        match list {
            List::Edits => &mut self.recipe.edits,
            List::Exclusions => &mut self.recipe.exclusions,
            List::Regions => &mut self.recipe.regions,
            List::Foliage => &mut self.recipe.foliage_paint,
        }
    }

    /// The layer a stroke evaluates in: its own, else the first layer of its kind.
    pub(super) fn effective_layer<'a>(&'a self, s: &'a Stroke, list: List) -> Option<&'a str> {
        if let Some(l) = &s.layer {
            return Some(l);
        }
        let kinds = layer_kinds(list, &s.op);
        self.recipe
            .layers
            .iter()
            .find(|l| kinds.contains(&l.kind.as_str()))
            .map(|l| l.id.as_str())
    }

    /// Indices into `list` in evaluation order (enabled layers only).
    pub(super) fn order(&self, list: List) -> Vec<usize> {
        let strokes = self.list(list);
        if list == List::Foliage {
            // Foliage strokes belong to no layer: always evaluated, in list order.
            return (0..strokes.len()).collect();
        }
        let layer_of: Vec<Option<&str>> = strokes
            .iter()
            .map(|s| self.effective_layer(s, list))
            .collect();
        let kinds: &[&str] = match list {
            List::Edits => &["sculpt", "protection"],
            List::Exclusions => &["exclusions"],
            List::Regions => &["biomes"],
            List::Foliage => &[],
        };
        let mut out = Vec::new();
        for layer in self
            .recipe
            .layers
            .iter()
            .filter(|l| l.enabled && kinds.contains(&l.kind.as_str()))
        {
            out.extend((0..strokes.len()).filter(|&i| layer_of[i] == Some(layer.id.as_str())));
        }
        out
    }
}
