//! Command-line arguments (clap) and the checks that turn them into one validated `Config`.

use crate::catalog::{self, Suite, TestCase};
use crate::error::Failure;
use crate::runner::{Fault, Mode, Settings};
use clap::Parser;
use perftest_results::Words;
use std::path::{Path, PathBuf};

/// Measures how fast compute shaders read data through each kind of Vulkan resource
/// (texel buffers, storage and uniform buffers, sampled images): a Vulkan port of PerfTest.
#[derive(Parser, Debug)]
#[command(name = "perftest", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// List the Vulkan devices (index, name, type, ids, driver, version, UUID) and exit.
    #[arg(long)]
    pub list_devices: bool,

    /// List the test names in run order and exit (no GPU needed).
    #[arg(long)]
    pub list_tests: bool,

    /// Devices to run on, comma-separated or repeated: an index (see --list-devices; a number
    /// of one or two digits is only ever an index), `all`, a type (discrete, integrated,
    /// virtual, cpu), vid:did in hex (10de:2330), a deviceUUID or a unique prefix of it, or a
    /// case-insensitive part of the name. Default: the first discrete GPU, else integrated,
    /// else any other, else a CPU device.
    #[arg(short, long, value_name = "SEL")]
    pub device: Vec<String>,

    /// Run several devices one after the other. Default: all at once, one worker per device
    /// (each with its own warm-up, clock probe and drift check); the tests that share the
    /// host — system-memory copies and loads, a submit per dispatch — then run alone on the
    /// node (the other devices' tests wait).
    #[arg(long)]
    pub in_turn: bool,

    /// Run only tests whose name contains TEXT at a word start, case-insensitive, or anywhere
    /// when it starts no word (`Buffer<` selects the typed-buffer tests, not
    /// `StructuredBuffer<`; `32f` every 32-bit float format). Repeatable: any match runs.
    #[arg(short, long = "filter", value_name = "TEXT")]
    pub filters: Vec<String>,

    /// Which tests: `original` (the 138 of the Direct3D 11 tool, the default), `control`
    /// (the loops without loads), `extended` (Vulkan-native resources, sampler set-ups and
    /// the uniform-load probes), `write` (stores and atomics through every writable
    /// resource), `formats` (1D/3D/array textures, the extended formats, host-visible
    /// memory), `instructions` (an instruction timing table: operations per clock and
    /// latency), `ceiling` (the loads unrolled, without the loop), `branch` (two samples
    /// behind a coherent or divergent branch beside 0X–256X of ALU work), `pitfalls` (the
    /// same work done two or three ways: private arrays, struct fields, offsets, switch,
    /// reads in flight, fast math), `matrix` (cooperative-matrix and dot-product
    /// throughput per configuration the driver lists, and latency), `bandwidth` (bandwidth
    /// through each resource over working sets from 4 KB to 1 GB: L1, L2, memory, host;
    /// reads, stores, copies; and copies, fills and what a dispatch costs), `latency` (clocks
    /// per load of a dependent pointer chase through each resource, 4 KB to 256 MB, and by
    /// stride, 4 to 512 bytes apart), or `all`
    /// (every suite, in that order); `health` is the fleet health profile (the rows every
    /// item of the summary reads, in seconds).
    /// Comma-separated or repeated.
    #[arg(long, value_name = "SUITE", value_parser = SuiteParser, value_delimiter = ',')]
    pub suite: Vec<SuiteArg>,

    /// Workgroups of 256 threads per dispatch (each thread performs 256 loads). Default:
    /// calibrated per device, the original's 4096 where the baseline dispatch takes ≤ 20 ms,
    /// fewer on slower devices. Any dispatch estimated over 50 ms is cut (watchdog safety).
    #[arg(long, allow_negative_numbers = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=65535))]
    pub groups: Option<u32>,

    /// Timed dispatches per test (the median is reported). Default: as many as fit 0.25 s of
    /// GPU time per test, between 5 and 20 (5 where they spread by at most 0.25 %), and for a
    /// test whose samples spread more, as many as hold its median within about 0.15 %
    /// ((1.25 × CV / 0.15)², up to 200 and 0.25 s).
    #[arg(long, allow_negative_numbers = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub samples: Option<u32>,

    /// Untimed dispatches before the timed ones, per test (after a global warm-up of 0.2 to
    /// 1 s that brings the clocks up before the first test).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub warmup: u32,

    /// Run the tests in a random order (the baseline still runs first), to expose order
    /// effects such as clock or thermal drift. The seed is printed; `--seed` repeats an order.
    #[arg(long)]
    pub shuffle: bool,

    /// How far (%, either way) the baseline may drift from its start-of-run time before the
    /// rows around it are timed again or flagged `disturbed` (it is re-timed after every block
    /// of tests). Default: five times its spread at the start, between 2 and 50 %; `off`
    /// disables the check.
    #[arg(long, allow_negative_numbers = true, value_name = "PCT|off", value_parser = parse_drift_limit)]
    pub drift_limit: Option<DriftLimit>,

    /// Seed for `--shuffle`.
    #[arg(long, value_name = "N", requires = "shuffle")]
    pub seed: Option<u64>,

    /// Print the driver's statistics for each kernel (registers, instructions…), where the
    /// device offers VK_KHR_pipeline_executable_properties.
    #[arg(long)]
    pub shader_stats: bool,

    /// Write one CSV row per test to FILE, each block of tests' rows once the drift check
    /// after it has settled them (`-` = stdout; the human-readable lines then go to stderr).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Write the results with their full context (device properties and limits, features,
    /// calibration, provenance) to FILE as JSON when the run ends (a regular file is replaced
    /// atomically; a device or FIFO is written in place; symlinks are followed).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// The machine's name in the rows (the `host` column); default: the host name. A Slurm
    /// job passes its node name (`--host "$SLURMD_NODENAME"`), so that `perftest fleet`
    /// tells the machines apart.
    #[arg(long, value_name = "NAME", value_parser = parse_host)]
    pub host: Option<String>,

    /// Layout of the results on stdout.
    #[arg(long, value_enum, default_value_t = crate::report::TerminalFormat::Original)]
    pub format: crate::report::TerminalFormat,

    /// End the run with what the GPU is, on one screen (as `perftest summary` prints it from
    /// the run's rows; see docs/summary.md), after the rows on stdout (on stderr with
    /// `--csv -`). `--suite all` prints it without being asked.
    #[arg(long)]
    pub summary: bool,

    /// Count unsupported tests and rows still flagged (`throttled`, `contended`,
    /// `disturbed`) as failures (exit 1), for CI.
    #[arg(long)]
    pub strict: bool,

    /// Instead of timing, run each test once with the output write on and compare every
    /// thread's sum (for a write test: every element it wrote) with a CPU reference; exit 1
    /// on any mismatch.
    #[arg(long)]
    pub verify: bool,

    /// Enable the Khronos validation layer (with synchronisation validation); any message
    /// makes the run exit 1.
    #[arg(long)]
    pub validation: bool,

    /// Inject a fault, to test that failures are detected.
    #[arg(long, hide = true, value_parser = words(|_: Fault| None))]
    pub fault: Option<Fault>,
}

/// `--drift-limit`: a percentage, or no check at all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DriftLimit {
    Pct(f64),
    Off,
}

fn parse_drift_limit(s: &str) -> Result<DriftLimit, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(DriftLimit::Off);
    }
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 && p <= 1000.0 => Ok(DriftLimit::Pct(p)),
        _ => Err(format!(
            "`{s}` is not a drift limit: give a percentage more than 0 and at most 1000, or \
             `off` to disable the check"
        )),
    }
}

/// A parser of a lower crate's [`Words`] (`--fault`, `compare --format`): clap's own parser
/// of possible values, each with its line of `--help` from `help`.
fn words<T: Words + Send + Sync>(
    help: fn(T) -> Option<&'static str>,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(T::ALL.iter().map(|&v| {
        let value = PossibleValue::new(v.word());
        match help(v) {
            Some(text) => value.help(text),
            None => value,
        }
    }))
    .map(|word| T::from_word(&word).expect("clap took one of the possible values"))
}

/// `compare --format`'s values, as `--help` lists them.
fn compare_format_help(format: crate::compare::CompareFormat) -> Option<&'static str> {
    use crate::compare::CompareFormat;
    Some(match format {
        CompareFormat::Table => "Aligned plain-text columns, for a terminal",
        CompareFormat::Markdown => {
            "A GitHub-flavoured Markdown table, ready to paste into an issue or a README"
        }
    })
}

/// `--suite`'s values: clap's parser of the possible values [`SuiteArg::words`] lists,
/// except that an empty name — `--suite original,` — gets its own error rather than clap's
/// "a value is required", which reads as if no value were given.
#[derive(Clone)]
struct SuiteParser;

impl SuiteParser {
    fn values() -> clap::builder::PossibleValuesParser {
        clap::builder::PossibleValuesParser::new(SuiteArg::words())
    }
}

impl clap::builder::TypedValueParser for SuiteParser {
    type Value = SuiteArg;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<SuiteArg, clap::Error> {
        if value.is_empty() {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                "--suite: an empty suite name (a trailing or doubled comma?)\n",
            )
            .with_cmd(cmd));
        }
        let word = Self::values().parse_ref(cmd, arg, value)?;
        Ok(SuiteArg::from_word(&word).expect("clap took one of the possible values"))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            SuiteArg::words().map(clap::builder::PossibleValue::new),
        ))
    }
}

/// A hint for a word clap took for an unknown subcommand (`perftest original`): the option
/// that takes it, where it names a suite or selects tests; `None` where it is neither.
pub fn subcommand_hint(word: &str) -> Option<String> {
    if let Some(suite) =
        SuiteArg::words().find(|s| clap::builder::PossibleValue::new(*s).matches(word, true))
    {
        return Some(format!("did you mean `--suite {suite}`?"));
    }
    let word = word.trim();
    if word.is_empty() || word.starts_with('-') {
        return None;
    }
    let selects = |tests: &[TestCase]| !catalog::filter(tests, &[word.to_owned()]).is_empty();
    if selects(&catalog::suite(Suite::Original)) {
        Some(format!("did you mean `--filter {word}`?"))
    } else if selects(&catalog::all_tests()) {
        Some(format!("did you mean `--suite all --filter {word}`?"))
    } else {
        None
    }
}

/// `--host`: a name, one word (it is a CSV cell, a word of the fleet's verdict lines that
/// the Slurm health check picks out by it, and a folder's name there).
fn parse_host(s: &str) -> Result<String, String> {
    let name = s.trim();
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "{s:?} is not a machine name: give one word on one line (leave --host out for \
             the host name)"
        ));
    }
    Ok(name.to_string())
}

/// Subcommands; without one, perftest runs the benchmark.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Set CSV results side by side: one row per test, with the percent change and the
    /// speedup of each file (or device) against the first; or, with --reference, the ratios
    /// of each beside the original tool's published ones.
    Compare {
        /// CSV (or JSON) files written by `perftest --csv` (`--json`): at least two; one is
        /// enough with --reference.
        #[arg(value_name = "CSV", required_unless_present = "list_references")]
        files: Vec<PathBuf>,
        /// Set the ratios beside a GPU's published results (PerfTest, Direct3D 11): an
        /// architecture (`gcn5`, `kepler`), a product or a case-insensitive part of a heading
        /// (`3090`), or `all`. Repeatable. The references are also ranked by how close their
        /// ratio profiles are to each file's.
        #[arg(long = "reference", value_name = "NAME")]
        references: Vec<String>,
        /// List the published GPUs --reference can name (no CSV needed).
        #[arg(long, conflicts_with_all = ["files", "references"])]
        list_references: bool,
        /// Output layout.
        #[arg(long, value_parser = words(compare_format_help), default_value = "table")]
        format: crate::compare::CompareFormat,
    },
    /// Write one self-contained HTML report (inline SVG charts and CSS; nothing fetched,
    /// opens offline) of CSV or JSON results: device and provenance, a summary, and each
    /// suite's figure. Several runs are set side by side; three or more of one GPU and
    /// driver are compared as a fleet. See docs/report.md.
    Report {
        /// Result files written by `perftest --csv` or `--json`. Files of one device and
        /// driver that share at most half their tests (its suites run one by one) make one
        /// run; the same tests again make another (see docs/report.md).
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// The HTML file to write (`-`: stdout).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Set the original suite's ratios beside a GPU's published results (as
        /// `compare --reference`; see `perftest compare --list-references`). Repeatable.
        #[arg(long = "reference", value_name = "NAME")]
        references: Vec<String>,
    },
    /// What each GPU of CSV or JSON results is, on one screen: cache edges, latencies and
    /// bandwidths read off the curves, arithmetic peaks, dispatch costs and the load path's
    /// best and worst, each with the rows it came from and beside the vendor's published
    /// figure where the tool knows it. One table per GPU. See docs/summary.md.
    Summary {
        /// Result files written by `perftest --csv` or `--json` (gzipped or not); the files
        /// of one GPU and driver are read as one run (a test's first row counts; of a latency row, the
        /// fastest: several passes of a CPU device's curve read as one).
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Write the summary as JSON to OUT instead of the table (`-`: stdout): every item's
        /// figures with their units (cache edges in bytes, latencies in clk and ns, …), the
        /// published figure and the rows it came from. See docs/summary.md.
        #[arg(long, value_name = "OUT")]
        json: Option<PathBuf>,
    },
    /// A verdict per GPU over many runs: each GPU's summary, item by item, against the other
    /// GPUs of its model and driver (at least 3) and the published figures; `healthy`,
    /// `degraded` (slower than the fleet beyond what its runs vary by, naming the subsystem,
    /// and as slow again in another run of the same GPU), `suspect` (so slow in its only run:
    /// re-measure to confirm) or `not judged`. Exit 0: all healthy; 1: some degraded; 3: none
    /// degraded, some suspect; 2: something could not be judged. See docs/fleet.md.
    Fleet {
        /// Result files written by `perftest --csv` or `--json` (gzipped or not), or folders
        /// searched for them recursively; each device of each file is one GPU.
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
        /// Also write the verdict as JSON to FILE.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Also write, to FILE, the tests to re-measure to confirm every suspect item: one
        /// line each, the GPU's host, a tab, the test (what the Slurm health check reads).
        #[arg(long, value_name = "FILE")]
        retest: Option<PathBuf>,
        /// The folder of the run being checked (among PATHs; every other file is history): a
        /// host with fewer GPUs in it than in one run of the history lacks the GPUs not seen,
        /// each named `missing` (exit 1). GPUs are counted: one replaced since is none.
        #[arg(long, value_name = "DIR")]
        this_run: Option<PathBuf>,
        /// The node being checked: stdout is its part of the verdict (a line per degraded
        /// item of its GPUs, GPU missing, suspect item or reason it is not judged; one line
        /// where it is healthy), and the exit code is its own: 1 degraded, 3 suspect, 2 not
        /// judged (also where another host's GPU is degraded: no reference), else 0; another
        /// host's suspect or unjudged GPU does not fail it. What the Slurm health check
        /// prints and exits with.
        #[arg(long, value_name = "NAME")]
        host: Option<String>,
        /// Also write the whole verdict as text to FILE (what stdout carries without --host).
        #[arg(long, value_name = "FILE")]
        text: Option<PathBuf>,
        /// The smallest slowdown ever called degraded, % (default 5: more than whole runs of
        /// one H100 differ by; see docs/fleet.md).
        #[arg(long, value_name = "PCT", value_parser = parse_threshold,
              allow_negative_numbers = true,
              default_value_t = perftest_results::fleet::FLOOR_PCT)]
        threshold: f64,
    },
}

/// A `--json OUT` of a subcommand that can be written: a file name (or `-`, stdout, where
/// `dash` allows it), not empty and not a folder; else a usage error, said before any input
/// is read.
pub fn check_json_out(path: &Path, dash: bool) -> Result<(), Failure> {
    check_out("--json", path, dash)
}

/// As [`check_json_out`], for the output option `option` (`--retest`), named in the error.
pub fn check_out(option: &str, path: &Path, dash: bool) -> Result<(), Failure> {
    if path.as_os_str() == "-" {
        // `-` is stdout wherever perftest takes it; where it is not taken, it is refused
        // rather than written as a file named `-`.
        return match dash {
            true => Ok(()),
            false => Err(Failure::Usage(format!(
                "{option} needs a file name: `-` (stdout) is not taken here, where stdout \
                 has the command's own output (`./-` names a file called -)"
            ))),
        };
    }
    if path.as_os_str().is_empty() || path.is_dir() {
        let or_dash = if dash { " or -" } else { "" };
        return Err(Failure::Usage(format!(
            "{option} needs a file name{or_dash} (not {:?})",
            path.display().to_string()
        )));
    }
    Ok(())
}

/// `fleet --threshold`: a percentage above 0 and below 1000.
fn parse_threshold(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 && p < 1000.0 => Ok(p),
        _ => Err(format!(
            "`{s}` is not a percentage above 0 and below 1000 (5 for 5 %)"
        )),
    }
}

/// Values of `--suite`: a suite, or one of the selections across suites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuiteArg {
    Suite(Suite),
    /// The fleet health profile (a selection across suites).
    Health,
    /// Every suite.
    All,
}

impl SuiteArg {
    /// Every value's word, as `--help` lists them: the suites, then `health` and `all`.
    pub fn words() -> impl Iterator<Item = &'static str> {
        Suite::ALL.iter().map(|s| s.word()).chain(["health", "all"])
    }

    /// The value `word` names exactly.
    fn from_word(word: &str) -> Option<Self> {
        match word {
            "health" => Some(SuiteArg::Health),
            "all" => Some(SuiteArg::All),
            _ => Suite::from_word(word).map(SuiteArg::Suite),
        }
    }
}

/// What every invocation checks before anything else, the listings included: a filter has
/// a text, a listing is asked for once, and a listing writes no run's outputs.
fn check_listing(
    filters: &[String],
    list_devices: bool,
    list_tests: bool,
    csv: &Option<PathBuf>,
    json: &Option<PathBuf>,
) -> Result<(), Failure> {
    if filters.iter().any(|f| f.trim().is_empty()) {
        return Err(Failure::Usage(
            "--filter needs a text: an empty one would select every test (leave --filter \
             out for that)"
                .into(),
        ));
    }
    if list_devices && list_tests {
        return Err(Failure::Usage(
            "--list-devices and --list-tests: give one (each prints its own list and exits)".into(),
        ));
    }
    let listing = [
        ("--list-devices", list_devices, "the device list"),
        ("--list-tests", list_tests, "the test names"),
    ]
    .into_iter()
    .find(|(_, given, _)| *given);
    if let Some((listing, _, what)) = listing {
        if let Some(flag) = [("--csv", csv.is_some()), ("--json", json.is_some())]
            .into_iter()
            .find_map(|(flag, given)| given.then_some(flag))
        {
            return Err(Failure::Usage(format!(
                "{flag} writes a run's rows; {listing} runs nothing and prints {what} on \
                 stdout (redirect it to keep it)"
            )));
        }
    }
    Ok(())
}

/// `PERFTEST_PAD_MB`'s megabytes (docs/fleet.md), a usage error where it is not a whole
/// number of 1 or more.
fn pad_mb() -> Result<Option<u64>, Failure> {
    let Some(v) = std::env::var_os("PERFTEST_PAD_MB") else {
        return Ok(None);
    };
    match v.to_str().and_then(|s| s.trim().parse::<u64>().ok()) {
        Some(mb) if (1..=1 << 20).contains(&mb) => Ok(Some(mb)),
        _ => Err(Failure::Usage(format!(
            "PERFTEST_PAD_MB={} is not a number of MB (1 to 1048576)",
            v.to_string_lossy()
        ))),
    }
}

/// `PERFTEST_FIRST_TESTS`'s value: `N` (the first N tests of the selection) or `N/family`
/// (the first N of each family), N ≥ 1.
fn rehearsal_count(value: &str) -> Option<(usize, bool)> {
    let (n, per_family) = match value.strip_suffix("/family") {
        Some(n) => (n, true),
        None => (value, false),
    };
    n.parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .map(|n| (n, per_family))
}

/// What one invocation asks for, typed once from clap's [`Args`] (nothing after this reads
/// them): a subcommand, the test list, or a run.
#[derive(Debug)]
pub enum Invocation {
    /// `compare`, `report`, `summary` or `fleet`.
    Command(Command),
    /// `--list-tests`: the selected tests, in run order.
    ListTests(Vec<TestCase>),
    /// A run of the selected tests (or `--list-devices`, which opens Vulkan as a run does).
    Run(Config),
}

/// A run, validated before any GPU work: every option of [`Args`] as the application uses it.
#[derive(Debug)]
pub struct Config {
    /// The selected tests, in run order, with their 1-based index in the full suite.
    pub tests: Vec<(usize, TestCase)>,
    /// How each test is run (`--groups`, `--warmup`, `--samples`, `--verify`, `--fault`).
    pub settings: Settings,
    /// Where `PERFTEST_FIRST_TESTS` cut the selection: (tests kept, tests selected).
    pub rehearsal: Option<(usize, usize)>,
    /// `--list-devices`: print the devices and run nothing.
    pub list_devices: bool,
    /// `--validation`.
    pub validation: bool,
    /// `--device`'s selectors, as given.
    pub devices: Vec<String>,
    /// `--in-turn`.
    pub in_turn: bool,
    /// `--shuffle`, with `--seed`'s seed where given.
    pub shuffle: Option<Option<u64>>,
    /// The drift check: `None` for none (`--drift-limit off`), else its limit (`None` =
    /// automatic).
    pub drift: Option<Option<f64>>,
    /// `--shader-stats`.
    pub shader_stats: bool,
    /// `--csv`: a file, or stdout (`-`).
    pub csv: Option<CsvOut>,
    /// `--json`.
    pub json: Option<PathBuf>,
    /// `--host`.
    pub host: Option<String>,
    /// `--format`.
    pub format: crate::report::TerminalFormat,
    /// Whether the run ends with the summary (`--summary`, `--suite all` or `health`).
    pub summary: bool,
    /// `--strict`.
    pub strict: bool,
}

/// Where `--csv` writes.
#[derive(Debug, Clone, PartialEq)]
pub enum CsvOut {
    /// `--csv -`: the rows on stdout, the human-readable lines on stderr.
    Stdout,
    File(PathBuf),
}

impl CsvOut {
    /// The file's path (none for stdout).
    pub fn path(&self) -> Option<&Path> {
        match self {
            CsvOut::Stdout => None,
            CsvOut::File(p) => Some(p),
        }
    }
}

impl Config {
    /// Whether the CSV goes to stdout (`--csv -`).
    pub fn csv_to_stdout(&self) -> bool {
        self.csv == Some(CsvOut::Stdout)
    }
}

impl Invocation {
    /// Checks the arguments that need no GPU and types them.
    // Long on purpose: every option's check in one place, in the order `--help` lists them,
    // so that each bad input's message is found beside the others.
    pub fn from_args(args: Args) -> Result<Self, Failure> {
        let Args {
            command,
            list_devices,
            list_tests,
            device,
            in_turn,
            filters,
            suite,
            groups,
            samples,
            warmup,
            shuffle,
            drift_limit,
            seed,
            shader_stats,
            csv,
            json,
            host,
            format,
            summary,
            strict,
            verify,
            validation,
            fault,
        } = args;
        if let Some(command) = command {
            return Ok(Invocation::Command(command));
        }
        check_listing(&filters, list_devices, list_tests, &csv, &json)?;
        if list_tests {
            let tests = catalog::filter(&selected_tests(&suite), &filters);
            if tests.is_empty() {
                return Err(Failure::Usage(no_match(&filters)));
            }
            return Ok(Invocation::ListTests(tests));
        }
        let (tests, rehearsal) = selection(&suite, &filters)?;
        if let Some(p) = &csv {
            if p.as_os_str().is_empty() {
                return Err(Failure::Usage(
                    "--csv needs a file name (or - for stdout)".into(),
                ));
            }
        }
        if let Some(p) = &json {
            if p.as_os_str().is_empty() || p.as_os_str() == "-" {
                return Err(Failure::Usage("--json needs a file name".into()));
            }
        }
        // `--csv -` is stdout, not a path.
        let csv = csv.map(|p| match p.as_os_str() == "-" {
            true => CsvOut::Stdout,
            false => CsvOut::File(p),
        });
        // `--csv -` and a `--json` that is this process's stdout however spelt
        // (`/dev/stdout`, `/proc/self/fd/1`, the file the shell redirected it to): the rows
        // and the document would be interleaved in one stream.
        if let (Some(CsvOut::Stdout), Some(json)) = (&csv, &json) {
            if crate::report::path::own_stream(json) == Some(1)
                || crate::report::path::same_file(json, Path::new("/dev/stdout"))
            {
                return Err(Failure::Usage(format!(
                    "--csv - writes CSV to stdout, and --json {} is stdout too; give the JSON \
                     a file of its own",
                    json.display()
                )));
            }
        }
        if let (Some(CsvOut::File(csv)), Some(json)) = (&csv, &json) {
            if crate::report::path::same_file(csv, json) {
                return Err(Failure::Usage(format!(
                    "--csv {} and --json {} are the same file; give each output its own path",
                    csv.display(),
                    json.display()
                )));
            }
        }
        // The diagnostic trace (docs/timing.md): a path it cannot write is said before any
        // GPU work, not lost silently.
        if let Some(path) = std::env::var_os("PERFTEST_TRACE") {
            let path = Path::new(&path);
            // Not one of the run's output files: it is truncated now and its lines would land
            // among the rows. A stream (a terminal, a pipe: `/dev/stderr`) takes both, as asked.
            let outputs = [
                ("--csv", csv.as_ref().and_then(CsvOut::path)),
                ("--json", json.as_deref()),
            ];
            let stream = std::fs::metadata(path).is_ok_and(|m| !m.is_file());
            for (flag, output) in outputs.into_iter().filter(|_| !stream) {
                if let Some(output) = output.filter(|o| crate::report::path::same_file(o, path)) {
                    return Err(Failure::Usage(format!(
                        "PERFTEST_TRACE={} and {flag} {} are the same file; give the trace \
                         its own path",
                        path.display(),
                        output.display()
                    )));
                }
            }
            // Checked as every output is (a read-only file or a folder refused), and not
            // touched yet: the runner writes it in place, line by line, once the run's
            // outputs are open.
            perftest_results::output::OutFile::open("PERFTEST_TRACE=", path, &[])?;
        }
        // An empty selector would silently mean "the default device".
        if let Some(sel) = device
            .iter()
            .find(|s| s.split(',').any(|part| part.trim().is_empty()))
        {
            return Err(Failure::Usage(format!(
                "--device {sel:?} has an empty selector; give an index, `all`, a type, \
                 vid:did, a UUID prefix or part of a name (see --list-devices), or leave \
                 --device out for the default device"
            )));
        }
        if csv == Some(CsvOut::Stdout) && format != crate::report::TerminalFormat::Original {
            return Err(Failure::Usage(
                "--csv - writes CSV to stdout; it cannot be combined with --format".into(),
            ));
        }
        let mode = if verify { Mode::Verify } else { Mode::Time };
        let whole = [SuiteArg::All, SuiteArg::Health];
        Ok(Invocation::Run(Config {
            tests,
            settings: Settings {
                groups,
                warmup,
                samples,
                mode,
                fault,
                pad_mb: pad_mb()?,
            },
            rehearsal,
            list_devices,
            validation,
            devices: device,
            in_turn,
            shuffle: shuffle.then_some(seed),
            drift: match drift_limit {
                Some(DriftLimit::Off) => None,
                Some(DriftLimit::Pct(p)) => Some(Some(p)),
                None => Some(None),
            },
            shader_stats,
            csv,
            json,
            host,
            format,
            summary: summary || suite.iter().any(|s| whole.contains(s)),
            strict,
        }))
    }
}

/// The tests a run selects, in run order, each with its 1-based index in the full suite.
type Selection = Vec<(usize, TestCase)>;

/// The tests a run selects (`--suite`, `--filter`), and where `PERFTEST_FIRST_TESTS` cut
/// them: (tests kept, tests selected).
fn selection(
    suite: &[SuiteArg],
    filters: &[String],
) -> Result<(Selection, Option<(usize, usize)>), Failure> {
    let mut selected = catalog::filter(&selected_tests(suite), filters);
    let mut rehearsal = None;
    if selected.is_empty() {
        return Err(Failure::Usage(no_match(filters)));
    }
    // A rehearsal (docs/testing.md): the documented commands run in CI as written, each
    // cut to the first tests of its selection (and the baseline, where selected), so that
    // every option and output is exercised in seconds on a CPU driver.
    if let Some(first) = std::env::var_os("PERFTEST_FIRST_TESTS") {
        let (n, per_family) = first.to_str().and_then(rehearsal_count).ok_or_else(|| {
            Failure::Usage(format!(
                "PERFTEST_FIRST_TESTS={} is not a count of tests (1 or more, or N/family)",
                first.to_string_lossy()
            ))
        })?;
        // The baseline stays where it was selected: every ratio is relative to it.
        let selected_count = selected.len();
        let baseline = catalog::baseline();
        let had_baseline = selected.contains(&baseline);
        if per_family {
            // The first N of each family: every kernel template, resource kind and
            // check runs once (scripts/windows-check.sh), in seconds.
            let mut seen = std::collections::HashMap::new();
            selected.retain(|t| {
                let count = seen.entry(t.family_index()).or_insert(0usize);
                *count += 1;
                *count <= n
            });
        } else {
            selected.truncate(n);
        }
        if had_baseline && !selected.contains(&baseline) {
            selected.push(baseline);
        }
        rehearsal = Some((selected.len(), selected_count));
    }
    let all = catalog::all_tests();
    let tests = selected
        .into_iter()
        .map(|t| (all.iter().position(|s| *s == t).unwrap() + 1, t))
        .collect();
    Ok((tests, rehearsal))
}

/// Why the filters select nothing, as one sentence: where another suite holds tests they
/// match, which (with the `--suite` that runs them).
fn no_match(filters: &[String]) -> String {
    let quoted = filters
        .iter()
        .map(|f| format!("{f:?}"))
        .collect::<Vec<_>>()
        .join(" --filter ");
    let elsewhere: Vec<String> = Suite::ALL
        .iter()
        .filter_map(|s| {
            let n = catalog::filter(&catalog::suite(*s), filters).len();
            (n > 0).then(|| format!("{n} in --suite {s}"))
        })
        .collect();
    if elsewhere.is_empty() {
        format!("--filter {quoted} matches no test of any suite; see `perftest --suite all --list-tests`")
    } else {
        format!(
            "--filter {quoted} matches no test of the suites selected, but {} (--suite all runs every suite)",
            elsewhere.join(", ")
        )
    }
}

/// The tests `--suite` selects, in run order: its suites' and, for `health`, the profile's.
fn selected_tests(args: &[SuiteArg]) -> Vec<TestCase> {
    let suites = selected_suites(args);
    let health = args.contains(&SuiteArg::Health).then(catalog::health);
    catalog::all_tests()
        .into_iter()
        .filter(|t| suites.contains(&t.suite()) || health.as_ref().is_some_and(|h| h.contains(t)))
        .collect()
}

/// The suites `--suite` names (the default: the original, so that a plain run and
/// `--list-tests` stay exactly the original's list; `health` names none).
fn selected_suites(args: &[SuiteArg]) -> Vec<Suite> {
    let mut out = Vec::new();
    for a in args {
        match a {
            SuiteArg::Suite(s) => out.push(*s),
            SuiteArg::All => out.extend(Suite::ALL),
            // A selection across suites, not a suite: see `selected_tests`.
            SuiteArg::Health => {}
        }
    }
    if args.is_empty() {
        out.push(Suite::Original);
    }
    out.sort();
    out.dedup();
    out
}
