/*
 * Copyright (c) godot-rust; Bromeon and contributors.
 * This Source Code Form is subject to the terms of the Mozilla Public
 * License, v. 2.0. If a copy of the MPL was not distributed with this
 * file, You can obtain one at https://mozilla.org/MPL/2.0/.
 */

use std::error::Error;
use std::pin::Pin;
use std::thread;
use std::time::Duration;

use spin::mutex::{SpinMutex, SpinMutexGuard};
use spin::relax::Yield;

use crate::blocking_guards::{InaccessibleGuardBlocking, MutGuardBlocking, RefGuardBlocking};
use crate::cell::GdCellInner;

/// Blocking version of [`panicking::GdCell`](crate::panicking::GdCell) for multithreaded usage.
///
/// This version of GdCell blocks the current thread if it does not yet hold references to the cell.
/// Since `GdCellInner` isn't thread-safe by itself, any access to `inner` must be guarded by locking the `thread_tracker`.
///
/// For more details on when threads are being blocked see [`Self::borrow`] and [`Self::borrow_mut`].
///
/// See [`panicking::GdCell`](crate::panicking::GdCell) for more details on the base concept of this type.
pub struct GdCellBlocking<T> {
    inner: Pin<Box<GdCellInner<T>>>,
    thread_tracker: TrackerLock,
}

/// The lock around a cell's [`ThreadTracker`] (Ridgeline patch: a spin lock whose release is a
/// plain store, instead of `std::sync::Mutex`, whose release is an atomic exchange, plus two
/// condition variables; a borrow and its release each take this lock once, so on the
/// uncontended path — every GDScript call into an extension object — two atomic
/// read-modify-writes go. It is held only for the tracker's bookkeeping, never while user code
/// runs; a contending thread yields. Threads that must wait for another thread's borrow poll
/// (see [`GdCellBlocking::wait_while`]) instead of sleeping on a condition variable.)
pub(crate) type TrackerLock = SpinMutex<ThreadTracker, Yield>;

/// A held [`TrackerLock`].
pub(crate) type TrackerGuard<'a> = SpinMutexGuard<'a, ThreadTracker, Yield>;

impl<T> GdCellBlocking<T> {
    pub fn new(value: T) -> Self {
        Self {
            inner: GdCellInner::new(value),
            thread_tracker: TrackerLock::new(ThreadTracker::default()),
        }
    }

    /// Returns a new shared reference to the contents of the cell.
    ///
    /// Fails if an accessible mutable reference exists on the current thread.
    ///
    /// Blocks if another thread currently holds a mutable reference.
    pub fn borrow(&self) -> Result<RefGuardBlocking<'_, T>, Box<dyn Error>> {
        // Ridgeline patch: the thread's id is read once per borrow, before taking the lock.
        let id = current_thread_id();
        let mut tracker_guard = self.thread_tracker.lock();

        if self.inner.as_ref().is_currently_mutably_bound() && !tracker_guard.thread_has_mut_ref(id)
        {
            // Block current thread until borrow becomes available.
            tracker_guard = self.block_immut(tracker_guard);
        }

        let should_claim_mut = !self.is_currently_bound();

        let inner_guard = self.inner.as_ref().borrow()?;

        tracker_guard.increment_shared_count(id);

        // The ThreadTracker::mut_thread is always set to some ThreadId to avoid additional tracking overhead, but this causes an edge case:
        // 1. mut_thread is initialized with the current Thread 1 (usually main thread).
        // 2. Thread 2 acquires an immutable borrow from the cell.
        // 3. Thread 1 attempts to acquire a mutable borrow from the cell.
        // 4. No immutable borrow exists on Thread 1, but the thread is assigned as the mut_thread; no blocking occurs.
        // 5. The mutable borrow fails and panics because there is already an immutable borrow on Thread 1.
        //
        // Solution:
        // 1. Always reassign mut_thread to the current ThreadId (i.e. Thread 2) when the first immutable borrow is acquired.
        // 2. Thread 1 will now block on mutable borrows because it is not the mut_thread.
        // 3. Thread 2 should never block, as it already holds an immutable borrow.
        if should_claim_mut {
            tracker_guard.claim_mut_ref(id);
        }

        Ok(RefGuardBlocking::new(inner_guard, &self.thread_tracker, id))
    }

    /// Returns a new mutable reference to the contents of the cell.
    ///
    /// Fails if an accessible mutable reference, or a shared reference exists on the current thread.
    ///
    /// Blocks if another thread currently holds a mutable reference, or if another thread holds immutable references but the current thread
    /// doesn't.
    pub fn borrow_mut(&self) -> Result<MutGuardBlocking<'_, T>, Box<dyn Error>> {
        let id = current_thread_id();
        let mut tracker_guard = self.thread_tracker.lock();

        if self.inner.as_ref().is_currently_bound()
            && tracker_guard.shared_count(id) == 0
            && !tracker_guard.thread_has_mut_ref(id)
        {
            // Block current thread until borrow becomes available.
            tracker_guard = self.block_mut(tracker_guard);
        }

        let inner_guard = self.inner.as_ref().borrow_mut()?;

        tracker_guard.claim_mut_ref(id);

        Ok(MutGuardBlocking::new(inner_guard, &self.thread_tracker))
    }

    /// Make the current mutable borrow inaccessible, thus freeing the value up to be reborrowed again.
    ///
    /// Will error if:
    /// - There is currently no accessible mutable borrow.
    /// - There are any shared references.
    /// - `current_ref` is not equal to the pointer in `self.inner.state`.
    pub fn make_inaccessible<'cell, 'val>(
        &'cell self,
        current_ref: &'val mut T,
    ) -> Result<InaccessibleGuardBlocking<'val, T>, Box<dyn Error>>
    where
        'cell: 'val,
    {
        let _tracker_guard = self.thread_tracker.lock();
        let inner = self.inner.as_ref().make_inaccessible(current_ref)?;
        let inaccessible = InaccessibleGuardBlocking::new(inner, &self.thread_tracker);
        Ok(inaccessible)
    }

    /// Returns `true` if there are any mutable or shared references, regardless of whether the mutable
    /// references are accessible or not.
    ///
    /// In particular this means that it is safe to destroy this cell and the value contained within, as no
    /// references can exist that can reference this cell.
    ///
    /// Keep in mind that in multithreaded code it is still possible for this to return true, and then the
    /// cell hands out a new borrow before it is destroyed. So we still need to ensure that this cannot
    /// happen at the same time.
    pub fn is_currently_bound(&self) -> bool {
        self.inner.as_ref().is_currently_bound()
    }

    /// Blocks the current thread until all mutable and shared references have been dropped.
    fn block_mut<'a>(&'a self, tracker_guard: TrackerGuard<'a>) -> TrackerGuard<'a> {
        self.wait_while(tracker_guard, |inner| inner.is_currently_bound())
    }

    /// Blocks the current thread until all mutable references have been dropped.
    fn block_immut<'a>(&'a self, tracker_guard: TrackerGuard<'a>) -> TrackerGuard<'a> {
        self.wait_while(tracker_guard, |inner| inner.is_currently_mutably_bound())
    }

    /// Releases the tracker lock and polls, re-taking it, until `busy` is false (Ridgeline
    /// patch: replaces the condition-variable waits, so releasing a borrow never has to notify
    /// anybody). Only a thread that needs a borrow another thread holds comes here; it yields
    /// at first and then sleeps in short steps, so a long borrow costs it little CPU.
    fn wait_while<'a>(
        &'a self,
        mut tracker_guard: TrackerGuard<'a>,
        busy: impl Fn(Pin<&GdCellInner<T>>) -> bool,
    ) -> TrackerGuard<'a> {
        let mut rounds = 0u32;
        while busy(self.inner.as_ref()) {
            drop(tracker_guard);
            if rounds < 64 {
                thread::yield_now();
            } else {
                thread::sleep(Duration::from_micros(50));
            }
            rounds = rounds.saturating_add(1);
            tracker_guard = self.thread_tracker.lock();
        }
        tracker_guard
    }
}

// SAFETY:
// - `T` must not be `Sync`, and the only way to access the underlying `T` is via `GdCellBlocking`.
// - It must be ensured that `GdCellInner`, which holds `T`, cannot be accessed from multiple threads simultaneously while handing out guards.
// The current implementation ensures this by locking the `thread_tracker`.
unsafe impl<T: Send> Sync for GdCellBlocking<T> {}

/// Holds the reference count and the currently mutable thread.
#[derive(Debug)]
pub(crate) struct ThreadTracker {
    /// Thread ID of the thread that currently can hold the mutable reference.
    mut_thread: thread::ThreadId,

    /// Shared reference counts per thread (Ridgeline patch: a short list instead of a hash map,
    /// one entry per thread that holds or recently held shared references, usually one). An
    /// entry stays when its count reaches zero, so the usual thread's borrow and release touch
    /// one slot and move nothing; zero entries are dropped only once the list grows past
    /// [`ThreadTracker::KEPT_ENTRIES`].
    shared_counts: Vec<(thread::ThreadId, usize)>,
}

impl Default for ThreadTracker {
    fn default() -> Self {
        Self {
            mut_thread: current_thread_id(),
            shared_counts: Vec::new(),
        }
    }
}

impl ThreadTracker {
    /// Entries (threads) the shared-count list keeps at zero before it prunes them.
    const KEPT_ENTRIES: usize = 4;

    /// Number of shared references thread `id` holds.
    pub fn shared_count(&self, id: thread::ThreadId) -> usize {
        self.shared_counts
            .iter()
            .find(|(t, _)| *t == id)
            .map_or(0, |(_, c)| *c)
    }

    /// Increments the number of shared references thread `id` holds.
    pub fn increment_shared_count(&mut self, id: thread::ThreadId) {
        match self.shared_counts.iter_mut().find(|(t, _)| *t == id) {
            Some((_, count)) => *count += 1,
            None => {
                if self.shared_counts.len() >= Self::KEPT_ENTRIES {
                    self.shared_counts.retain(|(_, c)| *c != 0);
                }
                self.shared_counts.push((id, 1));
            }
        }
    }

    /// Decrements the number of shared references thread `id` holds (the entry stays at zero;
    /// see [`ThreadTracker::shared_counts`]).
    pub fn decrement_shared_count(&mut self, id: thread::ThreadId) {
        let entry = self.shared_counts.iter_mut().find(|(t, _)| *t == id);

        debug_assert!(
            entry.as_ref().is_some_and(|(_, c)| *c > 0),
            "No shared reference count exists for {id:?}."
        );

        if let Some((_, count)) = entry {
            *count = count.saturating_sub(1);
        }
    }

    pub fn thread_has_mut_ref(&self, id: thread::ThreadId) -> bool {
        self.mut_thread == id
    }

    /// Claims the mutable reference for thread `id`.
    fn claim_mut_ref(&mut self, id: thread::ThreadId) {
        self.mut_thread = id;
    }
}

/// The current thread's id, cached per thread (Ridgeline patch: `thread::current()` clones the
/// thread handle on every call; the cache is a const-initialised cell, so reading it needs no
/// lazy-initialisation check).
pub(crate) fn current_thread_id() -> thread::ThreadId {
    thread_local! {
        static ID: std::cell::Cell<Option<thread::ThreadId>> = const { std::cell::Cell::new(None) };
    }
    ID.try_with(|cell| match cell.get() {
        Some(id) => id,
        None => {
            let id = thread::current().id();
            cell.set(Some(id));
            id
        }
    })
    .unwrap_or_else(|_| thread::current().id())
}
