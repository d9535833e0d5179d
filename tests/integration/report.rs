//! `perftest report`: bad inputs exit 2 and write nothing; reports of the committed H100
//! results (every suite, CSV and JSON), of several runs and of a fleet hold what they should;
//! the browser check (scripts/browser-check.sh) renders them in headless Chromium.

use crate::common::*;
use std::path::{Path, PathBuf};

/// The committed H100 files the report of every suite is made from.
fn h100_inputs() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::read_to_string(Path::new(root).join("results/h100/report/inputs.txt"))
        .unwrap()
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| format!("{root}/{l}"))
        .collect()
}

/// Runs `perftest report ARGS -o OUT` and returns the output and the report, if written.
fn report(args: &[String], out: &Path) -> (std::process::Output, Option<String>) {
    let mut all: Vec<&str> = vec!["report"];
    all.extend(args.iter().map(String::as_str));
    all.extend(["-o", out.to_str().unwrap()]);
    let o = run(&all);
    (o, std::fs::read_to_string(out).ok())
}

/// The `<svg>` charts of a report, each checked to hold a drawn point or line and labels.
fn charts(html: &str) -> Vec<&str> {
    let charts: Vec<&str> = html
        .split("<svg")
        .skip(1)
        .map(|s| &s[..s.find("</svg>").expect("every <svg> is closed")])
        .collect();
    for c in &charts {
        assert!(
            c.contains("<circle") || c.contains("<path d=\"M"),
            "a chart without data: {}",
            &c[..c.len().min(300)]
        );
        assert!(c.matches("<text").count() >= 3, "a chart without labels");
    }
    charts
}

#[test]
fn bad_inputs_exit_2_and_write_no_file() {
    let dir = tempdir("report-bad");
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    };
    let binary = write("run.csv", &[0x89, b'P', b'N', b'G', 0xff, 0xfe, 0, 1, 2]);
    let text = write("notes.md", b"# Notes\n\nThe H100 ran, then: 1, 2, 3.\n");
    let empty = write("empty.csv", b"");
    let other_tool = write(
        "fio.csv",
        b"jobname,read_bw_kib,write_bw_kib\nseq-read,1048576,0\n",
    );
    let header_only = write(
        "header.csv",
        b"device_index,device_name,test,ms_median,status\n",
    );
    let json_other = write("other.json", br#"{"name": "not perftest"}"#);
    let json_empty = write("none.json", br#"{"devices": [], "results": []}"#);
    let short_row = write(
        "short.csv",
        b"device_index,device_name,test,ms_median,status\n0,GPU,T,0.5,ok\n0,GPU,U,0.5\n",
    );
    let negative = write(
        "negative.csv",
        b"device_index,device_name,test,ms_median,status\n0,GPU,T,-1,ok\n",
    );
    let negative_json = write(
        "negative.json",
        br#"{"results": [{"device_index": 0, "device_name": "GPU", "test": "T",
             "ms_median": 0.5, "status": "ok", "gloads_per_s": -3}]}"#,
    );
    let good = committed("tests/fixtures/chart-h100.csv");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![binary.clone()], "not a perftest result (not text)"),
        (vec![text], "not a perftest result: missing columns"),
        (vec![empty.clone()], "the file is empty"),
        (
            vec![other_tool.clone()],
            "not a perftest result: missing columns device_index",
        ),
        (vec![header_only], "has a header but no rows"),
        (vec![json_other], "without a `results` array"),
        (
            vec![json_empty],
            "none.json: the file has no results (its `results` array is empty)",
        ),
        (
            vec![short_row],
            "short.csv: line 3: malformed CSV: the row has 4 cells but the header has 5",
        ),
        (
            vec![negative],
            "negative.csv: line 2: ms_median `-1` is negative",
        ),
        (
            vec![negative_json],
            "negative.json: line 1: gloads_per_s `-3` is negative",
        ),
        (
            vec![good.clone(), dir.join("missing.csv").display().to_string()],
            "cannot read",
        ),
        (
            vec![good.clone(), "--reference".into(), "nosuchgpu".into()],
            "matches no published GPU",
        ),
    ];
    for (args, message) in cases {
        let out = dir.join("report.html");
        let (o, html) = report(&args, &out);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(html.is_none(), "{args:?} wrote a report");
        // Nothing left beside it either (no partial file).
        let left: Vec<PathBuf> = std::fs::read_dir(&*dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains("report.html"))
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    // The report may not overwrite one of its inputs.
    let o = run(&["report", &binary, &good, "-o", &good]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is one of the inputs"),
        "{}",
        stderr(&o)
    );
    // No -o: clap's usage error.
    let o = run(&["report", &good]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn the_h100_report_draws_every_suite() {
    let dir = tempdir("report-h100");
    let mut args = h100_inputs();
    args.extend(["--reference".into(), "ampere".into()]);
    let (o, html) = report(&args, &dir.join("h100.html"));
    assert!(o.status.success(), "{}", stderr(&o));
    let html = html.unwrap();
    // Self-contained: no script, nothing fetched, the CSP forbids it.
    for banned in ["<script", "src=", "<link", "url(", "http://", "https://"] {
        assert!(!html.contains(banned), "the report holds {banned}");
    }
    assert!(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'"));
    // One run of the files, every suite a section.
    assert!(html.contains("1 run from 9 files"), "{}", &html[..2000]);
    for suite in [
        "original",
        "control",
        "extended",
        "write",
        "formats",
        "instructions",
        "ceiling",
        "branch",
        "pitfalls",
        "matrix",
        "bandwidth",
        "latency",
    ] {
        assert!(
            html.contains(&format!("<section id=\"suite-{suite}\">")),
            "no {suite} section"
        );
    }
    // Ratio plots of the six ratio suites, then branch, bandwidth and latency curves.
    let charts = charts(&html);
    assert_eq!(charts.len(), 9);
    assert!(html.contains("NVidia Ampere (RTX 3090) (published, Direct3D 11)"));
    assert!(html.contains("bandwidth, GB/s (log)"));
    assert!(html.contains("latency, shader clocks per load (log)"));
    // The published diamonds beside the original suite's dots.
    assert!(
        charts[0].matches("<circle").count() >= 138,
        "one dot per test"
    );
    assert!(
        charts[0].matches("l4 4l-4 4l-4 -4z").count() >= 80,
        "published ratios"
    );
    // A measured figure, as the CSV has it: the H100's steady clock around 1978 MHz (the matrix rows 2023–2068).
    assert!(html.contains("1978 (1963–2068)"), "clock summary");
}

#[test]
fn json_and_csv_of_one_run_give_one_report() {
    let dir = tempdir("report-json");
    let (o, html) = report(
        &[committed(
            "results/h100/instructions/instructions-run1.json",
        )],
        &dir.join("json.html"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let json = html.unwrap();
    let (o, html) = report(
        &[committed("results/h100/instructions/instructions-run1.csv")],
        &dir.join("csv.html"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = html.unwrap();
    // The same table; the JSON adds the device's UUID, subgroup size and command line.
    let table = |h: &str| {
        let start = h.find("<section id=\"suite-instructions\">").unwrap();
        h[start..].to_string()
    };
    assert_eq!(table(&json), table(&csv));
    assert!(json.contains("subgroup size") && !csv.contains("subgroup size"));
    assert!(json.contains("fp32 fma"));
}

#[test]
fn two_runs_side_by_side_and_a_fleet() {
    let dir = tempdir("report-several");
    // Both runs are committed gzipped: the report reads CSV either way.
    let runs: Vec<String> = ["run1.csv.gz", "run2.csv.gz"]
        .iter()
        .map(|r| committed(&format!("results/h100/bandwidth/{r}")))
        .collect();
    let (o, html) = report(&runs, &dir.join("two.html"));
    assert!(o.status.success(), "{}", stderr(&o));
    let html = html.unwrap();
    assert!(html.contains("<section id=\"changes\">"));
    assert!(
        html.contains("816 tests compared"),
        "every timed test of both runs"
    );
    charts(&html);

    let fleet: Vec<String> = [
        "latency/run1.csv",
        "latency/run2.csv.gz",
        "latency/run3.csv.gz",
    ]
    .iter()
    .map(|r| committed(&format!("results/h100/{r}")))
    .collect();
    let (o, html) = report(&fleet, &dir.join("fleet.html"));
    assert!(o.status.success(), "{}", stderr(&o));
    let html = html.unwrap();
    assert!(html.contains("Fleet: 3 runs of NVIDIA H100 80GB HBM3"));
    assert!(html.contains("Deviation per run"));
    charts(&html);
}

/// Whether a Chromium the browser check can use is installed.
fn chromium() -> bool {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .any(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
fn reports_render_in_a_real_browser() {
    if !chromium() {
        // CI installs it (scripts/setup.sh); elsewhere the check is skipped, loudly.
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but no Chromium is installed: run scripts/setup.sh"
        );
        eprintln!(
            "reports_render_in_a_real_browser: skipped, no Chromium (apt-get install chromium)"
        );
        return;
    }
    let dir = tempdir("report-browser");
    let o = std::process::Command::new(committed("scripts/browser-check.sh"))
        .arg(dir.path())
        .env("PERFTEST", env!("CARGO_BIN_EXE_perftest"))
        .output()
        .expect("the browser check runs");
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "{out}");
    for report in ["lavapipe", "h100", "failed"] {
        assert!(
            out.contains(&format!("browser-check: {report}: ")) && out.contains("no request"),
            "{out}"
        );
        assert!(
            dir.join(format!("{report}.png")).exists(),
            "no screenshot of {report}"
        );
    }
    assert!(out.contains("1 failed row cells"), "{out}");
}

#[test]
fn the_drivers_clock_and_power_stand_beside_the_probes_where_a_run_has_them() {
    let dir = tempdir("report-driver");
    // The committed H100 run with NVML's columns (gzip: read with zcat).
    let csv = dir.join("driver.csv");
    let z = std::process::Command::new("zcat")
        .arg(committed("results/h100/driver/all.csv.gz"))
        .output()
        .expect("zcat runs");
    std::fs::write(&csv, &z.stdout).unwrap();
    let html = dir.join("driver.html");
    let o = run(&[
        "report",
        csv.to_str().unwrap(),
        "-o",
        html.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("driver clock MHz (median, range)"));
    assert!(
        page.contains("1980 (345–1980)"),
        "the driver's clock over the run"
    );
    assert!(page.contains("power W (median, range)"));
    // At the top, what the GPU is (perftest summary of the same rows), before the device.
    let glance = page
        .find("At a glance: what the GPU is")
        .expect("the summary section");
    assert!(glance < page.find("id=\"device\"").unwrap_or(usize::MAX));
    for cell in [
        "L1: edge by latency",
        "160 KB – 192 KB",
        "3.35 TB/s [2]",
        "0.94×",
    ] {
        assert!(page.contains(cell), "no {cell:?} in the summary");
    }
    assert!(page.contains("driver MHz"));
    // Under each suite, the clocks (probe and driver) and the power, row by row.
    assert_eq!(
        page.matches("Clocks and power, row by row (the driver's word)")
            .count(),
        12,
        "one strip per suite of the run"
    );
    // A run without them (lavapipe's, the fixtures) has no such columns.
    let plain = dir.join("plain.html");
    let fixture = committed("tests/fixtures/chart-h100.csv");
    let o = run(&["report", &fixture, "-o", plain.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&plain).unwrap();
    assert!(!page.contains("driver clock MHz"));
    assert!(!page.contains("driver MHz"));
    assert!(!page.contains("Clocks and power, row by row"));
}

#[test]
fn an_edge_probe_is_a_point_of_the_latency_section() {
    // The committed whole run whose 9 edge probes come after the stride rows
    // (l2-line-1127): one latency section (one anchor, one link), which holds them.
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempdir("report");
    let out = dir.join("probes.html");
    let (o, html) = report(
        &[format!("{root}/results/h100/l2-line-1127/all.csv.gz")],
        &out,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let html = html.unwrap();
    assert_eq!(html.matches("<section id=\"suite-latency\">").count(), 1);
    assert_eq!(html.matches("href=\"#suite-latency\"").count(), 1);
    let section = &html[html.find("<section id=\"suite-latency\">").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(
        section.contains("latency: ByteAddressBuffer 188 KB"),
        "no probe"
    );
}
