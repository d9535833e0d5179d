//! The node's lock, where several devices run at once: a test whose figure is the host's runs with no other device's test that would disturb it, every other test beside the other devices' own.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// How a test (or a device's other work) holds the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Alone: no other device's test runs meanwhile (a test whose figure is the CPU's and
    /// the driver's: a submission per dispatch, the submit-and-wait round trip).
    Alone,
    /// Over the host link (a copy to or from system memory, a shader's reads of it): beside
    /// the other devices' GPU tests, which do not move it (a 4×H200 node: GPU 0's eight 1 GB
    /// host copies within 0.3 % of alone while the other three chased pointers or streamed
    /// stores to their memory, `results/h200x4/node5-1128`), but not beside another device's
    /// host-link test, host work or test alone.
    Link,
    /// Host work (a device being set up: its tables filled and uploaded, its host memory
    /// pinned, its pipelines built): beside GPU tests and other host work, not beside a
    /// host-link test or a test alone.
    HostWork,
    /// Beside the other devices' tests that hold it the same way, host-link tests and host
    /// work (a kernel on the GPU's own memory).
    Shared,
}

/// A readers–writer lock whose waiters keep their GPUs busy rather than block: a waiting
/// device is given back control about every [`WAIT_SLICE`] (see [`NodeLock::acquire`]). A test
/// that waits to run alone keeps new holders of every other kind out, and one that waits for
/// the host link keeps new host work out, so that the host tests of the node's devices are not
/// starved by the stream of the others' tests (as a blocking writer would not be), and the
/// host tests waiting run one after another.
#[derive(Debug, Default)]
pub struct NodeLock {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Holders [`Hold::Shared`].
    shared: usize,
    /// Holders [`Hold::HostWork`].
    host_work: usize,
    /// Whether a test holds it [`Hold::Link`].
    link: bool,
    /// Whether a test holds it [`Hold::Alone`].
    alone: bool,
    /// Tests waiting to hold it alone.
    waiting_alone: usize,
    /// Tests waiting to hold the host link.
    waiting_link: usize,
}

impl State {
    /// Whether `hold` may be taken now.
    fn free(&self, hold: Hold) -> bool {
        match hold {
            Hold::Alone => !self.alone && !self.link && self.shared == 0 && self.host_work == 0,
            Hold::Link => {
                !self.alone && !self.link && self.host_work == 0 && self.waiting_alone == 0
            }
            Hold::HostWork => {
                !self.alone && !self.link && self.waiting_alone == 0 && self.waiting_link == 0
            }
            Hold::Shared => !self.alone && self.waiting_alone == 0,
        }
    }

    /// The count of tests waiting for `hold` (held while they wait), if it keeps others out.
    fn waiting(&mut self, hold: Hold) -> Option<&mut usize> {
        match hold {
            Hold::Alone => Some(&mut self.waiting_alone),
            Hold::Link => Some(&mut self.waiting_link),
            Hold::HostWork | Hold::Shared => None,
        }
    }

    fn take(&mut self, hold: Hold) {
        match hold {
            Hold::Alone => self.alone = true,
            Hold::Link => self.link = true,
            Hold::HostWork => self.host_work += 1,
            Hold::Shared => self.shared += 1,
        }
    }

    fn give_back(&mut self, hold: Hold) {
        match hold {
            Hold::Alone => self.alone = false,
            Hold::Link => self.link = false,
            Hold::HostWork => self.host_work -= 1,
            Hold::Shared => self.shared -= 1,
        }
    }
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

    /// Blocks until no device holds [`Hold::HostWork`] (the others' setups done: their
    /// tables uploaded, host memory pinned, pipelines built): a device brings its clock up
    /// only then, since another device's pin stalls its driver calls and its GPU idles at
    /// 345 MHz (a warm-up beside three setups settled there, `results/h200x4/node7-1128`).
    pub fn wait_quiet(&self) {
        let mut state = self.lock_state();
        while state.host_work > 0 {
            state = self
                .changed
                .wait_timeout(state, WAIT_SLICE)
                .map_or_else(|poisoned| poisoned.into_inner().0, |(s, _)| s);
        }
    }

    /// Whether `hold` would have to wait now (another device holds what it excludes, or a
    /// test waits for it first).
    pub fn would_wait(&self, hold: Hold) -> bool {
        !self.lock_state().free(hold)
    }

    /// Takes the node as `hold`. While it must wait, `meanwhile()` runs between checks (the
    /// runner keeps its GPU busy there, so that the clock it runs its next test at is not the
    /// one an idle GPU drops to); it returns whether it did anything, and where it did not,
    /// the wait blocks for at most [`WAIT_SLICE`] until the lock changes.
    pub fn acquire(&self, hold: Hold, mut meanwhile: impl FnMut() -> bool) -> NodeGuard<'_> {
        let mut state = self.lock_state();
        // Registered for the whole wait, so that the holders it keeps out stand back;
        // withdrawn by `Waiting`'s drop also where `meanwhile` panics.
        let mut waiting = state.waiting(hold).map(|n| {
            *n += 1;
            Waiting(self, hold)
        });
        loop {
            if state.free(hold) {
                if let Some(w) = waiting.take() {
                    // Withdrawn here, under the lock this thread holds (its drop would lock it).
                    if let Some(n) = state.waiting(hold) {
                        *n -= 1;
                    }
                    std::mem::forget(w);
                }
                state.take(hold);
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

/// A wait for a hold that keeps others out, withdrawn when dropped (taken or not).
struct Waiting<'a>(&'a NodeLock, Hold);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock_state();
        if let Some(n) = state.waiting(self.1) {
            *n -= 1;
        }
        drop(state);
        self.0.changed.notify_all();
    }
}

impl Drop for NodeGuard<'_> {
    fn drop(&mut self) {
        let mut state = self.lock.lock_state();
        state.give_back(self.hold);
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
    fn a_host_link_test_runs_beside_gpu_tests_only() {
        // Six devices take every kind of hold in turn: a test over the host link never has
        // another, host work or a test alone beside it; host work never a link test or a test
        // alone; and link tests do run beside GPU tests.
        let lock = Arc::new(NodeLock::new());
        let counts: Arc<[AtomicUsize; 4]> = Arc::new(Default::default());
        let beside_gpu = Arc::new(AtomicBool::new(false));
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let (lock, counts, beside_gpu) = (lock.clone(), counts.clone(), beside_gpu.clone());
                std::thread::spawn(move || {
                    for k in 0..300 {
                        let (hold, slot) = match (i + k) % 7 {
                            0 => (Hold::Alone, 0),
                            1 | 2 => (Hold::Link, 1),
                            3 => (Hold::HostWork, 2),
                            _ => (Hold::Shared, 3),
                        };
                        let _g = lock.acquire(hold, || false);
                        counts[slot].fetch_add(1, Ordering::SeqCst);
                        let n = |s: usize| counts[s].load(Ordering::SeqCst);
                        match hold {
                            Hold::Alone => assert_eq!(
                                (n(0), n(1), n(2), n(3)),
                                (1, 0, 0, 0),
                                "a test alone had company"
                            ),
                            Hold::Link => {
                                assert_eq!((n(0), n(1), n(2)), (0, 1, 0), "link beside host");
                                if n(3) > 0 {
                                    beside_gpu.store(true, Ordering::SeqCst);
                                }
                            }
                            Hold::HostWork => assert_eq!((n(0), n(1)), (0, 0), "host work"),
                            Hold::Shared => assert_eq!(n(0), 0, "shared beside alone"),
                        }
                        std::thread::sleep(Duration::from_micros(200));
                        counts[slot].fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert!(
            beside_gpu.load(Ordering::SeqCst),
            "no link test ran beside a GPU test"
        );
        assert!(!lock.would_wait(Hold::Alone));
    }

    #[test]
    fn a_quiet_node_is_one_without_host_work() {
        let lock = NodeLock::new();
        let released = AtomicBool::new(false);
        std::thread::scope(|s| {
            let work = lock.acquire(Hold::HostWork, || false);
            let _gpu = lock.acquire(Hold::Shared, || false);
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(30));
                released.store(true, Ordering::SeqCst);
                drop(work);
            });
            // GPU tests are no host work: only the setup's release ends the wait.
            lock.wait_quiet();
            assert!(released.load(Ordering::SeqCst), "quiet beside host work");
        });
    }

    #[test]
    fn a_waiting_link_test_keeps_new_host_work_out() {
        let lock = NodeLock::new();
        let work = lock.acquire(Hold::HostWork, || false);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let _g = lock.acquire(Hold::Link, || false);
            });
            // The waiter registers at once; a lock that let host work past it never says
            // so, and fails here rather than hang.
            let until = Instant::now() + Duration::from_secs(2);
            while !lock.would_wait(Hold::HostWork) {
                assert!(
                    Instant::now() < until,
                    "host work not kept out by a waiting link"
                );
                std::thread::yield_now();
            }
            // New host work stands back for the waiting link test; GPU tests do not.
            assert!(!lock.would_wait(Hold::Shared));
            drop(work);
            waiter.join().unwrap();
        });
        assert!(!lock.would_wait(Hold::HostWork));
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
        // Until a stream holds the node (a busy machine may start its threads late): asked
        // for before that, the alone test would get in at once and never wait.
        let until = Instant::now() + Duration::from_secs(2);
        while !lock.would_wait(Hold::Alone) {
            assert!(Instant::now() < until, "no stream took the node");
            std::thread::yield_now();
        }
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
