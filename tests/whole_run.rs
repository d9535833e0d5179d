//! The whole run is the product: every suite in one process on lavapipe (a thin slice of
//! each, small dispatches), and a quiet run flags no row. Its own test binary, so that no
//! other test shares the CPU with it.

mod common;
use common::*;
use std::collections::BTreeSet;

/// A few tests of every suite, the self-timed dispatch rows (which leave a CPU device in
/// another state for a while) among them.
const SLICE: &[&str] = &[
    "Buffer<RGBA8>",
    "Control: loop",
    "RWStructuredBuffer<uint>.Store",
    "Texture1D<RGBA8>",
    "fp32 add",
    "Buffer<R8>.Load linear (unrolled",
    "16X Coherent branch",
    "Pitfall private array",
    "matrix: dot",
    " 64 KB",
    "dispatch:",
];

/// A quiet run flags no row. This VM's lavapipe is not always quiet: its baseline has moved
/// by −47 % and +96 % within seconds with nothing else running (CI saw 26 rows rightly
/// flagged `disturbed`), and by ±25 % on one thread. A flag the tool causes itself (a suite
/// leaving the device in another state) comes back in every run at the same rows; the
/// machine's noise lands on other rows each time (two CI runs of 2026-11-28 flagged the
/// dispatch rows in one run and the 64 KB bandwidth or latency rows in the next). So the run
/// fails only where a row is flagged in two runs: after two runs that flagged different rows,
/// a third decides.
#[test]
fn a_quiet_run_of_every_suite_flags_no_row() {
    let mut runs: Vec<(BTreeSet<String>, String)> = Vec::new();
    for attempt in 1..=3 {
        let Err(flagged) = whole_run() else {
            return;
        };
        if let Some(again) = runs
            .iter()
            .find_map(|(rows, _)| rows.intersection(&flagged.0).next().cloned())
        {
            let earlier: Vec<&str> = runs.iter().map(|(_, t)| t.as_str()).collect();
            panic!(
                "`{again}` flagged in two runs (run {attempt} and an earlier one)\n--- this \
                 run:\n{}\n--- earlier:\n{}",
                flagged.1,
                earlier.join("\n---\n")
            );
        }
        eprintln!(
            "whole_run: run {attempt} flagged rows no earlier run flagged, trying once more:\n{}",
            flagged.1
        );
        runs.push(flagged);
    }
    panic!(
        "three runs flagged rows, each other rows (a machine this noisy cannot say)\n{}",
        runs.iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}

/// One run of the slice: `Err` with the tests it flagged, and them with their flags and the
/// run's stderr. What the run must hold whatever the machine does (every suite in it, enough
/// rows timed) is asserted.
fn whole_run() -> Result<(), (BTreeSet<String>, String)> {
    let dir = tempdir("whole-run");
    let csv = dir.join("all.csv");
    let mut args = vec![
        "--device",
        lavapipe(),
        "--suite",
        "all",
        "--groups",
        "8",
        "--samples",
        "3",
        "--csv",
        csv.to_str().unwrap(),
    ];
    for f in SLICE {
        args.extend(["--filter", f]);
    }
    // On one lavapipe thread (common::perftest): with two on this VM's two cores, the
    // 1024-dispatch rows leave them on one core for a while (the baseline 0.43 ms before,
    // 0.87 ms after: rightly flagged, the device's state and not the tool's).
    let o = run(&args);
    let err = stderr(&o);
    assert!(
        o.status.success(),
        "the run failed (the slice runs without --strict)\n{err}"
    );
    let rows = csv_rows(&csv);
    // Every suite is in the run.
    for (suite, test) in [
        ("original", "Buffer<RGBA8>.Load uniform"),
        ("control", "Control: loop 1D"),
        (
            "extended",
            "Buffer<RGBA8>.Load uniform (elected lane + broadcast)",
        ),
        ("write", "RWStructuredBuffer<uint>.Store uniform"),
        ("formats", "Texture1D<RGBA8>.Load uniform"),
        ("instructions", "fp32 add"),
        ("ceiling", "Buffer<R8>.Load linear (unrolled ceiling)"),
        ("branch", "16X Coherent branch baseline"),
        ("matrix", "matrix: dot f16vec2"),
        ("bandwidth", "bandwidth: ByteAddressBuffer.Load4 64 KB"),
        ("latency", "latency: Buffer<uint> 64 KB"),
        (
            "dispatch",
            "dispatch: 1024 empty dispatches, one command buffer",
        ),
    ] {
        assert!(
            rows.iter().any(|r| r["test"] == test),
            "{suite}: no row {test}"
        );
    }
    let timed: Vec<_> = rows.iter().filter(|r| r["status"] == "ok").collect();
    assert!(timed.len() > 60, "{} rows timed", timed.len());
    let flagged: Vec<String> = timed
        .iter()
        .filter(|r| !["steady", "re-measured"].contains(&r["conditions"].as_str()))
        .map(|r| format!("{}: {} ({})", r["test"], r["conditions"], r["reason"]))
        .collect();
    if !flagged.is_empty() {
        let tests = timed
            .iter()
            .filter(|r| !["steady", "re-measured"].contains(&r["conditions"].as_str()))
            .map(|r| r["test"].clone())
            .collect();
        return Err((tests, format!("{}\n{err}", flagged.join("\n"))));
    }
    // The run's own count agrees with its rows.
    assert!(
        !err.contains("still flagged") || err.contains(" 0 still flagged"),
        "{err}"
    );
    Ok(())
}
