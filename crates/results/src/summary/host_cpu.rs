//! The host CPU's caches, as the kernel reports them, held against a CPU device's latency curve (lavapipe's device is the host CPU): docs/summary.md, *The host CPU's caches*.

use super::curve::{self, Point, Span};
use super::parts::{item, num, points, LATENCY};
use super::vendor::Figure;
use super::{Device, Quantity, Section, Unit};
use crate::cpu_caches::{self, CpuCache};

/// A rise of the latency curve between two of its plateaus.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The last size on the lower plateau and the first off it (bytes): the plateau rule's
    /// edge.
    pub edge: (u64, u64),
    /// The last size under half-way from the lower plateau's figure to the upper one's, and
    /// the first at or over it (bytes): where half the loads miss, and so a physically
    /// indexed cache's size, whose step the pages' random placement spreads over an octave.
    pub half: (u64, u64),
    /// The two plateaus' figures (medians).
    pub from: f64,
    pub to: f64,
}

/// The least rise between two plateaus' figures that counts as a step: twice the plateau
/// rule's tolerance. Points scattered independently by up to ±9 % around one latency (a CPU's
/// curve scatters so) can form two plateaus of the rule's 10 % each, one of the high points
/// and one of the low, whose figures differ by up to 1.09 / 0.91 = 1.198: noise, not a cache
/// (unit-tested on such curves). The caches' steps seen are larger: a Xeon's L1d 1.24×, its
/// L2 3.7×.
pub const MIN_RISE: f64 = 1.0 + 2.0 * curve::TOLERANCE;

/// The rises of a curve (points in size order): one per pair of neighbouring plateaus whose
/// upper figure is at least [`MIN_RISE`] times the lower.
pub fn steps(points: &[Point]) -> Vec<Step> {
    let spans: Vec<Span> = curve::plateaus(points);
    spans
        .windows(2)
        .filter_map(|w| {
            let (a, b) = (w[0], w[1]);
            let (from, to) = (a.median(points), b.median(points));
            if to < from * MIN_RISE {
                return None;
            }
            let mid = (from + to) / 2.0;
            let up = (a.last + 1..=b.first).find(|&j| points[j].value >= mid)?;
            Some(Step {
                edge: (points[a.last].size, points[a.last + 1].size),
                half: (points[up - 1].size, points[up].size),
                from,
                to,
            })
        })
        .collect()
}

/// The step whose half-rise brackets a cache of `bytes` (both ends inclusive: the last size
/// under half-way and the first at or over it), if one does. Of a sharp step (a virtually
/// indexed L1's) that is the plateau's edge; of a gradual one (a physically indexed cache,
/// whose pages' random placement spreads its step over an octave) the half-rise, where half
/// the loads miss.
pub fn held(bytes: u64, steps: &[Step]) -> Option<Step> {
    steps
        .iter()
        .find(|s| s.half.0 <= bytes && bytes <= s.half.1)
        .copied()
}

/// `48 KB – 52 KB`.
fn range(r: (u64, u64)) -> String {
    format!("{} – {}", curve::size_name(r.0), curve::size_name(r.1))
}

/// The section for a CPU device's rows (`None` for a GPU): each data cache of the host's
/// (the rows' `host_caches`) that the curve's sizes reach, on the curve's steps; then the
/// steps no cache explains.
// Long on purpose: the section's items in the order it prints them (each cache the curve
// reaches, then the steps no cache explains), read off one set of points.
pub fn section(d: &Device) -> Option<Section> {
    if !d.rows.iter().any(|r| r.device_type == "cpu") {
        return None;
    }
    let title = "The host CPU's caches (the device is the CPU: the kernel's sizes against the \
                 curve of `latency: ByteAddressBuffer`)"
        .to_string();
    let Some(caches) = d
        .rows
        .iter()
        .map(|r| &r.host_caches)
        .find(|c| !c.is_empty())
    else {
        let why = "no host_caches in the rows (not Linux, or a file older than the column)";
        return Some(left_out(title, why.into()));
    };
    // The sweep's rows only: each ran in every pass, so its fastest is the CPU's own; a
    // probe's size is its pass's own, read once, in whatever spell that pass was in.
    let lat = points(d, LATENCY, |r| r.latency_ns.filter(|_| !r.is_probe()));
    if lat.len() < 2 {
        let why = format!("no curve: fewer than two `{LATENCY}<size>` sweep rows with latency_ns");
        return Some(left_out(title, why));
    }
    let steps = steps(&lat);
    let (first, last) = (lat[0].size, lat[lat.len() - 1].size);
    let curve_rows = format!(
        "{LATENCY}{} … {} ({} rows)",
        curve::size_name(first),
        curve::size_name(last),
        lat.len()
    );
    let mut used = Vec::new();
    let mut items: Vec<_> = caches
        .iter()
        .map(|c| {
            let what = format!("{} ({})", c.name(), curve::size_name(c.bytes));
            let figure = sysfs_figure(c);
            if c.bytes < first || c.bytes > last {
                let why = format!(
                    "past the curve's sizes ({} … {})",
                    curve::size_name(first),
                    curve::size_name(last)
                );
                return item(what, Err(why), None, Some(figure), "");
            }
            if steps.is_empty() {
                let why = format!(
                    "the curve has no step to hold it against (no two plateaus of {} sizes \
                     within {} %, in {} rows)",
                    curve::MIN_POINTS,
                    (curve::TOLERANCE * 100.0).round(),
                    lat.len()
                );
                return item(what, Err(why), None, Some(figure), curve_rows.clone());
            }
            let scale = figure_scale(c.bytes);
            let (value, r) = match held(c.bytes, &steps) {
                Some(s) => {
                    used.push(s);
                    let how = if s.half == s.edge {
                        format!("the step from {} to {} ns", num(s.from), num(s.to))
                    } else {
                        format!(
                            "half-way from {} to {} ns; the step starts at {}",
                            num(s.from),
                            num(s.to),
                            range(s.edge)
                        )
                    };
                    (format!("{}: holds ({how})", range(s.half)), Some(s.half))
                }
                None => {
                    let all: Vec<String> = steps.iter().map(|s| range(s.half)).collect();
                    let v = format!(
                        "does not hold: no step of the curve is half done at {} (its steps: {})",
                        curve::size_name(c.bytes),
                        all.join(", ")
                    );
                    (v, None)
                }
            };
            let measured = r.map(|(a, b)| (a as f64 / scale, b as f64 / scale));
            let it = item(what, Ok(value), measured, Some(figure), curve_rows.clone());
            match r {
                Some((a, b)) => it.with([Quantity::range(a as f64, b as f64, Unit::Bytes)]),
                None => it,
            }
        })
        .collect();
    let others: Vec<String> = steps
        .iter()
        .filter(|s| !used.contains(s))
        .map(|s| {
            let pages = |b: u64| b / 4096;
            format!(
                "{} ({} → {} ns; {}–{} pages of 4 KB)",
                range(s.edge),
                num(s.from),
                num(s.to),
                pages(s.edge.0),
                pages(s.edge.1)
            )
        })
        .collect();
    items.push(item(
        "steps no cache of the host's explains",
        Ok(if others.is_empty() {
            "none".into()
        } else {
            others.join(", ")
        }),
        None,
        None,
        if others.is_empty() {
            String::new()
        } else {
            curve_rows
        },
    ));
    Some(Section { title, items })
}

/// A section of one item that says why it is left out.
fn left_out(title: String, why: String) -> Section {
    Section {
        title,
        items: vec![item("host caches", Err(why), None, None, "")],
    }
}

/// Bytes per unit of a cache's figure (KB below 1 MB, else MB).
fn figure_scale(bytes: u64) -> f64 {
    if bytes < 1 << 20 {
        1024.0
    } else {
        1024.0 * 1024.0
    }
}

/// A cache's size as the summary's `published` column shows it: the kernel's word.
fn sysfs_figure(c: &CpuCache) -> Figure {
    let scale = figure_scale(c.bytes);
    Figure {
        device: String::new(),
        key: format!("{}_bytes", c.name().to_lowercase()),
        value: c.bytes as f64 / scale,
        unit: if scale < 1e6 { "KB" } else { "MB" }.into(),
        what: format!("{} size", c.name()),
        source: format!("Linux sysfs ({})", cpu_caches::SYSFS),
    }
}
