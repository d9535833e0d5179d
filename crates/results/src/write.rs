//! The CSV result file: its header at once, then each [`Row`] as it comes, flushed (gzip-compressed for a `.gz` path).

use crate::gzip::Output;
use crate::row::{Row, COLUMNS};
use anyhow::{Context as _, Result};
use std::io::Write;

/// A CSV output (a file, stdout, memory) with a header and one flushed row per call.
pub struct CsvWriter {
    /// `None` once finished.
    writer: Option<csv::Writer<Output<Box<dyn Write>>>>,
}

impl CsvWriter {
    /// Starts the CSV on `out`, gzip-compressed where `gzip`, and writes the header at once
    /// (so an output that takes no bytes fails before any row).
    pub fn new(out: Box<dyn Write>, gzip: bool) -> Result<Self> {
        // The header is written here, not by serde with the first row: it must go out
        // before there is a row.
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Output::new(out, gzip));
        writer
            .write_record(COLUMNS.iter().map(|(name, _)| name))
            .context("writing the CSV header")?;
        writer.flush().context("writing the CSV header")?;
        Ok(CsvWriter {
            writer: Some(writer),
        })
    }

    /// Writes `row` and flushes it (a sync flush where compressed: a killed run's file
    /// still holds every row written so far).
    pub fn row(&mut self, row: &Row) -> Result<()> {
        let writer = self.writer.as_mut().context("a CSV row after its end")?;
        writer.serialize(row).context("writing a CSV row")?;
        writer.flush().context("writing a CSV row")?;
        Ok(())
    }

    /// Flushes the last row and ends the stream (gzip's trailer); later rows are refused.
    pub fn finish(&mut self) -> Result<()> {
        let Some(writer) = self.writer.take() else {
            return Ok(());
        };
        let out = writer
            .into_inner()
            .map_err(|e| e.into_error())
            .context("closing the CSV")?;
        // The writer under it (a file, stdout) is flushed, then dropped: a file closes.
        out.finish().context("closing the CSV")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[derive(Clone, Default)]
    struct Shared(Rc<RefCell<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn row(test: &str, ms: f64) -> Row {
        Row {
            device_name: "GPU, \"quoted\"".into(),
            test: test.into(),
            status: Some(crate::Status::Ok),
            ms_median: Some(ms),
            ..Default::default()
        }
    }

    #[test]
    fn each_row_is_in_the_output_as_soon_as_it_is_written() {
        for gzip in [false, true] {
            let out = Shared::default();
            let mut csv = CsvWriter::new(Box::new(out.clone()), gzip).unwrap();
            let text = || {
                let bytes = out.0.borrow().clone();
                let bytes = if gzip {
                    crate::gzip::decompress(&bytes).unwrap().bytes
                } else {
                    bytes
                };
                String::from_utf8(bytes).unwrap()
            };
            assert!(text().starts_with("device_index,device_name,"));
            assert_eq!(text().lines().count(), 1);
            csv.row(&row("A", 0.5)).unwrap();
            csv.row(&row("B", 1.25)).unwrap();
            // Not finished (as a killed run leaves it): both rows read back.
            let t = crate::compare::read::read_text("run", &text()).unwrap();
            assert_eq!(t.rows, [row("A", 0.5), row("B", 1.25)]);
            csv.finish().unwrap();
            assert!(csv.row(&row("C", 2.0)).is_err());
            if gzip {
                assert!(!crate::gzip::decompress(&out.0.borrow()).unwrap().cut);
            }
        }
    }

    /// Every committed CSV under `dir` (plain or gzipped), recursively.
    /// A committed result file's text as the tool wrote it (a `.gz` one inflated).
    fn committed_bytes(path: &std::path::Path) -> Vec<u8> {
        let bytes = std::fs::read(path).unwrap();
        if crate::gzip::is_gzip(&bytes) {
            crate::gzip::decompress(&bytes).unwrap().bytes
        } else {
            bytes
        }
    }

    fn committed_csvs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        committed(dir, &[".csv", ".csv.gz"], out);
    }

    /// Every committed file under `dir` whose name ends with one of `ends`, recursively.
    fn committed(dir: &std::path::Path, ends: &[&str], out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy();
            if path.is_dir() {
                committed(&path, ends, out);
            } else if ends.iter().any(|e| name.ends_with(e)) {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_committed_result_reads_its_words_as_types() {
        // Every result file committed (CSV and JSON, of every column set since the first),
        // read: each status, mode, conditions, unit and clock-events cell is one of the
        // results' words.
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results");
        let mut paths = Vec::new();
        committed(
            std::path::Path::new(root),
            &[".csv", ".csv.gz", ".json", ".json.gz"],
            &mut paths,
        );
        let mut read = 0;
        for path in paths {
            let bytes = committed_bytes(&path);
            let text = String::from_utf8_lossy(&bytes);
            // Results only: the tool's CSV header, or a JSON document with its rows.
            if !(text.starts_with("device_index,") || text.contains("\"results\"")) {
                continue;
            }
            if let Err(e) = crate::compare::read::read_path(&path) {
                panic!("{}: {e:#}", path.display());
            }
            read += 1;
        }
        assert!(read >= 100, "only {read} result files read");
    }

    #[test]
    fn committed_results_write_back_byte_for_byte() {
        // What the tool wrote, read into rows and written again, is the same text: the
        // writer keeps every column's decimals, quoting and order. A file written before
        // the last columns were appended (`host`, `device_uuid`, `latency_ns`, `host_caches`,
        // `subgroup_size`, `working_set_bytes`) reads them as empty, and writes back as it
        // was with those columns added, empty.
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results");
        let mut paths = Vec::new();
        committed_csvs(std::path::Path::new(root), &mut paths);
        let names: Vec<&str> = COLUMNS.iter().map(|(c, _)| *c).collect();
        let mut checked = 0;
        for path in paths {
            let bytes = committed_bytes(&path);
            let text = String::from_utf8(bytes).unwrap();
            // Files of today's columns, or of today's up to the last appended ones.
            let Some(kept) = (names.len() - 6..=names.len())
                .find(|k| text.lines().next() == Some(names[..*k].join(",").as_str()))
            else {
                continue; // an older file (fewer columns), or not a result
            };
            let added = &names[kept..];
            let expected: String = text
                .lines()
                .enumerate()
                .map(|(i, line)| {
                    let cells = if i == 0 {
                        added.iter().map(|c| format!(",{c}")).collect::<String>()
                    } else {
                        ",".repeat(added.len())
                    };
                    format!("{line}{cells}\n")
                })
                .collect();
            let table = crate::compare::read::read_path(&path).unwrap();
            let out = Shared::default();
            let mut csv = CsvWriter::new(Box::new(out.clone()), false).unwrap();
            for row in &table.rows {
                csv.row(row).unwrap();
            }
            csv.finish().unwrap();
            let written = String::from_utf8(out.0.borrow().clone()).unwrap();
            assert!(
                written == expected,
                "{} does not write back as it was",
                path.display()
            );
            checked += 1;
        }
        assert!(checked >= 50, "only {checked} files have today's columns");
    }
}
