//! A fleet: many runs of one GPU and driver, each run's deviation from the median per test,
//! outliers named.

use super::{change_axis, metric, pct, style, FLEET_RUNS, FLOOR, SHOWN};
use crate::html::chart::{self, DotRow};
use crate::html::runs::{Run, SuiteKey};
use crate::html::svg::{self, esc, Marker};
use crate::html::table;
use crate::median;

/// One test across the fleet: the median and each run's value and outlier verdict.
struct Spread<'a> {
    suite: &'a SuiteKey,
    test: &'a str,
    unit: &'static str,
    median: f64,
    /// Per run: its value, and whether it is an outlier.
    runs: Vec<Option<(f64, bool)>>,
    /// ln deviation beyond which a run is an outlier.
    limit: f64,
}

/// Every test that at least [`FLEET_RUNS`] runs timed: the median, and as outliers the runs
/// whose deviation (in ln) exceeds 3 robust standard deviations of the fleet (1.4826 × the
/// median absolute deviation), twice the run's own spread, and 0.1 %.
fn spreads<'a>(runs: &[Run], suites: &'a [(SuiteKey, Vec<String>)]) -> Vec<Spread<'a>> {
    let mut out = Vec::new();
    for (key, tests) in suites {
        for t in tests {
            let values: Vec<Option<(f64, &'static str, f64)>> = runs
                .iter()
                .map(|r| {
                    let row = r.row(t)?;
                    let (v, unit) = metric(row, key).filter(|(v, _)| *v > 0.0)?;
                    Some((v, unit, row.spread_pct().unwrap_or(0.0) / 100.0))
                })
                .collect();
            let present: Vec<&(f64, &str, f64)> = values.iter().flatten().collect();
            if present.len() < FLEET_RUNS || present.iter().any(|p| p.1 != present[0].1) {
                continue;
            }
            let m = median(present.iter().map(|p| p.0));
            let mad = median(present.iter().map(|p| (p.0 / m).ln().abs()));
            let fleet_limit = (3.0 * 1.4826 * mad).max(FLOOR.ln_1p());
            out.push(Spread {
                suite: key,
                test: t,
                unit: present[0].1,
                median: m,
                runs: values
                    .iter()
                    .map(|v| {
                        v.map(|(v, _, own)| {
                            let d = (v / m).ln().abs();
                            (v, d > fleet_limit && d > (2.0 * own).ln_1p())
                        })
                    })
                    .collect(),
                limit: fleet_limit,
            });
        }
    }
    out
}

/// The fleet: per run, its deviations from the median of every test as a strip and its
/// outlier count; the outliers named, largest first; every deviation in a table.
// Long on purpose: the deviations, the strip per run, the outliers and the table come
// from one pass over the same medians.
pub fn fleet(runs: &[Run], suites: &[(SuiteKey, Vec<String>)]) -> String {
    let spreads = spreads(runs, suites);
    let mut out = format!(
        "<section id=\"fleet\"><h2>Fleet: {} runs of {}</h2>\n<p>Per test, the median over \
         the runs that timed it (at least {FLEET_RUNS}), and each run's deviation from it \
         (time per load, or clocks per load for the latency suite; + = slower). An \
         <b>outlier</b> deviates by more than three robust standard deviations of the fleet \
         (1.4826 × the median absolute deviation), twice its own row's spread \
         (<code>cv_pct</code> or <code>latency_spread_pct</code>) and 0.1 %. {} tests \
         compared.</p>\n",
        runs.len(),
        esc(&runs[0].device),
        spreads.len()
    );
    let styles = [
        (
            style("#aaaaaa", Marker::Dot),
            "a test's deviation".to_string(),
        ),
        (style("#e15759", Marker::Ring), "an outlier".into()),
    ];
    let rows: Vec<DotRow> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| DotRow {
            label: run.label.clone(),
            group: None,
            dots: spreads
                .iter()
                .filter_map(|s| s.runs[i].map(|(v, o)| (v / s.median, usize::from(o))))
                .collect(),
        })
        .collect();
    if let Some(x) = change_axis(
        "deviation from the fleet's median per test (+ = slower)",
        spreads
            .iter()
            .flat_map(|s| s.runs.iter().flatten().map(|(v, _)| v / s.median)),
    ) {
        out += &format!(
            "<figure>{}<figcaption>Each row is one run, each dot one test's deviation from \
             the fleet's median.</figcaption></figure>\n",
            chart::dot_plot("Deviation per run", &x, &rows, &styles, Some(1.0))
        );
    }
    let counts: Vec<Vec<String>> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            let mine: Vec<(&Spread, f64, bool)> = spreads
                .iter()
                .filter_map(|s| s.runs[i].map(|(v, o)| (s, v / s.median, o)))
                .collect();
            let worst = mine
                .iter()
                .max_by(|a, b| a.1.ln().abs().total_cmp(&b.1.ln().abs()));
            vec![
                run.label.clone(),
                mine.len().to_string(),
                mine.iter().filter(|m| m.2).count().to_string(),
                worst.map_or_else(String::new, |w| format!("{} ({})", w.0.test, pct(w.1))),
            ]
        })
        .collect();
    out += &table::plain(
        &["run", "tests", "outliers", "largest deviation"].map(String::from),
        &counts,
    );
    let mut outliers: Vec<(usize, &Spread, f64)> = spreads
        .iter()
        .flat_map(|s| {
            s.runs
                .iter()
                .enumerate()
                .filter_map(move |(i, r)| r.filter(|r| r.1).map(|(v, _)| (i, s, v)))
        })
        .collect();
    outliers.sort_by(|a, b| {
        (b.2 / b.1.median)
            .ln()
            .abs()
            .total_cmp(&(a.2 / a.1.median).ln().abs())
    });
    if outliers.is_empty() {
        out += "<p>No outliers.</p>\n";
    } else {
        out += &format!(
            "<h3>Outliers ({})</h3>\n<p>Largest first{}.</p>\n",
            outliers.len(),
            if outliers.len() > SHOWN {
                format!("; the first {SHOWN} (all are in the table below)")
            } else {
                String::new()
            }
        );
        let body: Vec<Vec<String>> = outliers[..outliers.len().min(SHOWN)]
            .iter()
            .map(|(i, s, v)| {
                vec![
                    runs[*i].label.clone(),
                    s.suite.name(),
                    s.test.to_string(),
                    svg::num(*v),
                    svg::num(s.median),
                    s.unit.to_string(),
                    pct(v / s.median),
                    format!("±{:.1}%", (s.limit.exp() - 1.0) * 100.0),
                ]
            })
            .collect();
        out += &table::plain(
            &[
                "run",
                "suite",
                "test",
                "value",
                "fleet median",
                "unit",
                "deviation",
                "fleet limit",
            ]
            .map(String::from),
            &body,
        );
    }
    let mut header = vec!["test".to_string(), "median".into(), "unit".into()];
    header.extend(runs.iter().map(|r| r.label.clone()));
    let body: Vec<Vec<String>> = spreads
        .iter()
        .map(|s| {
            let mut row = vec![s.test.to_string(), svg::num(s.median), s.unit.to_string()];
            row.extend(s.runs.iter().map(|r| match r {
                Some((v, true)) => format!("{} outlier", pct(v / s.median)),
                Some((v, false)) => pct(v / s.median),
                None => "-".into(),
            }));
            row
        })
        .collect();
    out += &format!(
        "<details><summary>Every run's deviation per test ({})</summary>\n{}</details>\n",
        body.len(),
        table::plain(&header, &body)
    );
    out += "</section>\n";
    out
}
