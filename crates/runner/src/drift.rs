//! The drift check: the baseline re-timed after every block of tests and compared with its
//! reference, so that rows measured while conditions were off (another GPU user, clocks or
//! power state changing, a CPU device under CPU load) are caught, re-measured, and where they
//! cannot be, flagged with the cause the clock tells.

use super::clock::{is_high, is_low};
use super::{Cause, Conditions, Fault, Measurement, Runner, Stats, Status};
use anyhow::Result;
use perftest_gpu::pipeline::PushConstants;
use perftest_results::Note;
use std::sync::atomic::Ordering;

/// Baseline dispatches per check (their median is the check's value), at least …
const SAMPLES: u32 = 9;
/// … and enough to span this much GPU time, at most [`MAX_SAMPLES`]: a GPU shared with
/// another process switches to it every few ms (2 ms on an H100), and a check shorter than
/// that can fall between two of its turns and see nothing.
const CHECK_SPAN_MS: f64 = 10.0;
const MAX_SAMPLES: u32 = 64;
/// A check whose dispatches lie further apart than this, relative to their median (a quiet
/// GPU: 1 % on an H100, 2 % on lavapipe), or one of whose dispatches took more than
/// [`PREEMPTED`] times the median, had another process's work between or inside its
/// dispatches: a reference is not taken from it.
const QUIET_SPAN_RATIO: f64 = 1.05;
const PREEMPTED: f64 = 1.5;
/// How often the reference is measured again while it looks contended …
const CONTENDED_RETRIES: u32 = 8;
/// … and on a CPU device, whose own host threads run between its dispatches (lavapipe's span
/// per dispatch is 1.1–1.4× its median on an idle machine, every wait alike): waiting cannot
/// make them even, and eight waits cost every lavapipe run 2.6 s of its 3.2.
const CPU_CONTENDED_RETRIES: u32 = 1;
/// Checks that make up the reference at the start.
const REFERENCE_CHECKS: usize = 5;
/// A reference whose checks spread further than this (%) is not trusted: it is measured
/// again (up to [`REFERENCE_RETRIES`] times) rather than widening the limit to fit it.
pub const TRUSTED_SPREAD_PCT: f64 = 10.0;
const REFERENCE_RETRIES: u32 = 3;
/// How often a block's check may re-base the reference.
const MAX_REBASES: u32 = 2;
/// The automatic limit: this many times the spread of the reference checks …
const SPREAD_FACTOR: f64 = 5.0;
/// … but at least this (%): an undisturbed GPU repeats its baseline within 0.1 %.
pub const MIN_LIMIT_PCT: f64 = 2.0;
/// … and at most this (%): beyond it the device is too noisy for the check to mean much.
const MAX_LIMIT_PCT: f64 = 50.0;
/// How often, and how far apart, a drifted baseline is re-checked before giving up.
const RECHECKS: u32 = 4;
/// How often a block is timed again before its rows are left disturbed.
const ROUNDS: u32 = 2;
const RECHECK_PAUSE: std::time::Duration = std::time::Duration::from_millis(250);
/// Factor by which `--fault drift` / `--fault transient-drift` slow every timing down (far beyond
/// the noise of a CPU device busy with other work, so that tests of the check are not flaky).
const INJECTED_SLOWDOWN: f64 = 10.0;
/// Factor by which `--fault fast-spell` speeds every timing up while the spell lasts.
const INJECTED_SPEEDUP: f64 = 4.0;
/// How much slower `--fault slow-gpu` makes every timing: a GPU an eighth as fast as its
/// fleet, beyond the verdict's threshold even where a CPU device's noise sets it (lavapipe
/// runs on a shared 2-core CI machine differ by up to ~2× in time).
const INJECTED_SLOW_GPU: f64 = 8.0;

/// The baseline's time at the start of the run and how far it may drift.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drift {
    /// Median of the reference checks, ms per dispatch.
    pub reference_ms: f64,
    /// Median of the reference checks' span per dispatch (dispatch and the gap to the next), ms.
    pub reference_span_ms: f64,
    /// Relative spread (max − min over median) of the reference checks, %.
    pub spread_pct: f64,
    /// A check further than this from the reference (%, either way) means drift.
    pub limit_pct: f64,
    /// The limit asked for with `--drift-limit`, if any (kept when the reference is re-based).
    pub fixed_limit: Option<f64>,
    /// Times the reference was measured again because its checks spread too widely.
    pub retaken: u32,
    /// Whether another process's work still showed in the reference's dispatches after
    /// waiting for it (its span is then held to a quiet GPU's).
    pub contended: bool,
    /// The shader clock while the reference was measured, MHz, where known.
    pub clock_mhz: Option<f64>,
}

/// What one timing of the baseline read.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reading {
    /// Median time per dispatch, ms.
    median_ms: f64,
    /// First start to last end, per dispatch, ms.
    span_ms: f64,
    /// The shader clock around the dispatches, MHz, where known.
    clock_mhz: Option<f64>,
    /// Whether a dispatch took more than [`PREEMPTED`] times the median.
    preempted: bool,
}

impl Reading {
    /// Whether another process's work shows between or inside the dispatches.
    fn contended(&self) -> bool {
        self.preempted || self.span_ms > QUIET_SPAN_RATIO * self.median_ms
    }
}

/// One check of the baseline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Check {
    /// Deviation from the reference, % (positive = slower).
    pub pct: f64,
    /// The shader clock during the check, MHz, where known.
    pub clock_mhz: Option<f64>,
}

impl Check {
    /// A check that found nothing (before the first block).
    pub const NONE: Check = Check {
        pct: 0.0,
        clock_mhz: None,
    };
}

/// What an off check means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Within the limit.
    Within,
    /// Faster than the reference: the reference was taken while something held it back.
    Faster,
    /// Slower, at a clock below the floor.
    LowClock,
    /// Slower, at a normal clock: another user of the GPU.
    Contended,
    /// Slower, and no clock tells why.
    Slower,
}

impl Drift {
    /// Whether a check's deviation (%) is beyond the limit.
    pub fn is_off(&self, deviation_pct: f64) -> bool {
        // A NaN counts as off.
        deviation_pct.is_nan() || deviation_pct.abs() > self.limit_pct
    }
}

/// The automatic limit for a reference spread (%).
pub fn limit_for(spread_pct: f64) -> f64 {
    (SPREAD_FACTOR * spread_pct).clamp(MIN_LIMIT_PCT, MAX_LIMIT_PCT)
}

impl Runner<'_> {
    /// One check of the baseline (or, where it is unsupported, the 1-D control kernel) at the
    /// calibrated dispatch size: the median time of its dispatches, their span per dispatch,
    /// and the clock around them. The span also counts what runs between the dispatches: a
    /// GPU shared with another process switches to it between short dispatches, which leaves
    /// their own times (and the median) untouched while longer dispatches of the tests are
    /// slowed.
    fn check_ms(&self) -> Result<Reading> {
        let test = self.reference_test();
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        let work = (&*pipeline, &constants, self.calibration.groups);
        let batch = self.trace.span(super::Phase::DriftCheck, || {
            self.submit_dispatches(Some(work), 1, self.check_samples(), true, None, false)
        })?;
        let median = Stats::from_times(&batch.times)
            .map(|s| s.median_ms)
            .filter(|_| batch.span > 0.0)
            .ok_or_else(|| anyhow::anyhow!("the drift check's timestamps gave no duration"))?;
        let reading = Reading {
            median_ms: median,
            span_ms: batch.span / batch.times.len() as f64,
            clock_mhz: batch.clock(),
            preempted: batch.times.iter().any(|t| *t > PREEMPTED * median),
        };
        if self.trace.on() {
            let rate = self.timer_rate();
            let mut fields = vec![
                ("median_ms", format!("{median:.5}")),
                ("span_ms", format!("{:.5}", reading.span_ms)),
                (
                    "max_ms",
                    format!("{:.5}", batch.times.iter().copied().fold(0.0, f64::max)),
                ),
                ("samples", batch.times.len().to_string()),
                ("clocks", format!("{:?}", batch.clocks)),
                ("timer_rate", rate.map_or("-".into(), |r| format!("{r:.6}"))),
            ];
            fields.extend(self.probe_raw());
            self.trace.line("check", &fields);
        }
        Ok(reading)
    }

    /// Dispatches per check: [`SAMPLES`], or as many as span [`CHECK_SPAN_MS`] at the
    /// baseline's calibrated time, at most [`MAX_SAMPLES`].
    fn check_samples(&self) -> u32 {
        let cal = &self.calibration;
        let per = cal.baseline_full_ms * cal.groups as f64 / super::timing::FULL_GROUPS as f64;
        if per > 0.0 {
            ((CHECK_SPAN_MS / per).ceil() as u32).clamp(SAMPLES, MAX_SAMPLES)
        } else {
            SAMPLES
        }
    }

    /// The reference at the start of the run; `limit_pct` overrides the automatic limit. A
    /// reference whose checks spread beyond [`TRUSTED_SPREAD_PCT`] is measured again (the
    /// narrowest attempt is kept); so is one taken while another process's work showed in its
    /// dispatches, or at a clock off the steady one (after keeping the GPU busy a moment),
    /// up to [`CONTENDED_RETRIES`] times ([`CPU_CONTENDED_RETRIES`] on a CPU device): a GPU still shared then gets a reference whose span
    /// is held to that of a quiet one, so that the checks see the other process.
    pub fn drift_reference(&self, limit_pct: Option<f64>) -> Result<Drift> {
        let mut best: Option<Drift> = None;
        let mut retaken = 0;
        let mut waited = 0;
        let retries = if self.gpu.info.device_type == perftest_gpu::DeviceType::Cpu {
            CPU_CONTENDED_RETRIES
        } else {
            CONTENDED_RETRIES
        };
        loop {
            let d = self.reference_once(limit_pct)?;
            let (contended, off_clock) = (d.contended, self.off_steady_clock(&d));
            if (contended || off_clock) && waited < retries {
                waited += 1;
                match (off_clock, self.steady_mhz()) {
                    (true, Some(steady)) if d.clock_mhz.is_some_and(|c| is_high(c, steady)) => {
                        self.cool_down(steady)?
                    }
                    (true, Some(steady)) => self.rewarm(steady)?,
                    _ => self.hold(RECHECK_PAUSE)?,
                };
                continue;
            }
            if best.is_none_or(|b| d.spread_pct < b.spread_pct) {
                best = Some(d);
            }
            if d.spread_pct <= TRUSTED_SPREAD_PCT || retaken == REFERENCE_RETRIES {
                break;
            }
            retaken += 1;
        }
        let mut best = best.expect("measured at least once");
        if best.contended {
            best.reference_span_ms = best
                .reference_span_ms
                .min(QUIET_SPAN_RATIO * best.reference_ms);
        }
        let drift = Drift { retaken, ..best };
        *self.drift_now.lock().unwrap_or_else(|p| p.into_inner()) = Some(drift);
        Ok(drift)
    }

    /// Whether the reference `d` was measured at a clock off the steady one.
    fn off_steady_clock(&self, d: &Drift) -> bool {
        match (self.steady_mhz(), d.clock_mhz) {
            (Some(steady), Some(clock)) => is_low(clock, steady) || is_high(clock, steady),
            _ => false,
        }
    }

    /// One reference: [`REFERENCE_CHECKS`] checks, their medians and spread; contended
    /// where most of them saw another process's work.
    fn reference_once(&self, limit_pct: Option<f64>) -> Result<Drift> {
        let checks = (0..REFERENCE_CHECKS)
            .map(|_| self.check_ms())
            .collect::<Result<Vec<Reading>>>()?;
        let middle = |pick: fn(&Reading) -> f64| {
            let mut v: Vec<f64> = checks.iter().map(pick).collect();
            v.sort_by(f64::total_cmp);
            let median = v[v.len() / 2];
            (median, 100.0 * (v[v.len() - 1] - v[0]) / median)
        };
        let (reference_ms, spread) = middle(|c| c.median_ms);
        let (reference_span_ms, span_spread) = middle(|c| c.span_ms);
        let spread_pct = spread.max(span_spread);
        let contended = 2 * checks.iter().filter(|c| c.contended()).count() > checks.len();
        let clocks: Vec<f64> = checks.iter().filter_map(|c| c.clock_mhz).collect();
        Ok(Drift {
            reference_ms,
            reference_span_ms,
            spread_pct,
            limit_pct: limit_pct.unwrap_or_else(|| limit_for(spread_pct)),
            fixed_limit: limit_pct,
            retaken: 0,
            contended,
            clock_mhz: super::timing::mean(&clocks),
        })
    }

    /// How far the baseline is from the reference now (positive = slower): the larger
    /// deviation of its median and of its span per dispatch, and the clock.
    pub fn check(&self, drift: &Drift) -> Result<Check> {
        let Reading {
            median_ms: median,
            span_ms: span,
            clock_mhz,
            ..
        } = self.check_ms()?;
        let by_median = 100.0 * (median / drift.reference_ms - 1.0);
        let by_span = 100.0 * (span / drift.reference_span_ms - 1.0);
        let pct = if by_span.abs() > by_median.abs() {
            by_span
        } else {
            by_median
        };
        Ok(Check { pct, clock_mhz })
    }

    /// As [`Runner::check`], while waiting for conditions to come back.
    fn recheck(&self, drift: &Drift) -> Result<Check> {
        // The transient injected disturbances end when the run starts waiting for them to.
        if matches!(
            self.settings.fault,
            Some(Fault::TransientDrift | Fault::FastSpell)
        ) {
            self.disturbed.store(false, Ordering::Relaxed);
        }
        self.check(drift)
    }

    /// Whether `check`'s clock accounts for its deviation: its time scaled to the steady
    /// clock is within the limit (a baseline slower only because its clock was lower).
    fn clock_explains(&self, drift: &Drift, check: &Check) -> bool {
        self.steady_mhz()
            .is_some_and(|steady| !drift.is_off(at_steady_clock(check, steady)))
    }

    /// What `check` means, against `drift` and the steady clock.
    fn verdict(&self, drift: &Drift, check: &Check) -> Verdict {
        if !drift.is_off(check.pct) {
            return Verdict::Within;
        }
        if check.pct < 0.0 {
            return Verdict::Faster;
        }
        match (self.steady_mhz(), check.clock_mhz) {
            (Some(steady), Some(clock)) if is_low(clock, steady) => Verdict::LowClock,
            (Some(_), Some(_)) => Verdict::Contended,
            _ => Verdict::Slower,
        }
    }

    /// The check after a block of tests whose rows are `rows`, `before` being the check
    /// before it. Where either check is off the reference — slower, or faster: a spell the
    /// GPU does not hold (an H100 runs ~5 % faster for half a second of tensor-core work) —
    /// brings the clock back or waits, busy, for the baseline, times the block again and
    /// checks once more (up to [`ROUNDS`] times); only a faster baseline that holds through
    /// every re-check re-bases the reference (it was taken while something held the GPU
    /// back). Marks every timed row steady, re-measured, throttled, contended or disturbed (a
    /// row's own finding from its clock is kept). A row whose own samples spread beyond the
    /// limit while the baseline held is timed once more, a chase excepted (a disturbance may
    /// have come and gone between two checks; a low clock it was re-measured for stays
    /// found); a spread that stays is the test's own. A check off only for its own low clock
    /// (its time at the steady clock within the limit) after a block whose every timed row
    /// was timed at the steady clock by its own probes brings the clock back and leaves the
    /// rows standing, each noting what the check read ([`Note::ClockDipAfter`]). Returns the
    /// last check.
    pub fn settle(
        &self,
        drift: &mut Drift,
        before: Check,
        rows: &mut [Measurement],
        note: impl Fn(&str),
    ) -> Result<Check> {
        if self.settings.fault == Some(Fault::LowClockAtCheck)
            && self.simulated.dip_due.swap(false, Ordering::Relaxed)
        {
            self.simulated.set(super::clock::DIP_LEVEL);
        }
        let mut first = self.check(drift)?;
        let within = |d: &Drift, c: &Check| self.verdict(d, c) == Verdict::Within;
        // Off only for a clock that dipped after the block's rows, each of them timed at the
        // steady clock by its own probes (an H200's power cap right after its memory-bound
        // rows: `results/h200/hold-1129`, whose block timed again read as the other runs'
        // did, within 0.56 %): the clock is brought back for the next block; the rows stand.
        let mut dip = None;
        if within(drift, &before)
            && self.verdict(drift, &first) == Verdict::LowClock
            && self.clock_explains(drift, &first)
            && own_clocks_steady(rows)
        {
            let (mut worst, mut rebased) = (first, 0);
            let back = self.wait_back(drift, first, &mut worst, &mut rebased, &note)?;
            if within(drift, &back) {
                note(&format!(
                    "the baseline was {:+.1} % off its reference{} (limit ±{:.1} %), as slow \
                     as that clock makes it, after {} test(s) from {} each timed at the \
                     steady clock: they stand; the clock is back",
                    first.pct,
                    clock_note(&first),
                    drift.limit_pct,
                    rows.iter().filter(|m| timed(m)).count(),
                    rows.first().map(|m| m.test.name()).unwrap_or_default(),
                ));
                dip = Some(first);
                first = back;
            } else {
                return self.wait_and_retime(drift, back, rows, note, None);
            }
        }
        let within = |c: &Check| within(drift, c);
        if let Some(d) = dip {
            for m in rows.iter_mut().filter(|m| timed(m)) {
                m.notes.push(Note::ClockDipAfter {
                    drift_pct: d.pct,
                    mhz: d.clock_mhz.unwrap_or(f64::NAN),
                });
            }
        }
        if within(&first) && within(&before) {
            // A row held alone on a node was timed again for it in its hold already.
            let noisy = |m: &Measurement| {
                timed_again_for_spread(m, drift) && !self.retimed_in_hold(&m.test)
            };
            if rows.iter().any(noisy) {
                for m in rows.iter_mut().filter(|m| noisy(m)) {
                    // As after a drift: a re-measure for the row's own clock stays found.
                    let earlier = std::mem::replace(m, self.measure(&m.test));
                    m.keep_clock_finding(&earlier);
                }
                let check = self.check(drift)?;
                if within(&check) {
                    mark(rows, Conditions::Steady, check.pct);
                    return Ok(check);
                }
                // The baseline moved while they were timed again: handled as a drift below.
                return self.wait_and_retime(drift, check, rows, note, None);
            }
            mark(rows, Conditions::Steady, first.pct);
            return Ok(first);
        }
        // The previous check may be the one that was off: report the worse of the two.
        let worst = if first.pct.abs() >= before.pct.abs() || within(&before) {
            first
        } else {
            before
        };
        self.wait_and_retime(drift, worst, rows, note, None)
    }

    /// A block some of whose rows stayed flagged, once more at the end of the run (another
    /// process may be done by then): its flagged rows are timed again between two checks,
    /// as after a drift, and become re-measured, or stay flagged by what the checks saw.
    pub fn retry(
        &self,
        drift: &mut Drift,
        rows: &mut [Measurement],
        note: impl Fn(&str),
    ) -> Result<Check> {
        let mut flagged: Vec<Measurement> = rows
            .iter()
            .filter(|m| m.conditions.is_flagged())
            .cloned()
            .collect();
        let first = self.check(drift)?;
        let why = format!(
            "{} test(s) from {} stayed flagged",
            flagged.len(),
            flagged.first().map(|m| m.test.name()).unwrap_or_default()
        );
        note(&format!(
            "{why}: trying them once more at the end of the run (the baseline is {:+.1} % off \
             its reference now)",
            first.pct
        ));
        let check = self.wait_and_retime(drift, first, &mut flagged, note, Some(why))?;
        let mut again = flagged.into_iter();
        for m in rows.iter_mut().filter(|m| m.conditions.is_flagged()) {
            if let Some(new) = again.next() {
                *m = new;
            }
        }
        Ok(check)
    }

    /// Measures the reference again, now: the baseline ran `check.pct` % faster than it.
    fn rebase(&self, drift: &mut Drift, check: &Check, note: &impl Fn(&str)) -> Result<()> {
        let old = *drift;
        *drift = self.drift_reference(old.fixed_limit)?;
        note(&format!(
            "drift check: the baseline ran {:+.1} % off its reference of {:.4} ms, faster: \
             the reference was taken while something held the GPU back; re-based to {:.4} ms \
             (spread {:.2} %, limit ±{:.1} %)",
            check.pct, old.reference_ms, drift.reference_ms, drift.spread_pct, drift.limit_pct
        ));
        Ok(())
    }

    /// The baseline was off (`first`): brings the clock back (when it was low or high) or
    /// waits for the baseline to come back, keeping the GPU busy at the steady state (an idle
    /// GPU drops its clock, which the next check would blame on the block), and times the
    /// block again, up to [`ROUNDS`] times. A baseline faster than the reference through every
    /// re-check is the steady state: the reference is re-based. Marks the rows re-measured,
    /// or throttled, contended or disturbed (by what the last off check saw, whose deviation
    /// the rows carry) where conditions did not come back for long enough. Returns the last
    /// check.
    fn wait_and_retime(
        &self,
        drift: &mut Drift,
        first: Check,
        rows: &mut [Measurement],
        note: impl Fn(&str),
        why: Option<String>,
    ) -> Result<Check> {
        let mut check = first;
        let mut worst = first;
        let mut why = why
            .unwrap_or_else(|| format!("the baseline was {:+.1} % off its reference", first.pct));
        let mut rebased = 0;
        let within = |d: &Drift, c: &Check| self.verdict(d, c) == Verdict::Within;
        // Rounds in which the baseline came back while waiting, and was off again right after
        // the block was timed again: a block that does this every time leaves the device in
        // another state itself (a CPU device parks its threads after many submissions).
        let mut off_after_retime = 0;
        for _ in 0..ROUNDS {
            check = self.wait_back(drift, check, &mut worst, &mut rebased, &note)?;
            if !within(drift, &check) {
                break;
            }
            note(&format!(
                "{why}{} (limit ±{:.1} %); timing {} test(s) from {} on again",
                if within(drift, &worst) {
                    String::new()
                } else {
                    clock_note(&worst)
                },
                drift.limit_pct,
                rows.iter().filter(|m| timed(m)).count(),
                rows.first().map(|m| m.test.name()).unwrap_or_default(),
            ));
            for m in rows.iter_mut().filter(|m| timed(m)) {
                let earlier = std::mem::replace(m, self.measure(&m.test));
                m.keep_clock_finding(&earlier);
            }
            check = self.check(drift)?;
            if within(drift, &check) {
                mark(rows, Conditions::Remeasured(Cause::Drift), check.pct);
                return Ok(check);
            }
            off_after_retime += 1;
            worst = check;
            why = format!("the baseline was {:+.1} % off again", check.pct);
        }
        if off_after_retime == ROUNDS {
            // Back once more after a wait: the block's own after-effect, not another process.
            let after = worst;
            check = self.wait_back(drift, check, &mut worst, &mut rebased, &note)?;
            if within(drift, &check) {
                mark(rows, Conditions::Remeasured(Cause::Drift), check.pct);
                for m in rows.iter_mut().filter(|m| timed(m)) {
                    m.notes.push(Note::OwnAfterEffect {
                        drift_pct: after.pct,
                    });
                }
                return Ok(check);
            }
        }
        // Conditions did not come back, or not for long enough to time the block: the rows
        // carry what the last off check saw (its cause and its deviation).
        let flagged = match self.verdict(drift, &worst) {
            Verdict::LowClock => Conditions::Throttled,
            Verdict::Contended => Conditions::Contended,
            _ => Conditions::Disturbed,
        };
        mark(rows, flagged, worst.pct);
        Ok(check)
    }

    /// Waits for the baseline to come back within the limit from `check`, up to [`RECHECKS`]
    /// re-checks: brings a low clock back, lets a high one come down, and otherwise keeps the
    /// GPU busy at the steady state for [`RECHECK_PAUSE`] between re-checks (an idle GPU drops
    /// its clock, which the next check would blame on the block). A baseline faster than the
    /// reference through every re-check is the steady state: the reference is re-based (at
    /// most [`MAX_REBASES`] times, counted in `rebased`). `worst` becomes the last off check.
    /// Returns the last check.
    fn wait_back(
        &self,
        drift: &mut Drift,
        mut check: Check,
        worst: &mut Check,
        rebased: &mut u32,
        note: &impl Fn(&str),
    ) -> Result<Check> {
        let steady = self.steady_mhz();
        let mut tries = 0;
        loop {
            let verdict = self.verdict(drift, &check);
            if verdict != Verdict::Within {
                *worst = check;
            }
            match verdict {
                Verdict::Within => return Ok(check),
                Verdict::Faster if tries == RECHECKS && *rebased < MAX_REBASES => {
                    self.rebase(drift, &check, note)?;
                    *rebased += 1;
                    check = self.check(drift)?;
                    tries = 0;
                    continue;
                }
                _ if tries == RECHECKS => return Ok(check),
                Verdict::LowClock => {
                    self.rewarm(steady.unwrap_or(f64::NAN))?;
                }
                Verdict::Faster => match (steady, check.clock_mhz) {
                    (Some(s), Some(c)) if is_high(c, s) => {
                        self.cool_down(s)?;
                    }
                    _ => {
                        self.hold(RECHECK_PAUSE)?;
                    }
                },
                Verdict::Contended | Verdict::Slower => {
                    self.hold(RECHECK_PAUSE)?;
                }
            }
            check = self.recheck(drift)?;
            tries += 1;
        }
    }

    /// Called before block `block` of tests: `--fault drift`, `transient-drift` and
    /// `contention` slow every timing down from the second block on, `fast-spell` speeds it
    /// up.
    pub fn inject_disturbance(&self, block: usize) {
        if block == 1
            && matches!(
                self.settings.fault,
                Some(Fault::Drift | Fault::TransientDrift | Fault::Contention | Fault::FastSpell)
            )
        {
            self.disturbed.store(true, Ordering::Relaxed);
        }
        if block == 1 && self.settings.fault == Some(Fault::LowClockAtCheck) {
            self.simulated.dip_due.store(true, Ordering::Relaxed);
        }
    }

    /// Applies the injected disturbance, if on, to measured durations (`slow-gpu`: to
    /// every one, from the start).
    pub(super) fn disturb(&self, times: &mut [f64]) {
        if self.settings.fault == Some(Fault::SlowGpu) {
            times.iter_mut().for_each(|t| *t *= INJECTED_SLOW_GPU);
        }
        if self.disturbed.load(Ordering::Relaxed) {
            let factor = if self.settings.fault == Some(Fault::FastSpell) {
                1.0 / INJECTED_SPEEDUP
            } else {
                INJECTED_SLOWDOWN
            };
            times.iter_mut().for_each(|t| *t *= factor);
        }
    }
}

/// ", at N MHz" where a check saw the clock.
fn clock_note(check: &Check) -> String {
    check
        .clock_mhz
        .map_or(String::new(), |c| format!(" at a clock of {c:.0} MHz"))
}

/// `check`'s deviation (%) had its baseline run at `steady` MHz: its time scaled by its clock
/// (NaN without a clock).
fn at_steady_clock(check: &Check, steady: f64) -> f64 {
    check.clock_mhz.map_or(f64::NAN, |clock| {
        100.0 * ((1.0 + check.pct / 100.0) * clock / steady - 1.0)
    })
}

/// Whether `m` was timed (ok, with samples).
fn timed(m: &Measurement) -> bool {
    m.status == Status::Ok && m.stats.is_some()
}

/// Whether every timed row of `rows` (at least one) was timed at the steady clock by its own
/// probes: it has a clock, and nothing flagged it (a row below the clock floor is timed again
/// or flagged `throttled` by itself).
fn own_clocks_steady(rows: &[Measurement]) -> bool {
    rows.iter().any(timed)
        && rows
            .iter()
            .filter(|m| timed(m))
            .all(|m| m.clock_mhz.is_some() && !m.conditions.is_flagged())
}

/// Whether `m`, timed while the baseline held, is timed once more for its own samples'
/// spread: beyond the limit, a disturbance may have come and gone between two checks. Not a
/// chase: its figure, the latency, is the fewest clocks of several runs per chain, which a
/// disturbance that came and went moves only by hitting every run, and its timed dispatch's
/// spread (one workgroup's 256 steps, launch included: 1–38 % on an H200) is the launch's
/// jitter, which stays (a whole H200 run timed 390 chases again for it, 55 s of its 245).
pub(crate) fn timed_again_for_spread(m: &Measurement, drift: &Drift) -> bool {
    !m.test.is_chase() && m.stats.is_some_and(|s| drift.is_off(s.cv_pct))
}

/// Marks every timed row of `rows` with `conditions` (keeping what a row found itself) and
/// the check `drift_pct`.
fn mark(rows: &mut [Measurement], conditions: Conditions, drift_pct: f64) {
    for m in rows
        .iter_mut()
        .filter(|m| m.status == Status::Ok && m.stats.is_some())
    {
        m.conditions = m.conditions.with_block(conditions);
        m.drift_pct = Some(drift_pct);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_follows_the_spread_within_bounds() {
        assert_eq!(limit_for(0.05), MIN_LIMIT_PCT);
        assert_eq!(limit_for(3.0), 15.0);
        assert_eq!(limit_for(40.0), MAX_LIMIT_PCT);
    }

    /// A reference of 1 ms whose limit is ±2 %.
    fn at_2_pct() -> Drift {
        Drift {
            reference_ms: 1.0,
            reference_span_ms: 1.0,
            spread_pct: 0.1,
            limit_pct: 2.0,
            fixed_limit: None,
            retaken: 0,
            contended: false,
            clock_mhz: None,
        }
    }

    #[test]
    fn off_means_beyond_the_limit_either_way() {
        let d = at_2_pct();
        assert!(!d.is_off(1.9) && !d.is_off(-1.9));
        assert!(d.is_off(2.1) && d.is_off(-2.1) && d.is_off(f64::NAN));
    }

    #[test]
    fn a_spread_row_is_timed_again_unless_it_is_a_chase() {
        let d = at_2_pct();
        let all = perftest_suites::catalog::all_tests();
        let chase = all.iter().find(|t| t.is_chase()).expect("a chase");
        let load = all
            .iter()
            .find(|t| t.latency().is_none() && !t.self_timed())
            .expect("a load");
        assert!(!load.is_chase());
        let row = |test: &perftest_suites::catalog::TestCase, times: &[f64]| {
            let mut m = Measurement::not_run(*test, Status::Ok, Vec::new());
            m.stats = crate::measurement::Stats::from_times(times);
            m
        };
        let spread = [1.0, 1.1, 0.9, 1.2, 1.0];
        let tight = [1.0, 1.001, 0.999, 1.0, 1.0];
        assert!(timed_again_for_spread(&row(load, &spread), &d));
        assert!(!timed_again_for_spread(&row(load, &tight), &d));
        assert!(!timed_again_for_spread(&row(chase, &spread), &d));
    }

    #[test]
    fn a_clock_explains_a_check_only_as_far_as_it_reaches() {
        let d = at_2_pct();
        let check = |pct: f64, mhz: Option<f64>| Check {
            pct,
            clock_mhz: mhz,
        };
        // An H200's dip (`results/h200/hold-1129`): +4.9 % at 1889.5 of 1980 MHz is +0.08 %.
        let h200 = at_steady_clock(&check(4.87, Some(1889.5)), 1980.0);
        assert!((h200 - 0.08).abs() < 0.01, "{h200}");
        assert!(!d.is_off(h200));
        // Slower than its clock accounts for (another process besides), or no clock: not.
        assert!(d.is_off(at_steady_clock(&check(12.0, Some(1889.5)), 1980.0)));
        assert!(d.is_off(at_steady_clock(&check(4.87, None), 1980.0)));
    }

    #[test]
    fn rows_stand_on_their_own_clocks_only_where_every_timed_one_has_a_steady_one() {
        let test = perftest_suites::catalog::baseline();
        let row = |clock: Option<f64>, conditions: Conditions| {
            let mut m = Measurement::not_run(test, Status::Ok, Vec::new());
            m.stats = crate::measurement::Stats::from_times(&[1.0, 1.0, 1.0]);
            m.clock_mhz = clock;
            m.conditions = conditions;
            m
        };
        let steady = || row(Some(1980.0), Conditions::Unchecked);
        let unsupported = Measurement::not_run(test, Status::Unsupported, Vec::new());
        assert!(own_clocks_steady(&[
            steady(),
            steady(),
            unsupported.clone()
        ]));
        // A timed row without a clock of its own (a self-timed row), or one flagged by its
        // clock, and the block is timed again; nor does a block with no timed row stand.
        assert!(!own_clocks_steady(&[
            steady(),
            row(None, Conditions::Unchecked)
        ]));
        assert!(!own_clocks_steady(&[
            steady(),
            row(Some(1500.0), Conditions::Throttled)
        ]));
        assert!(!own_clocks_steady(&[unsupported]));
    }
}
