//! Work sizing, the warm-up, and timing or verifying one test.

use super::{Fault, Mode, Runner, Stats};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::{
    record_compute_barrier, record_invalid_barrier, Pipeline, PushConstants,
};
use perftest_gpu::resources::{
    device_local_heap_bytes, record_fill, record_fill_start, record_memory_barrier, Buffer, Memory,
};
use perftest_gpu::timer::Timer;
use perftest_results::Note;
use perftest_suites::catalog::{self, Suite, TestCase};
use perftest_suites::data;

/// Two sizes offered to a family to tell a size it fixes from one it follows.
const FIXED_PROBE: [u32; 2] = [65_535, 65_535 - 1_009];
/// The original's dispatch: 4096 groups of 256 threads, 2^28 loads.
pub const FULL_GROUPS: u32 = 4096;
/// A device whose baseline dispatch of [`FULL_GROUPS`] takes at most this runs the full size.
const FAST_DISPATCH_MS: f64 = 20.0;
/// On a slower device, the baseline dispatch is sized to take about this long (the slowest
/// tests take up to ~15× longer; the watchdog cap below bounds them).
const SLOW_DEVICE_BASELINE_MS: f64 = 5.0;
/// No dispatch may take longer than this (Windows' watchdog fires at 2 s): larger ones are cut.
pub const MAX_DISPATCH_MS: f64 = 50.0;
/// GPU time one test may spend on its timed dispatches when `--samples` is not given.
const TEST_BUDGET_MS: f64 = 250.0;
/// Samples when `--samples` is not given: as many as fit the budget, within these bounds.
const DEFAULT_SAMPLES: u32 = 20;
const MIN_AUTO_SAMPLES: u32 = 5;
/// How far a row's median may move by the draw of its samples alone (%, 1.25 σ/√n): the
/// steady rule's five samples within 0.25 % hold it to 0.14 %. A row whose samples spread
/// more takes as many as hold its median there ([`samples_for_spread`]), within its budget and
/// [`MAX_AUTO_SAMPLES`], no more: a row of 0.8 % takes 45, not 200 (the 256 KB – 768 MB loads
/// of the health profile on an H200 spread 0.6–1.2 %, and each took 200, 2–3 s of its 9).
const MEDIAN_SPREAD_PCT: f64 = 0.15;
/// Samples a test takes first when `--samples` is not given; where they spread by at most
/// [`STEADY_CV_PCT`], the row is steady and they are its samples, else it takes the rest of
/// its budget (and more, where it is noisy).
const STEADY_SAMPLES: u32 = 5;
/// The largest spread (CV, %) of the first [`STEADY_SAMPLES`] that ends a row's sampling: half
/// [`MEDIAN_SPREAD_PCT`]'s at five samples (rounded down), where the median of five is within
/// about 0.15 % of the median of twenty (1.25 σ/√n), less than rows move between runs.
const STEADY_CV_PCT: f64 = 0.25;
/// The most samples a noisy test gets.
const MAX_AUTO_SAMPLES: u32 = 200;
/// Rounds of more samples a spreading row may take, each sized by the spread of all its
/// samples so far (a spread read from twenty is itself uncertain).
const MORE_SAMPLES_ROUNDS: u32 = 3;
/// What a cold test's dispatches fill before each one: twice the largest last-level cache of
/// today's GPUs (AMD's 256 MB Infinity Cache; the H100's L2 is 50 MB), at most a sixteenth of
/// the device-local heap.
const EVICT_BYTES: u64 = 512 << 20;
/// Dispatches per submission: ≤ 50 ms each, so a submission stays far below the 20 s
/// after which a submission counts as hung.
const DISPATCHES_PER_SUBMIT: u32 = 256;
/// The output's slots a clock kernel writes its workgroups' intervals to: eight vec4
/// (`KERNEL_CLOCK_SLOTS` in glsl/matrix/kernel_clock.glsl).
const KERNEL_CLOCK_BYTES: u64 = 8 * 16;
/// GPU time spent on the baseline before the first test, to bring the clocks up.
const GLOBAL_WARMUP_MS: f64 = 200.0;
/// The global warm-up stops after this much GPU time even if timings still drift.
const MAX_WARMUP_MS: f64 = 1000.0;
/// Timed dispatches of a test's first probe (after one untimed, cold one): the fastest
/// counts, and since a stall only ever adds time, one stalled dispatch changes nothing.
const PROBE_SAMPLES: u32 = 3;
/// Timed dispatches of each re-check at a larger size (each up to the watchdog budget).
const RECHECK_SAMPLES: u32 = 2;
/// A self-timed test whose one timed probe takes at least this long is sized from it alone
/// (see [`Runner::time_self`]).
const SELF_PROBE_ALONE_MS: f64 = 5.0;
/// Re-checks at growing sizes before a cut is taken as it stands.
const MAX_RECHECKS: u32 = 8;
/// `--fault probe-stall`: added to the first timed probe dispatch of every test (longer than
/// the whole budget, so a single-dispatch probe extrapolates over it at any size).
const INJECTED_STALL_MS: f64 = 60.0;
/// `--fault slow-test`: added per group to every dispatch of the second test.
const INJECTED_MS_PER_GROUP: f64 = 4.0;

/// `--fault noisy-baseline` (`noisy-alone`): two of every three samples of the baseline's
/// first timing (every timing of a test held alone) are this many times slower (a
/// spread beyond any drift limit, and a median far off).
const INJECTED_NOISE: f64 = 10.0;
/// `--fault noisy-baseline` and `noisy-alone`: two of every three `times` made
/// [`INJECTED_NOISE`] times slower.
fn spread(times: &mut [f64]) {
    for (i, t) in times.iter_mut().enumerate() {
        if i % 3 != 0 {
            *t *= INJECTED_NOISE;
        }
    }
}

/// Whether `--fault noisy-baseline` has disturbed the baseline's timing yet.
static NOISE_INJECTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What the per-device calibration decided.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibration {
    /// Workgroups per dispatch for every test (before any per-test watchdog cap).
    pub groups: u32,
    /// Whether `groups` was chosen by calibration (else by `--groups`).
    pub auto: bool,
    /// Estimated time of the baseline at [`FULL_GROUPS`], in ms.
    pub baseline_full_ms: f64,
    /// GPU time of the global warm-up, in ms.
    pub warmup_ms: f64,
    /// The steady shader clock in MHz that the warm-up reached (the subgroup clock, where
    /// the device has one that counts shader-core clocks): every row is held to it.
    pub clock_mhz: Option<f64>,
    /// The clock of the warm-up's first window, MHz (what the GPU started at).
    pub warmup_first_mhz: Option<f64>,
    /// Whether the warm-up settled (clock, or timings without a clock) before its cap.
    pub warmup_settled: bool,
    /// The shader clock right after the device was opened, MHz.
    pub open_mhz: Option<f64>,
    /// How the clock probe measures the clock (empty without one).
    pub clock_method: String,
}

/// What one submission measured.
pub(super) struct Batch {
    /// Durations of the timed dispatches, ms.
    pub times: Vec<f64>,
    /// From the first timed dispatch's start to the last one's end, ms.
    pub span: f64,
    /// Timestamp durations of the clock probes, ms.
    pub probe_ms: Vec<f64>,
    /// The clock probes' readings, MHz (before, after).
    pub clocks: Vec<f64>,
    /// The clock the kernel read over its own work (see [`KernelClock`]), where it reads one.
    pub kernel_clock: Option<KernelClock>,
}

/// The clock a kernel read inside its last timed dispatch of a batch
/// (glsl/matrix/kernel_clock.glsl): subgroup-clock ticks over the real-time clock's interval,
/// summed over the workgroups that recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct KernelClock {
    /// MHz.
    pub mhz: f64,
    /// How many workgroups' intervals it sums.
    pub groups: u32,
}

/// The subgroup-clock ticks and real-time ticks summed over the clock slots `words` (four
/// words a slot: two of each, low first) that hold an interval of both, and how many do.
fn clock_slots(words: &[u32]) -> (u64, u64, u32) {
    let (mut ticks, mut realtime, mut groups) = (0u64, 0u64, 0u32);
    for slot in words.chunks_exact(4) {
        let t = slot[0] as u64 | (slot[1] as u64) << 32;
        let r = slot[2] as u64 | (slot[3] as u64) << 32;
        if t > 0 && r > 0 {
            (ticks, realtime, groups) = (ticks + t, realtime + r, groups + 1);
        }
    }
    (ticks, realtime, groups)
}

/// The clocks around and inside the timed dispatches of a test.
#[derive(Clone, Debug, Default)]
pub(super) struct Clocks {
    /// The probes' readings, MHz.
    pub probes: Vec<f64>,
    /// The kernel's own readings, one a batch (empty where it reads none).
    pub kernel: Vec<KernelClock>,
}

impl Clocks {
    /// The clocks the row's clock is the mean of: the kernel's own where it read them (the
    /// clock its work ran at), else the probes'.
    pub fn row(&self) -> Vec<f64> {
        if self.kernel.is_empty() {
            self.probes.clone()
        } else {
            self.kernel.iter().map(|k| k.mhz).collect()
        }
    }

    fn extend(&mut self, batch: &Batch) {
        self.probes.extend(&batch.clocks);
        self.kernel.extend(batch.kernel_clock);
    }
}

impl Batch {
    /// The mean of the probes' clocks, MHz.
    pub fn clock(&self) -> Option<f64> {
        mean(&self.clocks)
    }
}

/// The mean of `values`; `None` when empty or not finite.
pub(super) fn mean(values: &[f64]) -> Option<f64> {
    let m = values.iter().sum::<f64>() / values.len() as f64;
    Some(m).filter(|m| m.is_finite() && !values.is_empty())
}

/// A test's dispatch size, as its probes decided it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sizing {
    /// Workgroups per dispatch.
    pub groups: u32,
    /// Estimated time of one dispatch of `groups`, in ms (from above).
    pub estimate_ms: f64,
    /// Why the dispatch was cut ([`Note::Cut`]); `None` when it was not.
    pub note: Option<Note>,
}

/// Chooses the dispatch size of a test: `groups`, or fewer where one dispatch of `groups`
/// could exceed `budget_ms`. `fastest(g)` times a few dispatches of `g` groups and returns
/// the fastest, in ms; it is first called with `probe` groups.
///
/// A measured t at g groups bounds the cost of one group from above (t also holds the fixed
/// cost of a dispatch: launch, cold caches, a stall that hit every sample), so t·G/g never
/// under-estimates G ≥ g groups, and no larger size it allows can exceed the budget. But a
/// small probe over-estimates most, and a stall can hit every sample of one probe: before a
/// cut is made, the test is re-timed at the size the estimate allows, until the full size
/// fits or a measurement at about the cut size confirms it. (Below a measured size the bound
/// does not hold for the fixed cost, which can then overshoot the budget: by an eighth of it
/// at most for the size chosen.)
pub(crate) fn size_from_probes(
    groups: u32,
    probe: u32,
    budget_ms: f64,
    mut fastest: impl FnMut(u32) -> Result<f64>,
) -> Result<Sizing> {
    let groups = groups.max(1);
    let mut g = probe.clamp(1, groups);
    let mut t = fastest(g)?;
    let mut rechecks = 0;
    loop {
        let per_group = t.max(0.0) / g as f64;
        let estimate = per_group * groups as f64;
        // (One group cannot be cut.)
        if estimate <= budget_ms || groups == 1 {
            return Ok(Sizing {
                groups,
                estimate_ms: estimate,
                note: None,
            });
        }
        let fits = ((budget_ms / per_group) as u32).clamp(1, groups - 1);
        // Measured at about this size already: the cut stands. Else measure there (a size
        // the bound allows) before believing it.
        if fits.abs_diff(g) <= g / 8 || rechecks == MAX_RECHECKS {
            return Ok(Sizing {
                groups: fits,
                estimate_ms: per_group * fits as f64,
                note: Some(Note::Cut {
                    from: groups,
                    to: fits,
                    estimate_ms: estimate,
                    budget_ms,
                }),
            });
        }
        g = fits;
        t = fastest(g)?;
        rechecks += 1;
    }
}

/// Whether `times` spread by at most [`STEADY_CV_PCT`] (see [`STEADY_SAMPLES`]).
fn is_steady(times: &[f64]) -> bool {
    Stats::from_times(times).is_some_and(|st| st.cv_pct <= STEADY_CV_PCT)
}

/// How many more samples a row that took `taken`, whose samples read `st` so far, takes: up to
/// what holds its median ([`samples_for_spread`]), at most [`MAX_AUTO_SAMPLES`] and what fits
/// its budget at its measured median (not the probe's estimate).
fn more_samples(taken: usize, st: &Stats) -> u32 {
    let fit = (TEST_BUDGET_MS / st.median_ms) as u32;
    let taken = u32::try_from(taken).unwrap_or(u32::MAX);
    samples_for_spread(st.cv_pct)
        .min(fit)
        .min(MAX_AUTO_SAMPLES)
        .saturating_sub(taken)
}

/// The samples whose median the draw moves by at most [`MEDIAN_SPREAD_PCT`], for samples that
/// spread by `cv_pct` (CV, %): (1.25 cv / [`MEDIAN_SPREAD_PCT`])², rounded up.
fn samples_for_spread(cv_pct: f64) -> u32 {
    let n = (1.25 * cv_pct / MEDIAN_SPREAD_PCT).powi(2).ceil();
    // A spread of NaN (no samples) asks for none; an enormous one for the most there are.
    if n.is_nan() {
        0
    } else {
        n.min(f64::from(u32::MAX)) as u32
    }
}

/// The fastest of `times` (a stall only ever adds time).
fn fastest_of(times: &[f64]) -> f64 {
    times.iter().copied().fold(f64::INFINITY, f64::min)
}

/// What surrounds a run of timed dispatches: the clock probed right before and after the
/// timed dispatches of every submission (`probe`), the caches emptied before each (`cold`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Around {
    pub probe: bool,
    pub cold: bool,
    /// Whether the kernel reads the clock its own work runs at (a test's clock kernel).
    pub kernel_clock: bool,
}

impl<'g> Runner<'g> {
    /// Groups a probe dispatch uses: enough to fill the device where its size is known.
    fn probe_groups(&self) -> u32 {
        self.gpu
            .info
            .compute_units
            .map_or(16, |(cus, _)| cus.max(16))
            .min(FULL_GROUPS)
    }

    /// Records `warmup` untimed then `samples` timed dispatches of `groups`; returns the timed
    /// durations in ms. At most [`DISPATCHES_PER_SUBMIT`] dispatches go into one submission,
    /// so even the largest `--samples` never keeps one submission near the hang timeout.
    pub(super) fn dispatches(
        &self,
        pipeline: &Pipeline<'g>,
        constants: &PushConstants,
        groups: u32,
        warmup: u32,
        samples: u32,
    ) -> Result<Vec<f64>> {
        Ok(self
            .probed_dispatches(
                pipeline,
                constants,
                groups,
                warmup,
                samples,
                Around::default(),
            )?
            .0)
    }

    /// As [`Runner::dispatches`], with the clock probed right before and after the timed
    /// dispatches of every submission (where `probe` and the device has a clock), and the
    /// caches emptied before each dispatch where `cold`: the durations, and the clocks of the
    /// probes in MHz.
    pub(super) fn probed_dispatches(
        &self,
        pipeline: &Pipeline<'g>,
        constants: &PushConstants,
        groups: u32,
        warmup: u32,
        samples: u32,
        around: Around,
    ) -> Result<(Vec<f64>, Clocks)> {
        let Around {
            probe,
            cold,
            kernel_clock,
        } = around;
        let evict = if cold {
            Some(self.evict_buffer()?)
        } else {
            None
        };
        let mut times = Vec::with_capacity(samples as usize);
        let mut clocks = Clocks::default();
        let (mut warm_left, mut left) = (warmup, samples);
        loop {
            let warm = warm_left.min(DISPATCHES_PER_SUBMIT);
            let timed = left.min(DISPATCHES_PER_SUBMIT - warm);
            let batch = self.submit_dispatches(
                Some((pipeline, constants, groups)),
                warm,
                timed,
                probe && timed > 0,
                evict,
                kernel_clock && timed > 0,
            )?;
            clocks.extend(&batch);
            times.extend(batch.times);
            warm_left -= warm;
            left -= timed;
            if warm_left == 0 && left == 0 {
                break;
            }
        }
        let second_test = super::TESTS_RUN.load(std::sync::atomic::Ordering::Relaxed) == 2;
        if self.settings.fault == Some(Fault::SlowTest) && second_test {
            times
                .iter_mut()
                .for_each(|t| *t += groups as f64 * INJECTED_MS_PER_GROUP);
        }
        Ok((times, clocks))
    }

    /// The buffer a cold test's dispatches fill to empty the caches ([`EVICT_BYTES`], at most
    /// a sixteenth of the device-local heap), made on first use.
    pub(super) fn evict_buffer(&self) -> Result<&Buffer<'g>> {
        self.evict
            .get_or_init(|| {
                let bytes = EVICT_BYTES.min(device_local_heap_bytes(self.gpu) / 16);
                Buffer::new(
                    self.gpu,
                    "cache evictor",
                    bytes,
                    vk::BufferUsageFlags::TRANSFER_DST,
                    Memory::DeviceLocal,
                )
                .map_err(|e| format!("{e:#}"))
            })
            .as_ref()
            .map_err(|e| anyhow::anyhow!("the buffer that empties the caches: {e}"))
    }

    /// What a cold test's row says of how it ran (once its dispatches have), for its notes.
    pub(super) fn cold_note(&self) -> Option<Note> {
        let evict = self.evict.get()?.as_ref().ok()?;
        Some(Note::Cold {
            fill_mb: evict.size >> 20,
        })
    }

    /// Fills `evict` with `value`, after the previous fill of it (write after write), before
    /// the next dispatch.
    pub(super) fn record_evict(
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        evict: &Buffer<'_>,
        value: u32,
    ) {
        use vk::{AccessFlags as A, PipelineStageFlags as S};
        record_memory_barrier(
            d,
            cmd,
            (S::TRANSFER, A::TRANSFER_WRITE),
            (S::TRANSFER, A::TRANSFER_WRITE),
        );
        record_fill(d, cmd, evict, value);
    }

    /// One submission of `warmup` untimed and `samples` timed dispatches of `work` (pipeline,
    /// constants, groups), with the clock probed before and after the timed ones where
    /// `probe` (only before them when there are none), and `evict` filled before every
    /// dispatch where given (each then finds the caches holding none of its data).
    // Long on purpose: one command buffer recorded in the order it runs (slots reset, probe,
    // untimed dispatches, fills and timed dispatches with their stamps, probe), then
    // submitted once: the order is the measurement.
    pub(super) fn submit_dispatches(
        &self,
        work: Option<(&Pipeline<'g>, &PushConstants, u32)>,
        warmup: u32,
        samples: u32,
        probe: bool,
        evict: Option<&Buffer<'g>>,
        kernel_clock: bool,
    ) -> Result<Batch> {
        let probe = self.probe.as_ref().filter(|_| probe);
        let probes = match probe {
            Some(_) if samples > 0 => 2,
            Some(_) => 1,
            None => 0,
        };
        let pairs = samples + probes;
        let timer = if pairs > 0 {
            Some(Timer::new(self.gpu, pairs)?)
        } else {
            None
        };
        let first_sample = u32::from(probes > 0);
        let fault = self.settings.fault;
        let clear_output =
            self.settings.mode == Mode::Verify && work.is_some_and(|(_, c, _)| c.write_index == 0);
        self.gpu.submit(|d, cmd| {
            if let Some(timer) = &timer {
                timer.record_reset(d, cmd);
            }
            if clear_output {
                // NaN everywhere, so a kernel that writes nothing cannot pass on stale sums.
                record_fill(d, cmd, &self.output, 0xFFFF_FFFF);
            }
            if let Some((pipeline, constants, groups)) = work {
                for i in 0..warmup {
                    if let Some(evict) = evict {
                        Self::record_evict(d, cmd, evict, i);
                    }
                    pipeline.record_dispatch(d, cmd, constants, groups);
                    record_compute_barrier(d, cmd);
                }
            }
            if kernel_clock {
                // No slot keeps a reading of an earlier dispatch or test.
                record_fill_start(d, cmd, &self.output, KERNEL_CLOCK_BYTES, 0);
            }
            let probe_at = |which: usize, pair: u32| {
                if let (Some(p), Some(t)) = (probe, &timer) {
                    t.record_start(d, cmd, pair);
                    p.record(d, cmd, which);
                    t.record_end(d, cmd, pair);
                }
            };
            probe_at(0, 0);
            if let (Some((pipeline, constants, groups)), Some(timer)) = (work, &timer) {
                for i in first_sample..first_sample + samples {
                    // The fill ends before the interval opens (its stamp waits for all
                    // earlier work): the caches hold the filler, not the test's data.
                    if let Some(evict) = evict {
                        Self::record_evict(d, cmd, evict, i);
                    }
                    timer.record_start(d, cmd, i);
                    pipeline.record_dispatch(d, cmd, constants, groups);
                    timer.record_end(d, cmd, i);
                    record_compute_barrier(d, cmd);
                }
            }
            if probes == 2 {
                probe_at(1, pairs - 1);
            }
            if fault == Some(Fault::InvalidBarrier) {
                record_invalid_barrier(d, cmd);
            }
        })?;
        let intervals = timer.map_or(Ok(Vec::new()), |t| t.read_intervals())?;
        let (probed, sampled): (Vec<_>, Vec<_>) = intervals
            .iter()
            .enumerate()
            .partition(|(i, _)| probes > 0 && (*i == 0 || (probes == 2 && *i as u32 == pairs - 1)));
        let mut times: Vec<f64> = sampled.iter().map(|(_, (s, e))| e - s).collect();
        let mut span = [match (sampled.first(), sampled.last()) {
            (Some((_, first)), Some((_, last))) => last.1 - first.0,
            _ => 0.0,
        }];
        let probe_ms: Vec<f64> = probed.iter().map(|(_, (s, e))| e - s).collect();
        let mut clocks = match probe {
            Some(p) => probe_ms
                .iter()
                .enumerate()
                .map(|(which, ms)| p.mhz(which, *ms))
                .collect::<Result<Vec<f64>>>()?,
            None => Vec::new(),
        };
        let kernel_clock = if kernel_clock {
            self.kernel_clock()?
        } else {
            None
        };
        self.simulate(&mut times, &mut clocks);
        self.simulate(&mut span, &mut []);
        self.disturb(&mut times);
        self.disturb(&mut span);
        Ok(Batch {
            times,
            span: span[0],
            probe_ms,
            clocks,
            kernel_clock,
        })
    }

    /// What the timed dispatches' kernel read of its clock (in the output's first slots,
    /// after the batch): `None` where no workgroup read a real-time interval, or the
    /// real-time clock's rate is not known.
    fn kernel_clock(&self) -> Result<Option<KernelClock>> {
        let words = self.output.read_u32(KERNEL_CLOCK_BYTES as usize / 4)?;
        let (ticks, realtime, groups) = clock_slots(&words);
        let mhz = self
            .probe
            .as_ref()
            .and_then(|p| p.realtime_mhz(ticks, realtime));
        Ok(mhz.map(|mhz| KernelClock { mhz, groups }))
    }

    /// The kernel that calibration and the drift check time: the baseline (a mandatory
    /// format), or the 1-D control kernel (which reads nothing) where even that is missing.
    pub(super) fn reference_test(&self) -> TestCase {
        let baseline = catalog::baseline();
        if self.unsupported_reason(&baseline).is_none() {
            baseline
        } else {
            catalog::suite(Suite::Control)[0]
        }
    }

    /// Grows the reference dispatch until it takes long enough to time well: the dispatch
    /// the warm-up repeats (groups, ms each, within the watchdog budget), and (g, t) measured.
    pub(super) fn warm_dispatch(&self) -> Result<((u32, f64), (u32, f64))> {
        let test = self.reference_test();
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        let mut g = self.probe_groups();
        let mut t;
        loop {
            let times = self.dispatches(&pipeline, &constants, g, 1, 3)?;
            t = fastest_of(&times);
            if t >= 1.0 || g >= FULL_GROUPS {
                break;
            }
            g = (g * 4).min(FULL_GROUPS);
        }
        let groups = match self.settings.groups {
            Some(groups) => groups,
            None => self.auto_groups(t * FULL_GROUPS as f64 / g as f64),
        };
        let per_dispatch = t * groups as f64 / g as f64;
        let warm_groups = if per_dispatch > MAX_DISPATCH_MS {
            ((groups as f64 * MAX_DISPATCH_MS / per_dispatch) as u32).max(1)
        } else {
            groups
        };
        Ok((
            (warm_groups, per_dispatch.clamp(1e-3, MAX_DISPATCH_MS)),
            (g, t),
        ))
    }

    /// Brings the clocks up (to a steady shader clock where the device has one, else to
    /// steady timings), then decides the dispatch size for this device from the baseline
    /// timed at that state.
    pub(super) fn calibrate(&self, (g, t): (u32, f64)) -> Result<Calibration> {
        let test = self.reference_test();
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        let warm = if self.probe.is_some() {
            self.warm_to_steady()?
        } else {
            self.warm_by_timestamps()?
        };
        // The baseline once more, warm: what was timed before may have run at an idle clock.
        let t_warm = fastest_of(&self.dispatches(&pipeline, &constants, g, 1, 3)?);
        let t = if t_warm > 0.0 { t_warm } else { t };
        let mut baseline_full_ms = t * FULL_GROUPS as f64 / g as f64;
        let (mut groups, auto) = match self.settings.groups {
            Some(groups) => (groups, false),
            None => (self.auto_groups(baseline_full_ms), true),
        };
        // The growth loop's extrapolation carries the fixed cost of a small dispatch (it
        // over-estimates, so `groups` is within budget): on a slow device, re-time the
        // baseline at the size chosen, where that cost weighs little, and decide once more.
        if auto && groups < FULL_GROUPS && groups > g {
            let t_chosen = fastest_of(&self.dispatches(&pipeline, &constants, groups, 0, 3)?);
            if t_chosen > 0.0 {
                baseline_full_ms = t_chosen * FULL_GROUPS as f64 / groups as f64;
                groups = self.auto_groups(baseline_full_ms);
            }
        }
        Ok(Calibration {
            groups,
            auto,
            baseline_full_ms,
            warmup_ms: warm.ms,
            clock_mhz: warm.steady_mhz,
            warmup_first_mhz: warm.first_mhz,
            warmup_settled: warm.settled,
            open_mhz: warm.open_mhz,
            clock_method: self.probe.as_ref().map_or(String::new(), |p| p.method()),
        })
    }

    /// The warm-up of a device without a shader clock: batches of ~25 ms of the reference,
    /// timed, for at least [`GLOBAL_WARMUP_MS`], then until two batches in a row agree within
    /// 0.2 % (clocks and caches settled), for at most [`MAX_WARMUP_MS`] of GPU time.
    fn warm_by_timestamps(&self) -> Result<super::clock::Warmup> {
        let test = self.reference_test();
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        let (warm_groups, per_warm) = self.warm_dispatch;
        let batch = ((25.0 / per_warm).ceil() as u32).clamp(2, DISPATCHES_PER_SUBMIT);
        let mut warm_ms = 0.0;
        let mut last: Option<f64> = None;
        let settled = loop {
            let times = self.dispatches(&pipeline, &constants, warm_groups, 0, batch)?;
            warm_ms += times.iter().sum::<f64>();
            let median = Stats::from_times(&times).map(|s| s.median_ms);
            let settled =
                matches!((last, median), (Some(a), Some(b)) if (b / a - 1.0).abs() < 0.002);
            if (warm_ms >= GLOBAL_WARMUP_MS && settled) || warm_ms >= MAX_WARMUP_MS {
                break settled;
            }
            last = median;
        };
        Ok(super::clock::Warmup {
            ms: warm_ms,
            settled,
            ..Default::default()
        })
    }

    /// The calibrated dispatch size for a baseline that takes `baseline_full_ms` at
    /// [`FULL_GROUPS`]: the full size on a fast device, else a size that takes about
    /// [`SLOW_DEVICE_BASELINE_MS`].
    fn auto_groups(&self, baseline_full_ms: f64) -> u32 {
        if baseline_full_ms <= FAST_DISPATCH_MS {
            return FULL_GROUPS;
        }
        let scaled = (FULL_GROUPS as f64 * SLOW_DEVICE_BASELINE_MS / baseline_full_ms) as u32;
        scaled.clamp(self.probe_groups().min(FULL_GROUPS), FULL_GROUPS)
    }

    /// The dispatch size for `test`: the calibrated size (rounded where its family asks, e.g.
    /// to whole waves of compute units; an explicit --groups is run as given), cut where probes
    /// show that one dispatch would exceed [`MAX_DISPATCH_MS`] (see [`size_from_probes`]).
    pub(super) fn size_dispatch(&self, test: &TestCase, pipeline: &Pipeline<'g>) -> Result<Sizing> {
        let groups = self.full_groups(test);
        let constants = self.constants(test, PushConstants::NO_WRITE);
        let mut first = true;
        size_from_probes(groups, self.probe_groups(), MAX_DISPATCH_MS, |g| {
            // The first probe starts with one untimed dispatch: the cold one.
            let (warm, samples) = if first {
                (1, PROBE_SAMPLES)
            } else {
                (0, RECHECK_SAMPLES)
            };
            let mut times = self.dispatches(pipeline, &constants, g, warm, samples)?;
            if first && self.settings.fault == Some(Fault::ProbeStall) {
                times[0] += INJECTED_STALL_MS;
            }
            first = false;
            Ok(fastest_of(&times))
        })
    }

    /// The groups `test` runs when nothing cuts it: the calibrated size, rounded where its
    /// family asks (e.g. to whole waves of compute units); an explicit --groups as given.
    pub(super) fn full_groups(&self, test: &TestCase) -> u32 {
        let cal = &self.calibration;
        let units = self.gpu.info.compute_units.map(|(n, _)| n);
        // A test whose family fixes its size (one workgroup for a latency chase, one group per
        // compute unit) answers the same whatever size it is offered: its meaning depends on
        // that size, which it keeps, also under an explicit --groups.
        let own = test.dispatch_groups(FIXED_PROBE[0], units);
        if own == test.dispatch_groups(FIXED_PROBE[1], units) {
            return own.max(1);
        }
        if cal.auto {
            test.dispatch_groups(cal.groups, self.gpu.info.compute_units.map(|(n, _)| n))
                .clamp(1, cal.groups)
        } else {
            cal.groups
        }
    }

    /// Warms up, then times the test's dispatches, the clock probed around each submission of
    /// them; `estimate_ms` (from the probe) decides how many samples fit the per-test budget
    /// when `--samples` is not given. Returns the statistics and the probes' clocks (MHz).
    pub(super) fn time(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
        groups: u32,
        estimate_ms: f64,
    ) -> Result<(Option<Stats>, Clocks)> {
        let s = self.settings;
        let kernel_clock = self.reads_kernel_clock(test);
        let constants = self.constants(test, PushConstants::NO_WRITE);
        let cold = test.cold();
        let samples = s.samples.unwrap_or_else(|| {
            ((TEST_BUDGET_MS / estimate_ms.max(1e-6)) as u32)
                .saturating_sub(s.warmup)
                .clamp(MIN_AUTO_SAMPLES, DEFAULT_SAMPLES)
        });
        let around = Around {
            probe: true,
            cold,
            kernel_clock,
        };
        // A steady row's median is known from its first few samples: the rest of the budget
        // only where they spread (see [`STEADY_CV_PCT`]).
        let first = match s.samples {
            None => samples.min(STEADY_SAMPLES),
            Some(_) => samples,
        };
        let (mut times, mut clocks) =
            self.probed_dispatches(pipeline, &constants, groups, s.warmup, first, around)?;
        if first < samples && !is_steady(&times) {
            let (more, more_clocks) =
                self.probed_dispatches(pipeline, &constants, groups, 1, samples - first, around)?;
            times.extend(more);
            clocks.probes.extend(more_clocks.probes);
            clocks.kernel.extend(more_clocks.kernel);
        }
        if s.fault == Some(Fault::NoisyBaseline)
            && *test == catalog::baseline()
            && !NOISE_INJECTED.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            spread(&mut times);
        }
        if s.samples.is_none() {
            for _ in 0..MORE_SAMPLES_ROUNDS {
                let Some(st) = Stats::from_times(&times) else {
                    break;
                };
                let extra = more_samples(times.len(), &st);
                if extra == 0 {
                    break;
                }
                let (more, more_clocks) =
                    self.probed_dispatches(pipeline, &constants, groups, 1, extra, around)?;
                times.extend(more);
                clocks.probes.extend(more_clocks.probes);
                clocks.kernel.extend(more_clocks.kernel);
            }
        }
        Ok((Stats::from_times(&times), clocks))
    }

    /// Times a self-timed test (its family records and times its own commands): a probe of
    /// one sample (three where one is short) sizes the samples to the per-test budget, as for
    /// a kernel, and its runs count toward the warm-up; returns their statistics.
    pub(super) fn time_self(&self, test: &TestCase) -> Result<Option<Stats>> {
        let s = self.settings;
        let family = &self.bound[test.family_index()];
        // The probe's runs are the warm-up's first (the same work, just before).
        let mut warmup = s.warmup;
        let samples = match s.samples {
            Some(n) => n,
            None => {
                // One timed run first: where it alone takes a good part of the budget (a GB
                // copied over the host's link: 21 ms), a stall could only make it longer, by a
                // small part; shorter work takes the fastest of three, as a kernel's probe.
                let mut probe = family.time_self(&self.shared, test.index(), 1, 1)?;
                if fastest_of(&probe) < SELF_PROBE_ALONE_MS {
                    probe.extend(family.time_self(
                        &self.shared,
                        test.index(),
                        0,
                        PROBE_SAMPLES - 1,
                    )?);
                }
                let n = ((TEST_BUDGET_MS / fastest_of(&probe).max(1e-6)) as u32)
                    .saturating_sub(s.warmup)
                    .clamp(MIN_AUTO_SAMPLES, DEFAULT_SAMPLES);
                warmup = warmup.saturating_sub(1 + probe.len() as u32);
                n
            }
        };
        let first = match s.samples {
            None => samples.min(STEADY_SAMPLES),
            Some(_) => samples,
        };
        let mut times = family.time_self(&self.shared, test.index(), warmup, first)?;
        if first < samples && !is_steady(&times) {
            times.extend(family.time_self(&self.shared, test.index(), 0, samples - first)?);
        }
        self.disturb(&mut times);
        if s.fault == Some(Fault::NoisyAlone) && super::hold_for(test) == super::node::Hold::Alone {
            spread(&mut times);
        }
        Ok(Stats::from_times(&times))
    }

    /// Runs one dispatch with the output write on and compares it with the CPU reference.
    pub(super) fn verify(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
        groups: u32,
    ) -> Result<Result<(), data::Mismatch>> {
        debug_assert_eq!(self.settings.mode, Mode::Verify);
        let mut constants = self.constants(test, 0);
        if self.settings.fault == Some(Fault::DropWrites) {
            constants.elements_mask = 1;
        }
        let mut dispatch = || {
            self.dispatches(pipeline, &constants, groups, 1, 0)
                .map(drop)
        };
        // A write test is checked from the memory it wrote, not from each thread's output.
        let family = &self.bound[test.family_index()];
        if let Some(checked) =
            family.verify_writes(&self.shared, test.index(), groups, &mut dispatch)
        {
            return checked;
        }
        dispatch()?;
        let threads = groups as usize * 256;
        let output = &self.output.mapped()?[..threads * 16];
        // The width the kernel ran at where it says, else the device's.
        let width = self
            .kernel_subgroup_size(test)?
            .unwrap_or_else(|| self.device_subgroup_size());
        let reference = match self.settings.fault {
            Some(Fault::Reference) => {
                let mut corrupted = self.shared.data.clone();
                corrupted.iter_mut().step_by(7).for_each(|b| *b ^= 0x5A);
                test.reference_for(&corrupted, width)
            }
            _ => test.reference_for(&self.shared.data, width),
        };
        Ok(data::compare_with(
            test.tolerance(),
            &reference,
            threads,
            |i| perftest_gpu::resources::vec4_at(output, i),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_samples_within_a_quarter_percent_are_steady() {
        assert!(is_steady(&[1.000, 1.001, 0.999, 1.002, 1.000]));
        // One stalled sample among five spreads them beyond the rule: the rest are taken.
        assert!(!is_steady(&[1.000, 1.001, 0.999, 1.030, 1.000]));
        assert!(!is_steady(&[]));
        const { assert!(STEADY_SAMPLES >= MIN_AUTO_SAMPLES) };
        // The steady rule is the spread rule's at five samples.
        assert!(samples_for_spread(STEADY_CV_PCT) <= STEADY_SAMPLES);
        assert!(samples_for_spread(STEADY_CV_PCT + 0.02) > STEADY_SAMPLES);
    }

    #[test]
    fn a_spreading_row_takes_the_samples_that_hold_its_median_and_no_more() {
        // 0.5 % is held by the twenty a row takes anyway; 0.8 % by 45; 1 % by 70.
        assert_eq!(samples_for_spread(0.5), 18);
        assert_eq!(samples_for_spread(0.8), 45);
        assert_eq!(samples_for_spread(1.0), 70);
        // Beyond 1.7 % the cap of 200 holds.
        assert!(samples_for_spread(1.7) > MAX_AUTO_SAMPLES);
        assert_eq!(samples_for_spread(0.0), 0);
        assert_eq!(samples_for_spread(f64::NAN), 0);
        assert_eq!(samples_for_spread(f64::INFINITY), u32::MAX);
    }

    #[test]
    fn more_samples_go_to_the_spread_within_the_cap_and_the_budget() {
        let st = |median_ms: f64, cv_pct: f64| Stats {
            median_ms,
            cv_pct,
            ..Stats::from_times(&[1.0]).unwrap()
        };
        // An H200's 384 MB load beside another GPU's copies: 0.45 % is held by its twenty.
        assert_eq!(more_samples(20, &st(0.85, 0.45)), 0);
        // The sweep's 0.8 %: 45 in all, not 200.
        assert_eq!(more_samples(20, &st(0.45, 0.8)), 25);
        // A wide spread: the cap, or the 250 ms budget where that is less.
        assert_eq!(more_samples(20, &st(0.2, 3.0)), 180);
        assert_eq!(more_samples(20, &st(5.0, 3.0)), 30);
        // Already more than it needs, or than the budget holds: none.
        assert_eq!(more_samples(70, &st(0.2, 1.0)), 0);
        assert_eq!(more_samples(20, &st(20.0, 3.0)), 0);
    }

    #[test]
    fn the_clock_slots_sum_the_workgroups_that_read_both_clocks() {
        // Two workgroups' intervals (one of them past 2^32 ticks), one slot never written
        // (cleared to 0), one whose real-time clock never stepped.
        let words = [
            100_000, 0, 50_000, 0, //
            5, 1, 60_000, 0, //
            0, 0, 0, 0, //
            70_000, 0, 0, 0,
        ];
        assert_eq!(clock_slots(&words), (100_000 + (1 << 32) + 5, 110_000, 2));
        assert_eq!(clock_slots(&[0; 32]), (0, 0, 0));
    }

    #[test]
    fn a_rows_clock_is_its_kernels_where_it_read_one() {
        let mut clocks = Clocks {
            probes: vec![1995.0, 1995.0],
            kernel: Vec::new(),
        };
        assert_eq!(clocks.row(), vec![1995.0, 1995.0]);
        clocks.kernel.push(KernelClock {
            mhz: 1980.0,
            groups: 8,
        });
        assert_eq!(clocks.row(), vec![1980.0]);
    }

    /// A simulated device: a dispatch of g groups takes `fixed + per_group · g` ms; the first
    /// probe also carries `stall` ms (a stall that hit all its samples).
    struct Device {
        fixed: f64,
        per_group: f64,
        stall: f64,
    }

    impl Device {
        fn ms(&self, g: u32) -> f64 {
            self.fixed + self.per_group * g as f64
        }

        /// Sizes `groups` with this device; returns the sizing and every size probed.
        fn size(&self, groups: u32, probe: u32) -> (Sizing, Vec<u32>) {
            let mut probed = Vec::new();
            let sizing = size_from_probes(groups, probe, MAX_DISPATCH_MS, |g| {
                let stall = if probed.is_empty() { self.stall } else { 0.0 };
                probed.push(g);
                Ok(self.ms(g) + stall)
            })
            .unwrap();
            (sizing, probed)
        }
    }

    #[test]
    fn fixed_cost_does_not_cut_a_dispatch_that_fits() {
        // 16 groups take 6.8 ms, which extrapolates to 58.7 ms; 138 really take 43.4 ms.
        let d = Device {
            fixed: 2.0,
            per_group: 0.3,
            stall: 0.0,
        };
        let (s, probed) = d.size(138, 16);
        assert_eq!((s.groups, &s.note), (138, &None), "{probed:?}");
        assert!(s.estimate_ms >= d.ms(138) && s.estimate_ms <= MAX_DISPATCH_MS);
        assert!(probed.iter().all(|g| d.ms(*g) <= MAX_DISPATCH_MS));
    }

    #[test]
    fn a_stalled_probe_is_re_checked_before_a_cut() {
        // The first probe is 60 ms late: alone it would cut 138 groups to a few.
        let d = Device {
            fixed: 0.2,
            per_group: 0.05,
            stall: INJECTED_STALL_MS,
        };
        let (s, probed) = d.size(138, 16);
        assert_eq!((s.groups, &s.note), (138, &None), "{probed:?}");
    }

    #[test]
    fn a_slow_test_is_cut_to_the_budget_not_below() {
        let d = Device {
            fixed: 0.5,
            per_group: 1.0,
            stall: 0.0,
        };
        let (s, probed) = d.size(138, 16);
        let said = s.note.as_ref().map(Note::to_string).unwrap_or_default();
        assert!(said.starts_with("dispatch cut from 138 to "), "{s:?}");
        let ms = d.ms(s.groups);
        assert!(
            (0.9 * MAX_DISPATCH_MS..=MAX_DISPATCH_MS).contains(&ms),
            "{s:?} {probed:?}"
        );
        assert!(s.estimate_ms >= ms, "{s:?}");
    }

    #[test]
    fn probes_stay_within_the_budget_and_cut_only_what_does_not_fit() {
        for fixed in [0.0, 0.01, 0.5, 3.0, 12.0] {
            for per_group in [1e-4, 0.01, 0.05, 0.3, 1.0, 5.0, 40.0] {
                for groups in [1, 2, 16, 17, 138, 1000, 4096, 65535] {
                    for stall in [0.0, 60.0] {
                        let d = Device {
                            fixed,
                            per_group,
                            stall,
                        };
                        let (s, probed) = d.size(groups, 16);
                        let case = format!("{fixed} + {per_group}·g, {groups} groups, stall {stall}: {s:?}, probed {probed:?}");
                        assert!(probed.len() as u32 <= 1 + MAX_RECHECKS, "{case}");
                        assert!((1..=groups).contains(&s.groups), "{case}");
                        // After the first probe, nothing over the budget runs: a size the
                        // bound allows above a measured one fits; below one (after a stall,
                        // or a probe over the budget) only the fixed cost can overshoot.
                        let limit = MAX_DISPATCH_MS * 1.0001 + fixed;
                        for g in &probed[1..] {
                            assert!(d.ms(*g) <= limit || *g == 1, "{case}");
                        }
                        let limit = MAX_DISPATCH_MS * 1.0001 + fixed / 8.0;
                        assert!(d.ms(s.groups) <= limit || s.groups == 1, "{case}");
                        // What fits is not cut, while the fixed cost is a fraction of the budget.
                        if d.ms(groups) <= MAX_DISPATCH_MS && fixed <= MAX_DISPATCH_MS / 4.0 {
                            assert_eq!(s.groups, groups, "{case}");
                            assert!(s.note.is_none(), "{case}");
                        }
                        assert_eq!(s.note.is_none(), s.groups == groups, "{case}");
                    }
                }
            }
        }
    }
}
