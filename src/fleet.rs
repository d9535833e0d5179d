//! `perftest fleet`: the verdict over result files and folders, on stdout and in `--json FILE`; its exit code is the verdict's.

use crate::error::Failure;
use anyhow::{Context as _, Result};
use perftest_results::fleet;
use perftest_results::output::OutFile;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Reads `paths`, judges every GPU in them (`threshold`: the floor, %), prints the verdict
/// and writes it to `json`; returns the verdict's exit code (0 healthy, 1 degraded, 2 not
/// judged). An unwritable `--json` is a usage error (exit 2), said before any file is read.
pub fn run(paths: &[PathBuf], json: Option<&Path>, threshold: f64) -> Result<i32> {
    let out = match json {
        Some(path) => {
            crate::cli::check_json_out(path, false)?;
            Some(OutFile::open("--json", path, paths)?)
        }
        None => None,
    };
    let read = fleet::read_paths(paths);
    if let Some(out) = &out {
        // A file found in a folder given as input (`fleet runs/ --json runs/n1.csv`).
        out.refuse_inputs(&read.files)?;
    }
    let verdict = fleet::verdict(read, &crate::catalog::names(), threshold);
    if let Some(out) = out {
        let text = fleet::json(&verdict).context("the verdict as JSON")?;
        out.write((text + "\n").as_bytes())
            .map_err(|e| Failure::Usage(format!("{e:#}")))?;
    }
    // A reader that went away (`perftest fleet DIR | head`) leaves the exit code as it is.
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(fleet::text(&verdict).as_bytes())
        .and_then(|_| out.flush());
    Ok(verdict.exit_code)
}
