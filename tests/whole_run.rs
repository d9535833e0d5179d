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
/// leaving the device in another state) comes back in every run at the same rows, and only
/// ever makes the baseline slower; the machine's noise lands on other rows each time, and
/// swings both ways (CI's machine of 2026-11-28 ran the baseline at 0.57, 0.73 and 0.97 ms in
/// one run: it re-based to the fast spell, and every row after the slow one came back was
/// rightly flagged — in two runs, `Control: loop` both times). So a run counts as evidence only
/// where its baseline never ran faster than its reference beyond the limit (no swing both
/// ways) and it flagged no more than half its rows (a machine slow all run long flags them
/// all; three such runs fail), and the test fails where a row is flagged in two such runs; up
/// to three runs.
#[test]
fn a_quiet_run_of_every_suite_flags_no_row() {
    let mut quiet: Vec<Flagged> = Vec::new();
    let mut swinging = Vec::new();
    // Runs that flagged most of their rows: a state a suite leaves flags the rows after it,
    // but a machine slow for the whole run flags them all (CI's VM of 2026-11-28 evening:
    // every row of a third run `disturbed`, after a first run that flagged 22 of 92 and a
    // second that swung both ways). Not evidence each; all three such, the tool's doing.
    let mut all_slow = 0;
    for attempt in 1..=3 {
        let Err(flagged) = whole_run() else {
            return;
        };
        if flagged.swung_both_ways {
            eprintln!(
                "whole_run: run {attempt} flagged rows while its baseline swung both ways (the \
                 machine's noise, not a state a suite left): not evidence; trying once more:\n{}",
                flagged.text
            );
            swinging.push(flagged.text);
            continue;
        }
        if flagged.most {
            eprintln!(
                "whole_run: run {attempt} flagged most of its rows (the machine slow all along, \
                 not a state a suite left at some rows): not evidence; trying once more:\n{}",
                flagged.text
            );
            all_slow += 1;
            swinging.push(flagged.text);
            continue;
        }
        if let Some(again) = quiet
            .iter()
            .find_map(|f| f.tests.intersection(&flagged.tests).next().cloned())
        {
            let earlier: Vec<&str> = quiet.iter().map(|f| f.text.as_str()).collect();
            panic!(
                "`{again}` flagged in two runs whose baseline never ran faster than its \
                 reference (run {attempt} and an earlier one)\n--- this run:\n{}\n--- \
                 earlier:\n{}",
                flagged.text,
                earlier.join("\n---\n")
            );
        }
        eprintln!(
            "whole_run: run {attempt} flagged rows no earlier run flagged, trying once more:\n{}",
            flagged.text
        );
        quiet.push(flagged);
    }
    assert!(
        all_slow < 3,
        "every run flagged most of its rows:\n{}",
        swinging.join("\n---\n")
    );
    // Three runs, each flagged: at different rows, or while the machine swung both ways. No
    // row is flagged twice by a steady machine, which is what the tool's own flag would do;
    // what the machine did is printed for whoever reads the log.
    eprintln!(
        "whole_run: three runs flagged rows, none twice on a machine that held still ({} \
         swung both ways): the machine's noise\n{}",
        swinging.len(),
        quiet
            .iter()
            .map(|f| f.text.as_str())
            .chain(swinging.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}

/// The rows a run flagged, with their flags and the run's stderr, whether its baseline ran
/// faster than its reference beyond the limit at some check (the machine's speed swung both
/// ways during the run), and whether it flagged most of its rows.
struct Flagged {
    tests: BTreeSet<String>,
    text: String,
    swung_both_ways: bool,
    /// Whether it flagged more than half its timed rows.
    most: bool,
}

/// Whether the run's stderr shows a drift check whose baseline ran faster than its reference
/// beyond the limit: `the baseline was -21.4 % off its reference (limit …)` or `the baseline
/// ran -23.0 % off its reference …, faster`. Only such lines print a negative deviation.
fn swung_faster(stderr: &str) -> bool {
    stderr.lines().any(|l| {
        ["the baseline was -", "the baseline ran -"]
            .iter()
            .any(|p| l.contains(p))
    })
}

#[test]
fn a_faster_baseline_is_read_from_the_run_s_lines() {
    assert!(swung_faster(
        "perftest: the baseline was -21.4 % off its reference (limit ±19.8 %); timing 9 test(s)"
    ));
    assert!(swung_faster(
        "perftest: drift check: the baseline ran -23.0 % off its reference of 0.7312 ms, faster"
    ));
    assert!(!swung_faster(
        "perftest: the baseline was +32.2 % off its reference (limit ±19.8 %); timing 2 test(s)"
    ));
}

/// One run of the slice: `Err` with the tests it flagged, their flags and the run's stderr.
/// What the run must hold whatever the machine does (every suite in it, enough rows timed) is
/// asserted.
fn whole_run() -> Result<(), Flagged> {
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
        return Err(Flagged {
            most: 2 * flagged.len() > timed.len(),
            tests,
            text: format!("{}\n{err}", flagged.join("\n")),
            swung_both_ways: swung_faster(&err),
        });
    }
    // The run's own count agrees with its rows.
    assert!(
        !err.contains("still flagged") || err.contains(" 0 still flagged"),
        "{err}"
    );
    Ok(())
}
