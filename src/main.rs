//! The `perftest` binary: parse arguments, run, map failures to exit codes.

use clap::Parser;
use perftest::error::Failure;

fn main() {
    let args = perftest::cli::Args::try_parse().unwrap_or_else(|e| hint(e).exit());
    let code = match perftest::run(args) {
        Ok(code) => code,
        // The reader went away (`perftest --list-tests | head`): stop quietly, as `ls` does.
        Err(e) if broken_pipe(&e) => 0,
        Err(e) => {
            eprintln!("perftest: error: {e:#}");
            if e.downcast_ref::<perftest::gpu::NoVulkan>().is_some() {
                3
            } else {
                e.downcast_ref::<Failure>().map_or(1, Failure::exit_code)
            }
        }
    };
    std::process::exit(code);
}

/// `e`, with a tip where clap took a suite's or a test's name for a subcommand
/// (`perftest original`: "did you mean `--suite original`?").
fn hint(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidSubcommand {
        return e;
    }
    let word = match e.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(w)) => w.clone(),
        _ => return e,
    };
    if let Some(tip) = perftest::cli::subcommand_hint(&word) {
        e.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec![tip.into()]),
        );
    }
    e
}

/// Whether `e` is (caused by) a write to a closed pipe.
fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
