//! Per-rule render settings of a `TerrainScatter`: defaults by category, overridden by the
//! node's `rule_settings` Dictionary (keyed by rule id, else by category name).

use godot::prelude::*;
use ridgeline_core::scatter::palette::{Collision, RuleCategory};
use ridgeline_core::scatter::thinning::Thinning;

/// How a rule's placements appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// MultiMeshes through the RenderingServer (and per-chunk bodies for collision).
    MultiMesh,
    /// One instance of the rule's PackedScene per placement (scripted objects).
    Node,
}

/// A rule's resolved settings.
#[derive(Clone, Debug)]
pub struct RuleSettings {
    /// Distance thinning.
    pub thinning: Thinning,
    /// Whether the meshes cast shadows.
    pub cast_shadows: bool,
    /// GPU visibility range end (0: none).
    pub visibility_range: f32,
    /// MultiMesh or node mode.
    pub mode: Mode,
    /// Collision bodies: `None` (no bodies), static or trigger.
    pub collision: Collision,
    /// Geometry override (a PackedScene or Mesh), or a `res://` path.
    pub resource: Option<Variant>,
}

impl RuleSettings {
    /// The defaults of `category`.
    pub fn defaults(category: RuleCategory, collision: Collision) -> Self {
        let (full, max, floor, shadows) = match category {
            RuleCategory::Grass => (40.0, 120.0, 0.15, false),
            RuleCategory::Tree => (f32::MAX, f32::MAX, 1.0, true),
            RuleCategory::Rock | RuleCategory::Prop => (150.0, 300.0, 0.5, true),
        };
        Self {
            thinning: Thinning {
                full_distance: full,
                max_distance: max,
                floor,
            },
            cast_shadows: shadows,
            visibility_range: 0.0,
            mode: Mode::MultiMesh,
            collision,
            resource: None,
        }
    }

    /// Applies the overrides in `d` (an entry of `rule_settings` at `path`); a bad value is a
    /// located error and leaves the default.
    pub fn apply(&mut self, d: &VarDictionary, path: &str) {
        for (k, v) in d.iter_shared() {
            let key = k.to_string();
            let at = format!("{path}.{key}");
            let num = |v: &Variant| -> Option<f32> {
                let f = v.try_to::<f64>().ok()? as f32;
                (f.is_finite() && f >= 0.0).then_some(f)
            };
            match key.as_str() {
                "full_density_distance" | "max_distance" | "density_floor" | "visibility_range" => {
                    let Some(f) = num(&v).filter(|f| key != "density_floor" || *f <= 1.0) else {
                        let range = if key == "density_floor" {
                            "0..=1"
                        } else {
                            "a finite number ≥ 0"
                        };
                        godot_error!("{at}: must be {range}, got {v}");
                        continue;
                    };
                    match key.as_str() {
                        "full_density_distance" => self.thinning.full_distance = f,
                        "max_distance" => self.thinning.max_distance = f,
                        "density_floor" => self.thinning.floor = f,
                        _ => self.visibility_range = f,
                    }
                }
                "cast_shadows" => match v.try_to::<bool>() {
                    Ok(b) => self.cast_shadows = b,
                    Err(_) => godot_error!("{at}: must be a bool, got {v}"),
                },
                "mode" => match v.to_string().as_str() {
                    "multimesh" => self.mode = Mode::MultiMesh,
                    "node" => self.mode = Mode::Node,
                    other => godot_error!("{at}: must be \"multimesh\" or \"node\", got `{other}`"),
                },
                "collision" => match v.to_string().as_str() {
                    "none" => self.collision = Collision::None,
                    "static" => self.collision = Collision::Static,
                    "trigger" => self.collision = Collision::Trigger,
                    other => godot_error!(
                        "{at}: must be \"none\", \"static\" or \"trigger\", got `{other}`"
                    ),
                },
                "resource" => self.resource = Some(v),
                other => godot_error!(
                    "{path}: unknown key `{other}` (known: resource, mode, cast_shadows, \
                     visibility_range, full_density_distance, max_distance, density_floor, \
                     collision)"
                ),
            }
        }
    }
}
