//! The `perftest` binary: parse arguments, run, map failures to exit codes.

use clap::Parser;
use perftest::error::Failure;

fn main() {
    let args = perftest::cli::Args::parse();
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

/// Whether `e` is (caused by) a write to a closed pipe.
fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
