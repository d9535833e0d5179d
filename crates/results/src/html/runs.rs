//! The report's data: rows read from the result files, gathered into runs (one device, one
//! or more files), each row placed in its suite.

use crate::compare::read::Table;
use crate::document::Device;
pub use crate::row::Row;
use crate::{Catalog, Suite, Words};
use anyhow::{bail, Result};
use std::collections::HashMap;

/// A suite as the report shows it: one the catalog knows, or a name read from the rows
/// (a suite added after this build, or a test renamed since the file was written).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SuiteKey {
    Known(Suite),
    Other(String),
}

impl SuiteKey {
    /// `original`, `bandwidth`, … as `--suite` names them.
    pub fn name(&self) -> String {
        match self {
            SuiteKey::Known(s) => s.word().to_string(),
            SuiteKey::Other(n) => n.clone(),
        }
    }
}

/// The suite of `row`: the catalog's for a test it knows; else the name's prefix before
/// `: ` (`matrix: …`), else the family column, else `other`.
pub fn suite_of(row: &Row, catalog: &Catalog) -> SuiteKey {
    if let Some(s) = catalog.suite_of(&row.test) {
        return SuiteKey::Known(s);
    }
    let name = match row.test.split_once(": ") {
        Some((prefix, _)) if !prefix.is_empty() && !prefix.contains(' ') => prefix,
        _ if !row.family.is_empty() => &row.family,
        _ => "other",
    };
    // An edge probe of the latency curve (`latency: ByteAddressBuffer 176 KB`, a size the
    // catalog does not list) is a point of its suite's curve: a section of its own would
    // repeat the suite's name and anchor.
    if row.is_probe() {
        if let Some(s) = Suite::from_word(&name.to_lowercase()) {
            return SuiteKey::Known(s);
        }
    }
    SuiteKey::Other(name.to_lowercase())
}

/// One run: one device's rows from one or more files.
pub struct Run {
    /// How the report names the run.
    pub label: String,
    pub device: String,
    /// The driver version (falls back to the driver column): runs on other drivers are not
    /// one fleet.
    pub driver: String,
    /// The files it was read from.
    pub files: Vec<String>,
    pub rows: Vec<Row>,
    by_test: HashMap<String, usize>,
    /// The device's entry in each JSON file it came from (properties, limits, calibration),
    /// with that file's command line.
    pub json: Vec<(Device, Option<Vec<String>>)>,
    /// Rows left out because an earlier file of the run has the test.
    pub repeated: usize,
}

impl Run {
    /// The row of `test`, if the run has one.
    pub fn row(&self, test: &str) -> Option<&Row> {
        self.by_test.get(test).map(|i| &self.rows[*i])
    }

    /// The first value of a column (`cell` reads it, `""` where a row has none) over the
    /// run's rows that is not empty.
    pub fn first(&self, cell: impl Fn(&Row) -> String) -> String {
        self.rows
            .iter()
            .map(cell)
            .find(|v| !v.is_empty())
            .unwrap_or_default()
    }
}

/// The runs in `tables` (each with its label). Each (file, device) is a part; a part joins
/// the latest run of the same device and driver with which it shares at most half of its
/// tests and of the run's (the suites of one run kept in several files, each also holding
/// the baseline or the original suite); otherwise it starts a run of its own (a second run
/// of the same tests, or of more). Where a joined part repeats a test, the run keeps the row it had (the earlier
/// file's) and counts the other in `repeated`.
pub fn gather(tables: &[(String, Table)]) -> Result<Vec<Run>> {
    let mut runs: Vec<Run> = Vec::new();
    for (label, table) in tables {
        for part in parts(table)? {
            let rows = part.rows;
            let device = rows[0].device_name.clone();
            let driver = [&rows[0].driver_version, &rows[0].driver]
                .into_iter()
                .find(|v| !v.is_empty())
                .map_or_else(String::new, |v| v.to_string());
            let json = device_json(table, rows[0].device_index);
            let joins = runs.iter().rposition(|r| {
                r.device == device && r.driver == driver && {
                    let shared = rows.iter().filter(|row| r.row(&row.test).is_some());
                    let shared = shared.count();
                    2 * shared <= rows.len() && 2 * shared <= r.rows.len()
                }
            });
            let run = match joins {
                Some(i) => &mut runs[i],
                None => {
                    runs.push(Run {
                        label: String::new(),
                        device,
                        driver,
                        files: Vec::new(),
                        rows: Vec::new(),
                        by_test: HashMap::new(),
                        json: Vec::new(),
                        repeated: 0,
                    });
                    runs.last_mut().expect("just pushed")
                }
            };
            run.files.push(label.clone());
            run.json.extend(json);
            for row in rows {
                if run.by_test.contains_key(&row.test) {
                    run.repeated += 1;
                    continue;
                }
                run.by_test.insert(row.test.clone(), run.rows.len());
                run.rows.push(row);
            }
        }
    }
    label_runs(&mut runs);
    Ok(runs)
}

/// Labels: the device's name where every run is on another device; else the first file's
/// label (with the device where one file holds several).
fn label_runs(runs: &mut [Run]) {
    let distinct = runs
        .iter()
        .all(|r| runs.iter().filter(|s| s.device == r.device).count() == 1);
    let labels: Vec<String> = runs
        .iter()
        .map(|r| {
            if distinct {
                r.device.clone()
            } else {
                let shared = runs.iter().filter(|s| s.files[0] == r.files[0]).count() > 1;
                if shared {
                    format!("{}:{}", r.files[0], r.device)
                } else {
                    r.files[0].clone()
                }
            }
        })
        .collect();
    // Two runs with one label (two devices of one name in one file, one file given
    // twice) are numbered.
    for (i, run) in runs.iter_mut().enumerate() {
        run.label = if labels.iter().filter(|l| **l == labels[i]).count() > 1 {
            format!("{} #{}", labels[i], i + 1)
        } else {
            labels[i].clone()
        };
    }
}

/// The rows of one device in one file.
struct Part {
    rows: Vec<Row>,
}

/// The file's rows, one part per (device index, device name), in order of first appearance;
/// a bad time or a test twice for one device is an error naming the line.
fn parts(table: &Table) -> Result<Vec<Part>> {
    let src = &table.source;
    let mut keys: Vec<(u32, &str)> = Vec::new();
    let mut parts: Vec<Part> = Vec::new();
    let mut seen: Vec<HashMap<&str, usize>> = Vec::new();
    for (row, line) in table.rows.iter().zip(&table.lines) {
        let test = row.test.as_str();
        let key = (row.device_index, row.device_name.as_str());
        let i = match keys.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                keys.push(key);
                parts.push(Part { rows: Vec::new() });
                seen.push(HashMap::new());
                keys.len() - 1
            }
        };
        if let Some(first) = seen[i].insert(test, *line) {
            bail!(
                "{src}: line {line}: test `{test}` appears twice for device {} ({}), first on \
                 line {first}",
                key.0,
                key.1
            );
        }
        parts[i].rows.push(row.clone());
    }
    Ok(parts)
}

/// The JSON file's entry for device `index`, and its command line.
fn device_json(table: &Table, index: u32) -> Option<(Device, Option<Vec<String>>)> {
    let doc = table.document.as_ref()?;
    Some((doc.device(index)?.clone(), doc.command_line.clone()))
}
