//! `compare --reference`: a run's ratios beside published ones, and the closest profiles.

use super::{load, render, Align, Cell, CompareFormat, Input, Rows, Series};
use crate::published::{self, Reference, BASELINE};
use crate::vocab::Status;
use crate::words::Words;
use anyhow::{bail, Result};
use std::collections::{HashMap, HashSet};

/// Fewest tests, the baseline aside, that a run and a reference must share for a distance:
/// a spread over fewer says little.
const MIN_COMMON: usize = 5;

/// How many of the tests that differ most from the closest reference are named.
const MOST_DIFFERENT: usize = 5;

/// The per-test table of every series against every reference, then, per series, the
/// references ranked by distance and the tests that differ most from the closest, then
/// what each reference column is.
pub(super) fn compare(
    inputs: &[Input],
    references: &[&Reference],
    format: CompareFormat,
) -> Result<String> {
    if references.is_empty() {
        bail!("compare --reference needs at least one reference");
    }
    // One row per test of the runs, in run order: what was asked about. A reference's
    // other tests would only add rows without a run ratio; the legend counts them.
    let (series, tests) = load(inputs)?;
    let runs = series.iter().map(run_ratios).collect::<Result<Vec<_>>>()?;
    let mut out = render(&ratio_rows(&runs, references, &tests), format);
    for run in &runs {
        out += &closest(run, references, format);
    }
    out += &legend(references, &tests, format);
    Ok(out)
}

/// One series with its ratios, computed from its times.
struct Run<'s> {
    series: &'s Series,
    /// Test → throughput over the baseline's: `ms(baseline) / ms(test)`, per load.
    ratios: HashMap<&'s str, f64>,
}

/// The series' ratios, from the times `parse` scaled to one dispatch size (so a row cut to
/// the watchdog budget has the ratio of a full one). Rows that did not run, and operation
/// rows (no ratio), have none.
fn run_ratios(series: &Series) -> Result<Run<'_>> {
    let timed = |name: &str| {
        series
            .cells
            .get(name)
            .filter(|c| c.status == Some(Status::Ok) && !c.ops)
            .and_then(|c| c.ms)
            .filter(|ms| *ms > 0.0)
    };
    let Some(base) = timed(BASELINE) else {
        bail!(
            "{}: no timed `{BASELINE}` row; every published ratio is relative to it, so the \
             run must include it (the original suite, the default, has it; with --suite or \
             --filter, add --suite original --filter \"{BASELINE}\")",
            series.label
        );
    };
    let ratios = series
        .cells
        .keys()
        .filter_map(|t| timed(t).map(|ms| (t.as_str(), base / ms)))
        .collect();
    Ok(Run { series, ratios })
}

/// The column label of a reference: its architecture, unique among the references.
fn short(r: &Reference) -> &str {
    &r.architecture
}

/// `1.491x`, as perftest and the original print ratios.
fn ratio_text(r: f64) -> String {
    format!("{r:.3}x")
}

/// Three significant digits: `0.0987`, `1.00`, `12.3`.
pub(crate) fn sig3(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let decimals = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.decimals$}")
}

fn ratio_rows(runs: &[Run], references: &[&Reference], tests: &[String]) -> Rows {
    let mut header = vec!["test".to_string()];
    let mut align = vec![Align::Left];
    for run in runs {
        header.push(format!("{} ratio", run.series.label));
        align.push(Align::Right);
    }
    for r in references {
        header.push(format!("{} ratio", short(r)));
        align.push(Align::Right);
        for run in runs {
            header.push(format!("{} / {}", run.series.label, short(r)));
            align.push(Align::Right);
        }
    }
    let body = tests
        .iter()
        .map(|test| {
            let mut row = vec![test.clone()];
            for run in runs {
                row.push(
                    match (run.ratios.get(test.as_str()), run.series.cells.get(test)) {
                        (Some(r), _) => ratio_text(*r),
                        // Not run here (`unsupported`, `error`…): say so rather than leave a gap.
                        (
                            None,
                            Some(Cell {
                                status: Some(s), ..
                            }),
                        ) if *s != Status::Ok => s.word().to_string(),
                        _ => "-".to_string(),
                    },
                );
            }
            for r in references {
                let published = r.ratio(test);
                row.push(published.map_or_else(|| "-".to_string(), ratio_text));
                for run in runs {
                    row.push(match (run.ratios.get(test.as_str()), published) {
                        (Some(mine), Some(theirs)) => sig3(mine / theirs),
                        _ => "-".to_string(),
                    });
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

/// How a run's ratios differ from one reference's, over the tests both have.
struct Profile<'r> {
    reference: &'r Reference,
    /// `(test, ln(run ratio / published ratio))`, the baseline aside, in published order.
    logs: Vec<(&'r str, f64)>,
}

/// Mean and root-mean-square deviation from it of `values`; `None` under [`MIN_COMMON`].
fn spread(values: &[f64]) -> Option<(f64, f64)> {
    if values.len() < MIN_COMMON {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let rms = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    Some((mean, rms))
}

impl Profile<'_> {
    /// Mean and distance over the tests in `only` (all common tests when `None`), and
    /// how many tests that is.
    fn distance(&self, only: Option<&HashSet<&str>>) -> (usize, Option<(f64, f64)>) {
        let values: Vec<f64> = self
            .logs
            .iter()
            .filter(|(t, _)| only.is_none_or(|s| s.contains(t)))
            .map(|(_, d)| *d)
            .collect();
        (values.len(), spread(&values))
    }
}

/// The ranking of the references by distance to one run, and the tests that differ most
/// from the closest.
///
/// The distance is the root-mean-square of ln(run ratio / published ratio) after removing
/// its mean (the standard deviation of the log-quotients). Removing the mean makes it
/// independent of the baseline (but for the one test it leaves out): every ratio of a GPU
/// is divided by that one test's speed,
/// and a baseline that happens to be relatively fast or slow on a GPU moves all its ratios
/// by one factor — the `scale`, e^mean — without changing anything else about the profile.
/// The baseline itself (1.0 everywhere) is left out. Distances over different test sets
/// are not comparable, so references are ranked over the tests the run and every listed
/// reference have (the original's 84, where the run has them); each one's distance over
/// all its common tests is shown beside it when that is more.
// Long on purpose: the common tests, each reference's distance over them and over its
// own, and the table, one ranking whose steps read in order.
fn closest(run: &Run, references: &[&Reference], format: CompareFormat) -> String {
    let profiles: Vec<Profile> = references
        .iter()
        .map(|r| Profile {
            reference: r,
            logs: r
                .results
                .iter()
                .filter(|p| p.test != BASELINE)
                .filter_map(|p| {
                    run.ratios
                        .get(p.test.as_str())
                        .map(|mine| (p.test.as_str(), (mine / p.ratio).ln()))
                })
                .collect(),
        })
        .collect();
    let shared: HashSet<&str> = profiles
        .first()
        .map(|p| {
            p.logs
                .iter()
                .map(|(t, _)| *t)
                .filter(|t| profiles.iter().all(|q| q.logs.iter().any(|(u, _)| u == t)))
                .collect()
        })
        .unwrap_or_default();
    let use_shared = shared.len() >= MIN_COMMON;
    let key = |p: &Profile| {
        if use_shared {
            p.distance(Some(&shared))
        } else {
            p.distance(None)
        }
    };
    let mut ranked: Vec<&Profile> = profiles.iter().collect();
    // Without a distance last; ties keep the published order (the sort is stable).
    ranked.sort_by(|a, b| {
        let (da, db) = (key(a).1.map(|x| x.1), key(b).1.map(|x| x.1));
        match (da, db) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        }
    });
    let more = use_shared && profiles.iter().any(|p| p.logs.len() > shared.len());

    let mut header: Vec<String> = [
        "#",
        "reference",
        "tests",
        "distance",
        "typical factor",
        "scale",
    ]
    .map(String::from)
    .to_vec();
    let mut align = vec![
        Align::Right,
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
    ];
    if more {
        header.extend(["all common tests", "distance on them"].map(String::from));
        align.extend([Align::Right; 2]);
    }
    let body = ranked
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (n, stats) = key(p);
            let mut row = vec![
                if stats.is_some() {
                    (i + 1).to_string()
                } else {
                    "-".to_string()
                },
                p.reference.heading.clone(),
                n.to_string(),
            ];
            match stats {
                Some((mean, d)) => row.extend([
                    format!("{d:.3}"),
                    format!("{}x", sig3(d.exp())),
                    format!("{}x", sig3(mean.exp())),
                ]),
                None => row.extend(["-", "-", "-"].map(String::from)),
            }
            if more {
                let (n, stats) = p.distance(None);
                row.push(n.to_string());
                row.push(stats.map_or_else(|| "-".to_string(), |(_, d)| format!("{d:.3}")));
            }
            row
        })
        .collect();
    let ranking = Rows {
        header,
        align,
        body,
        code: false,
    };
    let label = &run.series.label;
    let over = if use_shared {
        format!(
            "over the {} tests (the baseline aside) that the run and every reference listed have",
            shared.len()
        )
    } else {
        format!(
            "over the tests (the baseline aside) that the run and each reference have (they \
             share fewer than {MIN_COMMON})"
        )
    };
    let mut out = section(format, &format!("Closest published profiles: {label}"));
    out += &paragraph(
        format,
        &format!(
            "distance: root-mean-square of ln(run ratio / published ratio) after removing \
             its mean, {over}; 0 = the same profile up to one factor. scale = e^mean (the \
             run's ratios over the published ones, on average); typical factor = \
             e^distance (how far a typical test is from that). A reference sharing fewer \
             than {MIN_COMMON} tests with the run gets no distance."
        ),
    );
    out += &render(&ranking, format);

    let Some(best) = ranked.first().filter(|p| key(p).1.is_some()) else {
        return out;
    };
    let (n, Some((mean, _))) = best.distance(None) else {
        return out;
    };
    let mut logs: Vec<&(&str, f64)> = best.logs.iter().collect();
    logs.sort_by(|a, b| (b.1 - mean).abs().total_cmp(&(a.1 - mean).abs()));
    let r = best.reference;
    let body = logs
        .iter()
        .take(MOST_DIFFERENT)
        .map(|(test, d)| {
            vec![
                test.to_string(),
                ratio_text(run.ratios[test]),
                r.ratio(test).map_or_else(|| "-".to_string(), ratio_text),
                sig3(d.exp()),
                sig3((d - mean).exp()),
            ]
        })
        .collect();
    let different = Rows {
        header: vec![
            "test".to_string(),
            format!("{label} ratio"),
            format!("{} ratio", short(r)),
            format!("{label} / {}", short(r)),
            "/ scale".to_string(),
        ],
        align: vec![
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
        ],
        body,
        code: true,
    };
    out += &section(
        format,
        &format!("Tests that differ most from {}: {label}", r.heading),
    );
    out += &paragraph(
        format,
        &format!(
            "the {MOST_DIFFERENT} of the {n} tests in common whose run/published is farthest \
             (as a factor) from the scale, {}x; `/ scale` is run/published over it",
            sig3(mean.exp())
        ),
    );
    out += &render(&different, format);
    out
}

/// A section title after a blank line.
fn section(format: CompareFormat, title: &str) -> String {
    match format {
        CompareFormat::Table => format!("\n{title}\n"),
        CompareFormat::Markdown => format!("\n### {title}\n\n"),
    }
}

/// A paragraph of explanation, before a table: wrapped for a terminal, one line in
/// Markdown (which wraps it itself).
fn paragraph(format: CompareFormat, text: &str) -> String {
    match format {
        CompareFormat::Table => {
            let mut out = String::new();
            let mut line = String::new();
            for word in format!("({text})").split_whitespace() {
                if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > 92 {
                    out += &line;
                    out += "\n";
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line += word;
            }
            out + &line + "\n\n"
        }
        CompareFormat::Markdown => format!("{text}\n\n"),
    }
}

/// What each reference column is, and how many of its tests no run has.
fn legend(references: &[&Reference], tests: &[String], format: CompareFormat) -> String {
    let mut out = section(format, "Published references");
    out += &paragraph(
        format,
        &format!(
            "PerfTest's published results ({}, {}), ratios relative to `{BASELINE}` on the \
             same GPU; the lines are those of tests/data/perftest-published.md in the source \
             tree, and the author's notes on each GPU are in crates/results/data/published/notes.md",
            references[0].api, references[0].source
        ),
    );
    for r in references {
        let missing = r
            .results
            .iter()
            .filter(|p| !tests.contains(&p.test))
            .count();
        let mut line = format!(
            "{}: {}, {} tests (lines {})",
            short(r),
            r.heading,
            r.results.len(),
            r.lines
        );
        if missing > 0 {
            line += &format!("; {missing} of them not in the run, left out");
        }
        out += &match format {
            CompareFormat::Table => format!("  {line}\n"),
            CompareFormat::Markdown => format!("- {line}\n"),
        };
    }
    out
}

/// `perftest compare --list-references`: every published GPU, with what `--reference`
/// takes, its vendor, architecture, API, number of tests and the start of its notes.
pub fn list_references(format: CompareFormat) -> Result<String> {
    let body = published::all()?
        .iter()
        .map(|r| {
            vec![
                r.heading.clone(),
                r.vendor.clone(),
                r.architecture.clone(),
                r.api.clone(),
                r.results.len().to_string(),
                r.summary.clone(),
            ]
        })
        .collect();
    let rows = Rows {
        header: [
            "reference",
            "vendor",
            "architecture",
            "API",
            "tests",
            "notes (start)",
        ]
        .map(String::from)
        .to_vec(),
        align: vec![
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Left,
        ],
        body,
        code: false,
    };
    let mut out = render(&rows, format);
    out += "\n";
    out += &paragraph(
        format,
        "--reference NAME takes an architecture, a product or part of a heading \
         (case-insensitive), or `all`; the author's notes in full are in \
         crates/results/data/published/notes.md in the source tree",
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::compare_text_with_references;

    const HEADER: &str = "device_index,device_name,test,ms_median,status,loads_per_dispatch,unit";

    fn csv(rows: &[String]) -> String {
        std::iter::once(HEADER.to_string())
            .chain(rows.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    }

    fn row(test: &str, ms: f64) -> String {
        format!("0,GPU,{test},{ms},ok,268435456,loads")
    }

    fn compare(text: String, names: &[&str], format: CompareFormat) -> Result<String> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let refs = published::select(&names)?;
        compare_text_with_references(&[("run".to_string(), text)], &refs, format)
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
    fn ratios_come_from_times_per_load() {
        let text = csv(&[
            row(BASELINE, 0.2),
            row("Buffer<R8>.Load uniform", 0.1),
            // Cut to half the loads in half the time: the same speed as a full dispatch.
            "0,GPU,Buffer<R8>.Load linear,0.05,ok,134217728,loads".to_string(),
            "0,GPU,Buffer<R8>.Load random,,unsupported,,loads".to_string(),
            "0,GPU,Control: loop 1D,0.05,ok,268435456,loads".to_string(),
            "0,GPU,fp32 add,0.5,ok,17163091968,ops".to_string(),
        ]);
        let out = compare(text, &["3090"], CompareFormat::Markdown).unwrap();
        assert!(
            out.starts_with("| test | run ratio | Ampere ratio | run / Ampere |\n"),
            "{out}"
        );
        // 0.2 / 0.1 = 2, published 15.067: 2 / 15.067 = 0.133.
        assert_eq!(
            cells(&out, "Buffer<R8>.Load uniform"),
            ["`Buffer<R8>.Load uniform`", "2.000x", "15.067x", "0.133"]
        );
        assert_eq!(
            cells(&out, "Buffer<R8>.Load linear"),
            ["`Buffer<R8>.Load linear`", "2.000x", "1.647x", "1.21"]
        );
        // Not run: the status, and no quotient; never a 0.
        assert_eq!(
            cells(&out, "Buffer<R8>.Load random"),
            ["`Buffer<R8>.Load random`", "unsupported", "1.340x", "-"]
        );
        // Tests the reference lacks, and an operation row (no ratio).
        assert_eq!(
            cells(&out, "Control: loop 1D"),
            ["`Control: loop 1D`", "4.000x", "-", "-"]
        );
        assert_eq!(cells(&out, "fp32 add"), ["`fp32 add`", "-", "-", "-"]);
        // Only the run's tests are rows; the legend counts the reference's others.
        assert_eq!(out.lines().filter(|l| l.starts_with("| `")).count(), 6);
        assert!(out.contains("134 of them not in the run"), "{out}");
        assert!(!out.contains(" 0.000"), "{out}");
    }

    #[test]
    fn two_series_each_beside_each_reference() {
        let text = |ms: f64| csv(&[row(BASELINE, 0.2), row("Buffer<R8>.Load uniform", ms)]);
        let refs = published::select(&["3090".to_string(), "gcn2".to_string()]).unwrap();
        let out = compare_text_with_references(
            &[("a".to_string(), text(0.1)), ("b".to_string(), text(0.05))],
            &refs,
            CompareFormat::Markdown,
        )
        .unwrap();
        assert!(
            out.starts_with(
                "| test | a ratio | b ratio | Ampere ratio | a / Ampere | b / Ampere \
                 | GCN2 ratio | a / GCN2 | b / GCN2 |\n"
            ),
            "{out}"
        );
        // 2 and 4 against 15.067 and 3.907.
        assert_eq!(
            cells(&out, "Buffer<R8>.Load uniform")[1..],
            ["2.000x", "4.000x", "15.067x", "0.133", "0.265", "3.907x", "0.512", "1.02"]
        );
        // One ranking per series.
        assert!(out.contains("### Closest published profiles: a\n"), "{out}");
        assert!(out.contains("### Closest published profiles: b\n"), "{out}");
    }

    #[test]
    fn a_run_without_the_baseline_is_refused() {
        let text = csv(&[row("Buffer<R8>.Load uniform", 0.1)]);
        let err = compare(text, &["3090"], CompareFormat::Table)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("run: no timed `Buffer<RGBA8>.Load random`"),
            "{err}"
        );
    }

    #[test]
    fn a_profile_equal_up_to_one_factor_is_closest_at_distance_0() {
        // Every ratio twice GCN3's: the same profile, scale 2.
        let gcn3 = &published::select(&["gcn3".to_string()]).unwrap()[0];
        let rows: Vec<String> = gcn3
            .results
            .iter()
            .map(|p| {
                let ratio = if p.test == BASELINE {
                    1.0
                } else {
                    2.0 * p.ratio
                };
                row(&p.test, 1.0 / ratio)
            })
            .collect();
        let out = compare(csv(&rows), &["all"], CompareFormat::Table).unwrap();
        let ranking: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("Closest published profiles: run"))
            .map(str::trim_start)
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .take_while(|l| !l.contains('<'))
            .collect();
        assert_eq!(ranking.len(), 13, "{out}");
        let first: Vec<&str> = ranking[0].split("  ").filter(|c| !c.is_empty()).collect();
        assert_eq!(
            first.iter().map(|c| c.trim()).collect::<Vec<_>>(),
            [
                "1",
                "AMD GCN3 (R9 Fury 56 CU)",
                "83",
                "0.000",
                "1.00x",
                "2.00x"
            ],
            "{out}"
        );
        // Ranked over the 83 tests every reference has (the RTX 3090 has 54 more, which
        // the run lacks). The explanation is wrapped: compare words.
        let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("over the 83 tests (the baseline aside) that the run and every"),
            "{out}"
        );
        assert!(out.contains("Tests that differ most from AMD GCN3 (R9 Fury 56 CU): run"));
    }

    #[test]
    fn too_few_common_tests_give_no_distance() {
        let text = csv(&[row(BASELINE, 0.2), row("Buffer<R8>.Load uniform", 0.1)]);
        let out = compare(text, &["kepler"], CompareFormat::Table).unwrap();
        let line = out
            .lines()
            .find(|l| l.contains("NVIDIA Kepler (600/700 series)") && l.starts_with('-'))
            .unwrap_or_else(|| panic!("{out}"));
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[cells.len() - 4..], ["1", "-", "-", "-"], "{line}");
        assert!(!out.contains("Tests that differ most"), "{out}");
    }

    #[test]
    fn three_significant_digits() {
        assert_eq!(sig3(0.098_765), "0.0988");
        assert_eq!(sig3(1.0), "1.00");
        assert_eq!(sig3(12.345), "12.3");
        assert_eq!(sig3(345.6), "346");
    }

    #[test]
    fn spread_removes_the_mean() {
        // Every quotient 2: the same profile up to one factor.
        let (mean, d) = spread(&[2f64.ln(); 6]).unwrap();
        assert!((mean.exp() - 2.0).abs() < 1e-12 && d.abs() < 1e-12);
        // ±ln 3 around the mean: distance ln 3 whatever the mean.
        let (mean, d) = spread(&[
            0.0,
            2.0 * 3f64.ln(),
            0.0,
            2.0 * 3f64.ln(),
            0.0,
            2.0 * 3f64.ln(),
        ])
        .unwrap();
        assert!((mean - 3f64.ln()).abs() < 1e-12 && (d - 3f64.ln()).abs() < 1e-12);
        assert!(spread(&[1.0; MIN_COMMON - 1]).is_none());
    }
}
