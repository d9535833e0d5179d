//! The curves: bandwidth and latency over the working set, and the branch curves.

use super::{figure, View};
use crate::html::chart::{self, Line};
use crate::html::runs::{Row, Run};
use crate::html::svg::{self, Axis, Marker, Scale, Style, DASHES, PALETTE};

/// Which working-set sweep a curve chart shows.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Curve {
    Bandwidth,
    Latency,
}

/// `("latency: Buffer<uint> ", "Buffer<uint>")` of a sweep's test name `latency: Buffer<uint>
/// 1.5 MB`: the curve the row is a point of (the prefix [`Row::working_set`] takes) and the
/// resource its line is labelled with. The name is the key here: the family, resource and
/// format columns do not tell a resource's curve from its variants' (`ByteAddressBuffer.Load4`
/// from its host-memory form); the point's size is the row's working set.
fn curve_of(test: &str) -> Option<(&str, &str)> {
    let (_, rest) = test.split_once(": ")?;
    let mut words = rest.rsplitn(3, ' ');
    let (unit, size, name) = (words.next()?, words.next()?, words.next()?);
    let prefix = &test[..test.len() - unit.len() - size.len() - 1];
    crate::size::size_after(test, prefix)?;
    Some((prefix, name))
}

/// The working set (bytes) of `test`, a point of the curve `prefix`, in `run`: its row's
/// ([`Row::working_set`]), else, for a size the run lacks (a gap in its line, placed among
/// the sizes), another run's row of the test.
fn working_set(view: &View, run: &Run, test: &str, prefix: &str) -> Option<f64> {
    let row = run
        .row(test)
        .or_else(|| view.runs.iter().find_map(|r| r.row(test)))?;
    Some(row.working_set(prefix)? as f64)
}

/// Bandwidth (GB/s) or latency (clocks per load, else ns per load where the device has no
/// shader clock) over the working set, log on both axes, one line per resource and run.
// Long on purpose: one chart, drawn in order: the series gathered per resource and run,
// the axes fitted to them, then the lines and the legend.
pub(super) fn curves(view: &View, tests: &[String], kind: Curve) -> Option<String> {
    let mut curves: Vec<(&str, &str)> = Vec::new();
    for t in tests {
        if let Some(c) = curve_of(t) {
            if !curves.contains(&c) {
                curves.push(c);
            }
        }
    }
    let clocks = kind == Curve::Latency
        && view
            .runs
            .iter()
            .any(|r| r.rows.iter().any(|row| row.latency_clk.is_some()));
    let value = |row: &Row| -> Option<f64> {
        if !row.ok() {
            return None;
        }
        match kind {
            Curve::Bandwidth => row.gbytes_per_s,
            Curve::Latency if clocks => row.latency_clk,
            Curve::Latency => row.ns_per_op(),
        }
    };
    let mut lines = Vec::new();
    for (i, run) in view.runs.iter().enumerate() {
        for (k, &(prefix, name)) in curves.iter().enumerate() {
            let mut points: Vec<(f64, Option<f64>)> = tests
                .iter()
                .filter(|t| curve_of(t).is_some_and(|c| c.0 == prefix))
                .filter_map(|t| {
                    let size = working_set(view, run, t, prefix)?;
                    Some((size, run.row(t).and_then(value)))
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
        Curve::Bandwidth => ("bandwidth, GB/s (log)", "Bandwidth over the working set"),
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
            "Each line is one resource read (or stored, or copied) over working sets from 4 KB \
             to 1 GB: the steps are the caches (L1, L2) giving way to memory. A gap is a size \
             that did not run (its reason is in the table)."
        }
        Curve::Latency => {
            "Each line is one resource's dependent pointer chase: the clocks (time) per load \
             step up where the working set outgrows a cache (the texture chase beside a \
             buffer's: per step of both chases, two loads). A gap is a size that did not run \
             (its reason is in the table)."
        }
    };
    Some(figure(chart::line_chart(title, &x, &y, &lines), caption))
}

/// `(N, "Coherent", "long")` of a branch test name `16X Coherent branch long`.
fn branch_point(test: &str) -> Option<(f64, &str, &str)> {
    let mut w = test.split(' ');
    let n: f64 = w.next()?.strip_suffix('X')?.parse().ok()?;
    let (coherence, word, shape) = (w.next()?, w.next()?, w.next()?);
    (word == "branch" && w.next().is_none()).then_some((n, coherence, shape))
}

/// The branch curves: each kind's ratio to the coherent baseline at the same ALU work.
pub(super) fn branch(view: &View, tests: &[String]) -> Option<String> {
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
                    (c == *coherence && s == *shape).then_some((n, row.ratio?))
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
        chart::line_chart("Branch curves", &x, &y, &lines),
        "Two samples behind a coherent or divergent branch beside N operations of ALU work; \
         each line is one branch kind's throughput over the coherent baseline at the same N.",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_curves_and_branch_points() {
        assert_eq!(
            curve_of("latency: Buffer<uint> 1.5 MB"),
            Some(("latency: Buffer<uint> ", "Buffer<uint>"))
        );
        assert_eq!(
            curve_of("bandwidth: Texture2D<RGBA8>.Sample(bilinear) 4 KB"),
            Some((
                "bandwidth: Texture2D<RGBA8>.Sample(bilinear) ",
                "Texture2D<RGBA8>.Sample(bilinear)"
            ))
        );
        assert_eq!(curve_of("latency: registers{uint}, no load"), None);
        assert_eq!(
            curve_of("latency by stride: ByteAddressBuffer 4 MB, 32 B apart"),
            None
        );
        assert_eq!(
            branch_point("16X Divergent branch short"),
            Some((16.0, "Divergent", "short"))
        );
        assert_eq!(branch_point("Buffer<R8>.Load uniform"), None);
    }
}
