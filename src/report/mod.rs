//! Reporters — terminal (original lines, table, Markdown), CSV and JSON — behind one interface.

mod json;
pub use perftest_results::path;
mod terminal;
pub use json::Json;
pub use terminal::{terminal_line, Terminal, TerminalFormat};

use crate::catalog::TestCase;
use crate::gpu::DeviceInfo;
use crate::runner::{Calibration, Measurement, Mode, TimeSpent};
use anyhow::Result;
use perftest_results::document::DeviceId;
use std::io::Write;
use std::sync::OnceLock;

/// The machine's name in the rows, set once per process: it is the run's, as the provenance
/// columns are, so it is kept beside them rather than carried through every device's sink.
static HOST: OnceLock<String> = OnceLock::new();

/// Names the machine in the rows (`--host NAME`; `None`: the host name). The first call
/// wins: a process runs on one machine.
pub fn set_host(name: Option<&str>) {
    let _ = HOST.set(name.map_or_else(host_name, str::to_string));
}

/// The machine's name in the rows: as [`set_host`] set it, else the host name.
pub fn host() -> &'static str {
    HOST.get_or_init(host_name)
}

/// The operating system's name for this machine (empty where it has none that is text).
fn host_name() -> String {
    gethostname::gethostname().into_string().unwrap_or_default()
}

/// The host CPU's data caches as the kernel reports them (read once): what a CPU device's
/// rows carry in `host_caches`, since that device is the host CPU.
fn host_caches() -> &'static [perftest_results::cpu_caches::CpuCache] {
    static CACHES: OnceLock<Vec<perftest_results::cpu_caches::CpuCache>> = OnceLock::new();
    CACHES.get_or_init(|| {
        perftest_results::cpu_caches::read_sysfs(std::path::Path::new(
            perftest_results::cpu_caches::SYSFS,
        ))
    })
}

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
        self.measurement.gloads_per_s()
    }

    /// Bytes loaded per second, in billions (bytes per load × loads/s), when timed.
    pub fn gbytes_per_s(&self) -> Option<f64> {
        self.measurement.gbytes_per_s()
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
    /// Called once a device's rows are in, with where its run spent its wall time.
    fn end_device(&mut self, _device: &DeviceInfo, _spent: &TimeSpent) -> Result<()> {
        Ok(())
    }
    /// Called once after the last row; `interrupted` when the run was cut short.
    fn finish(&mut self, _interrupted: bool) -> Result<()> {
        Ok(())
    }
}

/// Which outputs a call reaches, where several devices run at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outputs {
    /// Those read top to bottom (the terminal): one device's rows after another's.
    InTurn,
    /// The others (CSV, JSON, the kept rows): each row as it comes, whichever device's.
    AsTheyCome,
}

/// One output, named for error messages, and how it takes several devices' rows.
struct Output {
    name: String,
    reporter: Box<dyn Reporter>,
    alive: bool,
    takes: Outputs,
}

/// Every output of a run. One failing output (a closed pipe, a full disk) is reported once
/// and dropped; the others still get every row, so nothing measured is lost.
pub struct Reporters {
    outputs: Vec<Output>,
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

    /// Adds an output, named for error messages (e.g. `--csv out.csv`), that takes
    /// several devices' rows as they come.
    pub fn push(&mut self, name: impl Into<String>, reporter: Box<dyn Reporter>) {
        self.push_taking(name, reporter, Outputs::AsTheyCome);
    }

    /// Adds an output that takes several devices' rows as `takes` says.
    pub fn push_taking(
        &mut self,
        name: impl Into<String>,
        reporter: Box<dyn Reporter>,
        takes: Outputs,
    ) {
        self.outputs.push(Output {
            name: name.into(),
            reporter,
            alive: true,
            takes,
        });
    }

    fn each(&mut self, only: Option<Outputs>, mut f: impl FnMut(&mut dyn Reporter) -> Result<()>) {
        let outputs = self
            .outputs
            .iter_mut()
            .filter(|o| o.alive && only.is_none_or(|t| o.takes == t));
        for o in outputs {
            if let Err(e) = f(o.reporter.as_mut()) {
                eprintln!(
                    "perftest: cannot write {}: {e:#}; it gets no more rows",
                    o.name
                );
                o.alive = false;
                self.failed = true;
            }
        }
    }

    /// Passes `begin_device` to the live outputs of kind `outputs`.
    pub fn begin_device(
        &mut self,
        outputs: Outputs,
        device: &DeviceInfo,
        calibration: Option<&Calibration>,
    ) {
        self.each(Some(outputs), |r| r.begin_device(device, calibration));
    }

    /// Passes `end_device` to the live outputs of kind `outputs`.
    pub fn end_device(&mut self, outputs: Outputs, device: &DeviceInfo, spent: &TimeSpent) {
        self.each(Some(outputs), |r| r.end_device(device, spent));
    }

    /// Passes a row to the live outputs of kind `outputs`.
    pub fn row(&mut self, outputs: Outputs, row: &Row<'_>) {
        self.each(Some(outputs), |r| r.row(row));
    }

    /// Finishes every live output.
    pub fn finish(&mut self, interrupted: bool) {
        self.each(None, |r| r.finish(interrupted));
    }
}

impl Default for Reporters {
    fn default() -> Self {
        Self::new()
    }
}

/// What names device `d` in both result files: the JSON's device entry and each CSV row.
pub fn device_id(d: &DeviceInfo) -> DeviceId {
    let (vendor_id, device_id) = d.pci_ids();
    DeviceId {
        // Device indices are small (the devices of one machine).
        index: d.index as u32,
        name: d.name.clone(),
        device_type: d.device_type.name().to_string(),
        vendor_id,
        device_id,
    }
}

/// The result row of `row`: every CSV column and JSON row key, typed (the CSV and JSON
/// writers and every reader share it: `perftest_results::Row`).
pub fn result_row(row: &Row<'_>) -> perftest_results::Row {
    let d = row.device;
    let m = row.measurement;
    let t: &TestCase = &m.test;
    let columns = t.columns();
    let s = m.stats;
    let id = device_id(d);
    perftest_results::Row {
        device_index: id.index,
        device_name: id.name,
        device_type: id.device_type,
        vendor_id: id.vendor_id,
        device_id: id.device_id,
        driver: d.driver(),
        api_version: d.api_version_string(),
        test_index: row.test_index as u32,
        test: m.name().to_string(),
        family: columns.family.to_string(),
        resource: columns.resource.to_string(),
        format: columns.format.clone(),
        pattern: t.pattern().name().to_string(),
        mode: Some(row.mode),
        // A test that never ran has no dispatch size.
        groups: (m.groups > 0).then_some(m.groups),
        // A self-timed test (a copy) counts its own bytes with no workgroups.
        loads_per_dispatch: (m.groups > 0 || m.stats.is_some())
            .then(|| t.loads_per_dispatch(m.groups)),
        ms_median: s.map(|s| s.median_ms),
        ms_min: s.map(|s| s.min_ms),
        ms_mean: s.map(|s| s.mean_ms),
        cv_pct: s.map(|s| s.cv_pct),
        samples: s.map(|s| s.samples),
        ratio: row.ratio,
        gloads_per_s: row.gloads_per_s(),
        gbytes_per_s: row.gbytes_per_s(),
        status: Some(m.status),
        // One line per row, whatever the note holds.
        reason: perftest_results::note::words(&m.notes).replace(['\n', '\r'], " "),
        clock_mhz: row.clock_mhz,
        compute_units: d.compute_units.map(|(n, _)| n),
        loads_per_clk_per_cu: row.loads_per_clk_per_cu(),
        bytes_per_clk_per_cu: row.bytes_per_clk_per_cu(),
        warmup: Some(row.warmup),
        tool_version: crate::provenance::TOOL_VERSION.to_string(),
        git_commit: crate::provenance::GIT_COMMIT.to_string(),
        shaderc_version: crate::provenance::SHADERC_VERSION.to_string(),
        spirv_hash: crate::provenance::spirv_hash(t.kernel().kernel()),
        driver_version: d.driver_version_string(),
        timestamp_period_ns: Some(d.timestamp_period),
        timestamp_valid_bits: d.compute_queue.map(|(_, b)| b),
        conditions: m.conditions.row(),
        drift_pct: m.drift_pct,
        memory: m.memory.clone(),
        latency_clk: m.latency_clk,
        unit: Some(t.unit()),
        latency_spread_pct: m.latency_spread_pct,
        driver_sm_mhz: m.driver.and_then(|d| d.sm_mhz),
        driver_mem_mhz: m.driver.and_then(|d| d.mem_mhz),
        power_w: m.driver.and_then(|d| d.power_w),
        temp_c: m.driver.and_then(|d| d.temp_c),
        clock_events: m
            .driver
            .and_then(|d| d.reasons)
            .map(perftest_results::ClockEvents::of_row)
            .unwrap_or_default(),
        host: host().to_string(),
        device_uuid: d.uuid_string(),
        latency_ns: m.latency_ns,
        host_caches: match d.device_type {
            crate::gpu::DeviceType::Cpu => host_caches().to_vec(),
            _ => Vec::new(),
        },
        subgroup_size: m.subgroup_size,
        working_set_bytes: m.working_set_bytes,
    }
}

/// The CSV output (a file, `.gz` compressed, or stdout): a header, then each row flushed
/// as its test finishes.
pub struct Csv {
    writer: perftest_results::CsvWriter,
}

impl Csv {
    /// Starts the CSV on `out` (gzip-compressed where `gzip`) and writes the header at once.
    pub fn new(out: Box<dyn Write>, gzip: bool) -> Result<Self> {
        Ok(Csv {
            writer: perftest_results::CsvWriter::new(out, gzip)?,
        })
    }
}

impl Reporter for Csv {
    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.writer.row(&result_row(row))
    }

    fn finish(&mut self, _interrupted: bool) -> Result<()> {
        self.writer.finish()
    }
}

/// The run's rows, kept for the summary at its end.
#[derive(Default)]
pub struct Kept {
    rows: std::rc::Rc<std::cell::RefCell<Vec<perftest_results::Row>>>,
}

impl Kept {
    /// A reporter that adds each row to these.
    pub fn reporter(&self) -> Box<dyn Reporter> {
        Box::new(Kept {
            rows: self.rows.clone(),
        })
    }

    /// The rows kept so far.
    pub fn rows(&self) -> std::cell::Ref<'_, Vec<perftest_results::Row>> {
        self.rows.borrow()
    }
}

impl Reporter for Kept {
    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.rows.borrow_mut().push(result_row(row));
        Ok(())
    }
}

/// When the run started: the wall clock (for the JSON document's `started`) and the
/// monotonic one (for its `wall_s`), taken by the first call (at the start of the run).
pub fn run_started() -> &'static (std::time::SystemTime, std::time::Instant) {
    static STARTED: std::sync::OnceLock<(std::time::SystemTime, std::time::Instant)> =
        std::sync::OnceLock::new();
    STARTED.get_or_init(|| (std::time::SystemTime::now(), std::time::Instant::now()))
}

/// The run's start in UTC, to the second (RFC 3339: `2026-11-28T05:12:03Z`).
pub fn started_utc() -> String {
    humantime::format_rfc3339_seconds(run_started().0).to_string()
}

/// Seconds since the run started.
pub fn wall_s() -> f64 {
    run_started().1.elapsed().as_secs_f64()
}

/// Where a device's run spent its wall time, as one line: the total, then each phase.
pub fn time_spent_line(spent: &TimeSpent) -> String {
    let mut parts: Vec<String> = spent
        .phases
        .iter()
        .filter(|(_, s)| *s >= 0.05)
        .map(|(p, s)| format!("{} {s:.1}", p.name()))
        .collect();
    parts.push(format!("other {:.1}", spent.other_s()));
    format!("{:.1} s: {} (s)", spent.total_s, parts.join(", "))
}
