//! The pieces of the inline SVG charts, written directly: escaping, axes (linear or log) with
//! ticks and units, markers, the legend and the frame; text sizes are estimated, not measured.

use std::fmt::Write as _;

/// Width of every chart's coordinate system; the page scales it to the column's width.
pub const WIDTH: f64 = 960.0;
/// Font size of labels and ticks, in chart units (pixels at full width).
pub(super) const FONT: f64 = 12.0;
/// Estimated width of one character at [`FONT`], generous (DejaVu Sans, Verdana): used for
/// margins and truncation.
pub(super) const CHAR: f64 = 7.2;

/// Colours that stay apart for the usual colour-blindnesses (Tableau 10).
pub const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];
/// Dash patterns that tell runs apart on a line chart.
pub const DASHES: [&str; 4] = ["", "6 3", "2 3", "8 3 2 3"];

/// Escapes text for HTML and SVG content and attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// How values map onto an axis.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Scale {
    Linear,
    Log,
}

/// One axis: its title (with the unit), scale, range and labelled ticks.
#[derive(Clone, Debug)]
pub struct Axis {
    pub title: String,
    pub scale: Scale,
    pub min: f64,
    pub max: f64,
    pub ticks: Vec<(f64, String)>,
}

impl Axis {
    /// An axis over `values` (non-finite and, on a log axis, non-positive values ignored),
    /// with ticks labelled by `label`. `None` when no value can be placed.
    pub fn fit(
        title: &str,
        scale: Scale,
        values: impl IntoIterator<Item = f64>,
        label: fn(f64) -> String,
    ) -> Option<Axis> {
        // Within ±1e200 (and above 1e-200 on a log axis): a damaged or hand-edited cell of
        // 1e308 or 5e-324 would overflow the axis' padding to infinity or zero; it lies off
        // the axis, undrawn, and the rest of the figure stands.
        let usable = |v: &f64| {
            v.is_finite()
                && v.abs() <= AXIS_LIMIT
                && (scale == Scale::Linear || *v >= 1.0 / AXIS_LIMIT)
        };
        let (mut min, mut max) = values
            .into_iter()
            .filter(usable)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        if !min.is_finite() {
            return None;
        }
        let ticks = match scale {
            Scale::Log => {
                // A little room either side, and at least a factor of 4 shown.
                (min, max) = (min / 1.15, max * 1.15);
                if max / min < 4.0 {
                    let mid = (min * max).sqrt();
                    (min, max) = (mid / 2.0, mid * 2.0);
                }
                log_ticks(min, max)
            }
            Scale::Linear => {
                if min > 0.0 && min < max * 0.5 {
                    min = 0.0;
                }
                if max - min < 1e-12 {
                    (min, max) = (min - 1.0, max + 1.0);
                }
                // Room above the highest point (and below a lowest one that is not 0).
                let pad = (max - min) * 0.04;
                max += pad;
                if min != 0.0 {
                    min -= pad;
                }
                linear_ticks(min, max)
            }
        };
        Some(Axis {
            title: title.to_string(),
            scale,
            min,
            max,
            ticks: ticks.into_iter().map(|t| (t, label(t))).collect(),
        })
    }

    /// Where `v` falls, 0 at `min` to 1 at `max`.
    pub fn frac(&self, v: f64) -> f64 {
        match self.scale {
            Scale::Linear => (v - self.min) / (self.max - self.min),
            Scale::Log => (v / self.min).ln() / (self.max / self.min).ln(),
        }
    }

    /// Whether `v` can be drawn on this axis.
    pub fn shows(&self, v: f64) -> bool {
        v.is_finite() && (self.scale == Scale::Linear || v > 0.0) && {
            let f = self.frac(v);
            (-1e-9..=1.0 + 1e-9).contains(&f)
        }
    }
}

/// The largest magnitude an axis spans (and on a log axis its reciprocal the smallest).
const AXIS_LIMIT: f64 = 1e200;

/// Ticks of a log axis: powers of two for a range of more than 2^12 bytes-like spans would
/// crowd, so decades (1, 2, 5 within each when the range is short) or every 4th power of 2.
fn log_ticks(min: f64, max: f64) -> Vec<f64> {
    let decades = (max / min).log10();
    let steps: &[f64] = if decades < 1.2 {
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]
    } else if decades < 2.5 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let mut out = Vec::new();
    // Decades counted, not multiplied up to `max`: a bounded loop whatever the range.
    let (first, last) = (min.log10().floor(), max.log10().ceil());
    if !(first.is_finite() && last.is_finite()) {
        return out;
    }
    for e in (first as i32)..=(last as i32) {
        let p = 10f64.powi(e);
        for s in steps {
            let t = p * s;
            if t >= min && t <= max {
                out.push(t);
            }
        }
    }
    // A decade per tick but for a very long range: every other decade.
    if out.len() > 12 {
        let every = out.len().div_ceil(12);
        out = out.into_iter().step_by(every).collect();
    }
    out
}

/// Ticks of a working-set axis: every 4th power of two (4 KB, 16 KB, … 1 GB), or every
/// power of two on a short axis.
pub fn byte_ticks(axis: &mut Axis) {
    let step = if axis.max / axis.min > 64.0 { 4.0 } else { 2.0 };
    let mut t = 1024.0f64;
    axis.ticks.clear();
    while t <= axis.max.min(AXIS_LIMIT) {
        if t >= axis.min {
            axis.ticks.push((t, bytes(t)));
        }
        t *= step;
    }
}

/// `4 KB`, `1.5 MB`, `1 GB`: a size in binary units, as the test names write it.
pub fn bytes(v: f64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"];
    let mut v = v;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < units.len() {
        v /= 1024.0;
        i += 1;
    }
    format!("{} {}", num(v), units[i])
}

/// Round ticks (1, 2 or 5 × 10^k apart) within `min..=max`.
fn linear_ticks(min: f64, max: f64) -> Vec<f64> {
    let raw = (max - min) / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|s| s * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (min / step - 1e-9).ceil();
    let last = (max / step + 1e-9).floor();
    (first as i64..=last as i64)
        .map(|i| i as f64 * step)
        .map(|t| if t.abs() < step * 1e-9 { 0.0 } else { t })
        .collect()
}

/// A number in at most three significant digits, without trailing zeros: `0.05`, `12.5`,
/// `1500`.
pub fn num(v: f64) -> String {
    let s = crate::compare::sig3(v);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// How one series is drawn.
#[derive(Clone, Debug)]
pub struct Style {
    pub color: String,
    pub dash: &'static str,
    pub marker: Marker,
}

/// A point's marker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Marker {
    Dot,
    /// A hollow diamond: a published value.
    Diamond,
    /// A ring: a value to look at (an outlier).
    Ring,
    None,
}

pub(super) fn marker(out: &mut String, m: Marker, x: f64, y: f64, color: &str) {
    match m {
        Marker::Dot => {
            let _ = write!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.2" fill="{color}"/>"#
            );
        }
        Marker::Diamond => {
            let _ = write!(
                out,
                r#"<path d="M{x:.1} {:.1}l4 4l-4 4l-4 -4z" fill="none" stroke="{color}" stroke-width="1.5"/>"#,
                y - 4.0
            );
        }
        Marker::Ring => {
            let _ = write!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="none" stroke="{color}" stroke-width="1.8"/>"#
            );
        }
        Marker::None => {}
    }
}

/// The legend, one row of entries wrapped to the width, at the top of a chart; returns
/// its height.
pub(super) fn legend(out: &mut String, entries: &[(Style, String)], top: f64) -> f64 {
    let (mut x, mut y) = (10.0, top + 12.0);
    for (style, label) in entries {
        let w = 34.0 + label.chars().count() as f64 * CHAR + 18.0;
        if x + w > WIDTH && x > 10.0 {
            x = 10.0;
            y += 18.0;
        }
        if style.marker == Marker::None || !style.dash.is_empty() {
            let _ = write!(
                out,
                r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="2" stroke-dasharray="{}"/>"#,
                y - 4.0,
                x + 26.0,
                y - 4.0,
                style.color,
                style.dash
            );
        }
        marker(out, style.marker, x + 13.0, y - 4.0, &style.color);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{y:.1}">{}</text>"#,
            x + 32.0,
            esc(label)
        );
        x += w;
    }
    y - top + 10.0
}

/// The axes' frame, grid, ticks and titles for a plot area at (`left`, `top`) of `w` × `h`.
pub(super) fn frame(
    out: &mut String,
    x: &Axis,
    y: Option<&Axis>,
    (left, top, w, h): (f64, f64, f64, f64),
) {
    let _ = write!(
        out,
        r##"<rect x="{left:.1}" y="{top:.1}" width="{w:.1}" height="{h:.1}" fill="none" stroke="#888"/>"##
    );
    for (t, label) in &x.ticks {
        let px = left + x.frac(*t) * w;
        let _ = write!(
            out,
            r##"<line x1="{px:.1}" y1="{top:.1}" x2="{px:.1}" y2="{:.1}" stroke="#e4e4e4"/><text x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            top + h,
            top + h + 15.0,
            esc(label)
        );
    }
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="axis">{}</text>"#,
        left + w / 2.0,
        top + h + 32.0,
        esc(&x.title)
    );
    if let Some(y) = y {
        for (t, label) in &y.ticks {
            let py = top + h - y.frac(*t) * h;
            let _ = write!(
                out,
                r##"<line x1="{left:.1}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#e4e4e4"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                left + w,
                left - 5.0,
                py + 4.0,
                esc(label)
            );
        }
        let _ = write!(
            out,
            r#"<text transform="translate({:.1} {:.1}) rotate(-90)" text-anchor="middle" class="axis">{}</text>"#,
            16.0,
            top + h / 2.0,
            esc(&y.title)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_sizes_read_as_written() {
        assert_eq!(num(0.05), "0.05");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1500.0), "1500");
        assert_eq!(num(1.0), "1");
        assert_eq!(bytes(4096.0), "4 KB");
        assert_eq!(bytes(1.5 * 1024.0 * 1024.0), "1.5 MB");
        assert_eq!(bytes(1024.0 * 1024.0 * 1024.0), "1 GB");
    }

    #[test]
    fn axes_cover_their_values_with_round_ticks() {
        let a = Axis::fit("t", Scale::Log, [3.0, 700.0], num).unwrap();
        assert!(a.min < 3.0 && a.max > 700.0);
        let ticks: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(ticks, ["5", "10", "20", "50", "100", "200", "500"]);
        let l = Axis::fit("t", Scale::Linear, [0.0, 256.0], num).unwrap();
        let ticks: Vec<&str> = l.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(ticks, ["0", "50", "100", "150", "200", "250"]);
        assert!(l.min == 0.0 && l.max > 256.0 && l.max < 270.0);
        assert!(Axis::fit("t", Scale::Log, [0.0, -1.0, f64::NAN], num).is_none());
        assert!((a.frac(a.min)).abs() < 1e-12 && (a.frac(a.max) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_damaged_extreme_value_is_left_off_the_axis_in_bounded_time() {
        // 5e-324 padded by 1.15 is 0, 1.8e308 padded is infinity: the tick loops once
        // never ended (or filled memory). Such a value lies off the axis; the rest stands.
        for extreme in [5e-324, f64::MAX, 1e-300, 1e300] {
            let a = Axis::fit("t", Scale::Log, [3.0, 700.0, extreme], num).unwrap();
            assert!(
                a.min < 3.0 && a.max > 700.0 && a.max < 1e4,
                "{extreme}: {a:?}"
            );
            assert!(!a.shows(extreme), "{extreme}");
            let mut b = Axis::fit("t", Scale::Log, [4096.0, 1e9, extreme], bytes).unwrap();
            byte_ticks(&mut b);
            assert!(b.ticks.len() <= 16, "{extreme}: {b:?}");
        }
        let l = Axis::fit("t", Scale::Linear, [0.0, 256.0, -f64::MAX], num).unwrap();
        assert!(l.ticks.len() <= 12, "{l:?}");
        // A range of hundreds of decades, still a dozen ticks at most.
        let wide = Axis::fit("t", Scale::Log, [1e-150, 1e150], num).unwrap();
        assert!(wide.ticks.len() <= 12, "{}", wide.ticks.len());
    }
}
