//! Reads a result file that `perftest --csv` or `--json` wrote into typed [`Row`]s, with one
//! clear error for every kind of bad input; `compare`, `summary` and the HTML report all read
//! through it.

use crate::gzip;
use crate::row::Row;
use anyhow::{bail, Context as _, Result};
use serde_json::Value;
use std::path::Path;

/// The columns `compare` and `report` need; every other column is optional.
pub const REQUIRED_COLUMNS: [&str; 5] =
    ["device_index", "device_name", "test", "ms_median", "status"];

/// The error of a file that is no perftest result at all (another tool's CSV, a JSON file
/// without `results`, not text), told apart from a result that is damaged: a folder of runs
/// holds other files beside its results (`perftest fleet` passes over these).
#[derive(Debug)]
pub struct NotAResult(pub String);

impl std::fmt::Display for NotAResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotAResult {}

/// One result file as read: its rows, and where each came from.
pub struct Table {
    /// The name used in errors (the path as given, or a label).
    pub source: String,
    /// The rows, in file order (a column the file lacks reads as empty).
    pub rows: Vec<Row>,
    /// The file's column names (a CSV's header; every key of a JSON file's rows).
    pub columns: Vec<String>,
    /// The line each row came from (1-based; a JSON row's index + 1), for errors.
    pub lines: Vec<usize>,
    /// The whole JSON document (devices, limits, calibration, command line), for a JSON file.
    pub json: Option<Value>,
}

/// Reads `path` (CSV or JSON, told apart by its first character; gzipped or not).
pub fn read_path(path: &Path) -> Result<Table> {
    let source = path.display().to_string();
    let mut bytes = std::fs::read(path).with_context(|| format!("cannot read {source}"))?;
    // Results are kept gzipped in `results/` (`all.csv.gz`): read them as they are.
    if gzip::is_gzip(&bytes) {
        let inflated =
            gzip::decompress(&bytes).with_context(|| format!("{source}: a gzip file"))?;
        bytes = inflated.bytes;
        if inflated.cut {
            // A run killed while writing `--csv FILE.gz`: its rows up to the last one
            // flushed, without a row cut in half.
            let end = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
            bytes.truncate(end);
        }
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(NotAResult(format!(
            "{source}: not a perftest result (not text); give a CSV written by `perftest --csv` \
             or a JSON file written by `perftest --json`"
        ))
        .into());
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
        if table.json.is_some() {
            bail!("{source}: the file has no results (its `results` array is empty)");
        }
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
        return Err(NotAResult(format!(
            "{source}: not a perftest result: missing column{} {}; perftest results have the \
             columns {} (as written by `perftest --csv` or `--json`)",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            REQUIRED_COLUMNS.join(", ")
        ))
        .into());
    }
    Ok(())
}

/// The error of a row that does not read: the column and cell at fault, where one cell
/// alone fails (`ms_median `fast` is not a number`), else serde's own words.
fn bad_row(
    source: &str,
    line: usize,
    error: impl std::fmt::Display,
    cells: impl Iterator<Item = (String, Result<(), String>)>,
) -> anyhow::Error {
    match cells.filter_map(|(c, r)| r.err().map(|e| (c, e))).next() {
        // Our own messages quote the cell (`` `fast` is not a number ``).
        Some((column, why)) if why.starts_with('`') => {
            anyhow::anyhow!("{source}: line {line}: {column} {why}")
        }
        Some((column, why)) => anyhow::anyhow!("{source}: line {line}: {column}: {why}"),
        None => anyhow::anyhow!("{source}: line {line}: {error}"),
    }
}

fn read_csv(source: &str, text: &str) -> Result<Table> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .with_context(|| format!("{source}: cannot read the CSV header"))?
        .clone();
    let columns: Vec<String> = headers.iter().map(str::to_string).collect();
    // Another file's first line (a CSV of another tool, any text) is told before its rows.
    check_columns(source, &columns)?;
    let (mut rows, mut lines) = (Vec::new(), Vec::new());
    // Lines are counted here, from each record's byte offset: the csv crate's own count is
    // one short per line in a file with CRLF line ends (as spreadsheets on Windows save).
    let (mut counted_to, mut line) = (0usize, 1usize);
    for record in reader.records() {
        let record = record.map_err(|e| malformed(source, text, &e))?;
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
        let row = record.deserialize::<Row>(Some(&headers)).map_err(|e| {
            // Which cell: the one that fails on its own.
            let cells = headers.iter().zip(record.iter()).map(|(h, cell)| {
                let one = (
                    csv::StringRecord::from(vec![h]),
                    csv::StringRecord::from(vec![cell]),
                );
                let alone = one.1.deserialize::<Row>(Some(&one.0));
                (h.to_string(), alone.map(drop).map_err(|e| cause(&e)))
            });
            bad_row(source, line, cause(&e), cells)
        })?;
        rows.push(row);
        lines.push(line);
    }
    Ok(Table {
        source: source.to_string(),
        rows,
        columns,
        lines,
        json: None,
    })
}

/// The error of a CSV record that does not parse, at the file's own line: the csv crate
/// counts records, and its "line" is one short after a CRLF or a quoted line break.
fn malformed(source: &str, text: &str, e: &csv::Error) -> anyhow::Error {
    let line = |byte: u64| {
        let mut start = (byte as usize).min(text.len());
        // (A record's position may be the line end before it.)
        while text
            .as_bytes()
            .get(start)
            .is_some_and(|b| *b == b'\r' || *b == b'\n')
        {
            start += 1;
        }
        1 + text.as_bytes()[..start.min(text.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
    };
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            pos: Some(pos),
            expected_len,
            len,
        } => anyhow::anyhow!(
            "{source}: line {}: malformed CSV: the row has {len} cell{} but the header has \
             {expected_len}",
            line(pos.byte()),
            if *len == 1 { "" } else { "s" }
        ),
        _ => match e.position() {
            Some(pos) => anyhow::anyhow!(
                "{source}: line {}: malformed CSV: {}",
                line(pos.byte()),
                cause(e)
            ),
            None => anyhow::anyhow!("{source}: malformed CSV: {e}"),
        },
    }
}

/// What a csv error says of the cell, without the crate's record and byte position.
fn cause(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.kind() {
            csv::DeserializeErrorKind::Message(m) => m.clone(),
            other => other.to_string(),
        },
        _ => e.to_string(),
    }
}

/// A `--json` document: its `results` array holds one object per row, keyed by the CSV's
/// column names.
fn read_json(source: &str, text: &str) -> Result<Table> {
    let doc: Value = serde_json::from_str(text)
        .with_context(|| format!("{source}: starts like JSON but is not valid JSON"))?;
    let Some(results) = doc.get("results").and_then(Value::as_array) else {
        return Err(NotAResult(format!(
            "{source}: not a perftest result: a JSON file without a `results` array (as \
             written by `perftest --json`)"
        ))
        .into());
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
    let mut rows = Vec::new();
    for (i, row) in results.iter().enumerate() {
        let line = i + 1;
        let Some(obj) = row.as_object() else {
            bail!("{source}: line {line}: a result that is not an object (`{row}`)");
        };
        // `null` is an empty cell, as the column missing: the row's default.
        let obj: serde_json::Map<String, Value> = obj
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let row = serde_json::from_value::<Row>(Value::Object(obj.clone())).map_err(|e| {
            let cells = obj.iter().map(|(k, v)| {
                let one = serde_json::Map::from_iter([(k.clone(), v.clone())]);
                let alone = serde_json::from_value::<Row>(Value::Object(one));
                (k.clone(), alone.map(drop).map_err(|e| e.to_string()))
            });
            bad_row(source, line, &e, cells)
        })?;
        rows.push(row);
    }
    let lines = (1..=rows.len()).collect();
    Ok(Table {
        source: source.to_string(),
        rows,
        columns,
        lines,
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
        assert_eq!(a.rows, b.rows);
        let r = &a.rows[0];
        assert_eq!(
            (r.device_index, r.ms_median, r.test.as_str()),
            (0, Some(0.5), "T")
        );
        assert!(b.json.is_some() && a.json.is_none());
    }

    #[test]
    fn rows_carry_their_line_in_the_file_whatever_the_line_ends() {
        let lf = "device_index,device_name,test,ms_median,status\n0,GPU,A,0.5,ok\n\n0,GPU,B,,ok\n";
        let crlf = lf.replace('\n', "\r\n");
        for text in [lf.to_string(), crlf] {
            let t = read_text("f", &text).unwrap();
            // The header is line 1; an empty line 3 is skipped but counted.
            assert_eq!(t.lines, [2, 4], "{text:?}");
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
        // A cell that is not what its column holds: the line, the column and the cell.
        let h = "device_index,device_name,test,ms_median,status,groups";
        assert_eq!(
            err(&format!("{h}\n0,G,A,0.5,ok,8\n0,G,B,fast,ok,8\n")),
            "f: line 3: ms_median `fast` is not a number"
        );
        assert_eq!(
            err(&format!("{h}\n0,G,A,inf,ok,8\n")),
            "f: line 2: ms_median `inf` is not a number"
        );
        assert_eq!(
            err(&format!("{h}\n0,G,A,0.5,ok,4.5\n")),
            "f: line 2: groups `4.5` is not a whole number"
        );
        let json = r#"{"results":[{"device_index":0,"device_name":"G","test":"A",
                       "ms_median":0.5,"status":"ok"},{"device_index":0,"device_name":"G",
                       "test":"B","ms_median":"fast","status":"ok"}]}"#;
        assert_eq!(err(json), "f: line 2: ms_median `fast` is not a number");
        let json = r#"{"results":[{"device_index":0,"device_name":"G","test":"A",
                       "ms_median":0.5,"status":["ok"]}]}"#;
        assert!(
            err(json).starts_with("f: line 1: status: invalid type"),
            "{}",
            err(json)
        );
        let json = r#"{"results":[{"device_index":0,"device_name":"G","test":"A",
                       "ms_median":0.5,"status":"ok"},7]}"#;
        assert!(err(json).contains("f: line 2: a result that is not an object (`7`)"));
    }
}
