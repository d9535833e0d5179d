//! The fleet's input: result files and folders (every result file inside, recursively) read into one [`Gpu`] per (file, device).

use super::{Gpu, Passed};
use crate::compare::read::{self, NotAResult, Table};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// What the paths held.
#[derive(Debug, Default)]
pub struct Read {
    pub gpus: Vec<Gpu>,
    /// Files in a folder that are no perftest result: passed over, named.
    pub skipped: Vec<Passed>,
    /// Files that could not be read (a named file that is no result, a damaged one), and
    /// folders that hold no result.
    pub unreadable: Vec<Passed>,
    /// Every input file, those found in folders included, but for those passed over (an
    /// output may be none of them).
    pub files: Vec<PathBuf>,
}

/// Whether `path`'s name is a result file's: `.csv`, `.json`, gzipped or not.
fn result_name(path: &Path) -> bool {
    let name = path.to_string_lossy().to_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.ends_with(".csv") || name.ends_with(".json")
}

/// Every result file under `dir`, in name order; a result's name on what is no regular
/// file (a FIFO, whose open would wait for a writer; a device; a socket) goes to `odd`. A
/// folder is searched once however many links lead to it (`visited`: the canonical paths of
/// those searched), so a link back up the tree (`n1/up -> ..`) is no loop and a linked
/// folder's runs are not read twice.
fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    odd: &mut Vec<PathBuf>,
    visited: &mut Vec<PathBuf>,
) -> Result<()> {
    let cannot =
        |e: std::io::Error| anyhow::anyhow!("cannot read the folder {}: {e}", dir.display());
    let canonical = std::fs::canonicalize(dir).map_err(cannot)?;
    if visited.contains(&canonical) {
        return Ok(());
    }
    visited.push(canonical);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(cannot)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .map_err(cannot)?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out, odd, visited)?;
        } else if result_name(&path) {
            match std::fs::metadata(&path) {
                Ok(m) if !m.is_file() => odd.push(path),
                _ => out.push(path),
            }
        }
    }
    Ok(())
}

/// Reads `paths` (files, or folders searched recursively for `.csv`, `.json` and their
/// `.gz`): every file's devices as GPUs. A file named on the command line that does not
/// read is unreadable; one found in a folder that is no perftest result (another tool's
/// log) is passed over and named; a folder without a result is named too (it was given,
/// and nothing in it could be judged).
pub fn read_paths(paths: &[PathBuf]) -> Read {
    let mut read = Read::default();
    for path in paths {
        let (files, in_folder) = if path.is_dir() {
            let (mut files, mut odd) = (Vec::new(), Vec::new());
            if let Err(e) = walk(path, &mut files, &mut odd, &mut Vec::new()) {
                read.unreadable.push(Passed {
                    file: path.display().to_string(),
                    why: format!("{e:#}"),
                });
            }
            read.skipped.extend(odd.into_iter().map(|f| {
                Passed {
                    file: f.display().to_string(),
                    why: "not a regular file (a FIFO, a device or a socket): a folder's results \
                      are read from its regular files only"
                        .into(),
                }
            }));
            (files, true)
        } else {
            (vec![path.clone()], false)
        };
        let gpus_before = read.gpus.len();
        let found = files.len();
        for file in files {
            match read::read_path(&file) {
                Ok(table) => {
                    read.gpus.extend(gpus(&table).into_iter().map(|g| Gpu {
                        file: file.clone(),
                        ..g
                    }));
                    read.files.push(file);
                }
                Err(e) => {
                    let passed = Passed {
                        file: file.display().to_string(),
                        why: format!("{e:#}"),
                    };
                    // Passed over, a file is no input: an output may replace it (the
                    // verdict of `fleet runs/ --json runs/verdict.json`, written again).
                    if in_folder && e.downcast_ref::<NotAResult>().is_some() {
                        read.skipped.push(passed);
                    } else {
                        read.unreadable.push(passed);
                        read.files.push(file);
                    }
                }
            }
        }
        if in_folder && read.gpus.len() == gpus_before {
            let why = if found == 0 {
                "the folder holds no result file (no `.csv` or `.json`, gzipped or not, in it \
                 or in its folders)"
                    .to_string()
            } else {
                format!(
                    "the folder holds no perftest result ({} `.csv`/`.json` file(s), none of \
                     them one)",
                    found
                )
            };
            read.unreadable.push(Passed {
                file: path.display().to_string(),
                why,
            });
        }
    }
    read
}

/// A file's GPUs: one per (device index, device name), in order of first appearance.
pub fn gpus(table: &Table) -> Vec<Gpu> {
    let mut out: Vec<(u32, Gpu)> = Vec::new();
    for row in &table.rows {
        let at = match out
            .iter()
            .position(|(i, g)| *i == row.device_index && g.device == row.device_name)
        {
            Some(at) => at,
            None => {
                out.push((
                    row.device_index,
                    Gpu {
                        device: row.device_name.clone(),
                        driver: row.driver.clone(),
                        ..Default::default()
                    },
                ));
                out.len() - 1
            }
        };
        let gpu = &mut out[at].1;
        if gpu.host.is_empty() {
            gpu.host.clone_from(&row.host);
        }
        if gpu.uuid.is_empty() {
            gpu.uuid.clone_from(&row.device_uuid);
        }
        gpu.rows.push(row.clone());
    }
    let several = out.len() > 1;
    out.into_iter()
        .map(|(index, mut gpu)| {
            gpu.label = if several {
                format!("{} (device {index})", table.source)
            } else {
                table.source.clone()
            };
            // A JSON file older than the `device_uuid` column has the UUID in its device entry.
            if gpu.uuid.is_empty() {
                gpu.uuid = json_uuid(table, index).unwrap_or_default();
            }
            gpu
        })
        .collect()
}

/// The UUID of device `index` in a JSON file's `devices`.
pub fn json_uuid(table: &Table, index: u32) -> Option<String> {
    table.document.as_ref()?.device(index)?.uuid.clone()
}
