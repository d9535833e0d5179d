//! A line per drift check and per test, for diagnosing a run (`PERFTEST_TRACE=FILE`): when it happened on the host's clock (seconds since the first runner of the process started), on which device, what the baseline and the probe read, and how fast the device's timer ran against the host's clock since the previous check.

use std::io::Write as _;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The process's trace file, if `PERFTEST_TRACE` names one that could be created, and the
/// instant its times count from: one for every device, so that devices running at once
/// write one timeline.
fn shared() -> &'static (Option<Mutex<std::fs::File>>, Instant) {
    static SHARED: OnceLock<(Option<Mutex<std::fs::File>>, Instant)> = OnceLock::new();
    SHARED.get_or_init(|| {
        let file = std::env::var_os("PERFTEST_TRACE")
            .and_then(|p| std::fs::File::create(p).ok())
            .map(Mutex::new);
        (file, Instant::now())
    })
}

/// Where one device's trace lines go, if anywhere.
pub(super) struct Trace {
    /// The device's `--device` index, on each line.
    device: usize,
}

impl Trace {
    /// The trace asked for by `PERFTEST_TRACE`, or none, for device `device`.
    pub(super) fn from_env(device: usize) -> Self {
        Trace { device }
    }

    /// Whether lines are written.
    pub(super) fn on(&self) -> bool {
        shared().0.is_some()
    }

    /// Writes `what` and its fields as one tab-separated line, after the host time in s,
    /// ending with the device.
    pub(super) fn line(&self, what: &str, fields: &[(&str, String)]) {
        let (Some(file), start) = shared() else {
            return;
        };
        let mut text = format!("{:.4}\t{what}", start.elapsed().as_secs_f64());
        for (k, v) in fields {
            text.push_str(&format!("\t{k}={v}"));
        }
        text.push_str(&format!("\tdevice={}\n", self.device));
        if let Ok(mut f) = file.lock() {
            let _ = f.write_all(text.as_bytes());
        }
    }
}
