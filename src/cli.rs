//! Command-line arguments (clap) and the checks that turn them into one validated `Config`.

use crate::catalog::{self, TestCase};
use crate::error::Failure;
use crate::runner::{Fault, Mode};
use clap::Parser;
use std::path::PathBuf;

/// Measures how fast compute shaders read data through each kind of Vulkan resource
/// (texel buffers, storage and uniform buffers, sampled images): a Vulkan port of PerfTest.
#[derive(Parser, Debug)]
#[command(name = "perftest", version, about, long_about = None)]
pub struct Args {
    /// List the Vulkan devices (index, name, type, ids, driver, version, UUID) and exit.
    #[arg(long)]
    pub list_devices: bool,

    /// List the test names in run order and exit (no GPU needed).
    #[arg(long)]
    pub list_tests: bool,

    /// Device to run on, by index (see --list-devices). Default: the first discrete GPU,
    /// else integrated, else any other, else a CPU device.
    #[arg(short, long, value_name = "N")]
    pub device: Option<String>,

    /// Run only tests whose name contains TEXT at a word start, case-insensitive
    /// (`Buffer<` selects the typed-buffer tests, not `StructuredBuffer<`). Repeatable: a test
    /// runs if any filter matches.
    #[arg(short, long = "filter", value_name = "TEXT")]
    pub filters: Vec<String>,

    /// Workgroups of 256 threads per dispatch (each thread performs 256 loads).
    #[arg(long, value_name = "N", default_value_t = 4096,
          value_parser = clap::value_parser!(u32).range(1..=65535))]
    pub groups: u32,

    /// Timed dispatches per test (the median is reported).
    #[arg(long, value_name = "N", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub samples: u32,

    /// Untimed dispatches before the timed ones, per test.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(0..=10000))]
    pub warmup: u32,

    /// Write one CSV row per test to FILE as each test finishes (`-` = stdout; the
    /// human-readable lines then go to stderr).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Instead of timing, run each test once with the output write on and compare every
    /// thread's sum with a CPU reference; exit 1 on any mismatch.
    #[arg(long)]
    pub verify: bool,

    /// Enable the Khronos validation layer (with synchronisation validation); any message
    /// makes the run exit 1.
    #[arg(long)]
    pub validation: bool,

    /// Inject a fault, to test that failures are detected.
    #[arg(long, hide = true, value_enum)]
    pub fault: Option<Fault>,
}

/// What to do, validated before any GPU work.
#[derive(Debug)]
pub struct Config {
    pub args: Args,
    /// The selected tests, in run order, with their 1-based index in the full suite.
    pub tests: Vec<(usize, TestCase)>,
    pub mode: Mode,
}

impl Config {
    /// Checks the arguments that need no GPU.
    pub fn from_args(args: Args) -> Result<Self, Failure> {
        let suite = catalog::original_suite();
        let selected = catalog::filter(&suite, &args.filters);
        if selected.is_empty() {
            return Err(Failure::Usage(format!(
                "--filter {} matches no test; see `perftest --list-tests`",
                args.filters
                    .iter()
                    .map(|f| format!("{f:?}"))
                    .collect::<Vec<_>>()
                    .join(" --filter ")
            )));
        }
        let tests = selected
            .into_iter()
            .map(|t| (suite.iter().position(|s| *s == t).unwrap() + 1, t))
            .collect();
        if let Some(p) = &args.csv {
            if p.as_os_str().is_empty() {
                return Err(Failure::Usage(
                    "--csv needs a file name (or - for stdout)".into(),
                ));
            }
        }
        let mode = if args.verify {
            Mode::Verify
        } else {
            Mode::Time
        };
        Ok(Config { args, tests, mode })
    }
}
