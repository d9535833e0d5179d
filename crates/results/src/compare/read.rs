//! Reads a result file that `perftest --csv` or `--json` wrote into named columns, with one
//! clear error for every kind of bad input; `compare` and the HTML report both read through it.

use super::gzip;
use anyhow::{bail, Context as _, Result};
use serde_json::Value;
use std::path::Path;

/// The columns `compare` and `report` need; every other column is optional.
pub const REQUIRED_COLUMNS: [&str; 5] =
    ["device_index", "device_name", "test", "ms_median", "status"];

/// One result file as read: its columns and its rows of text cells.
pub struct Table {
    /// The name used in errors (the path as given, or a label).
    pub source: String,
    /// Column names, in file order (a JSON file: the CSV's columns its rows have).
    pub columns: Vec<String>,
    /// One entry per row: the line it came from (1-based; a JSON row's index + 1) and its
    /// cells, one per column (`""` where the row has none).
    pub rows: Vec<(usize, Vec<String>)>,
    /// The whole JSON document (devices, limits, calibration, command line), for a JSON file.
    pub json: Option<Value>,
}

impl Table {
    /// The position of column `name`, if the file has it.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
}

/// Reads `path` (CSV or JSON, told apart by its first character).
pub fn read_path(path: &Path) -> Result<Table> {
    let source = path.display().to_string();
    let mut bytes = std::fs::read(path).with_context(|| format!("cannot read {source}"))?;
    // Results are kept gzipped in `results/` (`all.csv.gz`): read them as they are.
    if gzip::is_gzip(&bytes) {
        bytes = gzip::decompress(&bytes).with_context(|| format!("{source}: a gzip file"))?;
    }
    let Ok(text) = String::from_utf8(bytes) else {
        bail!(
            "{source}: not a perftest result (not text); give a CSV written by `perftest --csv` \
             or a JSON file written by `perftest --json`"
        );
    };
    read_text(&source, &text)
}

/// Reads the text of a result file; errors start with `source`.
pub fn read_text(source: &str, text: &str) -> Result<Table> {
    let body = text.trim_start_matches('\u{feff}');
    if body.trim().is_empty() {
        bail!("{source}: the file is empty (no CSV header, no rows)");
    }
    let table = if body.trim_start().starts_with('{') {
        read_json(source, body)?
    } else {
        read_csv(source, body)?
    };
    if table.rows.is_empty() {
        bail!("{source}: the file has a header but no rows");
    }
    Ok(table)
}

/// An error naming the required columns `columns` lacks.
fn check_columns(source: &str, columns: &[String]) -> Result<()> {
    let missing: Vec<&str> = REQUIRED_COLUMNS
        .iter()
        .copied()
        .filter(|c| !columns.iter().any(|h| h == c))
        .collect();
    if !missing.is_empty() {
        bail!(
            "{source}: not a perftest result: missing column{} {}; perftest results have the \
             columns {} (as written by `perftest --csv` or `--json`)",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            REQUIRED_COLUMNS.join(", ")
        );
    }
    Ok(())
}

fn read_csv(source: &str, text: &str) -> Result<Table> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let columns: Vec<String> = reader
        .headers()
        .with_context(|| format!("{source}: cannot read the CSV header"))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    // Another file's first line (a CSV of another tool, any text) is told before its rows.
    check_columns(source, &columns)?;
    let mut rows = Vec::new();
    // Lines are counted here, from each record's byte offset: the csv crate's own count is
    // one short per line in a file with CRLF line ends (as spreadsheets on Windows save).
    let (mut counted_to, mut line) = (0usize, 1usize);
    for record in reader.records() {
        let record = record.with_context(|| format!("{source}: malformed CSV"))?;
        let mut start = record.position().map_or(counted_to, |p| p.byte() as usize);
        // (After a CR the crate's record starts at the LF that ends the line before.)
        while text
            .as_bytes()
            .get(start)
            .is_some_and(|b| *b == b'\r' || *b == b'\n')
        {
            start += 1;
        }
        line += text.as_bytes()[counted_to..start.min(text.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        counted_to = start.max(counted_to);
        let cells = (0..columns.len())
            .map(|i| record.get(i).unwrap_or("").trim().to_string())
            .collect();
        rows.push((line, cells));
    }
    Ok(Table {
        source: source.to_string(),
        columns,
        rows,
        json: None,
    })
}

/// A `--json` document: its `results` array holds one object per row, keyed by the CSV's
/// column names.
fn read_json(source: &str, text: &str) -> Result<Table> {
    let doc: Value = serde_json::from_str(text)
        .with_context(|| format!("{source}: starts like JSON but is not valid JSON"))?;
    let Some(results) = doc.get("results").and_then(Value::as_array) else {
        bail!(
            "{source}: not a perftest result: a JSON file without a `results` array (as \
             written by `perftest --json`)"
        );
    };
    let mut columns: Vec<String> = Vec::new();
    for row in results {
        if let Some(obj) = row.as_object() {
            for key in obj.keys() {
                if !columns.contains(key) {
                    columns.push(key.clone());
                }
            }
        }
    }
    if !results.is_empty() {
        check_columns(source, &columns)?;
    }
    let rows = results
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let cells = columns
                .iter()
                .map(|c| match row.get(c) {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.trim().to_string(),
                    // serde_json writes every number as a float (`0.0` for device 0): an
                    // integral value reads back as the integer the CSV would hold.
                    Some(Value::Number(n)) => match n.as_f64() {
                        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
                        _ => n.to_string(),
                    },
                    Some(v) => v.to_string(),
                })
                .collect();
            (i + 1, cells)
        })
        .collect();
    Ok(Table {
        source: source.to_string(),
        columns,
        rows,
        json: Some(doc),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_json_read_alike() {
        let csv = "device_index,device_name,test,ms_median,status\n0,GPU,T,0.5,ok\n";
        let json = r#"{"results":[{"device_index":0.0,"device_name":"GPU","test":"T",
                       "ms_median":0.5,"status":"ok","reason":null}]}"#;
        let (a, b) = (read_text("a", csv).unwrap(), read_text("b", json).unwrap());
        for t in [&a, &b] {
            let cell = |c: &str| t.rows[0].1[t.column(c).unwrap()].clone();
            assert_eq!(
                [cell("device_index"), cell("ms_median"), cell("test")],
                ["0", "0.5", "T"]
            );
        }
        assert!(b.json.is_some() && a.json.is_none());
    }

    #[test]
    fn rows_carry_their_line_in_the_file_whatever_the_line_ends() {
        let lf = "device_index,device_name,test,ms_median,status\n0,GPU,A,0.5,ok\n\n0,GPU,B,x,ok\n";
        let crlf = lf.replace('\n', "\r\n");
        for text in [lf.to_string(), crlf] {
            let t = read_text("f", &text).unwrap();
            let lines: Vec<usize> = t.rows.iter().map(|r| r.0).collect();
            // The header is line 1; an empty line 3 is skipped but counted.
            assert_eq!(lines, [2, 4], "{text:?}");
        }
    }

    #[test]
    fn bad_inputs_say_what_is_wrong() {
        let err = |text: &str| read_text("f", text).err().unwrap().to_string();
        assert!(err("").contains("f: the file is empty"));
        assert!(err("\n  \n").contains("empty"));
        assert!(err("a,b\n1,2\n").contains("not a perftest result: missing columns"));
        // Text that is no CSV at all (rows of other lengths): told by its first line.
        assert!(err("# notes\nsome, text, here\n").contains("not a perftest result"));
        assert!(err("{\"x\": 1}").contains("without a `results` array"));
        assert!(err("{oops").contains("not valid JSON"));
        assert!(err("device_index,device_name,test,ms_median,status\n").contains("no rows"));
    }
}
