//! `perftest summary`: what a GPU is, on one screen — cache edges, latencies, bandwidths,
//! arithmetic peaks and dispatch costs derived from a run's rows by the rules of
//! docs/summary.md, each beside the vendor's published figure and the rows it came from.
//!
//! A reporter over result files (layer 5): it reads what `compare/read.rs` reads, and the
//! catalog for the original suite's names; never the runner.

mod curve;
mod derive;
#[cfg(test)]
mod tests;
pub mod text;
pub mod vendor;

use crate::Catalog;
use crate::compare::read::{self, Table};
use anyhow::{bail, Result};
use std::collections::HashMap;
use std::path::PathBuf;

pub use text::text;

/// The cells of one result row that the summary reads.
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub test: String,
    pub status: String,
    pub reason: String,
    pub ms: Option<f64>,
    pub ratio: Option<f64>,
    /// `gloads_per_s`: billions of loads (operations) per second.
    pub gops: Option<f64>,
    pub gbytes: Option<f64>,
    /// `loads_per_clk_per_cu`: loads (operations) per clock per compute unit.
    pub per_clk: Option<f64>,
    pub bytes_per_clk: Option<f64>,
    pub latency_clk: Option<f64>,
    pub clock_mhz: Option<f64>,
    pub compute_units: Option<f64>,
}

impl Row {
    /// Whether the row ran.
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// One GPU's rows, from every file that has it (where files repeat a test, the first
/// file's row).
#[derive(Debug, Default)]
pub struct Device {
    pub name: String,
    pub driver: String,
    pub rows: Vec<Row>,
    by_test: HashMap<String, usize>,
    /// The files it came from.
    pub files: Vec<String>,
}

impl Device {
    /// A device of `rows` (tests of later rows that repeat one are left out).
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
        if !self.by_test.contains_key(&row.test) {
            self.by_test.insert(row.test.clone(), self.rows.len());
            self.rows.push(row);
        }
    }

    /// The row of `test`, if any file has it.
    pub fn get(&self, test: &str) -> Option<&Row> {
        self.by_test.get(test).map(|i| &self.rows[*i])
    }
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
}

impl Item {
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

/// The number in `cell`, or an error naming the file, line and column.
fn number(t: &Table, line: usize, column: &str, cell: &str) -> Result<Option<f64>> {
    if cell.is_empty() {
        return Ok(None);
    }
    match cell.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        _ => bail!(
            "{} line {line}: {column} `{cell}` is not a number",
            t.source
        ),
    }
}

/// The GPUs of `tables`, one per device name and driver, in order of first appearance.
pub fn devices(tables: &[&Table]) -> Result<Vec<Device>> {
    let mut out: Vec<Device> = Vec::new();
    for t in tables {
        let col = |name: &str| t.column(name);
        for (line, cells) in &t.rows {
            let cell = |name: &str| col(name).map_or("", |i| cells[i].as_str());
            let num = |name: &str| number(t, *line, name, cell(name));
            let row = Row {
                test: cell("test").to_string(),
                status: cell("status").to_string(),
                reason: cell("reason").to_string(),
                ms: num("ms_median")?,
                ratio: num("ratio")?,
                gops: num("gloads_per_s")?,
                gbytes: num("gbytes_per_s")?,
                per_clk: num("loads_per_clk_per_cu")?,
                bytes_per_clk: num("bytes_per_clk_per_cu")?,
                latency_clk: num("latency_clk")?,
                clock_mhz: num("clock_mhz")?,
                compute_units: num("compute_units")?,
            };
            let (name, driver) = (cell("device_name"), cell("driver"));
            let at = match out
                .iter()
                .position(|d| d.name == name && d.driver == driver)
            {
                Some(at) => at,
                None => {
                    out.push(Device::new(name, driver, Vec::new()));
                    out.len() - 1
                }
            };
            let d = &mut out[at];
            if !d.files.contains(&t.source) {
                d.files.push(t.source.clone());
            }
            d.push(row);
        }
    }
    Ok(out)
}

/// The summary of every GPU in `tables`.
pub fn summarise(tables: &[&Table], catalog: &Catalog) -> Result<Vec<Summary>> {
    Ok(devices(tables)?
        .iter()
        .map(|d| derive::summary(d, catalog))
        .collect())
}

/// Reads `paths` (CSV or JSON, gzipped or not) and summarises every GPU in them.
pub fn summarise_files(paths: &[PathBuf], catalog: &Catalog) -> Result<Vec<Summary>> {
    if paths.is_empty() {
        bail!("summary needs at least one CSV or JSON file written by perftest");
    }
    let tables = paths
        .iter()
        .map(|p| read::read_path(p))
        .collect::<Result<Vec<_>>>()?;
    summarise(&tables.iter().collect::<Vec<_>>(), catalog)
}
