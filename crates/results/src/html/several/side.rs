//! Side by side: each later run against the first, every change set against the test's
//! own spread.

use super::{change_axis, metric, pct, style, FLOOR, SHOWN};
use crate::html::chart::{self, DotRow};
use crate::html::runs::{Row, Run, SuiteKey};
use crate::html::svg::{self, esc, Marker};
use crate::html::table;

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
// Long on purpose: the section's parts in page order (counts, the chart of every change,
// the changes beyond the spread, the full table), over one pairing of runs.
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
        chart::dot_plot(
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
