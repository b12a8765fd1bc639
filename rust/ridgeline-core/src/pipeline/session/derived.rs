//! What an edit session keeps derived from its surface: the surface classification (biome ids,
//! roles) and scatter placements, both updated locally after every change.

use super::EditSession;
use crate::edit::rect::Rect;
use crate::error::Result;
use std::sync::Arc;

impl EditSession {
    /// Attaches a classification of the current surface (what `pipeline::finish` does);
    /// every later change reclassifies locally, bit-identical to a full pass.
    pub fn attach_surface(&mut self, state: crate::pipeline::SurfaceState) {
        self.flow = super::flow::FlowState::of(state.sources());
        self.surface = Some(state);
        self.cover_painted_water();
        self.publish_all_paint();
    }

    /// Reclassifies a newly attached classification with the painted water (when any was
    /// painted): its samples are covered like a water body's.
    pub(super) fn cover_painted_water(&mut self) {
        if self.water.fractions().is_empty() {
            return;
        }
        self.sync_surface_water();
        let [w, h] = self.grid.samples();
        let all = crate::biome::SampleRect::new(0, 0, w, h);
        if let Some(state) = &mut self.surface
            && state.update(&self.field, &self.regions, all).is_err()
        {
            // As in `change`: a state that no longer fits is dropped, never published stale.
            self.surface = None;
        }
    }

    /// Classifies the current surface with this session's recipe and `prepared`'s water and
    /// sources (`base_range`: the generated base's height range, for the snow line). With
    /// `keep_biomes` (a cooked terrain, whose rules are not stored) unpainted samples keep
    /// `prepared`'s biome ids and only roles are recomputed.
    pub fn classify_surface(
        &mut self,
        prepared: &crate::pipeline::PreparedTerrain,
        base_range: [f32; 2],
        keep_biomes: bool,
    ) -> Result<()> {
        // Flow after sculpting: the strokes' height change routes the flow again.
        self.flow = super::flow::FlowState::of(&prepared.sources);
        let sources = self.sculpted_sources(&prepared.sources);
        let mut state = crate::pipeline::SurfaceState::with_climate(
            &self.recipe,
            sources,
            &prepared.water,
            (base_range, self.climate_seed),
            &self.field,
            &self.regions,
            &self.biome_names,
        )?;
        // A session given a cooked terrain's biome rules re-resolves its biomes by them.
        if keep_biomes && self.climate_seed.is_none() {
            state.keep_biomes(&prepared.surface, &self.field)?;
        }
        self.surface = Some(state);
        self.cover_painted_water();
        self.publish_all_paint();
        Ok(())
    }

    /// Publishes the painted surfaces over the whole classification (when anything is painted).
    fn publish_all_paint(&mut self) {
        if !self.paint.weight_bytes().is_empty() {
            let [w, h] = self.grid.samples();
            self.publish_paint(Rect::new(0, 0, w, h));
        }
    }

    /// Attaches scatter placements: `base` (what refiltering starts from, never added to) and
    /// `current` (`base` refiltered on the current surface). Every later change refilters the
    /// placements inside its touched rectangle; undo restores the same identities.
    pub fn attach_scatter(
        &mut self,
        base: Arc<crate::scatter::Scatter>,
        current: Arc<crate::scatter::Scatter>,
    ) {
        self.scatter = Some((base, current));
    }

    /// Gives the session a cooked terrain's scatter source: its palette (what foliage strokes
    /// check their type against and what refiltering re-checks placements with) and its scatter
    /// sub-seed (a payload stores the sub-seed, not the recipe seed it came from). The session
    /// then paints foliage and refilters placements exactly as the recipe's own session does.
    /// A source without a palette leaves the session's palette as it is.
    ///
    /// A source with biome rules (payloads that store them) also gives the session the
    /// recipe's rules, biome layers and climate: [`EditSession::classify_surface`] then
    /// resolves biomes and moisture by them (its `keep_biomes` is ignored), so sculpting
    /// re-resolves biomes as on the recipe. Without them the cooked biome ids are kept.
    /// Call it before `classify_surface`.
    pub fn set_scatter_source(&mut self, source: &crate::pipeline::ScatterSource) {
        if let Some(palette) = &source.palette {
            self.recipe.palette = Some((**palette).clone());
            self.scatter_seed = source.seed;
        }
        if let Some(b) = &source.biome_rules {
            self.recipe.rules = b.rules.clone();
            let at = self.recipe.layers.iter().position(|l| l.kind == "biomes");
            self.recipe.layers.retain(|l| l.kind != "biomes");
            let at = at.unwrap_or(self.recipe.layers.len());
            self.recipe.layers.splice(at..at, b.layers.iter().cloned());
            self.climate_seed = Some(b.climate_seed);
            if let Some(sea) = b.sea_level {
                // The sea level is the default landform's base height.
                let name = self.recipe.default_landform.clone();
                let mut shape = self
                    .recipe
                    .landforms_view()
                    .get(&name)
                    .unwrap_or_else(crate::landform::default_shape);
                shape.base_height = sea;
                self.recipe.landforms.insert(name, shape);
            }
        }
    }

    /// The scatter sub-seed refiltering hashes with.
    pub fn scatter_seed(&self) -> u64 {
        self.scatter_seed
    }

    /// The current scatter placements (`None` when none are attached).
    pub fn scatter(&self) -> Option<&Arc<crate::scatter::Scatter>> {
        self.scatter.as_ref().map(|(_, c)| c)
    }

    /// Refilters the attached placements inside the sample rectangle `samples`.
    pub(super) fn refilter_scatter(&mut self, samples: Rect) {
        let (Some((base, current)), Some(state), Some(palette)) =
            (&self.scatter, &self.surface, &self.recipe.palette)
        else {
            return;
        };
        if samples.is_empty() {
            return;
        }
        let next = crate::pipeline::scatter::refilter_samples(
            palette,
            self.scatter_seed,
            base,
            current,
            &self.field,
            state,
            &self.exclusion,
            &self.protection,
            [samples.x0, samples.z0, samples.x1, samples.z1],
        );
        self.scatter = Some((base.clone(), Arc::new(next)));
    }

    /// Biome ids and surface roles of the current surface (`None` until classified).
    pub fn surface(&self) -> Option<&crate::pipeline::Surface> {
        self.surface.as_ref().map(|s| s.published())
    }

    /// The classification state (for `explain`).
    pub fn surface_state(&self) -> Option<&crate::pipeline::SurfaceState> {
        self.surface.as_ref()
    }
}
