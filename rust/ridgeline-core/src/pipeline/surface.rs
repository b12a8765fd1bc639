//! Biomes and surface roles of a prepared terrain.
//!
//! The recipe's biome table, rules and biome layers compile into a [`Classifier`]
//! ([`compile`]); [`SurfaceState`] classifies the finished surface (strokes replayed, painted
//! regions applied) and keeps what a sculpting session needs to reclassify locally. The result
//! published on [`super::PreparedTerrain`] is a [`Surface`]: the biome table plus a biome id and
//! a role id per sample.
//!
//! **When rules apply.** Without a graph (the conventional pipeline) the recipe's `rules`
//! always apply. With a graph they apply when the graph's published heightfield went through a
//! `biome_rules` node ([`SurfaceSources::rules`]); otherwise the surface gets the default biome
//! and the painted regions. Roles are computed in every case.
//!
//! **Water.** The published water's resolved coverage when it has a body (raised lakes and
//! rivers at their own level), else the sea inferred below the recipe's sea level and
//! connected to the border. (A `biome_rules` node's own water input classifies the node's
//! output inside the graph; the final surface reads what the terrain publishes.)

use crate::biome::{
    BiomeLayer, BiomeSpec, Classification, Classifier, Explanation, MaterialSet, MaterialTable,
    Role, RuleSpec, SampleClasses, SampleRect, SurfaceInput, SurfaceParams,
};
use crate::error::{Diagnostics, Result};
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::hydrology::water::WaterSet;
use crate::recipe::Recipe;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Biome ids and surface roles per sample, with the biome table they index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Surface {
    /// The biome table: a biome's id is its position. The recipe's biomes in name order (one
    /// implicit biome named after `default_biome` when the recipe defines none).
    pub biomes: Vec<BiomeSpec>,
    /// Biome id and surface role id ([`Role`] as `u8`, 0..=8) per sample (row-major, Z
    /// outer); empty when not classified.
    pub classes: SampleClasses,
}

impl Surface {
    /// True when no sample is classified (an unclassified payload).
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }
    /// The biome with id `id`.
    pub fn biome(&self, id: u16) -> Option<&BiomeSpec> {
        self.biomes.get(id as usize)
    }
    /// The id of the biome named `name`.
    pub fn biome_index(&self, name: &str) -> Option<u16> {
        self.biomes
            .iter()
            .position(|b| b.name == name)
            .map(|i| i as u16)
    }
    /// Biome id of sample `i` (`None` out of range or unclassified).
    pub fn biome_id(&self, i: usize) -> Option<u16> {
        self.classes.biome(i)
    }
    /// Surface role of sample `i` (`None` out of range or unclassified).
    pub fn role(&self, i: usize) -> Option<Role> {
        self.classes.role(i).and_then(Role::from_id)
    }
    /// Role of triangle `upper` (false: lower) of cell (x, z) on `grid`: its vertices'
    /// majority, the first vertex when all three differ (lower `(x,z) (x+1,z) (x,z+1)`, upper
    /// `(x+1,z) (x+1,z+1) (x,z+1)`). `None` outside the grid or unclassified.
    pub fn triangle_role(&self, grid: &Grid, x: usize, z: usize, upper: bool) -> Option<Role> {
        let [cx, cz] = grid.cells();
        if x >= cx as usize || z >= cz as usize || self.classes.len() != grid.sample_count() {
            return None;
        }
        let at = |x, z| self.role(grid.index(x, z));
        let (a, b, c) = if upper {
            (at(x + 1, z)?, at(x + 1, z + 1)?, at(x, z + 1)?)
        } else {
            (at(x, z)?, at(x + 1, z)?, at(x, z + 1)?)
        };
        Some(crate::biome::roles::majority(a, b, c))
    }
    /// Every (biome, role) pair resolved against `set` (biome `material` overrides win).
    pub fn material_table(&self, set: Option<&MaterialSet>) -> MaterialTable {
        MaterialTable::build(&self.biomes, set)
    }
    /// Samples per role, in role id order.
    pub fn role_counts(&self) -> [usize; 9] {
        let mut n = [0; 9];
        for r in self.classes.roles() {
            if let Some(c) = n.get_mut(r as usize) {
                *c += 1;
            }
        }
        n
    }
}

/// What the graph connected for classification (the conventional pipeline: rules, nothing
/// else).
#[derive(Clone, Debug, Default)]
pub struct SurfaceSources {
    /// Apply the recipe's rules.
    pub rules: bool,
    /// Drainage flow accumulation per sample (upstream samples including itself).
    pub flow: Option<Arc<Vec<f32>>>,
    /// With `flow`: the heights the graph's drainage ran on minus the generated surface, per
    /// sample. After sculpting, drainage runs again on the sculpted surface plus this offset
    /// ([`super::sculpted_flow`]); `None` when unknown (payloads of older builds), and the flow
    /// then stays as it was.
    pub flow_offset: Option<Arc<Vec<f32>>>,
    /// Signed erosion change per sample (+ deposition, − removal).
    pub erosion: Option<Arc<Vec<f32>>>,
}

/// The biome table of `recipe` (ids = positions, biomes in name order).
pub fn biome_table(recipe: &Recipe) -> Vec<BiomeSpec> {
    if recipe.biomes.is_empty() {
        return vec![BiomeSpec::named(recipe.default_biome.clone())];
    }
    recipe
        .biomes
        .iter()
        .map(|(name, b)| BiomeSpec {
            name: name.clone(),
            color: b.color.map(|c| c as f32),
            material: b.material.clone(),
            texture_scale: b.texture_scale as f32,
            allow_snow: b.allow_snow,
        })
        .collect()
}

/// The recipe's rules as classifier specifications; band and substrate problems are located
/// at `recipe.rules[i]…`.
pub fn rule_specs(recipe: &Recipe) -> Result<Vec<RuleSpec>> {
    let mut d = Diagnostics::default();
    let specs = recipe
        .rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            RuleSpec::from_parts(
                r.id.clone(),
                r.biome.clone(),
                r.layer.clone(),
                r.priority,
                r.blend,
                &r.bands,
                &r.substrate,
                &format!("recipe.rules[{i}]"),
                &mut d,
            )
        })
        .collect();
    d.into_result()?;
    Ok(specs)
}

/// The recipe's biome layers, in order.
pub fn biome_layers(recipe: &Recipe) -> Vec<BiomeLayer> {
    recipe
        .layers
        .iter()
        .filter(|l| l.kind == "biomes")
        .map(|l| BiomeLayer {
            id: l.id.clone(),
            enabled: l.enabled,
        })
        .collect()
}

/// Compiles the recipe's classifier. `with_rules` false drops the rules (default biome and
/// painted regions only). `base_range` is the generated base's height range: the snow line
/// sits three quarters of the way from the sea level to its top, so sculpting never moves it.
/// Errors are located (`recipe.rules[3].slope: …`).
pub fn compile(recipe: &Recipe, with_rules: bool, base_range: [f32; 2]) -> Result<Classifier> {
    let sea = recipe.sea_level() as f32;
    let params = SurfaceParams {
        snow_line: SurfaceParams::snow_line_for(sea, base_range),
        ..SurfaceParams::default()
    };
    let rules = if with_rules {
        rule_specs(recipe)?
    } else {
        Vec::new()
    };
    Classifier::new(
        recipe.seed,
        biome_table(recipe),
        &recipe.default_biome,
        &rules,
        &biome_layers(recipe),
        params,
    )
    .map_err(locate)
}

/// [`compile`] with the climate of `biome_placement` sub-seed `climate_seed` when given.
fn compile_with(
    recipe: &Recipe,
    with_rules: bool,
    base_range: [f32; 2],
    climate_seed: Option<u64>,
) -> Result<Classifier> {
    let c = compile(recipe, with_rules, base_range)?;
    Ok(match climate_seed {
        Some(s) => c.with_climate_sub_seed(s),
        None => c,
    })
}

/// Identity of the recipe's biome table, rules and biome layers (node cache keys).
pub fn biomes_key(recipe: &Recipe) -> u64 {
    let v = recipe.to_value();
    let mut h = crate::seed::StableHasher::default();
    for k in ["biomes", "default_biome", "rules", "layers"] {
        h.str(k)
            .str(&v.get(k).map(|x| x.to_string()).unwrap_or_default());
    }
    h.finish()
}

/// Puts classifier paths under `recipe.` (`rules[2].biome` → `recipe.rules[2].biome`).
fn locate(e: crate::error::Error) -> crate::error::Error {
    match e {
        crate::error::Error::Invalid(list) => crate::error::Error::Invalid(
            list.into_iter()
                .map(|mut d| {
                    if !d.path.starts_with("recipe.") {
                        d.path = format!("recipe.{}", d.path);
                    }
                    d
                })
                .collect(),
        ),
        other => other,
    }
}

/// A classified surface and what reclassifying it needs.
#[derive(Clone, Debug)]
pub struct SurfaceState {
    classifier: Arc<Classifier>,
    cls: Classification,
    sources: SurfaceSources,
    /// Water owner per sample used for coverage (`None`: the inferred sea).
    water: Option<Arc<Vec<u16>>>,
    sea_level: f32,
    /// Painted biome per sample as the classifier reads it (0 none, id + 1).
    painted: Vec<u16>,
    /// Region id (index + 1 into the session's biome names) → biome id + 1.
    region_map: Vec<u16>,
    /// Fixed biome per sample (a cooked terrain's, whose rules are not stored): unpainted
    /// samples keep it; only roles are recomputed.
    fixed: Option<Vec<u16>>,
    /// The published form, kept up to date by [`SurfaceState::update`].
    published: Surface,
    /// The biome layers and base height range the classifier was compiled with.
    layers: Vec<BiomeLayer>,
    base_range: [f32; 2],
    with_rules: bool,
    /// A cooked payload's `biome_placement` sub-seed (its climate), else the recipe seed's.
    climate_seed: Option<u64>,
    /// Painted water depth per sample (empty: none was ever painted), covering samples like
    /// water bodies ([`SurfaceState::set_painted_water`]).
    painted_water: Vec<f32>,
}

impl SurfaceState {
    /// Classifies `field` (the finished surface). `regions` are painted region ids (0 none,
    /// else index + 1 into `region_names`; empty = nothing painted). `published` is the water
    /// the terrain publishes; `base_range` the generated base's height range.
    pub fn new(
        recipe: &Recipe,
        sources: SurfaceSources,
        published: &WaterSet,
        base_range: [f32; 2],
        field: &Heightfield,
        regions: &[u16],
        region_names: &[String],
    ) -> Result<Self> {
        let at = (base_range, None);
        Self::with_climate(recipe, sources, published, at, field, regions, region_names)
    }

    /// [`SurfaceState::new`] with the climate of `biome_placement` sub-seed `at.1` when given
    /// (a cooked payload's) instead of the recipe seed's; `at.0` is the base height range.
    pub fn with_climate(
        recipe: &Recipe,
        sources: SurfaceSources,
        published: &WaterSet,
        at: ([f32; 2], Option<u64>),
        field: &Heightfield,
        regions: &[u16],
        region_names: &[String],
    ) -> Result<Self> {
        let (base_range, climate_seed) = at;
        let with_rules = recipe.graph.is_none() || sources.rules;
        let classifier = Arc::new(compile_with(recipe, with_rules, base_range, climate_seed)?);
        let water = (!published.bodies.is_empty()
            && published.owner.len() == field.grid().sample_count())
        .then(|| Arc::new(published.owner.clone()));
        let biomes = classifier.biomes();
        let region_map = region_names
            .iter()
            .map(|n| {
                biomes
                    .iter()
                    .position(|b| &b.name == n)
                    .map_or(0, |k| k as u16 + 1)
            })
            .collect();
        let n = field.grid().sample_count();
        let mut s = Self {
            classifier,
            cls: Classification::empty(*field.grid()),
            sources,
            water,
            sea_level: recipe.sea_level() as f32,
            painted: vec![0; n],
            region_map,
            fixed: None,
            published: Surface::default(),
            layers: biome_layers(recipe),
            base_range,
            with_rules,
            climate_seed,
            painted_water: Vec::new(),
        };
        s.map_regions(
            regions,
            SampleRect::all(field.grid().samples()[0], field.grid().samples()[1]),
        );
        let never = AtomicBool::new(false);
        let input = s.input(field);
        s.cls = s.classifier.classify(&input, &never)?;
        s.published = s.surface();
        Ok(s)
    }

    /// Keeps the biomes of `surface` (a cooked terrain's) on every unpainted sample: later
    /// updates recompute roles and painted regions only. Ignored when its sample count or
    /// table differs from this state's.
    pub fn keep_biomes(&mut self, surface: &Surface, field: &Heightfield) -> Result<()> {
        if surface.classes.len() != self.painted.len()
            || surface.biomes.len() != self.classifier.biomes().len()
        {
            return Ok(());
        }
        self.fixed = Some(surface.classes.biome_vec());
        // `painted` holds painted biome id + 1; unpainted samples take the fixed biome.
        for (p, id) in self.painted.iter_mut().zip(surface.classes.biomes()) {
            if *p == 0 {
                *p = id + 1;
            }
        }
        let never = AtomicBool::new(false);
        let input = self.input(field);
        self.cls = self.classifier.classify(&input, &never)?;
        self.published = self.surface();
        Ok(())
    }

    fn map_regions(&mut self, regions: &[u16], rect: SampleRect) {
        let w = self.cls.grid().samples()[0];
        if regions.len() != self.painted.len() {
            self.painted.fill(0);
            return;
        }
        for z in rect.z0..rect.z1 {
            for x in rect.x0..rect.x1 {
                let i = z * w + x;
                let r = regions[i];
                let painted = if r == 0 {
                    0
                } else {
                    self.region_map.get(r as usize - 1).copied().unwrap_or(0)
                };
                self.painted[i] = match (&self.fixed, painted) {
                    (Some(f), 0) => f[i] + 1,
                    _ => painted,
                };
            }
        }
    }

    fn input<'a>(&'a self, field: &'a Heightfield) -> SurfaceInput<'a> {
        SurfaceInput {
            water: self.water.as_deref().map(Vec::as_slice),
            flow: self.sources.flow.as_deref().map(Vec::as_slice),
            erosion: self.sources.erosion.as_deref().map(Vec::as_slice),
            painted: Some(&self.painted),
            painted_water: (!self.painted_water.is_empty())
                .then_some(self.painted_water.as_slice()),
            ..SurfaceInput::new(*field.grid(), field.heights(), self.sea_level)
        }
    }

    /// Sets the painted water depths (`crate::edit::water`, metres per sample; empty: none) the
    /// next [`Self::update`] reads: samples with depth above 0 are covered by water (the
    /// `underwater` role, wet distances), like a water body's.
    pub fn set_painted_water(&mut self, depths: Vec<f32>) {
        self.painted_water = depths;
    }

    /// Reclassifies after an edit confined to `changed` (heights or painted regions): the
    /// same result as a full pass. Returns the bounds of the samples whose biome or role
    /// changed.
    pub fn update(
        &mut self,
        field: &Heightfield,
        regions: &[u16],
        changed: SampleRect,
    ) -> Result<Option<SampleRect>> {
        let [w, h] = field.grid().samples();
        let changed = changed.clipped(w, h);
        self.map_regions(regions, changed);
        let classifier = self.classifier.clone();
        let mut cls = std::mem::replace(&mut self.cls, Classification::empty(*field.grid()));
        let r = classifier.reclassify(&mut cls, &self.input(field), changed);
        self.cls = cls;
        if let Ok(Some(rect)) = &r {
            let ids = self.cls.biome_ids();
            let roles = self.cls.roles();
            for z in rect.z0..rect.z1 {
                for i in z * w + rect.x0..z * w + rect.x1 {
                    self.published.classes.set(i, ids[i], roles[i] as u8);
                }
            }
        }
        r
    }

    /// Recompiles and reclassifies everything when `recipe`'s biome layers differ from the
    /// ones this state was compiled with (a toggled biome layer drops or restores its rules).
    /// Returns the bounds of what changed, `None` when the layers are the same.
    pub fn refresh_layers(
        &mut self,
        recipe: &Recipe,
        field: &Heightfield,
        regions: &[u16],
    ) -> Result<Option<SampleRect>> {
        let layers = biome_layers(recipe);
        if layers == self.layers {
            return Ok(None);
        }
        self.classifier = Arc::new(compile_with(
            recipe,
            self.with_rules,
            self.base_range,
            self.climate_seed,
        )?);
        self.layers = layers;
        let [w, h] = field.grid().samples();
        self.map_regions(regions, SampleRect::all(w, h));
        let never = AtomicBool::new(false);
        self.cls = self.classifier.classify(&self.input(field), &never)?;
        self.published = self.surface();
        Ok(Some(SampleRect::all(w, h)))
    }

    /// Why sample nearest to terrain-local (x, z) of `field` (the surface this state
    /// classified) has its biome: the runtime's decision and its band facts.
    pub fn explain(&self, field: &Heightfield, x: f32, z: f32) -> Result<Explanation> {
        self.classifier.explain(&self.input(field), &self.cls, x, z)
    }

    /// Republishes the roles of `rect` (samples) as `role(i, classified)` — painted surfaces
    /// (`crate::edit::paint`) over the classified role. The classification itself keeps the
    /// classified roles. Returns true when a published role changed.
    pub fn override_roles(
        &mut self,
        rect: crate::edit::Rect,
        role: impl Fn(usize, u8) -> u8,
    ) -> bool {
        let [w, h] = self.cls.grid().samples();
        let roles = self.cls.roles();
        let mut changed = false;
        for z in rect.z0..rect.z1.min(h) {
            let (a, b) = (z * w + rect.x0, z * w + rect.x1.min(w));
            for (i, &classified) in (a..b).zip(&roles[a.min(b)..b]) {
                let r = role(i, classified as u8);
                changed |= self.published.classes.set_role(i, r);
            }
        }
        changed
    }

    /// The published form, current after every update.
    pub fn published(&self) -> &Surface {
        &self.published
    }

    /// What the classification reads besides the surface (rules on/off, flow, erosion).
    pub fn sources(&self) -> &SurfaceSources {
        &self.sources
    }

    /// Replaces the flow accumulation (after sculpting, `super::sculpted_flow`) and
    /// reclassifies where it differs from the one before: the same result as a full pass with
    /// `flow`. Returns the bounds of the samples whose biome or role changed. Ignored (`None`)
    /// when the state reads no flow or `flow` has the wrong length.
    pub fn set_flow(
        &mut self,
        flow: Arc<Vec<f32>>,
        field: &Heightfield,
        regions: &[u16],
    ) -> Result<Option<SampleRect>> {
        let Some(old) = &self.sources.flow else {
            return Ok(None);
        };
        if flow.len() != old.len() {
            return Ok(None);
        }
        let w = field.grid().samples()[0];
        let bounds = super::sculpted_flow::differing_bounds(old, &flow, w);
        self.sources.flow = Some(flow);
        match bounds {
            Some([x0, z0, x1, z1]) => self.update(field, regions, SampleRect::new(x0, z0, x1, z1)),
            None => Ok(None),
        }
    }

    /// The classifier (biome table, rules, thresholds).
    pub fn classifier(&self) -> &Classifier {
        &self.classifier
    }
    /// The current classification.
    pub fn classification(&self) -> &Classification {
        &self.cls
    }
    /// The inputs the classification read, on `field` (for `explain`).
    pub fn surface_input<'a>(&'a self, field: &'a Heightfield) -> SurfaceInput<'a> {
        self.input(field)
    }
    /// The published form.
    pub fn surface(&self) -> Surface {
        Surface {
            biomes: self.classifier.biomes().to_vec(),
            classes: self.cls.classes(),
        }
    }
}
