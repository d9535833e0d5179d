//! Published references: the transcription against its source, and `compare --reference`.

use crate::common::*;
use perftest::published::{self, BASELINE};
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// One published line as the Markdown file has it.
#[derive(Debug)]
struct Line {
    number: usize,
    name: String,
    ms: String,
    ratio: String,
}

/// Every `### HEADING` section of the published file with its `NAME: <ms>ms <ratio>x` lines,
/// parsed here independently of scripts/published-references.py.
fn published_file() -> Vec<(String, Vec<Line>)> {
    let text = std::fs::read_to_string(root().join("tests/data/perftest-published.md")).unwrap();
    let mut sections: Vec<(String, Vec<Line>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(heading) = line.strip_prefix("### ") {
            sections.push((heading.to_string(), Vec::new()));
            continue;
        }
        let Some((_, lines)) = sections.last_mut() else {
            continue;
        };
        let Some((name, rest)) = line.trim().rsplit_once(": ") else {
            continue;
        };
        let Some((ms, ratio)) = rest.split_once("ms ") else {
            continue;
        };
        let Some(ratio) = ratio.strip_suffix('x') else {
            continue;
        };
        let number = |s: &str| !s.is_empty() && s.parse::<f64>().is_ok();
        if number(ms) && number(ratio) {
            lines.push(Line {
                number: i + 1,
                name: name.to_string(),
                ms: ms.to_string(),
                ratio: ratio.to_string(),
            });
        }
    }
    sections
}

fn data(name: &str) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(root().join("crates/results/data/published").join(name))
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn every_published_number_is_transcribed_and_none_invented() {
    let file = published_file();
    let gpus = data("gpus.csv");
    let results = data("results.csv");
    let suite = original_names();
    assert_eq!(file.len(), 13);
    assert_eq!(
        file.iter().map(|(_, l)| l.len()).collect::<Vec<_>>(),
        [84, 84, 84, 84, 84, 84, 84, 84, 84, 84, 84, 138, 84]
    );
    assert_eq!(gpus.len(), file.len());
    assert_eq!(results.len(), 12 * 84 + 138);
    let mut corrected = Vec::new();
    let mut used = 0;
    for ((heading, lines), gpu) in file.iter().zip(&gpus) {
        // key, heading, …, tests
        assert_eq!(&gpu[1], heading);
        assert_eq!(gpu[5].to_string(), "Direct3D 11");
        assert_eq!(gpu[8].parse::<usize>().unwrap(), lines.len(), "{heading}");
        let rows: Vec<&csv::StringRecord> = results.iter().filter(|r| r[0] == gpu[0]).collect();
        assert_eq!(rows.len(), lines.len(), "{heading}");
        used += rows.len();
        // gpu, position, test, family, ms, ratio, line, note: in the published order.
        for (k, (line, row)) in lines.iter().zip(&rows).enumerate() {
            let at = format!("{heading}, line {}", line.number);
            assert_eq!(row[1].parse::<usize>().unwrap(), k + 1, "{at}");
            assert_eq!(&row[4], line.ms, "{at}");
            assert_eq!(&row[5], line.ratio, "{at}");
            assert_eq!(row[6].parse::<usize>().unwrap(), line.number, "{at}");
            assert!(suite.contains(&row[2].to_string()), "{at}: {}", &row[2]);
            if row[2] != line.name {
                assert!(
                    row[7].contains(&line.name),
                    "{at}: a new name without a note"
                );
                corrected.push((
                    heading.clone(),
                    k + 1,
                    line.name.clone(),
                    row[2].to_string(),
                ));
            } else {
                assert!(row[7].is_empty(), "{at}");
            }
        }
    }
    assert_eq!(used, results.len(), "rows of no published GPU");
    // The one name the RTX 3090's table gives twice: its first occurrence sits where the
    // suite runs the nearest-sampled RGBA32F uniform test.
    assert_eq!(
        corrected,
        [(
            "NVidia Ampere (RTX 3090)".to_string(),
            109,
            "Texture2D<RGBA32F>.Sample(bilinear) uniform".to_string(),
            "Texture2D<RGBA32F>.Sample(nearest) uniform".to_string()
        )]
    );
    let ampere = &file[11].1;
    assert_eq!(
        ampere
            .iter()
            .map(|l| l.name.as_str())
            .filter(|n| *n == ampere[108].name)
            .count(),
        2
    );
    assert_eq!(ampere[108].ratio, "0.394");
    assert_eq!(
        ampere[135].name,
        "Texture2D<RGBA32F>.Sample(bilinear) uniform"
    );
    assert_eq!(ampere[135].ratio, "0.210");
}

#[test]
fn the_built_in_data_is_the_data_directory() {
    let all = published::all().unwrap();
    let results = data("results.csv");
    let mut rows = results.iter();
    for r in all {
        for p in &r.results {
            let row = rows.next().unwrap();
            assert_eq!((&row[0], &row[2]), (r.key.as_str(), p.test.as_str()));
            assert_eq!(p.ms, row[4].parse::<f64>().unwrap());
            assert_eq!(p.ratio, row[5].parse::<f64>().unwrap());
            assert_eq!(p.family, &row[3]);
        }
        assert_eq!(r.ratio(BASELINE), Some(1.0), "{}", r.heading);
    }
    assert!(rows.next().is_none());
    assert_eq!(BASELINE, perftest::catalog::baseline().name());
}

#[test]
fn families_are_the_catalogs() {
    let catalog: Vec<(&str, &str)> = perftest::catalog::all_tests()
        .iter()
        .map(|t| (t.name(), t.columns().family))
        .collect();
    for r in published::all().unwrap() {
        for p in &r.results {
            let family = catalog.iter().find(|(n, _)| *n == p.test).map(|(_, f)| *f);
            assert_eq!(family, Some(p.family.as_str()), "{}", p.test);
        }
    }
}

#[test]
fn the_script_regenerates_the_data() {
    let o = std::process::Command::new("python3")
        .arg(root().join("scripts/published-references.py"))
        .arg("--check")
        .output()
        .expect("run python3 scripts/published-references.py");
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn list_references_names_every_gpu() {
    let o = run(&["compare", "--list-references"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().skip(2).take_while(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), 13, "{out}");
    let ampere = rows.iter().find(|l| l.contains("RTX 3090")).unwrap();
    let cells: Vec<&str> = ampere
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cells[..5],
        [
            "NVidia Ampere (RTX 3090)",
            "NVIDIA",
            "Ampere",
            "Direct3D 11",
            "138"
        ]
    );
    let o = run(&["compare", "--list-references", "--format", "markdown"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o)
            .lines()
            .filter(|l| l.starts_with("| AMD"))
            .count(),
        6
    );
    // A CSV is not listed: the two are exclusive.
    let o = run(&["compare", "--list-references", &fixture("chart-h100.csv")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The Markdown row of `test`, split into cells.
fn cells(out: &str, test: &str) -> Vec<String> {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("| `{test}` |")))
        .unwrap_or_else(|| panic!("no row for {test} in\n{out}"));
    line.trim_matches('|')
        .split(" | ")
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn one_file_against_a_reference_by_name() {
    let run_csv = fixture("chart-h100.csv");
    let o = run(&[
        "compare",
        &run_csv,
        "--reference",
        "3090",
        "--format",
        "markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "| test | chart-h100 ratio | Ampere ratio | chart-h100 / Ampere |"
    );
    // 0.201824 / 0.150896 = 1.3375; published 9.245: 1.3375 / 9.245 = 0.145.
    assert_eq!(
        cells(&out, "cbuffer{float4} load uniform"),
        [
            "`cbuffer{float4} load uniform`",
            "1.338x",
            "9.245x",
            "0.145"
        ]
    );
    // The run has 18 of the reference's 138 tests: 18 rows, the others counted.
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("| `")).count(),
        18 + 5
    );
    assert!(out.contains("120 of them not in the run"), "{out}");
    assert!(
        out.contains("### Closest published profiles: chart-h100"),
        "{out}"
    );
    // Without --reference one file is still an error.
    let o = run(&["compare", &run_csv]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "at least two CSV files, or one holding two devices (or one with --reference"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_run_with_tests_no_reference_has() {
    // 10 original tests, two extended ones, an unsupported one and an instruction row.
    let o = run(&[
        "compare",
        &fixture("references-h100.csv"),
        "--reference",
        "GCN2",
        "--reference",
        "Titan V",
        "--format",
        "markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "| test | references-h100 ratio | GCN2 ratio | references-h100 / GCN2 | Volta ratio \
             | references-h100 / Volta |\n"
        ),
        "{out}"
    );
    for (test, mine) in [
        ("Control: loop 1D", "2.718x"),
        ("RWBuffer<R8>.Load uniform", "1.491x"),
        ("Texture2D<ETC2_RGBA8>.Load uniform", "unsupported"),
        ("fp32 add", "-"),
        // The RTX 3090 alone has the sampling tests.
        ("Texture2D<RGBA32F>.Sample(nearest) uniform", "0.379x"),
    ] {
        assert_eq!(cells(&out, test)[1..], [mine, "-", "-", "-", "-"], "{test}");
    }
    assert_eq!(
        cells(&out, "Buffer<R8>.Load uniform")[1..],
        ["1.491x", "3.907x", "0.382", "8.139x", "0.183"]
    );
    assert!(!out.contains("| 0 |") && !out.contains("0.000x"), "{out}");
}

#[test]
fn all_references_ranked_with_the_most_different_tests() {
    let o = run(&[
        "compare",
        &fixture("references-h100.csv"),
        "--reference",
        "all",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.lines().next().unwrap().matches(" ratio").count(),
        1 + 13
    );
    let ranking: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Closest published profiles: references-h100"))
        .skip_while(|l| !l.trim_start().starts_with('#'))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(ranking.len(), 13, "{out}");
    for (i, l) in ranking.iter().enumerate() {
        assert!(l.trim_start().starts_with(&format!("{} ", i + 1)), "{l}");
    }
    let distances: Vec<f64> = ranking
        .iter()
        .map(|l| l.split_whitespace().rev().nth(4).unwrap().parse().unwrap())
        .collect();
    assert!(distances.windows(2).all(|w| w[0] <= w[1]), "{out}");
    let different: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Tests that differ most from "))
        .skip_while(|l| !l.starts_with("test "))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(different.len(), 5, "{out}");
}

#[test]
fn unknown_and_ambiguous_references_exit_2_with_the_list() {
    let run_csv = fixture("chart-h100.csv");
    let o = run(&["compare", &run_csv, "--reference", "rtx 4090"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("\"rtx 4090\" matches no published GPU"),
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.starts_with("  ")).count(),
        13,
        "{err}"
    );
    assert!(stdout(&o).is_empty());

    let o = run(&["compare", &run_csv, "--reference", "nvidia"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("\"nvidia\" is ambiguous: it matches 6"),
        "{err}"
    );
    let listed: Vec<&str> = err.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(listed.len(), 6, "{err}");
    assert!(
        listed.iter().all(|l| l.to_lowercase().contains("nvidia")),
        "{err}"
    );

    // `gcn5` is an architecture exactly: it names GCN5, not also GCN5 7nm.
    let o = run(&[
        "compare",
        &run_csv,
        "--reference",
        "gcn5",
        "--format",
        "markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("| test | chart-h100 ratio | GCN5 ratio |"));
    let o = run(&["compare", &run_csv, "--reference", "gcn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("AMD GCN5 7nm (Radeon VII)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_run_without_the_baseline_exits_2() {
    let dir = tempdir("references-no-baseline");
    let path: PathBuf = dir.join("cbuffer.csv");
    let text = std::fs::read_to_string(fixture("chart-h100.csv")).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains(BASELINE)).collect();
    std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    let o = run(&["compare", path.to_str().unwrap(), "--reference", "3090"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no timed `Buffer<RGBA8>.Load random` row"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_lavapipe_run_against_the_rtx_3090() {
    let dir = tempdir("references-lavapipe");
    let out_csv = dir.join("lavapipe.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "16",
        "--samples",
        "3",
        "--suite",
        "original,control",
        "--filter",
        "Buffer<",
        "--filter",
        "Control",
        "--csv",
        out_csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "compare",
        out_csv.to_str().unwrap(),
        "--reference",
        "3090",
        "--format",
        "markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // 27 typed-buffer tests the RTX 3090 has, 2 control loops it lacks.
    let rows: Vec<Vec<String>> = out
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 29, "{out}");
    for row in &rows {
        let published = row[0].starts_with("`Buffer<");
        assert_eq!(row[2] != "-", published, "{row:?}");
        assert_eq!(row[3] != "-", published && row[1] != "-", "{row:?}");
        assert!(row[1].ends_with('x'), "{row:?}");
    }
    assert!(out.contains("111 of them not in the run"), "{out}");
}
