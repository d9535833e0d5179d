//! The drift check: the baseline re-timed after every block of tests and compared with its
//! time at the start, so that rows measured while conditions were off (another GPU user,
//! clocks or power state changing, throttling, a CPU device under CPU load) are caught.

use super::{Fault, Measurement, Runner, Stats, Status};
use crate::pipeline::PushConstants;
use anyhow::Result;
use std::sync::atomic::Ordering;

/// Baseline dispatches per check (their median is the check's value).
const SAMPLES: u32 = 9;
/// Checks that make up the reference at the start.
const REFERENCE_CHECKS: usize = 5;
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

/// Under what conditions a row was timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Conditions {
    /// Not checked (verify mode, a row that did not run, or no drift check).
    #[default]
    Unchecked,
    /// The baseline was within the limit before and after the test's block.
    Steady,
    /// The baseline drifted; the test was timed again once it was back within the limit.
    Remeasured,
    /// The baseline was off and did not come back: the row's time is not comparable.
    Disturbed,
}

impl Conditions {
    /// The CSV/JSON `conditions` cell.
    pub fn name(self) -> &'static str {
        match self {
            Conditions::Unchecked => "",
            Conditions::Steady => "steady",
            Conditions::Remeasured => "re-measured",
            Conditions::Disturbed => "disturbed",
        }
    }
}

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
    /// calibrated dispatch size: the median time of its dispatches, and their span per
    /// dispatch. The span also counts what runs between the dispatches: a GPU shared with
    /// another process switches to it between short dispatches, which leaves their own
    /// times (and the median) untouched while longer dispatches of the tests are slowed.
    fn check_ms(&self) -> Result<(f64, f64)> {
        let test = self.reference_test();
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        let (times, span) =
            self.submit_dispatches(&pipeline, &constants, self.calibration.groups, 1, SAMPLES)?;
        let median = Stats::from_times(&times)
            .map(|s| s.median_ms)
            .filter(|_| span > 0.0)
            .ok_or_else(|| anyhow::anyhow!("the drift check's timestamps gave no duration"))?;
        Ok((median, span / SAMPLES as f64))
    }

    /// The reference at the start of the run; `limit_pct` overrides the automatic limit.
    pub fn drift_reference(&self, limit_pct: Option<f64>) -> Result<Drift> {
        let checks = (0..REFERENCE_CHECKS)
            .map(|_| self.check_ms())
            .collect::<Result<Vec<(f64, f64)>>>()?;
        let middle = |pick: fn(&(f64, f64)) -> f64| {
            let mut v: Vec<f64> = checks.iter().map(pick).collect();
            v.sort_by(f64::total_cmp);
            let median = v[v.len() / 2];
            (median, 100.0 * (v[v.len() - 1] - v[0]) / median)
        };
        let (reference_ms, spread) = middle(|c| c.0);
        let (reference_span_ms, span_spread) = middle(|c| c.1);
        let spread_pct = spread.max(span_spread);
        Ok(Drift {
            reference_ms,
            reference_span_ms,
            spread_pct,
            limit_pct: limit_pct.unwrap_or_else(|| limit_for(spread_pct)),
        })
    }

    /// How far the baseline is from the reference now, in % (positive = slower): the larger
    /// deviation of its median and of its span per dispatch.
    pub fn drift_pct(&self, drift: &Drift) -> Result<f64> {
        let (median, span) = self.check_ms()?;
        let by_median = 100.0 * (median / drift.reference_ms - 1.0);
        let by_span = 100.0 * (span / drift.reference_span_ms - 1.0);
        Ok(if by_span.abs() > by_median.abs() {
            by_span
        } else {
            by_median
        })
    }

    /// As [`Runner::drift_pct`], while waiting for conditions to come back.
    pub fn recheck_drift_pct(&self, drift: &Drift) -> Result<f64> {
        // The transient injected disturbance ends when the run starts waiting for it to.
        if self.settings.fault == Some(Fault::TransientDrift) {
            self.disturbed.store(false, Ordering::Relaxed);
        }
        self.drift_pct(drift)
    }

    /// The check after a block of tests whose rows are `rows`, `before` being the check
    /// before it. Where either check is off, waits for the baseline to come back, times the
    /// block again and checks once more (up to [`ROUNDS`] times); marks every timed row steady,
    /// re-measured or disturbed. A row whose own samples spread beyond the limit while the
    /// baseline held is timed once more (a disturbance may have come and gone between two
    /// checks); a spread that stays is the test's own, not a disturbance. Returns the last
    /// check (%).
    pub fn settle(
        &self,
        drift: &Drift,
        before: f64,
        rows: &mut [Measurement],
        note: impl Fn(&str),
    ) -> Result<f64> {
        let noisy = |m: &Measurement| m.stats.is_some_and(|s| drift.is_off(s.cv_pct));
        let first = self.drift_pct(drift)?;
        if !drift.is_off(first) && !drift.is_off(before) {
            if rows.iter().any(noisy) {
                for m in rows.iter_mut().filter(|m| noisy(m)) {
                    *m = self.run(&m.test);
                }
                let check = self.drift_pct(drift)?;
                if !drift.is_off(check) {
                    mark(rows, Conditions::Steady, check);
                    return Ok(check);
                }
                // The baseline moved while they were timed again: handled as a drift below.
                return self.wait_and_retime(drift, check, rows, note);
            }
            mark(rows, Conditions::Steady, first);
            return Ok(first);
        }
        // The previous check may be the one that was off: report the worse of the two.
        let worst = if first.abs() >= before.abs() {
            first
        } else {
            before
        };
        self.wait_and_retime(drift, worst, rows, note)
    }

    /// The baseline was off (`first`, %): waits for it to come back and times the block again,
    /// up to [`ROUNDS`] times; marks the rows re-measured, or disturbed where it did not come
    /// back for long enough. Returns the last check (%).
    fn wait_and_retime(
        &self,
        drift: &Drift,
        first: f64,
        rows: &mut [Measurement],
        note: impl Fn(&str),
    ) -> Result<f64> {
        let timed = |m: &Measurement| m.status == Status::Ok && m.stats.is_some();
        let mut check = first;
        let mut why = format!("the baseline was {first:+.1} % off its start-of-run time");
        for _ in 0..ROUNDS {
            let mut tries = 0;
            while drift.is_off(check) && tries < RECHECKS {
                std::thread::sleep(RECHECK_PAUSE);
                check = self.recheck_drift_pct(drift)?;
                tries += 1;
            }
            if drift.is_off(check) {
                break;
            }
            note(&format!(
                "{why} (limit ±{:.1} %); timing {} test(s) from {} on again",
                drift.limit_pct,
                rows.iter().filter(|m| timed(m)).count(),
                rows.first().map(|m| m.test.name()).unwrap_or_default(),
            ));
            for m in rows.iter_mut().filter(|m| timed(m)) {
                *m = self.run(&m.test);
            }
            check = self.drift_pct(drift)?;
            if !drift.is_off(check) {
                mark(rows, Conditions::Remeasured, check);
                return Ok(check);
            }
            why = format!("the baseline was {check:+.1} % off again");
        }
        // Conditions did not come back, or not for long enough to time the block.
        let worst = if first.abs() > check.abs() {
            first
        } else {
            check
        };
        mark(rows, Conditions::Disturbed, worst);
        Ok(check)
    }

    /// Called before block `block` of tests: `--fault drift` and `--fault transient-drift`
    /// slow every timing down from the second block on.
    pub fn inject_disturbance(&self, block: usize) {
        if block == 1
            && matches!(
                self.settings.fault,
                Some(Fault::Drift | Fault::TransientDrift)
            )
        {
            self.disturbed.store(true, Ordering::Relaxed);
        }
    }

    /// Applies the injected disturbance, if on, to measured durations.
    pub(super) fn disturb(&self, times: &mut [f64]) {
        if self.disturbed.load(Ordering::Relaxed) {
            times.iter_mut().for_each(|t| *t *= INJECTED_SLOWDOWN);
        }
    }
}

/// Marks every timed row of `rows` with `conditions` and the check `drift_pct`.
fn mark(rows: &mut [Measurement], conditions: Conditions, drift_pct: f64) {
    for m in rows
        .iter_mut()
        .filter(|m| m.status == Status::Ok && m.stats.is_some())
    {
        m.conditions = conditions;
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

    #[test]
    fn off_means_beyond_the_limit_either_way() {
        let d = Drift {
            reference_ms: 1.0,
            reference_span_ms: 1.0,
            spread_pct: 0.1,
            limit_pct: 2.0,
        };
        assert!(!d.is_off(1.9) && !d.is_off(-1.9));
        assert!(d.is_off(2.1) && d.is_off(-2.1) && d.is_off(f64::NAN));
    }
}
