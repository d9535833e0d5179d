//! One section per suite: the figure a person would draw for it (ratios beside a published
//! reference, curves over the working set, the branch curves) and its rows as a table.

use super::runs::{Row, Run, SuiteKey};
mod curves;

use super::chart::{self, DotRow};
use super::svg::{self, Axis, Marker, Scale, Style, PALETTE};
use super::table;
use crate::published::{Reference, BASELINE};
use crate::Suite;
use curves::Curve;

/// What every suite section needs.
pub struct View<'a> {
    pub runs: &'a [Run],
    pub references: &'a [&'static Reference],
    /// Many runs of one GPU: every run drawn alike, the legend names the fleet.
    pub fleet: bool,
}

impl View<'_> {
    /// How run `i`'s points and lines are drawn.
    pub(super) fn run_style(&self, i: usize) -> Style {
        Style {
            color: PALETTE[if self.fleet { 0 } else { i % PALETTE.len() }].to_string(),
            dash: "",
            marker: Marker::Dot,
        }
    }

    /// How run `i` is named in a legend (`None`: no entry, a fleet's later runs).
    pub(super) fn run_label(&self, i: usize) -> Option<String> {
        match (self.fleet, i) {
            (true, 0) => Some(format!("each of the {} runs", self.runs.len())),
            (true, _) => None,
            _ => Some(self.runs[i].label.clone()),
        }
    }
}

/// Rows per suite up to which the ratio plot has a row per test (the original suite's 138);
/// a larger suite gets a row per family, each test a dot.
const PER_TEST_ROWS: usize = 160;

/// The section of one suite: its charts, then its rows.
pub fn section(view: &View, key: &SuiteKey, tests: &[String]) -> String {
    let name = key.name();
    let mut out = format!(
        "<section id=\"suite-{}\"><h2>{} suite</h2>\n",
        svg::esc(&name),
        svg::esc(&name)
    );
    let charts = match key {
        SuiteKey::Known(
            Suite::Original
            | Suite::Control
            | Suite::Extended
            | Suite::Write
            | Suite::Formats
            | Suite::Ceiling,
        ) => ratio_plot(view, key, tests),
        SuiteKey::Known(Suite::Bandwidth) => {
            // The working-set sweeps as curves; the copies, fills and dispatch costs (a few
            // sizes, or none) as a table beside them.
            let (swept, other): (Vec<String>, Vec<String>) = tests
                .iter()
                .cloned()
                .partition(|t| t.starts_with("bandwidth: "));
            curves::curves(view, &swept, Curve::Bandwidth).map(|c| {
                if other.is_empty() {
                    c
                } else {
                    format!(
                        "{c}<h3>Copies, fills and what a dispatch costs</h3>\n{}",
                        table::rows(view.runs, &other)
                    )
                }
            })
        }
        SuiteKey::Known(Suite::Latency) => curves::curves(view, tests, Curve::Latency),
        SuiteKey::Known(Suite::Branch) => curves::branch(view, tests),
        // The instruction suite, the pitfalls and any suite this build does not know
        // (`matrix`): a table is their figure.
        _ => None,
    };
    match charts {
        Some(c) => {
            out += &c;
            out += &format!(
                "<details><summary>All {} rows of the {} suite</summary>\n{}</details>\n",
                tests.len(),
                svg::esc(&name),
                table::rows(view.runs, tests)
            );
        }
        None => out += &table::rows(view.runs, tests),
    }
    if let Some(strip) = clock_strip(view, tests) {
        out += &strip;
    }
    out += "</section>\n";
    out
}

/// Under a suite whose runs read the driver's management interface: the probe's clock beside
/// the driver's, and the board's power, row by row in run order (a flagged row's reason
/// names what the driver said).
fn clock_strip(view: &View, tests: &[String]) -> Option<String> {
    let series = |column: fn(&Row) -> Option<f64>| -> Vec<Vec<Option<(f64, f64)>>> {
        view.runs
            .iter()
            .map(|r| {
                tests
                    .iter()
                    .enumerate()
                    .map(|(i, t)| Some(((i + 1) as f64, column(r.row(t)?)?)))
                    .collect()
            })
            .collect()
    };
    let (probe, driver, power) = (
        series(|r| r.clock_mhz),
        series(|r| r.driver_sm_mhz),
        series(|r| r.power_w),
    );
    let values = |s: &[Vec<Option<(f64, f64)>>]| {
        s.iter()
            .flatten()
            .flatten()
            .map(|p| p.1)
            .collect::<Vec<_>>()
    };
    if values(&driver).is_empty() {
        return None;
    }
    let x = Axis::fit(
        "row of the suite, in run order",
        Scale::Linear,
        [1.0, tests.len().max(2) as f64],
        svg::num,
    )?;
    let line = |i: usize, label: String, dash: &'static str, points: &Vec<Option<(f64, f64)>>| {
        let mut style = view.run_style(i);
        style.dash = dash;
        style.marker = Marker::None;
        chart::Line {
            label,
            style,
            points: points.clone(),
        }
    };
    let name = |i: usize, what: &str| match view.run_label(i) {
        Some(run) => format!("{what}, {run}"),
        None => what.to_string(),
    };
    let mut clock_lines = Vec::new();
    for i in 0..view.runs.len() {
        clock_lines.push(line(i, name(i, "probe"), "", &probe[i]));
        clock_lines.push(line(i, name(i, "driver"), "5 3", &driver[i]));
    }
    let mhz = values(&probe).into_iter().chain(values(&driver));
    let clocks = Axis::fit("shader clock, MHz", Scale::Linear, mhz, svg::num)?;
    let mut out = figure(
        chart::line_chart("clocks", &x, &clocks, &clock_lines),
        "The shader clock per row: the probe's (solid) and the driver's (dashed, its management \
         interface's reading while the row was timed).",
    );
    if !values(&power).is_empty() {
        let watts = Axis::fit("board power, W", Scale::Linear, values(&power), svg::num)?;
        let power_lines: Vec<_> = (0..view.runs.len())
            .map(|i| line(i, name(i, "power"), "", &power[i]))
            .collect();
        out += &figure(
            chart::line_chart("power", &x, &watts, &power_lines),
            "The board's power per row (the mean of the driver's readings while it was timed).",
        );
    }
    Some(format!(
        "<details><summary>Clocks and power, row by row (the driver's word)</summary>\n{out}</details>\n"
    ))
}

pub(super) fn figure(svg: String, caption: &str) -> String {
    format!(
        "<figure>{svg}<figcaption>{}</figcaption></figure>\n",
        svg::esc(caption)
    )
}

/// A row's ratio: the column, or (a file without it) its time per load over the baseline's.
fn ratio(run: &Run, row: &Row) -> Option<f64> {
    if !row.ok() {
        return None;
    }
    row.ratio.or_else(|| {
        let base = run.row(BASELINE)?.ns_per_op()?;
        Some(base / row.ns_per_op()?)
    })
}

/// Ratios per family as a dot plot on a log axis, each run beside each published reference.
// Long on purpose: one SVG (axis, rows, dots, legend) laid out on shared coordinates.
fn ratio_plot(view: &View, key: &SuiteKey, tests: &[String]) -> Option<String> {
    let mut styles: Vec<(Style, String)> = Vec::new();
    let mut style_of_run = Vec::new();
    for i in 0..view.runs.len() {
        match view.run_label(i) {
            Some(label) => {
                style_of_run.push(styles.len());
                styles.push((view.run_style(i), label));
            }
            None => style_of_run.push(0),
        }
    }
    let first_ref = styles.len();
    for (j, r) in view.references.iter().enumerate() {
        let color = PALETTE[(view.runs.len() + j + 2) % PALETTE.len()];
        styles.push((
            Style {
                color: if view.references.len() == 1 {
                    "#222".into()
                } else {
                    color.into()
                },
                dash: "",
                marker: Marker::Diamond,
            },
            format!("{} (published, Direct3D 11)", r.heading),
        ));
    }
    let family = |t: &str| {
        view.runs
            .iter()
            .find_map(|r| r.row(t))
            .map_or("", |r| &r.family)
            .replace('_', " ")
    };
    let dots = |t: &str| -> Vec<(f64, usize)> {
        let mut d: Vec<(f64, usize)> = view
            .runs
            .iter()
            .enumerate()
            .filter_map(|(i, run)| Some((ratio(run, run.row(t)?)?, style_of_run[i])))
            .collect();
        for (j, r) in view.references.iter().enumerate() {
            if let Some(p) = r.ratio(t) {
                d.push((p, first_ref + j));
            }
        }
        d
    };
    let mut rows: Vec<DotRow> = Vec::new();
    let mut last_family = String::new();
    if tests.len() <= PER_TEST_ROWS {
        for t in tests {
            let f = family(t);
            let group = (f != last_family).then(|| f.clone());
            last_family = f;
            rows.push(DotRow {
                label: t.clone(),
                group,
                dots: dots(t),
            });
        }
    } else {
        // Families in order of first appearance, each test a dot: (family, dots, tests).
        type Family = (String, Vec<(f64, usize)>, usize);
        let mut families: Vec<Family> = Vec::new();
        for t in tests {
            let f = family(t);
            let pos = match families.iter().position(|(n, _, _)| *n == f) {
                Some(p) => p,
                None => {
                    families.push((f, Vec::new(), 0));
                    families.len() - 1
                }
            };
            families[pos].1.extend(dots(t));
            families[pos].2 += 1;
        }
        rows = families
            .into_iter()
            .map(|(f, dots, n)| DotRow {
                label: format!("{f} ({n})"),
                group: None,
                dots,
            })
            .collect();
    }
    // A reference none of whose tests are in this suite stays out of its legend.
    let used: Vec<bool> = (0..styles.len())
        .map(|s| rows.iter().any(|r| r.dots.iter().any(|d| d.1 == s)))
        .collect();
    let published = used[first_ref..].iter().any(|u| *u);
    let mut renumber = Vec::new();
    let mut kept = Vec::new();
    for (i, st) in styles.into_iter().enumerate() {
        renumber.push(kept.len());
        if i < first_ref || used[i] {
            kept.push(st);
        }
    }
    for r in &mut rows {
        for d in &mut r.dots {
            d.1 = renumber[d.1];
        }
    }
    let styles = kept;
    let x = Axis::fit(
        "ratio: throughput over Buffer<RGBA8>.Load random (log; higher is faster)",
        Scale::Log,
        rows.iter().flat_map(|r| r.dots.iter().map(|d| d.0)),
        svg::num,
    )?;
    let per_test = tests.len() <= PER_TEST_ROWS;
    let caption = format!(
        "{} suite: each {} the ratio of one test{}. {}",
        key.name(),
        if per_test { "row is" } else { "dot is" },
        if per_test {
            ", rows grouped by family"
        } else {
            "; one row per family (tests in brackets)"
        },
        match (published, view.references.is_empty()) {
            (true, _) => "Diamonds: the published ratio of the same test (PerfTest, Direct3D 11).",
            (false, true) => {
                "Add --reference NAME to set a published GPU's ratios beside them (original suite)."
            }
            (false, false) => "The published references have none of these tests.",
        }
    );
    let title = format!("{} suite: ratios per family", key.name());
    Some(figure(
        chart::dot_plot(&title, &x, &rows, &styles, Some(1.0)),
        &caption,
    ))
}
