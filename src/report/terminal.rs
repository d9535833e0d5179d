//! Results on stdout: the original's lines, an aligned table, or a Markdown table. In a table,
//! the instruction suite's rows get a table of their own: operation, operations per clock per
//! compute unit, latency in clocks (the layout of a hand-made instruction timing table).

use super::{Reporter, Row};
use crate::catalog::Suite;
use crate::gpu::DeviceInfo;
use crate::runner::{Calibration, Mode, Status, MAX_DISPATCH_MS};
use anyhow::Result;
use perftest_results::note::words;
use perftest_results::row::num;
use perftest_results::Words;
use std::io::Write;

/// Layout of the results on stdout (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TerminalFormat {
    /// `NAME: 0.123ms 1.000x`, as the original printed it.
    #[default]
    Original,
    /// Aligned columns: ms, ratio, Gloads/s, loads/clk/CU, status.
    Table,
    /// A GitHub Markdown table, ready to paste into an issue.
    Markdown,
}

/// Writes one line per test in the chosen layout.
pub struct Terminal<W: Write> {
    out: W,
    format: TerminalFormat,
    /// The current device's common dispatch size (its calibration's groups).
    common_groups: u32,
    /// The table whose header was printed last on this device (tables only).
    table: Option<Table>,
    /// Whether `--format table` names each device above its tables.
    labelled: bool,
}

/// The two tables of the table layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    /// Load tests: ms, ratio, Gloads/s, loads/clk/CU.
    Loads,
    /// The instruction and matrix suites: ops/clk/CU, latency, Gops/s, ms.
    Instructions,
}

impl<W: Write> Terminal<W> {
    pub fn new(out: W, format: TerminalFormat) -> Self {
        Terminal {
            out,
            format,
            common_groups: 0,
            table: None,
            labelled: false,
        }
    }

    /// Whether `--format table` names each device above its tables (a run of several
    /// devices; Markdown always does).
    pub fn labelled(self, labelled: bool) -> Self {
        Terminal { labelled, ..self }
    }

    /// Prints `table`'s header before its first row (and again after the other table's rows).
    fn header(&mut self, table: Table) -> Result<()> {
        if self.table == Some(table) {
            return Ok(());
        }
        if self.table.is_some() {
            writeln!(self.out)?;
        }
        self.table = Some(table);
        match (self.format, table) {
            (TerminalFormat::Table, Table::Loads) => {
                writeln!(self.out, "{}", table_line(&HEADERS.map(String::from)))?
            }
            (TerminalFormat::Table, Table::Instructions) => writeln!(
                self.out,
                "{}",
                instruction_line(&INSTRUCTION_HEADERS.map(String::from))
            )?,
            (TerminalFormat::Markdown, Table::Loads) => {
                writeln!(self.out, "| {} |", HEADERS.join(" | "))?;
                writeln!(self.out, "|---|---:|---:|---:|---:|---|")?;
            }
            (TerminalFormat::Markdown, Table::Instructions) => {
                writeln!(self.out, "| {} |", INSTRUCTION_HEADERS.join(" | "))?;
                writeln!(self.out, "|---|---:|---:|---:|---:|---|")?;
            }
            (TerminalFormat::Original, _) => {}
        }
        Ok(())
    }
}

/// A test whose dispatch was cut below its device's common size (to the watchdog budget).
/// Its time is shown scaled to the common size, so that every row's ms compare, and marked.
struct Cut {
    ran: u32,
    common: u32,
}

impl Cut {
    fn of(row: &Row<'_>, common_groups: u32) -> Option<Cut> {
        let m = row.measurement;
        (row.mode == Mode::Time && m.is_cut(common_groups)).then_some(Cut {
            ran: m.groups,
            common: common_groups,
        })
    }

    /// What the `*` beside the time means.
    fn note(&self) -> String {
        format!(
            "*cut to {} of {} groups by the {MAX_DISPATCH_MS:.0} ms watchdog budget; ms scaled to {}",
            self.ran, self.common, self.common
        )
    }
}

/// The median ms per dispatch; for a cut row, scaled to the common dispatch size.
fn shown_ms(row: &Row<'_>, cut: Option<&Cut>) -> Option<f64> {
    let ms = row.measurement.stats?.median_ms;
    Some(cut.map_or(ms, |c| ms * c.common as f64 / c.ran as f64))
}

/// The original's line for one row (`NAME: 0.123ms 1.000x`, `NAME: ok`, …). A row whose
/// dispatch was cut below `common_groups` shows its time scaled to that size, marked:
/// `NAME: 98.765ms* 0.123x (*cut to 40 of 138 groups …; ms scaled to 138)`.
pub fn terminal_line(row: &Row<'_>, common_groups: u32) -> String {
    let m = row.measurement;
    let name = m.name();
    match (m.status, row.mode) {
        (Status::Ok, Mode::Verify) => format!("{name}: ok"),
        // A probe of the latency curve's edge: its latency is all it timed.
        (Status::Ok, Mode::Time) if m.probe_name.is_some() => match (m.latency_clk, m.latency_ns) {
            (Some(clk), _) => format!("{name}: {clk:.1} clk per load (an edge probe)"),
            (None, Some(ns)) => format!("{name}: {ns:.2} ns per load (an edge probe)"),
            (None, None) => format!("{name}: ok (an edge probe)"),
        },
        (Status::Ok, Mode::Time) => {
            let cut = Cut::of(row, common_groups);
            let ms = shown_ms(row, cut.as_ref()).unwrap_or_default();
            let star = if cut.is_some() { "*" } else { "" };
            let line = match row.ratio {
                Some(r) => format!("{name}: {ms:.3}ms{star} {r:.3}x"),
                None => format!("{name}: {ms:.3}ms{star}"),
            };
            let line = match cut {
                Some(c) => format!("{line} ({})", c.note()),
                None => line,
            };
            match m.conditions {
                c if c.is_flagged() => format!(
                    "{line} {} (baseline {:+.1} %{})",
                    c.row().word().to_uppercase(),
                    m.drift_pct.unwrap_or(f64::NAN),
                    row.clock_mhz
                        .map_or(String::new(), |c| format!(", clock {c:.0} MHz"))
                ),
                _ => line,
            }
        }
        (Status::Unsupported, _) => format!("{name}: unsupported ({})", words(&m.notes)),
        (Status::Mismatch, _) => format!("{name}: MISMATCH {}", words(&m.notes)),
        (Status::Error, _) => format!("{name}: ERROR {}", words(&m.notes)),
        (Status::Interrupted, _) => format!("{name}: interrupted ({})", words(&m.notes)),
    }
}

/// The cells of a table row: test, ms, ratio, Gloads/s, loads/clk/CU, status. A cut row's
/// ms is scaled to `common_groups` and marked `*`, its status says so.
fn cells(row: &Row<'_>, common_groups: u32) -> [String; 6] {
    let m = row.measurement;
    let cut = Cut::of(row, common_groups);
    let status = match (m.status, &cut) {
        (Status::Ok, _) if m.conditions.is_flagged() => format!(
            "{}: baseline {:+.1} %{}",
            m.conditions.row().word(),
            m.drift_pct.unwrap_or(f64::NAN),
            row.clock_mhz
                .map_or(String::new(), |c| format!(", clock {c:.0} MHz"))
        ),
        (Status::Ok, None) => "ok".to_string(),
        (Status::Ok, Some(c)) => format!("ok ({})", c.note()),
        (s, _) => format!("{}: {}", s.word(), words(&m.notes)),
    };
    let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    let star = if cut.is_some() { "*" } else { "" };
    [
        m.name().to_string(),
        dash(num(shown_ms(row, cut.as_ref()), 4)) + star,
        dash(num(row.ratio, 3)),
        dash(num(row.gloads_per_s(), 1)),
        dash(num(row.loads_per_clk_per_cu(), 3)),
        status,
    ]
}

/// One aligned line: the test left-aligned, numbers right-aligned, status last.
fn table_line(c: &[String; 6]) -> String {
    let w = WIDTHS;
    format!(
        "{:<w0$} {:>w1$} {:>w2$} {:>w3$} {:>w4$}  {}",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        w0 = w[0],
        w1 = w[1],
        w2 = w[2],
        w3 = w[3],
        w4 = w[4]
    )
}

const HEADERS: [&str; 6] = ["test", "ms", "ratio", "Gloads/s", "loads/clk/CU", "status"];
const WIDTHS: [usize; 5] = [62, 10, 7, 10, 12];

/// The cells of an instruction row: operation, ops/clk/CU, latency, Gops/s, ms, status.
fn instruction_cells(row: &Row<'_>, common_groups: u32) -> [String; 6] {
    let m = row.measurement;
    let c = cells(row, common_groups);
    let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    [
        c[0].clone(),
        dash(num(row.loads_per_clk_per_cu(), 2)),
        dash(num(m.latency_clk, 1)),
        c[3].clone(),
        c[1].clone(),
        c[5].clone(),
    ]
}

/// One aligned instruction line.
fn instruction_line(c: &[String; 6]) -> String {
    format!(
        "{:<40} {:>11} {:>12} {:>10} {:>10}  {}",
        c[0], c[1], c[2], c[3], c[4], c[5]
    )
}

const INSTRUCTION_HEADERS: [&str; 6] = [
    "operation",
    "ops/clk/CU",
    "latency clk",
    "Gops/s",
    "ms",
    "status",
];

impl<W: Write> Reporter for Terminal<W> {
    fn begin_device(
        &mut self,
        device: &DeviceInfo,
        calibration: Option<&Calibration>,
    ) -> Result<()> {
        self.common_groups = calibration.map_or(0, |c| c.groups);
        self.table = None;
        if self.format == TerminalFormat::Markdown {
            writeln!(self.out, "\n**{}** ({})\n", device.name, device.driver())?;
        } else if self.format == TerminalFormat::Table && self.labelled {
            writeln!(
                self.out,
                "\ndevice {}: {} ({})",
                device.index,
                device.name,
                device.driver()
            )?;
        }
        Ok(())
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        // The latency suite's rows are read in clocks per load, as the instructions' latency;
        // the matrix suite's in operations (flops) per clock and clocks per dependent one.
        let table = if matches!(
            row.measurement.test.suite(),
            Suite::Instructions | Suite::Latency | Suite::Matrix
        ) {
            Table::Instructions
        } else {
            Table::Loads
        };
        if self.format != TerminalFormat::Original {
            self.header(table)?;
        }
        let cells = match table {
            Table::Loads => cells(row, self.common_groups),
            Table::Instructions => instruction_cells(row, self.common_groups),
        };
        match self.format {
            TerminalFormat::Original => {
                writeln!(self.out, "{}", terminal_line(row, self.common_groups))?
            }
            TerminalFormat::Table => match table {
                Table::Loads => writeln!(self.out, "{}", table_line(&cells))?,
                Table::Instructions => writeln!(self.out, "{}", instruction_line(&cells))?,
            },
            TerminalFormat::Markdown => {
                let mut c = cells.map(|c| c.replace('|', "\\|").replace('*', "\\*"));
                // Backticks keep GitHub from reading `<R8>` as an HTML tag.
                c[0] = format!("`{}`", c[0]);
                writeln!(self.out, "| {} |", c.join(" | "))?;
            }
        }
        self.out.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `format` prints when two devices begin (labelled as for a run of several).
    fn two_devices(format: TerminalFormat, labelled: bool) -> String {
        let mut out = Vec::new();
        {
            let mut t = Terminal::new(&mut out, format).labelled(labelled);
            for (i, name) in ["GPU A", "GPU B"].into_iter().enumerate() {
                t.begin_device(&DeviceInfo::for_tests(i, name), None)
                    .unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn tables_of_several_devices_say_whose_they_are() {
        let out = two_devices(TerminalFormat::Table, true);
        assert!(
            out.contains("device 0: GPU A") && out.contains("device 1: GPU B"),
            "{out}"
        );
        // One device: the table starts at once, as before.
        assert!(two_devices(TerminalFormat::Table, false).is_empty());
        assert!(two_devices(TerminalFormat::Markdown, false).contains("**GPU B**"));
    }
}
