//! The dock's tools and brush settings. Pure Rust. The stroke JSON a brush drag produces is
//! [`super::tool_strokes`] (re-exported here).

pub use super::tool_strokes::{Target, grade, ramp_json, stroke_json};
use serde_json::{Value, json};

/// A tool of the Terrain dock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tool {
    /// No tool: every input reaches Godot (selection, gizmos).
    #[default]
    None,
    /// Raises the surface.
    Raise,
    /// Lowers the surface.
    Lower,
    /// Smooths toward the local mean.
    Smooth,
    /// Flattens toward the height under the stroke's first stamp.
    Flatten,
    /// Moves toward a fixed target height (Ctrl+click picks it).
    SetHeight,
    /// Paints exclusion (no scattering, no roads) weight.
    Exclude,
    /// Erases exclusion weight.
    Erase,
    /// Cuts holes (render mesh at every LOD, collision and queries) with the core `hole`
    /// stroke, mode `paint`.
    Hole,
    /// Fills holes again (`hole` stroke, mode `erase`).
    FillHole,
    /// A straight ramp between two clicked points (core `ramp` stroke), one brush wide.
    Ramp,
    /// Protects the surface under the brush from later sculpting (core `protect` stroke: a
    /// snapshot of the heights it covers, evaluated after every sculpt stroke).
    Protect,
    /// Paints one of the recipe's biomes (core `region` stroke).
    BiomePaint,
    /// Paints the chosen foliage type's density multiplier toward the brush's `density`
    /// (core `foliage_density` stroke; 0, the default, removes the foliage: paths, clearings).
    FoliagePaint,
    /// Shift with [`Tool::FoliagePaint`]: paints density 1, restoring the automatic density.
    FoliageRestore,
    /// Paints water (core `paint_water` stroke): the depth moves toward the brush's
    /// `water_depth`, and with `water_level` on, the surface toward the target height (the
    /// water level; Ctrl+click picks it), so a pond painted into a dip comes out flat and full.
    Water,
    /// Shift with [`Tool::Water`]: removes water (depth 0, no level).
    WaterRemove,
    /// A click converts the scatter placement nearest to it (within the brush radius) into an
    /// owned scene object at the placement's transform and records its key in
    /// `Terrain3D.scatter_exclusions` (one undo step; no stroke).
    ConvertObject,
}

/// Every tool with a dock button, in dock order (hotkeys: `1`…`9` select the second to tenth,
/// then `0`, `P`, `B`, `G`, `L`, `O`; see [`Tool::hotkey`]). [`Tool::FoliageRestore`] and
/// [`Tool::WaterRemove`] are reached with Shift only.
pub const TOOLS: [Tool; 16] = [
    Tool::None,
    Tool::Raise,
    Tool::Lower,
    Tool::Smooth,
    Tool::Flatten,
    Tool::SetHeight,
    Tool::Exclude,
    Tool::Erase,
    Tool::Hole,
    Tool::FillHole,
    Tool::Ramp,
    Tool::Protect,
    Tool::BiomePaint,
    Tool::FoliagePaint,
    Tool::Water,
    Tool::ConvertObject,
];

impl Tool {
    /// The stable name (used by `set_tool`, the settings and the docs).
    pub fn name(self) -> &'static str {
        match self {
            Tool::None => "none",
            Tool::Raise => "raise",
            Tool::Lower => "lower",
            Tool::Smooth => "smooth",
            Tool::Flatten => "flatten",
            Tool::SetHeight => "set_height",
            Tool::Exclude => "exclude",
            Tool::Erase => "erase",
            Tool::Hole => "hole",
            Tool::FillHole => "fill_hole",
            Tool::Ramp => "ramp",
            Tool::Protect => "protect",
            Tool::BiomePaint => "biome_paint",
            Tool::FoliagePaint => "foliage_paint",
            Tool::FoliageRestore => "foliage_restore",
            Tool::Water => "water",
            Tool::WaterRemove => "water_remove",
            Tool::ConvertObject => "convert_object",
        }
    }

    /// The key that selects the tool over the viewport (`Esc` for None).
    pub fn hotkey(self) -> &'static str {
        match self {
            Tool::None => "Esc",
            Tool::Raise => "1",
            Tool::Lower => "2",
            Tool::Smooth => "3",
            Tool::Flatten => "4",
            Tool::SetHeight => "5",
            Tool::Exclude => "6",
            Tool::Erase => "7",
            Tool::Hole => "8",
            Tool::FillHole => "9",
            Tool::Ramp => "0",
            Tool::Protect => "P",
            Tool::BiomePaint => "B",
            Tool::FoliagePaint => "G",
            Tool::FoliageRestore => "Shift+G",
            Tool::Water => "L",
            Tool::WaterRemove => "Shift+L",
            Tool::ConvertObject => "O",
        }
    }

    /// The tool a hotkey (as [`Tool::hotkey`] names it; letters in either case) selects.
    pub fn from_hotkey(key: char) -> Option<Tool> {
        let k = key.to_ascii_uppercase();
        TOOLS[1..]
            .iter()
            .copied()
            .find(|t| t.hotkey().len() == 1 && t.hotkey().starts_with(k))
    }

    /// The dock button's label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::None => "None",
            Tool::Raise => "Raise",
            Tool::Lower => "Lower",
            Tool::Smooth => "Smooth",
            Tool::Flatten => "Flatten",
            Tool::SetHeight => "Set height",
            Tool::Exclude => "Exclude",
            Tool::Erase => "Erase",
            Tool::Hole => "Hole",
            Tool::FillHole => "Fill hole",
            Tool::Ramp => "Ramp",
            Tool::Protect => "Protect",
            Tool::BiomePaint => "Biome paint",
            Tool::FoliagePaint => "Foliage",
            Tool::FoliageRestore => "Restore foliage",
            Tool::Water => "Water",
            Tool::WaterRemove => "Remove water",
            Tool::ConvertObject => "Convert",
        }
    }

    /// The tool named `name` (the dock's tools, `foliage_restore` and `water_remove`).
    pub fn from_name(name: &str) -> Option<Tool> {
        TOOLS
            .iter()
            .copied()
            .chain([Tool::FoliageRestore, Tool::WaterRemove])
            .find(|t| t.name() == name)
    }

    /// The settings group: tools of one group share brush settings.
    pub fn group(self) -> Group {
        match self {
            Tool::Exclude | Tool::Erase => Group::Exclusion,
            Tool::Flatten | Tool::SetHeight => Group::Level,
            Tool::Hole | Tool::FillHole => Group::Holes,
            Tool::Ramp => Group::Ramp,
            Tool::Protect => Group::Protect,
            Tool::BiomePaint => Group::Biomes,
            Tool::FoliagePaint | Tool::FoliageRestore => Group::Foliage,
            Tool::ConvertObject => Group::Objects,
            Tool::Water | Tool::WaterRemove => Group::Water,
            _ => Group::Sculpt,
        }
    }

    /// The kind of layer this tool's strokes go into (a recipe layer kind), `None` for tool
    /// None, the foliage tools (`foliage_density` strokes live in the recipe's own
    /// `foliage_paint` list, outside layers) and Convert (no stroke). Shift's inverted tool
    /// keeps the kind.
    pub fn layer_kind(self) -> Option<&'static str> {
        match self {
            Tool::None | Tool::FoliagePaint | Tool::FoliageRestore | Tool::ConvertObject => None,
            Tool::Exclude | Tool::Erase => Some("exclusions"),
            Tool::Protect => Some("protection"),
            Tool::BiomePaint => Some("biomes"),
            _ => Some("sculpt"),
        }
    }

    /// The tool a stroke uses while Shift is held: raise↔lower, exclude↔erase, hole↔fill hole,
    /// water↔remove water, flatten and set height become smooth.
    pub fn inverted(self) -> Tool {
        match self {
            Tool::Raise => Tool::Lower,
            Tool::Lower => Tool::Raise,
            Tool::Exclude => Tool::Erase,
            Tool::Erase => Tool::Exclude,
            Tool::Hole => Tool::FillHole,
            Tool::FillHole => Tool::Hole,
            Tool::Flatten | Tool::SetHeight => Tool::Smooth,
            Tool::FoliagePaint => Tool::FoliageRestore,
            Tool::FoliageRestore => Tool::FoliagePaint,
            Tool::Water => Tool::WaterRemove,
            Tool::WaterRemove => Tool::Water,
            t => t,
        }
    }

    /// True for the tools whose target height Ctrl+click picks and Ctrl+wheel steps: Set height
    /// and Water (its water level).
    pub fn picks_height(self) -> bool {
        matches!(self, Tool::SetHeight | Tool::Water)
    }

    /// Whether the tool reads the brush field `key` (as [`Brush::to_json`] names it): the dock
    /// shows only those rows. Shift's inverted tools read what their base tool does, so holding
    /// Shift does not move the dock's rows; tool None shows the common brush.
    pub fn reads(self, key: &str) -> bool {
        use Tool::*;
        let t = match self {
            FoliageRestore => FoliagePaint,
            WaterRemove => Water,
            t => t,
        };
        match key {
            "size" => true,
            "strength" | "falloff" => t != ConvertObject,
            // A ramp is two clicks, not a dragged line of stamps.
            "spacing" => !matches!(t, ConvertObject | Ramp),
            "target_height" => t.picks_height(),
            // Holes are cut per cell, foliage has its own slope limit, water reads no heights.
            "slope_min" | "slope_max" => {
                !matches!(t, Hole | FillHole | FoliagePaint | Water | ConvertObject)
            }
            "density" => t == FoliagePaint,
            "water_depth" | "water_level" => t == Water,
            _ => false,
        }
    }

    /// The stroke type the core applies (`None`: the tool writes no stroke).
    pub fn stroke_type(self) -> Option<&'static str> {
        match self {
            Tool::None | Tool::ConvertObject => None,
            Tool::Hole | Tool::FillHole => Some("hole"),
            Tool::BiomePaint => Some("region"),
            Tool::FoliagePaint | Tool::FoliageRestore => Some("foliage_density"),
            Tool::Water | Tool::WaterRemove => Some("paint_water"),
            t => Some(t.name()),
        }
    }
}

/// Tools sharing one set of brush settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// Raise, lower, smooth.
    Sculpt,
    /// Flatten, set height.
    Level,
    /// Exclude, erase.
    Exclusion,
    /// Hole, fill hole.
    Holes,
    /// Ramp.
    Ramp,
    /// Protect.
    Protect,
    /// Biome paint.
    Biomes,
    /// Foliage, restore foliage.
    Foliage,
    /// Convert (its size is the pick radius).
    Objects,
    /// Water, remove water.
    Water,
}

/// Every group (the settings load them all).
pub const GROUPS: [Group; 10] = [
    Group::Sculpt,
    Group::Level,
    Group::Exclusion,
    Group::Holes,
    Group::Ramp,
    Group::Protect,
    Group::Biomes,
    Group::Foliage,
    Group::Objects,
    Group::Water,
];

impl Group {
    /// The key in the project metadata.
    pub fn key(self) -> &'static str {
        match self {
            Group::Sculpt => "brush.sculpt",
            Group::Level => "brush.level",
            Group::Exclusion => "brush.exclusion",
            Group::Holes => "brush.holes",
            Group::Ramp => "brush.ramp",
            Group::Protect => "brush.protect",
            Group::Biomes => "brush.biomes",
            Group::Foliage => "brush.foliage",
            Group::Objects => "brush.objects",
            Group::Water => "brush.water",
        }
    }
}

/// Brush settings of one group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brush {
    /// Diameter in world units.
    pub size: f64,
    /// 0..1: scales each stamp.
    pub strength: f64,
    /// 0..1: share of the radius over which the weight fades out.
    pub falloff: f64,
    /// Stamp spacing as a fraction of the size (0.05..1).
    pub spacing: f64,
    /// Set height's target (world units, terrain-local).
    pub target_height: f64,
    /// Slope limits (degrees): the brush acts only where the slope lies between them;
    /// 0 and 90 (the defaults) limit nothing.
    pub slope_min: f64,
    /// See [`Brush::slope_min`].
    pub slope_max: f64,
    /// Foliage: the density multiplier (0..1) the brush paints; 0 removes the foliage.
    pub density: f64,
    /// Water: the depth (metres, 0..=8) the brush paints.
    pub water_depth: f64,
    /// Water: level mode (on by default; 1 on, 0 off): the surface also moves toward the
    /// target height, the water level.
    pub water_level: f64,
}

/// Size limits (world units).
pub const SIZE_RANGE: (f64, f64) = (0.5, 2000.0);

/// The target height range (m) of Set Height and Water Level: the dock's spin box, and
/// what Ctrl+click, Ctrl+wheel and `set_brush` clamp to.
pub const TARGET_HEIGHT_RANGE: (f64, f64) = (-100_000.0, 100_000.0);

impl Default for Brush {
    fn default() -> Self {
        Brush {
            size: 16.0,
            strength: 0.5,
            falloff: 0.5,
            spacing: 0.25,
            target_height: 0.0,
            slope_min: 0.0,
            slope_max: 90.0,
            density: 0.0,
            water_depth: 2.0,
            water_level: 1.0,
        }
    }
}

impl Brush {
    /// Clamps every value into its range (non-finite values take the default).
    pub fn clamped(self) -> Brush {
        let d = Brush::default();
        let fix = |v: f64, lo: f64, hi: f64, def: f64| {
            if v.is_finite() { v.clamp(lo, hi) } else { def }
        };
        Brush {
            size: fix(self.size, SIZE_RANGE.0, SIZE_RANGE.1, d.size),
            strength: fix(self.strength, 0.0, 1.0, d.strength),
            falloff: fix(self.falloff, 0.0, 1.0, d.falloff),
            spacing: fix(self.spacing, 0.05, 1.0, d.spacing),
            target_height: fix(
                self.target_height,
                TARGET_HEIGHT_RANGE.0,
                TARGET_HEIGHT_RANGE.1,
                0.0,
            ),
            slope_min: fix(self.slope_min, 0.0, 90.0, 0.0),
            slope_max: fix(self.slope_max, 0.0, 90.0, 90.0),
            density: fix(self.density, 0.0, 1.0, d.density),
            water_depth: fix(
                self.water_depth,
                0.0,
                f64::from(ridgeline_core::edit::water::MAX_WATER_DEPTH),
                d.water_depth,
            ),
            water_level: if fix(self.water_level, 0.0, 1.0, d.water_level) >= 0.5 {
                1.0
            } else {
                0.0
            },
        }
    }

    /// The slope band when it limits anything (`slope_min` > 0 or `slope_max` < 90); an
    /// inverted band is read with its ends swapped.
    pub fn slope_band(&self) -> Option<[f64; 2]> {
        let (lo, hi) = (
            self.slope_min.min(self.slope_max),
            self.slope_min.max(self.slope_max),
        );
        (lo > 0.0 || hi < 90.0).then_some([lo, hi])
    }

    /// Distance between stamps (world units).
    pub fn stamp_spacing(&self) -> f64 {
        (self.size * self.spacing).max(0.01)
    }

    /// `[` and `]`: one step smaller or larger (×/÷ 1.2, clamped).
    pub fn resized(self, larger: bool) -> Brush {
        let f = if larger { 1.2 } else { 1.0 / 1.2 };
        Brush {
            size: self.size * f,
            ..self
        }
        .clamped()
    }

    /// `-` and `=`: strength ∓ 0.05 (clamped).
    pub fn restrengthened(self, stronger: bool) -> Brush {
        let d = if stronger { 0.05 } else { -0.05 };
        Brush {
            strength: ((self.strength + d) * 100.0).round() / 100.0,
            ..self
        }
        .clamped()
    }

    /// The settings as JSON (stored in the project metadata as a Dictionary).
    pub fn to_json(self) -> Value {
        json!({
            "size": self.size, "strength": self.strength, "falloff": self.falloff,
            "spacing": self.spacing, "target_height": self.target_height,
            "slope_min": self.slope_min, "slope_max": self.slope_max,
            "density": self.density,
            "water_depth": self.water_depth, "water_level": self.water_level,
        })
    }

    /// Settings from JSON; missing or bad values keep the defaults.
    pub fn from_json(v: &Value) -> Brush {
        let d = Brush::default();
        let get = |k: &str, def: f64| v.get(k).and_then(Value::as_f64).unwrap_or(def);
        Brush {
            size: get("size", d.size),
            strength: get("strength", d.strength),
            falloff: get("falloff", d.falloff),
            spacing: get("spacing", d.spacing),
            target_height: get("target_height", d.target_height),
            slope_min: get("slope_min", d.slope_min),
            slope_max: get("slope_max", d.slope_max),
            density: get("density", d.density),
            water_depth: get("water_depth", d.water_depth),
            water_level: get("water_level", d.water_level),
        }
        .clamped()
    }
}

/// The cursor label: tool, size, strength, and the height and slope under the cursor.
pub fn label(tool: Tool, brush: &Brush, height: Option<f64>, slope_deg: Option<f64>) -> String {
    let mut s = format!(
        "{}  size {:.1} m  strength {:.2}",
        tool.label(),
        brush.size,
        brush.strength
    );
    if tool == Tool::SetHeight {
        s += &format!("  target {:.1} m", brush.target_height);
    }
    if tool == Tool::Water {
        s += &format!("  depth {:.1} m", brush.water_depth);
        if brush.water_level >= 0.5 {
            s += &format!("  level {:.1} m", brush.target_height);
        }
    }
    if let Some(h) = height {
        s += &format!("  h {h:.1} m");
    }
    if let Some(a) = slope_deg {
        s += &format!("  slope {a:.0}°");
    }
    s
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
