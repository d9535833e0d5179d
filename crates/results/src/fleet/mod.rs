//! `perftest fleet` and the report's Fleet section: a verdict per GPU, each judged per subsystem against the GPUs of its model and driver and the published figures, by the rules of docs/fleet.md.

pub mod host;
mod missing;
pub mod read;
#[cfg(test)]
mod tests;
pub mod text;

use crate::row::Row;
use crate::summary::{self, Subsystem, Worse};
use crate::vocab::{Conditions, Mode, Status as RowStatus};
use crate::words::Words;
use crate::{median, Catalog};
use serde::Serialize;
use std::collections::HashMap;

pub use host::{host_verdict, HostVerdict};
pub use missing::{missing_gpus, Missing};
pub use read::read_paths;
pub use text::{host_text, text};

/// GPUs of one model and driver needed to judge any of them: with two, neither can be told
/// to be the odd one.
pub const MIN_GPUS: usize = 3;

/// The fleet's spread counts this many robust standard deviations: a healthy GPU lies
/// beyond it once in several hundred items.
pub const SIGMAS: f64 = 3.0;

/// A median absolute deviation times this is a standard deviation (for normal data).
pub const MAD_TO_SIGMA: f64 = 1.4826;

/// A row's own spread counts twice: two runs of a row differ by about its spread each.
pub const OWN_SPREADS: f64 = 2.0;

/// The default floor, %: below it no difference is one an operator can act on. Whole H100
/// runs on eleven GPUs differ by less on every item but the few docs/fleet.md names.
pub const FLOOR_PCT: f64 = 5.0;

/// One GPU's run: one device's rows from one file (or a report's run).
#[derive(Clone, Debug, Default)]
pub struct Gpu {
    /// How the verdict names it: the file (and device index where the file has several).
    pub label: String,
    /// The machine (`host` column; empty in older files).
    pub host: String,
    /// The device's UUID (`device_uuid` column, or the JSON file's device entry).
    pub uuid: String,
    pub device: String,
    pub driver: String,
    pub rows: Vec<Row>,
    /// The file it was read from (empty for a report's run).
    pub file: std::path::PathBuf,
}

/// How a GPU came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Healthy,
    /// Degraded in an item, confirmed by a second run of the same GPU.
    Degraded,
    /// Slower beyond the threshold in an item in its only run: to be re-measured before it
    /// is called (docs/fleet.md, *Confirm before calling*).
    Suspect,
    NotJudged,
}

impl Status {
    /// `healthy`, `degraded`, `not judged`.
    pub fn word(self) -> &'static str {
        match self {
            Status::Healthy => "healthy",
            Status::Degraded => "degraded",
            Status::Suspect => "suspect",
            Status::NotJudged => "not judged",
        }
    }
}

/// How one item of a GPU compares with its fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    /// Worse than the fleet beyond the threshold, here and in every other run of the GPU
    /// that has the item's tests (at least one).
    Degraded,
    /// Worse beyond the threshold in this run, and no other run of the GPU has its tests:
    /// not called until re-measured.
    Unconfirmed,
    /// Worse beyond the threshold in this run, not in another run of the same GPU: a
    /// failure that did not come back, reported, not a fault.
    NotConfirmed,
    /// A host-bound item ([`Subsystem::HostSubmit`]) worse beyond the threshold: the
    /// machine's submission path (its CPU, its driver), never the GPU's fault.
    Host,
    /// Better than the fleet beyond the threshold: noted, never a fault.
    Faster,
    /// Within the threshold.
    Within,
    /// Not compared: too few GPUs, or no row of it comparable.
    NotCompared,
}

/// One item of one GPU's portrait, against the fleet and the published figure.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub subsystem: Subsystem,
    /// The summary's item (`memory: bandwidth`, `fp32`, `round trip (submit and wait)`).
    pub item: String,
    /// Which way is worse.
    pub worse: Worse,
    /// The summary's value, as it prints.
    pub value: Option<String>,
    pub call: Call,
    /// The item's change from the fleet, % of the fleet's value, in the item's own terms (a
    /// bandwidth 23 % lower: −23; a latency 30 % higher: +30).
    pub deviation_pct: Option<f64>,
    /// How much slower (costlier) the GPU is than the fleet on the item's rows, % (+ = slower).
    pub slower_pct: Option<f64>,
    /// The slowdown beyond which the item is degraded, % (the largest of the three below).
    pub threshold_pct: Option<f64>,
    /// Three robust standard deviations of the fleet's GPUs on this item, %.
    pub fleet_spread_pct: Option<f64>,
    /// Twice the spread of the GPU's own rows of the item (`cv_pct` or
    /// `latency_spread_pct`, their median), %.
    pub own_spread_pct: Option<f64>,
    pub floor_pct: f64,
    /// The tests compared under the item.
    pub tests: Vec<String>,
    /// measured / published, where the vendor publishes the figure.
    pub published_ratio: Option<f64>,
    /// The machine every GPU of which shares this degradation (reported once, as its).
    pub machine: Option<String>,
    /// The other runs of the same GPU (its UUID) that re-measured the item's tests, where it
    /// was worse beyond the threshold here: each run's slowdown over the same tests, %.
    pub confirmations: Vec<Confirmation>,
}

/// A re-measure of a finding's tests in another run of the same GPU.
#[derive(Clone, Debug, Serialize)]
pub struct Confirmation {
    /// The other run (its file).
    pub label: String,
    /// How much slower than the fleet it is on the same tests, % (+ = slower).
    pub slower_pct: f64,
    /// Whether that is beyond the same threshold.
    pub beyond: bool,
}

/// Rows of a GPU left out of its verdict, by cause.
#[derive(Clone, Debug, Serialize)]
pub struct Left {
    pub cause: Cause,
    pub rows: usize,
    /// The first few tests.
    pub tests: Vec<String>,
}

/// Why rows of a GPU were left out of its verdict; written as its words (`throttled`,
/// `unsupported`, `verify (no timing)`, `other kernel or dispatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Flagged by the run (`throttled`, `contended`, `disturbed`): its timing cannot be
    /// trusted.
    Flagged(Conditions),
    /// A status other than `ok` (`unsupported`, …; `None`: a file without the column).
    Status(Option<RowStatus>),
    /// Verified, not timed.
    Verify,
    /// Timed with another kernel or dispatch than the fleet's.
    OtherKernel,
}

impl Cause {
    /// Whether the run flagged the rows (rather than their being of another kind).
    pub fn is_flagged(self) -> bool {
        matches!(self, Cause::Flagged(_))
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cause::Flagged(c) => f.write_str(c.word()),
            Cause::Status(s) => f.write_str(s.map_or("", |s| s.word())),
            Cause::Verify => f.write_str("verify (no timing)"),
            Cause::OtherKernel => f.write_str("other kernel or dispatch"),
        }
    }
}

impl Serialize for Cause {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Tests named per cause.
const NAMED: usize = 3;

/// One GPU's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct GpuVerdict {
    pub label: String,
    pub host: String,
    pub uuid: String,
    pub device: String,
    pub driver: String,
    pub status: Status,
    /// Why the GPU is not judged, where it is not.
    pub why_not: Option<String>,
    /// Every judged item of its portrait.
    pub findings: Vec<Finding>,
    /// Rows not judged (flagged, not ok) or not compared (another kernel or dispatch).
    pub left_out: Vec<Left>,
    /// The file it was read from (the label names it for people).
    #[serde(skip)]
    pub file: std::path::PathBuf,
}

impl GpuVerdict {
    /// The items it is degraded in.
    pub fn degraded(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.call == Call::Degraded)
    }
}

/// The GPUs of one model and driver.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    pub device: String,
    pub driver: String,
    /// Whether the group had enough GPUs to judge.
    pub judged: bool,
    pub gpus: Vec<GpuVerdict>,
}

/// A degradation every GPU of one machine shares, reported once as the machine's.
#[derive(Clone, Debug, Serialize)]
pub struct MachineFinding {
    pub host: String,
    pub device: String,
    pub subsystem: Subsystem,
    pub item: String,
    /// The median of its GPUs' deviations, % (as [`Finding::deviation_pct`]).
    pub deviation_pct: f64,
    pub gpus: usize,
}

/// A file passed over, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Passed {
    pub file: String,
    pub why: String,
}

/// The verdict over a fleet.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Verdict {
    pub floor_pct: f64,
    pub groups: Vec<Group>,
    pub machines: Vec<MachineFinding>,
    /// Runs read twice (one run's CSV and JSON): the later one left out.
    pub duplicates: Vec<Passed>,
    /// Files in a folder that are no perftest result (other tools' logs).
    pub skipped: Vec<Passed>,
    /// Files that could not be read: the verdict is then incomplete (exit 2).
    pub unreadable: Vec<Passed>,
    /// GPUs a host had in a run of the history and not in the run checked (`--this-run`):
    /// a fault whatever the verdict on the others (exit 1).
    pub missing: Vec<Missing>,
    /// 0: every GPU healthy; 1: some degraded (confirmed); 3: none degraded, some suspect (worse
    /// in their only run: re-measure to confirm); 2: something could not be judged.
    pub exit_code: i32,
}

impl Verdict {
    /// Every GPU's verdict.
    pub fn gpus(&self) -> impl Iterator<Item = &GpuVerdict> {
        self.groups.iter().flat_map(|g| &g.gpus)
    }
}

/// The cost a row's figure stands for (higher = worse), for an item worse `worse`: clocks
/// per load for a latency (a clock change does not move it), or its nanoseconds where the
/// device has no clock, else the time per operation.
fn cost(row: &Row, worse: Worse) -> Option<f64> {
    let latency = row
        .latency_clk
        .or(row.latency_ns)
        .filter(|_| worse == Worse::Higher);
    latency.or_else(|| row.ns_per_op()).filter(|v| *v > 0.0)
}

/// What is left of a GPU for judging: its timed rows, ok and not flagged; the rest by cause.
fn usable(gpu: &Gpu) -> (Vec<Row>, Vec<Left>) {
    let mut keep = Vec::new();
    let mut left: Vec<Left> = Vec::new();
    for row in &gpu.rows {
        let cause = if row.mode == Some(Mode::Verify) {
            Some(Cause::Verify)
        } else if !row.ok() {
            Some(Cause::Status(row.status))
        } else if row.conditions.is_flagged() {
            Some(Cause::Flagged(row.conditions))
        } else {
            None
        };
        match cause {
            None => keep.push(row.clone()),
            Some(cause) => add_left(&mut left, cause, &row.test),
        }
    }
    (keep, left)
}

fn add_left(left: &mut Vec<Left>, cause: Cause, test: &str) {
    let at = match left.iter().position(|l| l.cause == cause) {
        Some(at) => at,
        None => {
            left.push(Left {
                cause,
                rows: 0,
                tests: Vec::new(),
            });
            left.len() - 1
        }
    };
    left[at].rows += 1;
    if left[at].tests.len() < NAMED {
        left[at].tests.push(test.to_string());
    }
}

/// What makes two rows of a test comparable: the same kernel and the same dispatch.
type Kernel = (String, Option<u32>);

fn kernel(row: &Row) -> Kernel {
    (row.spirv_hash.clone(), row.groups)
}

/// A GPU's items before the fleet's spread is known: per item, its ln slowdown over its
/// comparable tests, its own spread, the tests compared.
struct Measured {
    deviation: Option<f64>,
    own: Option<f64>,
    tests: Vec<String>,
}

/// The threshold, in ln: the largest of the fleet's spread, the row's own and the floor.
fn threshold(fleet: Option<f64>, own: Option<f64>, floor_pct: f64) -> f64 {
    [
        fleet.unwrap_or(0.0),
        own.map_or(0.0, |o| (OWN_SPREADS * o / 100.0).ln_1p()),
        (floor_pct / 100.0).ln_1p(),
    ]
    .into_iter()
    .fold(0.0, f64::max)
}

fn pct_of_ln(x: f64) -> f64 {
    x.exp_m1() * 100.0
}

/// Judges `gpus` (see docs/fleet.md): per model and driver, each GPU's portrait item by
/// item against the fleet's; `floor_pct` is the smallest difference ever called.
// Long on purpose: the rules in the order docs/fleet.md states them — rows left out,
// groups, comparable kernels, per-test medians, each item's deviation, the fleet's spread,
// the call, the machines — over one pass of shared tables.
pub fn judge(gpus: &[Gpu], catalog: &Catalog, floor_pct: f64) -> Verdict {
    let mut verdict = Verdict {
        floor_pct,
        ..Default::default()
    };
    // One run read twice (its CSV and its JSON, or a file given twice) is one GPU.
    let mut kept: Vec<&Gpu> = Vec::new();
    for gpu in gpus {
        let same = kept.iter().find(|k| {
            k.device == gpu.device
                && k.driver == gpu.driver
                && k.rows.len() == gpu.rows.len()
                && k.rows.iter().zip(&gpu.rows).all(|(a, b)| {
                    a.test == b.test && a.ms_median == b.ms_median && a.status == b.status
                })
        });
        match same {
            Some(k) => verdict.duplicates.push(Passed {
                file: gpu.label.clone(),
                why: format!("the same run as {}", k.label),
            }),
            None => kept.push(gpu),
        }
    }
    let mut models: Vec<(String, String, Vec<&Gpu>)> = Vec::new();
    for gpu in kept {
        match models
            .iter_mut()
            .find(|m| m.0 == gpu.device && m.1 == gpu.driver)
        {
            Some(m) => m.2.push(gpu),
            None => models.push((gpu.device.clone(), gpu.driver.clone(), vec![gpu])),
        }
    }
    for (device, driver, members) in models {
        let prepared: Vec<(Vec<Row>, Vec<Left>)> = members.iter().map(|g| usable(g)).collect();
        let timed: Vec<bool> = prepared
            .iter()
            .map(|(rows, _)| rows.iter().any(|r| r.ms_median.is_some()))
            .collect();
        let timed_count = timed.iter().filter(|t| **t).count();
        let judged = timed_count >= MIN_GPUS;
        // Per test, the kernel and dispatch most of the group ran: the others' rows of it
        // are not compared.
        let mut kernels: HashMap<&str, Vec<(Kernel, usize)>> = HashMap::new();
        for (rows, _) in &prepared {
            for r in rows {
                let k = kernels.entry(r.test.as_str()).or_default();
                match k.iter_mut().find(|(kk, _)| *kk == kernel(r)) {
                    Some(e) => e.1 += 1,
                    None => k.push((kernel(r), 1)),
                }
            }
        }
        let common: HashMap<&str, Kernel> = kernels
            .iter()
            .map(|(t, ks)| {
                let best = ks.iter().max_by_key(|(_, n)| *n).expect("a test has a row");
                (*t, best.0.clone())
            })
            .collect();
        let comparable = |r: &Row| common.get(r.test.as_str()) == Some(&kernel(r));
        // Per test and direction, the fleet's median cost over the GPUs that ran it alike.
        let mut costs: HashMap<(&str, bool), Vec<f64>> = HashMap::new();
        for (rows, _) in &prepared {
            for r in rows.iter().filter(|r| comparable(r)) {
                for worse in [Worse::Lower, Worse::Higher] {
                    if let Some(c) = cost(r, worse) {
                        costs
                            .entry((r.test.as_str(), worse == Worse::Higher))
                            .or_default()
                            .push(c);
                    }
                }
            }
        }
        let medians: HashMap<(&str, bool), f64> = costs
            .iter()
            .filter(|(_, v)| v.len() >= MIN_GPUS)
            .map(|(k, v)| (*k, median(v.iter().copied())))
            .collect();
        // Each GPU's portrait and its items' deviations.
        let mut portraits = Vec::new();
        for (gpu, (rows, _)) in members.iter().zip(&prepared) {
            let summary = summary::summarise(&[(gpu.label.as_str(), rows.as_slice())], catalog);
            let by_test: HashMap<&str, &Row> = rows.iter().map(|r| (r.test.as_str(), r)).collect();
            let mut items = Vec::new();
            for item in summary
                .iter()
                .flat_map(|s| &s.sections)
                .flat_map(|s| &s.items)
            {
                let Some(j) = &item.judged else { continue };
                let higher = j.worse == Worse::Higher;
                let (mut devs, mut own, mut compared) = (Vec::new(), Vec::new(), Vec::new());
                for t in &j.tests {
                    let Some(r) = by_test.get(t.as_str()).filter(|r| comparable(r)) else {
                        continue;
                    };
                    let (Some(c), Some(m)) = (cost(r, j.worse), medians.get(&(t.as_str(), higher)))
                    else {
                        continue;
                    };
                    devs.push((c / m).ln());
                    compared.push(t.clone());
                    if let Some(s) = r.spread_pct() {
                        own.push(s);
                    }
                }
                let measured = Measured {
                    deviation: (!devs.is_empty()).then(|| median(devs.iter().copied())),
                    own: (!own.is_empty()).then(|| median(own.iter().copied())),
                    tests: compared,
                };
                items.push((item.clone(), j.clone(), measured));
            }
            portraits.push(items);
        }
        // The fleet's spread per item: 3 robust standard deviations of its GPUs' deviations.
        let mut spread: HashMap<(Subsystem, String), Vec<f64>> = HashMap::new();
        for items in &portraits {
            for (item, j, m) in items {
                if let Some(d) = m.deviation {
                    spread
                        .entry((j.subsystem, item.what.clone()))
                        .or_default()
                        .push(d);
                }
            }
        }
        let spread: HashMap<(Subsystem, String), f64> = spread
            .into_iter()
            .filter(|(_, v)| v.len() >= MIN_GPUS)
            .map(|(k, v)| {
                let mid = median(v.iter().copied());
                let mad = median(v.iter().map(|d| (d - mid).abs()));
                (k, SIGMAS * MAD_TO_SIGMA * mad)
            })
            .collect();
        let mut out = Vec::new();
        for (((gpu, (_, left)), items), timed) in
            members.iter().zip(&prepared).zip(portraits).zip(timed)
        {
            let mut left = left.clone();
            for r in gpu
                .rows
                .iter()
                .filter(|r| r.ok() && r.mode != Some(Mode::Verify) && !r.conditions.is_flagged())
            {
                if !comparable(r) {
                    add_left(&mut left, Cause::OtherKernel, &r.test);
                }
            }
            let findings: Vec<Finding> = items
                .into_iter()
                .map(|(item, j, m)| {
                    let fleet = spread.get(&(j.subsystem, item.what.clone())).copied();
                    let compared = judged && timed && fleet.is_some();
                    let deviation = m.deviation.filter(|_| compared);
                    // An item's own floor, where it needs a higher one (the smallest store band).
                    let floor_pct = j.floor_pct.map_or(floor_pct, |f| f.max(floor_pct));
                    let limit = threshold(fleet, m.own, floor_pct);
                    let call = match deviation {
                        None => Call::NotCompared,
                        Some(d) if d > limit && j.subsystem == Subsystem::HostSubmit => Call::Host,
                        Some(d) if d > limit => Call::Degraded,
                        Some(d) if d < -limit => Call::Faster,
                        Some(_) => Call::Within,
                    };
                    // A rate that costs e^d times as much is e^-d as fast.
                    let signed = |d: f64| match j.worse {
                        Worse::Lower => pct_of_ln(-d),
                        Worse::Higher => pct_of_ln(d),
                    };
                    Finding {
                        subsystem: j.subsystem,
                        item: item.what.clone(),
                        worse: j.worse,
                        value: item.value.clone().ok(),
                        call,
                        deviation_pct: deviation.map(signed),
                        slower_pct: deviation.map(pct_of_ln),
                        threshold_pct: compared.then(|| pct_of_ln(limit)),
                        fleet_spread_pct: fleet.filter(|_| compared).map(pct_of_ln),
                        own_spread_pct: m.own.filter(|_| compared).map(|o| OWN_SPREADS * o),
                        floor_pct,
                        tests: if compared { m.tests } else { Vec::new() },
                        published_ratio: item.ratio().map(|(lo, hi)| (lo + hi) / 2.0),
                        machine: None,
                        confirmations: Vec::new(),
                    }
                })
                .collect();
            let why_not = if !timed {
                Some("no timed row to judge (a --verify run, or every row left out)".to_string())
            } else if !judged {
                Some(format!(
                    "{timed_count} timed GPU(s) of this model and driver: at least \
                     {MIN_GPUS} are needed to tell which is off"
                ))
            } else {
                None
            };
            let status = if why_not.is_some() {
                Status::NotJudged
            } else {
                Status::Healthy
            };
            out.push(GpuVerdict {
                label: gpu.label.clone(),
                host: gpu.host.clone(),
                uuid: gpu.uuid.clone(),
                device: gpu.device.clone(),
                driver: gpu.driver.clone(),
                status,
                why_not,
                findings,
                left_out: left,
                file: gpu.file.clone(),
            });
        }
        // Confirm before calling: a finding worse beyond its threshold is the GPU's only where
        // every other run of the same GPU (its UUID, on its host) that has the item's tests
        // is too.
        let deviation_over = |rows: &[Row], tests: &[String], worse: Worse| -> Option<f64> {
            let devs: Vec<f64> = tests
                .iter()
                .filter_map(|t| {
                    let r = rows.iter().find(|r| &r.test == t && comparable(r))?;
                    let m = medians.get(&(t.as_str(), worse == Worse::Higher))?;
                    Some((cost(r, worse)? / m).ln())
                })
                .collect();
            (!devs.is_empty()).then(|| median(devs.iter().copied()))
        };
        for i in 0..out.len() {
            for f in 0..out[i].findings.len() {
                if out[i].findings[f].call != Call::Degraded {
                    continue;
                }
                let finding = &out[i].findings[f];
                let limit = finding.threshold_pct.map_or(0.0, |t| (t / 100.0).ln_1p());
                let mut confirmations = Vec::new();
                for (k, (rows, _)) in prepared.iter().enumerate() {
                    // The same GPU — its UUID on the same host (a driver may give every
                    // device one UUID: lavapipe's is its Mesa version's, on every machine) —
                    // measured beside this run: a file in the same folder (a re-measure is
                    // written beside its run; an earlier run of the GPU in the history says
                    // how it was, not how it is).
                    let folder = |label: &str| {
                        std::path::Path::new(label)
                            .parent()
                            .map(std::path::Path::to_path_buf)
                    };
                    let same = !members[k].uuid.is_empty()
                        && members[k].uuid == members[i].uuid
                        && members[k].host == members[i].host
                        && folder(&members[k].label) == folder(&members[i].label);
                    if k == i || !same {
                        continue;
                    }
                    if let Some(d) = deviation_over(rows, &finding.tests, finding.worse) {
                        confirmations.push(Confirmation {
                            label: members[k].label.clone(),
                            slower_pct: pct_of_ln(d),
                            beyond: d > limit,
                        });
                    }
                }
                let call = if confirmations.is_empty() {
                    Call::Unconfirmed
                } else if confirmations.iter().all(|c| c.beyond) {
                    Call::Degraded
                } else {
                    Call::NotConfirmed
                };
                let finding = &mut out[i].findings[f];
                finding.call = call;
                finding.confirmations = confirmations;
            }
            if out[i].status == Status::Healthy {
                let calls: Vec<Call> = out[i].findings.iter().map(|f| f.call).collect();
                if calls.contains(&Call::Degraded) {
                    out[i].status = Status::Degraded;
                } else if calls.contains(&Call::Unconfirmed) {
                    out[i].status = Status::Suspect;
                }
            }
        }
        verdict.groups.push(Group {
            device,
            driver,
            judged,
            gpus: out,
        });
    }
    machines(&mut verdict);
    verdict.exit_code = exit_code(&verdict);
    verdict
}

/// Degradations every GPU of a machine shares become the machine's, where the fleet has
/// GPUs of more than one machine (with one, the machine is the fleet).
fn machines(verdict: &mut Verdict) {
    let hosts: std::collections::BTreeSet<&str> = verdict
        .gpus()
        .filter(|g| g.status != Status::NotJudged)
        .map(|g| g.host.as_str())
        .collect();
    if hosts.len() < 2 || hosts.contains("") {
        return;
    }
    for group in &mut verdict.groups {
        let hosts: Vec<String> = group.gpus.iter().map(|g| g.host.clone()).collect();
        for host in hosts.iter().collect::<std::collections::BTreeSet<_>>() {
            let on: Vec<usize> = (0..group.gpus.len())
                .filter(|i| group.gpus[*i].host == *host)
                .filter(|i| group.gpus[*i].status != Status::NotJudged)
                .collect();
            // GPUs, not runs: two runs of one GPU (its UUID) are no machine's pattern.
            let gpus: std::collections::BTreeSet<&str> = on
                .iter()
                .map(|i| {
                    let g = &group.gpus[*i];
                    if g.uuid.is_empty() {
                        g.label.as_str()
                    } else {
                        g.uuid.as_str()
                    }
                })
                .collect();
            if gpus.len() < 2 {
                continue;
            }
            let first = &group.gpus[on[0]];
            // Worse beyond the threshold, confirmed or not yet: a machine's shared
            // difference is its own either way.
            let worse = |g: &GpuVerdict| -> Vec<(Subsystem, String)> {
                g.findings
                    .iter()
                    .filter(|f| matches!(f.call, Call::Degraded | Call::Unconfirmed))
                    .map(|f| (f.subsystem, f.item.clone()))
                    .collect()
            };
            let shared: Vec<(Subsystem, String)> = worse(first)
                .into_iter()
                .filter(|f| on.iter().all(|i| worse(&group.gpus[*i]).contains(f)))
                .collect();
            for (subsystem, item) in shared {
                let mut devs = Vec::new();
                for i in &on {
                    for f in group.gpus[*i].findings.iter_mut() {
                        if f.subsystem == subsystem && f.item == item {
                            f.machine = Some(host.clone());
                            devs.extend(f.deviation_pct);
                        }
                    }
                }
                verdict.machines.push(MachineFinding {
                    host: host.clone(),
                    device: group.device.clone(),
                    subsystem,
                    item,
                    deviation_pct: median(devs),
                    gpus: on.len(),
                });
            }
        }
    }
}

/// 1 where a GPU is degraded (an operator must act), else 2 where anything could not be
/// judged (a GPU, an unreadable file, no GPU at all), else 0.
fn exit_code(v: &Verdict) -> i32 {
    if v.gpus().any(|g| g.status == Status::Degraded) || !v.missing.is_empty() {
        1
    } else if v.gpus().any(|g| g.status == Status::Suspect) {
        3
    } else if v.gpus().next().is_none()
        || !v.unreadable.is_empty()
        || v.gpus().any(|g| g.status == Status::NotJudged)
    {
        2
    } else {
        0
    }
}

/// The verdict over what [`read_paths`] read: [`judge`], with the files passed over or
/// unreadable named (an unreadable one makes the verdict incomplete: exit 2), and, where
/// `this_run` names the folder of the run checked, the GPUs its hosts had in the history
/// and lack in it ([`missing_gpus`]).
pub fn verdict(
    read: read::Read,
    catalog: &Catalog,
    floor_pct: f64,
    this_run: Option<&std::path::Path>,
) -> Verdict {
    let mut v = judge(&read.gpus, catalog, floor_pct);
    v.missing = this_run.map_or_else(Vec::new, |dir| missing_gpus(&read.gpus, dir));
    v.skipped = read.skipped;
    v.unreadable = read.unreadable;
    v.exit_code = exit_code(&v);
    v
}

/// The verdict as `--json` writes it.
pub fn json(verdict: &Verdict) -> serde_json::Result<String> {
    serde_json::to_string_pretty(verdict)
}
