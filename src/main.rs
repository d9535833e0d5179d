//! The `perftest` binary: parse arguments, run, map failures to exit codes.

use clap::Parser;
use perftest::error::Failure;

fn main() {
    let args = perftest::cli::Args::parse();
    let code = match perftest::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("perftest: error: {e:#}");
            e.downcast_ref::<Failure>().map_or(1, Failure::exit_code)
        }
    };
    std::process::exit(code);
}
