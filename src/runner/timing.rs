//! Work sizing, warm-up, the shader-clock calibration, and timing or verifying one test.

use super::{Fault, Mode, Runner, Stats};
use crate::catalog::{self, Suite, TestCase};
use crate::data;
use crate::kernels;
use crate::pipeline::{
    record_compute_barrier, record_invalid_barrier, Binding, Pipeline, PushConstants,
};
use crate::resources::record_fill;
use crate::timer::Timer;
use anyhow::Result;

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
/// A test whose samples vary more than this (CV, %) gets more samples, within its budget:
/// its median then moves less between runs.
const NOISY_CV_PCT: f64 = 0.5;
/// The most samples a noisy test gets.
const MAX_AUTO_SAMPLES: u32 = 200;
/// Dispatches per submission: ≤ 50 ms each, so a submission stays far below the 20 s
/// after which a submission counts as hung.
const DISPATCHES_PER_SUBMIT: u32 = 256;
/// GPU time spent on the baseline before the first test, to bring the clocks up.
const GLOBAL_WARMUP_MS: f64 = 200.0;
/// The global warm-up stops after this much GPU time even if timings still drift.
const MAX_WARMUP_MS: f64 = 1000.0;
/// Target duration of the clock-calibration kernel (long against launch overhead).
const CLOCK_TARGET_MS: f64 = 3.0;

/// What the per-device calibration decided.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Calibration {
    /// Workgroups per dispatch for every test (before any per-test watchdog cap).
    pub groups: u32,
    /// Whether `groups` was chosen by calibration (else by `--groups`).
    pub auto: bool,
    /// Estimated time of the baseline at [`FULL_GROUPS`], in ms.
    pub baseline_full_ms: f64,
    /// GPU time of the global warm-up, in ms.
    pub warmup_ms: f64,
    /// Shader clock in MHz measured with the subgroup clock, where the device has one.
    pub clock_mhz: Option<f64>,
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
        let mut times = Vec::with_capacity(samples as usize);
        let (mut warm_left, mut left) = (warmup, samples);
        loop {
            let warm = warm_left.min(DISPATCHES_PER_SUBMIT);
            let timed = left.min(DISPATCHES_PER_SUBMIT - warm);
            times.extend(self.submit_dispatches(pipeline, constants, groups, warm, timed)?);
            warm_left -= warm;
            left -= timed;
            if warm_left == 0 && left == 0 {
                return Ok(times);
            }
        }
    }

    /// One submission of `warmup` untimed and `samples` timed dispatches.
    fn submit_dispatches(
        &self,
        pipeline: &Pipeline<'g>,
        constants: &PushConstants,
        groups: u32,
        warmup: u32,
        samples: u32,
    ) -> Result<Vec<f64>> {
        let timer = if samples > 0 {
            Some(Timer::new(self.gpu, samples)?)
        } else {
            None
        };
        let fault = self.settings.fault;
        let clear_output = self.settings.mode == Mode::Verify && constants.write_index == 0;
        self.gpu.submit(|d, cmd| {
            if let Some(timer) = &timer {
                timer.record_reset(d, cmd);
            }
            if clear_output {
                // NaN everywhere, so a kernel that writes nothing cannot pass on stale sums.
                record_fill(d, cmd, &self.output, 0xFFFF_FFFF);
            }
            for _ in 0..warmup {
                pipeline.record_dispatch(d, cmd, constants, groups);
                record_compute_barrier(d, cmd);
            }
            for (i, timer) in (0..samples).filter_map(|i| timer.as_ref().map(|t| (i, t))) {
                timer.record_start(d, cmd, i);
                pipeline.record_dispatch(d, cmd, constants, groups);
                timer.record_end(d, cmd, i);
                record_compute_barrier(d, cmd);
            }
            if fault == Some(Fault::InvalidBarrier) {
                record_invalid_barrier(d, cmd);
            }
        })?;
        timer.map_or(Ok(Vec::new()), |t| t.read_ms())
    }

    /// Decides the dispatch size for this device and brings its clocks up.
    pub(super) fn calibrate(&self) -> Result<Calibration> {
        // The baseline is a mandatory format; the 1-D control kernel reads nothing at all.
        let baseline = catalog::baseline();
        let test = if self.unsupported_reason(&baseline).is_none() {
            baseline
        } else {
            catalog::suite(Suite::Control)[0]
        };
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        // Grow the dispatch until it takes long enough to time well.
        let mut g = self.probe_groups();
        let mut t;
        loop {
            let times = self.dispatches(&pipeline, &constants, g, 1, 3)?;
            t = times.iter().copied().fold(f64::INFINITY, f64::min);
            if t >= 1.0 || g >= FULL_GROUPS {
                break;
            }
            g = (g * 4).min(FULL_GROUPS);
        }
        let baseline_full_ms = t * FULL_GROUPS as f64 / g as f64;
        let (groups, auto) = match self.settings.groups {
            Some(groups) => (groups, false),
            None if baseline_full_ms <= FAST_DISPATCH_MS => (FULL_GROUPS, true),
            None => {
                let scaled =
                    (FULL_GROUPS as f64 * SLOW_DEVICE_BASELINE_MS / baseline_full_ms) as u32;
                (
                    scaled.clamp(self.probe_groups().min(FULL_GROUPS), FULL_GROUPS),
                    true,
                )
            }
        };
        // Global warm-up: keep the GPU busy long enough for its clocks to settle, in
        // dispatches that respect the watchdog budget.
        let per_dispatch = t * groups as f64 / g as f64;
        let warm_groups = if per_dispatch > MAX_DISPATCH_MS {
            ((groups as f64 * MAX_DISPATCH_MS / per_dispatch) as u32).max(1)
        } else {
            groups
        };
        let per_warm = per_dispatch.clamp(1e-3, MAX_DISPATCH_MS);
        // Batches of ~25 ms, timed: at least GLOBAL_WARMUP_MS, then until two batches in a
        // row agree within 0.2 % (clocks and caches settled), at most MAX_WARMUP_MS.
        let batch = ((25.0 / per_warm).ceil() as u32).clamp(2, DISPATCHES_PER_SUBMIT);
        let mut warm_ms = 0.0;
        let mut last: Option<f64> = None;
        loop {
            let times = self.dispatches(&pipeline, &constants, warm_groups, 0, batch)?;
            warm_ms += times.iter().sum::<f64>();
            let median = Stats::from_times(&times).map(|s| s.median_ms);
            let settled =
                matches!((last, median), (Some(a), Some(b)) if (b / a - 1.0).abs() < 0.002);
            if (warm_ms >= GLOBAL_WARMUP_MS && settled) || warm_ms >= MAX_WARMUP_MS {
                break;
            }
            last = median;
        }
        // The clock is extra information: a failure to measure it costs only the figure.
        let clock_mhz = self.measure_clock().unwrap_or_else(|e| {
            eprintln!("perftest: could not measure the shader clock: {e:#}");
            None
        });
        Ok(Calibration {
            groups,
            auto,
            baseline_full_ms,
            warmup_ms: warm_ms,
            clock_mhz,
        })
    }

    /// Shader clock in MHz: subgroup-clock ticks of a long dependent chain over the
    /// timestamp duration of the same dispatch (one workgroup per compute unit).
    fn measure_clock(&self) -> Result<Option<f64>> {
        // On a CPU device (lavapipe) the "subgroup clock" is not a shader-core clock, and a
        // figure per clock would be meaningless: leave it unknown rather than guess.
        if !self.gpu.info.features.shader_subgroup_clock
            || self.gpu.info.device_type == crate::gpu::DeviceType::Cpu
        {
            return Ok(None);
        }
        let kernel = kernels::named("clock_w1_uniform")?;
        let groups = self.probe_groups();
        let bindings = [(0, Binding::StorageBuffer(&self.output, groups as u64 * 8))];
        let pipeline = Pipeline::new(self.gpu, kernel.spirv, &bindings)?;
        let run = |iterations: u32| -> Result<(f64, u64)> {
            // The clock kernel's block mirrors the first two words of the common header.
            let constants = PushConstants {
                elements_mask: iterations,
                ..PushConstants::default()
            };
            let ms = self.dispatches(&pipeline, &constants, groups, 0, 1)?[0];
            let ticks = self.output.read_u32(groups as usize * 2)?;
            let max_ticks = ticks
                .chunks_exact(2)
                .map(|t| t[0] as u64 | (t[1] as u64) << 32)
                .max()
                .unwrap_or(0);
            Ok((ms, max_ticks))
        };
        let (ms, _) = run(10_000)?;
        let iterations =
            ((10_000.0 * CLOCK_TARGET_MS / ms.max(1e-3)) as u32).clamp(10_000, 50_000_000);
        let mut mhz: Vec<f64> = (0..3)
            .map(|_| run(iterations).map(|(ms, ticks)| ticks as f64 / (ms * 1e3)))
            .collect::<Result<_>>()?;
        mhz.sort_by(f64::total_cmp);
        Ok(Some(mhz[1]).filter(|m| m.is_finite() && *m > 0.0))
    }

    /// The dispatch size for `test`: the calibrated size, cut where a probe shows one dispatch
    /// would exceed [`MAX_DISPATCH_MS`]. Returns the groups, the estimated time of one
    /// dispatch of that size (ms), and a note when cut.
    pub(super) fn size_dispatch(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
    ) -> Result<(u32, f64, String)> {
        // A family may round the calibrated size (e.g. to whole waves of compute units); an
        // explicit --groups is run as given.
        let cal = self.calibration;
        let groups = if cal.auto {
            test.dispatch_groups(cal.groups, self.gpu.info.compute_units.map(|(n, _)| n))
                .clamp(1, cal.groups)
        } else {
            cal.groups
        };
        let probe = groups.min(self.probe_groups());
        let constants = self.constants(test, PushConstants::NO_WRITE);
        let t = self.dispatches(pipeline, &constants, probe, 0, 1)?[0];
        let estimate = t * groups as f64 / probe as f64;
        if estimate <= MAX_DISPATCH_MS {
            return Ok((groups, estimate, String::new()));
        }
        // Safety first: a cut may go below the device's fill, down to one group.
        let cut = ((groups as f64 * MAX_DISPATCH_MS / estimate) as u32).max(1);
        if cut >= groups {
            return Ok((groups, estimate, String::new()));
        }
        Ok((
            cut,
            estimate * cut as f64 / groups as f64,
            format!(
                "dispatch cut from {groups} to {cut} groups: {groups} would take about \
                 {estimate:.0} ms, over the {MAX_DISPATCH_MS:.0} ms watchdog budget"
            ),
        ))
    }

    /// Warms up, then times the test's dispatches; `estimate_ms` (from the probe) decides
    /// how many samples fit the per-test budget when `--samples` is not given.
    pub(super) fn time(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
        groups: u32,
        estimate_ms: f64,
    ) -> Result<Option<Stats>> {
        let s = self.settings;
        let constants = self.constants(test, PushConstants::NO_WRITE);
        let samples = s.samples.unwrap_or_else(|| {
            ((TEST_BUDGET_MS / estimate_ms.max(1e-6)) as u32)
                .saturating_sub(s.warmup)
                .clamp(MIN_AUTO_SAMPLES, DEFAULT_SAMPLES)
        });
        let mut times = self.dispatches(pipeline, &constants, groups, s.warmup, samples)?;
        if s.samples.is_none() {
            if let Some(st) = Stats::from_times(&times).filter(|st| st.cv_pct > NOISY_CV_PCT) {
                // The measured median, not the probe's estimate, sizes the extra samples.
                let fit = (TEST_BUDGET_MS / st.median_ms) as u32;
                let extra = fit.min(MAX_AUTO_SAMPLES).saturating_sub(samples);
                if extra > 0 {
                    times.extend(self.dispatches(pipeline, &constants, groups, 1, extra)?);
                }
            }
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
        let constants = self.constants(test, 0);
        self.dispatches(pipeline, &constants, groups, 1, 0)?;
        let output = self.output.read_vec4(groups as usize * 256)?;
        let reference = match self.settings.fault {
            Some(Fault::Reference) => {
                let mut corrupted = self.shared.data.clone();
                corrupted.iter_mut().step_by(7).for_each(|b| *b ^= 0x5A);
                test.reference_for(&corrupted, self.gpu.info.subgroup_size)
            }
            _ => test.reference_for(&self.shared.data, self.gpu.info.subgroup_size),
        };
        Ok(data::compare(test.tolerance(), &reference, &output))
    }
}
