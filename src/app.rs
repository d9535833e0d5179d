//! The application: devices chosen, outputs opened, each device's run sent to the reporters,
//! the summary and the exit code; stops cleanly on SIGINT, SIGTERM or SIGHUP.

use crate::catalog::TestCase;
use crate::cli::{self, Command, Config, Invocation};
use crate::error::Failure;
use crate::runner::session::{self, Baseline, Outcome, Plan, Sink};
use crate::runner::{self, Conditions, Measurement, Mode, Runner, Status};
use crate::{compare, gpu, report, select};
use anyhow::{Context as _, Result};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use perftest_results::note::{self, Note};
use perftest_results::output::OutFile;
use perftest_results::Words;
use report::{Csv, Json, Kept, Outputs, Reporters, Row, Terminal};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{mpsc, Arc};

/// The signal that asked the run to stop (0: none): it stops before the next test.
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);

/// SIGINT's number, the one Ctrl-C sends (also on Windows, where the C runtime numbers it so).
const SIGINT: i32 = 2;

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it); SIGTERM and
/// SIGHUP give 128 + their number.
pub const EXIT_INTERRUPTED: i32 = 128 + SIGINT;

/// The signal that stopped the run, if one did.
fn stop_signal() -> Option<i32> {
    Some(INTERRUPTED.load(Ordering::SeqCst)).filter(|s| *s != 0)
}

/// The name of a signal we stop on.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        // Windows has no signals: its console sends Ctrl-C or Ctrl-Break.
        2 if cfg!(windows) => "Ctrl-C",
        1 => "SIGHUP",
        2 => "SIGINT",
        15 => "SIGTERM",
        _ => "a signal",
    }
}

/// What a stop request does: the first finishes the current test and writes every output;
/// a second one ends the process at once.
fn on_signal(signal: i32) {
    if INTERRUPTED.swap(signal, Ordering::SeqCst) != 0 {
        std::process::exit(128 + signal);
    }
    let again = if signal == SIGINT {
        "Ctrl-C"
    } else {
        "the signal"
    };
    eprintln!(
        "\nperftest: interrupted ({}); stopping after the current test ({again} again to quit now)",
        signal_name(signal)
    );
}

/// Stops the run on SIGINT, SIGTERM and SIGHUP (what Ctrl-C, `timeout`, CI runners, service
/// managers and a closed terminal send).
#[cfg(unix)]
fn handle_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        std::thread::spawn(move || {
            for signal in signals.forever() {
                on_signal(signal);
            }
        });
    }
}

/// Stops the run on Ctrl-C (and Ctrl-Break: ctrlc's console handler takes every console event
/// alike). Not signal-hook, as on unix: its C-runtime path asks `signal` for the handler with
/// `SIG_GET`, which wine's C runtime takes as a handler to set, so Ctrl-C jumps to address 2.
#[cfg(windows)]
fn handle_signals() {
    let _ = ctrlc::set_handler(|| on_signal(SIGINT));
}

/// `perftest compare`: every failure is a usage error (exit 2) — a file that cannot be read
/// or compared, or a reference that names no published GPU, or several.
fn run_compare(
    files: &[std::path::PathBuf],
    references: &[String],
    list: bool,
    format: compare::CompareFormat,
) -> Result<String> {
    let usage = |e: anyhow::Error| match e.downcast::<Failure>() {
        Ok(f) => f,
        Err(e) => Failure::Usage(format!("{e:#}")),
    };
    if list {
        return Ok(compare::list_references(format).map_err(usage)?);
    }
    if references.is_empty() {
        return Ok(compare::compare_files(files, format).map_err(usage)?);
    }
    let chosen = crate::published::select(references).map_err(usage)?;
    Ok(compare::compare_files_with_references(files, &chosen, format).map_err(usage)?)
}

/// `perftest report`: a bad input (a file that is not a perftest result, empty, unreadable),
/// an unknown reference or an unwritable output is a usage error (exit 2), and no file is
/// written.
fn run_report(
    files: &[std::path::PathBuf],
    output: &std::path::Path,
    references: &[String],
) -> Result<()> {
    let usage = |e: anyhow::Error| match e.downcast::<Failure>() {
        Ok(f) => f,
        Err(e) => Failure::Usage(format!("{e:#}")),
    };
    let chosen = crate::published::select(references).map_err(usage)?;
    if output.as_os_str() == "-" {
        // `-o -`: the page on stdout, as `--csv -` writes rows there.
        if files.is_empty() {
            return Err(usage(anyhow::anyhow!(
                "report needs at least one CSV or JSON file written by perftest"
            ))
            .into());
        }
        let html = crate::html::build(files, &chosen, &crate::catalog::names()).map_err(usage)?;
        stdout(&html);
        return Ok(());
    }
    crate::html::write(files, &chosen, &crate::catalog::names(), output).map_err(usage)?;
    eprintln!("perftest: wrote {}", output.display());
    Ok(())
}

/// Runs the tool with parsed arguments; returns the process exit code.
pub fn run(args: cli::Args) -> Result<i32> {
    report::run_started();
    match Invocation::from_args(args)? {
        Invocation::Command(command) => run_command(command),
        Invocation::ListTests(tests) => list_tests(&tests),
        Invocation::Run(config) => run_tests(config),
    }
}

/// Runs a subcommand; returns the process exit code.
fn run_command(command: Command) -> Result<i32> {
    match command {
        Command::Compare {
            files,
            references,
            list_references,
            format,
        } => {
            stdout(&run_compare(&files, &references, list_references, format)?);
            Ok(0)
        }
        Command::Report {
            files,
            output,
            references,
        } => {
            run_report(&files, &output, &references)?;
            Ok(0)
        }
        Command::Summary { files, json } => run_summary(&files, json.as_deref()),
        Command::Fleet {
            paths,
            json,
            retest,
            threshold,
            this_run,
            host,
            text,
        } => crate::fleet::run(
            &paths,
            &crate::fleet::Options {
                json: json.as_deref(),
                retest: retest.as_deref(),
                text: text.as_deref(),
                this_run: this_run.as_deref(),
                host: host.as_deref(),
                threshold,
            },
        ),
    }
}

/// `perftest summary`: the table on stdout, or the JSON to `json` (`-`: stdout).
fn run_summary(files: &[std::path::PathBuf], json: Option<&std::path::Path>) -> Result<i32> {
    let usage = |e: anyhow::Error| Failure::Usage(format!("{e:#}"));
    // The output is checked before any input is read (`-`: stdout).
    let out = match json {
        Some(path) => {
            cli::check_json_out(path, true)?;
            (path.as_os_str() != "-")
                .then(|| OutFile::open("--json", path, files))
                .transpose()?
        }
        None => None,
    };
    let summaries =
        crate::summary::summarise_files(files, &crate::catalog::names()).map_err(usage)?;
    match (json, out) {
        (None, _) => stdout(&crate::summary::text(&summaries)),
        (Some(_), out) => {
            let text = crate::summary::json(&summaries).context("the summary as JSON")? + "\n";
            match out {
                None => stdout(&text),
                Some(out) => out.write(text.as_bytes()).map_err(usage)?,
            }
        }
    }
    Ok(0)
}

/// Runs the selected tests on the chosen devices (or lists the devices); returns the process
/// exit code.
// Long on purpose: the application's one sequence (devices, outputs, the run, the tally,
// the summary, the exit code), read top to bottom.
fn run_tests(config: Config) -> Result<i32> {
    // A run cut by the rehearsal hook says so before anything else: it is no measurement
    // of the selection.
    if let Some((kept, selected)) = config.rehearsal {
        eprintln!(
            "perftest: PERFTEST_FIRST_TESTS: running {kept} of the {selected} selected tests \
             (a rehearsal of the command, not a measurement of its selection)"
        );
    }
    // The trace's zero (its lines are held until the outputs open: see `open_outputs`).
    runner::process_line("instance");
    let instance = gpu::Instance::new(config.validation)?;
    runner::process_line("instance created");
    if instance.devices.is_empty() {
        return Err(gpu::NoVulkan(gpu::NO_DEVICE.into()).into());
    }
    if config.list_devices {
        stdout(&select::details(&instance.devices));
        return Ok(validation_exit(0));
    }
    let choices = select::choose(&instance.devices, &config.devices)?;
    // A dispatch size a chosen device cannot bind is a usage error, before any output opens.
    for c in &choices {
        runner::check_groups(config.settings.groups, &instance.devices[c.index])
            .map_err(Failure::Usage)?;
    }
    // Opened after every usage check (so a typo never truncates a results file) and before
    // the first test (so an unwritable path fails fast).
    let mut reporters = open_outputs(&config, choices.len())?;
    // The summary at the end reads the run's own rows, as `perftest summary` reads a file's.
    let rows_kept = config.summary.then(|| {
        let kept = Kept::default();
        reporters.push("the summary", kept.reporter());
        kept
    });

    handle_signals();

    // One worker per device, all at once; or one worker running the devices in turn. Only
    // this thread writes the outputs: the workers send it their rows.
    let concurrent = choices.len() > 1 && !config.in_turn;
    let devices: Vec<&gpu::DeviceInfo> =
        choices.iter().map(|c| &instance.devices[c.index]).collect();
    let progress = Progress::new(&devices, config.tests.len() as u64);
    let host = Arc::new(runner::node::NodeLock::new());
    let mut delivery = Delivery::new(&devices, &mut reporters, &config);
    let (tx, rx) = mpsc::channel::<Sent>();
    let worker = |positions: Vec<usize>, tx: mpsc::Sender<Sent>| {
        let (instance, progress, host) = (&instance, &progress, &host);
        let (choices, devices, config) = (&choices, &devices, &config);
        move || -> Result<Outcome> {
            for pos in positions {
                if interrupted_now() {
                    return Ok(Outcome::Interrupted);
                }
                let device = devices[pos];
                progress.note(
                    None,
                    &format!(
                        "using device {} ({}): {}",
                        device.index, device.name, choices[pos].why
                    ),
                );
                let out = Out::new(pos, device, tx.clone(), progress, config, concurrent);
                let host = concurrent.then(|| host.clone());
                if run_device(instance, config, out, host)? == Outcome::Interrupted {
                    return Ok(Outcome::Interrupted);
                }
            }
            Ok(Outcome::Done)
        }
    };
    let outcomes: Vec<Result<Outcome>> = std::thread::scope(|scope| {
        let handles: Vec<_> = if concurrent {
            (0..devices.len())
                .map(|pos| scope.spawn(worker(vec![pos], tx.clone())))
                .collect()
        } else {
            vec![scope.spawn(worker((0..devices.len()).collect(), tx.clone()))]
        };
        drop(tx);
        for sent in rx {
            delivery.deliver(sent);
        }
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a device's worker panicked")))
            })
            .collect()
    });
    runner::process_line("devices done");
    progress.clear();
    let tallies = delivery.finish();
    let mut interrupted = false;
    for outcome in outcomes {
        interrupted |= outcome? == Outcome::Interrupted;
    }
    // Ctrl-C during the last test: every row is in, but say the run was cut short.
    interrupted |= interrupted_now();
    reporters.finish(interrupted);
    let outputs_failed = reporters.failed;
    drop(reporters);
    runner::process_line("outputs written");
    let tally = Tally::sum(&tallies);
    let labels: Vec<String> = devices
        .iter()
        .map(|d| format!("device {} ({})", d.index, d.name))
        .collect();
    drop(devices);
    drop(instance);
    runner::process_line("instance dropped");
    // A trace that stopped part way (a full disk) is a named output that failed.
    let trace_failed = runner::trace_error().inspect(|(path, e)| {
        eprintln!(
            "perftest: error: PERFTEST_TRACE={}: the trace stopped part way: {e}",
            path.display()
        )
    });

    if let Some(kept) = rows_kept {
        print_summary(&kept, config.csv_to_stdout());
    }
    if labels.len() > 1 {
        // A verdict per GPU, then the run's.
        for (label, t) in labels.iter().zip(&tallies) {
            let flagged = t.conditions().map_or(String::new(), |c| format!("; {c}"));
            eprintln!("perftest: {label}: {}{flagged}", t.summary());
        }
    }
    eprintln!("perftest: {}", tally.summary());
    if let Some(conditions) = tally.conditions() {
        eprintln!("perftest: {conditions}");
    }
    if let Some(note) = tally.cut_note() {
        eprintln!("perftest: {note}");
    }
    if let Some(note) = tally.driver_note() {
        eprintln!("perftest: {note}");
    }
    eprintln!(
        "perftest: wall time {:.1} s (started {})",
        report::wall_s(),
        report::started_utc()
    );
    if interrupted {
        let signal = stop_signal().unwrap_or(SIGINT);
        eprintln!(
            "perftest: interrupted ({}); every finished test is in the output files",
            signal_name(signal)
        );
        return Ok(128 + signal);
    }
    let strict = if config.strict {
        tally.unsupported + tally.flagged()
    } else {
        0
    };
    if strict > 0 {
        eprintln!(
            "perftest: --strict: {} unsupported and {} flagged row(s) fail the run (exit 1)",
            tally.unsupported,
            tally.flagged()
        );
    }
    let failed =
        tally.failed + strict + usize::from(outputs_failed) + usize::from(trace_failed.is_some());
    Ok(validation_exit(if failed > 0 { 1 } else { 0 }))
}

/// Whether a stop was asked for.
fn interrupted_now() -> bool {
    stop_signal().is_some()
}

/// `--list-tests`: alone, the original's list byte for byte; with --suite, the suites asked for.
fn list_tests(tests: &[TestCase]) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    for t in tests {
        writeln!(out, "{}", t.name())?;
    }
    Ok(0)
}

/// The progress display on stderr, drawn only when stderr is a terminal: a bar per device
/// (its tests done, the one running); lines on stderr are written above it.
struct Progress {
    multi: MultiProgress,
    bars: Vec<ProgressBar>,
}

impl Progress {
    fn new(devices: &[&gpu::DeviceInfo], tests: u64) -> Self {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} {prefix}: {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        let bars = devices
            .iter()
            .map(|d| {
                let bar = multi.add(ProgressBar::new(tests));
                bar.set_style(style.clone());
                bar.set_prefix(d.name.clone());
                bar
            })
            .collect();
        Progress { multi, bars }
    }

    /// A line on stderr, `perftest: ` and `label` before `text`.
    fn note(&self, label: Option<&str>, text: &str) {
        let label = label.unwrap_or_default();
        self.multi.suspend(|| eprintln!("perftest: {label}{text}"));
    }

    /// Runs `f` with the bars out of the way (it writes to the terminal).
    fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.multi.suspend(f)
    }

    fn clear(&self) {
        for bar in &self.bars {
            bar.finish_and_clear();
        }
        let _ = self.multi.clear();
    }
}

/// Creates the outputs; files are opened now, so a bad path fails before the first test.
fn open_outputs(config: &Config, devices: usize) -> Result<Reporters> {
    report::set_host(config.host.as_deref());
    let csv_to_stdout = config.csv_to_stdout();
    let human: Box<dyn Write> = if csv_to_stdout {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    let mut reporters = Reporters::new();
    let name = if csv_to_stdout { "stderr" } else { "stdout" };
    reporters.push_taking(
        name,
        Box::new(Terminal::new(human, config.format).labelled(devices > 1)),
        Outputs::InTurn,
    );
    // The JSON is checked first: it is written only at the end, while the CSV, streamed, is
    // truncated as it opens, so a refused `--json` must not leave the CSV emptied.
    let json = match &config.json {
        Some(path) => Some((path, Json::create(path)?)),
        None => None,
    };
    // The trace's file is written from here: a run refused before (a usage error, no
    // Vulkan) leaves the file it names as it was. Before the CSV, which is truncated as it
    // opens: a trace that cannot be written (`/dev/full`) leaves the results file alone.
    runner::begin_trace().map_err(|(path, e)| {
        Failure::Usage(format!(
            "cannot write PERFTEST_TRACE={}: {e}",
            path.display()
        ))
    })?;
    if let Some(to) = &config.csv {
        let (out, gzip, path): (Box<dyn Write>, bool, &std::path::Path) = match to {
            cli::CsvOut::Stdout => (Box::new(std::io::stdout()), false, "-".as_ref()),
            // Opened as every output is (a device in place, a symlink followed, a read-only
            // file refused), and streamed: the rows are in the file as they come. `--csv
            // FILE.gz` writes gzip (stdout never: `--csv - | gzip` does that).
            cli::CsvOut::File(path) => (
                Box::new(OutFile::open_stream("--csv", path, &[])?),
                perftest_results::gzip::is_gzip_path(path),
                path,
            ),
        };
        // A file that opens but takes no bytes (a full disk, /dev/full) fails on its header:
        // a usage error naming it, before the first test, as a path that cannot be opened.
        let csv = Csv::new(out, gzip)
            .map_err(|e| Failure::Usage(format!("cannot write --csv {}: {e:#}", path.display())))?;
        reporters.push(format!("--csv {}", path.display()), Box::new(csv));
    }
    if let Some((path, json)) = json {
        reporters.push(format!("--json {}", path.display()), Box::new(json));
    }
    Ok(reporters)
}

/// Counts of outcomes over the whole run.
#[derive(Default)]
struct Tally {
    ok: usize,
    /// Rows of probes of the latency curve's edges (not tests: counted apart).
    probes: usize,
    unsupported: usize,
    failed: usize,
    /// Rows timed again because their clock was low, or their block's drift check was off.
    remeasured_clock: usize,
    remeasured_drift: usize,
    /// Rows still flagged, per cause.
    throttled: usize,
    contended: usize,
    disturbed: usize,
    /// Timed tests whose dispatch was cut below their device's common size.
    cut: usize,
    /// Rows the driver's management interface read, and those whose probe clock was more
    /// than `CLOCK_AGREEMENT_PCT` off its clock.
    driver_read: usize,
    driver_off: usize,
}

impl Tally {
    /// The counts of every device together.
    fn sum(tallies: &[Tally]) -> Tally {
        let mut t = Tally::default();
        for d in tallies {
            t.ok += d.ok;
            t.probes += d.probes;
            t.unsupported += d.unsupported;
            t.failed += d.failed;
            t.remeasured_clock += d.remeasured_clock;
            t.remeasured_drift += d.remeasured_drift;
            t.throttled += d.throttled;
            t.contended += d.contended;
            t.disturbed += d.disturbed;
            t.cut += d.cut;
            t.driver_read += d.driver_read;
            t.driver_off += d.driver_off;
        }
        t
    }

    fn add(&mut self, m: &Measurement) {
        // A probe carries its edge's row's clock and driver readings: counted once, there.
        if m.probe_name.is_some() {
            self.probes += 1;
            return;
        }
        if m.driver.is_some_and(|d| d.sm_mhz.is_some()) {
            self.driver_read += 1;
        }
        if m.probe_vs_driver_pct()
            .is_some_and(|p| p.abs() > runner::CLOCK_AGREEMENT_PCT)
        {
            self.driver_off += 1;
        }
        match m.conditions {
            Conditions::Remeasured(runner::Cause::Clock) => self.remeasured_clock += 1,
            Conditions::Remeasured(runner::Cause::Drift) => self.remeasured_drift += 1,
            Conditions::Throttled => self.throttled += 1,
            Conditions::Contended => self.contended += 1,
            Conditions::Disturbed => self.disturbed += 1,
            Conditions::Steady | Conditions::Unchecked => {}
        }
        match m.status {
            Status::Ok => self.ok += 1,
            Status::Unsupported => self.unsupported += 1,
            Status::Mismatch | Status::Error => self.failed += 1,
            Status::Interrupted => {}
        }
    }

    /// Rows whose time is not a steady-state figure.
    fn flagged(&self) -> usize {
        self.throttled + self.contended + self.disturbed
    }

    fn summary(&self) -> String {
        let probes = match self.probes {
            0 => String::new(),
            n => format!("; {n} probes of the latency curve's edges"),
        };
        format!(
            "{} ok, {} unsupported, {} failed{probes}",
            self.ok, self.unsupported, self.failed
        )
    }

    /// Rows re-measured and rows still flagged, per cause; `None` when there are none.
    fn conditions(&self) -> Option<String> {
        let remeasured = self.remeasured_clock + self.remeasured_drift;
        if remeasured + self.flagged() == 0 {
            return None;
        }
        Some(format!(
            "{remeasured} re-measured ({} for a low clock, {} after a drift check), \
             {} still flagged ({} throttled, {} contended, {} disturbed)",
            self.remeasured_clock,
            self.remeasured_drift,
            self.flagged(),
            self.throttled,
            self.contended,
            self.disturbed
        ))
    }

    /// The cross-check of the probe's clock against the driver's, where it read any row.
    fn driver_note(&self) -> Option<String> {
        (self.driver_read > 0).then(|| {
            format!(
                "the driver's clocks read beside {} rows: {} of them more than {:.0} % from \
                 the probe's (see each row's reason)",
                self.driver_read,
                self.driver_off,
                runner::CLOCK_AGREEMENT_PCT
            )
        })
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

/// Runs every selected test on one device, its rows sent through `out`; a device that
/// fails or is lost gets error rows and the run goes on. `host`, where devices run at once,
/// is the lock the tests that share the host hold.
fn run_device(
    instance: &gpu::Instance,
    config: &Config,
    mut out: Out<'_>,
    host: Option<Arc<runner::node::NodeLock>>,
) -> Result<Outcome> {
    let device = out.device;
    out.header(instance, config.format);
    let settings = config.settings;
    runner::process_line(&format!("opening device {}", device.index));
    let gpu = match gpu::Gpu::new(instance, device) {
        Ok(gpu) => gpu,
        Err(e) => {
            let reason = format!("{e:#}");
            out.note(&format!(
                "device {} ({}) cannot run: {reason}",
                device.index, device.name
            ));
            out.fail_all(&config.tests, &reason)?;
            return Ok(Outcome::Done);
        }
    };
    let tests: Vec<TestCase> = config.tests.iter().map(|(_, t)| *t).collect();
    let runner = match Runner::new(&gpu, instance, settings, &tests, host) {
        Ok(r) => r,
        Err(e) => {
            let reason = format!(
                "{:#}",
                e.context(format!("preparing the test data on {}", device.name))
            );
            out.note(&reason);
            out.fail_all(&config.tests, &reason)?;
            return Ok(Outcome::Done);
        }
    };
    out.begin(Some(&runner.calibration))?;
    out.note(&calibration_line(&runner.calibration, device));
    // Where the driver's word is missing, one line says why (its columns stay empty).
    match &runner.management {
        Err(why) if config.settings.mode == Mode::Time => {
            out.note(&format!("no driver readings beside the rows: {why}"))
        }
        _ => {}
    }
    let order = run_order(config, &out);
    let plan = Plan {
        order: &order,
        shuffled: config.shuffle.is_some(),
        mode: config.settings.mode,
        drift: config.drift,
    };
    let outcome = session::run_tests(&runner, &plan, &mut out);
    runner::process_line(&format!("device {} tests done", device.index));
    out.bar.set_message("");
    let spent = runner.time_spent();
    out.note(&format!("time: {}", report::time_spent_line(&spent)));
    out.send(Event::Spent(spent))?;
    // The device's resources and then the device itself, freed here rather than unseen at
    // the return: the trace shows what closing it takes (GBs of memory, hundreds of pipelines).
    drop(runner);
    runner::process_line(&format!("device {} resources freed", device.index));
    drop(gpu);
    runner::process_line(&format!("device {} closed", device.index));
    outcome
}

/// What calibration decided, for stderr.
fn calibration_line(cal: &runner::Calibration, device: &gpu::DeviceInfo) -> String {
    let warmup = match (cal.clock_mhz, cal.warmup_first_mhz) {
        (Some(steady), first) => format!(
            "warm-up {:.0} ms: shader clock {}{}{steady:.0} MHz, {}{} (each row is held to {:.0} \
             % of it; {})",
            cal.warmup_ms,
            cal.open_mhz
                .map_or(String::new(), |o| format!("{o:.0} at device open, ")),
            first.map_or(String::new(), |f| format!("{f:.0} → ")),
            if cal.warmup_settled {
                "settled"
            } else {
                "NEVER SETTLED within the warm-up's cap: the steady clock is the last one seen"
            },
            match cal.open_mhz {
                Some(o) if steady < 0.97 * o => format!(
                    ", {:.0} % below the clock at device open: what this GPU sustains",
                    100.0 * (1.0 - steady / o)
                ),
                _ => String::new(),
            },
            100.0 * runner::CLOCK_FLOOR,
            cal.clock_method
        ),
        (None, _) => format!(
            "warm-up {:.0} ms ({}), shader clock unknown (timestamps only: rows are not \
             checked against a clock)",
            cal.warmup_ms,
            if cal.warmup_settled {
                "timings settled"
            } else {
                "timings never settled"
            }
        ),
    };
    format!(
        "{} groups per dispatch ({}; baseline at 4096 groups ≈ {:.3} ms), {warmup}, \
         compute units {}",
        cal.groups,
        if cal.auto { "calibrated" } else { "--groups" },
        cal.baseline_full_ms,
        device
            .compute_units
            .map_or("unknown".into(), |(n, src)| format!("{n} ({src})")),
    )
}
/// The selected tests in the order they run: as listed, or shuffled with `--shuffle`.
fn run_order(config: &Config, out: &Out<'_>) -> Vec<(usize, TestCase)> {
    let mut order: Vec<(usize, TestCase)> = config.tests.clone();
    if let Some(seed) = config.shuffle {
        let seed = seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        out.note(&format!("--shuffle --seed {seed}"));
        shuffle(&mut order, seed);
    }
    order
}

/// What a device's worker sends the thread that writes the outputs.
enum Event {
    /// The original's header (`--format original`), printed before the device's rows.
    Header(String),
    /// The device's run starts (its calibration, where it got that far).
    Begin(Option<runner::Calibration>),
    /// A finished test; `cut` where its dispatch ran below the device's common size.
    Row {
        test_index: usize,
        measurement: Box<Measurement>,
        ratio: Option<f64>,
        cut: bool,
    },
    /// Where the device's run spent its wall time (after its last row).
    Spent(runner::TimeSpent),
    /// The device's last row was sent.
    End,
}

/// An event of the device at `pos` (its position among the devices chosen).
struct Sent {
    pos: usize,
    event: Event,
}

/// Where one device's rows go: to the writing thread, and to its progress bar.
struct Out<'a> {
    pos: usize,
    device: &'a gpu::DeviceInfo,
    tx: mpsc::Sender<Sent>,
    progress: &'a Progress,
    bar: ProgressBar,
    /// `device N: ` before each line on stderr, where devices run at once.
    label: Option<String>,
    mode: Mode,
    /// Whether `--shader-stats` asks for each kernel's statistics.
    shader_stats: bool,
    /// The device's common dispatch size (its calibration's groups; 0 before calibration).
    common_groups: u32,
}

impl<'a> Out<'a> {
    fn new(
        pos: usize,
        device: &'a gpu::DeviceInfo,
        tx: mpsc::Sender<Sent>,
        progress: &'a Progress,
        config: &Config,
        concurrent: bool,
    ) -> Self {
        Out {
            pos,
            device,
            tx,
            progress,
            bar: progress.bars[pos].clone(),
            label: concurrent.then(|| format!("device {}: ", device.index)),
            mode: config.settings.mode,
            shader_stats: config.shader_stats,
            common_groups: 0,
        }
    }

    /// A line on stderr, above the progress bars.
    fn note(&self, text: &str) {
        self.progress.note(self.label.as_deref(), text);
    }

    fn send(&self, event: Event) -> Result<()> {
        self.tx
            .send(Sent {
                pos: self.pos,
                event,
            })
            .map_err(|_| anyhow::anyhow!("the outputs were closed before the run ended"))
    }

    /// The original's header: the device list, then the device used.
    fn header(&self, instance: &gpu::Instance, format: report::TerminalFormat) {
        if format != report::TerminalFormat::Original {
            return;
        }
        let lines = select::summary_lines(&instance.devices).join("\n");
        let header = format!(
            "Devices:\n{lines}\nUsing device {}: {}",
            self.device.index, self.device.name
        );
        // Sent only to be printed: a closed channel has no reader left to print it for.
        let _ = self.send(Event::Header(header));
    }

    /// Error rows for every test of a device that cannot run at all, with the error's chain.
    fn fail_all(&mut self, tests: &[(usize, TestCase)], error: &str) -> Result<()> {
        self.begin(None)?;
        for (i, t) in tests {
            let m = Measurement::not_run(*t, Status::Error, vec![Note::Error(error.to_string())]);
            self.emit(&m, *i, None)?;
        }
        Ok(())
    }

    fn begin(&mut self, calibration: Option<&runner::Calibration>) -> Result<()> {
        self.common_groups = calibration.map_or(0, |c| c.groups);
        self.send(Event::Begin(calibration.cloned()))
    }

    fn emit(&mut self, m: &Measurement, test_index: usize, ratio: Option<f64>) -> Result<()> {
        let cut = self.mode == Mode::Time && m.status == Status::Ok && m.is_cut(self.common_groups);
        self.bar.inc(1);
        self.send(Event::Row {
            test_index,
            measurement: Box::new(m.clone()),
            ratio,
            cut,
        })
    }
}

impl Drop for Out<'_> {
    /// However the device's run ended, the writing thread learns that its rows are in.
    fn drop(&mut self) {
        let _ = self.send(Event::End);
    }
}

impl Sink for Out<'_> {
    fn note(&self, text: &str) {
        Out::note(self, text);
    }

    fn starting(&self, test: &TestCase) {
        self.bar.set_message(test.name());
    }

    /// Emits a block's rows, warning on stderr about each flagged one.
    fn block(&mut self, rows: &[(usize, Measurement)], baseline: &Baseline) -> Result<()> {
        for (test_index, m) in rows {
            if m.conditions.is_flagged() {
                self.note(&format!(
                    "{}: {} — {}; its time is not a steady-state figure",
                    m.name(),
                    m.conditions.row().word(),
                    flag_reason(m)
                ));
            }
            self.emit(m, *test_index, baseline.ratio(m))?;
            if self.shader_stats {
                self.progress.suspend(|| print_shader_stats(m));
            }
        }
        Ok(())
    }

    fn interrupted(&self) -> Option<&'static str> {
        stop_signal().map(signal_name)
    }
}

/// The writing thread's side: each device's events to the outputs. The outputs read top to
/// bottom (the terminal) take the devices one after another — a later device's events wait
/// until the devices before it have ended — the others (CSV, JSON, the kept rows) take each
/// row as it comes, so nothing measured waits to be written.
struct Delivery<'a> {
    devices: &'a [&'a gpu::DeviceInfo],
    reporters: &'a mut Reporters,
    tallies: Vec<Tally>,
    /// The device whose events the in-turn outputs take now.
    current: usize,
    /// Events of later devices, held for the in-turn outputs.
    pending: Vec<Vec<Event>>,
    ended: Vec<bool>,
    mode: Mode,
    warmup: u32,
    /// The original's header goes to stderr when the CSV is on stdout.
    csv_on_stdout: bool,
}

impl<'a> Delivery<'a> {
    fn new(
        devices: &'a [&'a gpu::DeviceInfo],
        reporters: &'a mut Reporters,
        config: &Config,
    ) -> Self {
        let n = devices.len();
        Delivery {
            devices,
            reporters,
            tallies: (0..n).map(|_| Tally::default()).collect(),
            current: 0,
            pending: (0..n).map(|_| Vec::new()).collect(),
            ended: vec![false; n],
            mode: config.settings.mode,
            warmup: config.settings.warmup,
            csv_on_stdout: config.csv_to_stdout(),
        }
    }

    fn deliver(&mut self, Sent { pos, event }: Sent) {
        self.apply(pos, &event, Outputs::AsTheyCome);
        if let Event::Row {
            measurement, cut, ..
        } = &event
        {
            self.tallies[pos].add(measurement);
            self.tallies[pos].cut += usize::from(*cut);
        }
        let end = matches!(event, Event::End);
        if end {
            self.ended[pos] = true;
        }
        if pos != self.current {
            self.pending[pos].push(event);
            return;
        }
        self.apply(pos, &event, Outputs::InTurn);
        // The current device ended: the next ones' held events, up to one still running.
        while self.ended[self.current] && self.current + 1 < self.devices.len() {
            self.current += 1;
            for event in std::mem::take(&mut self.pending[self.current]) {
                self.apply(self.current, &event, Outputs::InTurn);
            }
        }
    }

    fn apply(&mut self, pos: usize, event: &Event, outputs: Outputs) {
        let device = self.devices[pos];
        match event {
            Event::Header(text) if outputs == Outputs::InTurn => {
                if self.csv_on_stdout {
                    eprintln!("{text}");
                } else {
                    stdout(&format!("{text}\n"));
                }
            }
            Event::Header(_) | Event::End => {}
            Event::Spent(spent) => self.reporters.end_device(outputs, device, spent),
            Event::Begin(calibration) => {
                self.reporters
                    .begin_device(outputs, device, calibration.as_ref())
            }
            Event::Row {
                test_index,
                measurement,
                ratio,
                ..
            } => self.reporters.row(
                outputs,
                &Row {
                    device,
                    test_index: *test_index,
                    measurement,
                    ratio: *ratio,
                    mode: self.mode,
                    clock_mhz: measurement.clock_mhz,
                    warmup: self.warmup,
                },
            ),
        }
    }

    /// Every held event written (a device that never ended: a worker that failed), and
    /// each device's tally.
    fn finish(mut self) -> Vec<Tally> {
        for pos in self.current + 1..self.devices.len() {
            for event in std::mem::take(&mut self.pending[pos]) {
                self.apply(pos, &event, Outputs::InTurn);
            }
        }
        self.tallies
    }
}

/// Why a flagged row is flagged, in words.
fn flag_reason(m: &Measurement) -> String {
    let drift = m.drift_pct.unwrap_or(f64::NAN);
    // A row throttled by its own clock says so in its notes: that note, with those found
    // after it (the driver's word on the clock…).
    let own = m
        .notes
        .iter()
        .position(|n| matches!(n, Note::Throttled { .. }));
    match (m.conditions, own) {
        (Conditions::Throttled, Some(i)) => note::words(&m.notes[i..]),
        (Conditions::Throttled, None) => format!(
            "the baseline was {drift:+.1} % off its reference at a clock below the floor, \
             and the clock did not come back"
        ),
        (Conditions::Contended, _) => format!(
            "the baseline was {drift:+.1} % off its reference at a normal clock: another \
             process was using the GPU"
        ),
        _ => format!(
            "the baseline was {drift:+.1} % off its reference around this test, and no \
             shader clock tells why"
        ),
    }
}

/// Writes `text` to stdout. A closed stdout (`perftest … | head`) is not worth a panic:
/// the results reporter notices it and the other outputs carry on.
fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// The summary of the run's rows (`perftest summary` of them), where the rows go for a
/// human: stdout, or stderr when the CSV is on stdout.
fn print_summary(kept: &Kept, csv_on_stdout: bool) {
    let rows = kept.rows();
    if rows.is_empty() {
        // As `perftest summary` says of a file without rows.
        eprintln!("perftest: no summary: this run: no rows");
        return;
    }
    let summary = crate::summary::summarise(&[("this run", &rows[..])], &crate::catalog::names());
    let text = crate::summary::text(&summary);
    if csv_on_stdout {
        eprint!("\n{text}");
    } else {
        stdout(&format!("\n{text}"));
    }
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

/// Fisher–Yates with a small xorshift generator: reproducible from `seed`. The seed is
/// mixed (splitmix64) into the generator's state rather than used as it is, so that every
/// seed gives its own order (`seed | 1` made 2k and 2k+1 alike).
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut x = splitmix64(seed);
    if x == 0 {
        // xorshift's one fixed point: it would never leave 0.
        x = 1;
    }
    for i in (1..items.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        items.swap(i, (x % (i as u64 + 1)) as usize);
    }
}

/// One step of splitmix64: a well-mixed 64-bit value of `z`, a different one for every `z`.
fn splitmix64(z: u64) -> u64 {
    let mut z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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
