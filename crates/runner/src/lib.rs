//! One device, many tests: builds the inputs once, then verifies or times each test.

use anyhow::{Context as _, Result};
use ash::vk;
use perftest_gpu::pipeline::{Binding, Pipeline, PushConstants};
use perftest_gpu::resources::{record_copy, Buffer, Memory};
use perftest_gpu::{Gpu, Instance};
use perftest_results::Note;
use perftest_suites::catalog::{Pattern, TestCase};
use perftest_suites::data;
use perftest_suites::families::{Bound, Shared, REGISTRY};
use std::collections::HashMap;

mod clock;
mod drift;
mod latency;
mod measurement;
pub mod node;
mod refine;
pub mod session;
mod timing;
mod trace;
pub use clock::{CLOCK_FLOOR, MAX_RETIMES};
pub use drift::Drift;
pub use latency::LATENCY_GROUP_SIZE;
pub use measurement::{
    Cause, Conditions, Fault, Measurement, Mode, Settings, Stats, Status, CLOCK_AGREEMENT_PCT,
};
pub use timing::{Calibration, MAX_DISPATCH_MS};
pub use trace::{begin_trace, process_line, trace_error, Phase, TimeSpent};

/// A pipeline built up front (borrowed) or just now (owned).
pub(crate) enum PipelineRef<'a, 'g> {
    Cached(&'a Pipeline<'g>),
    Built(Pipeline<'g>),
}

impl<'g> std::ops::Deref for PipelineRef<'_, 'g> {
    type Target = Pipeline<'g>;
    fn deref(&self) -> &Pipeline<'g> {
        match self {
            PipelineRef::Cached(p) => p,
            PipelineRef::Built(p) => p,
        }
    }
}

/// Whether `e` (or anything it wraps) is VK_ERROR_DEVICE_LOST.
pub fn is_device_lost(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| c.downcast_ref::<vk::Result>() == Some(&vk::Result::ERROR_DEVICE_LOST))
}

/// Everything the tests read, created once per device.
pub struct Runner<'g> {
    gpu: &'g Gpu<'g>,
    settings: Settings,
    /// The input and what every family reads it through.
    shared: Shared<'g>,
    /// Each family's resources, in registry order.
    bound: Vec<Box<dyn Bound<'g> + 'g>>,
    output: Buffer<'g>,
    /// What a cold test's dispatches fill before each one to empty the caches (made on first
    /// use), or why it could not be made.
    evict: std::sync::OnceLock<std::result::Result<Buffer<'g>, String>>,
    /// Dispatch size, clock and warm-up decided for this device.
    pub calibration: Calibration,
    /// Pipelines built up front, or why building one failed.
    pipelines: Pipelines<'g>,
    /// Whether an injected disturbance (`--fault drift`) is slowing timings down now.
    disturbed: std::sync::atomic::AtomicBool,
    /// The same for the tests' latency kernels.
    latency_pipelines: Pipelines<'g>,
    /// The clock probe, where the device has a shader clock (or one is simulated).
    probe: Option<clock::Probe<'g>>,
    /// The clock a simulated-clock fault imposes.
    simulated: clock::Simulated,
    /// The dispatch the warm-ups repeat: groups, and ms per dispatch.
    warm_dispatch: (u32, f64),
    /// Tests started so far in run order (re-times not counted).
    position: std::sync::atomic::AtomicUsize,
    /// The shader clock right after the device was opened, MHz.
    open_mhz: Option<f64>,
    /// Diagnostic lines (`PERFTEST_TRACE`).
    trace: trace::Trace,
    /// The device's timer and the host's clock at the last drift check, where calibrated
    /// timestamps exist: the timer's rate over the next interval is measured from it.
    timer_anchor: std::sync::Mutex<Option<perftest_gpu::Calibrated>>,
    /// The steady clock rows are held to, MHz (f64 bits; 0 = none): the warm-up's, raised
    /// where the GPU later holds a higher clock through the baseline itself.
    steady: std::sync::atomic::AtomicU64,
    /// The driver's clock at the steady state, MHz (f64 bits; 0 = none): what a self-timed
    /// row's driver clock is held to (see [`Runner::time_self_at_steady_clock`]).
    driver_steady: std::sync::atomic::AtomicU64,
    /// The driver's management interface for this device (NVML), or why there is none.
    pub management: std::result::Result<perftest_gpu::mgmt::Management, String>,
    /// The node's lock, where several devices run at once (see [`Runner::share_host`]).
    host: Option<std::sync::Arc<node::NodeLock>>,
    /// The drift check's reference as last taken (none before it, or without a check): a row
    /// held alone on the node whose samples spread beyond its limit is timed again inside its
    /// hold (see [`Runner::retimed_in_hold`]).
    drift_now: std::sync::Mutex<Option<Drift>>,
    /// Whether this device holds the node alone for a series of tests (see
    /// [`Runner::alone_series`]): its tests then take no hold of their own.
    in_alone_series: std::sync::atomic::AtomicBool,
    /// `PERFTEST_PAD_MB`'s device memory, held for the run (see [`Runner::new`]).
    _pad: Option<Buffer<'g>>,
}

/// Why `--groups groups` cannot run on `device`, if it cannot: the output buffer of the
/// largest dispatch (one vec4 per thread) must be bindable. Known from the device's limits
/// before it is opened, so the app refuses it up front (a usage error).
pub fn check_groups(
    groups: Option<u32>,
    device: &perftest_gpu::DeviceInfo,
) -> std::result::Result<(), String> {
    let max_groups = groups
        .unwrap_or(timing::FULL_GROUPS)
        .max(timing::FULL_GROUPS);
    let output_size = output_bytes(max_groups);
    let bindable = device.limits.max_storage_buffer_range as u64;
    if output_size > bindable {
        return Err(format!(
            "--groups {max_groups} needs a {output_size}-byte output buffer, more than {} can \
             bind (maxStorageBufferRange = {bindable}); use at most {} groups",
            device.name,
            bindable / 4096
        ));
    }
    Ok(())
}

/// The output buffer's bytes for dispatches of up to `max_groups` groups: a vec4 per thread,
/// and one more at the end, where a kernel writes the subgroup width it runs at
/// ([`Runner::kernel_subgroup_size`]).
fn output_bytes(max_groups: u32) -> u64 {
    (max_groups as u64 * 256 + 1) * 16
}

/// Tests run so far in this process (for fault injection).
static TESTS_RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl<'g> Runner<'g> {
    /// Uploads the input and lets every family create its views, images and samplers.
    /// Builds the pipelines of `tests` up front (so no driver compilation idles the GPU
    /// between timed tests and lets its clocks drop), then calibrates and warms up.
    // Long on purpose: the runner's one setup sequence, in the order it must run (input,
    // each family's resources, every pipeline, calibration, warm-up), each step's failure
    // said with its context.
    ///
    /// `host`, where several devices run at once, is the node's lock their runners share
    /// (see [`node::Hold`]): the device's setup is host work, its warm-up waits for the
    /// others' setups, and its tests that share the host (its memory, its link, its CPU: see
    /// [`TestCase::shares_host`]) hold the node as they must (the others' wait, or run only
    /// their GPU tests), so that a host row reads what the host gives one GPU, as in a
    /// single-GPU run: holding the host rows only apart from each other left two of 16 1-GB
    /// host-link rows 11–21 % low in a whole run of two H100s at once
    /// (results/h100x2/at-once-1126/). While it waits for the node, a device keeps its GPU
    /// busy ([`Runner::keep_busy`]).
    pub fn new(
        gpu: &'g Gpu<'g>,
        instance: &'g Instance,
        settings: Settings,
        tests: &[TestCase],
        host: Option<std::sync::Arc<node::NodeLock>>,
    ) -> Result<Self> {
        let trace = trace::Trace::from_env(gpu.info.index);
        trace.line("start", &[]);
        // Setting up is host work where several devices run at once (see `node::Hold`): never
        // while another device's host-link test or test alone runs.
        let lock = host.clone();
        let setup = lock
            .as_ref()
            .map(|l| l.acquire(node::Hold::HostWork, || false));
        // A diagnostic (docs/fleet.md): device memory taken first, so that every buffer after
        // it lies elsewhere; a row that moves with it moves with where its memory was placed.
        let pad = settings
            .pad_mb
            .map(|mb| {
                Buffer::new(
                    gpu,
                    "placement pad",
                    mb << 20,
                    vk::BufferUsageFlags::STORAGE_BUFFER,
                    Memory::DeviceLocal,
                )
                .with_context(|| format!("taking PERFTEST_PAD_MB={mb} of device memory"))
            })
            .transpose()?;
        let (output, shared, bound) = trace.span(Phase::Resources, || -> Result<_> {
            let output = Self::output_buffer(gpu, &settings)?;
            let shared = Self::upload_input(gpu, instance, &settings)?;
            let bound = REGISTRY
                .iter()
                .map(|family| family.bind(&shared))
                .collect::<Result<Vec<_>>>()?;
            Ok((output, shared, bound))
        })?;
        trace.line("phase", &[("done", "resources".into())]);
        trace
            .span(Phase::Upload, || {
                gpu.submit(|d, cmd| {
                    for b in &bound {
                        b.record_upload(&shared, d, cmd);
                    }
                })
            })
            .context("filling the views and images from the input")?;
        trace.line("phase", &[("done", "upload".into())]);
        let mut runner = Runner {
            gpu,
            settings,
            shared,
            bound,
            output,
            evict: std::sync::OnceLock::new(),
            calibration: Calibration::default(),
            pipelines: HashMap::new(),
            disturbed: false.into(),
            latency_pipelines: HashMap::new(),
            probe: clock::Probe::new(gpu, settings.fault)?,
            simulated: clock::Simulated::new(),
            warm_dispatch: (1, 1.0),
            position: 0.into(),
            open_mhz: None,
            trace,
            timer_anchor: std::sync::Mutex::new(None),
            steady: 0.into(),
            driver_steady: 0.into(),
            management: perftest_gpu::mgmt::Management::open(gpu.info),
            host,
            drift_now: std::sync::Mutex::new(None),
            in_alone_series: std::sync::atomic::AtomicBool::new(false),
            _pad: pad,
        };
        // Before the pipelines are built, which may idle the GPU for seconds: the clock the
        // driver raised when the device was opened is what the warm-up waits for.
        runner.open_mhz = runner
            .trace
            .span(Phase::WarmUp, || runner.clock_at_open())
            .context("probing the shader clock")?;
        // The reference kernel too: calibration and every drift check time it, and building it
        // between tests (when the baseline is not selected) would idle the GPU mid-run.
        let mut wanted = tests.to_vec();
        let reference = runner.reference_test();
        if !wanted.contains(&reference) {
            wanted.push(reference);
        }
        (runner.pipelines, runner.latency_pipelines) = runner
            .trace
            .span(Phase::Pipelines, || runner.build_pipelines(&wanted, tests));
        runner.trace.line("phase", &[("done", "pipelines".into())]);
        runner.after_build();
        // What the families' tests need throughout the run and is better made now, before
        // any device times (the host buffers of the copies: pinning them stalls every device
        // of the process): a failure costs only that, the tests make their own. After the
        // pipelines: a pin stalls the driver's calls of every device of the node for 0.6–1.1 s
        // (pipelines, allocations), and pinning first left four devices' setups waiting for
        // four pins in turn while they could have built their pipelines
        // (results/h200x4/node11-1128 against node10-1128).
        if let Err(e) = runner
            .trace
            .span(Phase::Prepare, || runner.prepare_run(tests))
        {
            runner.trace.line("prepare", &[("error", format!("{e:#}"))]);
        }
        runner.trace.line("phase", &[("done", "prepare".into())]);
        drop(setup);
        if let Some(lock) = &lock {
            runner.trace.span(Phase::HostWait, || lock.wait_quiet());
            runner.trace.line("phase", &[("done", "quiet".into())]);
        }
        let (warm, measured) = runner
            .trace
            .span(Phase::WarmUp, || runner.warm_dispatch())
            .context("timing the reference kernel")?;
        runner.trace.line("phase", &[("done", "warm-up".into())]);
        runner.warm_dispatch = warm;
        runner.calibration = runner
            .trace
            .span(Phase::WarmUp, || runner.calibrate(measured))
            .context("calibrating the dispatch size")?;
        runner
            .trace
            .line("phase", &[("done", "calibration".into())]);
        runner.set_steady(runner.calibration.clock_mhz.unwrap_or(0.0));
        if let Some(mhz) = runner
            .trace
            .span(Phase::WarmUp, || runner.driver_clock_at_steady())
            .context("reading the driver's clock at the steady state")?
        {
            runner
                .driver_steady
                .store(mhz.to_bits(), std::sync::atomic::Ordering::Relaxed);
            runner
                .trace
                .line("driver steady", &[("mhz", format!("{mhz:.1}"))]);
        }
        Ok(runner)
    }

    /// The 16 KB input in device-local memory, usable as every kind of buffer.
    fn upload_input(
        gpu: &'g Gpu<'g>,
        instance: &'g Instance,
        settings: &Settings,
    ) -> Result<Shared<'g>> {
        let data = data::input();
        let size = data.len() as u64;
        let mut usage = vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::TRANSFER_SRC;
        if gpu.info.features.buffer_device_address {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let input = Buffer::new(gpu, "input", size, usage, Memory::DeviceLocal)?;
        let address = if gpu.info.features.buffer_device_address {
            input.device_address()
        } else {
            0
        };
        let mut staging = Buffer::new(
            gpu,
            "staging",
            size,
            vk::BufferUsageFlags::TRANSFER_SRC,
            Memory::Upload,
        )?;
        staging.write(&data)?;
        gpu.submit(|d, cmd| record_copy(d, cmd, &staging, &input, size))
            .context("uploading the input data")?;
        Ok(Shared {
            gpu,
            instance,
            data,
            input,
            address,
            fault: settings.fault,
        })
    }

    /// Room for the largest dispatch any test may run (verify writes one vec4 per thread).
    fn output_buffer(gpu: &'g Gpu<'g>, settings: &Settings) -> Result<Buffer<'g>> {
        check_groups(settings.groups, gpu.info).map_err(anyhow::Error::msg)?;
        let max_groups = settings
            .groups
            .unwrap_or(timing::FULL_GROUPS)
            .max(timing::FULL_GROUPS);
        let output_size = output_bytes(max_groups);
        Buffer::new(
            gpu,
            "output",
            output_size,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            Memory::Readback,
        )
    }

    /// Where this device's run has spent its wall time so far, by phase.
    pub fn time_spent(&self) -> TimeSpent {
        self.trace.spent()
    }

    /// Why `test` cannot run on this device, if it cannot.
    pub fn unsupported_reason(&self, test: &TestCase) -> Option<String> {
        let f = &self.gpu.info.features;
        let subgroup = match test.pattern() {
            Pattern::UniformElected | Pattern::UniformWaveBroadcast if !f.subgroup_ballot => {
                Some("subgroup BASIC + BALLOT operations are not supported in compute shaders")
            }
            Pattern::UniformShuffle
                if !f.subgroup_shuffle || self.settings.fault == Some(Fault::NoSubgroupShuffle) =>
            {
                Some(
                "subgroup BASIC + BALLOT + SHUFFLE operations (GL_KHR_shader_subgroup_shuffle) \
                 are not supported in compute shaders",
                )
            }
            _ => None,
        };
        if let Some(reason) = subgroup {
            return Some(reason.into());
        }
        self.bound[test.family_index()].unsupported(&self.shared, test.index())
    }

    /// Runs the next test of the run order in the configured mode; failures become rows,
    /// never panics.
    pub fn run(&self, test: &TestCase) -> Measurement {
        let position = self
            .position
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        self.before_test(test, position);
        self.trace
            .line("test", &[("name", test.name().to_string())]);
        self.measure(test)
    }

    /// Each family's [`perftest_suites::families::Spec::prepare_run`] for its tests of `tests`
    /// (supported or not: each family skips what its device cannot run).
    fn prepare_run(&self, tests: &[TestCase]) -> Result<()> {
        let mut by_family: Vec<Vec<usize>> = vec![Vec::new(); self.bound.len()];
        for t in tests {
            by_family[t.family_index()].push(t.index());
        }
        for (family, indices) in self.bound.iter().zip(&by_family) {
            if !indices.is_empty() {
                family.prepare_run(&self.shared, indices)?;
            }
        }
        Ok(())
    }

    /// Whether the device runs beside others, sharing the node's lock.
    pub fn shares_node(&self) -> bool {
        self.host.is_some()
    }

    /// Whether `test` would wait for the node now, where several devices run at once: another
    /// device holds it in a way `test`'s hold excludes (see [`node::Hold`]).
    pub fn would_wait(&self, test: &TestCase) -> bool {
        self.host
            .as_ref()
            .is_some_and(|lock| test.shares_host() && lock.would_wait(hold_for(test)))
    }

    /// Whether `test` holds the node alone (where several devices run at once).
    pub fn holds_alone(&self, test: &TestCase) -> bool {
        self.shares_node() && hold_for(test) == node::Hold::Alone
    }

    /// Where several devices run at once and `tests` (the rest of a block) begin with two or
    /// more that hold the node alone: the node, taken alone once for all of them, until the
    /// series is dropped. Every hold alone makes the other devices drain their tests in flight
    /// and start none, each idle until the longest of them ends; a series pays that once, not
    /// once a test. `None` otherwise (or within a series): each test takes its own hold.
    pub fn alone_series<'r>(
        &'r self,
        tests: impl IntoIterator<Item = &'r TestCase>,
    ) -> Option<AloneSeries<'r>> {
        use std::sync::atomic::Ordering::Relaxed;
        let lock = self.host.as_ref()?;
        if self.in_alone_series.load(Relaxed) {
            return None;
        }
        let count = tests
            .into_iter()
            .take_while(|t| hold_for(t) == node::Hold::Alone)
            .count();
        if count < 2 {
            return None;
        }
        let waited = std::time::Instant::now();
        let held = lock.acquire(node::Hold::Alone, || self.keep_busy());
        self.trace.add(Phase::HostWait, waited.elapsed());
        self.trace
            .line("hold alone", &[("tests", count.to_string())]);
        self.in_alone_series.store(true, Relaxed);
        Some(AloneSeries {
            flag: &self.in_alone_series,
            _held: held,
        })
    }

    /// Whether `test`, where its samples spread beyond the drift check's limit, is timed again
    /// at once inside its hold rather than after its block's check: a timed row that holds
    /// the node alone while several devices run at once (not a chase: see
    /// [`drift::timed_again_for_spread`]).
    pub(crate) fn retimed_in_hold(&self, test: &TestCase) -> bool {
        self.shares_node()
            && self.settings.mode == Mode::Time
            && hold_for(test) == node::Hold::Alone
            && !test.is_chase()
    }

    /// Whether `m` is timed again for its samples' spread, by the drift check's rule (never
    /// before the check's reference is taken, nor without a check).
    fn spread_beyond_limit(&self, m: &Measurement) -> bool {
        let drift = *self.drift_now.lock().unwrap_or_else(|p| p.into_inner());
        drift.is_some_and(|d| drift::timed_again_for_spread(m, &d))
    }

    /// Runs (or runs again) one test in the configured mode.
    pub fn measure(&self, test: &TestCase) -> Measurement {
        // Within a series held alone, the node is this device's: its tests take no hold of
        // their own (every hold would wait for the series itself).
        let lock = self.host.as_ref().filter(|_| {
            !self
                .in_alone_series
                .load(std::sync::atomic::Ordering::Relaxed)
        });
        // A self-timed test's buffers are made before it waits for the node (a GB of device
        // memory; the host memory of the copies was pinned at setup, see `prepare_run`):
        // alongside the other devices' tests, never while another device's test alone runs.
        if test.self_timed() && self.settings.mode == Mode::Time {
            let _shared = lock.map(|lock| lock.acquire(node::Hold::Shared, || self.keep_busy()));
            if let Err(e) = self.trace.span(Phase::Prepare, || {
                self.bound[test.family_index()].prepare_self(&self.shared, test.index())
            }) {
                // Reported by the test itself, which makes its buffers again and fails.
                self.trace.line("prepare", &[("error", format!("{e:#}"))]);
            }
        }
        let waited = std::time::Instant::now();
        let hold = hold_for(test);
        let _held = lock.map(|lock| lock.acquire(hold, || self.keep_busy()));
        let fields = || {
            [
                ("name", test.name().to_string()),
                ("host", test.shares_host().to_string()),
                ("hold", hold_word(hold).to_string()),
            ]
        };
        self.trace.add(Phase::HostWait, waited.elapsed());
        self.trace.line("measure", &fields());
        let before = self.trace.on().then(|| self.trace.spent());
        let mut m = self.throttled(test, || self.measure_now(test));
        if self.retimed_in_hold(test) && self.spread_beyond_limit(&m) {
            // Timed again for its spread now, still alone: after the block's check it would
            // wait for every other device's tests to drain once more (183–256 ms a device on
            // two H200s, `results/h200x2/node5-1129`), the other GPUs starting nothing
            // meanwhile. Nothing of another device ran beside either timing.
            self.trace.line("again", &fields());
            let earlier =
                std::mem::replace(&mut m, self.throttled(test, || self.measure_now(test)));
            m.keep_clock_finding(&earlier);
        }
        let mut fields = fields().to_vec();
        if let Some(before) = before {
            // Where the row's time went, phase by phase (what took a millisecond or more).
            fields.extend(
                self.trace
                    .spent()
                    .since(&before)
                    .into_iter()
                    .filter(|&(_, s)| s >= 1e-3)
                    .map(|(p, s)| (p.name(), format!("{:.1}", s * 1e3))),
            );
        }
        self.trace.line("measured", &fields);
        m
    }

    fn measure_now(&self, test: &TestCase) -> Measurement {
        let mut m = Measurement {
            test: *test,
            probe_name: None,
            status: Status::Ok,
            stats: None,
            notes: Vec::new(),
            groups: self.calibration.groups,
            shader_stats: Vec::new(),
            device_lost: false,
            conditions: Conditions::Unchecked,
            clock_mhz: None,
            drift_pct: None,
            memory: self.bound[test.family_index()]
                .memory(&self.shared, test.index())
                .unwrap_or_default(),
            full_groups: 0,
            latency_clk: None,
            latency_ns: None,
            latency_spread_pct: None,
            subgroup_size: None,
            working_set_bytes: test.working_set(),
            driver: None,
        };
        if let Some(reason) = self.unsupported_reason(test) {
            m.groups = 0;
            m.status = Status::Unsupported;
            m.notes = vec![Note::Unsupported(reason)];
            return m;
        }
        if let Err(e) = self.run_supported(test, &mut m) {
            m.status = Status::Error;
            m.stats = None;
            m.notes = vec![Note::Error(format!("{e:#}"))];
            m.device_lost = is_device_lost(&e);
        }
        unsteady_note(&mut m);
        m
    }

    /// The subgroup width `test`'s kernel last wrote into the output buffer's last vec4, where
    /// its family says its kernels write one (`Spec::reports_subgroup_size`) and one did: the
    /// width its reference must replay.
    /// The width the device reports for its subgroups (twice it under `--fault
    /// subgroup-width`): the reference's width where a kernel does not say its own.
    pub(crate) fn device_subgroup_size(&self) -> u32 {
        match self.settings.fault {
            Some(Fault::SubgroupWidth) => 2 * self.gpu.info.subgroup_size,
            _ => self.gpu.info.subgroup_size,
        }
    }

    pub(crate) fn kernel_subgroup_size(&self, test: &TestCase) -> Result<Option<u32>> {
        if !test.reports_subgroup_size() {
            return Ok(None);
        }
        self.output_subgroup_size()
    }

    /// The subgroup width in the output buffer's last vec4, if a kernel wrote one there.
    pub(crate) fn output_subgroup_size(&self) -> Result<Option<u32>> {
        let last = (self.output.size / 16 - 1) as usize;
        let v = perftest_gpu::resources::vec4_at(self.output.mapped()?, last)[0];
        Ok((v.is_finite() && (1.0..=1024.0).contains(&v) && v.fract() == 0.0).then_some(v as u32))
    }

    fn run_supported(&self, test: &TestCase, m: &mut Measurement) -> Result<()> {
        // Counted over the whole process, so an injected fault hits one device only.
        let n = TESTS_RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        match self.settings.fault {
            Some(Fault::DeviceLost) if n == 2 => {
                return Err(anyhow::Error::new(vk::Result::ERROR_DEVICE_LOST))
                    .context("vkQueueSubmit (injected by --fault device-lost)")
            }
            Some(Fault::OutOfMemory) if n == 2 => {
                return Err(anyhow::Error::new(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY))
                    .context("allocating the pipeline (injected by --fault out-of-memory)")
            }
            _ => {}
        }
        if self.settings.mode == Mode::Time {
            self.trace
                .span(Phase::Rewarm, || self.rewarm_after_idle())
                .context("re-warming the GPU after it idled")?;
        }
        if test.self_timed() {
            return self.run_self_timed(test, m);
        }
        let pipeline = self.pipeline_for(test)?;
        let pipeline = &*pipeline;
        m.shader_stats = pipeline.statistics.clone();
        m.full_groups = self.full_groups(test);
        let note = self.bound[test.family_index()].device_note(&self.shared, test.index());
        match self.settings.mode {
            Mode::Time => {
                self.time_at_steady_clock(test, pipeline, m)?;
                m.subgroup_size = self.kernel_subgroup_size(test)?;
                driver_notes(m);
                self.link_note(test, m);
                // The latency is extra information: its failure costs only the figure (and a
                // note), unless the device is gone.
                match self.trace.span(Phase::Latency, || self.latency(test)) {
                    Ok(Some(latency::Figure::Clk { clk, spread })) => {
                        m.latency_clk = Some(clk);
                        m.latency_ns = m.clock_mhz.map(|mhz| clk / mhz * 1000.0);
                        m.latency_spread_pct = spread;
                    }
                    Ok(Some(latency::Figure::Ns { ns, spread })) => {
                        m.latency_ns = Some(ns);
                        m.latency_spread_pct = spread;
                    }
                    Ok(None) => {}
                    Err(e) if is_device_lost(&e) => return Err(e),
                    Err(e) => m.notes.push(Note::LatencyNotMeasured(format!("{e:#}"))),
                }
            }
            Mode::Verify => {
                let timing::Sizing { groups, note, .. } = self
                    .trace
                    .span(Phase::Probes, || self.size_dispatch(test, pipeline))?;
                self.trace.line("phase", &[("done", "sizing".into())]);
                (m.groups, m.notes) = (groups, note.into_iter().collect());
                let verified = self
                    .trace
                    .span(Phase::Verify, || self.verify(test, pipeline, groups))?;
                m.subgroup_size = self.kernel_subgroup_size(test)?;
                if let Err(mismatch) = verified {
                    m.status = Status::Mismatch;
                    m.notes = vec![Note::Mismatch(mismatch.to_string())];
                } else if let Err(mismatch) = self.verify_latency(test)? {
                    m.status = Status::Mismatch;
                    m.notes = vec![Note::Mismatch(mismatch)];
                }
            }
        }
        if let Some(note) = note.filter(|_| m.status == Status::Ok) {
            m.notes.push(Note::Family(note));
        }
        let cal = &self.calibration;
        if !cal.auto && m.status == Status::Ok && m.full_groups != cal.groups {
            m.notes.push(Note::ForcedGroups {
                groups: m.full_groups,
            });
        }
        Ok(())
    }

    /// A test whose family records and times its own commands (a copy, a fill, empty
    /// dispatches): no kernel, no dispatch sizing and no clock probe; its count is its own.
    fn run_self_timed(&self, test: &TestCase, m: &mut Measurement) -> Result<()> {
        let compute_units = self.gpu.info.compute_units.map(|(n, _)| n);
        m.groups = test.dispatch_groups(self.calibration.groups, compute_units);
        m.full_groups = m.groups;
        match self.settings.mode {
            Mode::Time => {
                self.trace
                    .span(Phase::SelfTimed, || self.time_self_at_steady_clock(test, m))?;
                driver_notes(m);
                self.link_note(test, m);
                if m.stats.is_none() {
                    m.status = Status::Error;
                    m.notes = vec![Note::NoDuration];
                }
            }
            Mode::Verify => {
                let family = &self.bound[test.family_index()];
                let checked = self.trace.span(Phase::Verify, || {
                    family.verify_self(&self.shared, test.index())
                })?;
                if let Err(mismatch) = checked {
                    m.status = Status::Mismatch;
                    m.notes = vec![Note::Mismatch(mismatch.to_string())];
                }
            }
        }
        if let Some(note) = self.bound[test.family_index()]
            .device_note(&self.shared, test.index())
            .filter(|_| m.status == Status::Ok)
        {
            m.notes.push(Note::Family(note));
        }
        Ok(())
    }

    /// Sizes and times `test`, and where its clock was off the steady clock, does both again
    /// once the clock is back, up to [`MAX_RETIMES`] times: the row is then re-measured, or
    /// throttled when its clock stayed low. Below the floor, the clock is brought back (after
    /// a recovery pause from the second time on); a test during which the clock falls although
    /// it came back between tries twice is drawing the power itself, and is not tried further.
    /// Above the ceiling (a spell faster than the steady state), the GPU is kept busy until
    /// the clock comes down; a test during which it rises again twice raises it itself: its
    /// row is kept at the clock it ran at, and says so.
    // Long on purpose: one retry loop whose counters (first off, fell, rose, came down)
    // every branch reads and updates.
    fn time_at_steady_clock(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
        m: &mut Measurement,
    ) -> Result<()> {
        let mut first_off = None;
        let mut fell_while_running = 0;
        let mut rose_while_running = 0;
        let mut came_down = false;
        for tries in 0.. {
            let timing::Sizing {
                groups,
                estimate_ms,
                note,
            } = self
                .trace
                .span(Phase::Probes, || self.size_dispatch(test, pipeline))?;
            // The driver's own readings while the row's work runs, every 10 ms.
            let watch = self.watch_driver();
            let timed = self.trace.span(Phase::Samples, || {
                self.time(test, pipeline, groups, estimate_ms)
            });
            m.driver = self.finish_driver(watch);
            let (stats, clocks) = timed?;
            let steady = self.steady_mhz();
            (m.groups, m.notes, m.stats) = (groups, note.into_iter().collect(), stats);
            if let Some(cold) = test.cold().then(|| self.cold_note()).flatten() {
                m.notes.push(cold);
            }
            m.clock_mhz = timing::mean(&clocks.row());
            if let (Some(own), Some(probes)) = (m.clock_mhz, timing::mean(&clocks.probes)) {
                if !clocks.kernel.is_empty() {
                    m.notes.push(Note::KernelClock {
                        mhz: own,
                        groups: clocks.kernel.iter().map(|k| k.groups).sum(),
                        batches: clocks.kernel.len() as u32,
                        probe_mhz: probes,
                    });
                }
            }
            if m.stats.is_none() {
                m.status = Status::Error;
                m.notes = vec![Note::NoDuration];
                return Ok(());
            }
            // The probes say whether the GPU was at its steady state around the dispatches
            // (the floor and ceiling): a kernel that reads its own clock reads what its work
            // runs at, which may be below the steady clock by its own doing (tensor-core
            // work on an H100: 1815–1831 MHz between probes at 1979–2025).
            let (Some(steady), Some(clock)) = (steady, timing::mean(&clocks.probes)) else {
                return Ok(());
            };
            let ceiling_pct = 100.0 * clock::CLOCK_CEILING;
            let (low, high) = (clock::is_low(clock, steady), clock::is_high(clock, steady));
            if !low && !high {
                if let Some((off, was_high)) = first_off {
                    retimed(m, tries, off, was_high, steady);
                }
                return Ok(());
            }
            first_off.get_or_insert((clock, high));
            if high {
                if came_down {
                    rose_while_running += 1;
                }
                if tries == clock::MAX_RETIMES || rose_while_running >= 2 {
                    m.notes.push(Note::KeptHigh {
                        mhz: clock,
                        limit_pct: ceiling_pct,
                        steady_mhz: steady,
                        tries: tries + 1,
                        own_load: rose_while_running >= 2,
                    });
                    return Ok(());
                }
                let back = self.cool_down(steady)?;
                came_down = !clock::is_high(back, steady);
                if !came_down && back.is_finite() {
                    // Held through the baseline itself: no spell, the clock the GPU sustains
                    // (the warm-up settled below it). Every row is held to it from here on.
                    self.set_steady(back);
                    m.notes.push(Note::SteadyRaised {
                        mhz: back,
                        held_s: clock::MAX_COOL_DOWN.as_secs_f64(),
                        limit_pct: ceiling_pct,
                        steady_mhz: steady,
                    });
                }
                continue;
            }
            if tries == clock::MAX_RETIMES || fell_while_running >= 2 {
                throttled(m, clock, steady, tries, fell_while_running >= 2);
                return Ok(());
            }
            if tries >= 1 {
                std::thread::sleep(clock::RECOVERY_PAUSE);
            }
            let back = self.rewarm(steady)?;
            if tries >= 1 && !clock::is_low(back, steady) {
                fell_while_running += 1;
            }
        }
        unreachable!("the loop returns")
    }

    /// Times a self-timed test (no shader-clock probe: its clock is the driver's, read while
    /// its work runs) and, where that clock was below the floor of the driver's steady clock,
    /// times it again once the GPU is re-warmed (the probe's clock and the driver's back), up
    /// to [`MAX_RETIMES`] times, as [`Runner::time_at_steady_clock`] does below the floor: the
    /// row is then re-measured, or throttled when the clock stayed low; a test during which
    /// the clock falls although it came back between tries twice is drawing the power itself.
    /// Without a driver's clock, a steady one or a shader clock to re-warm by, it is timed once.
    fn time_self_at_steady_clock(&self, test: &TestCase, m: &mut Measurement) -> Result<()> {
        let mut first_low = None;
        let mut fell_while_running = 0;
        for tries in 0.. {
            let watch = self.watch_driver();
            let timed = self.time_self(test);
            m.driver = self.finish_driver(watch);
            m.stats = timed?;
            let (Some(steady), Some(probe_steady), Some(clock), Some(_)) = (
                self.driver_steady_mhz(),
                self.steady_mhz(),
                m.driver.and_then(|d| d.sm_mhz),
                m.stats,
            ) else {
                return Ok(());
            };
            if !clock::is_low(clock, steady) {
                if let Some(first) = first_low {
                    retimed(m, tries, first, false, steady);
                }
                return Ok(());
            }
            first_low.get_or_insert(clock);
            if tries == clock::MAX_RETIMES || fell_while_running >= 2 {
                throttled(m, clock, steady, tries, fell_while_running >= 2);
                return Ok(());
            }
            if tries >= 1 {
                std::thread::sleep(clock::RECOVERY_PAUSE);
            }
            let back = self.rewarm_driver(probe_steady, steady)?;
            if tries >= 1 && !clock::is_low(back, steady) {
                fell_while_running += 1;
            }
        }
        unreachable!("the loop returns")
    }

    /// The driver's clock at the steady state, MHz, where there is one.
    fn driver_steady_mhz(&self) -> Option<f64> {
        let bits = self
            .driver_steady
            .load(std::sync::atomic::Ordering::Relaxed);
        Some(f64::from_bits(bits)).filter(|s| *s > 0.0)
    }

    /// The steady clock every row is held to, MHz: the warm-up's, or higher where the GPU
    /// later held a higher clock through the baseline (see [`Runner::time_at_steady_clock`]).
    pub fn steady_mhz(&self) -> Option<f64> {
        let s = f64::from_bits(self.steady.load(std::sync::atomic::Ordering::Relaxed));
        Some(s).filter(|s| *s > 0.0)
    }

    fn set_steady(&self, mhz: f64) {
        self.steady
            .store(mhz.to_bits(), std::sync::atomic::Ordering::Relaxed);
    }

    /// The test's pipeline: the one built up front, else built now.
    /// A timed row whose bytes cross the host link, and that moved more than the device's
    /// PCIe link carries (where its management interface gives the link), says so: a copy of
    /// host memory the GPU's caches already hold (a second run of a 16 MB host copy read
    /// 385 GB/s on the H100, six times its link) is no figure of the link.
    fn link_note(&self, test: &TestCase, m: &mut Measurement) {
        if !test.over_host_link() || m.status != Status::Ok {
            return;
        }
        let (Some(gbytes_per_s), Some(link)) = (
            m.gbytes_per_s(),
            self.management.as_ref().ok().and_then(|g| g.link()),
        ) else {
            return;
        };
        if let Some(note) = faster_than_link(gbytes_per_s, link) {
            m.notes.push(note);
        }
    }

    pub(crate) fn pipeline_for(&self, test: &TestCase) -> Result<PipelineRef<'_, 'g>> {
        match self.pipelines.get(test) {
            Some(Ok(p)) => Ok(PipelineRef::Cached(p)),
            Some(Err(e)) => anyhow::bail!("{e}"),
            None => Ok(PipelineRef::Built(self.pipeline(test)?)),
        }
    }

    /// Builds the pipelines of the supported `tests` (and the reference's, in `wanted`) and
    /// their latency kernels' on several threads, one pool for both (creating pipelines and
    /// descriptor sets of different objects is thread-safe in Vulkan): the latency kernels
    /// first, since one of them took 1.4 s to compile on an H200 whose driver cache was cold
    /// and, built after the others, alone (`results/h200/speed4-1128`). The families'
    /// resources are made first, in the tests' order, as they are asked whether they run, and
    /// every one before any pipeline: where a buffer lies moves its figure (building the
    /// pipelines while the resources after them were made moved the small store rows ±25–43 %
    /// and the 28 MB load-to-use chase +28 % on one H200, `results/h200/ab-1128`).
    fn build_pipelines(
        &self,
        wanted: &[TestCase],
        tests: &[TestCase],
    ) -> (Pipelines<'g>, Pipelines<'g>) {
        let kernels: Vec<TestCase> = wanted
            .iter()
            .filter(|t| !t.self_timed() && self.supported_now(t))
            .copied()
            .collect();
        let jobs: Vec<(Kernel, TestCase)> = self
            .latency_tests(tests)
            .into_iter()
            .map(|t| (Kernel::Latency, t))
            .chain(kernels.into_iter().map(|t| (Kernel::Own, t)))
            .collect();
        let built = self.build_parallel(&jobs, |&(kernel, t)| {
            let started = std::time::Instant::now();
            let built = match kernel {
                Kernel::Own => self.pipeline(&t),
                Kernel::Latency => self.latency_pipeline_now(&t),
            }
            .map_err(|e| format!("{e:#}"));
            if self.trace.on() {
                let ms = started.elapsed().as_secs_f64() * 1e3;
                let what = match kernel {
                    Kernel::Own => "pipeline",
                    Kernel::Latency => "latency pipeline",
                };
                self.trace.line(
                    what,
                    &[("name", t.name().to_string()), ("ms", format!("{ms:.1}"))],
                );
            }
            (kernel, t, built)
        });
        let (mut own, mut latency) = (HashMap::new(), HashMap::new());
        for (kernel, t, built) in built {
            match kernel {
                Kernel::Own => own.insert(t, built),
                Kernel::Latency => latency.insert(t, built),
            };
        }
        (own, latency)
    }

    /// Whether `test` is supported here, asked of its family, which makes the resources it
    /// needs on first use (a trace line where that took a millisecond or more).
    fn supported_now(&self, test: &TestCase) -> bool {
        let started = std::time::Instant::now();
        let supported = self.unsupported_reason(test).is_none();
        let ms = started.elapsed().as_secs_f64() * 1e3;
        if self.trace.on() && ms >= 1.0 {
            self.trace.line(
                "resources",
                &[
                    ("name", test.name().to_string()),
                    ("ms", format!("{ms:.1}")),
                ],
            );
        }
        supported
    }

    /// `build` applied to every item of `todo`, on up to 16 threads, in `todo`'s order. Each
    /// thread takes the next item when it is done with its last: a few pipelines (the matrix
    /// kernels) take far longer to compile than the rest, and fixed chunks left the thread
    /// that drew them compiling alone.
    fn build_parallel<T: Sync, R: Send>(
        &self,
        todo: &[T],
        build: impl Fn(&T) -> R + Sync,
    ) -> Vec<R> {
        perftest_suites::data::par_map_on(16, todo, build)
    }

    /// Whether `test` runs its clock kernel here (see [`perftest_suites::families::Spec::clock_kernel`]):
    /// where it has one and the device's shaders read a real-time clock.
    pub(crate) fn reads_kernel_clock(&self, test: &TestCase) -> bool {
        test.clock_kernel().is_some() && self.probe.as_ref().is_some_and(|p| p.reads_realtime())
    }

    pub(crate) fn pipeline(&self, test: &TestCase) -> Result<Pipeline<'g>> {
        let kernel = match test.clock_kernel() {
            Some(id) if self.reads_kernel_clock(test) => id,
            _ => test.kernel(),
        }
        .kernel();
        let mut bindings = self.bound[test.family_index()].bindings(&self.shared, test.index());
        bindings.push((2, Binding::StorageBuffer(&self.output, self.output.size)));
        Pipeline::new(self.gpu, kernel.spirv, &bindings)
            .with_context(|| format!("building the pipeline for {}", test.name()))
    }

    pub(crate) fn constants(&self, test: &TestCase, write_index: u32) -> PushConstants {
        let mut array = [0u8; 96];
        array.copy_from_slice(&self.shared.data[..96]);
        PushConstants {
            elements_mask: 0,
            write_index,
            read_start: test.read_start(),
            address: self.shared.address,
            array,
        }
    }
}

/// Marks `m` re-measured for its clock: its try `tries` (0-based) was at the steady clock,
/// its first at `first_mhz`, above the ceiling over `steady` or below its floor.
fn retimed(m: &mut Measurement, tries: u32, first_mhz: f64, above: bool, steady: f64) {
    m.conditions = Conditions::Remeasured(Cause::Clock);
    m.notes.push(Note::ClockRetimed {
        times: tries + 1,
        first_mhz,
        above,
        limit_pct: 100.0
            * if above {
                clock::CLOCK_CEILING
            } else {
                clock::CLOCK_FLOOR
            },
        steady_mhz: steady,
    });
}

/// Flags `m` throttled: its try `tries` (0-based) was still at `mhz`, below the floor of
/// `steady`; `own_limit` where the clock fell while it ran although it came back between tries.
fn throttled(m: &mut Measurement, mhz: f64, steady: f64, tries: u32, own_limit: bool) {
    m.conditions = Conditions::Throttled;
    m.notes.push(Note::Throttled {
        mhz,
        floor_pct: 100.0 * clock::CLOCK_FLOOR,
        steady_mhz: steady,
        tries: tries + 1,
        own_limit,
        driver_reasons: None,
    });
}

/// [`Note::FasterThanLink`] where a row crossing the host link moved `gbytes_per_s`, more
/// than `link` carries one way.
fn faster_than_link(gbytes_per_s: f64, link: perftest_gpu::mgmt::Link) -> Option<Note> {
    let link_gbytes_per_s = link.gbytes_per_s();
    (gbytes_per_s > link_gbytes_per_s).then_some(Note::FasterThanLink {
        gbytes_per_s,
        link_gbytes_per_s,
        gt_per_s: link.gt_per_s,
        width: link.width,
    })
}

/// The driver's word beside the probe's: a probe clock more than
/// [`CLOCK_AGREEMENT_PCT`](measurement::CLOCK_AGREEMENT_PCT) off the driver's says so, and the
/// reasons the driver gave for holding the clock down (power cap, thermal slowdown…) are
/// named: in a throttled row's flag, else as a note.
fn driver_notes(m: &mut Measurement) {
    use perftest_gpu::mgmt::THROTTLE;
    let Some(driver) = m.driver else { return };
    if let (Some(off), Some(probe), Some(sm)) =
        (m.probe_vs_driver_pct(), m.probe_mhz(), driver.sm_mhz)
    {
        if off.abs() > measurement::CLOCK_AGREEMENT_PCT {
            m.notes.push(Note::ProbeOffDriver {
                probe_mhz: probe,
                off_pct: off,
                driver_mhz: sm,
            });
        }
    }
    if let Some(bits) = driver.reasons.map(|b| b & THROTTLE).filter(|b| *b != 0) {
        let names = perftest_results::ClockEvents::from_nvml(bits).to_string();
        let flag = m.notes.iter_mut().find_map(|n| match n {
            Note::Throttled { driver_reasons, .. } => Some(driver_reasons),
            _ => None,
        });
        match flag {
            Some(driver_reasons) if m.conditions == Conditions::Throttled => {
                *driver_reasons = Some(names);
            }
            _ => m.notes.push(Note::DriverReasons { names }),
        }
    }
}

/// A bandwidth-suite row whose samples spread more than this (CV, %) says so: on the H100
/// 2 to 5 of its rows a run (results/h100/whole-run-1126/cold/, final/), the host round trip,
/// which moves most between runs, among them. (A row can also move between runs with steady
/// samples: the chunked host reads, whose rows say so themselves.)
pub const UNSTEADY_CV_PCT: f64 = 2.0;

/// The node held alone by one device for a series of its tests (see
/// [`Runner::alone_series`]); given back when dropped.
pub struct AloneSeries<'r> {
    flag: &'r std::sync::atomic::AtomicBool,
    _held: node::NodeGuard<'r>,
}

impl Drop for AloneSeries<'_> {
    fn drop(&mut self) {
        // The device's own flag, before the hold itself is given back (the field's drop).
        self.flag.store(false, std::sync::atomic::Ordering::Relaxed);
    }
}

/// How `test` holds the node where several devices run at once: a test over the host link
/// beside the other devices' GPU tests, another that shares the host (the CPU's submissions
/// timed with it) alone, every other test shared.
fn hold_for(test: &TestCase) -> node::Hold {
    match (test.shares_host(), test.over_host_link()) {
        (true, true) => node::Hold::Link,
        (true, false) => node::Hold::Alone,
        (false, _) => node::Hold::Shared,
    }
}

/// The trace's word for `hold`.
fn hold_word(hold: node::Hold) -> &'static str {
    match hold {
        node::Hold::Alone => "alone",
        node::Hold::Link => "link",
        node::Hold::HostWork => "host work",
        node::Hold::Shared => "shared",
    }
}

/// Which of a test's kernels a pipeline runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    /// The test's own.
    Own,
    /// Its latency kernel (see `latency.rs`).
    Latency,
}

/// Pipelines built ahead, by test: each the pipeline or why it could not be built.
type Pipelines<'g> = HashMap<TestCase, std::result::Result<Pipeline<'g>, String>>;

/// Notes on a timed bandwidth-suite row whose samples spread more than [`UNSTEADY_CV_PCT`]
/// how far apart a reader should expect two runs' figures to be.
fn unsteady_note(m: &mut Measurement) {
    let Some(stats) = m.stats.filter(|_| m.status == Status::Ok) else {
        return;
    };
    if m.test.suite() == perftest_suites::catalog::Suite::Bandwidth
        && stats.cv_pct > UNSTEADY_CV_PCT
    {
        m.notes.push(Note::Unsteady {
            cv_pct: stats.cv_pct,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_gpu::mgmt::Sampled;

    fn row(
        probe: f64,
        driver: f64,
        reasons: u64,
        conditions: Conditions,
        notes: &[Note],
    ) -> Measurement {
        let mut m = Measurement::not_run(
            perftest_suites::catalog::baseline(),
            Status::Ok,
            notes.to_vec(),
        );
        m.clock_mhz = Some(probe);
        m.conditions = conditions;
        m.driver = Some(Sampled {
            sm_mhz: Some(driver),
            reasons: Some(reasons),
            samples: 3,
            ..Sampled::default()
        });
        m
    }

    #[test]
    fn a_bandwidth_row_whose_samples_spread_says_so() {
        let bandwidth =
            perftest_suites::catalog::suite(perftest_suites::catalog::Suite::Bandwidth)[0];
        let at = |test: TestCase, times: &[f64]| {
            let mut m = Measurement::not_run(test, Status::Ok, Vec::new());
            m.stats = Stats::from_times(times);
            unsteady_note(&mut m);
            perftest_results::note::words(&m.notes)
        };
        // CV 8.2 % (sample standard deviation): said, with the spread.
        let spread = [1.0, 1.1, 0.9, 1.0];
        assert!(
            at(bandwidth, &spread).starts_with("unsteady: its samples spread 8.2 % (cv_pct)"),
            "{}",
            at(bandwidth, &spread)
        );
        // Within 2 %, or a row of another suite: nothing.
        assert_eq!(at(bandwidth, &[1.0, 1.01, 0.99, 1.0]), "");
        assert_eq!(at(perftest_suites::catalog::baseline(), &spread), "");
    }

    #[test]
    fn a_host_link_row_faster_than_the_link_says_so() {
        let link = perftest_gpu::mgmt::Link::of_generation(5, 16).unwrap();
        // The H100's 1 GB host copy (52.5 GB/s) fits its link; a 16 MB one served from the
        // L2 (385 GB/s) does not.
        assert_eq!(faster_than_link(52.5, link), None);
        let Some(Note::FasterThanLink {
            gbytes_per_s,
            link_gbytes_per_s,
            width,
            ..
        }) = faster_than_link(385.0, link)
        else {
            panic!("no note at 385 GB/s");
        };
        assert_eq!((gbytes_per_s, width), (385.0, 16));
        assert!((link_gbytes_per_s - 63.015).abs() < 0.01);
    }

    #[test]
    fn the_drivers_word_is_beside_the_probes() {
        use perftest_results::note::words;
        // Within 2 %: nothing said; the idle bit is no reason a busy GPU is slow.
        let mut m = row(2008.0, 1980.0, 0x1, Conditions::Steady, &[]);
        driver_notes(&mut m);
        assert_eq!(m.notes, []);
        // More than 2 % apart: the row says so, with both clocks.
        let mut m = row(1978.0, 345.0, 0x1, Conditions::Steady, &[]);
        driver_notes(&mut m);
        assert!(
            words(&m.notes).contains("1978 MHz is +473.3 % off the driver's 345 MHz"),
            "{:?}",
            m.notes
        );
        // A throttled row names the driver's reason in its flag; another row as a note.
        let throttled = Note::Throttled {
            mhz: 1500.0,
            floor_pct: 98.0,
            steady_mhz: 1980.0,
            tries: 4,
            own_limit: false,
            driver_reasons: None,
        };
        let cold = Note::Cold { fill_mb: 256 };
        let mut m = row(
            1500.0,
            1500.0,
            0x4 | 0x20,
            Conditions::Throttled,
            &[cold.clone(), throttled],
        );
        driver_notes(&mut m);
        assert_eq!(m.notes.len(), 2, "{:?}", m.notes);
        assert_eq!(m.notes[0], cold);
        assert!(
            m.notes[1]
                .to_string()
                .starts_with("throttled: power cap+thermal slowdown (the driver's word): 1500 MHz"),
            "{:?}",
            m.notes
        );
        let mut m = row(1978.0, 1965.0, 0x4, Conditions::Steady, &[]);
        driver_notes(&mut m);
        assert_eq!(
            words(&m.notes),
            "the driver reported power cap while it ran"
        );
        // No readings: nothing.
        let mut m =
            Measurement::not_run(perftest_suites::catalog::baseline(), Status::Ok, Vec::new());
        m.clock_mhz = Some(1978.0);
        driver_notes(&mut m);
        assert_eq!(m.notes, []);
    }
}
