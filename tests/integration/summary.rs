//! `perftest summary`: the committed H100 run summarised from its gzipped CSV and JSON alike;
//! bad inputs exit 2; a run with `--summary` ends with the same block, off the CSV's stdout.

use crate::common::*;

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
        "--drift-limit",
        LAVAPIPE_DRIFT_LIMIT,
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

#[test]
fn summary_json_carries_every_figure_with_its_unit() {
    let o = run(&[
        "summary",
        &committed("results/h100/load-to-use-1127/all.csv.gz"),
        "--json",
        "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON on stdout");
    let gpus = doc["gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 1);
    assert_eq!(gpus[0]["device"], "NVIDIA H100 80GB HBM3");
    let items: Vec<&serde_json::Value> = gpus[0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["items"].as_array().unwrap())
        .collect();
    let find = |what: &str| {
        *items
            .iter()
            .find(|i| i["what"] == what)
            .unwrap_or_else(|| panic!("no item {what}"))
    };
    // Every measured item carries its figures, each with a unit; a left-out one its reason.
    for i in &items {
        let q = i["quantities"].as_array().unwrap();
        if i["text"].is_string() {
            assert!(!q.is_empty(), "no figures in {i}");
            assert!(q
                .iter()
                .all(|q| q["unit"].is_string() && q["value"].is_f64()));
        } else {
            assert!(q.is_empty() && i["left_out"].is_string(), "{i}");
        }
    }
    // The L2's size as a range in bytes: between 48 and 56 MB, beside the published 50 MB.
    let far = find("L2 far part: edge by latency");
    let q = &far["quantities"][0];
    assert_eq!(q["unit"], "B");
    assert_eq!(q["value"].as_f64(), Some(48.0 * 1048576.0));
    assert_eq!(q["to"].as_f64(), Some(56.0 * 1048576.0));
    assert_eq!(far["published"]["value"].as_f64(), Some(50.0));
    assert_eq!(far["published"]["unit"], "MB");
    // L1's load-to-use latency in clocks and nanoseconds, as the table prints it.
    let l1 = find("L1: load-to-use latency");
    assert_eq!(
        l1["text"],
        "38.6 clk, 19.5 ns (p = *p, 12.6 clk under the indexed chase)"
    );
    assert_eq!(l1["quantities"][0]["unit"], "clk");
    assert!((l1["quantities"][0]["value"].as_f64().unwrap() - 38.6).abs() < 0.05);
    assert_eq!(l1["quantities"][1]["unit"], "ns");
    assert_eq!(find("L1: latency")["subsystem"], "L1");
    // The uniform path's levels, each over its working sets.
    let uniform = find("uniform buffer: latency")["quantities"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(uniform.len(), 2);
    assert_eq!(uniform[1]["sizes"][0].as_u64(), Some(6 * 1024));
    assert_eq!(uniform[1]["sizes"][1].as_u64(), Some(64 * 1024));
    // The same to a file, and a folder is no file.
    let dir = tempdir("summary-json");
    let file = dir.join("s.json");
    let o = run(&[
        "summary",
        &committed("results/h100/load-to-use-1127/all.csv.gz"),
        "--json",
        file.to_str().unwrap(),
    ]);
    assert!(
        o.status.success() && stdout(&o).is_empty(),
        "{}",
        stderr(&o)
    );
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written, doc);
    let o = run(&[
        "summary",
        &committed("results/h100/load-to-use-1127/all.csv.gz"),
        "--json",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--json needs a file name"),
        "{}",
        stderr(&o)
    );
}
