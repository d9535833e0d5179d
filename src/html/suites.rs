//! One section per suite: the figure a person would draw for it (ratios beside a published
//! reference, curves over the working set, the branch curves) and its rows as a table.

use super::runs::{Row, Run, SuiteKey};
use super::svg::{self, Axis, DotRow, Line, Marker, Scale, Style, DASHES, PALETTE};
use super::table;
use crate::catalog::Suite;
use crate::published::{Reference, BASELINE};

/// What every suite section needs.
pub struct View<'a> {
    pub runs: &'a [Run],
    pub references: &'a [&'static Reference],
    /// Many runs of one GPU: every run drawn alike, the legend names the fleet.
    pub fleet: bool,
}

impl View<'_> {
    /// How run `i`'s points and lines are drawn.
    fn run_style(&self, i: usize) -> Style {
        Style {
            color: PALETTE[if self.fleet { 0 } else { i % PALETTE.len() }].to_string(),
            dash: "",
            marker: Marker::Dot,
        }
    }

    /// How run `i` is named in a legend (`None`: no entry, a fleet's later runs).
    fn run_label(&self, i: usize) -> Option<String> {
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
        SuiteKey::Known(Suite::Bandwidth) => curves(view, tests, Curve::Bandwidth),
        SuiteKey::Known(Suite::Latency) => curves(view, tests, Curve::Latency),
        SuiteKey::Known(Suite::Branch) => branch(view, tests),
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
    out += "</section>\n";
    out
}

fn figure(svg: String, caption: &str) -> String {
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
    row.num("ratio").or_else(|| {
        let base = run.row(BASELINE)?.ns_per_op()?;
        Some(base / row.ns_per_op()?)
    })
}

/// Ratios per family as a dot plot on a log axis, each run beside each published reference.
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
            .map_or("", |r| r.get("family"))
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
        svg::dot_plot(&title, &x, &rows, &styles, Some(1.0)),
        &caption,
    ))
}

/// Which working-set sweep a curve chart shows.
#[derive(Clone, Copy, PartialEq)]
enum Curve {
    Bandwidth,
    Latency,
}

/// `("Buffer<uint>", bytes)` of a sweep's test name `latency: Buffer<uint> 1.5 MB`.
pub fn working_set(test: &str) -> Option<(&str, f64)> {
    let (_, rest) = test.split_once(": ")?;
    let mut words = rest.rsplitn(3, ' ');
    let unit = words.next()?;
    let size: f64 = words.next()?.parse().ok()?;
    let name = words.next()?;
    let scale = match unit {
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        "GB" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some((name, size * scale))
}

/// Bandwidth (GB/s) or latency (clocks per load, else ns per load where the device has no
/// shader clock) over the working set, log on both axes, one line per resource and run.
fn curves(view: &View, tests: &[String], kind: Curve) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    for t in tests {
        if let Some((n, _)) = working_set(t) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    let clocks = kind == Curve::Latency
        && view
            .runs
            .iter()
            .any(|r| r.rows.iter().any(|row| row.num("latency_clk").is_some()));
    let value = |row: &Row| -> Option<f64> {
        if !row.ok() {
            return None;
        }
        match kind {
            Curve::Bandwidth => row.num("gbytes_per_s"),
            Curve::Latency if clocks => row.num("latency_clk"),
            Curve::Latency => row.ns_per_op(),
        }
    };
    let mut lines = Vec::new();
    for (i, run) in view.runs.iter().enumerate() {
        for (k, name) in names.iter().enumerate() {
            let mut points: Vec<(f64, Option<f64>)> = tests
                .iter()
                .filter_map(|t| {
                    let (n, size) = working_set(t)?;
                    (n == *name).then(|| (size, run.row(t).and_then(value)))
                })
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let dash = if view.fleet || view.runs.len() == 1 {
                DASHES[(k / PALETTE.len()) % DASHES.len()]
            } else {
                DASHES[i % DASHES.len()]
            };
            let label = match (view.fleet, view.runs.len()) {
                (true, _) | (false, 1) => name.to_string(),
                _ => format!("{name} — {}", run.label),
            };
            lines.push(Line {
                label,
                style: Style {
                    color: PALETTE[k % PALETTE.len()].into(),
                    dash,
                    marker: Marker::None,
                },
                points: points.into_iter().map(|(s, v)| v.map(|v| (s, v))).collect(),
            });
        }
    }
    let all_points = || lines.iter().flat_map(|l| l.points.iter().flatten());
    let mut x = Axis::fit(
        "working set (log)",
        Scale::Log,
        all_points().map(|p| p.0),
        svg::bytes,
    )?;
    svg::byte_ticks(&mut x);
    let (y_title, title) = match kind {
        Curve::Bandwidth => (
            "read bandwidth, GB/s (log)",
            "Bandwidth over the working set",
        ),
        Curve::Latency if clocks => (
            "latency, shader clocks per load (log)",
            "Latency over the working set",
        ),
        Curve::Latency => (
            "time per load, ns (log; no shader clock on this device)",
            "Latency over the working set",
        ),
    };
    let y = Axis::fit(y_title, Scale::Log, all_points().map(|p| p.1), svg::num)?;
    let caption = match kind {
        Curve::Bandwidth => {
            "Each line is one resource read over working sets from 4 KB to 1 GB: the steps \
             are the caches (L1, L2) giving way to memory. A gap is a size that did not run \
             (its reason is in the table)."
        }
        Curve::Latency => {
            "Each line is one resource's dependent pointer chase: the clocks (time) per load \
             step up where the working set outgrows a cache. A gap is a size that did not \
             run (its reason is in the table)."
        }
    };
    Some(figure(svg::line_chart(title, &x, &y, &lines), caption))
}

/// `(N, "Coherent", "long")` of a branch test name `16X Coherent branch long`.
fn branch_point(test: &str) -> Option<(f64, &str, &str)> {
    let mut w = test.split(' ');
    let n: f64 = w.next()?.strip_suffix('X')?.parse().ok()?;
    let (coherence, word, shape) = (w.next()?, w.next()?, w.next()?);
    (word == "branch" && w.next().is_none()).then_some((n, coherence, shape))
}

/// The branch curves: each kind's ratio to the coherent baseline at the same ALU work.
fn branch(view: &View, tests: &[String]) -> Option<String> {
    let kinds = [
        ("Coherent", "long"),
        ("Coherent", "short"),
        ("Divergent", "baseline"),
        ("Divergent", "long"),
        ("Divergent", "short"),
    ];
    let mut lines = Vec::new();
    for (i, run) in view.runs.iter().enumerate() {
        for (k, (coherence, shape)) in kinds.iter().enumerate() {
            let mut points: Vec<(f64, f64)> = tests
                .iter()
                .filter_map(|t| {
                    let (n, c, s) = branch_point(t)?;
                    let row = run.row(t).filter(|r| r.ok())?;
                    (c == *coherence && s == *shape).then_some((n, row.num("ratio")?))
                })
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let name = format!("{coherence} {shape}");
            lines.push(Line {
                label: match (view.fleet, view.runs.len()) {
                    (true, _) | (false, 1) => name,
                    _ => format!("{name} — {}", run.label),
                },
                style: Style {
                    color: PALETTE[k].into(),
                    dash: if view.fleet {
                        ""
                    } else {
                        DASHES[i % DASHES.len()]
                    },
                    marker: Marker::None,
                },
                points: points.into_iter().map(Some).collect(),
            });
        }
    }
    let all = || lines.iter().flat_map(|l| l.points.iter().flatten());
    let x = Axis::fit(
        "ALU work beside the branch, N (NX: N independent operations)",
        Scale::Linear,
        all().map(|p| p.0),
        svg::num,
    )?;
    let y = Axis::fit(
        "ratio to NX Coherent branch baseline (higher is faster)",
        Scale::Linear,
        all().map(|p| p.1),
        svg::num,
    )?;
    Some(figure(
        svg::line_chart("Branch curves", &x, &y, &lines),
        "Two samples behind a coherent or divergent branch beside N operations of ALU work; \
         each line is one branch kind's throughput over the coherent baseline at the same N.",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_sizes_and_branch_points() {
        assert_eq!(
            working_set("latency: Buffer<uint> 1.5 MB"),
            Some(("Buffer<uint>", 1.5 * 1024.0 * 1024.0))
        );
        assert_eq!(
            working_set("bandwidth: Texture2D<RGBA8>.Sample(bilinear) 4 KB"),
            Some(("Texture2D<RGBA8>.Sample(bilinear)", 4096.0))
        );
        assert_eq!(working_set("latency: registers{uint}, no load"), None);
        assert_eq!(
            branch_point("16X Divergent branch short"),
            Some((16.0, "Divergent", "short"))
        );
        assert_eq!(branch_point("Buffer<R8>.Load uniform"), None);
    }
}
