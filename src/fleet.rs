//! `perftest fleet`: the verdict over result files and folders, on stdout and in `--json FILE`; its exit code is the verdict's.

use crate::error::Failure;
use anyhow::{Context as _, Result};
use perftest_results::fleet;
use perftest_results::output::OutFile;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `perftest fleet` writes besides its stdout, and what it judges.
pub struct Options<'a> {
    /// The verdict as JSON.
    pub json: Option<&'a Path>,
    /// The tests of its suspect items, a line each: host, tab, test.
    pub retest: Option<&'a Path>,
    /// The whole verdict as text (what stdout carries without `host`).
    pub text: Option<&'a Path>,
    /// The folder of the run checked, whose hosts' missing GPUs are named.
    pub this_run: Option<&'a Path>,
    /// The node checked: stdout and the exit code are its verdict ([`fleet::host_verdict`]).
    pub host: Option<&'a str>,
    /// The floor, %.
    pub threshold: f64,
}

/// Reads `paths`, judges every GPU in them, prints the verdict (or `host`'s part of it) and
/// writes the outputs `o` names; returns the verdict's exit code (0 healthy, 1 degraded, 3
/// suspect, 2 not judged), or `host`'s. An unwritable output, or two outputs naming one
/// file, is a usage error (exit 2), said before any file is read.
pub fn run(paths: &[PathBuf], o: &Options) -> Result<i32> {
    if let Some(dir) = o.this_run.filter(|d| !d.is_dir()) {
        return Err(Failure::Usage(format!(
            "--this-run {} is no folder: give the folder of the run checked",
            dir.display()
        ))
        .into());
    }
    // As the run's `--host` reads it (trimmed, one word), so that both name one node.
    let host = o.host.map(str::trim);
    if let Some(host) = host {
        if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(Failure::Usage(format!(
                "--host {:?}: give the node's name as its rows' `host` column spells it",
                o.host.unwrap_or_default()
            ))
            .into());
        }
    }
    let open = |option: &'static str, path: Option<&Path>| -> Result<Option<OutFile>> {
        let Some(path) = path else { return Ok(None) };
        if option == "--json" {
            crate::cli::check_json_out(path, false)?;
        } else {
            crate::cli::check_out(option, path, false)?;
        }
        Ok(Some(OutFile::open(option, path, paths)?))
    };
    let outs = [
        ("--json", open("--json", o.json)?),
        ("--retest", open("--retest", o.retest)?),
        ("--text", open("--text", o.text)?),
    ];
    for (i, (a, x)) in outs.iter().enumerate() {
        for (b, y) in &outs[i + 1..] {
            if let (Some(x), Some(y)) = (x, y) {
                if perftest_results::path::same_file(x.path(), y.path()) {
                    return Err(Failure::Usage(format!(
                        "{a} {} and {b} {} are the same file; give each output its own path",
                        x.path().display(),
                        y.path().display()
                    ))
                    .into());
                }
            }
        }
    }
    let [(_, out), (_, retest), (_, text_out)] = outs;
    let read = fleet::read_paths(paths);
    // A file found in a folder given as input (`fleet runs/ --json runs/n1.csv`).
    for out in out.iter().chain(&retest).chain(&text_out) {
        out.refuse_inputs(&read.files)?;
    }
    // A run folder nothing was read from would check no host: said, not passed silently.
    if let Some(dir) = o.this_run {
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
    let verdict = fleet::verdict(read, &crate::catalog::names(), o.threshold, o.this_run);
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
    let whole = fleet::text(&verdict);
    if let Some(text_out) = text_out {
        text_out
            .write(whole.as_bytes())
            .map_err(|e| Failure::Usage(format!("{e:#}")))?;
    }
    let (said, code) = match host {
        Some(host) => {
            let h = fleet::host_verdict(&verdict, host, o.this_run);
            (fleet::host_text(&h), h.exit_code)
        }
        None => (whole, verdict.exit_code),
    };
    // A reader that went away (`perftest fleet DIR | head`) leaves the exit code as it is;
    // a stdout that takes no bytes (a full disk) loses the verdict: said, exit 2.
    let mut out = std::io::stdout().lock();
    match out.write_all(said.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::Usage(format!("stdout: the verdict could not be written: {e}")).into())
        }
        _ => Ok(code),
    }
}
