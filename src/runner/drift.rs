//! The drift check: the baseline re-timed after every block of tests and compared with its
//! time at the start, so that rows measured while conditions were off (another GPU user,
//! clocks or power state changing, throttling, a CPU device under CPU load) are caught.

use super::{Fault, Measurement, Runner, Stats, Status};
use crate::catalog::{self, Suite};
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
const RECHECK_PAUSE: std::time::Duration = std::time::Duration::from_millis(250);
/// Factor by which `--fault drift` / `--fault transient-drift` slow every timing down.
const INJECTED_SLOWDOWN: f64 = 3.0;

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
    /// One check: the median time of the baseline (or, where it is unsupported, the 1-D
    /// control kernel) at the calibrated dispatch size.
    fn check_ms(&self) -> Result<f64> {
        let baseline = catalog::baseline();
        let test = if self.unsupported_reason(&baseline).is_none() {
            baseline
        } else {
            catalog::suite(Suite::Control)[0]
        };
        let pipeline = self.pipeline_for(&test)?;
        let constants = self.constants(&test, PushConstants::NO_WRITE);
        let times = self.dispatches(&pipeline, &constants, self.calibration.groups, 1, SAMPLES)?;
        Stats::from_times(&times)
            .map(|s| s.median_ms)
            .ok_or_else(|| anyhow::anyhow!("the drift check's timestamps gave no duration"))
    }

    /// The reference at the start of the run; `limit_pct` overrides the automatic limit.
    pub fn drift_reference(&self, limit_pct: Option<f64>) -> Result<Drift> {
        let mut checks = (0..REFERENCE_CHECKS)
            .map(|_| self.check_ms())
            .collect::<Result<Vec<f64>>>()?;
        checks.sort_by(f64::total_cmp);
        let reference_ms = checks[checks.len() / 2];
        let spread_pct = 100.0 * (checks[checks.len() - 1] - checks[0]) / reference_ms;
        Ok(Drift {
            reference_ms,
            spread_pct,
            limit_pct: limit_pct.unwrap_or_else(|| limit_for(spread_pct)),
        })
    }

    /// How far the baseline is from the reference now, in % (positive = slower).
    pub fn drift_pct(&self, drift: &Drift) -> Result<f64> {
        Ok(100.0 * (self.check_ms()? / drift.reference_ms - 1.0))
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
    /// before it. Where either check is off (or a row's own samples spread beyond the limit),
    /// waits for the baseline to come back, times the block again and checks once more; marks
    /// every timed row steady, re-measured or disturbed. Returns the last check (%).
    pub fn settle(
        &self,
        drift: &Drift,
        before: f64,
        rows: &mut [Measurement],
        note: impl Fn(&str),
    ) -> Result<f64> {
        let timed = |m: &Measurement| m.status == Status::Ok && m.stats.is_some();
        let noisy = |m: &Measurement| m.stats.is_some_and(|s| drift.is_off(s.cv_pct));
        let first = self.drift_pct(drift)?;
        let mut check = first;
        let suspect = drift.is_off(before) || drift.is_off(first) || rows.iter().any(noisy);
        let mut conditions = Conditions::Steady;
        if suspect {
            let mut tries = 0;
            while drift.is_off(check) && tries < RECHECKS {
                std::thread::sleep(RECHECK_PAUSE);
                check = self.recheck_drift_pct(drift)?;
                tries += 1;
            }
            if drift.is_off(check) {
                conditions = Conditions::Disturbed;
                // Report the worse of the two, with its sign.
                if first.abs() > check.abs() {
                    check = first;
                }
            } else {
                note(&format!(
                    "baseline {:+.1} % from its start-of-run time around this block (limit \
                     ±{:.1} %); timing its {} test(s) again",
                    if drift.is_off(first) { first } else { before },
                    drift.limit_pct,
                    rows.iter().filter(|m| timed(m)).count()
                ));
                for m in rows.iter_mut().filter(|m| timed(m)) {
                    *m = self.run(&m.test);
                }
                check = self.drift_pct(drift)?;
                conditions = if drift.is_off(check) {
                    Conditions::Disturbed
                } else {
                    Conditions::Remeasured
                };
            }
        }
        for m in rows.iter_mut().filter(|m| timed(m)) {
            m.conditions = conditions;
            m.drift_pct = Some(check);
        }
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
            spread_pct: 0.1,
            limit_pct: 2.0,
        };
        assert!(!d.is_off(1.9) && !d.is_off(-1.9));
        assert!(d.is_off(2.1) && d.is_off(-2.1) && d.is_off(f64::NAN));
    }
}
