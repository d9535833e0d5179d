//! The whole run is the product: every suite in one process on lavapipe (a thin slice of
//! each, small dispatches), and a quiet run flags no row. Its own test binary, so that no
//! other test shares the CPU with it.

mod common;
use common::*;

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

#[test]
fn a_quiet_run_of_every_suite_flags_no_row() {
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
    let o = run(&args);
    let err = stderr(&o);
    assert!(
        o.status.success(),
        "--strict failed: a quiet run flagged rows\n{err}"
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
    for r in &timed {
        assert!(
            ["steady", "re-measured"].contains(&r["conditions"].as_str()),
            "{}: {} ({})\n{err}",
            r["test"],
            r["conditions"],
            r["reason"]
        );
    }
    assert!(
        !err.contains("still flagged") || err.contains(" 0 still flagged"),
        "{err}"
    );
}
