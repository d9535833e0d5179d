//! Several runs: side by side (each run against the first, every change set against the
//! test's own spread), or a fleet (many runs of one GPU and driver: each run's deviation
//! from the median per test, outliers named).

use super::runs::{Row, Run, SuiteKey};
use super::svg::{self, esc, Axis, DotRow, Marker, Scale, Style};
use super::table;
use crate::catalog::Suite;

/// How several runs are set beside each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    Single,
    SideBySide,
    Fleet,
}

/// Runs needed, all of one device name and driver, for a fleet.
pub const FLEET_RUNS: usize = 3;

/// Changes (outliers) listed above the full table.
const SHOWN: usize = 40;

/// Smallest change (deviation) ever called beyond the spread, as a fraction: the CSV's
/// rounding of times and spreads.
const FLOOR: f64 = 0.001;

/// A fleet: at least [`FLEET_RUNS`] runs of one device and driver; else side by side.
pub fn mode(runs: &[Run]) -> Mode {
    match runs {
        [] | [_] => Mode::Single,
        [first, ..]
            if runs.len() >= FLEET_RUNS
                && runs
                    .iter()
                    .all(|r| r.device == first.device && r.driver == first.driver) =>
        {
            Mode::Fleet
        }
        _ => Mode::SideBySide,
    }
}

/// The figure a change is measured on, and its unit: clocks per load for a latency row
/// that has them (a clock change does not move them), else the time per load (operation).
fn metric(row: &Row, key: &SuiteKey) -> Option<(f64, &'static str)> {
    if !row.ok() {
        return None;
    }
    match row.num("latency_clk") {
        Some(clk) if *key == SuiteKey::Known(Suite::Latency) => Some((clk, "clk/load")),
        _ => row.ns_per_op().map(|ns| (ns, "ns/op")),
    }
}

/// `+12.3%` of a factor 1.123.
fn pct(factor: f64) -> String {
    let p = (factor - 1.0) * 100.0;
    let p = if p.abs() < 0.05 { 0.0 } else { p };
    format!("{p:+.1}%")
}

/// An axis of factors (1 = no change), labelled in percent; linear when the range is
/// narrow.
fn change_axis(title: &str, values: impl Iterator<Item = f64> + Clone) -> Option<Axis> {
    let (lo, hi) = values
        .clone()
        .fold((1.0f64, 1.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let scale = if hi / lo < 1.5 {
        Scale::Linear
    } else {
        Scale::Log
    };
    Axis::fit(title, scale, values.chain([1.0]), pct)
}

/// One test compared between two runs.
struct Change<'a> {
    suite: &'a SuiteKey,
    test: &'a str,
    a: f64,
    b: f64,
    unit: &'static str,
    /// The change it takes to be beyond the spread, as a fraction.
    limit: f64,
}

impl Change<'_> {
    fn factor(&self) -> f64 {
        self.b / self.a
    }
    fn beyond(&self) -> bool {
        (self.factor() - 1.0).abs() > self.limit
    }
}

/// The largest relative difference of `test` between `run` and the other runs of its
/// device and driver (`except` aside): the run-to-run spread the report itself shows.
fn rerun_spread(runs: &[Run], run: usize, except: usize, key: &SuiteKey, test: &str) -> f64 {
    let Some((v, _)) = runs[run].row(test).and_then(|r| metric(r, key)) else {
        return 0.0;
    };
    runs.iter()
        .enumerate()
        .filter(|(i, r)| {
            *i != run
                && *i != except
                && r.device == runs[run].device
                && r.driver == runs[run].driver
        })
        .filter_map(|(_, r)| r.row(test).and_then(|row| metric(row, key)))
        .map(|(w, _)| (w / v - 1.0).abs())
        .fold(0.0, f64::max)
}

/// Each later run against the first: counts, a chart of every change, the changes beyond
/// the spread, and every change in a table.
pub fn side_by_side(runs: &[Run], suites: &[(SuiteKey, Vec<String>)]) -> String {
    let mut out = String::from("<section id=\"changes\"><h2>Changes between runs</h2>\n");
    out += "<p>Each run against the first, test by test: the change in time per load \
            (operation), or in clocks per load for the latency suite (+ = slower). A change \
            is <b>beyond the spread</b> when it exceeds twice the two rows' own spreads \
            combined, √(s₁² + s₂²) with s the row's <code>cv_pct</code> (its samples) or \
            <code>latency_spread_pct</code> (its chains), and the largest difference between \
            other runs of either device and driver in this report (their run-to-run spread), \
            and 0.1 %.</p>\n";
    for (k, later) in runs.iter().enumerate().skip(1) {
        let mut changes = Vec::new();
        let mut missing = 0;
        for (key, tests) in suites {
            for t in tests {
                let (Some(ra), Some(rb)) = (runs[0].row(t), later.row(t)) else {
                    missing += 1;
                    continue;
                };
                let (Some((a, unit)), Some((b, ub))) = (metric(ra, key), metric(rb, key)) else {
                    missing += 1;
                    continue;
                };
                if unit != ub || a <= 0.0 || b <= 0.0 {
                    missing += 1;
                    continue;
                }
                let own = |r: &Row| r.spread_pct().unwrap_or(0.0) / 100.0;
                let limit = (2.0 * own(ra).hypot(own(rb)))
                    .max(rerun_spread(runs, 0, k, key, t))
                    .max(rerun_spread(runs, k, 0, key, t))
                    .max(FLOOR);
                changes.push(Change {
                    suite: key,
                    test: t,
                    a,
                    b,
                    unit,
                    limit,
                });
            }
        }
        let beyond: Vec<&Change> = changes.iter().filter(|c| c.beyond()).collect();
        let slower = beyond.iter().filter(|c| c.factor() > 1.0).count();
        out += &format!(
            "<h3>{} against {}</h3>\n<p>{} tests compared: {} beyond the spread ({} slower, \
             {} faster), {} within it; {} not compared (not in both runs, or not timed in \
             one).</p>\n",
            esc(&later.label),
            esc(&runs[0].label),
            changes.len(),
            beyond.len(),
            slower,
            beyond.len() - slower,
            changes.len() - beyond.len(),
            missing
        );
        out += &change_chart(&later.label, &runs[0].label, suites, &changes);
        let mut sorted = beyond.clone();
        sorted.sort_by(|x, y| (y.factor().ln().abs()).total_cmp(&x.factor().ln().abs()));
        let header = [
            "suite",
            "test",
            "first",
            "this run",
            "unit",
            "change",
            "spread limit",
        ]
        .map(String::from);
        let body = |list: &[&Change]| -> Vec<Vec<String>> {
            list.iter()
                .map(|c| {
                    vec![
                        c.suite.name(),
                        c.test.to_string(),
                        svg::num(c.a),
                        svg::num(c.b),
                        c.unit.to_string(),
                        pct(c.factor()),
                        format!("±{:.1}%", c.limit * 100.0),
                    ]
                })
                .collect()
        };
        if !sorted.is_empty() {
            out += "<p>The changes beyond the spread, largest first:</p>\n";
            out += &table::plain(&header, &body(&sorted[..sorted.len().min(SHOWN)]));
        }
        let all: Vec<&Change> = changes.iter().collect();
        out += &format!(
            "<details><summary>Every change ({})</summary>\n{}</details>\n",
            all.len(),
            table::plain(&header, &body(&all))
        );
    }
    out += "</section>\n";
    out
}

/// A strip per suite: every test's change as a dot, the ones beyond the spread coloured.
fn change_chart(
    label: &str,
    first: &str,
    suites: &[(SuiteKey, Vec<String>)],
    changes: &[Change],
) -> String {
    let styles = [
        (
            style("#aaaaaa", Marker::Dot),
            "within the spread".to_string(),
        ),
        (
            style("#e15759", Marker::Dot),
            "slower, beyond the spread".into(),
        ),
        (
            style("#4e79a7", Marker::Dot),
            "faster, beyond the spread".into(),
        ),
    ];
    let rows: Vec<DotRow> = suites
        .iter()
        .map(|(key, _)| DotRow {
            label: key.name(),
            group: None,
            dots: changes
                .iter()
                .filter(|c| c.suite == key)
                .map(|c| {
                    let s = match (c.beyond(), c.factor() > 1.0) {
                        (false, _) => 0,
                        (true, true) => 1,
                        (true, false) => 2,
                    };
                    (c.factor(), s)
                })
                .collect(),
        })
        .filter(|r| !r.dots.is_empty())
        .collect();
    let Some(x) = change_axis(
        "change in time (clocks) per load against the first run (+ = slower)",
        changes.iter().map(Change::factor),
    ) else {
        return String::new();
    };
    format!(
        "<figure>{}<figcaption>Each dot is one test of {} against {}.</figcaption></figure>\n",
        svg::dot_plot(
            &format!("{label} against {first}"),
            &x,
            &rows,
            &styles,
            Some(1.0)
        ),
        esc(label),
        esc(first)
    )
}

fn style(color: &str, marker: Marker) -> Style {
    Style {
        color: color.into(),
        dash: "",
        marker,
    }
}

/// Median of a non-empty list.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

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
            let m = median(&mut present.iter().map(|p| p.0).collect::<Vec<_>>());
            let mad = median(
                &mut present
                    .iter()
                    .map(|p| (p.0 / m).ln().abs())
                    .collect::<Vec<_>>(),
            );
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
            svg::dot_plot("Deviation per run", &x, &rows, &styles, Some(1.0))
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
