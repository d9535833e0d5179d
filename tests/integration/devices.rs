//! Several devices in one run: all at once by default (the tests that share the host on one device at a time), or in turn; on two lavapipe devices.

use crate::common::*;
use std::collections::HashMap;
use std::path::Path;
use std::process::Output;

/// A run over both devices of the twin lavapipe, its trace in `dir`.
fn both(dir: &Path, extra: &[&str]) -> Output {
    let csv = dir.join("rows.csv");
    let mut cmd = perftest();
    cmd.env("VK_ICD_FILENAMES", twin_lavapipe(dir))
        .env("PERFTEST_TRACE", dir.join("trace.tsv"))
        .args([
            "--device",
            "all",
            "--suite",
            "original,bandwidth",
            "--filter",
            "Buffer<RGBA8>",
            "--filter",
            "transfer: vkCmdCopyBuffer host-coherent to device 1 MB",
            "--filter",
            "transfer: vkCmdCopyBuffer device to host-coherent 1 MB",
            "--filter",
            "dispatch: submit and wait",
            "--filter",
            "dispatch: 256 empty dispatches, one submit each",
            "--groups",
            "16",
            "--samples",
            "5",
            "--format",
            "table",
            "--csv",
            csv.to_str().unwrap(),
        ])
        .args(extra);
    cmd.output().unwrap()
}

/// The trace's lines: (host time s, what, test name, device, how it holds the node: `alone`,
/// `link`, `shared`, or empty).
fn trace(dir: &Path) -> Vec<(f64, String, String, String, String)> {
    std::fs::read_to_string(dir.join("trace.tsv"))
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let field = |k: &str| {
                f.iter()
                    .find_map(|x| x.strip_prefix(&format!("{k}=")))
                    .unwrap_or_default()
                    .to_string()
            };
            (
                f[0].parse().unwrap(),
                f[1].to_string(),
                field("name"),
                field("device"),
                field("hold"),
            )
        })
        .collect()
}

/// Per device: its first and last line of kind `what` (any kind: `None`).
fn spans(
    lines: &[(f64, String, String, String, String)],
    what: Option<&str>,
) -> HashMap<String, (f64, f64)> {
    let mut spans: HashMap<String, (f64, f64)> = HashMap::new();
    for (t, _, _, device, _) in lines.iter().filter(|l| what.is_none_or(|w| l.1 == w)) {
        let e = spans.entry(device.clone()).or_insert((*t, *t));
        e.0 = e.0.min(*t);
        e.1 = e.1.max(*t);
    }
    spans
}

// Claim: docs/options.md: "run alone on the node: while one is measured, the other devices' tests wait"
#[test]
fn devices_run_at_once_and_a_test_that_shares_the_host_runs_alone() {
    let _serial = serial();
    let dir = tempdir("devices");
    let o = both(&dir, &[]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{err}");
    // Every row of both devices, each device's as many.
    let rows = csv_rows(&dir.join("rows.csv"));
    let per = |d: &str| rows.iter().filter(|r| r["device_index"] == d).count();
    assert_eq!(per("0"), per("1"), "{err}");
    assert_eq!(per("0"), 9, "{err}");
    // At once: each device's run (from opening it to its last check) began before the
    // other's ended.
    let lines = trace(&dir);
    let runs = spans(&lines, None);
    let (a, b) = (runs["0"], runs["1"]);
    assert!(a.0 < b.1 && b.0 < a.1, "not at once: {runs:?}\n{err}");
    // The process's own lines frame the devices' runs: the instance first, each device
    // opened before its first line and done after its last, the instance dropped last.
    let text = std::fs::read_to_string(dir.join("trace.tsv")).unwrap();
    let at = |step: &str| {
        text.lines()
            .find(|l| l.ends_with(&format!("\tprocess\t{step}")))
            .and_then(|l| l.split('\t').next()?.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no process line '{step}' in\n{text}"))
    };
    assert!(at("instance created") <= a.0.min(b.0), "{text}");
    for (d, run) in [("0", a), ("1", b)] {
        assert!(at(&format!("opening device {d}")) <= run.0, "{text}");
        assert!(at(&format!("device {d} tests done")) >= run.1, "{text}");
        // Closed (its resources and the device freed) after its tests, before the run ends.
        let closed = at(&format!("device {d} closed"));
        assert!(closed >= at(&format!("device {d} tests done")), "{text}");
        assert!(closed <= at("devices done"), "{text}");
    }
    assert!(at("devices done") <= at("outputs written"), "{text}");
    assert!(at("instance dropped") >= a.1.max(b.1), "{text}");
    // A test that shares the host holds the node as it must: one whose figure is the CPU's
    // (a submit per dispatch, the round trip) alone, no test of the other device measured
    // meanwhile; one over the host link beside the other device's GPU tests, never beside
    // its host tests.
    let mut spans: Vec<(f64, f64, String, String)> = Vec::new();
    let mut open: HashMap<String, f64> = HashMap::new();
    for (t, what, _, device, hold) in &lines {
        match what.as_str() {
            "measure" => {
                open.insert(device.clone(), *t);
            }
            "measured" => spans.push((
                open.remove(device).unwrap(),
                *t,
                device.clone(),
                hold.clone(),
            )),
            _ => {}
        }
    }
    // The six tests that share the host on each device, two of them alone (lavapipe's
    // memory is all DEVICE_LOCAL: its system-memory copies are unsupported rows, found so at
    // once), and any of them a drift check timed again.
    let host = |s: &(f64, f64, String, String)| s.3 == "alone" || s.3 == "link";
    for d in ["0", "1"] {
        assert!(
            spans.iter().filter(|s| s.2 == d && host(s)).count() >= 6,
            "{spans:?}"
        );
        let alone = spans.iter().filter(|s| s.2 == d && s.3 == "alone").count();
        assert!(alone >= 2, "{spans:?}");
    }
    for x in spans.iter().filter(|s| host(s)) {
        for y in spans.iter().filter(|y| y.2 != x.2) {
            if x.3 == "alone" || host(y) {
                assert!(x.1 <= y.0 || y.1 <= x.0, "measured together: {x:?} {y:?}");
            }
        }
    }
    // The terminal takes one device's rows after the other's, each under its name.
    let first = out.find("device 0: ").expect("device 0's heading");
    let second = out.find("device 1: ").expect("device 1's heading");
    assert!(first < second, "{out}");
    assert_eq!(
        out[first..second].matches("Buffer<RGBA8>.Load").count(),
        3,
        "{out}"
    );
    assert_eq!(
        out[second..].matches("Buffer<RGBA8>.Load").count(),
        3,
        "{out}"
    );
    // A verdict per device, then the run's; each device's lines on stderr say whose.
    assert!(err.contains("perftest: device 0 (llvmpipe"), "{err}");
    assert!(err.contains("perftest: device 1 (llvmpipe"), "{err}");
    assert!(err.contains("perftest: device 1: drift check"), "{err}");
}

// Claim: docs/timing.md: "timed again at once, inside the hold it has"
#[test]
fn a_row_held_alone_is_timed_again_for_its_spread_inside_its_hold() {
    let _serial = serial();
    // Every timing of the two tests held alone spreads far beyond the limit: each is timed
    // again at once, before another device gets the node, and not once more after its block's
    // check (that would take the node alone again, every other device waiting for it).
    let dir = tempdir("devices");
    let o = both(&dir, &["--fault", "noisy-alone", "--drift-limit", "40"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let lines = trace(&dir);
    let alone: Vec<String> = lines
        .iter()
        .filter(|l| l.1 == "measure" && l.4 == "alone")
        .map(|l| l.2.clone())
        .collect();
    assert!(alone.len() >= 4, "{alone:?}\n{err}");
    for d in ["0", "1"] {
        let own: Vec<_> = lines.iter().filter(|l| l.3 == d).collect();
        for name in [
            "dispatch: submit and wait, one empty dispatch each",
            "dispatch: 256 empty dispatches, one submit each",
        ] {
            let at: Vec<usize> = (0..own.len())
                .filter(|&i| own[i].2 == name && own[i].1 == "measure")
                .collect();
            // A block timed again for a drift re-measures it; with none, it is measured once.
            if !err.contains("on again") {
                assert_eq!(at.len(), 1, "device {d}, {name}: {own:?}");
            }
            for i in at {
                let next: Vec<&str> = own[i + 1..i + 3].iter().map(|l| l.1.as_str()).collect();
                assert_eq!(next, ["again", "measured"], "device {d}, {name}: {own:?}");
            }
        }
    }
    // Its spread stays (the test's own): the row carries it, steady.
    let rows = csv_rows(&dir.join("rows.csv"));
    for r in rows
        .iter()
        .filter(|r| r["test"].starts_with("dispatch: submit and wait"))
    {
        let cv: f64 = r["cv_pct"].parse().unwrap();
        assert!(cv > 40.0, "{r:?}");
        assert!(
            ["steady", "re-measured"].contains(&r["conditions"].as_str()),
            "{r:?}"
        );
    }
}

// Claim: docs/fleet.md: "a device's tests held alone one after another take the node once"
#[test]
fn a_devices_tests_held_alone_one_after_another_take_the_node_once() {
    let _serial = serial();
    // The submission rows (a submit per dispatch, the round trip) follow each other in the
    // dispatch block: each device takes the node alone once for both, so the other device
    // drains its tests once, not twice, and starts none between them.
    let dir = tempdir("devices");
    let o = both(&dir, &[]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let lines = trace(&dir);
    for d in ["0", "1"] {
        let own: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].3 == d).collect();
        let series: Vec<usize> = own
            .iter()
            .copied()
            .filter(|&i| lines[i].1 == "hold alone")
            .collect();
        assert_eq!(series.len(), 1, "device {d}: {lines:?}");
        // The series: its first two rows held alone, measured one after the other.
        let alone: Vec<usize> = own
            .iter()
            .copied()
            .filter(|&i| i > series[0] && lines[i].1 == "measured" && lines[i].4 == "alone")
            .take(2)
            .collect();
        assert_eq!(alone.len(), 2, "device {d}: {lines:?}");
        // No test of the other device measured from the series' hold to its last row.
        for line in &lines[series[0]..alone[1]] {
            assert!(
                line.3 == d || line.1 != "measure",
                "device {d}'s series: {line:?} between\n{lines:?}"
            );
        }
    }
}

// Claim: docs/options.md: "`--in-turn` runs the devices one after another instead"
#[test]
fn in_turn_runs_one_device_after_the_other() {
    let _serial = serial();
    let dir = tempdir("devices");
    let o = both(&dir, &["--in-turn"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    // Device 1 opened after device 0's last line.
    let runs = spans(&trace(&dir), None);
    let starts = spans(&trace(&dir), Some("start"));
    assert!(runs["0"].1 < starts["1"].0, "{runs:?}");
    assert_eq!(csv_rows(&dir.join("rows.csv")).len(), 18, "{err}");
    // Lines of one device at a time need no device label.
    assert!(!err.contains("perftest: device 1: drift check"), "{err}");
}
