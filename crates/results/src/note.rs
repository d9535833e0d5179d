//! A row's notes as data (what was found, with its numbers), put into words only for a report.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One note on a row: why it did not run, failed or mismatched, or how an ok row ran. The
/// runner records notes in the order it finds them; [`words`] gives the `reason` column.
/// Serde keeps a note as data (its kind in snake case, and its numbers), not as its words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Note {
    /// The device lacks what the test needs, in the runner's or the family's words.
    Unsupported(String),
    /// An error, as its chain (`{e:#}`).
    Error(String),
    /// `--verify` found a difference from the reference, as the comparison describes it.
    Mismatch(String),
    /// The family's note on how the test runs on this device.
    Family(String),
    /// The dispatch was cut from `from` to `to` groups: `from` would take about
    /// `estimate_ms`, over the watchdog budget of `budget_ms`.
    Cut {
        from: u32,
        to: u32,
        estimate_ms: f64,
        budget_ms: f64,
    },
    /// A cold test: the caches were emptied before each dispatch by a fill of `fill_mb` MB.
    Cold { fill_mb: u64 },
    /// The timestamps gave no positive duration.
    NoDuration,
    /// Timed `times` times (the last at the steady clock): the first timing's clock was
    /// `first_mhz`, above (`above`) or below `limit_pct` % of the steady `steady_mhz`.
    ClockRetimed {
        times: u32,
        first_mhz: f64,
        above: bool,
        limit_pct: f64,
        steady_mhz: f64,
    },
    /// Kept at `mhz`, above `limit_pct` % of the steady `steady_mhz`, after `tries` tries:
    /// the clock did not come back down, or (`own_load`) came down between tries and rose
    /// while the test ran.
    KeptHigh {
        mhz: f64,
        limit_pct: f64,
        steady_mhz: f64,
        tries: u32,
        own_load: bool,
    },
    /// The GPU held `mhz` through `held_s` s of the baseline, above `limit_pct` % of the
    /// steady `steady_mhz`: the steady clock is `mhz` from then on.
    SteadyRaised {
        mhz: f64,
        held_s: f64,
        limit_pct: f64,
        steady_mhz: f64,
    },
    /// The clock stayed at `mhz`, below `floor_pct` % of the steady `steady_mhz`, after
    /// `tries` tries: it did not come back, or (`own_limit`) came back between tries and fell
    /// while the test ran. `driver_reasons`: the reasons the driver gave for holding the clock
    /// down, named (`power cap+thermal slowdown`), where it gave any.
    Throttled {
        mhz: f64,
        floor_pct: f64,
        steady_mhz: f64,
        tries: u32,
        own_limit: bool,
        driver_reasons: Option<String>,
    },
    /// The probe's clock `probe_mhz` was `off_pct` % off the driver's `driver_mhz`.
    ProbeOffDriver {
        probe_mhz: f64,
        off_pct: f64,
        driver_mhz: f64,
    },
    /// The row's clock, `mhz`, is what its kernel read over its own work (`groups`
    /// workgroups' intervals of the subgroup clock over the real-time clock, in the last
    /// dispatch of each of `batches` submissions); the probes around the dispatches read
    /// `probe_mhz`.
    KernelClock {
        mhz: f64,
        groups: u32,
        batches: u32,
        probe_mhz: f64,
    },
    /// The driver gave reasons for holding the clock down while the row ran, named.
    DriverReasons { names: String },
    /// The latency figure failed, with the error's chain.
    LatencyNotMeasured(String),
    /// A row whose bytes cross the host link moved `gbytes_per_s`, more than the PCIe link
    /// the driver gives as the device's (`width` lanes at `gt_per_s` GT/s) carries one way,
    /// `link_gbytes_per_s`: not a figure of the link.
    FasterThanLink {
        gbytes_per_s: f64,
        link_gbytes_per_s: f64,
        gt_per_s: f64,
        width: u32,
    },
    /// The test ran `groups` groups whatever `--groups` said: what it measures needs them.
    ForcedGroups { groups: u32 },
    /// The samples spread `cv_pct` % (CV).
    Unsteady { cv_pct: f64 },
    /// The baseline was `drift_pct` % off right after the row's block each time it ran, and
    /// back after a wait.
    OwnAfterEffect { drift_pct: f64 },
    /// The check after the row's block read the baseline `drift_pct` % off at a clock of
    /// `mhz`, its time at the steady clock within the limit, while every row of the block was
    /// timed at the steady clock by its own probes: the clock dipped after them (brought back
    /// before the next block), and the rows stand.
    ClockDipAfter { drift_pct: f64, mhz: f64 },
    /// A probe of the latency curve's edge between the sweep's `on` (the last size on a
    /// plateau) and `off` (the first off it), bytes, bisected after the sweep; its clock and
    /// driver readings are those of row `clock_of` (the `off` size's).
    EdgeProbe { on: u64, off: u64, clock_of: String },
    /// Not run: the device was lost during test `during`.
    DeviceLost { during: String },
    /// Not run: the run was interrupted by `signal` after `done` of `total` tests.
    Interrupted {
        signal: String,
        done: usize,
        total: usize,
    },
}

impl fmt::Display for Note {
    // Long on purpose: one arm per note, its words beside its fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each note's words as the reason column has always said them: the tests and the
        // readers of earlier results match them.
        match self {
            Note::Unsupported(text)
            | Note::Error(text)
            | Note::Mismatch(text)
            | Note::Family(text) => f.write_str(text),
            Note::Cut {
                from,
                to,
                estimate_ms,
                budget_ms,
            } => write!(
                f,
                "dispatch cut from {from} to {to} groups: {from} would take about \
                 {estimate_ms:.0} ms, over the {budget_ms:.0} ms watchdog budget"
            ),
            Note::Cold { fill_mb } => write!(
                f,
                "caches emptied before each dispatch (a {fill_mb} MB fill, untimed)"
            ),
            Note::NoDuration => f.write_str("the timestamps gave no positive duration"),
            Note::ClockRetimed {
                times,
                first_mhz,
                above,
                limit_pct,
                steady_mhz,
            } => write!(
                f,
                "timed {times} times: the clock was {first_mhz:.0} MHz at the first, {} \
                 {limit_pct:.0} % of the steady {steady_mhz:.0} MHz",
                if *above { "above" } else { "below" }
            ),
            Note::KeptHigh {
                mhz,
                limit_pct,
                steady_mhz,
                tries,
                own_load,
            } => write!(
                f,
                "timed at {mhz:.0} MHz, above {limit_pct:.0} % of the steady {steady_mhz:.0} \
                 MHz, after {tries} tries: {}",
                if *own_load {
                    "the clock came back down between tries but rose while this test ran: \
                     its own load raises it"
                } else {
                    "the clock did not come back down"
                }
            ),
            Note::SteadyRaised {
                mhz,
                held_s,
                limit_pct,
                steady_mhz,
            } => write!(
                f,
                "the GPU held {mhz:.0} MHz through {held_s:.1} s of the baseline, above \
                 {limit_pct:.0} % of the steady {steady_mhz:.0} MHz: the steady clock is \
                 {mhz:.0} MHz from here on"
            ),
            Note::Throttled {
                mhz,
                floor_pct,
                steady_mhz,
                tries,
                own_limit,
                driver_reasons,
            } => {
                f.write_str("throttled: ")?;
                if let Some(names) = driver_reasons {
                    write!(f, "{names} (the driver's word): ")?;
                }
                write!(
                    f,
                    "{mhz:.0} MHz, below {floor_pct:.0} % of the steady {steady_mhz:.0} MHz, \
                     after {tries} tries; {}",
                    if *own_limit {
                        "the clock came back between tries but fell while this test ran: its \
                         own power or thermal limit"
                    } else {
                        "the clock did not come back"
                    }
                )
            }
            Note::ProbeOffDriver {
                probe_mhz,
                off_pct,
                driver_mhz,
            } => write!(
                f,
                "the probe's clock {probe_mhz:.0} MHz is {off_pct:+.1} % off the driver's \
                 {driver_mhz:.0} MHz"
            ),
            Note::DriverReasons { names } => {
                write!(f, "the driver reported {names} while it ran")
            }
            Note::LatencyNotMeasured(error) => write!(f, "latency not measured: {error}"),
            Note::FasterThanLink {
                gbytes_per_s,
                link_gbytes_per_s,
                gt_per_s,
                width,
            } => write!(
                f,
                "faster than the host link: {gbytes_per_s:.1} GB/s, more than its PCIe link \
                 carries (x{width} at {gt_per_s} GT/s: {link_gbytes_per_s:.1} GB/s one way): \
                 the GPU's caches served part of it (or the host is attached another way), so \
                 it is no figure of the link"
            ),
            Note::ForcedGroups { groups } => write!(
                f,
                "ran {groups} group(s) whatever --groups: what it measures needs that size"
            ),
            Note::Unsteady { cv_pct } => write!(
                f,
                "unsteady: its samples spread {cv_pct:.1} % (cv_pct): expect two runs to \
                 differ by about as much"
            ),
            Note::OwnAfterEffect { drift_pct } => write!(
                f,
                "the baseline was {drift_pct:+.1} % off right after this block each time it \
                 ran and back after a wait: the block's own after-effect on the device, not \
                 another process"
            ),
            Note::ClockDipAfter { drift_pct, mhz } => write!(
                f,
                "the check after this block read the baseline {drift_pct:+.1} % off at a clock \
                 of {mhz:.0} MHz, as slow as that clock makes it; the block's rows were each \
                 timed at the steady clock (their own probes), so they stand"
            ),
            Note::KernelClock {
                mhz,
                groups,
                batches,
                probe_mhz,
            } => write!(
                f,
                "clock {mhz:.0} MHz read inside the kernel over its own work ({groups} \
                 workgroups in the last dispatch of {batches} submission(s)); the probe around \
                 it read {probe_mhz:.0} MHz ({:+.2} %)",
                (probe_mhz / mhz - 1.0) * 100.0
            ),
            Note::EdgeProbe { on, off, clock_of } => write!(
                f,
                "a probe of the edge between {} (the last size of the sweep on the plateau) \
                 and {}, bisected after the sweep: its own chains, verified; only its latency \
                 is its own (its clock and driver columns are the row `{clock_of}`'s)",
                crate::size::size_name(*on),
                crate::size::size_name(*off)
            ),
            Note::DeviceLost { during } => {
                write!(f, "not run: the device was lost during {during}")
            }
            Note::Interrupted {
                signal,
                done,
                total,
            } => write!(
                f,
                "run interrupted ({signal}) after {done} of {total} tests on this device"
            ),
        }
    }
}

/// A row's notes in words, in order, separated by "; ": its `reason` column (empty for none).
pub fn words(notes: &[Note]) -> String {
    notes
        .iter()
        .map(Note::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    // Long on purpose: one assertion per note, with the words the column has always held.
    fn each_note_says_what_the_reason_column_always_said() {
        let cases = [
            (
                Note::Cut {
                    from: 138,
                    to: 40,
                    estimate_ms: 172.4,
                    budget_ms: 50.0,
                },
                "dispatch cut from 138 to 40 groups: 138 would take about 172 ms, over the 50 \
                 ms watchdog budget",
            ),
            (
                Note::Cold { fill_mb: 256 },
                "caches emptied before each dispatch (a 256 MB fill, untimed)",
            ),
            (Note::NoDuration, "the timestamps gave no positive duration"),
            (
                Note::ClockRetimed {
                    times: 2,
                    first_mhz: 333.4,
                    above: false,
                    limit_pct: 98.0,
                    steady_mhz: 1000.0,
                },
                "timed 2 times: the clock was 333 MHz at the first, below 98 % of the steady \
                 1000 MHz",
            ),
            (
                Note::ClockRetimed {
                    times: 3,
                    first_mhz: 1500.0,
                    above: true,
                    limit_pct: 102.0,
                    steady_mhz: 1000.0,
                },
                "timed 3 times: the clock was 1500 MHz at the first, above 102 % of the steady \
                 1000 MHz",
            ),
            (
                Note::KeptHigh {
                    mhz: 1500.0,
                    limit_pct: 102.0,
                    steady_mhz: 1000.0,
                    tries: 4,
                    own_load: false,
                },
                "timed at 1500 MHz, above 102 % of the steady 1000 MHz, after 4 tries: the \
                 clock did not come back down",
            ),
            (
                Note::KeptHigh {
                    mhz: 1500.0,
                    limit_pct: 102.0,
                    steady_mhz: 1000.0,
                    tries: 3,
                    own_load: true,
                },
                "timed at 1500 MHz, above 102 % of the steady 1000 MHz, after 3 tries: the \
                 clock came back down between tries but rose while this test ran: its own \
                 load raises it",
            ),
            (
                Note::SteadyRaised {
                    mhz: 1980.0,
                    held_s: 1.5,
                    limit_pct: 102.0,
                    steady_mhz: 1755.0,
                },
                "the GPU held 1980 MHz through 1.5 s of the baseline, above 102 % of the \
                 steady 1755 MHz: the steady clock is 1980 MHz from here on",
            ),
            (
                Note::Throttled {
                    mhz: 333.0,
                    floor_pct: 98.0,
                    steady_mhz: 1000.0,
                    tries: 4,
                    own_limit: false,
                    driver_reasons: None,
                },
                "throttled: 333 MHz, below 98 % of the steady 1000 MHz, after 4 tries; the \
                 clock did not come back",
            ),
            (
                Note::Throttled {
                    mhz: 1500.0,
                    floor_pct: 98.0,
                    steady_mhz: 1980.0,
                    tries: 3,
                    own_limit: true,
                    driver_reasons: Some("power cap+thermal slowdown".into()),
                },
                "throttled: power cap+thermal slowdown (the driver's word): 1500 MHz, below 98 \
                 % of the steady 1980 MHz, after 3 tries; the clock came back between tries \
                 but fell while this test ran: its own power or thermal limit",
            ),
            (
                Note::ProbeOffDriver {
                    probe_mhz: 1978.0,
                    off_pct: 473.333,
                    driver_mhz: 345.0,
                },
                "the probe's clock 1978 MHz is +473.3 % off the driver's 345 MHz",
            ),
            (
                Note::KernelClock {
                    mhz: 1980.2,
                    groups: 16,
                    batches: 2,
                    probe_mhz: 1995.0,
                },
                "clock 1980 MHz read inside the kernel over its own work (16 workgroups in \
                 the last dispatch of 2 submission(s)); the probe around it read 1995 MHz \
                 (+0.75 %)",
            ),
            (
                Note::DriverReasons {
                    names: "power cap".into(),
                },
                "the driver reported power cap while it ran",
            ),
            (
                Note::LatencyNotMeasured("building: out of memory".into()),
                "latency not measured: building: out of memory",
            ),
            (
                Note::FasterThanLink {
                    gbytes_per_s: 385.04,
                    link_gbytes_per_s: 63.015,
                    gt_per_s: 32.0,
                    width: 16,
                },
                "faster than the host link: 385.0 GB/s, more than its PCIe link carries (x16 \
                 at 32 GT/s: 63.0 GB/s one way): the GPU's caches served part of it (or the \
                 host is attached another way), so it is no figure of the link",
            ),
            (
                Note::EdgeProbe {
                    on: 160 << 10,
                    off: 192 << 10,
                    clock_of: "latency: ByteAddressBuffer 192 KB".into(),
                },
                "a probe of the edge between 160 KB (the last size of the sweep on the plateau) \
                 and 192 KB, bisected after the sweep: its own chains, verified; only its \
                 latency is its own (its clock and driver columns are the row `latency: \
                 ByteAddressBuffer 192 KB`'s)",
            ),
            (
                Note::ForcedGroups { groups: 132 },
                "ran 132 group(s) whatever --groups: what it measures needs that size",
            ),
            (
                Note::Unsteady { cv_pct: 8.165 },
                "unsteady: its samples spread 8.2 % (cv_pct): expect two runs to differ by \
                 about as much",
            ),
            (
                Note::OwnAfterEffect { drift_pct: -12.34 },
                "the baseline was -12.3 % off right after this block each time it ran and back \
                 after a wait: the block's own after-effect on the device, not another process",
            ),
            (
                Note::ClockDipAfter {
                    drift_pct: 4.87,
                    mhz: 1889.5,
                },
                "the check after this block read the baseline +4.9 % off at a clock of 1890 \
                 MHz, as slow as that clock makes it; the block's rows were each timed at the \
                 steady clock (their own probes), so they stand",
            ),
            (
                Note::DeviceLost {
                    during: "tex1d_r32f".into(),
                },
                "not run: the device was lost during tex1d_r32f",
            ),
            (
                Note::Interrupted {
                    signal: "SIGINT".into(),
                    done: 3,
                    total: 10,
                },
                "run interrupted (SIGINT) after 3 of 10 tests on this device",
            ),
            (Note::Family("as is".into()), "as is"),
            (Note::Unsupported("no shuffle".into()), "no shuffle"),
            (Note::Error("a: b".into()), "a: b"),
            (Note::Mismatch("element 3".into()), "element 3"),
        ];
        for (note, said) in cases {
            assert_eq!(note.to_string(), said, "{note:?}");
        }
    }

    #[test]
    fn a_rows_notes_join_in_order() {
        assert_eq!(words(&[]), "");
        assert_eq!(
            words(&[Note::NoDuration]),
            "the timestamps gave no positive duration"
        );
        assert_eq!(
            words(&[Note::ForcedGroups { groups: 1 }, Note::Family("x".into())]),
            "ran 1 group(s) whatever --groups: what it measures needs that size; x"
        );
    }

    #[test]
    fn a_note_is_data_in_serde() {
        let notes = vec![
            Note::Cold { fill_mb: 256 },
            Note::NoDuration,
            Note::Unsupported("no shuffle".into()),
        ];
        let json = serde_json::to_string(&notes).unwrap();
        assert_eq!(
            json,
            r#"[{"cold":{"fill_mb":256}},"no_duration",{"unsupported":"no shuffle"}]"#
        );
        assert_eq!(serde_json::from_str::<Vec<Note>>(&json).unwrap(), notes);
    }
}
