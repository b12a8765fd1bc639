//! Brush mask images, read off Godot's main thread.
//!
//! Strokes may reference mask PNGs (`"mask": "masks/rock.png"`). The core asks a loader for
//! them while it parses or replays a stroke, which for `Terrain3D.apply_stroke` happens on the
//! main thread. [`MaskCache`] wraps the core's file loader so that every read runs on a thread of
//! its own: the caller waits a bounded time ([`MAIN_THREAD_WAIT`] on Godot's main thread,
//! [`WORKER_WAIT`] elsewhere) and gets an error when the read has not finished, while the read
//! goes on and its result is kept for the next stroke. A path that never answers (a FIFO, a
//! device) therefore costs the editor at most that wait, once, instead of freezing it.
//!
//! Results (images and errors) are cached by reference for the cache's lifetime; a terrain
//! makes a new cache for every generation, so a mask edited on disk is read again on
//! regeneration.

use ridgeline_core::edit::MaskLoader;
use ridgeline_core::edit::brush::MaskImage;
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// Longest wait for a mask read on Godot's main thread.
pub const MAIN_THREAD_WAIT: Duration = Duration::from_secs(2);

/// Longest wait for a mask read on any other thread (generation jobs, exports).
pub const WORKER_WAIT: Duration = Duration::from_secs(60);

type Loaded = Result<Arc<MaskImage>, String>;

/// One reference's read: empty until the reading thread stores its result.
#[derive(Default)]
struct Slot {
    result: Mutex<Option<Loaded>>,
    ready: Condvar,
}

/// Mask images by reference, each read once on its own thread.
pub struct MaskCache {
    read: MaskLoader,
    slots: Mutex<HashMap<String, Arc<Slot>>>,
}

impl MaskCache {
    /// A cache over `read` (typically `ridgeline_core::formats::file_mask_loader(dir)`).
    pub fn new(read: MaskLoader) -> Arc<Self> {
        Arc::new(Self {
            read,
            slots: Mutex::new(HashMap::new()),
        })
    }

    /// A loader for the core that answers from this cache.
    pub fn loader(self: &Arc<Self>) -> MaskLoader {
        let cache = self.clone();
        Arc::new(move |reference: &str| cache.get(reference))
    }

    fn get(&self, reference: &str) -> Loaded {
        let wait = if godot::init::is_main_thread() {
            MAIN_THREAD_WAIT
        } else {
            WORKER_WAIT
        };
        self.get_within(reference, wait)
    }

    /// The mask for `reference`, waiting at most `wait` for a read that is under way.
    fn get_within(&self, reference: &str, wait: Duration) -> Loaded {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            match slots.get(reference) {
                Some(slot) => slot.clone(),
                None => {
                    let slot = Arc::new(Slot::default());
                    slots.insert(reference.to_string(), slot.clone());
                    self.start_read(reference, slot.clone());
                    slot
                }
            }
        };
        let guard = slot.result.lock().unwrap_or_else(PoisonError::into_inner);
        let (guard, _) = slot
            .ready
            .wait_timeout_while(guard, wait, |r| r.is_none())
            .unwrap_or_else(PoisonError::into_inner);
        match guard.as_ref() {
            Some(result) => result.clone(),
            None => Err(format!(
                "mask `{reference}`: still being read after {} s (a FIFO, a device or a slow disk?); \
                 the stroke was not applied — the read goes on and its result is used next time",
                wait.as_secs_f32()
            )),
        }
    }

    fn start_read(&self, reference: &str, slot: Arc<Slot>) {
        let read = self.read.clone();
        let reference = reference.to_string();
        let spawned = std::thread::Builder::new()
            .name("ridgeline-mask".into())
            .spawn({
                let slot = slot.clone();
                move || {
                    let result =
                        crate::convert::panic_guard::catch(|| read(&reference)).and_then(|r| r);
                    store(&slot, result);
                }
            });
        if let Err(e) = spawned {
            store(
                &slot,
                Err(format!("cannot start a thread to read the mask: {e}")),
            );
        }
    }
}

fn store(slot: &Slot, result: Loaded) {
    *slot.result.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
    slot.ready.notify_all();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn image() -> Arc<MaskImage> {
        Arc::new(MaskImage {
            width: 1,
            depth: 1,
            values: vec![1.0],
        })
    }

    #[test]
    fn reads_once_and_caches_images_and_errors() {
        let reads = Arc::new(AtomicUsize::new(0));
        let img = image();
        let cache = MaskCache::new({
            let reads = reads.clone();
            Arc::new(move |r: &str| {
                reads.fetch_add(1, Ordering::SeqCst);
                if r == "ok.png" {
                    Ok(img.clone())
                } else {
                    Err(format!("{r}: missing"))
                }
            })
        });
        for _ in 0..3 {
            assert!(cache.get_within("ok.png", WORKER_WAIT).is_ok());
            assert_eq!(
                cache.get_within("bad.png", WORKER_WAIT).err().as_deref(),
                Some("bad.png: missing")
            );
        }
        assert_eq!(reads.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_read_that_never_answers_is_an_error_after_the_wait() {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let rx = Mutex::new(rx);
        let img = image();
        let cache = MaskCache::new(Arc::new(move |_: &str| {
            // Blocks like opening a FIFO until the test lets it go.
            let _ = rx.lock().unwrap().recv();
            Ok(img.clone())
        }));
        let start = std::time::Instant::now();
        let first = cache.get_within("fifo", Duration::from_millis(50));
        assert!(first.unwrap_err().contains("still being read"));
        assert!(start.elapsed() < Duration::from_secs(2));
        tx.send(()).unwrap();
        assert!(
            cache.get_within("fifo", WORKER_WAIT).is_ok(),
            "the finished read is kept"
        );
    }

    #[test]
    fn a_panicking_read_is_an_error() {
        let cache = MaskCache::new(Arc::new(|_: &str| panic!("decoder bug")));
        let e = cache.get_within("m.png", WORKER_WAIT).unwrap_err();
        assert!(e.contains("internal error: decoder bug"), "{e}");
    }
}
