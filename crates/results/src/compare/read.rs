//! Reads a result file that `perftest --csv` or `--json` wrote into typed [`Row`]s, with one
//! clear error for every kind of bad input; `compare`, `summary` and the HTML report all read
//! through it.

use crate::document::Document;
use crate::gzip;
use crate::row::Row;
use anyhow::{bail, Context as _, Result};
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read as _;
use std::path::Path;
use std::time::Duration;

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
    /// A JSON file's context (devices, limits, calibration, command line), read once with
    /// its rows; `None` for a CSV.
    pub document: Option<Document>,
}

/// The most a result file may hold, as read and as inflated: a whole `--suite all` run's
/// CSV is a few MB, its JSON some tens, so a file this large is no result perftest wrote
/// (`/dev/zero`, an endless FIFO, a disk image).
pub const MAX_BYTES: u64 = 256 << 20;

/// How long a reader waits for what is not a regular file (a FIFO, a pipe, a device) to
/// give all it holds: a writer that never ends, or never starts, is given up on.
pub const MAX_WAIT: Duration = Duration::from_secs(120);

impl Table {
    /// Refuses a file where one test appears twice for one device (a run's rows, or two
    /// runs' concatenated, which no run writes): which row would count is not the file's
    /// to leave open. `compare` and `report` refuse it with the same words.
    pub fn check_unique(&self) -> Result<()> {
        let mut first: HashMap<(u32, &str, &str), usize> = HashMap::new();
        for (row, line) in self.rows.iter().zip(&self.lines) {
            let key = (
                row.device_index,
                row.device_name.as_str(),
                row.test.as_str(),
            );
            if let Some(first) = first.insert(key, *line) {
                bail!(
                    "{}: line {line}: test `{}` appears twice for device {} ({}), first on \
                     line {first}",
                    self.source,
                    row.test,
                    row.device_index,
                    row.device_name
                );
            }
        }
        Ok(())
    }
}

/// Reads `path` (CSV or JSON, told apart by its first character; gzipped or not), at most
/// [`MAX_BYTES`] of it and, where it is no regular file, for at most [`MAX_WAIT`].
pub fn read_path(path: &Path) -> Result<Table> {
    let source = path.display().to_string();
    let mut bytes = read_bounded(path, MAX_BYTES, MAX_WAIT)?;
    // Results are kept gzipped in `results/` (`all.csv.gz`): read them as they are.
    if gzip::is_gzip(&bytes) {
        let inflated = gzip::decompress_at_most(&bytes, MAX_BYTES)
            .with_context(|| format!("{source}: a gzip file"))?;
        bytes = inflated.bytes;
        if inflated.cut {
            // A run killed while writing `--csv FILE.gz`: its rows up to the last one
            // flushed, without a row cut in half.
            let end = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
            if end == 0 {
                bail!(
                    "{source}: a gzip file cut short: it ends before its first whole line \
                     ({} byte(s) of it inflate)",
                    bytes.len()
                );
            }
            bytes.truncate(end);
        }
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(not_text(&source).into());
    };
    read_text(&source, &text)
}

/// The error of a file whose bytes are no text (and no gzip).
fn not_text(source: &str) -> NotAResult {
    NotAResult(format!(
        "{source}: not a perftest result (not text); give a CSV written by `perftest --csv` \
         or a JSON file written by `perftest --json`"
    ))
}

/// The bytes of `path`, at most `limit` of them: refused once it is seen to hold more, or
/// (where it does not start as gzip) a NUL byte in its first 64 KiB, which no text has
/// (`/dev/zero`). A path that is no regular file is read on a thread of its own, given up
/// after `wait` (a FIFO without a writer never opens; an endless one never ends).
pub fn read_bounded(path: &Path, limit: u64, wait: Duration) -> Result<Vec<u8>> {
    let source = path.display().to_string();
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {source}"))?;
    if meta.is_dir() {
        bail!("cannot read {source}: it is a folder; give a result file");
    }
    if meta.is_file() {
        if meta.len() > limit {
            return Err(too_large(&source, limit).into());
        }
        return read_all(path, &source, limit);
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let (path, from) = (path.to_path_buf(), source.clone());
    // Left blocked where the writer never comes: the process ends without it.
    std::thread::spawn(move || {
        let _ = tx.send(read_all(&path, &from, limit));
    });
    rx.recv_timeout(wait).unwrap_or_else(|_| {
        Err(anyhow::anyhow!(
            "cannot read {source}: it gave no end of file in {} s (a FIFO or device without \
             a writer, or one that never ends); give a result file",
            wait.as_secs()
        ))
    })
}

/// [`read_bounded`]'s read: what `path` holds, up to `limit` bytes.
fn read_all(path: &Path, source: &str, limit: u64) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {source}"))?;
    let mut reader = file.take(limit.saturating_add(1));
    let mut bytes = Vec::new();
    // The first 64 KiB alone: a file of NUL bytes is told before more is read.
    (&mut reader)
        .take(64 << 10)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {source}"))?;
    if !gzip::is_gzip(&bytes) && bytes.contains(&0) {
        return Err(not_text(source).into());
    }
    reader
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {source}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(source, limit).into());
    }
    Ok(bytes)
}

/// The error of a file larger than any result.
fn too_large(source: &str, limit: u64) -> NotAResult {
    NotAResult(format!(
        "{source}: not a perftest result: more than {} (a whole run's results are a few MB); \
         stopped reading",
        gzip::size(limit)
    ))
}

/// Reads the text of a result file; errors start with `source`.
pub fn read_text(source: &str, text: &str) -> Result<Table> {
    let body = text.trim_start_matches('\u{feff}');
    if body.trim().is_empty() {
        bail!("{source}: the file is empty (no CSV header, no rows)");
    }
    let table = match body.trim_start().chars().next() {
        Some('{') => read_json(source, body)?,
        // No CSV starts so; told as the JSON it is, not as a CSV that lacks columns.
        Some('[') => {
            return Err(NotAResult(format!(
                "{source}: not a perftest result: a JSON array, where `perftest --json` writes \
                 an object with a `results` array"
            ))
            .into())
        }
        _ => read_csv(source, body)?,
    };
    // A test's name is its key in every reader: none is empty, none spans lines (a quoted
    // line break would break every table and list it is printed in).
    for (row, line) in table.rows.iter().zip(&table.lines) {
        if row.test.trim().is_empty() {
            bail!("{source}: line {line}: empty `test` cell");
        }
        if row.test.chars().any(char::is_control) {
            bail!(
                "{source}: line {line}: the test name {:?} holds a control character (a \
                 line break, a tab); perftest's names have none",
                row.test
            );
        }
    }
    if table.rows.is_empty() {
        if table.document.is_some() {
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
                (
                    h.to_string(),
                    alone.map(drop).map_err(|e| cell_error(h, cell, &e)),
                )
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
        document: None,
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

/// Why a CSV cell does not read alone, quoting it as the file has it: the csv crate hands
/// a number column's cell over as the number it parses to (`1e400` as `inf`), so such a
/// cell is read again as text, which keeps its spelling.
fn cell_error(column: &str, cell: &str, e: &csv::Error) -> String {
    let number = crate::row::COLUMNS
        .iter()
        .any(|(c, kind)| *c == column && *kind == crate::row::Kind::Number);
    number
        .then(|| as_text_error(column, cell))
        .flatten()
        .unwrap_or_else(|| cause(e))
}

/// Why the cell `text` of `column` does not read, read as text (the spelling kept).
fn as_text_error(column: &str, text: &str) -> Option<String> {
    use serde::de::value::{Error, MapDeserializer};
    let as_text = MapDeserializer::<_, Error>::new(std::iter::once((column, text)));
    <Row as serde::Deserialize>::deserialize(as_text)
        .err()
        .map(|e| e.to_string())
}

/// The cells of the `index`th result of a JSON document, each as the file spells it.
fn raw_cells(text: &str, index: usize) -> HashMap<String, String> {
    raw_results(text)
        .and_then(|rows| rows.get(index).copied())
        .and_then(|row| serde_json::from_str::<HashMap<String, &RawValue>>(row.get()).ok())
        .map(|cells| {
            cells
                .into_iter()
                .map(|(k, v)| (k, v.get().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The `results` entries of a JSON document as the text spells them (slices of `text`).
fn raw_results(text: &str) -> Option<Vec<&RawValue>> {
    #[derive(serde::Deserialize)]
    struct Doc<'a> {
        #[serde(borrow)]
        results: Vec<&'a RawValue>,
    }
    serde_json::from_str::<Doc>(text).ok().map(|d| d.results)
}

/// The line (1-based) each of a JSON document's `count` results starts on, for errors that
/// name the line as a CSV's do; where the text does not parse so, the result's number.
fn result_lines(text: &str, count: usize) -> Vec<usize> {
    let starts = raw_results(text).map(|rows| {
        let mut line = 1;
        let mut counted = 0;
        rows.iter()
            .map(|row| {
                // A borrowed raw value is a slice of `text`: its offset is where it starts.
                let at = (row.get().as_ptr() as usize)
                    .saturating_sub(text.as_ptr() as usize)
                    .min(text.len());
                line += text.as_bytes()[counted.min(at)..at]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count();
                counted = counted.max(at);
                line
            })
            .collect::<Vec<_>>()
    });
    match starts {
        Some(lines) if lines.len() == count => lines,
        _ => (1..=count).collect(),
    }
}

/// The number a JSON parse error calls out of range (`1e400`), as the text spells it: the
/// error's column is the number's last character.
fn out_of_range(text: &str, e: &serde_json::Error) -> Option<String> {
    if !e.to_string().starts_with("number out of range") {
        return None;
    }
    let line = text.lines().nth(e.line().checked_sub(1)?)?;
    let end = line.char_indices().nth(e.column().checked_sub(1)?)?.0 + 1;
    let number = |c: char| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-');
    let start = line[..end].rfind(|c: char| !number(c)).map_or(0, |i| i + 1);
    Some(line[start..end].to_string()).filter(|n| !n.is_empty())
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
    let doc: Value = serde_json::from_str(text).map_err(|e| match out_of_range(text, &e) {
        Some(number) => anyhow::anyhow!(
            "{source}: `{number}` (line {}, column {}) is out of range (beyond ±1.8e308)",
            e.line(),
            e.column()
        ),
        None => anyhow::Error::new(e)
            .context(format!("{source}: starts like JSON but is not valid JSON")),
    })?;
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
    let at = result_lines(text, results.len());
    let mut rows = Vec::new();
    for (i, row) in results.iter().enumerate() {
        let line = *at.get(i).unwrap_or(&(i + 1));
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
            // A number as the file spells it (`99999999999999999999999999999999999`, which
            // reads as 1e35), for the error to quote.
            let raw = raw_cells(text, i);
            let cells = obj.iter().map(|(k, v)| {
                let one = serde_json::Map::from_iter([(k.clone(), v.clone())]);
                let alone = serde_json::from_value::<Row>(Value::Object(one));
                let why = alone.map(drop).map_err(|e| {
                    raw.get(k)
                        .filter(|_| v.is_number())
                        .and_then(|t| as_text_error(k, t))
                        .unwrap_or_else(|| e.to_string())
                });
                (k.clone(), why)
            });
            bad_row(source, line, &e, cells)
        })?;
        rows.push(row);
    }
    let lines = result_lines(text, rows.len());
    Ok(Table {
        source: source.to_string(),
        rows,
        columns,
        lines,
        document: Some(Document::from_value(&doc)),
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
        assert!(b.document.is_some() && a.document.is_none());
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
    fn a_json_rows_line_is_where_it_starts_in_the_file() {
        let json =
            "{\n  \"results\": [\n    {\"device_index\": 0, \"device_name\": \"GPU\",\n     \
                    \"test\": \"A\", \"ms_median\": 0.5, \"status\": \"ok\"},\n    \
                    {\"device_index\": 0, \"device_name\": \"GPU\",\n     \"test\": \"B\", \
                    \"ms_median\": -1, \"status\": \"ok\"}\n  ]\n}\n";
        let e = read_text("f", json).err().unwrap().to_string();
        assert!(
            e.starts_with("f: line 5: ms_median `-1` is negative"),
            "{e}"
        );
        let ok = json.replace("-1", "1");
        assert_eq!(read_text("f", &ok).unwrap().lines, [3, 5]);
    }

    #[test]
    fn test_names_are_never_empty_nor_span_lines() {
        let err = |text: &str| read_text("f", text).err().unwrap().to_string();
        let h = "device_index,device_name,test,ms_median,status\n";
        assert!(err(&format!("{h}0,GPU,,0.5,ok\n")).contains("line 2: empty `test` cell"));
        let e = err(&format!("{h}0,GPU,\"A\nB\",0.5,ok\n"));
        assert!(
            e.contains("line 2: the test name \"A\\nB\" holds a control character"),
            "{e}"
        );
        assert!(err("[{\"test\": \"A\"}]").contains("a JSON array"));
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

    #[test]
    fn numbers_out_of_range_are_quoted_as_the_file_spells_them() {
        let err = |text: &str| read_text("f", text).err().unwrap().to_string();
        let h = "device_index,device_name,test,ms_median,status,groups";
        assert_eq!(
            err(&format!("{h}\n0,G,A,1e400,ok,8\n")),
            "f: line 2: ms_median `1e400` is out of range (beyond ±1.8e308)"
        );
        // 35 digits: a number (of a time, 1e35 ms), not "an integer as u128".
        let digits = "99999999999999999999999999999999999";
        let t = read_text("f", &format!("{h}\n0,G,A,{digits},ok,8\n")).unwrap();
        assert_eq!(t.rows[0].ms_median, Some(1e35));
        assert_eq!(
            err(&format!("{h}\n0,G,A,0.5,ok,{digits}\n")),
            format!("f: line 2: groups `{digits}` is out of range (at most 4294967295)")
        );
        let json = |cell: &str| {
            format!(
                "{{\"results\":[{{\"device_index\":0,\"device_name\":\"G\",\"test\":\"A\",\n\
                 \"ms_median\":0.5,\"status\":\"ok\",\"groups\":{cell}}}]}}"
            )
        };
        assert_eq!(
            err(&json(digits)),
            format!("f: line 1: groups `{digits}` is out of range (at most 4294967295)")
        );
        assert_eq!(
            err(&json("1e400")),
            "f: `1e400` (line 2, column 44) is out of range (beyond ±1.8e308)"
        );
    }

    #[test]
    fn a_test_twice_for_one_device_is_refused() {
        let h = "device_index,device_name,test,ms_median,status";
        let t = read_text(
            "f",
            &format!("{h}\n0,G,A,0.5,ok\n1,G,A,0.5,ok\n0,G,A,0.6,ok\n"),
        )
        .unwrap();
        assert_eq!(
            t.check_unique().unwrap_err().to_string(),
            "f: line 4: test `A` appears twice for device 0 (G), first on line 2"
        );
    }

    #[test]
    fn committed_results_hold_each_test_once_per_device() {
        // What `summary` now refuses is in none of the results it is documented on.
        fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.to_string_lossy().to_string();
                if path.is_dir() {
                    walk(&path, out);
                } else if [".csv", ".csv.gz", ".json", ".json.gz"]
                    .iter()
                    .any(|e| name.ends_with(e))
                {
                    out.push(path);
                }
            }
        }
        let mut paths = Vec::new();
        walk(
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../results")),
            &mut paths,
        );
        let mut checked = 0;
        for path in paths {
            if let Ok(table) = read_path(&path) {
                table.check_unique().unwrap();
                checked += 1;
            }
        }
        assert!(checked >= 50, "{checked}");
    }

    #[test]
    fn reads_are_bounded_in_size_and_time() {
        let dir = std::env::temp_dir().join(format!("perftest-read-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.csv");
        std::fs::write(&big, "x".repeat(4096)).unwrap();
        let err = read_bounded(&big, 1024, MAX_WAIT).unwrap_err();
        assert!(err.to_string().contains("more than 1024 bytes"), "{err}");
        assert!(err.downcast_ref::<NotAResult>().is_some());
        assert_eq!(read_bounded(&big, 4096, MAX_WAIT).unwrap().len(), 4096);
        let err = read_bounded(&dir, 1024, MAX_WAIT).unwrap_err().to_string();
        assert!(err.contains("it is a folder"), "{err}");
        #[cfg(unix)]
        {
            // NUL bytes: told from the first block, not read to the limit.
            let err = read_bounded(Path::new("/dev/zero"), u64::MAX, MAX_WAIT).unwrap_err();
            assert!(err.to_string().contains("not text"), "{err}");
            // A FIFO nobody writes: given up on.
            let fifo = dir.join("fifo");
            assert!(std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success());
            let started = std::time::Instant::now();
            let err = read_bounded(&fifo, 1024, Duration::from_millis(300)).unwrap_err();
            assert!(err.to_string().contains("no end of file in"), "{err}");
            assert!(started.elapsed() < Duration::from_secs(5));
            // Let the blocked reader go.
            let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
