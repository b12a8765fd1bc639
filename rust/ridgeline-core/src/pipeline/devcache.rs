//! Development cache: generated bases stored in the user's cache directory (never in the
//! project), one `<key>.terrain.bin` per base identity ([`super::generate::base_cache_key`]:
//! the recipe without strokes). A warm load decodes the base instead of evaluating the graph and
//! replays the strokes on it. Entries are written atomically
//! ([`crate::fsio::write_atomic`]) and read with the payload size bound; an unreadable or stale entry is a miss and is removed. The cache
//! keeps the most recently used [`DevCache::MAX_ENTRIES`] entries.

use super::PreparedTerrain;
use crate::nodes::NodeFiles;
use crate::recipe::Recipe;
use std::path::{Path, PathBuf};

/// How entries are written and read: the payload format, which lives above the pipeline
/// (`formats::payload::CODEC`), so the cache takes it as a value instead of importing it.
#[derive(Clone, Copy)]
pub struct Codec {
    /// Encodes a prepared base.
    pub encode: fn(&PreparedTerrain) -> Vec<u8>,
    /// Decodes an entry; the string names it in errors.
    pub decode: fn(&[u8], &str) -> crate::Result<PreparedTerrain>,
}

/// A cache directory.
#[derive(Clone)]
pub struct DevCache {
    dir: PathBuf,
    codec: Codec,
}

impl std::fmt::Debug for DevCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DevCache").field("dir", &self.dir).finish()
    }
}

impl PartialEq for DevCache {
    fn eq(&self, other: &Self) -> bool {
        self.dir == other.dir
    }
}

impl DevCache {
    /// Entries kept; older ones are removed when a new one is stored.
    pub const MAX_ENTRIES: usize = 24;

    /// A cache rooted at `dir` (created on first store).
    pub fn new(dir: impl Into<PathBuf>, codec: Codec) -> Self {
        Self {
            dir: dir.into(),
            codec,
        }
    }

    /// `$RIDGELINE_CACHE_DIR/terrain`, else `$XDG_CACHE_HOME/ridgeline/terrain`, else
    /// `$HOME/.cache/ridgeline/terrain`; `None` when none of these is set.
    pub fn from_environment(codec: Codec) -> Option<Self> {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        if let Some(d) = env("RIDGELINE_CACHE_DIR") {
            return Some(Self::new(d.join("terrain"), codec));
        }
        let base = env("XDG_CACHE_HOME").or_else(|| env("HOME").map(|h| h.join(".cache")))?;
        Some(Self::new(base.join("ridgeline").join("terrain"), codec))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where `recipe`'s entry lives, given the files its graph names
    /// ([`super::generate::read_files`]; their contents are part of the key).
    pub fn path_for(&self, recipe: &Recipe, files: &NodeFiles) -> PathBuf {
        self.dir.join(format!(
            "{:016x}.terrain.bin",
            super::generate::base_cache_key_with_files(recipe, files)
        ))
    }

    /// The prepared base for `recipe` (with `files`), when a valid entry exists. A corrupt or
    /// stale entry is removed and reported as a miss.
    pub fn load(&self, recipe: &Recipe, files: &NodeFiles) -> Option<PreparedTerrain> {
        let path = self.path_for(recipe, files);
        let bytes = crate::fsio::read_bounded(&path, crate::fsio::FileKind::Payload).ok()?;
        match (self.codec.decode)(&bytes, &path.display().to_string()) {
            Ok(p) if p.field.grid() == &recipe.grid().ok()? => {
                // Touch it so eviction keeps recently used entries.
                let _ = std::fs::File::options()
                    .append(true)
                    .open(&path)
                    .and_then(|f| f.set_modified(std::time::SystemTime::now()));
                Some(p)
            }
            _ => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores `prepared` (a base from [`super::generate::prepare_base`]) as `recipe`'s entry. Errors say which file could not be written; a
    /// failed store leaves no partial file.
    pub fn store(
        &self,
        recipe: &Recipe,
        files: &NodeFiles,
        prepared: &PreparedTerrain,
    ) -> Result<PathBuf, String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| {
            format!(
                "{}: cannot create cache directory ({e})",
                self.dir.display()
            )
        })?;
        let path = self.path_for(recipe, files);
        crate::fsio::write_atomic(&path, &(self.codec.encode)(prepared))
            .map_err(|e| e.to_string())?;
        self.evict();
        Ok(path)
    }

    /// Removes the oldest entries beyond [`Self::MAX_ENTRIES`].
    fn evict(&self) {
        let Ok(read) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut entries: Vec<(std::time::SystemTime, PathBuf)> = read
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".terrain.bin"))
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        if entries.len() <= Self::MAX_ENTRIES {
            return;
        }
        entries.sort();
        let excess = entries.len() - Self::MAX_ENTRIES;
        for (_, p) in entries.into_iter().take(excess) {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// A prepared terrain and where its base came from.
pub struct CachedPrepare {
    /// The finished terrain (strokes replayed).
    pub prepared: PreparedTerrain,
    /// The edit session when the recipe has strokes.
    pub session: Option<super::EditSession>,
    /// True when the base came from the cache.
    pub from_cache: bool,
    /// A cache that could not be written (not an error: the terrain is fine).
    pub warning: Option<String>,
    /// What each graph node did in this run (empty when the base came from the cache or the
    /// recipe has no graph).
    pub nodes: Vec<crate::graph::eval::NodeReport>,
    /// The quality the base was generated at.
    pub quality: crate::nodes::Quality,
}

/// Prepares `recipe` (Final quality) through the development cache: a warm base is decoded, a
/// cold one generated (progress 0–0.75) and stored; then the strokes replay on it. Used by the
/// Godot runtime and the export plugin.
pub fn prepare_cached(
    recipe: &Recipe,
    dev: Option<&DevCache>,
    cache: &mut crate::graph::eval::GraphCache,
    progress: crate::graph::eval::Progress,
    cancel: &std::sync::atomic::AtomicBool,
    masks: Option<crate::edit::MaskLoader>,
) -> crate::Result<CachedPrepare> {
    prepare_cached_at(
        recipe,
        crate::nodes::Quality::Final,
        dev,
        cache,
        progress,
        cancel,
        masks,
    )
}

/// [`prepare_cached`] at `quality`. The development cache holds Final bases only: any other
/// quality neither reads nor writes it (a preview is always generated, and never stored).
pub fn prepare_cached_at(
    recipe: &Recipe,
    quality: crate::nodes::Quality,
    dev: Option<&DevCache>,
    cache: &mut crate::graph::eval::GraphCache,
    progress: crate::graph::eval::Progress,
    cancel: &std::sync::atomic::AtomicBool,
    masks: Option<crate::edit::MaskLoader>,
) -> crate::Result<CachedPrepare> {
    let dev = dev.filter(|_| quality == crate::nodes::Quality::Final);
    // The files the graph names are read (and hashed) first: their contents are part of the
    // cache key, and a missing or unreadable file is an error before anything else happens.
    let files = super::generate::read_files(recipe, progress)?;
    let hit = dev.and_then(|d| {
        progress(0.0, "reading the development cache");
        d.load(recipe, &files)
    });
    let from_cache = hit.is_some();
    let mut warning = None;
    let mut nodes = Vec::new();
    let base = match hit {
        Some(base) => base,
        None => {
            let (base, reports) = super::generate::prepare_base_reporting(
                recipe,
                &files,
                quality,
                cache,
                &|f, s| progress(0.75 * f, s),
                cancel,
            )?;
            if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(crate::Error::Cancelled);
            }
            if let Some(d) = dev {
                progress(0.75, "writing the development cache");
                warning = d.store(recipe, &files, &base).err();
            }
            nodes = reports;
            base
        }
    };
    progress(0.8, "replaying strokes");
    let (prepared, session) = super::generate::finish(recipe, base, masks)?;
    Ok(CachedPrepare {
        prepared,
        session,
        from_cache,
        warning,
        nodes,
        quality,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::eval::GraphCache;
    use crate::nodes::Quality;
    use crate::pipeline::generate::prepare_base as prepare;
    use crate::recipe::Document;
    use std::sync::atomic::AtomicBool;

    fn recipe(seed: u64) -> Recipe {
        let text = format!(r#"{{"seed":{seed},"size":[32,32],"resolution":[16,16]}}"#);
        Document::parse(&text, "t").unwrap().recipe().clone()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("ridgeline-devcache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn miss_store_hit_and_corrupt_entry_is_a_miss() {
        let cache = DevCache::new(temp_dir("hit"), crate::formats::payload::CODEC);
        let r = recipe(3);
        let none = NodeFiles::new();
        assert!(cache.load(&r, &none).is_none());
        let p = prepare(
            &r,
            Quality::Final,
            &mut GraphCache::default(),
            &|_, _| {},
            &AtomicBool::new(false),
        )
        .unwrap();
        let path = cache.store(&r, &none, &p).unwrap();
        let warm = cache.load(&r, &none).expect("warm load");
        assert_eq!(warm.field.heights(), p.field.heights());
        assert!(
            cache.load(&recipe(4), &none).is_none(),
            "another seed is another entry"
        );
        std::fs::write(&path, b"RDGLTBIN garbage").unwrap();
        assert!(cache.load(&r, &none).is_none());
        assert!(!path.exists(), "corrupt entries are removed");
        let _ = std::fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn preview_skips_the_cache_and_runs_report_their_nodes() {
        use crate::recipe::preset::{GridChange, builtin};
        let preset = builtin("builtin://terrain/mountain-range")
            .expect("a built-in")
            .expect("parses");
        let r = preset
            .apply(&Recipe::default_recipe(), GridChange::Ask)
            .expect("applies")
            .recipe;
        let dev = DevCache::new(temp_dir("preview"), crate::formats::payload::CODEC);
        let never = AtomicBool::new(false);
        let run = |q: Quality, cache: &mut GraphCache| {
            prepare_cached_at(&r, q, Some(&dev), cache, &|_, _| {}, &never, None)
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let preview = run(Quality::Preview, &mut GraphCache::default());
        assert!(!preview.from_cache);
        assert_eq!(preview.quality, Quality::Preview);
        assert!(
            dev.load(&r, &NodeFiles::new()).is_none(),
            "a preview is never stored"
        );
        assert!(!preview.nodes.is_empty(), "every graph node reports");
        assert!(preview.nodes.iter().all(|n| !n.reused && n.time_ms >= 0.0));
        let mut cache = GraphCache::default();
        let fin = run(Quality::Final, &mut cache);
        assert!(!fin.from_cache && fin.quality == Quality::Final);
        assert_ne!(
            preview.prepared.field.heights(),
            fin.prepared.field.heights(),
            "Preview shortens erosion"
        );
        let ids: Vec<&str> = fin.nodes.iter().map(|n| n.id.as_str()).collect();
        let notes = r
            .graph
            .as_ref()
            .map_or(0, |g| g.nodes.iter().filter(|n| n.text.is_some()).count());
        let all = r.graph.as_ref().map_or(0, |g| g.nodes.len());
        assert_eq!(
            ids.len(),
            all - notes,
            "one report per evaluated node: {ids:?}"
        );
        let warm = run(Quality::Final, &mut cache);
        assert!(warm.from_cache, "the Final base was stored");
        assert!(warm.nodes.is_empty(), "nothing evaluated on a cache hit");
        assert_eq!(warm.prepared.field.heights(), fin.prepared.field.heights());
        let _ = std::fs::remove_dir_all(dev.dir());
    }

    #[test]
    fn eviction_keeps_the_newest_entries() {
        let cache = DevCache::new(temp_dir("evict"), crate::formats::payload::CODEC);
        let never = AtomicBool::new(false);
        for seed in 0..(DevCache::MAX_ENTRIES as u64 + 3) {
            let r = recipe(seed);
            let p = prepare(
                &r,
                Quality::Final,
                &mut GraphCache::default(),
                &|_, _| {},
                &never,
            )
            .unwrap();
            cache.store(&r, &NodeFiles::new(), &p).unwrap();
        }
        let n = std::fs::read_dir(cache.dir()).unwrap().count();
        assert_eq!(n, DevCache::MAX_ENTRIES);
        let _ = std::fs::remove_dir_all(cache.dir());
    }
}
