//! The dispatch-size probe: a stall cannot cut a dispatch, and a row that was cut is shown
//! comparable with the others (scaled to the common size and marked) in every human format.

mod common;
use common::*;

/// The CSV of a run: its header and rows.
fn read_csv(path: &std::path::Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    let rows = reader.records().map(Result::unwrap).collect();
    (header, rows)
}

/// One CSV row: test, groups, ms_median, ratio.
type Timed = (String, u32, f64, f64);

fn col(header: &csv::StringRecord, name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap()
}

#[test]
fn a_stalled_probe_cuts_no_dispatch() {
    // Every test's first probe dispatch stalls for 60 ms, more than the whole 50 ms budget:
    // a probe that believed it would cut every test.
    let dir = tempdir("probe-stall");
    let csv = dir.join("stall.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<R8>",
        "--filter",
        "cbuffer",
        "--groups",
        "16",
        "--samples",
        "2",
        "--fault",
        "probe-stall",
        // Not about the drift check, which a CPU busy with other tests may trip.
        "--drift-limit",
        "off",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (header, rows) = read_csv(&csv);
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(&r[col(&header, "groups")], "16", "{r:?}");
        assert_eq!(&r[col(&header, "reason")], "", "{r:?}");
    }
    let err = stderr(&o);
    assert!(!err.contains("cut"), "{err}");
    assert!(!stdout(&o).contains("ms*"), "{}", stdout(&o));
}

/// Runs the three `Buffer<RGBA8>` tests with the second test (the first after the baseline,
/// `Buffer<RGBA8>.Load uniform`) made slow enough to be cut; returns stdout, stderr and the
/// CSV: (test, groups, ms_median, ratio) per row.
fn run_with_a_cut(format: &str) -> (String, String, Vec<Timed>) {
    let dir = tempdir("cut-row");
    let csv = dir.join("cut.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<RGBA8>",
        "--groups",
        "16",
        "--samples",
        "2",
        "--fault",
        "slow-test",
        // Not about the drift check, which a CPU busy with other tests may trip.
        "--drift-limit",
        "off",
        "--format",
        format,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (header, rows) = read_csv(&csv);
    let rows: Vec<Timed> = rows
        .iter()
        .map(|r| {
            (
                r[col(&header, "test")].to_string(),
                r[col(&header, "groups")].parse().unwrap(),
                r[col(&header, "ms_median")].parse().unwrap(),
                r[col(&header, "ratio")].parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    let cut: Vec<_> = rows.iter().filter(|r| r.1 < 16).collect();
    assert_eq!(cut.len(), 1, "{rows:?}");
    assert_eq!(cut[0].0, "Buffer<RGBA8>.Load uniform", "{rows:?}");
    (stdout(&o), stderr(&o), rows)
}

/// The time a human format must show for a CSV row: scaled to the common 16 groups.
fn scaled(row: &Timed) -> f64 {
    row.2 * 16.0 / row.1 as f64
}

fn assert_close(shown: &str, expected: f64, decimals: i32, context: &str) {
    let shown: f64 = shown
        .parse()
        .unwrap_or_else(|_| panic!("{shown:?}: {context}"));
    let tolerance = 0.51 * 10f64.powi(-decimals) + 1e-6 * expected;
    assert!(
        (shown - expected).abs() <= tolerance,
        "shown {shown}, expected {expected}: {context}"
    );
}

#[test]
fn a_cut_row_is_scaled_and_marked_in_the_original_format() {
    let (out, err, rows) = run_with_a_cut("original");
    for row in &rows {
        let (name, groups, _, ratio) = row;
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no line for {name}: {out}"));
        let rest = &line[name.len() + 2..];
        if *groups == 16 {
            // The original's shape, untouched: `NAME: X.XXXms R.RRRx`.
            let (ms, r) = rest.split_once("ms ").unwrap_or_else(|| panic!("{line}"));
            assert_close(ms, row.2, 3, line);
            // The CSV rounds the ratio to 4 decimals, the line to 3: compare the numbers.
            assert_close(r.trim_end_matches('x'), *ratio, 3, line);
        } else {
            let (ms, r) = rest.split_once("ms* ").unwrap_or_else(|| panic!("{line}"));
            assert_close(ms, scaled(row), 3, line);
            let (r, note) = r.split_once(' ').unwrap();
            // The CSV rounds the ratio to 4 decimals, the line to 3: compare the numbers.
            assert_close(r.trim_end_matches('x'), *ratio, 3, line);
            assert_eq!(
                note,
                format!(
                    "(*cut to {groups} of 16 groups by the 50 ms watchdog budget; ms scaled to 16)"
                ),
                "{line}"
            );
        }
    }
    // The scaled times agree with the ratios: both compare the same amount of work.
    let baseline = rows
        .iter()
        .find(|r| r.0 == "Buffer<RGBA8>.Load random")
        .unwrap();
    for row in &rows {
        let expected = scaled(baseline) / scaled(row);
        // (The CSV's ratio has four decimals.)
        assert!(
            (row.3 - expected).abs() <= 5.1e-5 + 1e-3 * expected,
            "{row:?}: ratio {} vs {expected}",
            row.3
        );
    }
    assert!(
        err.contains("perftest: 1 of 3 timed tests ran fewer groups than their device's common dispatch size"),
        "{err}"
    );
}

#[test]
fn a_cut_row_is_scaled_and_marked_in_the_table_and_markdown_formats() {
    for format in ["table", "markdown"] {
        let (out, err, rows) = run_with_a_cut(format);
        for row in &rows {
            let (name, groups, _, _) = row;
            // ms, ratio, Gloads/s, loads/clk/CU, status
            let cells: Vec<String> = if format == "table" {
                let line = out
                    .lines()
                    .find(|l| l.starts_with(&format!("{name} ")))
                    .unwrap_or_else(|| panic!("no line for {name}: {out}"));
                let words: Vec<&str> = line[name.len()..].split_whitespace().collect();
                let mut cells: Vec<String> = words[..4].iter().map(|w| w.to_string()).collect();
                cells.push(words[4..].join(" "));
                cells
            } else {
                let line = out
                    .lines()
                    .find(|l| l.starts_with(&format!("| `{name}` |")))
                    .unwrap_or_else(|| panic!("no line for {name}: {out}"));
                line.trim_matches('|')
                    .split(" | ")
                    .skip(1)
                    .map(|c| c.trim().to_string())
                    .collect()
            };
            assert_eq!(cells.len(), 5, "{format}: {out}");
            let (ms, status) = (cells[0].as_str(), cells[4].as_str());
            if *groups == 16 {
                assert_close(ms, row.2, 4, &out);
                assert_eq!(status, "ok", "{format}: {out}");
            } else {
                let star = if format == "table" { "*" } else { "\\*" };
                let ms = ms
                    .strip_suffix(star)
                    .unwrap_or_else(|| panic!("{format}: {out}"));
                assert_close(ms, scaled(row), 4, &out);
                let note = format!(
                    "ok ({star}cut to {groups} of 16 groups by the 50 ms watchdog budget; ms scaled to 16)"
                );
                assert_eq!(status, note, "{format}: {out}");
            }
        }
        assert!(err.contains("1 of 3 timed tests ran fewer groups"), "{err}");
    }
}
