//! perftest: GPU shader load-throughput microbenchmark, a Vulkan port of PerfTest.

pub mod catalog;
pub mod cli;
pub mod compare;
pub mod data;
pub mod error;
pub mod gpu;
pub mod kernels;
pub mod pipeline;
pub mod provenance;
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
    if let Some(cli::Command::Compare { files, format }) = &args.command {
        let table =
            compare::compare_files(files, *format).map_err(|e| Failure::Usage(format!("{e:#}")))?;
        print!("{table}");
        return Ok(0);
    }
    if args.list_tests {
        // Alone, the original's list byte for byte; with --suite, the suites asked for.
        let suites = cli::selected_suites(&args.suite);
        let mut out = std::io::stdout().lock();
        for t in catalog::filter(&catalog::suites(&suites), &args.filters) {
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
    let cal = runner.calibration;
    eprintln!(
        "perftest: {} groups per dispatch ({}; baseline at 4096 groups ≈ {:.3} ms), \
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
    );
    let mut order = config.tests.clone();
    if args.shuffle {
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        eprintln!("perftest: --shuffle --seed {seed}");
        shuffle(&mut order, seed);
    }

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
    for (test_index, test) in &order {
        let m = match &baseline {
            Some(b) if *test == BASELINE => b.clone(),
            _ => runner.run(test),
        };
        if matches!(m.status, Status::Mismatch | Status::Error) {
            failed += 1;
        }
        // Throughput ratio: equal to the time ratio when both ran the same dispatch size,
        // and still right when a dispatch was cut to the watchdog budget.
        let ratio = match (&baseline, baseline_ms, m.stats) {
            (Some(b), Some(b_ms), Some(s)) => {
                let b_rate = b.test.loads_per_dispatch(b.groups) as f64 / b_ms;
                let rate = m.test.loads_per_dispatch(m.groups) as f64 / s.median_ms;
                Some(rate / b_rate)
            }
            _ => None,
        };
        // A cut chosen by calibration is by design (the CSV keeps the note); a cut of an
        // explicit --groups is a warning.
        if m.status == Status::Ok && !m.reason.is_empty() && !cal.auto {
            eprintln!("perftest: {}: {}", m.test.name(), m.reason);
        }
        let row = Row {
            device,
            test_index: *test_index,
            measurement: &m,
            ratio,
            mode: config.mode,
            clock_mhz: cal.clock_mhz,
            warmup: args.warmup,
        };
        for r in reporters.iter_mut() {
            r.row(&row)?;
        }
        if args.shader_stats {
            print_shader_stats(&m);
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
