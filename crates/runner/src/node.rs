//! The node's lock, where several devices run at once: a test that shares the host runs alone on the node, every other test beside the other devices' own.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// How a test holds the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Alone: no other device's test runs meanwhile (a test that shares the host).
    Alone,
    /// Beside the other devices' tests that hold it the same way.
    Shared,
}

/// A readers–writer lock whose waiters keep their GPUs busy rather than block: a waiting
/// device is given back control about every [`WAIT_SLICE`] (see [`NodeLock::acquire`]). A test
/// that waits to run alone keeps new shared holders out, so that the host tests of the node's
/// devices are not starved by the stream of the others' GPU tests (as a blocking writer
/// would not be), and the host tests waiting run one after another.
#[derive(Debug, Default)]
pub struct NodeLock {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Tests holding it [`Hold::Shared`].
    shared: usize,
    /// Whether a test holds it [`Hold::Alone`].
    alone: bool,
    /// Tests waiting to hold it alone.
    waiting_alone: usize,
}

/// How long a waiter blocks at most before it is given back control, where its `meanwhile`
/// had nothing to do: about one busy window of the GPU ([`NodeLock::acquire`]).
pub const WAIT_SLICE: Duration = Duration::from_millis(10);

/// The node as one test holds it; dropping it lets the others go on.
#[derive(Debug)]
pub struct NodeGuard<'a> {
    lock: &'a NodeLock,
    hold: Hold,
}

impl NodeLock {
    /// A lock no test holds.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the node as `hold`. While it must wait, `meanwhile()` runs between checks (the
    /// runner keeps its GPU busy there, so that the clock it runs its next test at is not the
    /// one an idle GPU drops to); it returns whether it did anything, and where it did not,
    /// the wait blocks for at most [`WAIT_SLICE`] until the lock changes.
    pub fn acquire(&self, hold: Hold, mut meanwhile: impl FnMut() -> bool) -> NodeGuard<'_> {
        let mut state = self.lock_state();
        // Registered for the whole wait, so that shared holders arriving meanwhile stand back;
        // withdrawn by `Waiting`'s drop also where `meanwhile` panics.
        let mut waiting = (hold == Hold::Alone).then(|| {
            state.waiting_alone += 1;
            Waiting(self)
        });
        loop {
            let free = match hold {
                Hold::Alone => !state.alone && state.shared == 0,
                Hold::Shared => !state.alone && state.waiting_alone == 0,
            };
            if free {
                if let Some(w) = waiting.take() {
                    // Withdrawn here, under the lock this thread holds (its drop would lock it).
                    state.waiting_alone -= 1;
                    std::mem::forget(w);
                }
                match hold {
                    Hold::Alone => state.alone = true,
                    Hold::Shared => state.shared += 1,
                }
                return NodeGuard { lock: self, hold };
            }
            drop(state);
            let busy = meanwhile();
            state = self.lock_state();
            if !busy {
                state = self
                    .changed
                    .wait_timeout(state, WAIT_SLICE)
                    .map_or_else(|poisoned| poisoned.into_inner().0, |(s, _)| s);
            }
        }
    }

    /// The state; a holder that panicked leaves counts that are still right (its guard's drop
    /// ran), so a poisoned lock is taken on.
    fn lock_state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A wait to hold the node alone, withdrawn when dropped (taken or not).
struct Waiting<'a>(&'a NodeLock);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock_state();
        state.waiting_alone -= 1;
        drop(state);
        self.0.changed.notify_all();
    }
}

impl Drop for NodeGuard<'_> {
    fn drop(&mut self) {
        let mut state = self.lock.lock_state();
        match self.hold {
            Hold::Alone => state.alone = false,
            Hold::Shared => state.shared -= 1,
        }
        drop(state);
        self.lock.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Instant;

    #[test]
    fn an_alone_holder_excludes_every_other() {
        let lock = Arc::new(NodeLock::new());
        let inside = Arc::new(AtomicUsize::new(0));
        let alone_inside = Arc::new(AtomicBool::new(false));
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let (lock, inside, alone_inside) =
                    (lock.clone(), inside.clone(), alone_inside.clone());
                std::thread::spawn(move || {
                    for k in 0..200 {
                        let hold = if (i + k) % 5 == 0 {
                            Hold::Alone
                        } else {
                            Hold::Shared
                        };
                        let _g = lock.acquire(hold, || false);
                        let n = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        if hold == Hold::Alone {
                            alone_inside.store(true, Ordering::SeqCst);
                            assert_eq!(n, 1, "a test alone on the node had company");
                        } else {
                            assert!(!alone_inside.load(Ordering::SeqCst), "shared beside alone");
                        }
                        std::thread::yield_now();
                        if hold == Hold::Alone {
                            alone_inside.store(false, Ordering::SeqCst);
                        }
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    #[test]
    fn a_waiting_alone_test_is_not_starved_and_its_waiter_stays_busy() {
        // Three devices hold the node shared in an endless overlapping stream; the fourth
        // asks to run alone and must get in, running its `meanwhile` while it waits.
        let lock = Arc::new(NodeLock::new());
        let stop = Arc::new(AtomicBool::new(false));
        // Streams end by themselves after 3 s, so that a starved waiter fails the test rather
        // than hang it.
        let streams: Vec<_> = (0..3)
            .map(|_| {
                let (lock, stop) = (lock.clone(), stop.clone());
                let until = Instant::now() + Duration::from_secs(3);
                std::thread::spawn(move || {
                    while !stop.load(Ordering::SeqCst) && Instant::now() < until {
                        let _g = lock.acquire(Hold::Shared, || false);
                        std::thread::sleep(Duration::from_millis(3));
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(20));
        let started = Instant::now();
        let mut busy = 0;
        let waited = {
            let _g = lock.acquire(Hold::Alone, || {
                busy += 1;
                std::thread::sleep(Duration::from_millis(1));
                true
            });
            started.elapsed()
        };
        stop.store(true, Ordering::SeqCst);
        assert!(waited < Duration::from_secs(2), "starved for {waited:?}");
        for s in streams {
            s.join().unwrap();
        }
        assert!(busy >= 1, "the waiting device was not kept busy");
        // Nothing left registered: a shared holder gets in at once.
        let _g = lock.acquire(Hold::Shared, || panic!("no wait expected"));
    }
}
