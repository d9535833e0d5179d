//! What a run is asked to do and what it measured: plain data for the runner and the reporters.

use perftest_gpu::pipeline::ShaderStatistic;
use perftest_results::Note;
pub use perftest_results::{Mode, Status};
use perftest_suites::catalog::TestCase;
pub use perftest_suites::model::Fault;

/// Under what conditions a row was timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Conditions {
    /// Not checked (verify mode, a row that did not run, or no drift check and no clock).
    #[default]
    Unchecked,
    /// At the steady clock, with the baseline within the drift limit before and after.
    Steady,
    /// Timed again, after `Cause`, and then steady.
    Remeasured(Cause),
    /// The clock stayed below the floor of the steady clock, however often it was timed.
    Throttled,
    /// The clock was normal but the baseline was slow and stayed slow: another process.
    Contended,
    /// The baseline was off and did not come back, and no clock tells why.
    Disturbed,
}

/// Why a row was timed again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Its clock was below the floor of the steady clock.
    Clock,
    /// The drift check around its block was off.
    Drift,
}

impl Conditions {
    /// The conditions a row is written with (the `conditions` column): these, less the
    /// cause of a re-measure.
    pub fn row(self) -> perftest_results::Conditions {
        use perftest_results::Conditions as Row;
        match self {
            Conditions::Unchecked => Row::Unchecked,
            Conditions::Steady => Row::Steady,
            Conditions::Remeasured(_) => Row::Remeasured,
            Conditions::Throttled => Row::Throttled,
            Conditions::Contended => Row::Contended,
            Conditions::Disturbed => Row::Disturbed,
        }
    }

    /// Whether the row's time is not the steady-state figure (and `--strict` fails).
    pub fn is_flagged(self) -> bool {
        self.row().is_flagged()
    }

    /// These conditions after a block-wide verdict `block`: a row's own finding (re-measured
    /// for its clock, throttled) is kept unless the block's is worse.
    pub fn with_block(self, block: Conditions) -> Conditions {
        match (self, block) {
            (own, _) if own.is_flagged() => own,
            (Conditions::Remeasured(c), Conditions::Steady | Conditions::Remeasured(_)) => {
                Conditions::Remeasured(c)
            }
            (_, b) => b,
        }
    }
}

/// How each test is run.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Workgroups per dispatch (256 threads each); `None` = calibrated per device.
    pub groups: Option<u32>,
    /// Untimed dispatches before the timed ones.
    pub warmup: u32,
    /// Timed dispatches; `None` = as many as fit the per-test time budget (5 to 20, up to
    /// 200 for a noisy test).
    pub samples: Option<u32>,
    /// Time or verify.
    pub mode: Mode,
    /// An injected fault, if any.
    pub fault: Option<Fault>,
    /// MB of device memory taken before anything else (`PERFTEST_PAD_MB`, a diagnostic:
    /// every buffer after it lies elsewhere, docs/fleet.md); `None` = none.
    pub pad_mb: Option<u64>,
}

/// Timing statistics of one test, per dispatch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub median_ms: f64,
    pub min_ms: f64,
    pub mean_ms: f64,
    /// Coefficient of variation (sample standard deviation / mean), in percent.
    pub cv_pct: f64,
    pub samples: u32,
}

impl Stats {
    /// Statistics of `times`; `None` when empty or not all finite and positive.
    pub fn from_times(times: &[f64]) -> Option<Stats> {
        if times.is_empty() || times.iter().any(|t| !t.is_finite() || *t <= 0.0) {
            return None;
        }
        let mut sorted = times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            sorted.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Stats {
            median_ms: median,
            min_ms: sorted[0],
            mean_ms: mean,
            cv_pct: 100.0 * var.sqrt() / mean,
            samples: n as u32,
        })
    }
}

/// The result of one test on one device: plain data for the reporters.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub test: TestCase,
    /// The row's name where it is not its test's: a probe of the test's chase at a working
    /// set of its own (`latency: ByteAddressBuffer 176 KB`; see [`Measurement::name`]).
    pub probe_name: Option<String>,
    pub status: Status,
    /// Present when timed successfully.
    pub stats: Option<Stats>,
    /// Why the test is unsupported, failed or mismatched; for an ok test, notes on how it
    /// ran (e.g. a dispatch capped to the watchdog budget), in the order they were found;
    /// else none. A reporter puts them into words ([`perftest_results::note::words`]).
    pub notes: Vec<Note>,
    /// Workgroups per dispatch actually run.
    pub groups: u32,
    /// The driver's statistics of the kernel, where the device reports them.
    pub shader_stats: Vec<ShaderStatistic>,
    /// The device was lost during this test: nothing more can run on it.
    pub device_lost: bool,
    /// Whether the baseline held steady around this test (time mode).
    pub conditions: Conditions,
    /// The shader clock while the row was timed, MHz: the mean of the probes around its timed
    /// dispatches, or of what its kernel read over its own work where it reads its clock
    /// ([`Note::KernelClock`]); `None` where the device has no clock.
    pub clock_mhz: Option<f64>,
    /// The baseline's deviation from its start-of-run time at the check after this test, %.
    pub drift_pct: Option<f64>,
    /// The memory type the test's input lives in, where the family chooses it (the `memory`
    /// column); else empty.
    pub memory: String,
    /// The groups the test runs uncut: its device's common size, or that size rounded by its
    /// family (whole waves of compute units); 0 when it did not run.
    pub full_groups: u32,
    /// Clocks per operation of a dependent chain (instruction tests, timed on a device with
    /// a subgroup clock that is a shader-core clock).
    pub latency_clk: Option<f64>,
    /// Nanoseconds per operation of the same chain: `latency_clk` at the row's clock, or
    /// timed with timestamps where the device has no shader-core clock.
    pub latency_ns: Option<f64>,
    /// The spread of the latency over the test's chains, (max − min) / median in %, where
    /// it times several (the latency suite: four random cycles per working set).
    pub latency_spread_pct: Option<f64>,
    /// The subgroup width the test's kernel ran at, as it wrote it (tests whose reference
    /// depends on the width: `TestCase::reports_subgroup_size`).
    pub subgroup_size: Option<u32>,
    /// The working set (bytes) the row's kernel ran over where the row is a point of a curve
    /// over the working set: its test's [`TestCase::working_set`] for a sweep row (the chases,
    /// the bandwidth sweeps), the probe's size for an edge probe
    /// ([`Measurement::probe_name`]); `None` for every other row.
    pub working_set_bytes: Option<u64>,
    /// What the driver's management interface read while the row was timed (its last
    /// timing), where the device has one.
    pub driver: Option<perftest_gpu::mgmt::Sampled>,
}

/// How far (%) the probe's clock may be from the driver's before a row says so.
pub const CLOCK_AGREEMENT_PCT: f64 = 2.0;

impl Measurement {
    /// After this row was timed again for its block (a drift check's re-time), what the
    /// `earlier` timing found of its own: a re-measure for its clock stays, with the note that
    /// says so ([`Note::ClockRetimed`]; the earlier timing's other notes, a cut or a spread,
    /// were of that timing and are not carried), where this one found nothing of its own.
    pub fn keep_clock_finding(&mut self, earlier: &Measurement) {
        let own = matches!(
            self.conditions,
            Conditions::Remeasured(_) | Conditions::Throttled
        );
        if earlier.conditions != Conditions::Remeasured(Cause::Clock) || own {
            return;
        }
        self.conditions = earlier.conditions;
        for note in &earlier.notes {
            if matches!(note, Note::ClockRetimed { .. }) && !self.notes.contains(note) {
                self.notes.push(note.clone());
            }
        }
    }

    /// The row's test name: its test's, or a probe's own.
    pub fn name(&self) -> &str {
        self.probe_name.as_deref().unwrap_or(self.test.name())
    }

    /// How far the probe's clock was from the driver's while the row was timed, % of the
    /// driver's (where both read one).
    pub fn probe_vs_driver_pct(&self) -> Option<f64> {
        let driver = self.driver?.sm_mhz.filter(|c| *c > 0.0)?;
        Some(100.0 * (self.probe_mhz()? / driver - 1.0))
    }

    /// The clock the probes around the timed dispatches read, MHz: the row's clock, unless
    /// its kernel read its own (then [`Note::KernelClock`] holds the probes').
    pub fn probe_mhz(&self) -> Option<f64> {
        self.notes
            .iter()
            .find_map(|n| match n {
                Note::KernelClock { probe_mhz, .. } => Some(*probe_mhz),
                _ => None,
            })
            .or(self.clock_mhz)
    }

    /// Loads (the test's unit) per second, in billions, when timed.
    pub fn gloads_per_s(&self) -> Option<f64> {
        let stats = self.stats?;
        Some(self.test.loads_per_dispatch(self.groups) as f64 / (stats.median_ms * 1e-3) / 1e9)
    }

    /// Bytes per second, in billions (bytes per load × loads/s), when timed.
    pub fn gbytes_per_s(&self) -> Option<f64> {
        Some(self.gloads_per_s()? * self.test.bytes_per_load()? as f64)
    }

    /// Whether this test was timed with fewer groups per dispatch than `common_groups`, its
    /// device's common size (cut to the watchdog budget): its times then need scaling before
    /// they compare with the other rows'.
    pub fn is_cut(&self, common_groups: u32) -> bool {
        self.stats.is_some() && self.groups > 0 && self.groups < self.full_groups.min(common_groups)
    }

    /// A row for a test that did not run, with `status` and the `notes` that say why.
    pub fn not_run(test: TestCase, status: Status, notes: Vec<Note>) -> Self {
        Measurement {
            test,
            probe_name: None,
            status,
            stats: None,
            notes,
            groups: 0,
            shader_stats: Vec::new(),
            device_lost: false,
            conditions: Conditions::Unchecked,
            clock_mhz: None,
            drift_pct: None,
            memory: String::new(),
            full_groups: 0,
            latency_clk: None,
            latency_ns: None,
            latency_spread_pct: None,
            subgroup_size: None,
            working_set_bytes: test.working_set(),
            driver: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_verdict_keeps_what_a_row_found_itself() {
        let clock = Conditions::Remeasured(Cause::Clock);
        assert_eq!(clock.with_block(Conditions::Steady), clock);
        assert_eq!(
            Conditions::Throttled.with_block(Conditions::Steady),
            Conditions::Throttled
        );
        assert_eq!(
            clock.with_block(Conditions::Contended),
            Conditions::Contended
        );
        assert_eq!(
            Conditions::Unchecked.with_block(Conditions::Remeasured(Cause::Drift)),
            Conditions::Remeasured(Cause::Drift)
        );
        assert!(!clock.is_flagged() && Conditions::Disturbed.is_flagged());
        // Re-measured for its clock, then re-timed after a drift check: still its own.
        assert_eq!(
            clock.with_block(Conditions::Remeasured(Cause::Drift)),
            clock
        );
    }

    #[test]
    fn a_re_time_keeps_the_low_clock_the_row_found_before() {
        let row = |conditions, notes: &[Note]| {
            let mut m = Measurement::not_run(
                perftest_suites::catalog::baseline(),
                Status::Ok,
                notes.to_vec(),
            );
            m.conditions = conditions;
            m
        };
        let cut = |to| Note::Cut {
            from: 138,
            to,
            estimate_ms: 80.0,
            budget_ms: 50.0,
        };
        let retimed = Note::ClockRetimed {
            times: 2,
            first_mhz: 333.0,
            above: false,
            limit_pct: 98.0,
            steady_mhz: 1000.0,
        };
        let throttled = Note::Throttled {
            mhz: 333.0,
            floor_pct: 98.0,
            steady_mhz: 1000.0,
            tries: 4,
            own_limit: false,
            driver_reasons: None,
        };
        let clock = Conditions::Remeasured(Cause::Clock);
        let earlier = row(
            clock,
            &[
                cut(8),
                retimed.clone(),
                Note::Unsteady { cv_pct: 3.1 },
                Note::Family("read through a view".into()),
            ],
        );
        // The re-time found nothing of its own: the low clock and its note stay, once; the
        // earlier timing's other notes do not (the new one has its own).
        let mut m = row(Conditions::Steady, &[cut(9)]);
        m.keep_clock_finding(&earlier);
        assert_eq!(m.conditions, clock);
        assert_eq!(m.notes, [cut(9), retimed.clone()]);
        assert_eq!(
            perftest_results::note::words(&m.notes),
            "dispatch cut from 138 to 9 groups: 138 would take about 80 ms, over the 50 ms \
             watchdog budget; timed 2 times: the clock was 333 MHz at the first, below 98 % of \
             the steady 1000 MHz"
        );
        // Its own finding wins; a row not re-measured for its clock before gives nothing.
        let mut m = row(Conditions::Throttled, std::slice::from_ref(&throttled));
        m.keep_clock_finding(&earlier);
        assert_eq!(
            (m.conditions, m.notes.as_slice()),
            (Conditions::Throttled, [throttled].as_slice())
        );
        let mut m = row(Conditions::Unchecked, &[]);
        m.keep_clock_finding(&row(
            Conditions::Remeasured(Cause::Drift),
            &[Note::OwnAfterEffect { drift_pct: 5.0 }],
        ));
        assert_eq!(
            (m.conditions, m.notes.as_slice()),
            (Conditions::Unchecked, [].as_slice())
        );
    }

    #[test]
    fn stats_of_known_samples() {
        let s = Stats::from_times(&[3.0, 1.0, 2.0, 4.0]).unwrap();
        assert_eq!(
            (s.median_ms, s.min_ms, s.mean_ms, s.samples),
            (2.5, 1.0, 2.5, 4)
        );
        assert!((s.cv_pct - 100.0 * (5.0f64 / 3.0).sqrt() / 2.5).abs() < 1e-9);
        assert!(Stats::from_times(&[]).is_none());
        assert!(Stats::from_times(&[1.0, 0.0]).is_none());
    }
}
