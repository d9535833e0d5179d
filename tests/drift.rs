//! The drift check: rows timed while the baseline is off are flagged or timed again.

mod common;
use common::*;

/// (test name, conditions, drift_pct) of every row of a CSV.
fn rows(csv: &std::path::Path) -> Vec<(String, String, String)> {
    csv_rows(csv)
        .into_iter()
        .map(|r| {
            (
                r["test"].clone(),
                r["conditions"].clone(),
                r["drift_pct"].clone(),
            )
        })
        .collect()
}

/// Two families: `Buffer<R8>` (block 1) and `cbuffer` (block 2).
fn args<'a>(csv: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<R8>",
        "--filter",
        "cbuffer",
        "--groups",
        "16",
        "--samples",
        "5",
        "--csv",
        csv,
    ];
    a.extend_from_slice(extra);
    a
}

#[test]
fn a_lasting_disturbance_flags_the_rows_and_strict_fails_the_run() {
    let _serial = serial();
    let dir = tempdir("drift");
    let csv = dir.join("drift.csv");
    let o = run(&args(csv.to_str().unwrap(), &["--fault", "drift"]));
    // Flagged rows are still timed: not a failure without --strict.
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows(&csv);
    assert_eq!(rows.len(), 6);
    let cbuffer: Vec<_> = rows.iter().filter(|r| r.0.starts_with("cbuffer")).collect();
    assert_eq!(cbuffer.len(), 3);
    for (name, conditions, drift) in &cbuffer {
        assert_eq!(conditions, "disturbed", "{name}");
        // Timings slowed 10×: the baseline is about +900 % off.
        let pct: f64 = drift.parse().unwrap();
        assert!(pct > 100.0, "{name}: drift {pct}");
    }
    let err = stderr(&o);
    for (name, ..) in &cbuffer {
        assert!(err.contains(&format!("{name}: disturbed")), "{err}");
    }
    // The summary counts every disturbed row. Usually the three of the slowed block; the
    // first block too where a busy CPU pushed its check past the limit, so that it was put
    // off to the end of the run, which the lasting slowdown then reaches (CI saw 6).
    let disturbed = rows.iter().filter(|r| r.1 == "disturbed").count();
    assert!(disturbed >= 3, "{rows:?}");
    assert!(
        err.contains(&format!("{disturbed} disturbed)")),
        "the summary counts them: {err}"
    );
    assert!(
        stdout(&o).contains("cbuffer{float4} load linear: ") && stdout(&o).contains("DISTURBED"),
        "{}",
        stdout(&o)
    );
    let strict = run(&args(
        csv.to_str().unwrap(),
        &["--fault", "drift", "--strict"],
    ));
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
}

#[test]
fn a_passing_disturbance_is_timed_again_once_it_is_over() {
    let _serial = serial();
    let dir = tempdir("drift");
    let csv = dir.join("transient.csv");
    // A limit of 100 %: the injected slowdown (+900 %) is far beyond it, the noise of a busy
    // CPU running other tests is not.
    let o = run(&args(
        csv.to_str().unwrap(),
        &[
            "--fault",
            "transient-drift",
            "--drift-limit",
            "100",
            "--strict",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows(&csv);
    for (name, conditions, drift) in &rows {
        if name.starts_with("cbuffer") {
            assert_eq!(conditions, "re-measured", "{name}");
        } else {
            // Untouched by the injection (a CPU busy with other tests may still make a block
            // worth timing again, never a disturbed one at this limit).
            assert!(
                conditions == "steady" || conditions == "re-measured",
                "{name}: {conditions}"
            );
        }
        assert!(
            drift.parse::<f64>().unwrap().abs() < 100.0,
            "{name}: {drift}"
        );
    }
    assert!(
        stderr(&o).contains("timing 3 test(s) from cbuffer{float4} load uniform on again"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_check_can_be_turned_off_and_verify_has_none() {
    let _serial = serial();
    let dir = tempdir("drift");
    let csv = dir.join("off.csv");
    let o = run(&args(
        csv.to_str().unwrap(),
        &["--fault", "drift", "--drift-limit", "off", "--strict"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&csv).iter().all(|r| r.1.is_empty() && r.2.is_empty()));
    let o = run(&args(
        csv.to_str().unwrap(),
        &["--verify", "--fault", "drift"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&csv).iter().all(|r| r.1.is_empty()));
    let bad = run(&["--drift-limit", "-3", "--list-devices"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_baseline_reads_exactly_1_when_the_check_times_it_again() {
    let _serial = serial();
    // The baseline's first timing is spread 10× (two samples in three): the check after its
    // block times it again, and the ratios must then be taken against that timing, not the
    // first: the baseline's own row reads exactly 1.
    let dir = tempdir("drift");
    let csv = dir.join("baseline.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<RGBA8>",
        "--groups",
        "16",
        "--samples",
        "5",
        "--drift-limit",
        "40",
        "--fault",
        "noisy-baseline",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&csv);
    let baseline = rows
        .iter()
        .find(|r| r["test"] == "Buffer<RGBA8>.Load random")
        .expect("the baseline row");
    assert_eq!(baseline["ratio"], "1.0000", "{baseline:?}\n{}", stderr(&o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.starts_with("Buffer<RGBA8>.Load random: "))
        .unwrap_or_default();
    assert!(line.contains("ms 1.000x"), "{out}");
    // It was timed again (its first timing's samples spread beyond the limit), steady then.
    assert!(
        ["steady", "re-measured"].contains(&baseline["conditions"].as_str()),
        "{baseline:?}"
    );
    // The others are against the same timing: uniform and linear read RGBA8 at the rate of
    // the random pattern or faster on a CPU, never 10× apart.
    for r in &rows {
        let ratio: f64 = r["ratio"].parse().unwrap();
        assert!((0.2..5.0).contains(&ratio), "{r:?}");
    }
}

#[test]
fn a_passing_faster_spell_is_waited_out_not_taken_for_the_reference() {
    let _serial = serial();
    // From the second block on every timing runs 4× faster until the run waits for it to pass
    // (as an H100 does for half a second of tensor-core work): the reference must stay, and
    // the block timed in the spell be timed again once it has passed.
    let dir = tempdir("drift");
    let csv = dir.join("spell.csv");
    // (No --strict: a CPU busy with the other tests of this file may flag a block as
    // disturbed, slower; what is checked is that the spell is never taken as steady.)
    let o = run(&args(csv.to_str().unwrap(), &["--fault", "fast-spell"]));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    // A CPU busy with the other tests may slow the reference and earn it a genuine re-base
    // once the spell is over; never one onto the spell. The spell runs at a quarter of the
    // true time, so a re-base onto it lands at a quarter of the reference or below (an eighth
    // where the reference was taken under load); a genuine one near the true time: CI once
    // saw a reference of 1.81 ms taken under load and a right re-base to 0.85 ms (0.47 of
    // it), another 1.2733 → 1.0072 ms (0.79) after checks at +34.6 % and −17.8 %. (The
    // spell's own checks need not print a line: the test once took the fastest printed one,
    // −17.8 %, for the spell's and failed a right re-base.)
    let number = |line: &str, after: &str| -> f64 {
        let rest = &line[line.find(after).unwrap() + after.len()..];
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    for line in err.lines().filter(|l| l.contains("re-based to ")) {
        let (old, new) = (number(line, "reference of "), number(line, "re-based to "));
        assert!(
            new > 0.4 * old,
            "the reference followed the spell ({old:.4} → {new:.4} ms): {err}"
        );
    }
    assert_eq!(err.matches("drift check: baseline").count(), 1, "{err}");
    for (name, conditions, drift) in rows(&csv) {
        let pct: f64 = drift.parse().unwrap();
        if name.starts_with("cbuffer") {
            // Timed again once the spell passed (or flagged, if the CPU was busy then).
            assert_ne!(conditions, "steady", "{name}\n{err}");
        }
        // Never judged within the spell: its -75 % is nowhere.
        assert!(pct > -60.0, "{name}: drift {pct}\n{err}");
    }
    // The block timed in the spell is timed again: at once when the spell has passed, or,
    // where the CPU was busy then too (CI once saw the baseline +30 % off after the spell),
    // once more at the end of the run.
    assert!(
        err.contains("timing 3 test(s) from cbuffer{float4} load uniform on again")
            || err.contains(
                "3 test(s) from cbuffer{float4} load uniform stayed flagged: trying them once more"
            ),
        "{err}"
    );
}

#[test]
fn the_trace_has_a_line_per_check_and_test_and_a_bad_path_is_said() {
    let _serial = serial();
    let dir = tempdir("drift");
    let (csv, trace) = (dir.join("trace.csv"), dir.join("trace.tsv"));
    let o = perftest()
        .args(args(csv.to_str().unwrap(), &[]))
        .env("PERFTEST_TRACE", &trace)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&trace).unwrap();
    let kind = |k: &str| {
        text.lines()
            .filter(|l| l.split('\t').nth(1) == Some(k))
            .count()
    };
    // Six tests, and at least the five reference checks and one check per block.
    assert_eq!(kind("test"), 6, "{text}");
    assert!(kind("check") >= 7, "{text}");
    // lavapipe reads its timer and the host's clock together: the rate is about 1.
    let rates: Vec<f64> = text
        .lines()
        .flat_map(|l| l.split('\t'))
        .filter_map(|f| f.strip_prefix("timer_rate="))
        .filter_map(|r| r.parse().ok())
        .collect();
    assert!(!rates.is_empty(), "{text}");
    assert!(rates.iter().all(|r| (r - 1.0).abs() < 0.01), "{rates:?}");
    let o = perftest()
        .args(["--filter", "cbuffer"])
        .env("PERFTEST_TRACE", dir.join("no/such/dir/t.tsv"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write PERFTEST_TRACE="),
        "{}",
        stderr(&o)
    );
}
