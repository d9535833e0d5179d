//! The shader clock around every batch of timed dispatches: a one-workgroup probe that counts
//! subgroup-clock ticks of a dependent chain, timestamped in the same submission; the warm-up
//! to a steady clock; and the recovery of a row timed below it.

use super::{Fault, Runner};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::{record_compute_barrier, Binding, Pipeline, PushConstants};
use perftest_gpu::resources::{Buffer, Memory};
use perftest_suites::kernels::id;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A row whose clock is below this fraction of the run's steady clock was not timed at the
/// steady state: it is timed again (after bringing the clock back), or flagged `throttled`.
pub const CLOCK_FLOOR: f64 = 0.98;
/// Target duration of one probe at the steady clock: long against the timestamp and launch
/// jitter (about a µs), short against a test's 250 ms budget (two probes per batch).
const PROBE_TARGET_MS: f64 = 0.2;
/// The same where the probe reads the real-time clock: no launch cost to outweigh, only
/// that clock's resolution (1 µs at worst).
const REALTIME_PROBE_TARGET_MS: f64 = 0.1;
/// The warm-up's windows: about this much GPU time each, then a probe.
const WINDOW_MS: f64 = 25.0;
/// The warm-up lasts at least this long, unless its windows are back at the clock seen at
/// device open (below) …
const MIN_WARMUP_MS: f64 = 200.0;
/// … until this many windows in a row are within [`SETTLED_PCT`] of the fastest clock seen …
const SETTLED_WINDOWS: usize = 3;
const SETTLED_PCT: f64 = 1.0;
/// … and within [`OPEN_FRACTION`] of the clock seen when the device was opened (a GPU that
/// idled sits at its idle clock for the first ~0.3 s of work, an H100 at 345 MHz, as steady
/// as any clock), unless this much time has passed: a clock that stays below it for that
/// long is what the GPU sustains …
const MAX_WAIT_FOR_OPEN_CLOCK: Duration = Duration::from_millis(1500);
const OPEN_FRACTION: f64 = 0.97;
/// … or this much wall time has passed: the clock never settled.
const MAX_WARMUP: Duration = Duration::from_secs(3);
/// A re-warm (before a row is timed again) keeps the GPU busy until the clock is back, at
/// most this long.
const MAX_REWARM: Duration = Duration::from_millis(500);
/// Re-warm windows: short, so a clock that is back is seen soon.
const REWARM_WINDOW_MS: f64 = 10.0;
/// A GPU that had no work for this long before a row is timed is re-warmed first (see
/// [`Runner::rewarm_after_idle`]): an idle H100 drops to 345–1100 MHz within a quarter of a
/// second, and one that waited for another GPU's host row timed the self-timed rows after it
/// at 345–492 MHz (issue 57).
pub const IDLE_BEFORE_REWARM: Duration = Duration::from_millis(50);
/// How long the GPU is kept busy, read by the driver, for the driver's clock at the steady
/// state (what self-timed rows are held to): five readings at 10 ms.
const DRIVER_STEADY_HOLD: Duration = Duration::from_millis(50);
/// How often the driver is read while a row's work runs.
pub const DRIVER_EVERY: Duration = Duration::from_millis(10);
/// How often a row below the floor is timed again before it is left `throttled`.
pub const MAX_RETIMES: u32 = 3;
/// The pause before the second and later re-times: lets a power or thermal limit recover.
pub const RECOVERY_PAUSE: Duration = Duration::from_millis(100);
/// The clock a simulated device without a shader clock reports (`--fault slow-start` etc.).
const SIMULATED_MHZ: f64 = 1000.0;
/// Run positions (1-based, in run order) that `--fault low-clock` and `--fault throttle` slow.
pub const FAULT_STRETCH: std::ops::RangeInclusive<usize> = 5..=7;
/// The simulated low clock, as a fraction of the steady one.
const FAULT_LEVEL: f64 = 1.0 / 3.0;
/// `--fault low-clock-at-check`'s clock at the check, as a fraction of the steady one: low
/// enough that a check on a CPU device 3× slower or faster than its reference for its own
/// noise still reads off, and still as slow as its clock makes it, at a 200 % limit.
pub(super) const DIP_LEVEL: f64 = 0.1;
/// `--fault idle-gap`: the GPU idles this long before the tests at these run positions.
pub const IDLE_GAP: Duration = Duration::from_millis(2500);
const IDLE_GAP_FIRST: usize = 25;
const IDLE_GAP_EVERY: usize = 100;

/// Whether the warm-up windows' clocks (MHz, in order) have settled: at least
/// [`SETTLED_WINDOWS`] windows, the last ones all within [`SETTLED_PCT`] of the fastest seen.
pub fn settled(windows: &[f64]) -> bool {
    let best = windows.iter().copied().fold(0.0, f64::max);
    windows.len() >= SETTLED_WINDOWS
        && windows[windows.len() - SETTLED_WINDOWS..]
            .iter()
            .all(|w| *w >= best * (1.0 - SETTLED_PCT / 100.0))
}

/// Whether the warm-up is done after `windows` (clocks, MHz) in `elapsed`, the clock at
/// device open being `open`: settled at the clock seen at open (as soon as that is, three
/// windows: the clock is where the driver put it and holds there), or settled for at least
/// [`MIN_WARMUP_MS`] where no clock at open is known (or once waited for it long enough);
/// or at the cap. (The minimum was an eighth of a default run's 1.6 s on an H200, whose
/// windows read 1980 MHz from the first.)
pub fn warmup_done(windows: &[f64], elapsed: Duration, open: Option<f64>) -> bool {
    let best = windows.iter().copied().fold(0.0, f64::max);
    let at_open = open.is_some_and(|o| best >= OPEN_FRACTION * o);
    let waited = elapsed.as_secs_f64() * 1e3 >= MIN_WARMUP_MS
        && (open.is_none() || elapsed >= MAX_WAIT_FOR_OPEN_CLOCK);
    (settled(windows) && (at_open || waited)) || elapsed >= MAX_WARMUP
}

/// A row whose clock is above the steady clock by more than this fraction was timed in a
/// spell faster than the steady state (an H100 runs ~5 % faster for about half a second of
/// tensor-core work): it is timed again once the clock is back, unless its own load is what
/// raises the clock.
pub const CLOCK_CEILING: f64 = 1.02;
/// How long the GPU is kept busy at most for a clock above the ceiling to come back down.
pub const MAX_COOL_DOWN: Duration = Duration::from_millis(1500);

/// Whether `clock` (MHz) is above the ceiling over `steady`.
pub fn is_high(clock: f64, steady: f64) -> bool {
    clock > CLOCK_CEILING * steady
}

/// Whether `clock` (MHz) is below the floor of `steady`.
pub fn is_low(clock: f64, steady: f64) -> bool {
    // A NaN clock is low: it says nothing about the steady state.
    clock.is_nan() || clock < CLOCK_FLOOR * steady
}

/// How the warm-up ended.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Warmup {
    /// Wall time of the warm-up, ms.
    pub ms: f64,
    /// The clock it reached (the settled windows' median), MHz; `None` without a clock.
    pub steady_mhz: Option<f64>,
    /// The clock of its first window, MHz.
    pub first_mhz: Option<f64>,
    /// Whether the clock settled before the cap.
    pub settled: bool,
    /// The clock when the device was opened, before the pipelines were built, MHz.
    pub open_mhz: Option<f64>,
}

/// The clock probe's kernel, its two tick buffers (before and after a batch) and its size.
pub(super) struct Probe<'g> {
    /// Pipelines writing to `buffers[0]` and `buffers[1]`; none where the device has no
    /// shader clock (a simulated clock needs no kernel).
    pipelines: Vec<Pipeline<'g>>,
    buffers: Vec<Buffer<'g>>,
    /// Chain length of the kernel.
    iterations: AtomicU32,
    /// The probe's fixed cost (launch, drain) inside its timestamps, ms (f64 bits).
    overhead_ms: AtomicU64,
    /// Whether the kernel also reads the device's real-time clock.
    realtime: bool,
    /// Real-time clock ticks per ms (f64 bits), measured against timestamps; 0 until then.
    realtime_per_ms: AtomicU64,
}

impl<'g> Probe<'g> {
    /// The probe, where the device has a shader clock that counts shader-core clocks; a
    /// kernel-less one under a simulated-clock fault; else `None`.
    pub(super) fn new(
        gpu: &'g perftest_gpu::Gpu<'g>,
        fault: Option<Fault>,
    ) -> Result<Option<Self>> {
        let real = gpu.info.features.shader_subgroup_clock
            && gpu.info.device_type != perftest_gpu::DeviceType::Cpu;
        if !real && !is_clock_fault(fault) {
            return Ok(None);
        }
        let (mut pipelines, mut buffers) = (Vec::new(), Vec::new());
        let realtime = real && gpu.info.features.shader_device_clock;
        if real {
            let kernel = if realtime {
                id::CLOCK_REALTIME_W1_UNIFORM
            } else {
                id::CLOCK_W1_UNIFORM
            }
            .kernel();
            for name in ["clock probe before", "clock probe after"] {
                let buffer = Buffer::new(
                    gpu,
                    name,
                    256,
                    vk::BufferUsageFlags::STORAGE_BUFFER,
                    Memory::Readback,
                )?;
                buffers.push(buffer);
            }
            for buffer in &buffers {
                let bindings = [(0, Binding::StorageBuffer(buffer, 16))];
                pipelines.push(Pipeline::new(gpu, kernel.spirv, &bindings)?);
            }
        }
        Ok(Some(Probe {
            pipelines,
            buffers,
            iterations: AtomicU32::new(20_000),
            overhead_ms: AtomicU64::new(0f64.to_bits()),
            realtime,
            realtime_per_ms: AtomicU64::new(0f64.to_bits()),
        }))
    }

    /// Records probe `which` (0 before, 1 after a batch) and a barrier after it.
    pub(super) fn record(&self, d: &ash::Device, cmd: vk::CommandBuffer, which: usize) {
        if let Some(p) = self.pipelines.get(which) {
            let constants = PushConstants {
                elements_mask: self.iterations.load(Ordering::Relaxed),
                ..PushConstants::default()
            };
            p.record_dispatch(d, cmd, &constants, 1);
            record_compute_barrier(d, cmd);
        }
    }

    /// The subgroup-clock ticks probe `which` counted (after its submission completed), and
    /// the real-time clock's over the same interval (0 without it).
    fn ticks(&self, which: usize) -> Result<(u64, u64)> {
        let t = self.buffers[which].read_u32(4)?;
        let word = |i: usize| t[i] as u64 | (t[i + 1] as u64) << 32;
        Ok((word(0), if self.realtime { word(2) } else { 0 }))
    }

    /// The clock (MHz) of probe `which`, whose timestamps were `ms` apart: its ticks over the
    /// real-time clock's interval where the kernel reads it (and its rate is known), else
    /// over the timestamps less the probe's fixed cost; the simulated clock where there is
    /// no kernel.
    pub(super) fn mhz(&self, which: usize, ms: f64) -> Result<f64> {
        if self.pipelines.is_empty() {
            return Ok(SIMULATED_MHZ);
        }
        let (ticks, realtime) = self.ticks(which)?;
        let per_ms = f64::from_bits(self.realtime_per_ms.load(Ordering::Relaxed));
        let busy = if per_ms > 0.0 && realtime > 0 {
            realtime as f64 / per_ms
        } else {
            let overhead = f64::from_bits(self.overhead_ms.load(Ordering::Relaxed));
            (ms - overhead).max(ms * 0.5)
        };
        Ok(ticks as f64 / (busy * 1e3))
    }

    /// The clock (MHz) of `ticks` subgroup-clock ticks over `realtime` ticks of the real-time
    /// clock, read inside a kernel: `None` without a real-time interval or its known rate.
    pub(super) fn realtime_mhz(&self, ticks: u64, realtime: u64) -> Option<f64> {
        let per_ms = f64::from_bits(self.realtime_per_ms.load(Ordering::Relaxed));
        (self.realtime && per_ms > 0.0 && ticks > 0 && realtime > 0)
            .then(|| ticks as f64 / (realtime as f64 / per_ms * 1e3))
    }

    /// Whether kernels can read the clock their own work runs at (the probe's kernel reads
    /// the real-time clock, so the device has one in shaders).
    pub(super) fn reads_realtime(&self) -> bool {
        self.realtime
    }
}

impl Probe<'_> {
    /// How the probe turns ticks into a clock, in words.
    pub(super) fn method(&self) -> String {
        let per_ms = f64::from_bits(self.realtime_per_ms.load(Ordering::Relaxed));
        let overhead = f64::from_bits(self.overhead_ms.load(Ordering::Relaxed));
        if self.pipelines.is_empty() {
            "simulated".into()
        } else if self.realtime && per_ms > 0.0 {
            format!("subgroup clock over the device's real-time clock ({per_ms:.0} ticks/ms)")
        } else {
            format!(
                "subgroup clock over timestamps less the probe's fixed cost ({:.1} µs)",
                overhead * 1e3
            )
        }
    }
}

/// Whether `fault` simulates the clock.
fn is_clock_fault(fault: Option<Fault>) -> bool {
    matches!(
        fault,
        Some(
            Fault::SlowStart
                | Fault::LowClock
                | Fault::LowClockAtCheck
                | Fault::Throttle
                | Fault::Contention
                | Fault::LowDriverClock
                | Fault::DriverThrottle
        )
    )
}

/// Whether `fault` simulates the driver's clock (where there is no management interface).
fn is_driver_fault(fault: Option<Fault>) -> bool {
    matches!(fault, Some(Fault::LowDriverClock | Fault::DriverThrottle))
}

/// The driver's readings while a row's work runs (see [`Runner::watch_driver`]).
pub(super) enum DriverWatch {
    /// The management interface's, taken while the work is in flight.
    Real(perftest_gpu::mgmt::Watch),
    /// A simulated driver clock (`--fault low-driver-clock`, `driver-throttle`).
    Simulated,
    /// None: no interface.
    None,
}

/// The clock level a simulated-clock fault imposes (1 = steady), as f64 bits.
pub(super) struct Simulated {
    level: AtomicU64,
    /// `slow-start`: when the simulated clock dropped (the end of the pipeline build).
    dropped: std::sync::Mutex<Option<Instant>>,
    /// `throttle`: the tests that run at the low clock whenever they are timed.
    throttled: std::sync::Mutex<Vec<perftest_suites::catalog::TestCase>>,
    /// The simulated driver's clock level (1 = steady), as f64 bits.
    driver_level: AtomicU64,
    /// `low-clock-at-check`: the second block's tests have run, its check is still to come.
    pub(super) dip_due: std::sync::atomic::AtomicBool,
}

impl Simulated {
    pub(super) fn new() -> Self {
        Simulated {
            level: AtomicU64::new(1f64.to_bits()),
            dropped: Default::default(),
            throttled: Default::default(),
            driver_level: AtomicU64::new(1f64.to_bits()),
            dip_due: false.into(),
        }
    }

    /// The simulated driver's clock, MHz.
    fn driver_mhz(&self) -> f64 {
        SIMULATED_MHZ * f64::from_bits(self.driver_level.load(Ordering::Relaxed))
    }

    fn set_driver(&self, level: f64) {
        self.driver_level.store(level.to_bits(), Ordering::Relaxed);
    }

    pub(super) fn level(&self) -> f64 {
        f64::from_bits(self.level.load(Ordering::Relaxed))
    }

    pub(super) fn set(&self, level: f64) {
        self.level.store(level.to_bits(), Ordering::Relaxed);
    }
}

impl Runner<'_> {
    /// How fast the device's timer ran against the host's clock since the last call (1 =
    /// at the rate `timestampPeriod` claims), where calibrated timestamps exist and at least
    /// 50 ms passed; the anchor moves on at each call that measures.
    pub(super) fn timer_rate(&self) -> Option<f64> {
        let now = self.gpu.calibrated()?;
        let mut anchor = self.timer_anchor.lock().ok()?;
        let Some(then) = *anchor else {
            *anchor = Some(now);
            return None;
        };
        let host = now.host_ns - then.host_ns;
        if host < 50e6 {
            return None;
        }
        *anchor = Some(now);
        let bits = self.gpu.timestamp_valid_bits;
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let ticks = now.device_ticks.wrapping_sub(then.device_ticks) & mask;
        let device = ticks as f64 * self.gpu.info.timestamp_period as f64;
        Some(device / host)
    }

    /// The probes' raw readings (subgroup-clock and real-time ticks, before and after), for
    /// the trace.
    pub(super) fn probe_raw(&self) -> Vec<(&'static str, String)> {
        let Some(p) = self.probe.as_ref().filter(|p| !p.pipelines.is_empty()) else {
            return Vec::new();
        };
        let (a, b) = (
            p.ticks(0).unwrap_or_default(),
            p.ticks(1).unwrap_or_default(),
        );
        vec![
            ("probe_ticks", format!("{},{}", a.0, b.0)),
            ("probe_realtime", format!("{},{}", a.1, b.1)),
            (
                "probe_iterations",
                p.iterations.load(Ordering::Relaxed).to_string(),
            ),
        ]
    }

    /// Applies a simulated clock to a batch's durations and clocks: at level l the clock reads
    /// l × the real one and every dispatch takes 1/l as long.
    pub(super) fn simulate(&self, times: &mut [f64], clocks: &mut [f64]) {
        let level = self.simulated.level();
        if level != 1.0 {
            times.iter_mut().for_each(|t| *t /= level);
            clocks.iter_mut().for_each(|c| *c *= level);
        }
    }

    /// `--fault throttle` (`driver-throttle`): runs `measure` at the low clock (the driver's
    /// low clock) where `test` is one of the stretch's (the clock is normal again outside
    /// them, e.g. for the drift check).
    pub(super) fn throttled<R>(
        &self,
        test: &perftest_suites::catalog::TestCase,
        measure: impl FnOnce() -> R,
    ) -> R {
        let fault = self.settings.fault;
        let hit = matches!(fault, Some(Fault::Throttle | Fault::DriverThrottle))
            && self
                .simulated
                .throttled
                .lock()
                .is_ok_and(|t| t.contains(test));
        if !hit {
            return measure();
        }
        let set = |level| match fault {
            Some(Fault::DriverThrottle) => self.simulated.set_driver(level),
            _ => self.simulated.set(level),
        };
        set(FAULT_LEVEL);
        let r = measure();
        set(1.0);
        r
    }

    /// Called once the pipelines are built: `--fault slow-start` drops the simulated clock to
    /// a third, as a GPU that idled through the build.
    pub(super) fn after_build(&self) {
        if self.settings.fault == Some(Fault::SlowStart) {
            self.simulated.set(FAULT_LEVEL);
            if let Ok(mut d) = self.simulated.dropped.lock() {
                *d = Some(Instant::now());
            }
        }
    }

    /// Called before the first timing of `test`, at run position `position` (1-based):
    /// `--fault idle-gap` idles the GPU first; `low-clock` drops the simulated clock until the
    /// next re-warm; `throttle` holds it low for every timing of the stretch's tests;
    /// `low-driver-clock` and `driver-throttle` do the same to the driver's clock, for the
    /// stretch's self-timed tests.
    pub(super) fn before_test(&self, test: &perftest_suites::catalog::TestCase, position: usize) {
        let in_stretch = FAULT_STRETCH.contains(&position);
        match self.settings.fault {
            Some(Fault::IdleGap)
                if position >= IDLE_GAP_FIRST
                    && (position - IDLE_GAP_FIRST).is_multiple_of(IDLE_GAP_EVERY) =>
            {
                std::thread::sleep(IDLE_GAP);
            }
            Some(Fault::LowClock) if in_stretch => self.simulated.set(FAULT_LEVEL),
            Some(Fault::LowDriverClock) if in_stretch && test.self_timed() => {
                self.simulated.set_driver(FAULT_LEVEL);
            }
            Some(Fault::Throttle) if in_stretch => {
                if let Ok(mut t) = self.simulated.throttled.lock() {
                    t.push(*test);
                }
            }
            Some(Fault::DriverThrottle) if in_stretch && test.self_timed() => {
                if let Ok(mut t) = self.simulated.throttled.lock() {
                    t.push(*test);
                }
            }
            _ => {}
        }
    }

    /// Sizes the probe so it takes about [`PROBE_TARGET_MS`] at the clock now, and measures
    /// its fixed cost: probes of n and 4n iterations differ by 3n iterations' ticks and time,
    /// which gives the clock; the rest of the shorter one's time is the fixed cost. The same
    /// difference of the real-time clock's ticks over the time gives that clock's rate.
    fn size_probe(&self, probe: &Probe<'_>) -> Result<()> {
        if probe.pipelines.is_empty() {
            return Ok(());
        }
        let run = |iterations: u32| -> Result<((u64, u64), f64)> {
            probe.iterations.store(iterations, Ordering::Relaxed);
            let ms = self.probe_alone()?;
            Ok((probe.ticks(0)?, ms))
        };
        let (_, ms) = run(20_000)?;
        let target = if probe.realtime {
            REALTIME_PROBE_TARGET_MS
        } else {
            PROBE_TARGET_MS
        };
        let n = ((20_000.0 * target / 4.0 / ms.max(1e-4)) as u32).clamp(1_000, 10_000_000);
        let (mut overheads, mut rates) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            let ((t1, r1), ms1) = run(n)?;
            let ((t4, r4), ms4) = run(4 * n)?;
            if t4 > t1 && ms4 > ms1 {
                let ticks_per_ms = (t4 - t1) as f64 / (ms4 - ms1);
                overheads.push((ms1 - t1 as f64 / ticks_per_ms).max(0.0));
                if r4 > r1 {
                    rates.push((r4 - r1) as f64 / (ms4 - ms1));
                }
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied().unwrap_or(0.0)
        };
        probe
            .overhead_ms
            .store(median(&mut overheads).to_bits(), Ordering::Relaxed);
        // The real-time clock runs at a fixed rate: measured once, at device open, over
        // probes of ~2 ms (long against its resolution, a µs on some GPUs).
        let known = f64::from_bits(probe.realtime_per_ms.load(Ordering::Relaxed)) > 0.0;
        if probe.realtime && !known {
            rates.clear();
            for _ in 0..3 {
                let ((_, r1), ms1) = run(n)?;
                let ((_, r40), ms40) = run(40 * n)?;
                if r40 > r1 && ms40 > ms1 {
                    rates.push((r40 - r1) as f64 / (ms40 - ms1));
                }
            }
            probe
                .realtime_per_ms
                .store(median(&mut rates).to_bits(), Ordering::Relaxed);
        }
        probe.iterations.store(4 * n, Ordering::Relaxed);
        Ok(())
    }

    /// One probe in a submission of its own; its timestamp duration in ms.
    fn probe_alone(&self) -> Result<f64> {
        Ok(self
            .submit_dispatches(None, 0, 0, true, None, false)?
            .probe_ms[0])
    }

    /// Keeps the GPU busy with the reference kernel in windows of about `window_ms`, each
    /// followed by a probe, calling `each(clock)` after each window until it returns true;
    /// returns the windows' clocks.
    fn busy_until(&self, window_ms: f64, mut done: impl FnMut(&[f64]) -> bool) -> Result<Vec<f64>> {
        let test = self.reference_test();
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        let (groups, per_dispatch) = self.warm_dispatch;
        let batch = ((window_ms / per_dispatch.max(1e-3)).ceil() as u32).clamp(1, 256);
        let mut windows = Vec::new();
        loop {
            let b = self.submit_dispatches(
                Some((&pipeline, &constants, groups)),
                0,
                batch,
                true,
                None,
                false,
            )?;
            if let Some(Fault::SlowStart) = self.settings.fault {
                // As an H100 after idling: flat at a third of its clock for 0.4 s of work (flat
                // for longer than the warm-up's minimum), then up within 0.1 s.
                let since = self.simulated.dropped.lock().ok().and_then(|d| *d);
                let ms = since.map_or(f64::INFINITY, |s| s.elapsed().as_secs_f64() * 1e3);
                self.simulated.set(match ms {
                    ms if ms < 400.0 => FAULT_LEVEL,
                    ms if ms < 500.0 => 0.7,
                    _ => 1.0,
                });
            }
            windows.push(b.clock().unwrap_or(f64::NAN));
            if done(&windows) {
                return Ok(windows);
            }
        }
    }

    /// The clock right after the device was opened (drivers raise it then), before the
    /// pipelines are built: the probe sized at that clock, and the median of three probes.
    pub(super) fn clock_at_open(&self) -> Result<Option<f64>> {
        let Some(probe) = &self.probe else {
            return Ok(None);
        };
        self.size_probe(probe)?;
        let mut clocks = (0..3)
            .map(|_| {
                let mut clock = [probe.mhz(0, self.probe_alone()?)?];
                self.simulate(&mut [], &mut clock);
                Ok(clock[0])
            })
            .collect::<Result<Vec<f64>>>()?;
        clocks.sort_by(f64::total_cmp);
        Ok(Some(clocks[1]).filter(|c| c.is_finite() && *c > 0.0))
    }

    /// Brings the clock up to its steady state: busy windows until [`settled`] at the clock
    /// seen at open (see [`warmup_done`]), at most [`MAX_WARMUP`]; then sizes the
    /// probe at that clock.
    pub(super) fn warm_to_steady(&self) -> Result<Warmup> {
        let Some(probe) = &self.probe else {
            return Ok(Warmup::default());
        };
        let start = Instant::now();
        let mut first = None;
        let mut last_settled = false;
        let open = self.open_mhz;
        let windows = self.busy_until(WINDOW_MS, |w| {
            first = first.or(w.first().copied());
            last_settled = settled(w);
            warmup_done(w, start.elapsed(), open)
        })?;
        // The probe was sized, and its fixed cost measured, at the clock of device open.
        // Where it reads the real-time clock, the fixed cost plays no part: the settled
        // windows give the steady clock, and the probe is sized again only if that is far
        // from the clock it was sized at. Otherwise the fixed cost is measured again at the
        // steady clock, and three more windows give the steady clock.
        let mut last: Vec<f64> = windows[windows.len().saturating_sub(SETTLED_WINDOWS)..].to_vec();
        let realtime = probe.realtime && probe.realtime_per_ms.load(Ordering::Relaxed) != 0;
        let sized_at = open.unwrap_or(f64::NAN);
        let median_of = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        // (Also where no clock at open is known: NaN is "near".)
        let far = (median_of(&mut last) / sized_at - 1.0).abs() > 0.2;
        let steady = if realtime && !far {
            median_of(&mut last)
        } else {
            self.size_probe(probe)?;
            let mut after = self.busy_until(WINDOW_MS, |w| w.len() >= SETTLED_WINDOWS)?;
            median_of(&mut after)
        };
        Ok(Warmup {
            ms: start.elapsed().as_secs_f64() * 1e3,
            steady_mhz: Some(steady).filter(|s| s.is_finite() && *s > 0.0),
            first_mhz: first.filter(|f| f.is_finite()),
            settled: last_settled && windows.len() >= SETTLED_WINDOWS,
            open_mhz: open,
        })
    }

    /// Keeps the GPU busy with the baseline, at the steady state rather than idle (an idle GPU
    /// drops its clock, and a CPU device parks its threads), for `pause`: the wait for another
    /// process or a passing spell to end. Returns the last clock seen (NaN without one).
    pub(super) fn hold(&self, pause: Duration) -> Result<f64> {
        let start = Instant::now();
        let windows = self.busy_until(REWARM_WINDOW_MS, |_| start.elapsed() >= pause)?;
        Ok(windows.last().copied().unwrap_or(f64::NAN))
    }

    /// Keeps the GPU busy until the clock is back at or below the ceiling over the steady
    /// clock, at most [`MAX_COOL_DOWN`]; returns the last clock seen.
    pub(super) fn cool_down(&self, steady: f64) -> Result<f64> {
        let start = Instant::now();
        let windows = self.busy_until(REWARM_WINDOW_MS, |w| {
            w.last().is_some_and(|c| !is_high(*c, steady)) || start.elapsed() >= MAX_COOL_DOWN
        })?;
        Ok(windows.last().copied().unwrap_or(f64::NAN))
    }

    /// Keeps the GPU busy until the clock is back within the floor of the steady clock, at
    /// most [`MAX_REWARM`]; returns the last clock seen.
    pub(super) fn rewarm(&self, steady: f64) -> Result<f64> {
        self.rewarm_until(steady, || true)
    }

    /// As [`Runner::rewarm`], also until `also` holds after a window.
    fn rewarm_until(&self, steady: f64, mut also: impl FnMut() -> bool) -> Result<f64> {
        match self.settings.fault {
            // The simulated low clock comes back once the GPU is kept busy.
            Some(Fault::LowClock | Fault::LowClockAtCheck) => self.simulated.set(1.0),
            Some(Fault::LowDriverClock) => self.simulated.set_driver(1.0),
            _ => {}
        }
        let start = Instant::now();
        let windows = self.busy_until(REWARM_WINDOW_MS, |w| {
            (w.last().is_some_and(|c| !is_low(*c, steady)) && also())
                || start.elapsed() >= MAX_REWARM
        })?;
        Ok(windows.last().copied().unwrap_or(f64::NAN))
    }

    /// Re-warms a GPU that had no work for [`IDLE_BEFORE_REWARM`] before a row is timed, where
    /// it has a shader clock to tell when the clock is back (a simulated clock does not idle):
    /// every row, self-timed or probed, then starts at the steady clock rather than at the
    /// clock a waiting GPU dropped to (one 10 ms window where it did not drop).
    pub(super) fn rewarm_after_idle(&self) -> Result<()> {
        let real = self.probe.as_ref().is_some_and(|p| !p.pipelines.is_empty());
        let (Some(steady), true) = (self.steady_mhz(), real) else {
            return Ok(());
        };
        let Some(idle) = self.gpu.flight().idle_for() else {
            return Ok(());
        };
        if idle >= IDLE_BEFORE_REWARM {
            let back = self.rewarm(steady)?;
            self.trace.line(
                "rewarm",
                &[
                    ("idle_ms", format!("{:.1}", idle.as_secs_f64() * 1e3)),
                    ("mhz", format!("{back:.1}")),
                ],
            );
        }
        Ok(())
    }

    /// One busy window of the baseline (about [`REWARM_WINDOW_MS`]) while this device waits for
    /// the node (see [`crate::node::NodeLock::acquire`]), where its GPU has a clock that idling
    /// drops and a steady clock to hold: its next row then starts at that clock, with no
    /// re-warm under the node's lock (on a 4×H200 node, 62 re-warms of 0.1–0.3 s each in one
    /// health profile, those of host tests while every other GPU waited). Returns whether it
    /// ran one; a window that fails is left to the next test to report.
    pub(super) fn keep_busy(&self) -> bool {
        let real = self.probe.as_ref().is_some_and(|p| !p.pipelines.is_empty());
        if !real || self.steady_mhz().is_none() {
            return false;
        }
        self.busy_until(REWARM_WINDOW_MS, |_| true).is_ok()
    }

    /// The driver's readings from now until [`Runner::finish_driver`]: the management
    /// interface's while work is in flight, a simulated driver's under a fault that simulates
    /// one, or none.
    pub(super) fn watch_driver(&self) -> DriverWatch {
        match &self.management {
            Ok(m) => DriverWatch::Real(m.watch(DRIVER_EVERY, self.gpu.flight())),
            Err(_) if is_driver_fault(self.settings.fault) => DriverWatch::Simulated,
            Err(_) => DriverWatch::None,
        }
    }

    /// The driver's clock last read by `watch`, MHz (NaN before its first reading).
    fn driver_latest(&self, watch: &DriverWatch) -> f64 {
        match watch {
            DriverWatch::Real(w) => w.latest().and_then(|r| r.sm_mhz).unwrap_or(f64::NAN),
            DriverWatch::Simulated => self.simulated.driver_mhz(),
            DriverWatch::None => f64::NAN,
        }
    }

    /// What the driver said while `watch` ran.
    pub(super) fn finish_driver(&self, watch: DriverWatch) -> Option<perftest_gpu::mgmt::Sampled> {
        match watch {
            DriverWatch::Real(w) => Some(w.finish()),
            DriverWatch::Simulated => Some(perftest_gpu::mgmt::Sampled {
                sm_mhz: Some(self.simulated.driver_mhz()),
                samples: 1,
                ..Default::default()
            }),
            DriverWatch::None => None,
        }
    }

    /// The driver's clock at the steady state, MHz: read while the GPU is kept busy at it for
    /// [`DRIVER_STEADY_HOLD`] (after the warm-up), where there is a steady clock and a driver
    /// to read. What a self-timed row's driver clock is held to: the driver's own scale (NVML
    /// reads 1980 MHz on an H100 whose probe reads 1994, or 2023 in a tensor-core spell).
    pub(super) fn driver_clock_at_steady(&self) -> Result<Option<f64>> {
        if self.steady_mhz().is_none() {
            return Ok(None);
        }
        let watch = self.watch_driver();
        if matches!(watch, DriverWatch::None) {
            return Ok(None);
        }
        self.hold(DRIVER_STEADY_HOLD)?;
        Ok(self
            .finish_driver(watch)
            .and_then(|s| s.sm_mhz)
            .filter(|c| c.is_finite() && *c > 0.0))
    }

    /// Re-warms the GPU for a row held to the driver's clock: until the probe's clock is back
    /// within the floor of `steady` and the driver, read while the GPU is kept busy, reads
    /// within the floor of `driver_steady` (at most [`MAX_REWARM`]); returns the driver's last
    /// clock (NaN where it gave none).
    pub(super) fn rewarm_driver(&self, steady: f64, driver_steady: f64) -> Result<f64> {
        let watch = self.watch_driver();
        let mut last = f64::NAN;
        self.rewarm_until(steady, || {
            last = self.driver_latest(&watch);
            !is_low(last, driver_steady)
        })?;
        // Stops its thread: what it read is in `last`.
        self.finish_driver(watch);
        Ok(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_still_rising_has_not_settled() {
        assert!(!settled(&[345.0, 345.0, 345.0, 900.0, 1980.0]));
        assert!(!settled(&[1980.0, 1980.0]));
        assert!(settled(&[345.0, 1975.0, 1980.0, 1979.0]));
        // A steady low clock followed by a rise: the low windows never count as settled.
        assert!(!settled(&[345.0, 345.0, 345.0, 1980.0]));
        // Windows more than 1 % below the best seen are not settled, even if equal to each other.
        assert!(!settled(&[1980.0, 1900.0, 1900.0, 1900.0]));
    }

    #[test]
    fn an_idle_clock_that_holds_still_is_not_taken_for_the_steady_one() {
        let ms = Duration::from_millis;
        // An H100 after idling: 345 MHz for the first ~0.3 s of work, 1980 at device open.
        let idle = [345.0; 12];
        assert!(!warmup_done(&idle, ms(300), Some(1980.0)));
        assert!(
            warmup_done(&idle, ms(300), None),
            "without the clock at open it would pass"
        );
        let risen = [345.0, 345.0, 345.0, 1975.0, 1981.0, 1980.0];
        assert!(warmup_done(&risen, ms(330), Some(1980.0)));
        // Settled at the clock seen at open: done at once; not so without it, before the
        // minimum.
        assert!(warmup_done(&[1980.0; 3], ms(75), Some(1980.0)));
        assert!(!warmup_done(&[1980.0; 2], ms(50), Some(1980.0)));
        assert!(!warmup_done(&[1980.0; 3], ms(75), None));
        assert!(warmup_done(&[1980.0; 8], ms(200), None));
        // Still rising towards it: not yet.
        assert!(!warmup_done(
            &[345.0, 900.0, 1975.0, 1980.0],
            ms(100),
            Some(1980.0)
        ));
        // A GPU that sustains less than it showed at open: accepted after waiting for it.
        assert!(warmup_done(&[1500.0; 60], ms(1600), Some(1980.0)));
        // Never settled: the cap.
        let swinging = [1000.0, 1980.0, 1000.0, 1980.0, 1000.0];
        assert!(!warmup_done(&swinging, ms(2000), Some(1980.0)));
        assert!(warmup_done(&swinging, ms(3000), Some(1980.0)));
    }

    #[test]
    fn the_ceiling_is_a_fraction_above_the_steady_clock() {
        assert!(!is_high(1978.0, 1978.0) && !is_high(2010.0, 1978.0));
        // The H100's spell after tensor-core work.
        assert!(is_high(2053.0, 1978.0) && is_high(2097.0, 1978.0));
        assert!(!is_high(f64::NAN, 1978.0));
    }

    #[test]
    fn the_floor_is_a_fraction_of_the_steady_clock() {
        assert!(!is_low(1980.0, 1980.0));
        assert!(!is_low(0.981 * 1980.0, 1980.0));
        assert!(is_low(0.979 * 1980.0, 1980.0));
        assert!(is_low(f64::NAN, 1980.0));
    }
}
