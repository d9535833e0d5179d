//! `perftest summary`: what a GPU is, on one screen — cache edges, latencies, bandwidths,
//! arithmetic peaks and dispatch costs derived from a run's rows by the rules of
//! docs/summary.md, each beside the vendor's published figure and the rows it came from.
//!
//! A reporter over result rows (layer 5): the typed rows `compare/read.rs` reads from files,
//! or a run's own (`--summary`, handed over as they are), and the catalog for the original
//! suite's names; never the runner.

mod curve;
mod derive;
pub mod health;
pub mod host_cpu;
pub mod json;
pub mod parts;
#[cfg(test)]
mod tests;
pub mod text;
pub mod units;
pub mod vendor;

use crate::compare::read;
use crate::row::Row;
use crate::Catalog;
use anyhow::{bail, Result};
use std::collections::HashMap;
use std::path::PathBuf;

pub use json::json;
pub use text::text;

/// One GPU's rows, from every file that has it (where files repeat a test, the first
/// file's row; of a latency row, the fastest).
#[derive(Debug, Default)]
pub struct Device {
    pub name: String,
    pub driver: String,
    pub rows: Vec<Row>,
    by_test: HashMap<String, usize>,
    /// The files it came from.
    pub files: Vec<String>,
    /// Its deviceUUID, where its rows carry one.
    pub uuid: String,
    /// Each file's device index it had there.
    seen: Vec<(String, u32)>,
    /// Which of several GPUs of one name and driver it is (`device 1, 467b60a8`), where the
    /// sources have several; else empty.
    pub which: String,
}

impl Device {
    /// A device of `rows` (a later row that repeats a test is left out; of a latency row,
    /// the slower).
    pub fn new(name: &str, driver: &str, rows: Vec<Row>) -> Self {
        let mut d = Device {
            name: name.into(),
            driver: driver.into(),
            ..Default::default()
        };
        for r in rows {
            d.push(r);
        }
        d
    }

    fn push(&mut self, row: Row) {
        match self.by_test.get(&row.test) {
            None => {
                self.by_test.insert(row.test.clone(), self.rows.len());
                self.rows.push(row);
            }
            // A dependent chain's latency, read in several passes: the fastest. A host's
            // slow spells (lavapipe's timing has spells 1.5× slower that last seconds) and
            // a GPU's lower clocks only ever add time, so the fastest pass is the device's.
            Some(&i) if row.ok() && chain_latency(&row) < chain_latency(&self.rows[i]) => {
                self.rows[i] = row;
            }
            Some(_) => {}
        }
    }

    /// The row of `test`, if any file has it.
    pub fn get(&self, test: &str) -> Option<&Row> {
        self.by_test.get(test).map(|i| &self.rows[*i])
    }
}

/// A row's dependent-chain latency (clk, else ns), infinite for any other row, or one
/// that did not run: what [`Device::push`] keeps the lowest of.
fn chain_latency(row: &Row) -> f64 {
    row.latency_clk
        .or(row.latency_ns)
        .filter(|_| row.ok())
        .unwrap_or(f64::INFINITY)
}

/// One line of a summary: a value measured (or why it is left out), the vendor's figure
/// beside it, and the rows it came from.
#[derive(Clone, Debug)]
pub struct Item {
    pub what: String,
    /// The value as text, or why the rows cannot support it.
    pub value: std::result::Result<String, String>,
    /// The value in the vendor figure's unit, as a range (lo, hi) where the sampling grid
    /// allows no single number (a cache edge), for the ratio.
    pub measured: Option<(f64, f64)>,
    pub vendor: Option<vendor::Figure>,
    /// The rows it came from: test names or a compact range.
    pub from: String,
    /// How the fleet verdict judges the item (docs/fleet.md): its subsystem, which way is
    /// worse and the tests under it; `None` for what no GPU is judged on (a cache's size,
    /// the unit count, the clock).
    pub judged: Option<Judged>,
    /// The figures `value` shows, each with its unit (for `summary --json`); empty where
    /// the value is left out.
    pub quantities: Vec<Quantity>,
}

/// One figure of an item, typed: a value (or a range), its unit, and the working sets it
/// holds over where an item has one figure per level (`6–64 KB: 112 clk`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Quantity {
    pub value: f64,
    /// The range's upper end (a cache edge lies between two sizes of the sweep); `None`
    /// for a single value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<f64>,
    pub unit: Unit,
    /// The working sets (bytes, first and last) the figure holds over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sizes: Option<(u64, u64)>,
}

impl Quantity {
    /// A single value in `unit`.
    pub fn of(value: f64, unit: Unit) -> Self {
        Quantity {
            value,
            to: None,
            unit,
            sizes: None,
        }
    }

    /// The range `lo` to `hi` in `unit`.
    pub fn range(lo: f64, hi: f64, unit: Unit) -> Self {
        Quantity {
            to: Some(hi),
            ..Quantity::of(lo, unit)
        }
    }

    /// The figure, holding over working sets `first` to `last` (bytes).
    pub fn over(self, first: u64, last: u64) -> Self {
        Quantity {
            sizes: Some((first, last)),
            ..self
        }
    }
}

/// The unit of a [`Quantity`], as the JSON spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Unit {
    #[serde(rename = "count")]
    Count,
    #[serde(rename = "MHz")]
    Mhz,
    #[serde(rename = "B")]
    Bytes,
    #[serde(rename = "clk")]
    Clocks,
    #[serde(rename = "ns")]
    Nanoseconds,
    #[serde(rename = "µs")]
    Microseconds,
    #[serde(rename = "B/clk/CU")]
    BytesPerClockPerCu,
    #[serde(rename = "TB/s")]
    TerabytesPerSecond,
    #[serde(rename = "GB/s")]
    GigabytesPerSecond,
    #[serde(rename = "flops/clk/CU")]
    FlopsPerClockPerCu,
    #[serde(rename = "ops/clk/CU")]
    OpsPerClockPerCu,
    #[serde(rename = "TFLOP/s")]
    Teraflops,
    #[serde(rename = "TOP/s")]
    Teraops,
    #[serde(rename = "loads/clk/CU")]
    LoadsPerClockPerCu,
    #[serde(rename = "Gloads/s")]
    GigaloadsPerSecond,
    /// A throughput ratio to the original's baseline.
    #[serde(rename = "ratio")]
    Ratio,
}

/// A part of the GPU the fleet verdict judges on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subsystem {
    /// A cache level, 1-based (1 = L1, 2 = L2), as the latency curve's plateaus count them.
    Cache(u8),
    /// The far part of cache level n (1-based): a latency step with no bandwidth step of its
    /// own, as the H100's far L2 partition.
    FarPart(u8),
    Memory,
    /// Copies between host and device memory, both ways.
    HostLink,
    /// The arithmetic peaks outside the matrix units (fp32, fp16, fp64, int32).
    Arithmetic,
    /// Dot products and cooperative-matrix peaks.
    Matrix,
    Dispatch,
    /// Dispatches bound by the host's submission path (one submit each, a submit and wait):
    /// the machine's CPU and driver, not the GPU.
    HostSubmit,
    /// The original suite's best and worst loads per pattern.
    LoadPath,
    /// Stores per resource type at each level, and atomics.
    WritePath,
    /// Bilinear filtering.
    TextureFilter,
    SharedMemory,
    /// Subgroup operations.
    Subgroup,
}

impl std::fmt::Display for Subsystem {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Subsystem::Cache(1) => f.write_str("L1"),
            Subsystem::Cache(2) => f.write_str("L2"),
            Subsystem::Cache(n) => write!(f, "cache level {n}"),
            Subsystem::FarPart(2) => f.write_str("L2 far part"),
            Subsystem::FarPart(n) => write!(f, "cache level {n} far part"),
            Subsystem::Memory => f.write_str("memory"),
            Subsystem::HostLink => f.write_str("host link"),
            Subsystem::Arithmetic => f.write_str("arithmetic"),
            Subsystem::Matrix => f.write_str("matrix"),
            Subsystem::Dispatch => f.write_str("dispatch"),
            Subsystem::HostSubmit => f.write_str("host submission"),
            Subsystem::LoadPath => f.write_str("load path"),
            Subsystem::WritePath => f.write_str("write path"),
            Subsystem::TextureFilter => f.write_str("texture filtering"),
            Subsystem::SharedMemory => f.write_str("shared memory"),
            Subsystem::Subgroup => f.write_str("subgroup operations"),
        }
    }
}

impl serde::Serialize for Subsystem {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Which way an item gets worse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Worse {
    /// A rate: bandwidth, operations per second (lower is worse).
    Lower,
    /// A cost: a latency, a dispatch's time (higher is worse).
    Higher,
}

/// What the fleet verdict needs of an item: see [`Item::judged`].
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub subsystem: Subsystem,
    pub worse: Worse,
    /// The tests the value came from, each compared across GPUs on its own.
    pub tests: Vec<String>,
    /// The item's own floor (%), where what it reads moves more than the fleet's floor
    /// between healthy GPUs for a reason of its own (where its memory lies); `None`: the
    /// fleet's.
    pub floor_pct: Option<f64>,
}

impl Item {
    /// The item, its value's figures being `quantities`.
    pub fn with(mut self, quantities: impl IntoIterator<Item = Quantity>) -> Self {
        self.quantities.extend(quantities);
        self
    }

    /// The item, judged by the fleet verdict as `subsystem`, `worse` one way, on `tests`.
    pub fn judged(mut self, subsystem: Subsystem, worse: Worse, tests: Vec<String>) -> Self {
        self.judged = Some(Judged {
            subsystem,
            worse,
            tests,
            floor_pct: None,
        });
        self
    }

    /// The item with a floor of its own, `pct` (see [`Judged::floor_pct`]).
    pub fn floor(mut self, pct: f64) -> Self {
        if let Some(j) = &mut self.judged {
            j.floor_pct = Some(pct);
        }
        self
    }

    /// measured / published (a range where the value is one).
    pub fn ratio(&self) -> Option<(f64, f64)> {
        let v = self.vendor.as_ref()?;
        let (lo, hi) = self.measured?;
        Some((lo / v.value, hi / v.value))
    }

    /// The ratio as printed: `0.96×`, `0.63–0.75×`.
    pub fn ratio_text(&self) -> String {
        match self.ratio() {
            None => String::new(),
            Some((lo, hi)) if (hi - lo).abs() < 0.005 => format!("{lo:.2}×"),
            Some((lo, hi)) => format!("{lo:.2}–{hi:.2}×"),
        }
    }
}

/// A group of items under a title.
#[derive(Clone, Debug)]
pub struct Section {
    pub title: String,
    pub items: Vec<Item>,
}

/// One GPU's summary.
#[derive(Clone, Debug)]
pub struct Summary {
    /// `NVIDIA H100 80GB HBM3 (NVIDIA 580.159.04)`.
    pub heading: String,
    pub device: String,
    pub files: Vec<String>,
    pub rows: usize,
    pub sections: Vec<Section>,
}

/// The GPUs of `sources` (each a file's name and its rows, or `this run` and the run's), in
/// order of first appearance: one per device name, driver and deviceUUID (files that carry
/// it), so that several files of one GPU make one summary and a node's identical GPUs
/// each their own; rows without a UUID (older files) are one GPU per name and driver, but
/// two device indexes of one file are two GPUs.
pub fn devices(sources: &[(&str, &[Row])]) -> Vec<Device> {
    let mut out: Vec<Device> = Vec::new();
    for (source, rows) in sources {
        for row in *rows {
            let (name, driver, uuid) = (&row.device_name, &row.driver, &row.device_uuid);
            let here = (source.to_string(), row.device_index);
            let at = out.iter().position(|d| {
                d.name == *name
                    && d.driver == *driver
                    && d.uuid == *uuid
                    && (!uuid.is_empty() || !d.seen.iter().any(|s| s.0 == here.0 && s.1 != here.1))
            });
            let at = match at {
                Some(at) => at,
                None => {
                    let mut d = Device::new(name, driver, Vec::new());
                    d.uuid = uuid.clone();
                    out.push(d);
                    out.len() - 1
                }
            };
            let d = &mut out[at];
            if !d.files.iter().any(|f| f == source) {
                d.files.push(source.to_string());
            }
            if !d.seen.contains(&here) {
                d.seen.push(here);
            }
            d.push(row.clone());
        }
    }
    // Several GPUs of one name and driver: each says which it is.
    for i in 0..out.len() {
        let twins = out
            .iter()
            .filter(|d| d.name == out[i].name && d.driver == out[i].driver)
            .count();
        if twins > 1 {
            let d = &mut out[i];
            let index = d.seen.first().map_or(0, |s| s.1);
            d.which = match d.uuid.get(..8) {
                Some(short) => format!("device {index}, {short}"),
                None => format!("device {index}"),
            };
        }
    }
    out
}

pub use crate::size::{size_bytes, size_name};
pub use derive::LATENCY;

/// Every curve of the latency suite the summary reads by its name's prefix (each followed
/// by a working set): the suites spell these names, and a test holds the two together.
pub const LATENCY_CURVES: [&str; 10] = [
    derive::LATENCY,
    derive::UNIFORM,
    derive::SHARED,
    derive::LOAD_TO_USE,
    derive::LOAD_TO_USE_64,
    derive::STRIDE,
    derive::BESIDE_SHARED,
    derive::BESIDE_TEXTURE,
    derive::TEXTURE_LOAD,
    derive::REGISTERS,
];

/// An edge of a latency curve as the summary reads it (docs/summary.md): the last size on a
/// plateau, the first size off it (bytes), and the plateau's lowest and highest values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    pub on: u64,
    pub off: u64,
    pub lo: f64,
    pub hi: f64,
}

impl Edge {
    /// Whether `value` would lie on the plateau by its rule: all its values, with this one,
    /// within the plateau tolerance of each other.
    pub fn holds(&self, value: f64) -> bool {
        self.hi.max(value) <= (1.0 + curve::TOLERANCE) * self.lo.min(value)
    }

    /// The plateau with `value` on it.
    pub fn with(self, value: f64) -> Self {
        Edge {
            lo: self.lo.min(value),
            hi: self.hi.max(value),
            ..self
        }
    }
}

/// The edges of the curve `points` (working set in bytes, figure), in size order: each
/// plateau's, by the summary's plateau rules, where a size was measured after it — what the
/// runner bisects with probes after the sweep.
pub fn edges(points: &[(u64, f64)]) -> Vec<Edge> {
    let mut pts: Vec<curve::Point> = points
        .iter()
        .filter(|p| p.1 > 0.0)
        .map(|&(size, value)| curve::Point {
            size,
            value,
            test: String::new(),
        })
        .collect();
    pts.sort_by_key(|p| p.size);
    curve::plateaus(&pts)
        .into_iter()
        .filter_map(|s| {
            let (on, off) = curve::edge(&pts, s)?;
            let values = pts[s.first..=s.last].iter().map(|p| p.value);
            Some(Edge {
                on,
                off,
                lo: values.clone().fold(f64::INFINITY, f64::min),
                hi: values.fold(0.0, f64::max),
            })
        })
        .collect()
}

/// The working set a test of the latency curve (`latency: ByteAddressBuffer 1.25 MB`) ran,
/// in bytes.
pub fn latency_size(test: &str) -> Option<u64> {
    curve::size_after(test, LATENCY)
}

/// The summary of every GPU in `sources` (see [`devices`]).
pub fn summarise(sources: &[(&str, &[Row])], catalog: &Catalog) -> Vec<Summary> {
    devices(sources)
        .iter()
        .map(|d| derive::summary(d, catalog))
        .collect()
}

/// Reads `paths` (CSV or JSON, gzipped or not) and summarises every GPU in them.
pub fn summarise_files(paths: &[PathBuf], catalog: &Catalog) -> Result<Vec<Summary>> {
    if paths.is_empty() {
        bail!("summary needs at least one CSV or JSON file written by perftest");
    }
    // A test twice for one device is refused, as `compare` and `report` refuse it.
    let tables = paths
        .iter()
        .map(|p| read::read_path(p).and_then(|t| t.check_unique().map(|_| t)))
        .collect::<Result<Vec<_>>>()?;
    let sources: Vec<(&str, &[Row])> = tables
        .iter()
        .map(|t| (t.source.as_str(), t.rows.as_slice()))
        .collect();
    Ok(summarise(&sources, catalog))
}
