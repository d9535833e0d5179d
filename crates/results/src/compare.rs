//! `perftest compare`: median times of several CSV results side by side, with % change and speedup.

pub mod read;
mod references;

use crate::published::Reference;
use crate::vocab::{Status, Unit};
use crate::words::Words;
use anyhow::{bail, Result};
use std::collections::HashMap;
use std::path::PathBuf;

pub use references::list_references;
pub(crate) use references::sig3;

crate::words! {
    /// How `compare` lays out its table.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum CompareFormat {
        /// Aligned plain-text columns, for a terminal.
        Table = "table",
        /// A GitHub-flavoured Markdown table, ready to paste into an issue or a README.
        Markdown = "markdown",
    }
}

/// Loads of the original's dispatch (4096 groups × 256 threads × 256 loads): times of rows
/// with a `loads_per_dispatch` column are scaled to it before they are compared.
const FULL_DISPATCH_LOADS: f64 = 268_435_456.0;

/// The columns `compare` reads; every other column is ignored (`loads_per_dispatch`, when
/// present, normalises the times).
pub use read::REQUIRED_COLUMNS;

/// Compares the CSV files written by `perftest --csv`.
///
/// Each (file, device) is one series, labelled by the file stem, or `STEM:DEVICE_NAME` when
/// the file holds rows of more than one device. The first series is the reference: every
/// later one gets its percent change in time (`+12.3%` = slower) and its speedup
/// (`time(first) / time(this)`, `1.234x`). At least two series are required: two files, or
/// one holding rows of two devices.
pub fn compare_files(paths: &[PathBuf], format: CompareFormat) -> Result<String> {
    if paths.is_empty() {
        bail!("{}", too_few(0, 0));
    }
    compare_inputs(&read_inputs(paths)?, format)
}

/// Sets the ratios of each (file, device) of `paths` beside the published ratios of
/// `references`, test by test, and ranks the references by how close their ratio profiles
/// are to each series (see `compare/references.rs`). One file is enough.
pub fn compare_files_with_references(
    paths: &[PathBuf],
    references: &[&Reference],
    format: CompareFormat,
) -> Result<String> {
    if paths.is_empty() {
        bail!("compare needs a CSV file");
    }
    references::compare(&read_inputs(paths)?, references, format)
}

/// Like [`compare_files_with_references`], on `(label, csv_text)` pairs.
pub fn compare_text_with_references(
    inputs: &[(String, String)],
    references: &[&Reference],
    format: CompareFormat,
) -> Result<String> {
    references::compare(&text_inputs(inputs)?, references, format)
}

/// The error of too few series: `files` files holding `series` devices in all.
fn too_few(files: usize, series: usize) -> String {
    format!(
        "compare needs at least two CSV files, or one holding two devices (or one with \
         --reference NAME); got {files} file{} with {series} device{}",
        if files == 1 { "" } else { "s" },
        if series == 1 { "" } else { "s" }
    )
}

/// Reads each file (CSV or JSON), labelled by its stem (by its path where two files share
/// a stem).
fn read_inputs(paths: &[PathBuf]) -> Result<Vec<Input>> {
    let labels = labels(paths);
    paths
        .iter()
        .zip(labels)
        .map(|(path, label)| {
            Ok(Input {
                label,
                table: read::read_path(path)?,
            })
        })
        .collect()
}

/// Each file's label: its stem, or its path where two files share a stem (`a/run.csv`,
/// `b/run.csv`).
pub fn labels(paths: &[PathBuf]) -> Vec<String> {
    let stems: Vec<String> = paths
        .iter()
        .map(|p| {
            p.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string())
        })
        .collect();
    paths
        .iter()
        .zip(&stems)
        .map(|(path, stem)| {
            if stems.iter().filter(|s| *s == stem).count() > 1 {
                path.display().to_string()
            } else {
                stem.clone()
            }
        })
        .collect()
}

/// Like [`compare_files`], on `(label, csv_text)` pairs; errors name the label.
pub fn compare_text(inputs: &[(String, String)], format: CompareFormat) -> Result<String> {
    compare_inputs(&text_inputs(inputs)?, format)
}

fn text_inputs(inputs: &[(String, String)]) -> Result<Vec<Input>> {
    inputs
        .iter()
        .map(|(label, text)| {
            Ok(Input {
                label: label.clone(),
                table: read::read_text(label, text)?,
            })
        })
        .collect()
}

/// One result file to compare: its series label and its rows.
struct Input {
    label: String,
    table: read::Table,
}

/// One test's result in one series.
struct Cell {
    /// `None` for a file without the column.
    status: Option<Status>,
    /// The median time per dispatch as measured (what the `ms` columns print).
    measured_ms: Option<f64>,
    /// The same scaled to the original's dispatch of 2^28 loads (what the comparisons use:
    /// runs of different dispatch sizes compare per load).
    ms: Option<f64>,
    /// The row counts operations (`unit` = `ops`: the instruction suite), which have no ratio.
    ops: bool,
}

/// The rows of one device in one file.
struct Series {
    label: String,
    cells: HashMap<String, Cell>,
}

fn compare_inputs(inputs: &[Input], format: CompareFormat) -> Result<String> {
    let (series, tests) = load(inputs)?;
    if series.len() < 2 {
        bail!("{}", too_few(inputs.len(), series.len()));
    }
    // Times are scaled per load where a file gives its dispatch size: a file without the
    // column beside one with it would compare a whole dispatch with 2^28 loads' worth.
    let has = |i: &Input| i.table.columns.iter().any(|c| c == "loads_per_dispatch");
    if inputs.iter().any(has) {
        if let Some(lacking) = inputs.iter().find(|i| !has(i)) {
            bail!(
                "{}: lacks the column loads_per_dispatch, which compare needs to set its \
                 times beside those of {} (which has it) per load",
                lacking.table.source,
                inputs
                    .iter()
                    .find(|i| has(i))
                    .map_or("", |i| &i.table.source)
            );
        }
    }
    Ok(render(&build_rows(&series, &tests), format))
}

/// Every series of every input, and the test names in order of first appearance.
fn load(inputs: &[Input]) -> Result<(Vec<Series>, Vec<String>)> {
    let mut tests: Vec<String> = Vec::new();
    let mut series: Vec<Series> = Vec::new();
    for input in inputs {
        series.extend(parse(input, &mut tests)?);
    }
    Ok((series, tests))
}

fn render(rows: &Rows, format: CompareFormat) -> String {
    match format {
        CompareFormat::Table => render_table(rows),
        CompareFormat::Markdown => render_markdown(rows),
    }
}

/// Parses one CSV into its series (one per device, in order of first appearance), adding
/// unseen test names to `tests`.
fn parse(input: &Input, tests: &mut Vec<String>) -> Result<Vec<Series>> {
    let table = &input.table;
    let src = &table.source;

    // (device_index, device_name, test -> cell), in order of first appearance.
    let mut devices: Vec<(u32, String, HashMap<String, Cell>)> = Vec::new();
    for (row, line) in table.rows.iter().zip(&table.lines) {
        let (index, name, test) = (row.device_index, &row.device_name, &row.test);
        let measured_ms = row.ms_median;
        // Runs of different sizes (calibrated per device, or cut to the watchdog budget)
        // compare per load: times are scaled to the original's dispatch of 2^28 loads.
        let ms = match (measured_ms, row.loads_per_dispatch) {
            (Some(ms), Some(loads)) if loads > 0 => Some(ms * FULL_DISPATCH_LOADS / loads as f64),
            (ms, _) => ms,
        };
        let pos = match devices
            .iter()
            .position(|(i, n, _)| *i == index && n == name)
        {
            Some(p) => p,
            None => {
                devices.push((index, name.clone(), HashMap::new()));
                devices.len() - 1
            }
        };
        let cells = &mut devices[pos].2;
        if cells.contains_key(test) {
            bail!("{src}: line {line}: test `{test}` appears twice for device {index} ({name})");
        }
        if !tests.iter().any(|t| t == test) {
            tests.push(test.clone());
        }
        cells.insert(
            test.clone(),
            Cell {
                status: row.status,
                measured_ms,
                ms,
                ops: row.unit == Some(Unit::Ops),
            },
        );
    }

    let single = devices.len() == 1;
    let labels: Vec<String> = devices
        .iter()
        .map(|(index, name, _)| {
            if single {
                input.label.clone()
            } else if devices.iter().filter(|(_, n, _)| n == name).count() > 1 {
                // Two identical GPUs in one machine: the index tells them apart.
                format!("{}:{name}#{index}", input.label)
            } else {
                format!("{}:{name}", input.label)
            }
        })
        .collect();
    Ok(labels
        .into_iter()
        .zip(devices)
        .map(|(label, (_, _, cells))| Series { label, cells })
        .collect())
}

/// Alignment of a column in the output.
#[derive(Clone, Copy, PartialEq)]
enum Align {
    Left,
    Right,
}

/// The header and body of the comparison, cell by cell, before layout.
struct Rows {
    header: Vec<String>,
    align: Vec<Align>,
    body: Vec<Vec<String>>,
    /// The first column holds test names: in Markdown, code spans.
    code: bool,
}

fn build_rows(series: &[Series], tests: &[String]) -> Rows {
    let first = &series[0];
    let mut header = vec!["test".to_string(), format!("{} ms", first.label)];
    let mut align = vec![Align::Left, Align::Right];
    for s in &series[1..] {
        header.push(format!("{} ms", s.label));
        header.push(format!("{} vs {}", s.label, first.label));
        header.push(format!("{} speedup", s.label));
        align.extend([Align::Right; 3]);
    }
    let body = tests
        .iter()
        .map(|test| {
            let base = first.cells.get(test);
            let mut row = vec![test.clone(), ms_cell(base)];
            for s in &series[1..] {
                let this = s.cells.get(test);
                row.push(ms_cell(this));
                match (timed(base), timed(this)) {
                    (Some(b), Some(t)) if b > 0.0 && t > 0.0 => {
                        row.push(percent(b, t));
                        row.push(format!("{:.3}x", b / t));
                    }
                    _ => row.extend(["-".to_string(), "-".to_string()]),
                }
            }
            row
        })
        .collect();
    Rows {
        header,
        align,
        body,
        code: true,
    }
}

/// The median time of a test that ran and was timed.
fn timed(cell: Option<&Cell>) -> Option<f64> {
    cell.filter(|c| c.status == Some(Status::Ok))
        .and_then(|c| c.ms)
}

/// `0.135`, or the status (`unsupported`) when the test did not run, or `-` when absent.
fn ms_cell(cell: Option<&Cell>) -> String {
    match cell {
        None => "-".to_string(),
        Some(c) if c.status != Some(Status::Ok) => c
            .status
            .map_or_else(|| "-".to_string(), |s| s.word().to_string()),
        Some(c) => c
            .measured_ms
            .map_or_else(|| "-".to_string(), |ms| format!("{ms:.3}")),
    }
}

/// Change in time from `base` to `this`, one decimal, signed: `+12.3%` is slower.
fn percent(base: f64, this: f64) -> String {
    let p = ((this - base) / base * 100.0 * 10.0).round() / 10.0;
    // `-0.0` would print as `-0.0%`.
    let p = if p == 0.0 { 0.0 } else { p };
    format!("{p:+.1}%")
}

fn render_table(rows: &Rows) -> String {
    let width: Vec<usize> = (0..rows.header.len())
        .map(|i| {
            std::iter::once(&rows.header)
                .chain(&rows.body)
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(width[i] - c.chars().count());
                match rows.align[i] {
                    Align::Left => format!("{c}{pad}"),
                    Align::Right => format!("{pad}{c}"),
                }
            })
            .collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(&rows.header);
    let dashes: Vec<String> = width.iter().map(|w| "-".repeat(*w)).collect();
    out += &line(&dashes);
    for r in &rows.body {
        out += &line(r);
    }
    out
}

fn render_markdown(rows: &Rows) -> String {
    // `|` would end the cell; `<R8>` in a test name would be read as an HTML tag, so test
    // names go in code spans.
    let escape = |s: &str| s.replace('|', "\\|");
    let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
    let mut out = line(rows.header.iter().map(|h| escape(h)).collect());
    out += &format!(
        "|{}|\n",
        rows.align
            .iter()
            .map(|a| match a {
                Align::Left => "---",
                Align::Right => "---:",
            })
            .collect::<Vec<_>>()
            .join("|")
    );
    for r in &rows.body {
        let cells = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 && rows.code {
                    format!("`{}`", escape(c))
                } else {
                    escape(c)
                }
            })
            .collect();
        out += &line(cells);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "device_index,device_name,test,family,ms_median,ratio,status,reason";

    #[test]
    fn different_dispatch_sizes_compare_per_load() {
        let h = "device_index,device_name,test,ms_median,status,loads_per_dispatch";
        // B ran half the loads in half the time: the same speed. The columns show each
        // file's median as measured; the change and speed-up are per load.
        let a = format!("{h}\n0,GPU,T,2.0,ok,268435456\n");
        let b = format!("{h}\n0,GPU,T,1.0,ok,134217728\n");
        let out =
            compare_text(&[("a".into(), a), ("b".into(), b)], CompareFormat::Markdown).unwrap();
        assert!(
            out.contains("| `T` | 2.000 | 1.000 | +0.0% | 1.000x |"),
            "{out}"
        );
    }

    fn csv(rows: &[&str]) -> String {
        std::iter::once(HEADER)
            .chain(rows.iter().copied())
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    }

    fn a() -> String {
        csv(&[
            "0,GPU A,Buffer<R8>.Load uniform,typed_buffer,0.100000,2.0,ok,",
            "0,GPU A,Buffer<RGBA8>.Load random,typed_buffer,0.200000,1.0,ok,",
            "0,GPU A,Texture2D<RGBA32F>.Sample(bilinear) random,texture_sample_bilinear,1.600000,0.125,ok,",
            "0,GPU A,cbuffer{float4} load linear,constant_buffer,7.000000,0.03,ok,",
        ])
    }

    fn b() -> String {
        csv(&[
            "0,GPU B,Buffer<R8>.Load uniform,typed_buffer,0.112300,1.8,ok,",
            "0,GPU B,Buffer<RGBA8>.Load random,typed_buffer,0.192000,1.0,ok,",
            "0,GPU B,Texture2D<RGBA32F>.Sample(bilinear) random,texture_sample_bilinear,,,unsupported,no linear filtering",
            // cbuffer{float4} load linear is missing; a test only B has:
            "0,GPU B,ByteAddressBuffer.Load uniform,raw_buffer,0.050000,4.0,ok,",
        ])
    }

    fn inputs(list: &[(&str, String)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(l, t)| (l.to_string(), t.clone()))
            .collect()
    }

    /// The cells of the table row whose test is `test`, split on runs of 2+ spaces.
    fn table_row(out: &str, test: &str) -> Vec<String> {
        let line = out
            .lines()
            .find(|l| l.starts_with(test))
            .unwrap_or_else(|| panic!("no row for {test} in\n{out}"));
        line.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect()
    }

    #[test]
    fn percent_and_ratio_strings() {
        let out = compare_text(&inputs(&[("a", a()), ("b", b())]), CompareFormat::Table).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            table_row(&out, "test"),
            ["test", "a ms", "b ms", "b vs a", "b speedup"],
            "{out}"
        );
        assert!(lines[1].chars().all(|c| c == '-' || c == ' '), "{out}");
        // 0.1123 vs 0.1: 12.3% slower, 0.100/0.1123 = 0.890x.
        assert_eq!(
            table_row(&out, "Buffer<R8>.Load uniform"),
            [
                "Buffer<R8>.Load uniform",
                "0.100",
                "0.112",
                "+12.3%",
                "0.890x"
            ]
        );
        // 0.192 vs 0.2: 4% faster, 0.2/0.192 = 1.042x.
        assert_eq!(
            table_row(&out, "Buffer<RGBA8>.Load random"),
            [
                "Buffer<RGBA8>.Load random",
                "0.200",
                "0.192",
                "-4.0%",
                "1.042x"
            ]
        );
        // Not run on b: the status instead of a time, no change.
        assert_eq!(
            table_row(&out, "Texture2D<RGBA32F>.Sample(bilinear) random"),
            [
                "Texture2D<RGBA32F>.Sample(bilinear) random",
                "1.600",
                "unsupported",
                "-",
                "-"
            ]
        );
    }

    #[test]
    fn test_missing_from_one_file() {
        let out = compare_text(&inputs(&[("a", a()), ("b", b())]), CompareFormat::Table).unwrap();
        assert_eq!(
            table_row(&out, "cbuffer{float4} load linear"),
            ["cbuffer{float4} load linear", "7.000", "-", "-", "-"]
        );
        assert_eq!(
            table_row(&out, "ByteAddressBuffer.Load uniform"),
            ["ByteAddressBuffer.Load uniform", "-", "0.050", "-", "-"]
        );
        // Order of first appearance: a's four tests, then the one only b has.
        let tests: Vec<&str> = out
            .lines()
            .skip(2)
            .map(|l| l.split("  ").next().unwrap())
            .collect();
        assert_eq!(
            tests,
            [
                "Buffer<R8>.Load uniform",
                "Buffer<RGBA8>.Load random",
                "Texture2D<RGBA32F>.Sample(bilinear) random",
                "cbuffer{float4} load linear",
                "ByteAddressBuffer.Load uniform"
            ]
        );
    }

    #[test]
    fn table_columns_are_aligned() {
        let out = compare_text(&inputs(&[("a", a()), ("b", b())]), CompareFormat::Table).unwrap();
        // Right-aligned numbers: every row's last cell ends in the same column as the header's.
        let header_len = out.lines().next().unwrap().len();
        for l in out.lines() {
            assert_eq!(l.len(), header_len, "{out}");
        }
    }

    #[test]
    fn markdown_shape() {
        let out =
            compare_text(&inputs(&[("a", a()), ("b", b())]), CompareFormat::Markdown).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "| test | a ms | b ms | b vs a | b speedup |");
        assert_eq!(lines[1], "|---|---:|---:|---:|---:|");
        assert_eq!(
            lines[2],
            "| `Buffer<R8>.Load uniform` | 0.100 | 0.112 | +12.3% | 0.890x |"
        );
        assert_eq!(lines.len(), 2 + 5);
        for l in &lines {
            assert!(l.starts_with('|') && l.ends_with('|'), "{l}");
            assert_eq!(l.matches('|').count(), 6, "{l}");
        }
    }

    #[test]
    fn three_series_each_against_the_first() {
        let c = csv(&["0,GPU C,Buffer<R8>.Load uniform,typed_buffer,0.050000,4.0,ok,"]);
        let out = compare_text(
            &inputs(&[("a", a()), ("b", b()), ("c", c)]),
            CompareFormat::Table,
        )
        .unwrap();
        assert_eq!(
            table_row(&out, "test"),
            [
                "test",
                "a ms",
                "b ms",
                "b vs a",
                "b speedup",
                "c ms",
                "c vs a",
                "c speedup"
            ]
        );
        assert_eq!(
            table_row(&out, "Buffer<R8>.Load uniform"),
            [
                "Buffer<R8>.Load uniform",
                "0.100",
                "0.112",
                "+12.3%",
                "0.890x",
                "0.050",
                "-50.0%",
                "2.000x"
            ]
        );
    }

    #[test]
    fn several_devices_in_one_file_are_several_series() {
        let both = csv(&[
            "0,GPU A,Buffer<R8>.Load uniform,typed_buffer,0.100000,,ok,",
            "1,GPU B,Buffer<R8>.Load uniform,typed_buffer,0.125000,,ok,",
        ]);
        let out = compare_text(
            &inputs(&[("run", both), ("b", b())]),
            CompareFormat::Markdown,
        )
        .unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "| test | run:GPU A ms | run:GPU B ms | run:GPU B vs run:GPU A | run:GPU B speedup \
             | b ms | b vs run:GPU A | b speedup |"
        );
        assert_eq!(
            lines[2],
            "| `Buffer<R8>.Load uniform` | 0.100 | 0.125 | +25.0% | 0.800x | 0.112 | +12.3% | 0.890x |"
        );
    }

    #[test]
    fn unchanged_time_is_plus_zero() {
        let out = compare_text(&inputs(&[("a", a()), ("a2", a())]), CompareFormat::Table).unwrap();
        assert_eq!(
            table_row(&out, "Buffer<R8>.Load uniform"),
            [
                "Buffer<R8>.Load uniform",
                "0.100",
                "0.100",
                "+0.0%",
                "1.000x"
            ]
        );
    }

    #[test]
    fn refuses_a_csv_without_ms_median() {
        let no_ms = "device_index,device_name,test,status\n0,GPU B,Buffer<R8>.Load uniform,ok\n";
        let err = compare_text(
            &inputs(&[("a", a()), ("old-run", no_ms.to_string())]),
            CompareFormat::Table,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("old-run"), "{err}");
        assert!(err.contains("missing column ms_median"), "{err}");
    }

    #[test]
    fn refuses_empty_input_and_a_single_file() {
        let err = compare_text(
            &inputs(&[("a", a()), ("blank", String::new())]),
            CompareFormat::Table,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("blank") && err.contains("empty"), "{err}");
        let err = compare_text(
            &inputs(&[("a", a()), ("header-only", csv(&[]))]),
            CompareFormat::Table,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("header-only") && err.contains("no rows"),
            "{err}"
        );
        let err = compare_text(&inputs(&[("a", a())]), CompareFormat::Table)
            .unwrap_err()
            .to_string();
        assert!(err.contains("at least two"), "{err}");
    }

    #[test]
    fn refuses_a_bad_number() {
        let bad = csv(&["0,GPU B,Buffer<R8>.Load uniform,typed_buffer,fast,,ok,"]);
        let err = compare_text(&inputs(&[("a", a()), ("bad", bad)]), CompareFormat::Table)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("bad: line 2") && err.contains("`fast`"),
            "{err}"
        );
    }

    #[test]
    fn files_are_labelled_by_stem_and_named_in_errors() {
        /// Removes the directory on drop, also when an assertion fails.
        struct Dir(PathBuf);
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
        let guard =
            Dir(std::env::temp_dir().join(format!("perftest-compare-{}", std::process::id())));
        let dir = &guard.0;
        std::fs::create_dir_all(dir).unwrap();
        let (pa, pb, pc) = (
            dir.join("h100.csv"),
            dir.join("a100.csv"),
            dir.join("old.csv"),
        );
        std::fs::write(&pa, a()).unwrap();
        std::fs::write(&pb, b()).unwrap();
        std::fs::write(&pc, "test,status\nx,ok\n").unwrap();
        let out = compare_files(&[pa.clone(), pb.clone()], CompareFormat::Table).unwrap();
        assert!(out.starts_with("test"), "{out}");
        assert!(
            out.lines().next().unwrap().contains("a100 vs h100"),
            "{out}"
        );
        let err = compare_files(&[pa.clone(), pc.clone()], CompareFormat::Table)
            .unwrap_err()
            .to_string();
        assert!(err.contains(&pc.display().to_string()), "{err}");
        assert!(
            err.contains("device_index, device_name, ms_median"),
            "{err}"
        );
        let err = compare_files(&[pa.clone(), dir.join("nope.csv")], CompareFormat::Table)
            .unwrap_err()
            .to_string();
        assert!(err.contains("nope.csv"), "{err}");
    }
}
