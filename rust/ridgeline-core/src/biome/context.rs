//! The per-sample context classification reads, and the thresholds that interpret it.

use super::moisture::FlowWetting;
use super::substrate::Substrate;

/// Everything rules and roles know about one sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleContext {
    /// World height.
    pub height: f32,
    /// Slope in degrees (0 flat, 90 vertical).
    pub slope: f32,
    /// Moisture 0..=1 (climate, raised by flow when drainage is connected).
    pub moisture: f32,
    /// Terrain-local distance to the nearest covered sample; infinite when nothing is covered.
    pub water_distance: f32,
    /// Under water (resolved coverage).
    pub covered: bool,
    /// On a concentrated flow path (drainage connected and catchment ≥ `river_area`).
    pub river: bool,
    /// Signed erosion change (+ deposition, − removal, world units); 0 when not connected.
    pub erosion: f32,
    /// Derived substrate.
    pub substrate: Substrate,
}

/// Thresholds of substrate and surface-role classification. Slopes in degrees, distances and
/// depths in world units, areas in world units². Defaults are documented in `docs/biomes.md`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceParams {
    /// Slope from which ground is bare rock (substrate `rock`, role `rock`). Default 35.
    pub rock_slope: f32,
    /// Slope from which rock is a cliff face (role `cliff`). Default 50.
    pub cliff_slope: f32,
    /// Steepest slope loose material rests on: sand, sediment, shores. Default 20.
    pub loose_max_slope: f32,
    /// Steepest slope grass grows on. Default 30.
    pub grass_max_slope: f32,
    /// Moisture from which flat soil is grass. Default 0.45.
    pub grass_moisture: f32,
    /// Dry ground within this distance of water is shore. Default 4.
    pub shore_width: f32,
    /// Moisture from which a shore is wet ground rather than sand. Default 0.4.
    pub wet_shore_moisture: f32,
    /// Net erosion removal that exposes rock (> 0). Default 0.2.
    pub cut_depth: f32,
    /// Net deposition that lays sediment (> 0). Default 0.05.
    pub deposit_depth: f32,
    /// Catchment area marking a concentrated flow path (a stream). Default 20000.
    pub river_area: f32,
    /// How flow accumulation raises moisture.
    pub flow: FlowWetting,
    /// Height from which snow lies where the biome allows it. Default infinity (no snow); see
    /// [`SurfaceParams::snow_line_for`].
    pub snow_line: f32,
    /// Steepest slope snow stays on. Default 40.
    pub snow_max_slope: f32,
}

impl Default for SurfaceParams {
    fn default() -> Self {
        Self {
            rock_slope: 35.0,
            cliff_slope: 50.0,
            loose_max_slope: 20.0,
            grass_max_slope: 30.0,
            grass_moisture: 0.45,
            shore_width: 4.0,
            wet_shore_moisture: 0.4,
            cut_depth: 0.2,
            deposit_depth: 0.05,
            river_area: 20_000.0,
            flow: FlowWetting::default(),
            snow_line: f32::INFINITY,
            snow_max_slope: 40.0,
        }
    }
}

impl SurfaceParams {
    /// True when a dry sample at `water_distance` is on a shore.
    #[inline(always)]
    pub fn is_shore(&self, water_distance: f32) -> bool {
        (water_distance > 0.0) & (water_distance <= self.shore_width)
    }

    /// A snow line for a terrain: three quarters of the way from the sea level to the highest
    /// ground (`height_range` = [min, max]), or infinity (no snow) when nothing rises above the
    /// sea. Compute it once from the generated base, not from the edited surface, so sculpting
    /// a peak does not move the snow elsewhere.
    pub fn snow_line_for(sea_level: f32, height_range: [f32; 2]) -> f32 {
        let top = height_range[1];
        if top.is_finite() && top > sea_level {
            sea_level + 0.75 * (top - sea_level)
        } else {
            f32::INFINITY
        }
    }

    /// Problems with the thresholds (`path` prefixes each location).
    pub fn validate(&self, path: &str, d: &mut crate::error::Diagnostics) {
        let degrees = [
            ("rock_slope", self.rock_slope),
            ("cliff_slope", self.cliff_slope),
            ("loose_max_slope", self.loose_max_slope),
            ("grass_max_slope", self.grass_max_slope),
            ("snow_max_slope", self.snow_max_slope),
        ];
        for (name, v) in degrees {
            if !(0.0..=90.0).contains(&v) {
                d.push(
                    format!("{path}.{name}"),
                    format!("must be 0..=90 degrees, got {v}"),
                );
            }
        }
        let unit = [
            ("grass_moisture", self.grass_moisture),
            ("wet_shore_moisture", self.wet_shore_moisture),
            ("flow.flow_moisture_gain", self.flow.flow_moisture_gain),
        ];
        for (name, v) in unit {
            if !(0.0..=1.0).contains(&v) {
                d.push(format!("{path}.{name}"), format!("must be 0..=1, got {v}"));
            }
        }
        let positive = [
            ("shore_width", self.shore_width),
            ("cut_depth", self.cut_depth),
            ("deposit_depth", self.deposit_depth),
            ("river_area", self.river_area),
            ("flow.flow_area_start", self.flow.flow_area_start),
            ("flow.flow_area_full", self.flow.flow_area_full),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                d.push(
                    format!("{path}.{name}"),
                    format!("must be a finite number > 0, got {v}"),
                );
            }
        }
        if self.snow_line.is_nan() {
            d.push(
                format!("{path}.snow_line"),
                "must be a number (infinity: no snow)",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_bad_values_are_located() {
        let mut d = crate::error::Diagnostics::default();
        SurfaceParams::default().validate("surface", &mut d);
        assert!(d.is_empty(), "{:?}", d.0);
        let bad = SurfaceParams {
            cliff_slope: 95.0,
            shore_width: -1.0,
            snow_line: f32::NAN,
            ..Default::default()
        };
        bad.validate("surface", &mut d);
        let paths: Vec<_> = d.0.iter().map(|x| x.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "surface.cliff_slope",
                "surface.shore_width",
                "surface.snow_line"
            ]
        );
    }

    #[test]
    fn snow_line_sits_high_above_the_sea() {
        assert_eq!(SurfaceParams::snow_line_for(0.0, [-5.0, 100.0]), 75.0);
        assert_eq!(
            SurfaceParams::snow_line_for(10.0, [0.0, 5.0]),
            f32::INFINITY
        );
        let p = SurfaceParams::default();
        assert!(!p.is_shore(0.0) && p.is_shore(4.0) && !p.is_shore(4.01));
        assert!(!p.is_shore(f32::INFINITY));
    }
}
