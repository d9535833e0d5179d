//! Reporters — terminal (original lines, table, Markdown), CSV and JSON — behind one interface.

mod json;
pub use perftest_results::path;
mod terminal;
pub use json::Json;
pub use terminal::{terminal_line, Terminal, TerminalFormat};

use crate::catalog::TestCase;
use crate::gpu::DeviceInfo;
use crate::runner::{Calibration, Measurement, Mode};
use anyhow::{Context as _, Result};
use std::io::Write;

/// One finished test, ready to report.
pub struct Row<'a> {
    pub device: &'a DeviceInfo,
    /// 1-based position of the test in the full suite (stable under `--filter`).
    pub test_index: usize,
    pub measurement: &'a Measurement,
    /// Throughput of the test over that of the baseline (loads per ms), when both were timed:
    /// time(baseline) / time(test) when both ran the same dispatch size.
    pub ratio: Option<f64>,
    pub mode: Mode,
    /// The device's measured shader clock, where known.
    pub clock_mhz: Option<f64>,
    /// Untimed dispatches per test.
    pub warmup: u32,
}

impl Row<'_> {
    /// Loads per second, in billions, when timed.
    pub fn gloads_per_s(&self) -> Option<f64> {
        let m = self.measurement;
        let stats = m.stats?;
        Some(m.test.loads_per_dispatch(m.groups) as f64 / (stats.median_ms * 1e-3) / 1e9)
    }

    /// Bytes loaded per second, in billions (bytes per load × loads/s), when timed.
    pub fn gbytes_per_s(&self) -> Option<f64> {
        Some(self.gloads_per_s()? * self.measurement.test.bytes_per_load()? as f64)
    }

    /// Loads per shader clock per compute unit, when the clock and the unit count are known.
    pub fn loads_per_clk_per_cu(&self) -> Option<f64> {
        let (cus, _) = self.device.compute_units?;
        Some(self.gloads_per_s()? * 1e3 / self.clock_mhz? / cus as f64)
    }

    /// Bytes per shader clock per compute unit.
    pub fn bytes_per_clk_per_cu(&self) -> Option<f64> {
        Some(self.loads_per_clk_per_cu()? * self.measurement.test.bytes_per_load()? as f64)
    }
}

/// Something that receives rows as tests finish.
pub trait Reporter {
    /// Called when a device's run starts, before its rows.
    fn begin_device(
        &mut self,
        _device: &DeviceInfo,
        _calibration: Option<&Calibration>,
    ) -> Result<()> {
        Ok(())
    }
    /// Called once per finished test, in run order; should make the row durable at once.
    fn row(&mut self, row: &Row<'_>) -> Result<()>;
    /// Called once after the last row; `interrupted` when the run was cut short.
    fn finish(&mut self, _interrupted: bool) -> Result<()> {
        Ok(())
    }
}

/// Every output of a run. One failing output (a closed pipe, a full disk) is reported once
/// and dropped; the others still get every row, so nothing measured is lost.
pub struct Reporters {
    outputs: Vec<(String, Box<dyn Reporter>, bool)>,
    /// Whether any output failed (the run then exits 1).
    pub failed: bool,
}

impl Reporters {
    /// No outputs yet.
    pub fn new() -> Self {
        Reporters {
            outputs: Vec::new(),
            failed: false,
        }
    }

    /// Adds an output, named for error messages (e.g. `--csv out.csv`).
    pub fn push(&mut self, name: impl Into<String>, reporter: Box<dyn Reporter>) {
        self.outputs.push((name.into(), reporter, true));
    }

    fn each(&mut self, mut f: impl FnMut(&mut dyn Reporter) -> Result<()>) {
        for (name, r, alive) in self.outputs.iter_mut().filter(|o| o.2) {
            if let Err(e) = f(r.as_mut()) {
                eprintln!("perftest: cannot write {name}: {e:#}; it gets no more rows");
                *alive = false;
                self.failed = true;
            }
        }
    }

    /// Passes `begin_device` to every live output.
    pub fn begin_device(&mut self, device: &DeviceInfo, calibration: Option<&Calibration>) {
        self.each(|r| r.begin_device(device, calibration));
    }

    /// Passes a row to every live output.
    pub fn row(&mut self, row: &Row<'_>) {
        self.each(|r| r.row(row));
    }

    /// Finishes every live output.
    pub fn finish(&mut self, interrupted: bool) {
        self.each(|r| r.finish(interrupted));
    }
}

impl Default for Reporters {
    fn default() -> Self {
        Self::new()
    }
}

/// How a column's cells are typed where the format has types (JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A number (written empty / null when absent).
    Number,
    /// Text, even when it looks like a number (ids, hashes, versions).
    Text,
}

use Kind::{Number, Text};

/// The result columns, in order, with their kinds: the CSV header and the JSON row keys.
/// New columns are only ever appended.
pub const COLUMNS: &[(&str, Kind)] = &[
    ("device_index", Number),
    ("device_name", Text),
    ("device_type", Text),
    ("vendor_id", Text),
    ("device_id", Text),
    ("driver", Text),
    ("api_version", Text),
    ("test_index", Number),
    ("test", Text),
    ("family", Text),
    ("resource", Text),
    ("format", Text),
    ("pattern", Text),
    ("mode", Text),
    ("groups", Number),
    ("loads_per_dispatch", Number),
    ("ms_median", Number),
    ("ms_min", Number),
    ("ms_mean", Number),
    ("cv_pct", Number),
    ("samples", Number),
    ("ratio", Number),
    ("gloads_per_s", Number),
    ("gbytes_per_s", Number),
    ("status", Text),
    ("reason", Text),
    ("clock_mhz", Number),
    ("compute_units", Number),
    ("loads_per_clk_per_cu", Number),
    ("bytes_per_clk_per_cu", Number),
    ("warmup", Number),
    ("tool_version", Text),
    ("git_commit", Text),
    ("shaderc_version", Text),
    ("spirv_hash", Text),
    ("driver_version", Text),
    ("timestamp_period_ns", Number),
    ("timestamp_valid_bits", Number),
    ("conditions", Text),
    ("drift_pct", Number),
    ("memory", Text),
    ("latency_clk", Number),
    ("unit", Text),
    ("latency_spread_pct", Number),
    ("driver_sm_mhz", Number),
    ("driver_mem_mhz", Number),
    ("power_w", Number),
    ("temp_c", Number),
    ("clock_events", Text),
];

/// A CSV file (or stdout) with a header and one flushed row per finished test.
pub struct Csv {
    writer: csv::Writer<Box<dyn Write>>,
}

impl Csv {
    /// Starts the CSV on `out` and writes the header at once.
    pub fn new(out: Box<dyn Write>) -> Result<Self> {
        let mut writer = csv::Writer::from_writer(out);
        writer
            .write_record(COLUMNS.iter().map(|(name, _)| name))
            .context("writing the CSV header")?;
        writer.flush().context("writing the CSV header")?;
        Ok(Csv { writer })
    }
}

/// A number with `decimals`, or an empty cell when absent or not finite.
pub(crate) fn num(v: Option<f64>, decimals: usize) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.decimals$}"),
        _ => String::new(),
    }
}

/// `v` with at least four decimals and at least `digits` significant digits (a ratio of
/// 0.00065 keeps its digits, where four decimals would round it by 8 %).
pub(crate) fn significant(v: Option<f64>, digits: i32) -> String {
    match v {
        Some(v) if v.is_finite() && v != 0.0 => {
            let magnitude = v.abs().log10().floor() as i32;
            let decimals = (digits - 1 - magnitude).max(4) as usize;
            format!("{v:.decimals$}")
        }
        _ => num(v, 4),
    }
}

/// The CSV fields of one row, in [`COLUMNS`] order.
pub fn csv_fields(row: &Row<'_>) -> Vec<String> {
    let d = row.device;
    let m = row.measurement;
    let t: &TestCase = &m.test;
    let columns = t.columns();
    let s = m.stats;
    vec![
        d.index.to_string(),
        d.name.clone(),
        d.device_type.name().to_string(),
        format!("0x{:04x}", d.vendor_id),
        format!("0x{:04x}", d.device_id),
        d.driver(),
        d.api_version_string(),
        row.test_index.to_string(),
        t.name().to_string(),
        columns.family.to_string(),
        columns.resource.to_string(),
        columns.format.clone(),
        t.pattern().name().to_string(),
        match row.mode {
            Mode::Time => "time".into(),
            Mode::Verify => "verify".into(),
        },
        // A test that never ran has no dispatch size.
        if m.groups > 0 {
            m.groups.to_string()
        } else {
            String::new()
        },
        // A self-timed test (a copy) counts its own bytes with no workgroups.
        if m.groups > 0 || m.stats.is_some() {
            t.loads_per_dispatch(m.groups).to_string()
        } else {
            String::new()
        },
        num(s.map(|s| s.median_ms), 6),
        num(s.map(|s| s.min_ms), 6),
        num(s.map(|s| s.mean_ms), 6),
        num(s.map(|s| s.cv_pct), 3),
        s.map(|s| s.samples.to_string()).unwrap_or_default(),
        significant(row.ratio, 4),
        num(row.gloads_per_s(), 3),
        num(row.gbytes_per_s(), 3),
        m.status.name().to_string(),
        perftest_results::note::words(&m.notes).replace(['\n', '\r'], " "),
        num(row.clock_mhz, 1),
        d.compute_units
            .map(|(n, _)| n.to_string())
            .unwrap_or_default(),
        num(row.loads_per_clk_per_cu(), 4),
        num(row.bytes_per_clk_per_cu(), 3),
        row.warmup.to_string(),
        crate::provenance::TOOL_VERSION.to_string(),
        crate::provenance::GIT_COMMIT.to_string(),
        crate::provenance::SHADERC_VERSION.to_string(),
        crate::provenance::spirv_hash(t.kernel().kernel()),
        d.driver_version_string(),
        format!("{}", d.timestamp_period),
        d.compute_queue
            .map(|(_, b)| b.to_string())
            .unwrap_or_default(),
        m.conditions.name().to_string(),
        num(m.drift_pct, 2),
        m.memory.clone(),
        num(m.latency_clk, 2),
        t.unit().name().to_string(),
        num(m.latency_spread_pct, 2),
        num(m.driver.and_then(|d| d.sm_mhz), 1),
        num(m.driver.and_then(|d| d.mem_mhz), 1),
        num(m.driver.and_then(|d| d.power_w), 1),
        num(m.driver.and_then(|d| d.temp_c), 0),
        m.driver
            .and_then(|d| d.reasons)
            .map(crate::gpu::mgmt::reason_names)
            .unwrap_or_default(),
    ]
}

impl Reporter for Csv {
    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.writer
            .write_record(csv_fields(row))
            .context("writing a CSV row")?;
        self.writer.flush().context("writing a CSV row")?;
        Ok(())
    }

    fn finish(&mut self, _interrupted: bool) -> Result<()> {
        self.writer.flush().context("closing the CSV")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_ratios_keep_four_significant_digits() {
        assert_eq!(significant(Some(0.00064731), 4), "0.0006473");
        assert_eq!(significant(Some(1.41723), 4), "1.4172");
        assert_eq!(significant(Some(12.5), 4), "12.5000");
        assert_eq!(significant(None, 4), "");
    }
}
