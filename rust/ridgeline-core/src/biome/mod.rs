//! Biomes and surfaces: what the ground looks like, derived from the terrain itself.
//!
//! One classification pass turns a finished surface into two values per sample: a **biome id**
//! (which biome tints and textures the ground) and a **surface role** (which of the nine
//! material roles a material set binds there). It reads, per sample:
//!
//! - **height** and **slope** ([`slope`]: degrees from central differences, the same gradients
//!   as the smooth normals);
//! - **moisture** ([`moisture`]: a stable climate field in `[0, 1]` from the `biome_placement`
//!   sub-seed, raised by flow accumulation when drainage is connected);
//! - **water coverage** ([`coverage`]: connected water bodies, or the sea inferred below the sea
//!   level and connected to the border) and the **water distance** to it ([`water_distance`]:
//!   an exact Euclidean distance transform);
//! - the **substrate** ([`substrate`]: soil, rock, sand or wet, from slope, signed erosion change
//!   and water);
//! - painted biome regions, which always win.
//!
//! Biomes come from [`rules`] (priority, then blend strength, then the earlier rule; painted
//! regions first; the default biome when nothing matches), roles from [`roles`] (underwater,
//! cliff, snow where the biome allows it, rock, sediment, shore, grass, ground). [`classify`]
//! runs the whole pass and keeps what a later incremental pass ([`incremental`]) and
//! [`explain`] need. [`material_set`] binds roles to materials. [`sample_classes`] stores the published
//! pairs in one byte per sample.
//!
//! This module is an algorithm: it knows nothing of recipes, graphs or payloads. Its inputs are
//! plain specifications ([`BiomeSpec`], [`rules::RuleSpec`], [`classify::SurfaceInput`]).

pub mod classify;
pub mod context;
pub mod coverage;
pub mod explain;
pub mod incremental;
pub mod material_set;
pub mod moisture;
pub mod roles;
mod row_pass;
pub mod rules;
pub mod sample_classes;
pub mod slope;
pub mod substrate;
pub mod water_distance;

pub use classify::{Classification, Classifier, SurfaceInput};
pub use context::{SampleContext, SurfaceParams};
pub use explain::Explanation;
pub use material_set::{MaterialSet, MaterialSource, MaterialTable};
pub use roles::Role;
pub use rules::{BiomeLayer, RuleSpec, Source};
pub use sample_classes::SampleClasses;
pub use substrate::{Substrate, SubstrateSet};

/// How one biome looks, as far as classification and materials care.
#[derive(Clone, Debug, PartialEq)]
pub struct BiomeSpec {
    /// Biome name (the recipe's `biomes` key).
    pub name: String,
    /// Tint, linear RGBA 0..1.
    pub color: [f32; 4],
    /// Explicit material override: wins over the material set's role bindings.
    pub material: Option<String>,
    /// Texture repetitions per terrain-local unit (> 0).
    pub texture_scale: f32,
    /// Whether automatic snow may cover this biome.
    pub allow_snow: bool,
}

impl BiomeSpec {
    /// A biome with the recipe defaults: white tint, no material, scale 1, snow allowed.
    pub fn named(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            color: [1.0; 4],
            material: None,
            texture_scale: 1.0,
            allow_snow: true,
        }
    }
}

/// A rectangle of samples `[x0, x1) × [z0, z1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleRect {
    /// First sample along X.
    pub x0: usize,
    /// First sample along Z.
    pub z0: usize,
    /// One past the last sample along X.
    pub x1: usize,
    /// One past the last sample along Z.
    pub z1: usize,
}

impl SampleRect {
    /// The rectangle `[x0, x1) × [z0, z1)`.
    pub fn new(x0: usize, z0: usize, x1: usize, z1: usize) -> Self {
        Self { x0, z0, x1, z1 }
    }
    /// Every sample of a `w × h` grid.
    pub fn all(w: usize, h: usize) -> Self {
        Self::new(0, 0, w, h)
    }
    /// True when the rectangle holds no sample.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.z0 >= self.z1
    }
    /// Number of samples.
    pub fn area(&self) -> usize {
        if self.is_empty() {
            0
        } else {
            (self.x1 - self.x0) * (self.z1 - self.z0)
        }
    }
    /// Grown by `n` samples on every side, clipped to a `w × h` grid.
    pub fn grown(&self, n: usize, w: usize, h: usize) -> Self {
        Self::new(
            self.x0.saturating_sub(n),
            self.z0.saturating_sub(n),
            (self.x1 + n).min(w),
            (self.z1 + n).min(h),
        )
    }
    /// Clipped to a `w × h` grid.
    pub fn clipped(&self, w: usize, h: usize) -> Self {
        Self::new(
            self.x0.min(w),
            self.z0.min(h),
            self.x1.min(w),
            self.z1.min(h),
        )
    }
    /// The smallest rectangle holding both (an empty side is ignored).
    pub fn union(&self, other: &Self) -> Self {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        Self::new(
            self.x0.min(other.x0),
            self.z0.min(other.z0),
            self.x1.max(other.x1),
            self.z1.max(other.z1),
        )
    }
    /// True when sample (x, z) lies inside.
    pub fn contains(&self, x: usize, z: usize) -> bool {
        x >= self.x0 && x < self.x1 && z >= self.z0 && z < self.z1
    }
}

#[cfg(test)]
pub(crate) mod testkit;
