//! What a node sees: the evaluation context (grid, cancellation, and the declared parts of the
//! scene) and the smaller check context. Nodes never see the recipe.

use super::Quality;
use super::spec::{NodeSpec, Read};
use crate::biome::Classifier;
use crate::error::{Error, Result};
use crate::grid::{Field, Grid};
use crate::landform::Landforms;
use crate::seed::StableHasher;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A file a node names (a heightmap), read by the pipeline before evaluation by the one rule
/// for referenced files (`fsio::resolve_reference`, `fsio::read_bounded`). The node decodes the
/// bytes itself, only when its cached result cannot be reused.
#[derive(Clone, Debug)]
pub struct NodeFile {
    /// The reference as written in the node's params.
    pub reference: String,
    /// Where it was found (for messages).
    pub path: String,
    /// The file's bytes.
    pub bytes: Arc<Vec<u8>>,
    /// [`crate::seed::content_hash`] of the bytes: part of the node's cache key.
    pub hash: u64,
}

impl NodeFile {
    /// How messages name the file: the reference and where it resolved.
    pub fn shown(&self) -> String {
        format!("\"{}\" ({})", self.reference, self.path)
    }
}

/// Files read for a run, by node id.
pub type NodeFiles = BTreeMap<String, NodeFile>;

/// What a node asks the pipeline to read before evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRequest {
    /// The reference as written (relative to the asset's folder, or `res://…`).
    pub reference: String,
    /// Its kind (size limit and messages).
    pub kind: crate::fsio::FileKind,
}

/// Everything a graph runs in: the grid, the world seed and the landforms.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The terrain grid.
    pub grid: Grid,
    /// The world seed.
    pub seed: u64,
    /// The named landforms.
    pub landforms: Landforms<'a>,
    landforms_key: u64,
    files: Option<&'a NodeFiles>,
    /// The recipe's compiled biome table and rules.
    pub biomes: Option<&'a Classifier>,
    biomes_key: u64,
    /// The recipe's scatter palette.
    pub palette: Option<&'a crate::scatter::Palette>,
    palette_key: u64,
}

impl<'a> Scene<'a> {
    /// A scene (hashes the landforms once for the cache keys).
    pub fn new(grid: Grid, seed: u64, landforms: Landforms<'a>) -> Self {
        Self {
            grid,
            seed,
            landforms,
            landforms_key: landforms.key(),
            files: None,
            biomes: None,
            biomes_key: 0,
            palette: None,
            palette_key: 0,
        }
    }

    /// The scene with the files its nodes name (read by the pipeline).
    pub fn with_files(self, files: &'a NodeFiles) -> Self {
        Self {
            files: Some(files),
            ..self
        }
    }

    /// The scene with the recipe's scatter palette (its canonical JSON is hashed for the
    /// cache keys of nodes that read it).
    pub fn with_palette(self, palette: Option<&'a crate::scatter::Palette>) -> Self {
        let palette_key = palette.map_or(0, |p| {
            let mut h = StableHasher::default();
            h.str(&p.to_value().to_string());
            h.finish()
        });
        Self {
            palette,
            palette_key,
            ..self
        }
    }

    /// The scene with the recipe's compiled biomes; `key` identifies them (biome table,
    /// rules, layers) in node cache keys.
    pub fn with_biomes(self, biomes: &'a Classifier, key: u64) -> Self {
        Self {
            biomes: Some(biomes),
            biomes_key: key,
            ..self
        }
    }
}

/// What a node sees while evaluating: always the grid and cancellation; the seed, landforms,
/// quality and its own id only when its registry entry declares it reads them.
#[derive(Clone, Copy)]
pub struct EvalContext<'a> {
    /// The terrain grid.
    pub grid: Grid,
    /// Set by the caller to stop work; nodes check it between rows.
    pub cancel: &'a AtomicBool,
    scene: &'a Scene<'a>,
    quality: Quality,
    node_id: &'a str,
    spec: &'static NodeSpec,
}

impl<'a> EvalContext<'a> {
    /// The context for node `node_id` of type `spec`.
    pub fn new(
        scene: &'a Scene<'a>,
        spec: &'static NodeSpec,
        node_id: &'a str,
        quality: Quality,
        cancel: &'a AtomicBool,
    ) -> Self {
        Self {
            grid: scene.grid,
            cancel,
            scene,
            quality,
            node_id,
            spec,
        }
    }

    fn declared(&self, part: Read) -> Result<()> {
        if self.spec.reads(part) {
            Ok(())
        } else {
            Err(Error::invalid(
                "",
                format!(
                    "internal: node type `{}` reads the {} without declaring it in its registry entry",
                    self.spec.id,
                    part.name()
                ),
            ))
        }
    }

    /// The world seed ([`Read::Seed`]).
    pub fn seed(&self) -> Result<u64> {
        self.declared(Read::Seed)?;
        Ok(self.scene.seed)
    }

    /// The landforms ([`Read::Landforms`]).
    pub fn landforms(&self) -> Result<Landforms<'a>> {
        self.declared(Read::Landforms)?;
        Ok(self.scene.landforms)
    }

    /// The recipe's compiled biomes ([`Read::Biomes`]).
    pub fn biomes(&self) -> Result<&'a Classifier> {
        self.declared(Read::Biomes)?;
        self.scene.biomes.ok_or_else(|| {
            Error::invalid(
                "",
                "internal: the scene was built without the recipe's biomes",
            )
        })
    }

    /// The recipe's scatter palette ([`Read::Palette`]); `None` when the recipe has none.
    pub fn palette(&self) -> Result<Option<&'a crate::scatter::Palette>> {
        self.declared(Read::Palette)?;
        Ok(self.scene.palette)
    }

    /// Preview or Final ([`Read::Quality`]).
    pub fn quality(&self) -> Result<Quality> {
        self.declared(Read::Quality)?;
        Ok(self.quality)
    }

    /// The node's id ([`Read::NodeId`]).
    pub fn node_id(&self) -> Result<&'a str> {
        self.declared(Read::NodeId)?;
        Ok(self.node_id)
    }

    /// The file this node names ([`Read::File`]), as the pipeline read it.
    pub fn file(&self) -> Result<&'a NodeFile> {
        self.declared(Read::File)?;
        self.scene
            .files
            .and_then(|f| f.get(self.node_id))
            .ok_or_else(|| {
                Error::invalid(
                    "params.file",
                    "was not read before evaluation (generate through the pipeline, which reads the files nodes name)",
                )
            })
    }

    /// Hashes everything this context exposes to the node: the grid always, and each
    /// declared part. A node's cache key is built from this, so what a node can read is
    /// exactly what its key covers.
    pub fn hash_exposed(&self, h: &mut StableHasher) {
        let [cx, cz] = self.grid.cells();
        let [sx, sz] = self.grid.size();
        h.u64(cx as u64)
            .u64(cz as u64)
            .u64(sx.to_bits() as u64)
            .u64(sz.to_bits() as u64);
        for part in self.spec.reads {
            match part {
                Read::Seed => h.str("seed").u64(self.scene.seed),
                Read::Landforms => h.str("landforms").u64(self.scene.landforms_key),
                Read::Quality => h.str("quality").u64(self.quality as u64),
                Read::NodeId => h.str("node_id").str(self.node_id),
                Read::File => {
                    let file = self.scene.files.and_then(|f| f.get(self.node_id));
                    h.str("file")
                        .u64(file.map_or(0, |f| f.hash))
                        .u64(file.map_or(0, |f| f.bytes.len() as u64))
                }
                Read::Biomes => h.str("biomes").u64(self.scene.biomes_key),
                Read::Palette => h.str("palette").u64(self.scene.palette_key),
            };
        }
    }

    /// `Err(Cancelled)` when the caller asked to stop.
    pub fn check_cancel(&self) -> Result<()> {
        if self.cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// True when the caller asked to stop.
    #[inline]
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// A field of the grid's sample dimensions, filled row by row in parallel by `row` (called
    /// with the row's Z index and the row to fill). Checks cancellation between rows.
    pub fn par_rows(&self, row: impl Fn(usize, &mut [f32]) + Sync) -> Result<Field<f32>> {
        use rayon::prelude::*;
        let [w, h] = self.grid.samples();
        let mut data = vec![0.0f32; w * h];
        data.par_chunks_mut(w).enumerate().for_each(|(z, out)| {
            if !self.cancelled() {
                row(z, out);
            }
        });
        self.check_cancel()?;
        Field::from_vec(w, h, data)
    }
}

/// What a node's check sees: the terrain size and the landforms.
#[derive(Clone, Copy, Debug)]
pub struct CheckContext<'a> {
    /// World size along X and Z.
    pub size: [f32; 2],
    /// The named landforms.
    pub landforms: Landforms<'a>,
}
