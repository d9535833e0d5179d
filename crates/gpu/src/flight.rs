//! Whether a device is running submitted work now, and since when it has not: what lets the driver's readings be taken while a row's work runs, and an idle GPU be re-warmed.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The submissions of one device that have not been waited for yet, and the thread to wake
/// when one is made (a [`crate::mgmt::Watch`]'s: it reads the driver only while work runs).
#[derive(Debug)]
pub struct Flight {
    /// Submissions made and not yet waited for.
    running: AtomicU32,
    /// When the last wait returned, ns after `epoch` (0: nothing submitted yet).
    ended_ns: AtomicU64,
    epoch: Instant,
    /// The thread woken at each submission.
    watcher: Mutex<Option<std::thread::Thread>>,
}

impl Default for Flight {
    fn default() -> Self {
        Flight {
            running: AtomicU32::new(0),
            ended_ns: AtomicU64::new(0),
            epoch: Instant::now(),
            watcher: Mutex::new(None),
        }
    }
}

/// Work in flight from its submission until it is dropped (after the wait for it returned,
/// or failed).
pub(crate) struct InFlight<'a>(&'a Flight);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        let f = self.0;
        let ns = f.epoch.elapsed().as_nanos().max(1) as u64;
        f.ended_ns.store(ns, Ordering::Relaxed);
        f.running.fetch_sub(1, Ordering::Release);
    }
}

impl Flight {
    /// Marks work submitted (call once the submission was accepted), waking the watcher.
    pub(crate) fn submitted(&self) -> InFlight<'_> {
        self.running.fetch_add(1, Ordering::Acquire);
        if let Ok(w) = self.watcher.lock() {
            if let Some(t) = w.as_ref() {
                t.unpark();
            }
        }
        InFlight(self)
    }

    /// Whether submitted work is running (or queued) now.
    pub fn busy(&self) -> bool {
        self.running.load(Ordering::Acquire) > 0
    }

    /// How long the device has had no work: zero while it has some; `None` before its first
    /// submission.
    pub fn idle_for(&self) -> Option<Duration> {
        if self.busy() {
            return Some(Duration::ZERO);
        }
        let ended = self.ended_ns.load(Ordering::Relaxed);
        (ended > 0).then(|| {
            self.epoch
                .elapsed()
                .saturating_sub(Duration::from_nanos(ended))
        })
    }

    /// Makes `thread` the one woken at each submission (`None`: none).
    pub fn set_watcher(&self, thread: Option<std::thread::Thread>) {
        if let Ok(mut w) = self.watcher.lock() {
            *w = thread;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_is_in_flight_from_its_submission_until_its_wait() {
        let f = Flight::default();
        assert_eq!(f.idle_for(), None);
        let w = f.submitted();
        assert!(f.busy());
        assert_eq!(f.idle_for(), Some(Duration::ZERO));
        drop(w);
        assert!(!f.busy());
        std::thread::sleep(Duration::from_millis(20));
        assert!(f.idle_for().is_some_and(|d| d >= Duration::from_millis(20)));
    }
}
