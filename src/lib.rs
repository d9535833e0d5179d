//! perftest: GPU shader load-throughput microbenchmark, a Vulkan port of PerfTest.

pub mod catalog;
pub mod cli;
pub mod data;
pub mod error;
pub mod gpu;
pub mod kernels;
pub mod pipeline;
pub mod report;
pub mod resources;
pub mod runner;
pub mod select;
pub mod timer;

use anyhow::{Context as _, Result};
use catalog::BASELINE;
use cli::Config;
use error::Failure;
use report::{Csv, Reporter, Row, Terminal};
use runner::{Measurement, Mode, Runner, Settings, Status};
use std::io::Write;
use std::sync::atomic::Ordering;

/// Runs the tool with parsed arguments; returns the process exit code.
pub fn run(args: cli::Args) -> Result<i32> {
    if args.list_tests {
        let mut out = std::io::stdout().lock();
        for t in catalog::original_suite() {
            writeln!(out, "{}", t.name())?;
        }
        return Ok(0);
    }
    let config = Config::from_args(args)?;
    let args = &config.args;

    // Open outputs before any GPU work, so a bad path fails fast.
    let csv_to_stdout = args.csv.as_deref().is_some_and(|p| p.as_os_str() == "-");
    let mut reporters: Vec<Box<dyn Reporter>> = Vec::new();
    let human: Box<dyn Write> = if csv_to_stdout {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    if let Some(path) = &args.csv {
        let out: Box<dyn Write> = if csv_to_stdout {
            Box::new(std::io::stdout())
        } else {
            Box::new(std::fs::File::create(path).map_err(|e| {
                Failure::Usage(format!("cannot write --csv {}: {e}", path.display()))
            })?)
        };
        reporters.push(Box::new(Csv::new(out)?));
    }

    let instance = gpu::Instance::new(args.validation)?;
    if instance.devices.is_empty() {
        return Err(Failure::NoVulkan(
            "no Vulkan device found. Install a Vulkan driver (for a CPU device: \
             `sudo apt install mesa-vulkan-drivers`), or check VK_DRIVER_FILES / VK_ICD_FILENAMES \
             if set"
                .into(),
        )
        .into());
    }
    if args.list_devices {
        print!("{}", select::details(&instance.devices));
        return Ok(validation_exit(0));
    }
    let choice = select::choose(&instance.devices, args.device.as_deref())?;
    let device = &instance.devices[choice.index];
    eprintln!(
        "perftest: using device {} ({}): {}",
        device.index, device.name, choice.why
    );

    let mut human = human;
    writeln!(human, "Devices:")?;
    for line in select::summary_lines(&instance.devices) {
        writeln!(human, "{line}")?;
    }
    writeln!(human, "Using device {}: {}", device.index, device.name)?;
    reporters.insert(0, Box::new(Terminal::new(human)));

    let settings = Settings {
        groups: args.groups,
        warmup: args.warmup,
        samples: args.samples,
        mode: config.mode,
        fault: args.fault,
    };
    let gpu = gpu::Gpu::new(&instance, device)?;
    let runner = Runner::new(&gpu, &instance, settings)
        .with_context(|| format!("preparing the test data on {}", device.name))?;

    // The baseline runs first so that every line can carry its ratio as it is printed.
    let has_baseline = config.tests.iter().any(|(_, t)| *t == BASELINE);
    let baseline: Option<Measurement> =
        (has_baseline && config.mode == Mode::Time).then(|| runner.run(&BASELINE));
    let baseline_ms = baseline.as_ref().and_then(|m| m.stats).map(|s| s.median_ms);
    if config.mode == Mode::Time && baseline_ms.is_none() {
        eprintln!(
            "perftest: the baseline {} {}; ratios are left out",
            BASELINE.name(),
            if has_baseline {
                "failed"
            } else {
                "is not selected"
            }
        );
    }

    let mut failed = 0;
    for (test_index, test) in &config.tests {
        let m = match &baseline {
            Some(b) if *test == BASELINE => b.clone(),
            _ => runner.run(test),
        };
        if matches!(m.status, Status::Mismatch | Status::Error) {
            failed += 1;
        }
        let ratio = match (baseline_ms, m.stats) {
            (Some(b), Some(s)) => Some(b / s.median_ms),
            _ => None,
        };
        let row = Row {
            device,
            test_index: *test_index,
            measurement: &m,
            ratio,
            mode: config.mode,
        };
        for r in reporters.iter_mut() {
            r.row(&row)?;
        }
    }
    for r in reporters.iter_mut() {
        r.finish()?;
    }
    drop(runner);
    drop(gpu);
    drop(instance);
    if failed > 0 {
        eprintln!("perftest: {failed} test(s) failed");
    }
    Ok(validation_exit(if failed > 0 { 1 } else { 0 }))
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
