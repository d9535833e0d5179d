//! The report's rules on small made-up results: how files become runs, where a row's suite
//! comes from, what is beyond the spread, who is an outlier.

use super::runs::{self, SuiteKey};
use super::several::{self, Mode};
use super::*;

const HEADER: &str = "device_index,device_name,driver_version,test,family,loads_per_dispatch,\
                      ms_median,cv_pct,ratio,status,reason,unit";

/// A CSV of `(test, ms, cv)` rows on `device` with `driver`.
fn csv(device: &str, driver: &str, rows: &[(&str, f64, f64)]) -> String {
    let mut out = format!("{HEADER}\n");
    for (test, ms, cv) in rows {
        out += &format!("0,{device},{driver},{test},typed_buffer,1000000,{ms},{cv},,ok,,loads\n");
    }
    out
}

fn gather(inputs: &[(&str, String)]) -> Vec<runs::Run> {
    let tables: Vec<(String, read::Table)> = inputs
        .iter()
        .map(|(l, t)| (l.to_string(), read::read_text(l, t).unwrap()))
        .collect();
    runs::gather(&tables).unwrap()
}

const BASE: &str = "Buffer<RGBA8>.Load random";

#[test]
fn the_files_of_one_run_join_and_a_second_run_stands_apart() {
    let original = csv(
        "GPU",
        "1.0",
        &[(BASE, 1.0, 0.1), ("Buffer<R8>.Load uniform", 0.5, 0.1)],
    );
    // Another suite's file, holding the baseline again: the same run.
    let bandwidth = csv(
        "GPU",
        "1.0",
        &[
            (BASE, 1.1, 0.1),
            ("bandwidth: ByteAddressBuffer.Load4 4 KB", 0.2, 0.1),
        ],
    );
    let runs = gather(&[
        ("original", original.clone()),
        ("bandwidth", bandwidth.clone()),
    ]);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].files, ["original", "bandwidth"]);
    assert_eq!(runs[0].rows.len(), 3);
    assert_eq!(runs[0].repeated, 1);
    // The earlier file's baseline is kept.
    assert_eq!(runs[0].row(BASE).unwrap().ms_median, Some(1.0));
    // The same tests again: a second run; another driver never joins.
    let runs = gather(&[("a", original.clone()), ("b", original.clone())]);
    assert_eq!(runs.len(), 2);
    assert_eq!([&runs[0].label, &runs[1].label], ["a", "b"]);
    // A second run of more suites (the first run's tests and others) is a run too.
    let more = csv(
        "GPU",
        "1.0",
        &[
            (BASE, 1.0, 0.1),
            ("Buffer<R8>.Load uniform", 0.5, 0.1),
            ("Buffer<R8>.Load linear", 0.5, 0.1),
            ("Buffer<R8>.Load random", 0.5, 0.1),
            ("Buffer<RG8>.Load uniform", 0.5, 0.1),
        ],
    );
    assert_eq!(gather(&[("a", original.clone()), ("more", more)]).len(), 2);
    let other_driver = csv(
        "GPU",
        "2.0",
        &[("bandwidth: ByteAddressBuffer.Load4 4 KB", 0.2, 0.1)],
    );
    assert_eq!(
        gather(&[("a", original.clone()), ("b", other_driver)]).len(),
        2
    );
    // Runs on different devices are named by their device.
    let runs = gather(&[
        ("a", original),
        ("b", csv("Other GPU", "1.0", &[(BASE, 1.0, 0.1)])),
    ]);
    assert_eq!([&runs[0].label, &runs[1].label], ["GPU", "Other GPU"]);
}

#[test]
fn a_test_twice_for_one_device_is_an_error_naming_the_line() {
    let twice = csv("GPU", "1.0", &[(BASE, 1.0, 0.1), (BASE, 1.0, 0.1)]);
    let table = read::read_text("twice", &twice).unwrap();
    let err = runs::gather(&[("twice".into(), table)])
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("twice: line 3") && err.contains("appears twice"),
        "{err}"
    );
}

#[test]
fn unknown_suites_are_named_by_their_prefix_and_shown_as_tables() {
    let index = crate::suite::test_catalog();
    let runs = gather(&[(
        "m",
        csv(
            "GPU",
            "1.0",
            &[(BASE, 1.0, 0.1), ("matrix: coopmat f16 16x16x16", 0.3, 0.1)],
        ),
    )]);
    let keys: Vec<SuiteKey> = runs[0]
        .rows
        .iter()
        .map(|r| runs::suite_of(r, &index))
        .collect();
    assert_eq!(keys[0], SuiteKey::Known(crate::Suite::Original));
    assert_eq!(keys[1], SuiteKey::Other("matrix".into()));
    let html = build_text(
        &[(
            "m",
            csv("GPU", "1.0", &[("matrix: coopmat f16 16x16x16", 0.3, 0.1)]),
        )],
        &[],
    )
    .unwrap();
    let section = &html[html.find("<section id=\"suite-matrix\">").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(
        section.contains("<table") && !section.contains("<svg"),
        "{section}"
    );
    assert!(section.contains("matrix: coopmat f16 16x16x16"));
}

#[test]
fn a_change_is_beyond_the_spread_only_past_twice_the_rows_spreads() {
    // 1.0 → 1.01 (1 %) with CV 0.2 % each: beyond 2·√(0.2² + 0.2²) = 0.57 %; with CV 1 %
    // each: within 2.8 %.
    let tests = ["Buffer<R8>.Load uniform", "Buffer<R8>.Load linear"];
    let a = csv("A", "1", &[(tests[0], 1.0, 0.2), (tests[1], 1.0, 1.0)]);
    let b = csv("B", "1", &[(tests[0], 1.01, 0.2), (tests[1], 1.01, 1.0)]);
    let html = build_text(&[("a", a), ("b", b)], &[]).unwrap();
    assert!(
        html.contains("2 tests compared: 1 beyond the spread (1 slower, 0 faster), 1 within it"),
        "{}",
        &html[html.find("<section id=\"changes\">").unwrap()..][..1500]
    );
    assert!(
        html.contains("<td>+1.0%</td><td>±0.6%</td>"),
        "the limit is shown"
    );
}

#[test]
fn a_rerun_of_either_device_widens_the_spread() {
    // Two runs of A 3 % apart: a 2 % change of B is within A's run-to-run spread.
    let t = "Buffer<R8>.Load uniform";
    let a1 = csv("A", "1", &[(t, 1.0, 0.1)]);
    let a2 = csv("A", "1", &[(t, 1.03, 0.1)]);
    let b = csv("B", "1", &[(t, 1.02, 0.1)]);
    let html = build_text(&[("a1", a1), ("b", b), ("a2", a2)], &[]).unwrap();
    assert!(
        html.contains("<h3>b against a1</h3>\n<p>1 tests compared: 0 beyond"),
        "{html}"
    );
}

/// Five runs of three original-suite tests within ±0.2 %; run e is 10 % slower on the
/// second test only.
fn five_runs() -> Vec<(&'static str, String)> {
    let tests = [
        "Buffer<R8>.Load uniform",
        "Buffer<R8>.Load linear",
        "Buffer<R8>.Load random",
    ];
    let jitter = [1.0, 1.001, 0.999, 1.002, 1.0];
    ["a", "b", "c", "d", "e"]
        .iter()
        .zip(jitter)
        .map(|(label, j)| {
            let slow = if *label == "e" { 1.1 } else { 1.0 };
            let rows: Vec<(&str, f64, f64)> = tests
                .iter()
                .enumerate()
                .map(|(i, t)| (*t, j * if i == 1 { slow } else { 1.0 }, 0.1))
                .collect();
            (*label, csv("GPU", "1", &rows))
        })
        .collect()
}

#[test]
fn the_fleet_names_the_run_that_stands_out() {
    let inputs = five_runs();
    let runs = gather(&inputs);
    assert_eq!(several::mode(&runs), Mode::Fleet);
    let html = build_text(&inputs, &[]).unwrap();
    // The linear pattern's only row is its best and its worst: two items of the load path,
    // 9.0 % below the fleet's rate (1.1 against the median 1.001), in e's only run: suspect.
    assert!(html.contains("<h3>Suspect (2): "), "{html}");
    assert!(
        html.contains(
            "<td>machine not named</td><td>load path</td><td>e: load path: linear: best −9.0 %"
        ),
        "{html}"
    );
    // The jitter of ±0.2 % is no degradation: a, b, c, d are healthy.
    for run in ["a", "b", "c", "d"] {
        assert!(
            html.contains(&format!("<tr><td>{run}</td><td>healthy</td>")),
            "{html}"
        );
    }
    // Two runs, or runs of two drivers, are no fleet.
    assert_eq!(several::mode(&runs[..2]), Mode::SideBySide);
    assert_eq!(several::mode(&runs[..1]), Mode::Single);
}

#[test]
fn the_report_and_the_verdict_agree() {
    // The same files, read as `perftest fleet` reads them and as the report gathers runs.
    let inputs = five_runs();
    let gpus: Vec<crate::fleet::Gpu> = inputs
        .iter()
        .flat_map(|(l, t)| crate::fleet::read::gpus(&read::read_text(l, t).unwrap()))
        .collect();
    let verdict = crate::fleet::judge(
        &gpus,
        &crate::suite::test_catalog(),
        crate::fleet::FLOOR_PCT,
    );
    let html = build_text(&inputs, &[]).unwrap();
    // e's two items are worse in its only run: suspect, in the report as in the verdict.
    let degraded: Vec<String> = verdict
        .gpus()
        .flat_map(|g| {
            g.findings
                .iter()
                .filter(|f| f.call == crate::fleet::Call::Unconfirmed)
                .map(|f| format!("{}: {}", g.label, crate::fleet::text::finding_line(f)))
        })
        .collect();
    assert_eq!(degraded.len(), 2, "{}", crate::fleet::text(&verdict));
    assert!(html.contains(&format!("<h3>Suspect ({}): ", degraded.len())));
    for d in &degraded {
        assert!(html.contains(&svg::esc(d)), "{d} not in the report: {html}");
    }
    for g in verdict.gpus() {
        assert!(html.contains(&format!(
            "<tr><td>{}</td><td>{}</td>",
            g.label,
            g.status.word()
        )));
    }
}

#[test]
fn backquoted_spans_of_a_title_are_set_as_code() {
    assert_eq!(
        code_spans("the curves of `latency: A` and `B&amp;C`"),
        "the curves of <code>latency: A</code> and <code>B&amp;C</code>"
    );
    assert_eq!(code_spans("no spans"), "no spans");
}
