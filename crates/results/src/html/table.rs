//! HTML tables: a suite's rows (every run side by side, a test that did not run shown with
//! its status and reason), and plain key/value tables.

use super::runs::{Row, Run};
use super::svg::{esc, num};
use crate::vocab::{Conditions, Status, Unit};
use crate::words::Words;

/// A number column of a row, `None` where the row has none.
type Value = fn(&Row) -> Option<f64>;

/// The value columns a suite table may show, with their headings; a column none of the
/// suite's rows fills is left out.
const COLUMNS: &[(&str, &str, Value)] = &[
    ("ratio", "ratio", |r| r.ratio),
    ("ms_median", "ms", |r| r.ms_median),
    ("cv_pct", "CV %", |r| r.cv_pct),
    ("gloads_per_s", "G/s", |r| r.gloads_per_s),
    ("gbytes_per_s", "GB/s", |r| r.gbytes_per_s),
    ("loads_per_clk_per_cu", "per clk per CU", |r| {
        r.loads_per_clk_per_cu
    }),
    ("latency_clk", "latency clk", |r| r.latency_clk),
    ("latency_ns", "latency ns", |r| r.latency_ns),
    ("latency_spread_pct", "spread %", |r| r.latency_spread_pct),
    ("clock_mhz", "MHz", |r| r.clock_mhz),
    ("driver_sm_mhz", "driver MHz", |r| r.driver_sm_mhz),
    ("power_w", "W", |r| r.power_w),
];

/// The unit a heading counts in the suite (`loads`, `ops`, `flops`…), when every row
/// agrees.
fn unit(runs: &[Run], tests: &[String]) -> Option<Unit> {
    let mut units = runs
        .iter()
        .flat_map(|r| tests.iter().filter_map(|t| r.row(t)))
        .filter_map(|r| r.unit);
    let first = units.next()?;
    units.all(|u| u == first).then_some(first)
}

/// One table of `tests`: per run, each value column the suite fills, then the status.
pub fn rows(runs: &[Run], tests: &[String]) -> String {
    let rows_of = |value: Value| {
        runs.iter()
            .flat_map(|r| tests.iter().filter_map(|t| r.row(t)))
            .any(|r| r.ok() && value(r).is_some())
    };
    // A value column, or (`None`) the unit.
    let mut columns: Vec<(Option<Value>, String)> = COLUMNS
        .iter()
        .filter(|(_, _, value)| rows_of(*value))
        .map(|(c, h, value)| {
            let heading = match (*c, unit(runs, tests)) {
                ("gloads_per_s", Some(u)) => format!("G{u}/s"),
                ("loads_per_clk_per_cu", Some(u)) => format!("{u}/clk/CU"),
                _ => h.to_string(),
            };
            (Some(*value), heading)
        })
        .collect();
    // Rows counting different things (loads, ops) say which, beside their numbers.
    let mixed = unit(runs, tests).is_none()
        && runs
            .iter()
            .flat_map(|r| tests.iter().filter_map(|t| r.row(t)))
            .any(|r| r.unit.is_some());
    if mixed {
        columns.push((None, "unit".to_string()));
    }
    let several = runs.len() > 1;
    let mut out = String::from("<div class=\"scroll\"><table class=\"rows\"><thead>");
    if several {
        out += "<tr><th></th>";
        for run in runs {
            out += &format!(
                "<th colspan=\"{}\" class=\"run\">{}</th>",
                columns.len() + 1,
                esc(&run.label)
            );
        }
        out += "</tr>";
    }
    out += "<tr><th>test</th>";
    for _ in runs {
        for (_, h) in &columns {
            out += &format!("<th>{}</th>", esc(h));
        }
        out += "<th>status</th>";
    }
    out += "</tr></thead><tbody>\n";
    for t in tests {
        out += &format!("<tr><td class=\"test\">{}</td>", esc(t));
        for run in runs {
            match run.row(t) {
                Some(row) => {
                    for (value, _) in &columns {
                        let cell = match value {
                            None => row.unit.map_or_else(String::new, |u| esc(u.word())),
                            Some(value) if row.ok() => value(row).map_or_else(String::new, num),
                            Some(_) => String::new(),
                        };
                        out += &format!("<td class=\"n\">{cell}</td>");
                    }
                    out += &status_cell(row);
                }
                None => {
                    out += &"<td></td>".repeat(columns.len());
                    out += "<td class=\"absent\">not in this run</td>";
                }
            }
        }
        out += "</tr>\n";
    }
    out += "</tbody></table></div>\n";
    out
}

/// The status, with the reason (and the conditions of a row not timed steady) beside it.
fn status_cell(row: &Row) -> String {
    let status = row.status.map_or("", |s| s.word());
    let class = match row.status {
        Some(Status::Ok) => "ok",
        Some(Status::Unsupported) => "unsupported",
        _ => "failed",
    };
    let mut note = row.reason.clone();
    let conditions = row.conditions.word();
    if !matches!(row.conditions, Conditions::Unchecked | Conditions::Steady) {
        note = if note.is_empty() {
            conditions.to_string()
        } else {
            format!("{conditions}; {note}")
        };
    }
    if note.is_empty() {
        format!("<td class=\"{class}\">{}</td>", esc(status))
    } else {
        format!(
            "<td class=\"{class}\">{} <span class=\"reason\">{}</span></td>",
            esc(status),
            esc(&note)
        )
    }
}

/// A table with a heading row and one row per entry; cells are text, escaped here, and
/// numbers after the first column right-aligned.
pub fn plain(header: &[String], body: &[Vec<String>]) -> String {
    table(header, body, true)
}

/// As [`plain`], every cell left-aligned (a list of properties).
pub fn properties(header: &[String], body: &[Vec<String>]) -> String {
    table(header, body, false)
}

fn table(header: &[String], body: &[Vec<String>], numbers: bool) -> String {
    let mut out = String::from("<div class=\"scroll\"><table><thead><tr>");
    for h in header {
        out += &format!("<th>{}</th>", esc(h));
    }
    out += "</tr></thead><tbody>\n";
    for r in body {
        out += "<tr>";
        for (i, c) in r.iter().enumerate() {
            let class = if numbers && i > 0 && c.parse::<f64>().is_ok() {
                " class=\"n\""
            } else {
                ""
            };
            out += &format!("<td{class}>{}</td>", esc(c));
        }
        out += "</tr>\n";
    }
    out += "</tbody></table></div>\n";
    out
}
