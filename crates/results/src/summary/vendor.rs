//! The vendors' published figures built in (`crates/results/data/vendor/figures.csv`), and the match of a
//! device to one of the original tool's 13 published GPUs.

use crate::published::{self, Reference};
use anyhow::{anyhow, bail, Context as _, Result};
use std::sync::OnceLock;

/// `crates/results/data/vendor/figures.csv`: one line per (device, figure), each with its source.
const FIGURES_CSV: &str = include_str!("../../data/vendor/figures.csv");

/// One published figure of one device.
#[derive(Clone, Debug)]
pub struct Figure {
    /// The device name exactly as its driver reports it.
    pub device: String,
    /// What it is, for the code: `memory_tbps`, `l2_mb`, …
    pub key: String,
    pub value: f64,
    /// `TB/s`, `MB`, `TFLOP/s`, …
    pub unit: String,
    /// What it is, in words.
    pub what: String,
    /// The document that publishes it.
    pub source: String,
}

impl Figure {
    /// `3.35 TB/s`.
    pub fn text(&self) -> String {
        format!("{} {}", trim(self.value), self.unit)
    }
}

/// A number without trailing zeros: `3.35`, `50`, `989.5`.
pub fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Every figure of the built-in table.
pub fn all() -> Result<&'static [Figure]> {
    static PARSED: OnceLock<std::result::Result<Vec<Figure>, String>> = OnceLock::new();
    PARSED
        .get_or_init(|| parse(FIGURES_CSV).map_err(|e| format!("{e:#}")))
        .as_deref()
        .map_err(|e| anyhow!("the built-in vendor figures are unreadable: {e}"))
}

fn parse(text: &str) -> Result<Vec<Figure>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let r = record.with_context(|| format!("figures.csv line {line}"))?;
        let cell = |n: usize| r.get(n).unwrap_or("").trim().to_string();
        let value: f64 = cell(2)
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v > 0.0)
            .with_context(|| format!("figures.csv line {line}: value `{}`", cell(2)))?;
        let figure = Figure {
            device: cell(0),
            key: cell(1),
            value,
            unit: cell(3),
            what: cell(4),
            source: cell(5),
        };
        if figure.device.is_empty() || figure.key.is_empty() || figure.source.is_empty() {
            bail!("figures.csv line {line}: a device, a key and a source are needed");
        }
        out.push(figure);
    }
    Ok(out)
}

/// The figure `key` of `device` (its exact name), if the table has it.
pub fn figure(device: &str, key: &str) -> Option<Figure> {
    all()
        .ok()?
        .iter()
        .find(|f| f.device == device && f.key == key)
        .cloned()
}

/// The original tool's published GPU that `device` is, where its name holds the product's
/// (`RTX 3090` in `NVIDIA GeForce RTX 3090`) and not a variant of it (`RTX 3090 Ti`).
pub fn published_gpu(device: &str) -> Option<&'static Reference> {
    let name = device.to_ascii_lowercase();
    published::all().ok()?.iter().find(|r| {
        let product = r
            .product
            .split(" / ")
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let Some(at) = name.find(&product).filter(|_| !product.is_empty()) else {
            return false;
        };
        let rest = name[at + product.len()..].trim_start();
        let variant = ["ti", "super", "xt", "xtx"]
            .iter()
            .any(|v| rest.split_whitespace().next() == Some(*v));
        let glued = name[at + product.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric());
        !variant && !glued
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_every_figure_names_its_source() {
        let all = all().unwrap();
        assert!(all.len() >= 20);
        for f in all {
            assert!(f.source.contains("NVIDIA"), "{f:?}");
        }
        let memory = figure("NVIDIA H100 80GB HBM3", "memory_tbps").unwrap();
        assert_eq!((memory.value, memory.text().as_str()), (3.35, "3.35 TB/s"));
        assert_eq!(figure("NVIDIA H200", "memory_tbps").unwrap().value, 4.8);
        assert!(figure("NVIDIA H100 PCIe", "memory_tbps").is_none());
    }

    #[test]
    fn a_device_finds_its_published_gpu_and_not_a_variant() {
        let key = |d: &str| published_gpu(d).map(|r| r.key.as_str());
        assert_eq!(key("NVIDIA GeForce RTX 3090"), Some("nvidia-ampere"));
        assert_eq!(key("NVIDIA GeForce RTX 3090 Ti"), None);
        assert_eq!(key("AMD Radeon RX 480"), Some("amd-gcn4"));
        assert_eq!(key("AMD Radeon RX 4800"), None);
        assert_eq!(key("Intel(R) HD Graphics 630"), None);
        assert_eq!(key("NVIDIA H100 80GB HBM3"), None);
    }
}
