//! Clock-true rows under a simulated clock (lavapipe has no shader clock of its own): a slow
//! start is waited out, a low clock is re-measured, a clock that stays low is flagged
//! `throttled`, another GPU user `contended`, and every row outside them stays `steady`.

mod common;
use common::*;

/// One CSV row: test_index, test, conditions, clock_mhz, reason.
struct CsvRow {
    index: u32,
    test: String,
    conditions: String,
    clock: Option<f64>,
    reason: String,
}

fn rows(csv: &std::path::Path) -> Vec<CsvRow> {
    csv_rows(csv)
        .into_iter()
        .map(|r| CsvRow {
            index: r["test_index"].parse().unwrap(),
            test: r["test"].clone(),
            conditions: r["conditions"].clone(),
            clock: r["clock_mhz"].parse().ok(),
            reason: r["reason"].clone(),
        })
        .collect()
}

/// 12 tests in 2 families (the baseline among them, so it runs first).
fn args<'a>(csv: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<R8>",
        "--filter",
        "Buffer<RGBA8>",
        "--filter",
        "Buffer<RG16f>",
        "--filter",
        "cbuffer",
        "--groups",
        "16",
        "--samples",
        "5",
        // Far below the injected slowdowns (3× and 10×), far above the noise of a CPU device
        // busy with the other tests.
        "--drift-limit",
        "100",
        "--csv",
        csv,
    ];
    a.extend_from_slice(extra);
    a
}

/// The run position (1-based) of every row: the baseline first where it is selected, then
/// the others in the order of their `test_index`, the order they run in. Not the CSV's
/// order: a block the drift check or the clock keeps for the end of the run is written
/// after the blocks that ran behind it (a stretch of fewer rows showed cbuffer's block,
/// run last, written first).
fn positions<'a>(rows: impl Iterator<Item = &'a CsvRow> + Clone) -> Vec<usize> {
    let baseline = "Buffer<RGBA8>.Load random";
    let has_baseline = rows.clone().any(|r| r.test == baseline);
    let mut order: Vec<u32> = rows
        .clone()
        .filter(|r| r.test != baseline)
        .map(|r| r.index)
        .collect();
    order.sort_unstable();
    let first = if has_baseline { 2 } else { 1 };
    rows.map(|r| {
        if r.test == baseline {
            1
        } else {
            first + order.iter().position(|i| *i == r.index).unwrap()
        }
    })
    .collect()
}

/// Whether a row the injected fault did not touch came out as such: `steady`, or timed again
/// only because its block's drift check was off (a CPU device shared with other processes
/// drifts by itself) — never flagged, never re-measured for its clock.
fn untouched(r: &CsvRow) -> bool {
    r.conditions == "steady"
        || (r.conditions == "re-measured" && !r.reason.contains("the clock was"))
}

/// Run positions the injected low clock hits (the runner's `FAULT_STRETCH`).
const STRETCH: std::ops::RangeInclusive<usize> = 5..=7;

#[test]
fn a_slow_start_is_waited_out_and_every_row_runs_at_the_steady_clock() {
    let _serial = serial();
    let dir = tempdir("clock");
    let csv = dir.join("slow-start.csv");
    let o = run(&args(
        csv.to_str().unwrap(),
        &["--fault", "slow-start", "--strict"],
    ));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    // The warm-up saw the simulated third of the clock, waited for it, and says so.
    assert!(
        err.contains("shader clock 1000 at device open, 333 → 1000 MHz, settled"),
        "{err}"
    );
    let rows = rows(&csv);
    assert_eq!(rows.len(), 12);
    for r in &rows {
        assert!(untouched(r), "{}: {} {}", r.test, r.conditions, r.reason);
        let clock = r.clock.unwrap_or(f64::NAN);
        assert!((clock - 1000.0).abs() < 1.0, "{}: clock {clock}", r.test);
    }
}

#[test]
fn a_low_clock_is_re_measured_and_only_its_rows_are() {
    let _serial = serial();
    let dir = tempdir("clock");
    let csv = dir.join("low.csv");
    let o = run(&args(
        csv.to_str().unwrap(),
        &["--fault", "low-clock", "--strict"],
    ));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let rows = rows(&csv);
    assert_eq!(rows.len(), 12);
    for (r, p) in rows.iter().zip(positions(rows.iter())) {
        let clock = r.clock.unwrap_or(f64::NAN);
        // Every row reports the clock it was finally timed at: the steady one.
        assert!((clock - 1000.0).abs() < 1.0, "{}: clock {clock}", r.test);
        if STRETCH.contains(&p) {
            assert_eq!(r.conditions, "re-measured", "{} (position {p})", r.test);
            assert!(
                r.reason
                    .contains("timed 2 times: the clock was 333 MHz at the first"),
                "{}: {}",
                r.test,
                r.reason
            );
        } else {
            // Untouched by the clock; a host busy with other work (a build beside CI on two
            // cores) may make the drift check time a block again, which says so and is no
            // clock's doing.
            assert!(
                untouched(r)
                    || (r.conditions == "re-measured" && !r.reason.contains(" MHz at the first")),
                "{} (position {p}): {} {}",
                r.test,
                r.conditions,
                r.reason
            );
        }
    }
    assert!(err.contains("(3 for a low clock, "), "{err}");
    assert!(
        err.contains(" after a drift check), 0 still flagged"),
        "{err}"
    );
}

#[test]
fn a_clock_that_stays_low_is_flagged_throttled_and_strict_fails() {
    let _serial = serial();
    let dir = tempdir("clock");
    let csv = dir.join("throttle.csv");
    // One run, with --strict: the flagged rows are timed and written, and fail it (without
    // --strict flagged rows are no failure: the contended test's run exits 0).
    let o = run(&args(
        csv.to_str().unwrap(),
        &["--fault", "throttle", "--strict"],
    ));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let rows = rows(&csv);
    for (r, p) in rows.iter().zip(positions(rows.iter())) {
        let clock = r.clock.unwrap_or(f64::NAN);
        if STRETCH.contains(&p) {
            assert_eq!(r.conditions, "throttled", "{} (position {p})", r.test);
            // The row says the clock it ran at.
            assert!((clock - 333.3).abs() < 1.0, "{}: clock {clock}", r.test);
            assert!(
                r.reason
                    .contains("throttled: 333 MHz, below 98 % of the steady 1000 MHz"),
                "{}",
                r.reason
            );
            assert!(
                err.contains(&format!("{}: throttled — throttled: 333 MHz", r.test)),
                "{err}"
            );
        } else {
            assert!(
                untouched(r),
                "{} (position {p}): {} {}",
                r.test,
                r.conditions,
                r.reason
            );
            assert!((clock - 1000.0).abs() < 1.0, "{}: clock {clock}", r.test);
        }
    }
    assert!(
        err.contains("3 still flagged (3 throttled, 0 contended, 0 disturbed)"),
        "{err}"
    );
}

// Claim: docs/timing.md: "the rows stand, and the clock is brought back"
#[test]
fn a_clock_dip_at_the_check_after_rows_timed_at_the_steady_clock_leaves_them_standing() {
    let _serial = serial();
    // The check after the second block reads the baseline 10× slower at a tenth of the clock;
    // every row of the block was timed at the steady clock by its own probes: the rows stand
    // (not timed again after a drift check), say so, and the next block starts steady. A
    // 200 % limit: the check is off, and as slow as its clock makes it, for any noise of this
    // CPU's between a third and three times.
    let dir = tempdir("clock");
    let csv = dir.join("dip.csv");
    let mut a = args(
        csv.to_str().unwrap(),
        &["--fault", "low-clock-at-check", "--strict"],
    );
    let limit = a.iter().position(|x| *x == "--drift-limit").unwrap() + 1;
    a[limit] = "200";
    let o = run(&a);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("at a clock of 100 MHz (limit ±200.0 %), as slow as that clock makes it"),
        "{err}"
    );
    assert!(
        err.contains("each timed at the steady clock: they stand"),
        "{err}"
    );
    let rows = rows(&csv);
    assert_eq!(rows.len(), 12);
    let dipped: Vec<&CsvRow> = rows
        .iter()
        .filter(|r| {
            r.reason
                .contains("the check after this block read the baseline")
        })
        .collect();
    assert!(!dipped.is_empty(), "{err}");
    for r in &rows {
        let clock = r.clock.unwrap_or(f64::NAN);
        assert!((clock - 1000.0).abs() < 1.0, "{}: clock {clock}", r.test);
        assert!(untouched(r), "{}: {} {}", r.test, r.conditions, r.reason);
    }
    for r in dipped {
        assert_eq!(r.conditions, "steady", "{}: {}", r.test, r.reason);
        // What the check read: beyond the limit (about 10× the reference, with a CPU
        // device's own noise).
        let pct: f64 = r
            .reason
            .split("read the baseline +")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}", r.reason));
        assert!(pct > 200.0, "{}", r.reason);
    }
}

#[test]
fn another_gpu_user_at_a_normal_clock_is_named_contended() {
    let _serial = serial();
    let dir = tempdir("clock");
    let csv = dir.join("contended.csv");
    let o = run(&args(csv.to_str().unwrap(), &["--fault", "contention"]));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let rows = rows(&csv);
    // The slowdown starts with the second block (cbuffer); the first stays steady.
    for r in &rows {
        if !r.test.starts_with("cbuffer") {
            assert!(untouched(r), "{}: {} {}", r.test, r.conditions, r.reason);
        } else {
            assert_eq!(r.conditions, "contended", "{}: {}", r.test, r.reason);
            assert!(
                (r.clock.unwrap_or(f64::NAN) - 1000.0).abs() < 1.0,
                "{}",
                r.test
            );
        }
    }
    assert!(err.contains("contended — the baseline was +"), "{err}");
    assert!(err.contains("another process was using the GPU"), "{err}");
    // Timed once more at the end of the run before they were left flagged; flagged rows are
    // no failure without --strict (the run succeeded).
    assert!(
        err.contains("3 test(s) from cbuffer{float4} load uniform stayed flagged"),
        "{err}"
    );
}

#[test]
fn without_a_shader_clock_rows_carry_none_and_the_warm_up_says_so() {
    let _serial = serial();
    let dir = tempdir("clock");
    let csv = dir.join("plain.csv");
    let o = run(&args(csv.to_str().unwrap(), &[]));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("shader clock unknown (timestamps only"),
        "{err}"
    );
    assert!(rows(&csv).iter().all(|r| r.clock.is_none()));
}

/// The baseline's family and the self-timed dispatch rows, which have no shader-clock probe:
/// run positions 1–3 probed, 4–9 self-timed (the stretch hits 5–7).
fn self_timed_args<'a>(csv: &'a str, fault: &'a str) -> Vec<&'a str> {
    vec![
        "--device",
        lavapipe(),
        "--suite",
        "original,bandwidth",
        "--filter",
        "Buffer<R8>",
        "--filter",
        "dispatch:",
        "--groups",
        "16",
        "--samples",
        "5",
        "--drift-limit",
        "100",
        "--fault",
        fault,
        "--strict",
        "--csv",
        csv,
    ]
}

/// One CSV row with the driver's clock.
fn driver_rows(csv: &std::path::Path) -> Vec<(CsvRow, Option<f64>)> {
    let driver = csv_rows(csv)
        .into_iter()
        .map(|r| r["driver_sm_mhz"].parse().ok());
    rows(csv).into_iter().zip(driver).collect()
}

#[test]
fn a_self_timed_row_timed_at_a_low_driver_clock_is_re_measured() {
    let _serial = serial();
    let dir = tempdir("clock");
    let csv = dir.join("low-driver.csv");
    let o = run(&self_timed_args(csv.to_str().unwrap(), "low-driver-clock"));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let rows = driver_rows(&csv);
    assert_eq!(rows.len(), 9, "{err}");
    for ((r, driver), p) in rows.iter().zip(positions(rows.iter().map(|(r, _)| r))) {
        let self_timed = r.test.starts_with("dispatch:");
        assert_eq!(self_timed, p >= 4, "{} (position {p})", r.test);
        // Every row says the driver's clock it was finally timed at: the steady one.
        let driver = driver.unwrap_or(f64::NAN);
        assert!((driver - 1000.0).abs() < 1.0, "{}: driver {driver}", r.test);
        if self_timed && STRETCH.contains(&p) {
            assert_eq!(r.conditions, "re-measured", "{} (position {p})", r.test);
            assert!(
                r.clock.is_none(),
                "{}: a self-timed row has no probe",
                r.test
            );
            assert!(
                r.reason
                    .contains("timed 2 times: the clock was 333 MHz at the first, below 98 % of the steady 1000 MHz"),
                "{}: {}",
                r.test,
                r.reason
            );
        } else {
            // Untouched by the clock; a busy host may make the drift check time a block
            // again, which says so and is no clock's doing (as in the low-clock test).
            assert!(
                untouched(r)
                    || (r.conditions == "re-measured" && !r.reason.contains(" MHz at the first")),
                "{} (position {p}): {} {}",
                r.test,
                r.conditions,
                r.reason
            );
        }
    }
    assert!(err.contains("(3 for a low clock, "), "{err}");
    assert!(
        err.contains(" after a drift check), 0 still flagged"),
        "{err}"
    );
}

#[test]
fn a_self_timed_row_whose_driver_clock_stays_low_is_flagged_throttled() {
    let _serial = serial();
    let dir = tempdir("clock");
    let csv = dir.join("driver-throttle.csv");
    let o = run(&self_timed_args(csv.to_str().unwrap(), "driver-throttle"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let rows = driver_rows(&csv);
    assert_eq!(rows.len(), 9, "{err}");
    for ((r, driver), p) in rows.iter().zip(positions(rows.iter().map(|(r, _)| r))) {
        let driver = driver.unwrap_or(f64::NAN);
        if r.test.starts_with("dispatch:") && STRETCH.contains(&p) {
            assert_eq!(r.conditions, "throttled", "{} (position {p})", r.test);
            // The row says the driver's clock it ran at.
            assert!((driver - 333.3).abs() < 1.0, "{}: driver {driver}", r.test);
            assert!(
                r.reason.contains(
                    "throttled: 333 MHz, below 98 % of the steady 1000 MHz, after 4 tries"
                ),
                "{}",
                r.reason
            );
        } else {
            assert!(
                untouched(r),
                "{} (position {p}): {} {}",
                r.test,
                r.conditions,
                r.reason
            );
            assert!((driver - 1000.0).abs() < 1.0, "{}: driver {driver}", r.test);
        }
    }
    assert!(
        err.contains("3 still flagged (3 throttled, 0 contended, 0 disturbed)"),
        "{err}"
    );
}
