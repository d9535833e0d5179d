//! perftest: GPU shader load-throughput microbenchmark, a Vulkan port of PerfTest.

pub mod catalog;
pub mod cli;
pub mod compare;
pub mod data;
pub mod error;
pub mod families;
pub mod format;
pub mod gpu;
pub mod kernels;
pub mod pipeline;
pub mod provenance;
pub mod report;
pub mod resources;
pub mod runner;
pub mod select;
pub mod timer;

use anyhow::Result;
use catalog::TestCase;
use cli::Config;
use error::Failure;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use report::{Csv, Json, Reporters, Row, Terminal};
use runner::{Measurement, Mode, Runner, Settings, Status};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C: the run stops before the next test.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Runs the tool with parsed arguments; returns the process exit code.
pub fn run(args: cli::Args) -> Result<i32> {
    if let Some(cli::Command::Compare { files, format }) = &args.command {
        let table =
            compare::compare_files(files, *format).map_err(|e| Failure::Usage(format!("{e:#}")))?;
        stdout(&table);
        return Ok(0);
    }
    if args.list_tests {
        return list_tests(&args);
    }
    let config = Config::from_args(args)?;
    let args = &config.args;
    let instance = gpu::Instance::new(args.validation)?;
    if instance.devices.is_empty() {
        return Err(Failure::NoVulkan(gpu::NO_DEVICE.into()).into());
    }
    if args.list_devices {
        stdout(&select::details(&instance.devices));
        return Ok(validation_exit(0));
    }
    let choices = select::choose(&instance.devices, &args.device)?;
    // Opened after every usage check (so a typo never truncates a results file) and before
    // the first test (so an unwritable path fails fast).
    let mut reporters = open_outputs(args)?;

    // A second Ctrl-C ends the process at once.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED);
        }
        eprintln!(
            "\nperftest: interrupted; stopping after the current test (Ctrl-C again to quit now)"
        );
    });

    let progress = progress_bar((choices.len() * config.tests.len()) as u64);

    let mut tally = Tally::default();
    let mut interrupted = false;
    for choice in &choices {
        if INTERRUPTED.load(Ordering::SeqCst) {
            interrupted = true;
            break;
        }
        let device = &instance.devices[choice.index];
        progress.suspend(|| {
            eprintln!(
                "perftest: using device {} ({}): {}",
                device.index, device.name, choice.why
            )
        });
        let outcome = run_device(
            &instance,
            device,
            &config,
            &mut reporters,
            &progress,
            &mut tally,
        )?;
        if outcome == DeviceOutcome::Interrupted {
            interrupted = true;
            break;
        }
    }
    progress.finish_and_clear();
    // Ctrl-C during the last test: every row is in, but say the run was cut short.
    interrupted |= INTERRUPTED.load(Ordering::SeqCst);
    reporters.finish(interrupted);
    let outputs_failed = reporters.failed;
    drop(reporters);
    drop(instance);

    eprintln!("perftest: {}", tally.summary());
    if let Some(note) = tally.cut_note() {
        eprintln!("perftest: {note}");
    }
    if interrupted {
        eprintln!("perftest: interrupted; every finished test is in the output files");
        return Ok(EXIT_INTERRUPTED);
    }
    let failed = tally.failed
        + if args.strict {
            tally.unsupported + tally.disturbed
        } else {
            0
        }
        + usize::from(outputs_failed);
    Ok(validation_exit(if failed > 0 { 1 } else { 0 }))
}

/// `--list-tests`: alone, the original's list byte for byte; with --suite, the suites asked for.
fn list_tests(args: &cli::Args) -> Result<i32> {
    let suites = cli::selected_suites(&args.suite);
    let tests = catalog::filter(&catalog::suites(&suites), &args.filters);
    if tests.is_empty() {
        return Err(Failure::Usage(format!("--filter {:?} matches no test", args.filters)).into());
    }
    let mut out = std::io::stdout().lock();
    for t in tests {
        writeln!(out, "{}", t.name())?;
    }
    Ok(0)
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
fn progress_bar(total: u64) -> ProgressBar {
    let progress = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        progress.set_draw_target(ProgressDrawTarget::hidden());
    }
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    progress
}

/// Creates the outputs; files are opened now, so a bad path fails before the first test.
fn open_outputs(args: &cli::Args) -> Result<Reporters> {
    let csv_to_stdout = args.csv.as_deref().is_some_and(|p| p.as_os_str() == "-");
    let human: Box<dyn Write> = if csv_to_stdout {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    let mut reporters = Reporters::new();
    let name = if csv_to_stdout { "stderr" } else { "stdout" };
    reporters.push(name, Box::new(Terminal::new(human, args.format)));
    if let Some(path) = &args.csv {
        let out: Box<dyn Write> = if csv_to_stdout {
            Box::new(std::io::stdout())
        } else {
            Box::new(std::fs::File::create(path).map_err(|e| {
                Failure::Usage(format!("cannot write --csv {}: {e}", path.display()))
            })?)
        };
        reporters.push(
            format!("--csv {}", path.display()),
            Box::new(Csv::new(out)?),
        );
    }
    if let Some(path) = &args.json {
        if path.is_dir() {
            return Err(Failure::Usage(format!(
                "cannot write --json {}: it is a directory",
                path.display()
            ))
            .into());
        }
        let json = Json::create(path)
            .map_err(|e| Failure::Usage(format!("cannot write --json {}: {e}", path.display())))?;
        reporters.push(format!("--json {}", path.display()), Box::new(json));
    }
    Ok(reporters)
}

/// Counts of outcomes over the whole run.
#[derive(Default)]
struct Tally {
    ok: usize,
    unsupported: usize,
    failed: usize,
    /// Rows timed while the baseline was off (also counted as ok).
    disturbed: usize,
    /// Rows timed again after the baseline drifted (also counted as ok).
    remeasured: usize,
    /// Timed tests whose dispatch was cut below their device's common size.
    cut: usize,
}

impl Tally {
    fn add(&mut self, m: &Measurement) {
        match m.conditions {
            runner::Conditions::Disturbed => self.disturbed += 1,
            runner::Conditions::Remeasured => self.remeasured += 1,
            _ => {}
        }
        match m.status {
            Status::Ok => self.ok += 1,
            Status::Unsupported => self.unsupported += 1,
            Status::Mismatch | Status::Error => self.failed += 1,
            Status::Interrupted => {}
        }
    }

    fn summary(&self) -> String {
        let mut s = format!(
            "{} ok, {} unsupported, {} failed",
            self.ok, self.unsupported, self.failed
        );
        if self.disturbed + self.remeasured > 0 {
            s += &format!(
                "; {} disturbed, {} re-measured after the baseline drifted",
                self.disturbed, self.remeasured
            );
        }
        s
    }

    /// How many dispatches were cut, and how the human formats show them.
    fn cut_note(&self) -> Option<String> {
        (self.cut > 0).then(|| {
            format!(
                "{} of {} timed tests ran fewer groups than their device's common dispatch \
                 size, cut to the {:.0} ms watchdog budget; the results show their ms scaled \
                 to the common size, marked * (the CSV's groups column has the size run)",
                self.cut,
                self.ok,
                runner::MAX_DISPATCH_MS
            )
        })
    }
}

#[derive(Debug, PartialEq, Eq)]
enum DeviceOutcome {
    Done,
    Interrupted,
}

/// Runs every selected test on one device; a device that fails or is lost gets error rows
/// and the run goes on with the next device.
fn run_device(
    instance: &gpu::Instance,
    device: &gpu::DeviceInfo,
    config: &Config,
    reporters: &mut Reporters,
    progress: &ProgressBar,
    tally: &mut Tally,
) -> Result<DeviceOutcome> {
    let args = &config.args;
    print_original_header(instance, device, args, progress);
    let settings = Settings {
        groups: args.groups,
        warmup: args.warmup,
        samples: args.samples,
        mode: config.mode,
        fault: args.fault,
    };
    let mut out = Out {
        reporters,
        progress,
        tally,
        device,
        mode: config.mode,
        warmup: args.warmup,
        common_groups: 0,
    };
    let gpu = match gpu::Gpu::new(instance, device) {
        Ok(gpu) => gpu,
        Err(e) => {
            let reason = format!("{e:#}");
            eprintln!(
                "perftest: device {} ({}) cannot run: {reason}",
                device.index, device.name
            );
            out.fail_all(&config.tests, &reason)?;
            return Ok(DeviceOutcome::Done);
        }
    };
    let tests: Vec<TestCase> = config.tests.iter().map(|(_, t)| *t).collect();
    let runner = match Runner::new(&gpu, instance, settings, &tests) {
        Ok(r) => r,
        Err(e) => {
            let reason = format!(
                "{:#}",
                e.context(format!("preparing the test data on {}", device.name))
            );
            eprintln!("perftest: {reason}");
            out.fail_all(&config.tests, &reason)?;
            return Ok(DeviceOutcome::Done);
        }
    };
    out.begin(Some(&runner.calibration))?;
    progress.suspend(|| {
        eprintln!(
            "perftest: {}",
            calibration_line(&runner.calibration, device)
        )
    });
    let order = run_order(config, progress);
    run_tests(&runner, &order, config, &mut out)
}

/// The original's header: the device list, then the device used.
fn print_original_header(
    instance: &gpu::Instance,
    device: &gpu::DeviceInfo,
    args: &cli::Args,
    progress: &ProgressBar,
) {
    if args.format != report::TerminalFormat::Original {
        return;
    }
    let lines = select::summary_lines(&instance.devices).join("\n");
    let header = format!(
        "Devices:\n{lines}\nUsing device {}: {}",
        device.index, device.name
    );
    progress.suspend(|| {
        if args.csv.as_deref().is_some_and(|p| p.as_os_str() == "-") {
            eprintln!("{header}");
        } else {
            stdout(&format!("{header}\n"));
        }
    });
}

/// What calibration decided, for stderr.
fn calibration_line(cal: &runner::Calibration, device: &gpu::DeviceInfo) -> String {
    format!(
        "{} groups per dispatch ({}; baseline at 4096 groups ≈ {:.3} ms), \
         warm-up {:.0} ms, shader clock {}, compute units {}",
        cal.groups,
        if cal.auto { "calibrated" } else { "--groups" },
        cal.baseline_full_ms,
        cal.warmup_ms,
        cal.clock_mhz
            .map_or("unknown".into(), |c| format!("{c:.0} MHz")),
        device
            .compute_units
            .map_or("unknown".into(), |(n, src)| format!("{n} ({src})")),
    )
}

/// The selected tests in the order they run: as listed, or shuffled with `--shuffle`.
fn run_order(config: &Config, progress: &ProgressBar) -> Vec<(usize, TestCase)> {
    let mut order: Vec<(usize, TestCase)> = config.tests.clone();
    if config.args.shuffle {
        let seed = config.args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        progress.suspend(|| eprintln!("perftest: --shuffle --seed {seed}"));
        shuffle(&mut order, seed);
    }
    order
}

/// The baseline's measurement and throughput (loads per ms), measured before the other
/// tests so that every line can carry its ratio as it is printed.
struct Baseline {
    test: TestCase,
    measurement: Option<Measurement>,
    rate: Option<f64>,
}

impl Baseline {
    fn measure(runner: &Runner<'_>, order: &[(usize, TestCase)], mode: Mode) -> Self {
        let test = catalog::baseline();
        let selected = order.iter().any(|(_, t)| *t == test);
        let measurement = (selected && mode == Mode::Time).then(|| runner.run(&test));
        let rate = measurement.as_ref().and_then(|b| {
            b.stats
                .map(|s| b.test.loads_per_dispatch(b.groups) as f64 / s.median_ms)
        });
        if mode == Mode::Time && rate.is_none() {
            eprintln!(
                "perftest: the baseline {} {}; ratios are left out",
                test.name(),
                if selected {
                    "failed"
                } else {
                    "is not selected"
                }
            );
        }
        Baseline {
            test,
            measurement,
            rate,
        }
    }

    /// Throughput of `m` relative to the baseline: equal to the time ratio when both ran the
    /// same dispatch size, and still right when a dispatch was cut to the watchdog budget.
    fn ratio(&self, m: &Measurement) -> Option<f64> {
        // Operations per load would be no ratio at all.
        if m.test.unit() != families::Unit::Loads {
            return None;
        }
        let s = m.stats?;
        Some(m.test.loads_per_dispatch(m.groups) as f64 / s.median_ms / self.rate?)
    }
}

/// Tests timed between two drift checks: a run of tests of one family, at most this many
/// (in a shuffled order, families do not form runs: blocks are then this long).
const MAX_BLOCK: usize = 16;

/// Splits the run order into blocks of consecutive tests of the same family.
fn blocks(order: &[(usize, TestCase)], shuffled: bool) -> Vec<&[(usize, TestCase)]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=order.len() {
        let end = i == order.len()
            || i - start >= MAX_BLOCK
            || (!shuffled && order[i].1.family_index() != order[start].1.family_index());
        if end {
            out.push(&order[start..i]);
            start = i;
        }
    }
    out
}

/// The drift reference for a timed run, unless `--drift-limit off` (a failure to measure it
/// costs only the check).
fn drift_reference(runner: &Runner<'_>, config: &Config) -> Option<runner::Drift> {
    let limit = match config.args.drift_limit {
        Some(cli::DriftLimit::Off) => return None,
        Some(cli::DriftLimit::Pct(p)) => Some(p),
        None => None,
    };
    if config.mode != Mode::Time {
        return None;
    }
    match runner.drift_reference(limit) {
        Ok(d) => {
            eprintln!(
                "perftest: drift check: baseline {:.4} ms, {:.4} ms apart (spread {:.2} %), \
                 limit ±{:.1} %",
                d.reference_ms, d.reference_span_ms, d.spread_pct, d.limit_pct
            );
            Some(d)
        }
        Err(e) => {
            eprintln!("perftest: no drift check: {e:#}");
            None
        }
    }
}

/// Runs (or, after a lost device, skips) every test of `order` block by block; after each
/// block the drift check re-times the baseline, then the block's rows are emitted.
fn run_tests(
    runner: &Runner<'_>,
    order: &[(usize, TestCase)],
    config: &Config,
    out: &mut Out<'_>,
) -> Result<DeviceOutcome> {
    let cal = runner.calibration;
    let (baseline, drift) = out.progress.suspend(|| {
        let b = Baseline::measure(runner, order, config.mode);
        (b, drift_reference(runner, config))
    });
    let mut lost: Option<String> = baseline
        .measurement
        .as_ref()
        .filter(|b| b.device_lost)
        .map(|b| b.test.name());
    let mut before = 0.0;
    let mut done = 0;
    for (number, block) in blocks(order, config.args.shuffle).into_iter().enumerate() {
        runner.inject_disturbance(number);
        let mut rows: Vec<(usize, Measurement)> = Vec::with_capacity(block.len());
        for (test_index, test) in block {
            if INTERRUPTED.load(Ordering::SeqCst) {
                let m = Measurement::not_run(
                    *test,
                    Status::Interrupted,
                    format!(
                        "run interrupted (Ctrl-C) after {} of {} tests on this device",
                        done + rows.len(),
                        order.len()
                    ),
                );
                rows.push((*test_index, m));
                out.emit_block(&rows, &baseline, cal.clock_mhz, config.args.shader_stats)?;
                return Ok(DeviceOutcome::Interrupted);
            }
            out.progress
                .set_message(format!("{}: {}", out.device.name, test.name()));
            let m = match (&lost, &baseline.measurement) {
                (_, Some(b)) if *test == baseline.test => b.clone(),
                (Some(during), _) => Measurement::not_run(
                    *test,
                    Status::Error,
                    format!("not run: the device was lost during {during}"),
                ),
                (None, _) => runner.run(test),
            };
            if m.device_lost && lost.as_deref().is_none_or(|l| l == test.name()) {
                lost = Some(test.name());
                out.note(&format!(
                    "device {} ({}) was lost during {}; its remaining tests are skipped",
                    out.device.index,
                    out.device.name,
                    test.name()
                ));
            }
            // A cut chosen by calibration is by design (the CSV keeps the note); a cut of an
            // explicit --groups is a warning.
            if m.status == Status::Ok && !m.reason.is_empty() && !cal.auto {
                out.note(&format!("{}: {}", m.test.name(), m.reason));
            }
            rows.push((*test_index, m));
        }
        if let (Some(drift), None) = (&drift, &lost) {
            let mut ms: Vec<Measurement> = rows.iter().map(|(_, m)| m.clone()).collect();
            match runner.settle(drift, before, &mut ms, |text| out.note(text)) {
                Ok(check) => {
                    before = check;
                    for ((_, row), m) in rows.iter_mut().zip(ms) {
                        *row = m;
                    }
                }
                Err(e) => out.note(&format!("drift check failed: {e:#}")),
            }
        }
        done += rows.len();
        out.emit_block(&rows, &baseline, cal.clock_mhz, config.args.shader_stats)?;
    }
    Ok(DeviceOutcome::Done)
}

/// Where one device's rows go: every reporter, the progress bar and the tally.
struct Out<'a> {
    reporters: &'a mut Reporters,
    progress: &'a ProgressBar,
    tally: &'a mut Tally,
    device: &'a gpu::DeviceInfo,
    mode: Mode,
    warmup: u32,
    /// The device's common dispatch size (its calibration's groups; 0 before calibration).
    common_groups: u32,
}

impl Out<'_> {
    /// Emits a block's rows, warning on stderr about each disturbed one.
    fn emit_block(
        &mut self,
        rows: &[(usize, Measurement)],
        baseline: &Baseline,
        clock: Option<f64>,
        shader_stats: bool,
    ) -> Result<()> {
        for (test_index, m) in rows {
            if m.conditions == runner::Conditions::Disturbed {
                self.note(&format!(
                    "{}: disturbed — the baseline was {:+.1} % off its start-of-run time \
                     around this test; its time is not comparable",
                    m.test.name(),
                    m.drift_pct.unwrap_or(f64::NAN)
                ));
            }
            self.emit(m, *test_index, baseline.ratio(m), clock)?;
            if shader_stats {
                self.progress.suspend(|| print_shader_stats(m));
            }
        }
        Ok(())
    }

    /// A line on stderr, above the progress bar.
    fn note(&self, text: &str) {
        self.progress.suspend(|| eprintln!("perftest: {text}"));
    }

    /// Error rows for every test of a device that cannot run at all.
    fn fail_all(&mut self, tests: &[(usize, TestCase)], reason: &str) -> Result<()> {
        self.begin(None)?;
        for (i, t) in tests {
            let m = Measurement::not_run(*t, Status::Error, reason.to_string());
            self.emit(&m, *i, None, None)?;
        }
        Ok(())
    }

    fn begin(&mut self, calibration: Option<&runner::Calibration>) -> Result<()> {
        self.common_groups = calibration.map_or(0, |c| c.groups);
        let (reporters, device) = (&mut *self.reporters, self.device);
        self.progress
            .suspend(|| reporters.begin_device(device, calibration));
        Ok(())
    }

    fn emit(
        &mut self,
        m: &Measurement,
        test_index: usize,
        ratio: Option<f64>,
        clock: Option<f64>,
    ) -> Result<()> {
        self.tally.add(m);
        if self.mode == Mode::Time && m.status == Status::Ok && m.is_cut(self.common_groups) {
            self.tally.cut += 1;
        }
        let row = Row {
            device: self.device,
            test_index,
            measurement: m,
            ratio,
            mode: self.mode,
            clock_mhz: clock,
            warmup: self.warmup,
        };
        self.progress.inc(1);
        let reporters = &mut *self.reporters;
        self.progress.suspend(|| reporters.row(&row));
        Ok(())
    }
}

/// Writes `text` to stdout. A closed stdout (`perftest … | head`) is not worth a panic:
/// the results reporter notices it and the other outputs carry on.
fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// Prints the driver's statistics of a test's kernel on stderr.
fn print_shader_stats(m: &Measurement) {
    if m.shader_stats.is_empty() {
        eprintln!("  shader stats: none (the device lacks VK_KHR_pipeline_executable_properties)");
    }
    for s in &m.shader_stats {
        eprintln!("  {}: {} = {}", s.executable, s.name, s.value);
    }
}

/// Fisher–Yates with a small xorshift generator: reproducible from `seed`.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut x = seed | 1;
    for i in (1..items.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        items.swap(i, (x % (i as u64 + 1)) as usize);
    }
}

/// Exit code 1 if a layer reported anything, else `code`.
fn validation_exit(code: i32) -> i32 {
    let n = gpu::VALIDATION_MESSAGES.load(Ordering::Relaxed);
    if n > 0 {
        eprintln!("perftest: the validation layer reported {n} message(s)");
        return code.max(1);
    }
    code
}
