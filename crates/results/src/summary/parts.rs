//! The pieces every section of the summary is built from: an item, a figure as text, a sweep's points, the latency curve's name (below the rules that use them, so no section imports another).

use super::curve::Point;
use super::vendor::Figure;
use super::{Device, Item, Row};

/// The latency curve the cache levels are read from: a storage buffer, one dependent load
/// at a time.
pub const LATENCY: &str = "latency: ByteAddressBuffer ";

/// An item of `what`: its value (or why there is none), the measured range, the vendor's
/// figure and the rows it came from; not judged and without quantities until told.
pub(super) fn item(
    what: impl Into<String>,
    value: Result<String, String>,
    measured: Option<(f64, f64)>,
    vendor: Option<Figure>,
    from: impl Into<String>,
) -> Item {
    Item {
        what: what.into(),
        value,
        measured,
        vendor,
        from: from.into(),
        judged: None,
        quantities: Vec::new(),
    }
}

/// A figure: `51.1`, `0.166`, `3118`: three significant digits, or the whole number.
pub fn num(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// The ok rows of a sweep (`PREFIX <size>`) with a figure, in working-set order (each at
/// the working set it ran: [`Row::working_set`]).
pub(super) fn points(d: &Device, prefix: &str, value: impl Fn(&Row) -> Option<f64>) -> Vec<Point> {
    let mut out: Vec<Point> = d
        .rows
        .iter()
        .filter(|r| r.ok())
        .filter_map(|r| {
            Some(Point {
                size: r.working_set(prefix)?,
                value: value(r).filter(|v| *v > 0.0)?,
                test: r.test.clone(),
            })
        })
        .collect();
    out.sort_by_key(|p| p.size);
    out
}
