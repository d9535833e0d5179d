//! `perftest summary`: the committed H100 run summarised from its gzipped CSV and JSON alike;
//! bad inputs exit 2; a run with `--summary` ends with the same block, off the CSV's stdout.

mod common;
use common::*;

#[test]
fn the_committed_h100_run_prints_its_table_from_csv_and_json_alike() {
    let csv = run(&[
        "summary",
        &committed("results/h100/driver/b61aad8/all.csv.gz"),
    ]);
    let json = run(&[
        "summary",
        &committed("results/h100/driver/b61aad8/all.json.gz"),
    ]);
    assert!(csv.status.success(), "{}", stderr(&csv));
    assert!(json.status.success(), "{}", stderr(&json));
    let out = stdout(&csv);
    for line in [
        "  L1: edge by latency               160 KB – 192 KB",
        "  L2 far part: edge by latency      48 MB – 56 MB                    50 MB [1]          0.96–1.12×",
        "  memory: bandwidth                 11.9 B/clk/CU, 3.12 TB/s         3.35 TB/s [2]      0.93×",
    ] {
        assert!(out.contains(line), "no {line:?} in\n{out}");
    }
    // The same rows in either file: the same table, but for the file named in its heading.
    let body = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&out), body(&stdout(&json)));
    // The committed worked example is today's output.
    let shown = std::fs::read_to_string(committed("results/h100/summary/summary.txt")).unwrap();
    assert_eq!(
        body(&shown),
        body(&out),
        "results/h100/summary/summary.txt is stale"
    );
}

#[test]
fn bad_inputs_exit_2_with_the_file_named() {
    let dir = tempdir("summary-bad");
    let other = dir.join("fio.csv");
    std::fs::write(&other, "jobname,read_bw_kib\nseq,1\n").unwrap();
    let missing = dir.join("missing.csv");
    for (file, says) in [
        (
            other.display().to_string(),
            "not a perftest result: missing columns",
        ),
        (missing.display().to_string(), "cannot read"),
    ] {
        let o = run(&["summary", &file]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(says) && stderr(&o).contains(&file),
            "{}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn a_run_with_summary_ends_with_the_block_and_keeps_the_csv_on_stdout_clean() {
    let o = run_clean(&[
        "--suite",
        "instructions,matrix",
        "--filter",
        "fp32 fma",
        "--filter",
        "peak fp32",
        "--summary",
        "--groups",
        "2",
        "--samples",
        "1",
        "--csv",
        "-",
    ]);
    let (out, err) = (stdout(&o), stderr(&o));
    // stdout: the CSV alone, a header and two rows.
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.starts_with("device_index,") && !out.contains("Summary"));
    // stderr: the block, from this run's rows, with what lavapipe cannot support said.
    let block = &err[err
        .find("Summary: llvmpipe")
        .expect("the summary on stderr")..];
    assert!(block.contains("2 rows from this run"), "{block}");
    assert!(
        block.contains("left out: no clock_mhz in the rows"),
        "{block}"
    );
    // fp32: the better of the two rows, ×2 where an fma counts one, in TFLOP/s.
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|c| c == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let tflops = |test: &str, f: f64| {
        let r = rows.iter().find(|r| &r[col("test")] == test).unwrap();
        r[col("gloads_per_s")].parse::<f64>().unwrap() * f / 1000.0
    };
    let best = tflops("fp32 fma", 2.0).max(tflops("matrix: peak fp32 vec4 fma", 1.0));
    let line = block.lines().find(|l| l.starts_with("  fp32 ")).unwrap();
    let shown: f64 = line
        .split(", ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (shown - best).abs() <= best * 0.01 + 0.001,
        "{line} vs {best}"
    );
}
