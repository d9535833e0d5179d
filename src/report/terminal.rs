//! Results on stdout: the original's lines, an aligned table, or a Markdown table. In a table,
//! the instruction suite's rows get a table of their own: operation, operations per clock per
//! compute unit, latency in clocks (the layout of a hand-made instruction timing table).

use super::{num, Reporter, Row};
use crate::catalog::Suite;
use crate::gpu::DeviceInfo;
use crate::runner::{Calibration, Mode, Status};
use anyhow::Result;
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
    /// The table whose header was printed last on this device (tables only).
    table: Option<Table>,
}

/// The two tables of the table layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    /// Load tests: ms, ratio, Gloads/s, loads/clk/CU.
    Loads,
    /// The instruction suite: ops/clk/CU, latency, Gops/s, ms.
    Instructions,
}

impl<W: Write> Terminal<W> {
    pub fn new(out: W, format: TerminalFormat) -> Self {
        Terminal {
            out,
            format,
            table: None,
        }
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

/// The original's line for one row (`NAME: 0.123ms 1.000x`, `NAME: ok`, …).
pub fn terminal_line(row: &Row<'_>) -> String {
    let m = row.measurement;
    let name = m.test.name();
    match (m.status, row.mode) {
        (Status::Ok, Mode::Verify) => format!("{name}: ok"),
        (Status::Ok, Mode::Time) => {
            let ms = m.stats.map(|s| s.median_ms).unwrap_or_default();
            match row.ratio {
                Some(r) => format!("{name}: {ms:.3}ms {r:.3}x"),
                None => format!("{name}: {ms:.3}ms"),
            }
        }
        (Status::Unsupported, _) => format!("{name}: unsupported ({})", m.reason),
        (Status::Mismatch, _) => format!("{name}: MISMATCH {}", m.reason),
        (Status::Error, _) => format!("{name}: ERROR {}", m.reason),
        (Status::Interrupted, _) => format!("{name}: interrupted ({})", m.reason),
    }
}

/// The cells of a table row: test, ms, ratio, Gloads/s, loads/clk/CU, status.
fn cells(row: &Row<'_>) -> [String; 6] {
    let m = row.measurement;
    let status = match m.status {
        Status::Ok => "ok".to_string(),
        s => format!("{}: {}", s.name(), m.reason),
    };
    let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    [
        m.test.name(),
        dash(num(m.stats.map(|s| s.median_ms), 4)),
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
fn instruction_cells(row: &Row<'_>) -> [String; 6] {
    let m = row.measurement;
    let c = cells(row);
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
    fn begin_device(&mut self, device: &DeviceInfo, _: Option<&Calibration>) -> Result<()> {
        self.table = None;
        if self.format == TerminalFormat::Markdown {
            writeln!(self.out, "\n**{}** ({})\n", device.name, device.driver())?;
        }
        Ok(())
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let table = if row.measurement.test.suite() == Suite::Instructions {
            Table::Instructions
        } else {
            Table::Loads
        };
        if self.format != TerminalFormat::Original {
            self.header(table)?;
        }
        let cells = match table {
            Table::Loads => cells(row),
            Table::Instructions => instruction_cells(row),
        };
        match self.format {
            TerminalFormat::Original => writeln!(self.out, "{}", terminal_line(row))?,
            TerminalFormat::Table => match table {
                Table::Loads => writeln!(self.out, "{}", table_line(&cells))?,
                Table::Instructions => writeln!(self.out, "{}", instruction_line(&cells))?,
            },
            TerminalFormat::Markdown => {
                let mut c = cells.map(|c| c.replace('|', "\\|"));
                // Backticks keep GitHub from reading `<R8>` as an HTML tag.
                c[0] = format!("`{}`", c[0]);
                writeln!(self.out, "| {} |", c.join(" | "))?;
            }
        }
        self.out.flush()?;
        Ok(())
    }
}
