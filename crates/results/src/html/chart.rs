//! The charts: line charts and dot plots, built from the pieces in `svg.rs`.

use super::svg::{esc, frame, legend, marker, Axis, Style, CHAR, FONT, WIDTH};
use std::fmt::Write as _;

/// Height of one row of a dot plot.
const ROW: f64 = 14.0;
/// Longest label a dot plot shows in full (longer ones are cut, whole in the tooltip).
const MAX_LABEL: usize = 56;

/// Opens an `<svg>` of `height`, with its title for screen readers.
fn open(out: &mut String, title: &str, height: f64) {
    let _ = write!(
        out,
        r#"<svg class="chart" viewBox="0 0 {WIDTH} {height:.0}" width="{WIDTH}" height="{height:.0}" role="img" font-size="{FONT}"><title>{}</title>"#,
        esc(title)
    );
}

/// One line of a line chart.
pub struct Line {
    pub label: String,
    pub style: Style,
    /// Points in x order; a gap (a test that did not run) breaks the line.
    pub points: Vec<Option<(f64, f64)>>,
}

/// A line chart of `lines` on axes `x` and `y`, legend above.
pub fn line_chart(title: &str, x: &Axis, y: &Axis, lines: &[Line]) -> String {
    // One entry per label: a fleet's runs share their lines' labels.
    let mut entries: Vec<(Style, String)> = Vec::new();
    for l in lines {
        if !entries.iter().any(|(_, label)| *label == l.label) {
            entries.push((l.style.clone(), l.label.clone()));
        }
    }
    let mut legend_svg = String::new();
    let lh = legend(&mut legend_svg, &entries, 0.0);
    let y_width = y.ticks.iter().map(|t| t.1.len()).max().unwrap_or(3) as f64 * CHAR;
    let (left, top, h) = (36.0 + y_width, lh + 8.0, 340.0);
    let w = WIDTH - left - 20.0;
    let mut out = String::new();
    open(&mut out, title, top + h + 42.0);
    out += &legend_svg;
    frame(&mut out, x, Some(y), (left, top, w, h));
    let place = |(vx, vy): (f64, f64)| {
        (x.shows(vx) && y.shows(vy)).then(|| (left + x.frac(vx) * w, top + h - y.frac(vy) * h))
    };
    for line in lines {
        let mut d = String::new();
        let mut pen_up = true;
        for p in &line.points {
            match p.and_then(place) {
                Some((px, py)) => {
                    let _ = write!(d, "{}{px:.1} {py:.1}", if pen_up { "M" } else { "L" });
                    pen_up = false;
                }
                None => pen_up = true,
            }
        }
        let _ = write!(
            out,
            r#"<path d="{d}" fill="none" stroke="{}" stroke-width="1.8" stroke-dasharray="{}"><title>{}</title></path>"#,
            line.style.color,
            line.style.dash,
            esc(&line.label)
        );
        for (px, py) in line.points.iter().filter_map(|p| p.and_then(place)) {
            marker(&mut out, line.style.marker, px, py, &line.style.color);
        }
    }
    out += "</svg>";
    out
}

/// One row of a dot plot: its label, a heading when a new group starts, and its points
/// (value, style index).
pub struct DotRow {
    pub label: String,
    pub group: Option<String>,
    pub dots: Vec<(f64, usize)>,
}

/// A dot plot: one row per [`DotRow`], values on axis `x`, a reference line at `mark`,
/// `styles` in the legend.
// Long on purpose: one SVG drawn in order (axis, reference line, one row of dots per
// row, legend), its layout computed once for all of them.
pub fn dot_plot(
    title: &str,
    x: &Axis,
    rows: &[DotRow],
    styles: &[(Style, String)],
    mark: Option<f64>,
) -> String {
    let mut legend_svg = String::new();
    let lh = legend(&mut legend_svg, styles, 0.0);
    let longest = rows
        .iter()
        .map(|r| r.label.chars().count().min(MAX_LABEL))
        .max()
        .unwrap_or(4) as f64;
    let (left, top) = (14.0 + longest * CHAR, lh + 26.0);
    let w = WIDTH - left - 20.0;
    let groups = rows.iter().filter(|r| r.group.is_some()).count() as f64;
    let h = rows.len() as f64 * ROW + groups * ROW + 6.0;
    let mut out = String::new();
    open(&mut out, title, top + h + 42.0);
    out += &legend_svg;
    // Ticks above the plot too, for a tall chart.
    for (t, label) in &x.ticks {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            left + x.frac(*t) * w,
            top - 5.0,
            esc(label)
        );
    }
    frame(&mut out, x, None, (left, top, w, h));
    if let Some(m) = mark.filter(|m| x.shows(*m)) {
        let px = left + x.frac(m) * w;
        let _ = write!(
            out,
            r##"<line x1="{px:.1}" y1="{top:.1}" x2="{px:.1}" y2="{:.1}" stroke="#555" stroke-dasharray="4 3"/>"##,
            top + h
        );
    }
    let mut y = top + 4.0;
    for row in rows {
        if let Some(g) = &row.group {
            y += ROW;
            let _ = write!(
                out,
                r##"<line x1="{left:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#bbb"/><text x="{:.1}" y="{:.1}" class="group">{}</text>"##,
                y - ROW + 2.0,
                left + w,
                y - ROW + 2.0,
                left + 4.0,
                y - 1.0,
                esc(g)
            );
        }
        let cy = y + ROW / 2.0;
        let shown: String = if row.label.chars().count() > MAX_LABEL {
            row.label.chars().take(MAX_LABEL - 1).collect::<String>() + "…"
        } else {
            row.label.clone()
        };
        let _ = write!(
            out,
            r##"<line x1="{left:.1}" y1="{cy:.1}" x2="{:.1}" y2="{cy:.1}" stroke="#f0f0f0"/><text x="{:.1}" y="{:.1}" text-anchor="end"><title>{}</title>{}</text>"##,
            left + w,
            left - 6.0,
            cy + 4.0,
            esc(&row.label),
            esc(&shown)
        );
        for (v, s) in &row.dots {
            if x.shows(*v) {
                let style = &styles[*s].0;
                marker(
                    &mut out,
                    style.marker,
                    left + x.frac(*v) * w,
                    cy,
                    &style.color,
                );
            }
        }
        y += ROW;
    }
    out += "</svg>";
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::svg::{num, Marker, Scale, PALETTE};

    #[test]
    fn a_line_breaks_where_a_point_is_missing() {
        let x = Axis::fit("x", Scale::Linear, [0.0, 10.0], num).unwrap();
        let style = Style {
            color: PALETTE[0].into(),
            dash: "",
            marker: Marker::None,
        };
        let line = Line {
            label: "a<b".into(),
            style,
            points: vec![Some((1.0, 1.0)), Some((2.0, 2.0)), None, Some((3.0, 3.0))],
        };
        let svg = line_chart("c", &x, &x, &[line]);
        let d = svg.split("<path d=\"").nth(1).unwrap();
        let d = &d[..d.find('"').unwrap()];
        assert_eq!(d.matches('M').count(), 2, "{d}");
        assert_eq!(d.matches('L').count(), 1, "{d}");
        assert!(svg.contains("a&lt;b") && !svg.contains("a<b"));
    }
}
