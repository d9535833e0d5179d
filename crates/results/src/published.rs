//! PerfTest's published results (13 GPUs, Direct3D 11), built in from `crates/results/data/published/`.

use crate::error::Failure;
use anyhow::{anyhow, bail, Context as _, Result};
use std::sync::OnceLock;

/// The test every published ratio (and every ratio perftest prints) is relative to.
pub const BASELINE: &str = "Buffer<RGBA8>.Load random";

/// What `--reference` takes for every published GPU.
pub const ALL: &str = "all";

/// `crates/results/data/published/gpus.csv`, written by `scripts/published-references.py`.
const GPUS_CSV: &str = include_str!("../data/published/gpus.csv");
/// `crates/results/data/published/results.csv`, written by `scripts/published-references.py`.
const RESULTS_CSV: &str = include_str!("../data/published/results.csv");

/// One GPU's published table.
#[derive(Debug)]
pub struct Reference {
    /// `nvidia-ampere`: vendor and architecture, lower case.
    pub key: String,
    /// The heading as published: `NVidia Ampere (RTX 3090)`.
    pub heading: String,
    /// `AMD`, `NVIDIA` or `Intel`.
    pub vendor: String,
    /// `Ampere`, `GCN5 7nm`, …: unique among the references.
    pub architecture: String,
    /// The GPU measured: `RTX 3090`.
    pub product: String,
    /// `Direct3D 11`.
    pub api: String,
    /// Where the numbers were published.
    pub source: String,
    /// The GPU's section in `tests/data/perftest-published.md`: `15-117`.
    pub lines: String,
    /// The first paragraph of the author's notes, shortened (the full notes are in
    /// `crates/results/data/published/notes.md`).
    pub summary: String,
    /// The published lines, in the published order.
    pub results: Vec<Published>,
}

/// One published line: `NAME: <ms>ms <ratio>x`.
#[derive(Debug)]
pub struct Published {
    /// The test's name in this project's suite (the original's, byte for byte).
    pub test: String,
    /// The suite's family of the test (`typed_buffer`, …).
    pub family: String,
    /// Milliseconds as published (depend on the original's dispatch and the GPU's clock).
    pub ms: f64,
    /// Throughput relative to [`BASELINE`] on the same GPU, as published.
    pub ratio: f64,
    /// The line in `tests/data/perftest-published.md`.
    pub line: usize,
    /// Why the name differs from the published one; empty when it does not.
    pub note: String,
}

impl Reference {
    /// The published line of `test`, if this GPU's table has it.
    pub fn get(&self, test: &str) -> Option<&Published> {
        self.results.iter().find(|r| r.test == test)
    }

    /// The published ratio of `test`, if this GPU's table has it.
    pub fn ratio(&self, test: &str) -> Option<f64> {
        self.get(test).map(|r| r.ratio)
    }
}

/// Every published GPU, in the published order.
pub fn all() -> Result<&'static [Reference]> {
    // Parsed once; the data is checked by the tests, so an error here is a build defect,
    // reported rather than panicked on.
    static PARSED: OnceLock<std::result::Result<Vec<Reference>, String>> = OnceLock::new();
    PARSED
        .get_or_init(|| parse(GPUS_CSV, RESULTS_CSV).map_err(|e| format!("{e:#}")))
        .as_deref()
        .map_err(|e| anyhow!("the built-in published results are unreadable: {e}"))
}

/// Parses the two tables of `crates/results/data/published/`.
fn parse(gpus_csv: &str, results_csv: &str) -> Result<Vec<Reference>> {
    let mut references = Vec::new();
    for row in records(gpus_csv, "gpus.csv")? {
        let f = |name: &str| row.get(name);
        references.push(Reference {
            key: f("key")?,
            heading: f("heading")?,
            vendor: f("vendor")?,
            architecture: f("architecture")?,
            product: f("product")?,
            api: f("api")?,
            source: f("source")?,
            lines: f("lines")?,
            summary: f("summary")?,
            results: Vec::new(),
        });
    }
    for row in records(results_csv, "results.csv")? {
        let gpu = row.get("gpu")?;
        let number = |name: &str| -> Result<f64> {
            let text = row.get(name)?;
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
                _ => bail!("results.csv line {}: {name} `{text}`", row.line),
            }
        };
        let published = Published {
            test: row.get("test")?,
            family: row.get("family")?,
            ms: number("ms")?,
            ratio: number("ratio")?,
            line: row
                .get("line")?
                .parse()
                .with_context(|| format!("results.csv line {}: line", row.line))?,
            note: row.get("note")?,
        };
        let Some(reference) = references.iter_mut().find(|r| r.key == gpu) else {
            bail!("results.csv line {}: unknown gpu `{gpu}`", row.line);
        };
        if reference.get(&published.test).is_some() {
            bail!(
                "results.csv line {}: {gpu} has `{}` twice",
                row.line,
                published.test
            );
        }
        reference.results.push(published);
    }
    if let Some(r) = references.iter().find(|r| r.results.is_empty()) {
        bail!("{} has no results", r.key);
    }
    Ok(references)
}

/// One CSV row with its header, for lookups by column name.
struct Row {
    header: csv::StringRecord,
    record: csv::StringRecord,
    line: u64,
}

impl Row {
    fn get(&self, name: &str) -> Result<String> {
        let i = self
            .header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| anyhow!("no column `{name}`"))?;
        Ok(self.record.get(i).unwrap_or("").to_string())
    }
}

fn records(text: &str, name: &str) -> Result<Vec<Row>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().context(name.to_string())?.clone();
    reader
        .records()
        .map(|r| {
            let record = r.with_context(|| format!("{name}: malformed CSV"))?;
            let line = record.position().map_or(0, |p| p.line());
            Ok(Row {
                header: header.clone(),
                record,
                line,
            })
        })
        .collect()
}

/// The references named by `--reference` values, in the order first named, without repeats.
///
/// `all` names every reference. Otherwise a NAME (case-insensitive) that equals a
/// reference's heading, architecture, product or key names that one — so `gcn5` is the GCN5
/// (Vega) and not also the GCN5 7nm (Radeon VII), whose heading contains it too; else a
/// NAME that is part of exactly one heading names that one (`3090`, `kepler`, `vega`). A
/// NAME that names none, or several (`gcn`, `nvidia`), is a usage error listing the
/// headings it matches, or every heading when it matches none.
pub fn select(names: &[String]) -> Result<Vec<&'static Reference>> {
    let references = all()?;
    let mut out: Vec<&'static Reference> = Vec::new();
    for name in names {
        let found = find(references, name)?;
        for r in found {
            if !out.iter().any(|o| o.key == r.key) {
                out.push(r);
            }
        }
    }
    Ok(out)
}

fn find<'r>(references: &'r [Reference], name: &str) -> Result<Vec<&'r Reference>> {
    let needle = name.trim().to_lowercase();
    let headings = |list: &[&Reference]| {
        list.iter()
            .map(|r| format!("  {}", r.heading))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let every: Vec<&Reference> = references.iter().collect();
    if needle.is_empty() {
        return Err(Failure::Usage(format!(
            "--reference needs a name: `all`, or part of one of these headings:\n{}",
            headings(&every)
        ))
        .into());
    }
    if needle == ALL {
        return Ok(every);
    }
    let exact: Vec<&Reference> = references
        .iter()
        .filter(|r| {
            [&r.heading, &r.architecture, &r.product, &r.key]
                .iter()
                .any(|f| f.to_lowercase() == needle)
        })
        .collect();
    let matches = if exact.is_empty() {
        references
            .iter()
            .filter(|r| r.heading.to_lowercase().contains(&needle))
            .collect()
    } else {
        exact
    };
    match matches.len() {
        1 => Ok(matches),
        0 => Err(Failure::Usage(format!(
            "--reference {name:?} matches no published GPU; give `all` or part of a heading \
             (see `perftest compare --list-references`):\n{}",
            headings(&every)
        ))
        .into()),
        n => Err(Failure::Usage(format!(
            "--reference {name:?} is ambiguous: it matches {n} published GPUs; give more of \
             the heading, or an architecture exactly:\n{}",
            headings(&matches)
        ))
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(names: &[&str]) -> Vec<String> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        select(&names)
            .unwrap()
            .iter()
            .map(|r| r.key.clone())
            .collect()
    }

    fn usage(name: &str) -> String {
        let err = select(&[name.to_string()]).unwrap_err();
        match err.downcast_ref::<Failure>() {
            Some(Failure::Usage(m)) => m.clone(),
            _ => panic!("not a usage error: {err:#}"),
        }
    }

    #[test]
    fn the_data_parses() {
        let all = all().unwrap();
        assert_eq!(all.len(), 13);
        assert_eq!(
            all.iter().map(|r| r.results.len()).sum::<usize>(),
            12 * 84 + 138
        );
        for r in all {
            assert_eq!(r.api, "Direct3D 11");
            assert_eq!(r.ratio(BASELINE), Some(1.0), "{}", r.heading);
        }
    }

    #[test]
    fn names_select_references() {
        assert_eq!(keys(&["3090"]), ["nvidia-ampere"]);
        assert_eq!(keys(&["KEPLER"]), ["nvidia-kepler"]);
        // An exact architecture wins over the longer heading that contains it.
        assert_eq!(keys(&["gcn5"]), ["amd-gcn5"]);
        assert_eq!(keys(&["gcn5 7nm"]), ["amd-gcn5-7nm"]);
        assert_eq!(keys(&["Radeon VII"]), ["amd-gcn5-7nm"]);
        assert_eq!(keys(&["intel-gen9"]), ["intel-gen9"]);
        // Repeats are dropped, the order kept.
        assert_eq!(
            keys(&["volta", "3090", "Titan V"]),
            ["nvidia-volta", "nvidia-ampere"]
        );
        assert_eq!(keys(&["All"]).len(), 13);
        assert_eq!(keys(&["turing", "all"]).len(), 13);
    }

    #[test]
    fn unknown_and_ambiguous_names_are_usage_errors() {
        let err = usage("rdna9");
        assert!(err.contains("matches no published GPU"), "{err}");
        assert!(err.contains("NVidia Ampere (RTX 3090)"), "{err}");
        assert_eq!(err.lines().count(), 1 + 13, "{err}");
        let err = usage("gcn");
        assert!(
            err.contains("ambiguous") && err.contains("matches 5"),
            "{err}"
        );
        assert!(err.contains("AMD GCN5 7nm (Radeon VII)"), "{err}");
        assert!(!err.contains("Navi"), "{err}");
        assert!(usage(" ").contains("needs a name"));
    }
}
