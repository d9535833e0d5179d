//! Several runs: side by side (each run against the first, every change set against the
//! test's own spread), or a fleet (many runs of one GPU and driver: each run's deviation
//! from the median per test, outliers named).

mod fleet;
mod side;

use super::runs::{Row, Run, SuiteKey};
use super::svg::{Axis, Marker, Scale, Style};
use crate::Suite;

pub use fleet::fleet;
pub use side::side_by_side;

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
pub(super) const SHOWN: usize = 40;

/// Smallest change (deviation) ever called beyond the spread, as a fraction: the CSV's
/// rounding of times and spreads.
pub(super) const FLOOR: f64 = 0.001;

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
pub(super) fn metric(row: &Row, key: &SuiteKey) -> Option<(f64, &'static str)> {
    if !row.ok() {
        return None;
    }
    match row.latency_clk {
        Some(clk) if *key == SuiteKey::Known(Suite::Latency) => Some((clk, "clk/load")),
        _ => row.ns_per_op().map(|ns| (ns, "ns/op")),
    }
}

/// `+12.3%` of a factor 1.123.
pub(super) fn pct(factor: f64) -> String {
    let p = (factor - 1.0) * 100.0;
    let p = if p.abs() < 0.05 { 0.0 } else { p };
    format!("{p:+.1}%")
}

/// An axis of factors (1 = no change), labelled in percent; linear when the range is
/// narrow.
pub(super) fn change_axis(title: &str, values: impl Iterator<Item = f64> + Clone) -> Option<Axis> {
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

pub(super) fn style(color: &str, marker: Marker) -> Style {
    Style {
        color: color.into(),
        dash: "",
        marker,
    }
}
