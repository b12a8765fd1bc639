//! Background generation: runs the core on a Rust thread with owned data. The main thread polls
//! progress and the result; no engine call happens off the main thread, and a panic in the job
//! becomes an error message instead of crossing into Godot.

use crate::convert::panic_guard;
use crate::render::chunk_data::ChunkData;
use ridgeline_core::edit::MaskLoader;
use ridgeline_core::graph::eval::{GraphCache, NodeReport};
use ridgeline_core::mesh::near_chunks::CollisionMode;
use ridgeline_core::mesh::patch::RenderPath;
use ridgeline_core::nodes::Quality;
use ridgeline_core::pipeline::{DevCache, EditSession, PreparedTerrain};
use ridgeline_core::recipe::Recipe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};

/// Everything the node needs to show and query a terrain.
#[derive(Clone)]
pub struct Prepared {
    /// The surface.
    pub field: Arc<ridgeline_core::Heightfield>,
    /// The default biome (until the biome stage assigns per-cell biomes).
    pub default_biome: String,
    /// Default biome colour.
    pub biome_color: [f32; 4],
    /// Water bodies with their resolved surfaces.
    pub water: Arc<ridgeline_core::hydrology::water::WaterSet>,
    /// Where the surface came from: "generated", "development cache" or "cooked payload".
    pub origin: &'static str,
    /// Non-fatal problems to report as warnings (for example a cache that could not be written).
    pub warnings: Vec<String>,
    /// Painted exclusion (0–1 per sample; empty when none), as generated or cooked.
    pub exclusion: Arc<[f32]>,
    /// Painted region ids per sample (empty when none) and their biome names.
    pub regions: Arc<[u16]>,
    /// Biome names of region ids (id − 1).
    pub region_biomes: Arc<[String]>,
    /// The edit session (base, strokes, history) when the recipe has strokes; created on the
    /// first runtime edit otherwise.
    pub edits: Option<Arc<Mutex<EditSession>>>,
    /// Biome table, biome id and surface role per sample (the core's classification).
    pub surface: Arc<ridgeline_core::pipeline::Surface>,
    /// What the classification read (rules on/off, flow, erosion), for reclassifying edits.
    pub sources: ridgeline_core::pipeline::SurfaceSources,
    /// Scatter placements of the current surface (refiltered after every edit).
    pub scatter: Arc<ridgeline_core::scatter::Scatter>,
    /// What drawing the scatter reads besides the placements — the palette (rule geometry,
    /// collision, foliage types), the scatter sub-seed and the finished terrain's painted
    /// foliage density and protection — from the recipe or the cooked payload alike.
    pub scatter_source: Arc<ridgeline_core::pipeline::ScatterSource>,
    /// Painted layers (user channels, surface paint weights) and the classified roles under
    /// them, copied from the edit session after every paint write.
    pub paint: Arc<super::paint_state::PaintState>,
    /// What each graph node did in the run that made this surface (empty when nothing was
    /// evaluated: development cache, cooked payload, conventional pipeline).
    pub nodes: Arc<[NodeReport]>,
    /// The quality the surface was generated at (cooked payloads: Final).
    pub quality: Quality,
}

impl Prepared {
    /// The palette (rule geometry, category and collision; foliage types), whether the surface
    /// was generated or cooked; `None` without one.
    pub fn palette(&self) -> Option<&Arc<ridgeline_core::scatter::Palette>> {
        self.scatter_source.palette.as_ref()
    }
}

/// A finished job: the surface and its first chunk data.
pub type Finished = (Prepared, ChunkData);

/// What the poll found.
// Returned by value once per poll and matched at once, never stored: boxing buys nothing.
#[allow(clippy::large_enum_variant)]
pub enum Poll {
    /// Still running; the latest progress if it changed.
    Running(Option<(f32, String)>),
    /// Finished.
    Done(Result<Finished, String>),
}

/// What a job prepares from.
pub enum Source {
    /// Generate from a recipe at a quality, reusing and filling the development cache when
    /// one is given (Final only); mask images resolve through the loader.
    Recipe(Box<Recipe>, Option<DevCache>, Option<MaskLoader>, Quality),
    /// A cooked payload: only meshes and collision are built, no node is evaluated.
    Cooked(Arc<PreparedTerrain>),
}

/// A running generation.
pub struct GenerationJob {
    cancel: Arc<AtomicBool>,
    progress: Arc<Mutex<(f32, String, bool)>>,
    result: Receiver<Result<Finished, String>>,
}

impl GenerationJob {
    /// Starts generating `recipe` on a new thread. `cache` is moved into the job and handed
    /// back through `cache_out` when it finishes. Chunk collision is built for every chunk
    /// only when `collision` resolves to full collision for the surface's size, chunk meshes
    /// only when `path` resolves to the mesh path.
    pub fn start(
        source: Source,
        cache: Arc<Mutex<GraphCache>>,
        (collision, path): (CollisionMode, RenderPath),
    ) -> Self {
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new((0.0f32, String::from("starting"), true)));
        let (tx, rx) = channel();
        let (c, p) = (cancel.clone(), progress.clone());
        std::thread::spawn(move || {
            // A panic anywhere in the job is a failed generation with its message, never a
            // result (the graph cache it may have left half-written is reset by the next job).
            let result = panic_guard::catch(|| match &source {
                Source::Recipe(recipe, dev, masks, quality) => {
                    let at = (dev.as_ref(), *quality);
                    prepare(
                        recipe,
                        at,
                        masks.clone(),
                        &cache,
                        (&p, &c),
                        (collision, path),
                    )
                }
                Source::Cooked(cooked) => Ok(build(
                    cooked.as_ref().clone(),
                    "cooked payload",
                    &p,
                    (collision, path),
                )),
            })
            .unwrap_or_else(|e| Err(format!("Terrain3D: generation failed: {e}")));
            let _ = tx.send(result);
        });
        Self {
            cancel,
            progress,
            result: rx,
        }
    }

    /// Asks the job to stop; it finishes with an error soon after.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Checks for progress or the result without blocking.
    pub fn poll(&self) -> Poll {
        match self.result.try_recv() {
            Ok(r) => Poll::Done(r),
            Err(TryRecvError::Disconnected) => {
                Poll::Done(Err("the generation thread stopped unexpectedly".into()))
            }
            Err(TryRecvError::Empty) => {
                let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
                if p.2 {
                    p.2 = false;
                    Poll::Running(Some((p.0, p.1.clone())))
                } else {
                    Poll::Running(None)
                }
            }
        }
    }

    /// Blocks until the job finishes.
    pub fn wait(self) -> Result<Finished, String> {
        self.result
            .recv()
            .unwrap_or_else(|_| Err("the generation thread stopped unexpectedly".into()))
    }
}

fn prepare(
    recipe: &Recipe,
    (dev, quality): (Option<&DevCache>, Quality),
    masks: Option<MaskLoader>,
    cache: &Mutex<GraphCache>,
    (progress, cancel): (&Mutex<(f32, String, bool)>, &AtomicBool),
    plan: (CollisionMode, RenderPath),
) -> Result<Finished, String> {
    let report = |f: f32, stage: &str| {
        let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
        *p = (f, stage.to_string(), true);
    };
    let done = {
        // A job that panicked while holding the cache may have left it half-updated: start
        // from an empty cache rather than trust it.
        let mut guard = cache.lock().unwrap_or_else(|poisoned| {
            let mut stale = poisoned.into_inner();
            *stale = GraphCache::default();
            stale
        });
        cache.clear_poison();
        ridgeline_core::pipeline::prepare_cached_at(
            recipe, quality, dev, &mut guard, &report, cancel, masks,
        )
        .map_err(|e| match e {
            ridgeline_core::Error::Cancelled => "generation cancelled".to_string(),
            other => other.to_string(),
        })?
    };
    let origin = if done.from_cache {
        "development cache"
    } else {
        "generated"
    };
    let mut out = build(done.prepared, origin, progress, plan);
    out.0.warnings = done
        .warning
        .map(|e| format!("Terrain3D: development cache not written: {e}"))
        .into_iter()
        .collect();
    if let Some(s) = &done.session {
        out.0.paint = Arc::new(super::paint_state::PaintState::of_session(s));
    }
    out.0.edits = done.session.map(|s| Arc::new(Mutex::new(s)));
    out.0.nodes = done.nodes.into();
    out.0.quality = done.quality;
    Ok(out)
}

/// Meshes and collision for a prepared surface.
fn build(
    prepared: PreparedTerrain,
    origin: &'static str,
    progress: &Mutex<(f32, String, bool)>,
    (collision, path): (CollisionMode, RenderPath),
) -> Finished {
    let report = |f: f32, stage: &str| {
        let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
        *p = (f, stage.to_string(), true);
    };
    let PreparedTerrain {
        field,
        water,
        default_biome,
        biome_color,
        exclusion,
        regions,
        region_biomes,
        surface,
        sources,
        scatter,
        scatter_source,
    } = prepared;
    report(0.85, "meshing chunks and collision");
    // A cooked terrain starts painted as it was cooked (an uncooked one gets its session's
    // paint after this).
    let paint = Arc::new(super::paint_state::PaintState {
        layers: scatter_source.paint.clone(),
        classified: scatter_source.classified.clone(),
    });
    let meshes = path.resolve(field.grid()).0 == RenderPath::Mesh;
    let chunks = ChunkData::build(&field, collision, meshes);
    report(1.0, "done");
    let prepared = Prepared {
        field: Arc::new(field),
        default_biome,
        biome_color,
        water: Arc::new(water),
        exclusion: exclusion.into(),
        regions: regions.into(),
        region_biomes: region_biomes.into(),
        origin,
        warnings: Vec::new(),
        edits: None,
        surface: Arc::new(surface),
        sources,
        scatter,
        scatter_source,
        paint,
        nodes: Arc::new([]),
        quality: Quality::Final,
    };
    (prepared, chunks)
}

impl Drop for GenerationJob {
    /// A job dropped with its node stops working.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}
