//! `Terrain3D`'s foliage: painting density at runtime (`set_foliage_density`, a
//! `foliage_density` stroke), reading it back, the core's placement of a rectangle, and what
//! [`crate::scatter`] needs to follow foliage edits (the inputs and a change feed).

use super::Terrain3D;
use super::edit_session::lock;
use super::job::Prepared;
use godot::prelude::*;
use ridgeline_core::edit::Rect;
use ridgeline_core::hydrology::water::WaterSet;
use ridgeline_core::scatter::filter::{Environment, Surround};
use ridgeline_core::scatter::foliage::FoliageType;
use ridgeline_core::scatter::foliage_cutoff::{UserChannel, cutoff_channel};
use ridgeline_core::scatter::foliage_place::{FoliageEnv, FoliageInstance, place_chunk};
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

/// How many recent edits a scatter node can catch up on before it rebuilds all foliage.
const FEED_LEN: usize = 64;

/// What changed for foliage since a scatter node last looked: a generation counter (a new
/// surface rebuilds everything) and the sample rectangles of recent edits.
#[derive(Default)]
pub struct FoliageFeed {
    generation: u64,
    revision: u64,
    log: VecDeque<(u64, Rect)>,
    /// The user channels (names, kinds) placement last read: a change re-places everything.
    channels: Vec<UserChannel>,
    /// Cutoff errors already reported (each once until the channels or the surface change).
    reported: BTreeSet<String>,
}

impl FoliageFeed {
    /// A new surface replaced the old one.
    pub(super) fn regenerated(&mut self) {
        self.generation += 1;
        self.log.clear();
        self.reported.clear();
    }

    /// An edit touched `samples` (heights, masks, surface or painted density).
    pub(super) fn touched(&mut self, samples: Rect) {
        if samples.is_empty() {
            return;
        }
        self.revision += 1;
        self.log.push_back((self.revision, samples));
        if self.log.len() > FEED_LEN {
            self.log.pop_front();
        }
    }

    /// (generation, revision) now.
    pub fn stamp(&self) -> (u64, u64) {
        (self.generation, self.revision)
    }

    /// The rectangles touched after `revision` of the current generation; `None` when the
    /// feed no longer reaches back that far (rebuild everything).
    pub fn since(&self, revision: u64) -> Option<Vec<Rect>> {
        if revision == self.revision {
            return Some(Vec::new());
        }
        let first = self.log.front().map_or(u64::MAX, |e| e.0);
        (first <= revision + 1).then(|| {
            self.log
                .iter()
                .filter(|e| e.0 > revision)
                .map(|e| e.1)
                .collect()
        })
    }
}

/// Water coverage for foliage: a sample is wet where a water body owns it.
struct WaterCover<'a>(&'a WaterSet);

impl Surround for WaterCover<'_> {
    fn covered(&self, i: usize) -> bool {
        self.0.owner_at(i) != 0
    }
    fn water_distance(&self, _: usize) -> f32 {
        f32::INFINITY
    }
    fn moisture(&self, _: usize) -> Option<f32> {
        None
    }
}

/// Everything foliage placement reads of a terrain, held for one frame (never across frames:
/// edits would copy the surface while it is shared).
pub struct FoliageInputs {
    /// The surface, water, masks, classification, palette and edit session.
    pub prepared: Arc<Prepared>,
    /// The scatter sub-seed (the recipe's, or the one the payload was cooked with).
    pub seed: u64,
    /// The terrain's user channels (index = channel): what a type's `channel_cutoff` names.
    pub channels: Vec<UserChannel>,
}

impl FoliageInputs {
    /// The palette's foliage types (empty without a palette, as for cooked terrains).
    pub fn types(&self) -> &[FoliageType] {
        self.prepared
            .palette()
            .map_or(&[], |p| p.foliage.as_slice())
    }

    /// The core's instances of `t` in the chunk `rect` (`[x0, z0, x1, z1)`, terrain-local).
    pub fn place(&self, t: &FoliageType, rect: [f32; 4]) -> Vec<FoliageInstance> {
        let p = &*self.prepared;
        let session = p.edits.as_ref().and_then(|s| lock(s).ok());
        let field = &*p.field;
        let names: Vec<String> = p.surface.biomes.iter().map(|b| b.name.clone()).collect();
        let water = WaterCover(&p.water);
        // Without an edit session the finished terrain's own inputs apply: generated from a
        // recipe without strokes (nothing painted) or loaded from a cooked payload.
        let source = &*p.scatter_source;
        let exclusion: &[f32] = match &session {
            Some(s) => s.exclusion(),
            None => &p.exclusion,
        };
        let mut env = Environment::open(*field.grid(), field.heights());
        env.holes = Some(field.holes());
        if !p.surface.is_empty() {
            env.classes = Some(&p.surface.classes);
        }
        env.biome_names = &names;
        env.default_biome = &p.default_biome;
        if !p.water.owner.is_empty() {
            env.surround = Some(&water);
        }
        // Protected samples (protect strokes) block foliage like exclusions: the session's, and
        // the finished terrain's when no session holds its strokes (a cooked payload's session
        // starts from the surface without them).
        let protection: &[f32] = match &session {
            Some(s) => s.protection(),
            None => &[],
        };
        let cooked = session.is_none() || p.origin == "cooked payload";
        let base_protection: &[f32] = if cooked { &source.protection } else { &[] };
        for mask in [exclusion, protection, base_protection] {
            if mask.iter().any(|&w| w > 0.0) {
                env.blocked.push(mask);
            }
        }
        let fe = FoliageEnv {
            env,
            roles: (!p.surface.is_empty()).then_some(&p.surface.classes),
            density: match &session {
                Some(s) => s.foliage_maps().get(&t.id),
                None => source.foliage_density.get(&t.id),
            },
            // The core resolves the cutoff's channel by name on the painted user channels; a
            // name the terrain lacks was reported by `foliage_inputs` (placed without cutoff).
            channel: cutoff_channel(t, &self.channels, p.paint.layers.user_bytes(), "palette")
                .ok()
                .flatten(),
            // Painted water (`paint_water`) grows no foliage.
            water: (!p.water.painted.is_empty()).then_some(p.water.painted.as_slice()),
        };
        place_chunk(t, self.seed, &fe, rect)
    }
}

impl Terrain3D {
    /// What foliage reads now (`None` before the first surface). A change of the user
    /// channels' names or kinds re-places all foliage; a type whose `channel_cutoff` names no
    /// channel is reported once and placed without its cutoff.
    pub fn foliage_inputs(&mut self) -> Option<FoliageInputs> {
        let prepared = self.prepared().clone()?;
        let channels: Vec<UserChannel> = self
            .user_channel_types
            .iter_shared()
            .take(ridgeline_core::edit::paint::USER_CHANNELS)
            .map(|c| c.map_or_else(UserChannel::default, |c| c.bind().core_channel()))
            .collect();
        if channels != self.foliage_feed.channels {
            self.foliage_feed.regenerated();
            self.foliage_feed.channels = channels.clone();
        }
        let types = prepared.palette().map_or(&[][..], |p| &p.foliage[..]);
        for t in types {
            if let Err(e) = cutoff_channel(t, &channels, &[], "palette") {
                let e = e.to_string();
                if self.foliage_feed.reported.insert(e.clone()) {
                    godot_error!(
                        "Terrain3D: {e}; foliage type `{}` is placed without its cutoff",
                        t.id
                    );
                }
            }
        }
        let seed = prepared.scatter_source.seed;
        Some(FoliageInputs {
            prepared,
            seed,
            channels,
        })
    }

    /// The foliage change feed.
    pub fn foliage_feed(&self) -> &FoliageFeed {
        &self.foliage_feed
    }
}

#[godot_api(secondary)]
impl Terrain3D {
    /// [signal terrain_changed] layer flag: painted foliage density changed
    /// ([method set_foliage_density], `foliage_density` strokes).
    #[constant]
    pub const LAYER_FOLIAGE: i32 = super::change_signal::flags::FOLIAGE;

    /// Paints foliage type `type`'s density multiplier toward `density` (0–1; 0 removes the
    /// foliage) within `radius` terrain-local units of `center` (a global position; its X/Z are
    /// used), with a soft edge over the outer half — one `foliage_density` stroke: undoable,
    /// returned by [method get_runtime_strokes], and only the touched chunks of every
    /// [TerrainScatter] are placed again. [signal terrain_changed] follows with
    /// [constant LAYER_FOLIAGE]. Returns false with an error and changes nothing for an unknown
    /// type, a non-finite center, a radius ≤ 0 or a density outside 0..=1.
    #[func]
    pub fn set_foliage_density(
        &mut self,
        r#type: StringName,
        center: Vector3,
        radius: f32,
        density: f32,
    ) -> bool {
        let what = "Terrain3D.set_foliage_density";
        let id = r#type.to_string();
        if !center.is_finite() {
            godot_error!("{what}: center must be finite, got {center}; nothing changed");
            return false;
        }
        if !(radius.is_finite() && radius > 0.0) {
            godot_error!("{what}: radius must be finite and > 0, got {radius}; nothing changed");
            return false;
        }
        if !(0.0..=1.0).contains(&density) {
            godot_error!("{what}: density must be 0..=1, got {density}; nothing changed");
            return false;
        }
        let local = self.base().get_global_transform().affine_inverse() * center;
        let stroke = serde_json::json!({
            "type": "foliage_density", "foliage": id, "center": [local.x, local.z],
            "radius": radius, "density": density,
        });
        self.edit("set_foliage_density", |s| {
            s.apply_stroke(&stroke).map_err(|e| e.to_string())
        })
    }

    /// Foliage type `type`'s painted density multiplier (0–1) at the sample nearest
    /// `world_position`: 1 where nothing is painted, NAN outside the terrain, for an unknown
    /// type (with an error) or before the first generation.
    #[func]
    pub fn get_foliage_density(&self, r#type: StringName, world_position: Vector3) -> f32 {
        let id = r#type.to_string();
        self.surface(f32::NAN, |p, xf| {
            if p.palette().is_none_or(|pl| pl.foliage_type(&id).is_none()) {
                godot_error!(
                    "Terrain3D.get_foliage_density: no foliage type `{id}` in the palette"
                );
                return f32::NAN;
            }
            let local = xf.local_point(world_position);
            if p.field.grid().nearest_sample(local.x, local.z).is_none() {
                return f32::NAN;
            }
            match &p.edits {
                Some(s) => match lock(s) {
                    Ok(s) => s
                        .foliage_density_at(&id, local.x, local.z)
                        .unwrap_or(f32::NAN),
                    Err(e) => {
                        godot_error!("Terrain3D.get_foliage_density: {e}");
                        f32::NAN
                    }
                },
                None => p
                    .scatter_source
                    .foliage_density
                    .get(&id)
                    .and_then(|m| {
                        let (sx, sz) = p.field.grid().nearest_sample(local.x, local.z)?;
                        m.get(p.field.grid().index(sx, sz)).copied()
                    })
                    .unwrap_or(1.0),
            }
        })
    }

    /// The core's instances of foliage type `type` whose cell lies in `rect` (terrain-local X/Z:
    /// position = x, z): their terrain-local base positions, in the chunk order distance
    /// thinning draws them. Empty for an unknown type (with an error).
    #[func]
    pub fn get_foliage_instances(&mut self, r#type: StringName, rect: Rect2) -> PackedVector3Array {
        let id = r#type.to_string();
        let Some(inputs) = self.foliage_inputs() else {
            return PackedVector3Array::new();
        };
        let Some(t) = inputs.types().iter().find(|t| t.id == id).cloned() else {
            godot_error!("Terrain3D.get_foliage_instances: no foliage type `{id}` in the palette");
            return PackedVector3Array::new();
        };
        let (a, b) = (rect.position, rect.position + rect.size);
        let size = inputs.prepared.field.grid().size();
        let cells =
            ridgeline_core::scatter::foliage_place::cell_count(&t, [a.x, a.y, b.x, b.y], size);
        if let Some(why) = ridgeline_core::scatter::foliage_place::chunk_limit_problem(&t, cells) {
            godot_error!(
                "Terrain3D.get_foliage_instances: the rectangle holds {why} for `{id}`; ask for a smaller one"
            );
            return PackedVector3Array::new();
        }
        inputs
            .place(&t, [a.x, a.y, b.x, b.y])
            .iter()
            .map(|p| Vector3::new(p.position[0], p.position[1], p.position[2]))
            .collect()
    }

    /// The palette's foliage type ids (empty without a palette).
    #[func]
    pub fn get_foliage_types(&self) -> PackedStringArray {
        self.prepared()
            .as_ref()
            .and_then(|p| p.palette())
            .map(|p| {
                p.foliage
                    .iter()
                    .map(|t| GString::from(t.id.as_str()))
                    .collect()
            })
            .unwrap_or_default()
    }
}
