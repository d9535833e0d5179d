//! A line per drift check and per test, for diagnosing a run (`PERFTEST_TRACE=FILE`): when
//! it happened on the host's clock, what the baseline and the probe read, and how fast the
//! device's timer ran against the host's clock since the previous check.

use std::io::Write as _;
use std::sync::Mutex;
use std::time::Instant;

/// Where trace lines go, if anywhere.
pub(super) struct Trace {
    file: Option<Mutex<std::fs::File>>,
    start: Instant,
}

impl Trace {
    /// The trace asked for by `PERFTEST_TRACE`, or none.
    pub(super) fn from_env() -> Self {
        let file = std::env::var_os("PERFTEST_TRACE")
            .and_then(|p| std::fs::File::create(p).ok())
            .map(Mutex::new);
        Trace {
            file,
            start: Instant::now(),
        }
    }

    /// Whether lines are written.
    pub(super) fn on(&self) -> bool {
        self.file.is_some()
    }

    /// Writes `what` and its fields as one tab-separated line, after the host time in s.
    pub(super) fn line(&self, what: &str, fields: &[(&str, String)]) {
        let Some(file) = &self.file else { return };
        let mut text = format!("{:.4}\t{what}", self.start.elapsed().as_secs_f64());
        for (k, v) in fields {
            text.push_str(&format!("\t{k}={v}"));
        }
        text.push('\n');
        if let Ok(mut f) = file.lock() {
            let _ = f.write_all(text.as_bytes());
        }
    }
}
