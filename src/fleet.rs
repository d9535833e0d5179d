//! `perftest fleet`: the verdict over result files and folders, on stdout and in `--json FILE`; its exit code is the verdict's.

use crate::error::Failure;
use anyhow::{Context as _, Result};
use perftest_results::fleet;
use perftest_results::output::OutFile;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Reads `paths`, judges every GPU in them (`threshold`: the floor, %), prints the verdict
/// and writes it to `json`, and the tests of its suspect items to `retest`; returns the
/// verdict's exit code (0 healthy, 1 degraded, 3 suspect, 2 not judged); `this_run`: the
/// folder of the run checked, whose hosts' missing GPUs are named. An unwritable `--json`
/// or `--retest` is a usage error (exit 2), said before any file is read.
pub fn run(
    paths: &[PathBuf],
    json: Option<&Path>,
    retest: Option<&Path>,
    threshold: f64,
    this_run: Option<&Path>,
) -> Result<i32> {
    if let Some(dir) = this_run.filter(|d| !d.is_dir()) {
        return Err(Failure::Usage(format!(
            "--this-run {} is no folder: give the folder of the run checked",
            dir.display()
        ))
        .into());
    }
    let out = match json {
        Some(path) => {
            crate::cli::check_json_out(path, false)?;
            Some(OutFile::open("--json", path, paths)?)
        }
        None => None,
    };
    let retest = match retest {
        Some(path) => {
            crate::cli::check_out("--retest", path, false)?;
            Some(OutFile::open("--retest", path, paths)?)
        }
        None => None,
    };
    if let (Some(json), Some(retest)) = (&out, &retest) {
        if perftest_results::path::same_file(json.path(), retest.path()) {
            return Err(Failure::Usage(format!(
                "--json {} and --retest {} are the same file; give each output its own path",
                json.path().display(),
                retest.path().display()
            ))
            .into());
        }
    }
    let read = fleet::read_paths(paths);
    // A file found in a folder given as input (`fleet runs/ --json runs/n1.csv`).
    for out in out.iter().chain(&retest) {
        out.refuse_inputs(&read.files)?;
    }
    // A run folder nothing was read from would check no host: said, not passed silently.
    if let Some(dir) = this_run {
        let dir_c = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let under = |f: &Path| std::fs::canonicalize(f).is_ok_and(|f| f.starts_with(&dir_c));
        if !read.gpus.iter().any(|g| under(&g.file)) {
            return Err(Failure::Usage(format!(
                "--this-run {}: no GPU of the paths was read from it (give it, or the folder \
                 holding it, among the paths)",
                dir.display()
            ))
            .into());
        }
    }
    let verdict = fleet::verdict(read, &crate::catalog::names(), threshold, this_run);
    if let Some(out) = out {
        let text = fleet::json(&verdict).context("the verdict as JSON")?;
        out.write((text + "\n").as_bytes())
            .map_err(|e| Failure::Usage(format!("{e:#}")))?;
    }
    if let Some(retest) = retest {
        let mut lines = String::new();
        for g in verdict.gpus() {
            for f in g
                .findings
                .iter()
                .filter(|f| f.call == fleet::Call::Unconfirmed)
            {
                for t in &f.tests {
                    lines += &format!("{}\t{t}\n", g.host);
                }
            }
        }
        retest
            .write(lines.as_bytes())
            .map_err(|e| Failure::Usage(format!("{e:#}")))?;
    }
    // A reader that went away (`perftest fleet DIR | head`) leaves the exit code as it is.
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(fleet::text(&verdict).as_bytes())
        .and_then(|_| out.flush());
    Ok(verdict.exit_code)
}
