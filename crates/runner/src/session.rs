//! One device's run: the baseline first, then the tests block by block, each block checked
//! for drift and settled before its rows go to a [`Sink`].

use super::drift::Check;
use super::{Conditions, Drift, Measurement, Mode, Runner, Status};
use anyhow::Result;
use perftest_results::Note;
use perftest_suites::catalog::{self, TestCase};
use perftest_suites::families::Unit;
use std::collections::HashMap;

/// Where a run's rows and messages go (the application's reporters and progress bar).
pub trait Sink {
    /// A line for the user (stderr), above any progress display.
    fn note(&self, text: &str);
    /// `test` is about to run.
    fn starting(&self, test: &TestCase);
    /// A block's finished rows (with their 1-based index in the full suite).
    fn block(&mut self, rows: &[(usize, Measurement)], baseline: &Baseline) -> Result<()>;
    /// The signal that asked the run to stop (`SIGINT`, `SIGTERM`…), if one did.
    fn interrupted(&self) -> Option<&'static str>;
}

/// What a run of one device asks for.
pub struct Plan<'a> {
    /// The tests in run order, with their 1-based index in the full suite.
    pub order: &'a [(usize, TestCase)],
    /// Whether the order is shuffled (blocks then mix families).
    pub shuffled: bool,
    pub mode: Mode,
    /// The drift check: `None` for none, else its limit (`None` = automatic).
    pub drift: Option<Option<f64>>,
}

/// How one device's run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    Interrupted,
}

/// The baseline's measurement and throughput (loads per ms), measured before the other
/// tests so that every line can carry its ratio as it is printed.
pub struct Baseline {
    pub test: TestCase,
    pub measurement: Option<Measurement>,
    rate: Option<f64>,
    /// Time per workgroup (ms) of every timed row so far: the references of the rows whose
    /// ratio is relative to another test of their family (see `TestCase::ratio_reference`).
    per_group_ms: HashMap<TestCase, f64>,
}

impl Baseline {
    /// Times the baseline where it is selected (time mode). A baseline that is not at the
    /// steady clock (throttled) has no rate: the ratios would not be steady-state figures.
    fn measure(runner: &Runner<'_>, plan: &Plan<'_>, sink: &impl Sink) -> Self {
        let test = catalog::baseline();
        let selected = plan.order.iter().any(|(_, t)| *t == test);
        let measurement = (selected && plan.mode == Mode::Time).then(|| runner.run(&test));
        let flagged = measurement
            .as_ref()
            .filter(|m| m.conditions.is_flagged())
            .map(|m| perftest_results::note::words(&m.notes));
        let rate = measurement.as_ref().and_then(Self::rate_of);
        if plan.mode == Mode::Time && rate.is_none() {
            let why = match (&flagged, selected) {
                (Some(reason), _) => format!("was not timed at the steady clock ({reason})"),
                (None, true) => "failed".into(),
                (None, false) => "is not selected".into(),
            };
            sink.note(&format!(
                "the baseline {} {why}; ratios relative to it are left out",
                test.name()
            ));
        }
        Baseline {
            test,
            measurement,
            rate,
            per_group_ms: HashMap::new(),
        }
    }

    /// Loads per ms of a baseline measurement timed at the steady state (none when flagged:
    /// the ratios would not be steady-state figures).
    fn rate_of(m: &Measurement) -> Option<f64> {
        let s = m
            .stats
            .filter(|_| m.status == Status::Ok && !m.conditions.is_flagged())?;
        Some(m.test.loads_per_dispatch(m.groups) as f64 / s.median_ms)
    }

    /// Notes the times of `rows`, before they are reported. Where the baseline's row is among
    /// them and was timed again (the drift check re-measures a block it found disturbed or a
    /// row whose samples spread), the ratios from here on are taken against the baseline as
    /// measured then, under the conditions of the rows around it, not against its first
    /// timing: so its own row reads exactly 1.
    fn record(&mut self, rows: &[(usize, Measurement)]) {
        for (_, m) in rows {
            if m.test == self.test {
                if let Some(rate) = Self::rate_of(m) {
                    self.rate = Some(rate);
                }
            }
            if let Some(s) = m.stats.filter(|_| m.groups > 0) {
                self.per_group_ms
                    .insert(m.test, s.median_ms / m.groups as f64);
            }
        }
    }

    /// Throughput of `m` relative to the baseline: equal to the time ratio when both ran the
    /// same dispatch size, and still right when a dispatch was cut to the watchdog budget.
    pub fn ratio(&self, m: &Measurement) -> Option<f64> {
        // Operations per load would be no ratio at all.
        if m.test.unit() != Unit::Loads {
            return None;
        }
        let s = m.stats?;
        // The baseline against itself, by definition (even where a re-measurement was flagged
        // and the others keep the rate of its steady timing).
        if m.test == self.test {
            return self.rate.map(|_| 1.0);
        }
        if let Some(reference) = m.test.ratio_reference() {
            // Time over time, per workgroup (a cut dispatch stays comparable), against a test
            // timed earlier in the run (absent when it was not, e.g. with --shuffle).
            let own = s.median_ms / m.groups.max(1) as f64;
            return Some(self.per_group_ms.get(&reference)? / own);
        }
        Some(m.test.loads_per_dispatch(m.groups) as f64 / s.median_ms / self.rate?)
    }
}

/// A row clock this far above the steady clock means the warm-up settled below the GPU's
/// steady state (said once per run).
const ABOVE_STEADY: f64 = 1.03;

/// Tests timed between two drift checks: a run of tests of one family, at most this many
/// (in a shuffled order, families do not form runs: blocks are then this long).
const MAX_BLOCK: usize = 16;

/// Splits the run order into blocks of consecutive tests of the same family.
pub fn blocks(order: &[(usize, TestCase)], shuffled: bool) -> Vec<&[(usize, TestCase)]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=order.len() {
        let end = i == order.len()
            || i - start >= MAX_BLOCK
            || (!shuffled && order[i].1.family_index() != order[start].1.family_index());
        if end {
            out.push(&order[start..i]);
            start = i;
        }
    }
    out
}

/// The block to run next, taken from `queue`: its first, but where several devices run at
/// once (a timed run), the first block with a host test whose first host test can hold the
/// node now, else the first without a host test, else the first: a device takes the host
/// when it is free, and runs its GPU tests while another device holds it, instead of keeping
/// its GPU busy waiting (on a node of four, each device's host block waited for the others'
/// in turn: 4–6 s of a 20 s health profile). Only the transfer family's own buffers are made
/// at its first test (every other family's resources are made at setup), so the order of
/// the memory the other rows are timed in does not change.
fn next_block<'a>(
    queue: &mut std::collections::VecDeque<&'a [(usize, TestCase)]>,
    runner: &Runner<'_>,
    plan: &Plan<'_>,
) -> Option<&'a [(usize, TestCase)]> {
    fn first_host(b: &[(usize, TestCase)]) -> Option<&TestCase> {
        b.iter().map(|(_, t)| t).find(|t| t.shares_host())
    }
    let at = if plan.mode == Mode::Time && runner.shares_node() {
        queue
            .iter()
            .position(|b| first_host(b).is_some_and(|t| !runner.would_wait(t)))
            .or_else(|| queue.iter().position(|b| first_host(b).is_none()))
            .unwrap_or(0)
    } else {
        0
    };
    queue.remove(at)
}

/// The drift reference for a timed run, unless there is no check (a failure to measure it
/// costs only the check).
fn drift_reference(runner: &Runner<'_>, plan: &Plan<'_>, sink: &impl Sink) -> Option<Drift> {
    let limit = plan.drift?;
    if plan.mode != Mode::Time {
        return None;
    }
    match runner.drift_reference(limit) {
        Ok(d) => {
            let retaken = match d.retaken {
                0 => String::new(),
                n => format!(" (measured {} times: its checks spread too widely)", n + 1),
            };
            sink.note(&format!(
                "drift check: baseline {:.4} ms, {:.4} ms apart (spread {:.2} %), limit ±{:.1} %{retaken}",
                d.reference_ms, d.reference_span_ms, d.spread_pct, d.limit_pct
            ));
            if d.contended {
                sink.note(contended_note(d.clock_mhz.is_some()));
            }
            if d.spread_pct > super::drift::TRUSTED_SPREAD_PCT {
                sink.note(&format!(
                    "drift check: the baseline repeats only within {:.1} % here, however often \
                     it is measured: only drifts beyond ±{:.1} % are caught",
                    d.spread_pct, d.limit_pct
                ));
            }
            Some(d)
        }
        Err(e) => {
            sink.note(&format!("no drift check: {e:#}"));
            None
        }
    }
}

/// The note of a drift reference whose dispatches stayed unevenly spaced however long the
/// run waited. Only a shader clock tells another process (the clock normal, the baseline
/// slow: `contended`) from the device's own unevenness; without one the note says no more
/// than the check can know, and what becomes of the rows (timing.md).
fn contended_note(has_clock: bool) -> &'static str {
    if has_clock {
        "drift check: another process's work shows between the baseline's dispatches \
         however long the run waits: its checks are held to a quiet GPU's spacing, so rows \
         timed while it runs are flagged contended"
    } else {
        "drift check: the baseline's dispatches stay unevenly spaced however long the run \
         waits (another process, or the device's own scheduling: without a shader clock the \
         check cannot tell which): its checks are held to an even spacing, and rows timed \
         while the baseline is off are timed again (`re-measured`) or, if it stays off, \
         flagged `disturbed`"
    }
}

/// Runs (or, after a lost device, skips) every test of the plan block by block; after each
/// block the drift check re-times the baseline and settles the block, then its rows go to
/// the sink (so nothing measured is lost when a later test fails or the run is stopped). A
/// block whose rows stayed flagged is timed once more at the end of the run, and its rows
/// go to the sink then.
// Long on purpose: one device's run as one loop (baseline, blocks, checks, retries, the
// rows handed on) whose state the steps share.
pub fn run_tests(runner: &Runner<'_>, plan: &Plan<'_>, sink: &mut impl Sink) -> Result<Outcome> {
    let mut baseline = Baseline::measure(runner, plan, sink);
    let mut drift = drift_reference(runner, plan, sink);
    let mut lost: Option<String> = baseline
        .measurement
        .as_ref()
        .filter(|b| b.device_lost)
        .map(|b| b.test.name().to_string());
    let mut before = Check::NONE;
    let mut done = 0;
    // Blocks with rows still flagged after their checks: timed once more at the end.
    let mut deferred: Vec<Vec<(usize, Measurement)>> = Vec::new();
    let mut rose = false;
    // The latency curve's rows as reported, whose edges are refined at the end.
    let mut curve: Vec<(usize, Measurement)> = Vec::new();
    let mut keep_curve = |rows: &[(usize, Measurement)]| {
        curve.extend(
            rows.iter()
                .filter(|(_, m)| m.probe_name.is_none() && m.test.curve_size().is_some())
                .cloned(),
        );
    };
    let mut queue: std::collections::VecDeque<&[(usize, TestCase)]> =
        blocks(plan.order, plan.shuffled).into();
    let mut number = 0;
    while let Some(block) = next_block(&mut queue, runner, plan) {
        runner.inject_disturbance(number);
        number += 1;
        let mut rows: Vec<(usize, Measurement)> = Vec::with_capacity(block.len());
        // Consecutive tests held alone take the node once (where several devices run at once).
        let mut series = None;
        for (at, (test_index, test)) in block.iter().enumerate() {
            if let Some(signal) = sink.interrupted() {
                let m = Measurement::not_run(
                    *test,
                    Status::Interrupted,
                    vec![Note::Interrupted {
                        signal: signal.to_string(),
                        done: done + rows.len(),
                        total: plan.order.len(),
                    }],
                );
                rows.push((*test_index, m));
                for block in &deferred {
                    baseline.record(block);
                    sink.block(block, &baseline)?;
                }
                baseline.record(&rows);
                sink.block(&rows, &baseline)?;
                return Ok(Outcome::Interrupted);
            }
            sink.starting(test);
            if !runner.holds_alone(test) {
                series = None;
            } else if series.is_none() && lost.is_none() {
                series = runner.alone_series(block[at..].iter().map(|(_, t)| t));
            }
            let m = match (&lost, &baseline.measurement) {
                (_, Some(b)) if *test == baseline.test => b.clone(),
                (Some(during), _) => Measurement::not_run(
                    *test,
                    Status::Error,
                    vec![Note::DeviceLost {
                        during: during.clone(),
                    }],
                ),
                (None, _) => runner.run(test),
            };
            if m.device_lost && lost.as_deref().is_none_or(|l| l == test.name()) {
                lost = Some(test.name().to_string());
                sink.note(&format!(
                    "the device was lost during {}; its remaining tests are skipped",
                    test.name()
                ));
            }
            // A cut chosen by calibration is by design (the CSV keeps the note); a cut of an
            // explicit --groups is a warning.
            if m.status == Status::Ok && m.is_cut(m.full_groups) && !runner.calibration.auto {
                sink.note(&format!(
                    "{}: {}",
                    m.test.name(),
                    perftest_results::note::words(&m.notes)
                ));
            }
            rows.push((*test_index, m));
        }
        // Given back before the block's check, which times this device's baseline only.
        drop(series);
        if let (Some(drift), None) = (&mut drift, &lost) {
            let mut ms: Vec<Measurement> = rows.iter().map(|(_, m)| m.clone()).collect();
            match runner.settle(drift, before, &mut ms, |text| sink.note(text)) {
                Ok(check) => {
                    before = check;
                    for ((_, row), m) in rows.iter_mut().zip(ms) {
                        *row = m;
                    }
                }
                Err(e) => sink.note(&format!("drift check failed: {e:#}")),
            }
        } else if plan.mode == Mode::Time {
            // No drift check: a row's clock alone vouches for it, where there is one.
            for (_, m) in rows.iter_mut().filter(|(_, m)| m.clock_mhz.is_some()) {
                if m.status == Status::Ok && m.conditions == Conditions::Unchecked {
                    m.conditions = Conditions::Steady;
                }
            }
        }
        done += rows.len();
        if let (Some(steady), false) = (runner.steady_mhz(), rose) {
            if let Some(m) = rows
                .iter()
                .map(|(_, m)| m)
                .find(|m| m.clock_mhz.is_some_and(|c| c > steady * ABOVE_STEADY))
            {
                rose = true;
                sink.note(&format!(
                    "the shader clock stayed at {:.0} MHz during {}, {:.1} % above the \
                     steady {steady:.0} MHz, however long the GPU was kept busy: its row says \
                     why it was kept at that clock",
                    m.clock_mhz.unwrap_or_default(),
                    m.test.name(),
                    100.0 * (m.clock_mhz.unwrap_or_default() / steady - 1.0)
                ));
            }
        }
        if drift.is_some() && lost.is_none() && rows.iter().any(|(_, m)| m.conditions.is_flagged())
        {
            deferred.push(rows);
        } else {
            baseline.record(&rows);
            sink.block(&rows, &baseline)?;
            keep_curve(&rows);
        }
    }
    for mut rows in deferred {
        if let (Some(drift), None, None) = (&mut drift, &lost, sink.interrupted()) {
            let mut ms: Vec<Measurement> = rows.iter().map(|(_, m)| m.clone()).collect();
            match runner.retry(drift, &mut ms, |text| sink.note(text)) {
                Ok(_) => {
                    for ((_, row), m) in rows.iter_mut().zip(ms) {
                        *row = m;
                    }
                }
                Err(e) => sink.note(&format!("drift check failed: {e:#}")),
            }
        }
        baseline.record(&rows);
        sink.block(&rows, &baseline)?;
        keep_curve(&rows);
    }
    // The edges of the latency curve, refined by probes (timed runs only: a verify run has no
    // curve), as a last block.
    if plan.mode == Mode::Time && lost.is_none() && sink.interrupted().is_none() {
        let probes = runner.refine_edges(
            &curve,
            |text| sink.note(text),
            || sink.interrupted().is_some(),
        );
        if !probes.is_empty() {
            baseline.record(&probes);
            sink.block(&probes, &baseline)?;
        }
    }
    Ok(Outcome::Done)
}

#[cfg(test)]
mod tests {
    use super::contended_note;

    #[test]
    fn without_a_clock_the_contended_note_names_no_cause_it_cannot_know() {
        // lavapipe has no shader clock: its rows become `re-measured` or `disturbed`,
        // never `contended` (docs/timing.md), and the note said they would be.
        let note = contended_note(false);
        assert!(!note.contains("flagged contended"), "{note}");
        assert!(
            !note.starts_with("drift check: another process's work shows"),
            "{note}"
        );
        assert!(note.contains("without a shader clock"), "{note}");
        assert!(
            note.contains("`re-measured`") && note.contains("`disturbed`"),
            "{note}"
        );
        assert!(contended_note(true).contains("flagged contended"));
    }
}
