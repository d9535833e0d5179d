//! Gzip through flate2: a result file that starts with gzip's magic number reads decompressed, and an output named `*.gz` is written compressed, flushed row by row.

use anyhow::{bail, Result};
use flate2::write::GzEncoder;
use std::io::{self, Read as _, Write};
use std::path::Path;

/// Whether `bytes` start with gzip's magic number.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// Whether an output path asks for gzip: it ends in `.gz` (`run.csv.gz`).
pub fn is_gzip_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// A gzip file's contents, decompressed.
#[derive(Debug)]
pub struct Inflated {
    /// Every member's data, concatenated.
    pub bytes: Vec<u8>,
    /// The file ends before gzip's trailer: a writer that never finished (a killed run),
    /// or a copy cut short. `bytes` holds what decompresses, up to the last flush.
    pub cut: bool,
}

/// Decompresses a gzip file (every member; the CRC-32 and length in each trailer are
/// checked, so a damaged file cannot pass silently). A file that just stops, as a killed
/// run leaves its `--csv FILE.gz` (each row flushed, no trailer), gives what it holds.
pub fn decompress(bytes: &[u8]) -> Result<Inflated> {
    decompress_at_most(bytes, u64::MAX)
}

/// [`decompress`], refusing data that inflates to more than `limit` bytes (a few kilobytes
/// of gzip can hold gigabytes of zeros): the error says so, and nothing more is inflated.
pub fn decompress_at_most(bytes: &[u8], limit: u64) -> Result<Inflated> {
    let mut out = Vec::new();
    let read = flate2::read::MultiGzDecoder::new(bytes)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out);
    if out.len() as u64 > limit {
        bail!("the gzip data inflates to more than {}", size(limit));
    }
    match read {
        Ok(_) => Ok(Inflated {
            bytes: out,
            cut: false,
        }),
        // `read_to_end` keeps what was read before the end came too soon.
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(Inflated {
            bytes: out,
            cut: true,
        }),
        Err(e) => bail!("the gzip data is damaged ({e})"),
    }
}

/// `256 MiB`, or `512 bytes` below a MiB.
pub fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// An output stream, gzip-compressed or not. A flush of a compressed one is gzip's sync
/// flush: everything written so far decompresses, whatever happens to the process next.
/// [`Output::finish`] writes gzip's trailer; dropped without it, the trailer is written on
/// the way out (and never when the process is killed).
pub enum Output<W: Write> {
    Plain(W),
    Gzip(GzEncoder<W>),
}

impl<W: Write> Output<W> {
    /// `out`, compressed where `gzip`.
    pub fn new(out: W, gzip: bool) -> Self {
        if gzip {
            Output::Gzip(GzEncoder::new(out, flate2::Compression::default()))
        } else {
            Output::Plain(out)
        }
    }

    /// Ends the stream (gzip's trailer), flushes it, and returns the writer under it.
    pub fn finish(self) -> io::Result<W> {
        let mut out = match self {
            Output::Plain(out) => out,
            Output::Gzip(gz) => gz.finish()?,
        };
        out.flush()?;
        Ok(out)
    }
}

impl<W: Write> Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Plain(out) => out.write(buf),
            Output::Gzip(gz) => gz.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Plain(out) => out.flush(),
            Output::Gzip(gz) => gz.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A writer whose bytes stay readable while it is in use (as a file's are to a reader).
    #[derive(Clone, Default)]
    struct Shared(Rc<RefCell<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_finished_stream_reads_back_whole_and_a_damaged_one_is_refused() {
        let mut out = Output::new(Vec::new(), true);
        out.write_all(b"hello hello hello\n").unwrap();
        let bytes = out.finish().unwrap();
        assert!(is_gzip(&bytes));
        let back = decompress(&bytes).unwrap();
        assert_eq!(back.bytes, b"hello hello hello\n");
        assert!(!back.cut);
        // Two members (`cat a.gz b.gz`) read as one.
        let twice = [bytes.clone(), bytes.clone()].concat();
        assert_eq!(decompress(&twice).unwrap().bytes.len(), 36);
        // One bit flipped in the trailer's CRC-32: refused, not read.
        let mut bad = bytes.clone();
        let at = bad.len() - 8;
        bad[at] ^= 1;
        let err = decompress(&bad).unwrap_err().to_string();
        assert!(err.contains("damaged"), "{err}");
    }

    #[test]
    fn a_stream_never_finished_reads_up_to_its_last_flush() {
        let file = Shared::default();
        let mut out = Output::new(file.clone(), true);
        out.write_all(b"header\nrow 1\n").unwrap();
        out.flush().unwrap();
        out.write_all(b"row 2\n").unwrap();
        out.flush().unwrap();
        // Not flushed: still inside the compressor when the process dies.
        out.write_all(b"row 3, half").unwrap();
        // The process is killed here: no trailer, nothing more (what drop would write is
        // never written).
        let on_disk = file.0.borrow().clone();
        std::mem::forget(out);
        let back = decompress(&on_disk).unwrap();
        assert!(back.cut);
        assert_eq!(back.bytes, b"header\nrow 1\nrow 2\n");
    }

    #[test]
    fn plain_outputs_pass_through_and_gz_paths_are_compressed() {
        let mut out = Output::new(Vec::new(), false);
        out.write_all(b"a,b\n").unwrap();
        assert_eq!(out.finish().unwrap(), b"a,b\n");
        assert!(is_gzip_path(Path::new("run.csv.gz")) && is_gzip_path(Path::new("R.JSON.GZ")));
        assert!(!is_gzip_path(Path::new("run.csv")) && !is_gzip_path(Path::new("-")));
    }

    #[test]
    fn inflating_stops_at_its_limit() {
        let mut out = Output::new(Vec::new(), true);
        out.write_all(&vec![0u8; 1 << 20]).unwrap();
        let bytes = out.finish().unwrap();
        let err = decompress_at_most(&bytes, 1 << 19).unwrap_err().to_string();
        assert!(err.contains("inflates to more than 524288 bytes"), "{err}");
        assert_eq!(
            decompress_at_most(&bytes, 1 << 20).unwrap().bytes.len(),
            1 << 20
        );
    }

    #[test]
    fn a_committed_result_file_reads_whole() {
        // Written by gzip(1); the trailer's CRC-32 and length are checked.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../results/h100/driver/b61aad8/all.csv.gz"
        );
        let back = decompress(&std::fs::read(path).unwrap()).unwrap();
        assert!(!back.cut);
        let text = String::from_utf8(back.bytes).unwrap();
        assert!(text.starts_with("device_index,device_name,"));
        assert_eq!(text.lines().count(), 3693);
    }
}
