//! Results on stdout: the original's lines, an aligned table, or a Markdown table.

use super::{num, Reporter, Row};
use crate::gpu::DeviceInfo;
use crate::runner::{Calibration, Conditions, Mode, Status};
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
}

impl<W: Write> Terminal<W> {
    pub fn new(out: W, format: TerminalFormat) -> Self {
        Terminal { out, format }
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
            let line = match row.ratio {
                Some(r) => format!("{name}: {ms:.3}ms {r:.3}x"),
                None => format!("{name}: {ms:.3}ms"),
            };
            match m.conditions {
                Conditions::Disturbed => format!(
                    "{line} DISTURBED (baseline {:+.1} %)",
                    m.drift_pct.unwrap_or(f64::NAN)
                ),
                _ => line,
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
        Status::Ok if m.conditions == Conditions::Disturbed => format!(
            "disturbed: baseline {:+.1} %",
            m.drift_pct.unwrap_or(f64::NAN)
        ),
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

impl<W: Write> Reporter for Terminal<W> {
    fn begin_device(&mut self, device: &DeviceInfo, _: Option<&Calibration>) -> Result<()> {
        match self.format {
            TerminalFormat::Original => {}
            TerminalFormat::Table => {
                writeln!(self.out, "{}", table_line(&HEADERS.map(String::from)))?;
            }
            TerminalFormat::Markdown => {
                writeln!(self.out, "\n**{}** ({})\n", device.name, device.driver())?;
                writeln!(self.out, "| {} |", HEADERS.join(" | "))?;
                writeln!(self.out, "|---|---:|---:|---:|---:|---|")?;
            }
        }
        Ok(())
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        match self.format {
            TerminalFormat::Original => writeln!(self.out, "{}", terminal_line(row))?,
            TerminalFormat::Table => {
                writeln!(self.out, "{}", table_line(&cells(row)))?;
            }
            TerminalFormat::Markdown => {
                let mut c = cells(row).map(|c| c.replace('|', "\\|"));
                // Backticks keep GitHub from reading `<R8>` as an HTML tag.
                c[0] = format!("`{}`", c[0]);
                writeln!(self.out, "| {} |", c.join(" | "))?;
            }
        }
        self.out.flush()?;
        Ok(())
    }
}
