//! scripts/reproduce.sh: every committed results folder's command file dry-runs.

use crate::common::root;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every folder under results/ that holds a command.sh, relative to the repository root.
fn folders_with_commands() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![PathBuf::from("results")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(root().join(&dir)).unwrap() {
            let path = dir.join(entry.unwrap().file_name());
            if root().join(&path).is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "command.sh") {
                found.push(dir.clone());
            }
        }
    }
    found.sort();
    found
}

/// The commands `scripts/reproduce.sh --dry-run DIR /OUT` prints.
fn dry_run(dir: &Path) -> String {
    let o = Command::new("bash")
        .arg(root().join("scripts/reproduce.sh"))
        .arg("--dry-run")
        .arg(dir)
        .arg("/OUT")
        .current_dir(root())
        .env_remove("PERFTEST_ARGS")
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{}: {stderr}", dir.display());
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn every_command_file_dry_runs_into_perftest_commands() {
    let folders = folders_with_commands();
    // The folders the per-suite scripts made, and the top-level run.
    for name in [
        "h100",
        "h100/bandwidth",
        "h100/latency",
        "h100/write",
        "h100/clock",
    ] {
        assert!(
            folders.contains(&Path::new("results").join(name)),
            "results/{name} has a command.sh"
        );
    }
    for dir in &folders {
        let out = dry_run(dir);
        let runs: Vec<&str> = out.lines().filter(|l| l.starts_with("perftest ")).collect();
        assert!(
            !runs.is_empty(),
            "{}: no perftest run in\n{out}",
            dir.display()
        );
        // Every output lands in OUTDIR, never in the committed folder (a system file named
        // on purpose, `/proc/version` as a `--json` to refuse, is neither).
        for line in &runs {
            for word in line
                .split(' ')
                .filter(|w| w.contains('/') && !w.contains('<'))
            {
                let system = ["/proc/", "/dev/"].iter().any(|p| word.starts_with(p));
                assert!(
                    word.starts_with("/OUT/") || system,
                    "{}: {line}",
                    dir.display()
                );
            }
        }
    }
}

#[test]
fn a_dry_run_prints_exactly_the_recorded_commands() {
    let out = dry_run(Path::new("results/h100/pitfalls"));
    assert_eq!(
        out,
        "perftest --suite pitfalls --verify --csv /OUT/verify.csv\n\
         perftest --suite pitfalls --csv /OUT/run1.csv\n\
         perftest --suite pitfalls --csv /OUT/run2.csv\n\
         perftest --suite pitfalls --samples 5 --shader-stats\n"
    );
}

#[test]
fn a_folder_without_a_command_file_is_refused() {
    let o = Command::new("bash")
        .arg(root().join("scripts/reproduce.sh"))
        .args(["--dry-run", "results/lavapipe/probe"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no command.sh"));
}

#[test]
fn a_dry_run_runs_no_build_the_environment_names_and_prints_any_outdir() {
    // results/h100/clock's `old` step runs $OLD, an earlier build: a dry run prints it as
    // `perftest-old …` and runs nothing. An OUTDIR with `|` and `&` is printed as it is; the
    // words of PERFTEST_ARGS are grouped as a shell's are.
    let dir = crate::common::tempdir("reproduce-old");
    let marker = dir.join("ran");
    let old = dir.join("old.sh");
    std::fs::write(&old, format!("#!/bin/sh\ntouch {}\n", marker.display())).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let o = Command::new("bash")
        .arg(root().join("scripts/reproduce.sh"))
        .args(["--dry-run", "results/h100/clock", "/O|U&T", "old"])
        .current_dir(root())
        .env("OLD", &old)
        .env("PERFTEST_ARGS", "--filter \"cbuffer{float4} load uniform\"")
        .output()
        .expect("bash runs");
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{err}");
    assert!(!marker.exists(), "the dry run ran $OLD");
    let runs: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("perftest-old "))
        .collect();
    assert_eq!(runs.len(), 5, "{out}");
    assert!(
        runs[0].starts_with("perftest-old --filter 'cbuffer{float4} load uniform' --csv /O|U&T/"),
        "{}",
        runs[0]
    );
}
