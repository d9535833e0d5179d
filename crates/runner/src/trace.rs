//! Where a device's run spends its wall time (a [`Phase`] each, always counted), and a line per drift check and per test for diagnosing a run (`PERFTEST_TRACE=FILE`): when it happened on the host's clock (seconds since the first runner of the process started), on which device, what the baseline and the probe read, and how fast the device's timer ran against the host's clock since the previous check.

use std::io::Write as _;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What a device's run is doing: its wall time is counted against one of these at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Opening the device, creating the input, the views, images and samplers.
    Resources,
    /// Filling them from the input.
    Upload,
    /// Building the tests' pipelines (and their descriptor sets) and their latency kernels'.
    Pipelines,
    /// Bringing the clocks up before the first test, and calibrating the dispatch size.
    WarmUp,
    /// Waiting for the node (`--device all`): another device's test that excludes this one's,
    /// or, before the warm-up, the other devices' setups.
    HostWait,
    /// Bringing the clocks back up after the GPU idled.
    Rewarm,
    /// The drift checks' baseline timings.
    DriftCheck,
    /// Sizing a test's dispatch (its probes).
    Probes,
    /// A kernel test's timed dispatches (its warm-up included).
    Samples,
    /// A self-timed test's work (transfers, dispatch rows), its probe included.
    SelfTimed,
    /// Preparing a self-timed test's buffers before it runs.
    Prepare,
    /// A test's latency chase.
    Latency,
    /// Running a test once and comparing its output with the CPU's reference.
    Verify,
}

impl Phase {
    /// Every phase, in the order a run meets them.
    pub const ALL: [Phase; 13] = [
        Phase::Resources,
        Phase::Upload,
        Phase::Pipelines,
        Phase::WarmUp,
        Phase::HostWait,
        Phase::Rewarm,
        Phase::DriftCheck,
        Phase::Probes,
        Phase::Samples,
        Phase::SelfTimed,
        Phase::Prepare,
        Phase::Latency,
        Phase::Verify,
    ];

    /// The phase's name in the JSON document and on the terminal.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Resources => "resources",
            Phase::Upload => "upload",
            Phase::Pipelines => "pipelines",
            Phase::WarmUp => "warm-up",
            Phase::HostWait => "host wait",
            Phase::Rewarm => "re-warm",
            Phase::DriftCheck => "drift checks",
            Phase::Probes => "probes",
            Phase::Samples => "timed samples",
            Phase::SelfTimed => "self-timed",
            Phase::Prepare => "prepare",
            Phase::Latency => "latency",
            Phase::Verify => "verify",
        }
    }

    fn index(self) -> usize {
        Phase::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }
}

/// A [`Phase`], or the time no phase claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseOrOther(pub Option<Phase>);

impl PhaseOrOther {
    /// The phase's name, or `other`.
    pub fn name(self) -> &'static str {
        self.0.map_or("other", Phase::name)
    }
}

/// Where one device's run spent its wall time: seconds per [`Phase`], and in all (from the
/// device's first step to the last row); what no phase claims is the rest (CPU references,
/// reading results, the reporters).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeSpent {
    /// Seconds per phase, in [`Phase::ALL`]'s order; phases that took no time left out.
    pub phases: Vec<(Phase, f64)>,
    /// Seconds from the device's first step to now.
    pub total_s: f64,
}

impl TimeSpent {
    /// Seconds per phase since `before` (an earlier reading of the same device), and the
    /// seconds no phase claims as the last, under `None`.
    pub fn since(&self, before: &TimeSpent) -> Vec<(PhaseOrOther, f64)> {
        let was = |p: Phase| {
            before
                .phases
                .iter()
                .find(|(q, _)| *q == p)
                .map_or(0.0, |(_, s)| *s)
        };
        let mut out: Vec<(PhaseOrOther, f64)> = self
            .phases
            .iter()
            .map(|&(p, s)| (PhaseOrOther(Some(p)), s - was(p)))
            .collect();
        out.push((PhaseOrOther(None), self.other_s() - before.other_s()));
        out
    }

    /// The seconds no phase claims.
    pub fn other_s(&self) -> f64 {
        (self.total_s - self.phases.iter().map(|(_, s)| s).sum::<f64>()).max(0.0)
    }
}

/// Where the trace's lines go: held until [`begin_trace`] (so that a run refused before its
/// outputs open leaves the file the variable names as it was), then into the file; the
/// first write that fails ends the trace and is kept, for [`trace_error`].
struct Sink {
    path: std::path::PathBuf,
    file: Option<std::fs::File>,
    held: Vec<u8>,
    began: bool,
    error: Option<String>,
}

/// The process's trace, if `PERFTEST_TRACE` names a file, and the instant its times count
/// from: one for every device, so that devices running at once write one timeline.
fn shared() -> &'static (Option<Mutex<Sink>>, Instant) {
    static SHARED: OnceLock<(Option<Mutex<Sink>>, Instant)> = OnceLock::new();
    SHARED.get_or_init(|| {
        let sink = std::env::var_os("PERFTEST_TRACE")
            .filter(|p| !p.is_empty())
            .map(|path| {
                Mutex::new(Sink {
                    path: path.into(),
                    file: None,
                    held: Vec::new(),
                    began: false,
                    error: None,
                })
            });
        (sink, Instant::now())
    })
}

/// Starts writing the trace, if one is asked for: creates (truncates) its file and writes
/// the lines held so far. The caller calls it once the run's usage checks have passed and
/// its outputs are open. An error names the file and what failed.
pub fn begin_trace() -> Result<(), (std::path::PathBuf, String)> {
    let (Some(sink), _) = shared() else {
        return Ok(());
    };
    let Ok(mut sink) = sink.lock() else {
        return Ok(());
    };
    sink.began = true;
    let held = std::mem::take(&mut sink.held);
    let opened = std::fs::File::create(&sink.path).and_then(|mut f| {
        f.write_all(&held)?;
        Ok(f)
    });
    match opened {
        Ok(f) => {
            sink.file = Some(f);
            Ok(())
        }
        Err(e) => Err((sink.path.clone(), e.to_string())),
    }
}

/// The trace's file and why its lines stopped, where a write failed after
/// [`begin_trace`] (a full disk): the lines after it are lost, and the run says so.
pub fn trace_error() -> Option<(std::path::PathBuf, String)> {
    let (Some(sink), _) = shared() else {
        return None;
    };
    let sink = sink.lock().ok()?;
    sink.error.clone().map(|e| (sink.path.clone(), e))
}

/// Writes a line of the process (no device) to the trace, if one is asked for: where the time
/// before the first device's run and after the last goes (the instance, the outputs, the
/// teardown). The first call (or the first device's) fixes the trace's zero, so the binary
/// calls it first thing.
pub fn process_line(what: &str) {
    write_line(|t| format!("{t:.4}\tprocess\t{what}\n"));
}

/// Writes the line `text(seconds since the trace's zero)` to the trace, if one is asked for
/// (nothing is formatted where none is).
fn write_line(text: impl FnOnce(f64) -> String) {
    let (Some(sink), start) = shared() else {
        return;
    };
    let text = text(start.elapsed().as_secs_f64());
    let Ok(mut sink) = sink.lock() else {
        return;
    };
    if !sink.began {
        sink.held.extend_from_slice(text.as_bytes());
        return;
    }
    if let Some(f) = sink.file.as_mut() {
        if let Err(e) = f.write_all(text.as_bytes()) {
            sink.error = Some(e.to_string());
            sink.file = None;
        }
    }
}

/// One device's time accounting, and where its trace lines go, if anywhere.
pub(super) struct Trace {
    /// The device's `--device` index, on each line.
    device: usize,
    /// When the device's run started.
    start: Instant,
    /// Time per phase, and the phase being counted now (an inner span inside it is its).
    spent: Mutex<([Duration; Phase::ALL.len()], Option<Phase>)>,
}

impl Trace {
    /// The trace asked for by `PERFTEST_TRACE`, or none, for device `device`.
    pub(super) fn from_env(device: usize) -> Self {
        Trace {
            device,
            start: Instant::now(),
            spent: Mutex::new(([Duration::ZERO; Phase::ALL.len()], None)),
        }
    }

    /// Whether lines are written.
    pub(super) fn on(&self) -> bool {
        shared().0.is_some()
    }

    /// Runs `f`, its wall time counted against `phase`, unless another phase is being
    /// counted now (a drift check's timing inside a re-time counts once, as the outer one).
    pub(super) fn span<R>(&self, phase: Phase, f: impl FnOnce() -> R) -> R {
        let outer = self.spent.lock().map(|mut s| {
            let outer = s.1.is_some();
            if !outer {
                s.1 = Some(phase);
            }
            outer
        });
        if !matches!(outer, Ok(false)) {
            return f();
        }
        let t = Instant::now();
        let r = f();
        let dt = t.elapsed();
        if let Ok(mut s) = self.spent.lock() {
            s.0[phase.index()] += dt;
            s.1 = None;
        }
        r
    }

    /// Counts `dt` against `phase` (a phase timed by the caller).
    pub(super) fn add(&self, phase: Phase, dt: Duration) {
        if let Ok(mut s) = self.spent.lock() {
            s.0[phase.index()] += dt;
        }
    }

    /// Where the device's run has spent its time so far.
    pub(super) fn spent(&self) -> TimeSpent {
        let phases = self
            .spent
            .lock()
            .map(|s| {
                Phase::ALL
                    .iter()
                    .map(|p| (*p, s.0[p.index()].as_secs_f64()))
                    .filter(|(_, s)| *s > 0.0)
                    .collect()
            })
            .unwrap_or_default();
        TimeSpent {
            phases,
            total_s: self.start.elapsed().as_secs_f64(),
        }
    }

    /// Writes `what` and its fields as one tab-separated line, after the host time in s,
    /// ending with the device.
    pub(super) fn line(&self, what: &str, fields: &[(&str, String)]) {
        write_line(|t| {
            let mut text = format!("{t:.4}\t{what}");
            for (k, v) in fields {
                text.push_str(&format!("\t{k}={v}"));
            }
            text + &format!("\tdevice={}\n", self.device)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inner_span_counts_once_as_the_outer_phase() {
        let t = Trace::from_env(0);
        t.span(Phase::Samples, || {
            std::thread::sleep(Duration::from_millis(20));
            t.span(Phase::DriftCheck, || {
                std::thread::sleep(Duration::from_millis(20))
            });
        });
        t.span(Phase::Verify, || {
            std::thread::sleep(Duration::from_millis(10))
        });
        let spent = t.spent();
        let get = |p| spent.phases.iter().find(|(q, _)| *q == p).map(|(_, s)| *s);
        assert!(get(Phase::Samples).unwrap() >= 0.040, "{spent:?}");
        assert_eq!(get(Phase::DriftCheck), None, "{spent:?}");
        assert!(get(Phase::Verify).unwrap() >= 0.010, "{spent:?}");
        assert!(
            spent.total_s >= 0.050 && spent.other_s() < spent.total_s,
            "{spent:?}"
        );
    }

    #[test]
    fn a_rows_phases_are_the_differences_of_two_readings() {
        let before = TimeSpent {
            phases: vec![(Phase::Samples, 1.0)],
            total_s: 2.0,
        };
        // Samples grew by 0.25 s, a re-warm of 0.5 s is new; 0.25 s no phase claims.
        let after = TimeSpent {
            phases: vec![(Phase::Rewarm, 0.5), (Phase::Samples, 1.25)],
            total_s: 3.0,
        };
        let named: Vec<(&str, f64)> = after
            .since(&before)
            .into_iter()
            .map(|(p, s)| (p.name(), s))
            .collect();
        assert_eq!(
            named,
            [
                (Phase::Rewarm.name(), 0.5),
                (Phase::Samples.name(), 0.25),
                ("other", 0.25)
            ]
        );
    }
}
