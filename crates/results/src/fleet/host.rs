//! One host's part of the verdict: the code a node's health check exits with and the reasons it says, typed, so that no script reads the verdict's text back.

use super::missing::under;
use super::{Call, Finding, GpuVerdict, Missing, Status, Verdict};
use serde::Serialize;
use std::path::Path;

/// A GPU as the verdict names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuName {
    pub host: String,
    pub uuid: String,
    pub device: String,
    /// The result file of the GPU-run.
    pub label: String,
}

impl GpuName {
    fn of(g: &GpuVerdict) -> Self {
        Self {
            host: g.host.clone(),
            uuid: g.uuid.clone(),
            device: g.device.clone(),
            label: g.label.clone(),
        }
    }
}

/// Why a host's verdict is what it is, one reason per line of [`super::text::host_text`].
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// An item of one of its GPUs, degraded (confirmed): one line for the item however many
    /// runs of the GPU confirm one another, the run with the smallest slowdown naming the
    /// others' (the figure the call is sure of).
    Degraded { gpu: GpuName, finding: Finding },
    /// A GPU it had in the history and lacks in the run checked.
    Missing(Missing),
    /// An item of one of its GPUs slower in this run only: re-measure before calling.
    Suspect { gpu: GpuName, finding: Finding },
    /// One of its GPU-runs could not be judged, and why.
    NotJudged { gpu: GpuName, why: String },
    /// Another host's GPU degraded in the fleet this node is judged against: a reference
    /// with a fault in it judges nothing (the health check refuses a degraded history the
    /// same way), and the fault is not this node's.
    DegradedElsewhere { gpu: GpuName },
    /// A file that could not be read: the verdict is incomplete (`why` names the file).
    Unreadable { why: String },
    /// No GPU of the host was read: nothing of it to judge.
    NoGpu,
    /// None of its GPUs is in the run checked (`--this-run`): only its history was read.
    NoGpuInRun { run: String },
}

/// One host's verdict out of the fleet's.
#[derive(Clone, Debug, Serialize)]
pub struct HostVerdict {
    pub host: String,
    /// 0 healthy; 1 degraded (an item of its GPUs, or one of them missing); 3 suspect (an
    /// item of its GPUs slower in this run only); 2 not judged (none of its GPUs read, or
    /// none in the run checked; one of its GPU-runs not judged, a file unreadable, another
    /// host's GPU degraded).
    pub exit_code: i32,
    /// Its GPU-runs in the verdict (every file's).
    pub gpu_runs: usize,
    /// The fleet's GPU-runs.
    pub fleet_gpu_runs: usize,
    pub reasons: Vec<Reason>,
}

/// The verdict for `host` (`this_run`: the folder of the run checked, which must hold a GPU
/// of it): its GPUs' degraded items and missing GPUs first, then its suspect items, then
/// what leaves it not judged; another host's suspect or unjudged GPU says nothing of it.
pub fn host_verdict(v: &Verdict, host: &str, this_run: Option<&Path>) -> HostVerdict {
    let mine: Vec<&GpuVerdict> = v.gpus().filter(|g| g.host == host).collect();
    let gpu_runs = mine.len();
    let unreadable = || {
        v.unreadable
            .iter()
            .map(|p| Reason::Unreadable { why: p.why.clone() })
    };
    let outside = this_run.filter(|dir| !mine.iter().any(|g| under(&g.file, dir)));
    let (exit_code, reasons) = if mine.is_empty() {
        // A file it could not read may be the one that held its GPUs: named first.
        (2, unreadable().chain([Reason::NoGpu]).collect())
    } else if let Some(dir) = outside {
        let run = dir.display().to_string();
        (
            2,
            unreadable().chain([Reason::NoGpuInRun { run }]).collect(),
        )
    } else {
        let mut degraded = degraded_items(&mine);
        degraded.extend(
            v.missing
                .iter()
                .filter(|m| m.host == host)
                .cloned()
                .map(Reason::Missing),
        );
        // A suspect item is in its run only: no other run names it, one line each.
        let suspect: Vec<Reason> = mine
            .iter()
            .flat_map(|g| {
                g.findings
                    .iter()
                    .filter(|f| f.call == Call::Unconfirmed)
                    .map(|f| Reason::Suspect {
                        gpu: GpuName::of(g),
                        finding: f.clone(),
                    })
            })
            .collect();
        // Only its own GPUs: another host's (a `--verify` run in the history, a model with
        // too few GPUs) says nothing of this node.
        let not_judged = mine
            .iter()
            .filter(|g| g.status == Status::NotJudged)
            .map(|g| Reason::NotJudged {
                gpu: GpuName::of(g),
                why: g.why_not.clone().unwrap_or_default(),
            })
            .chain(unreadable())
            .chain(
                v.gpus()
                    .filter(|g| g.host != host && g.status == Status::Degraded)
                    .map(|g| Reason::DegradedElsewhere {
                        gpu: GpuName::of(g),
                    }),
            );
        if !degraded.is_empty() {
            (1, degraded)
        } else if !suspect.is_empty() {
            (3, suspect)
        } else {
            let not_judged: Vec<Reason> = not_judged.collect();
            (if not_judged.is_empty() { 0 } else { 2 }, not_judged)
        }
    };
    HostVerdict {
        host: host.to_string(),
        exit_code,
        gpu_runs,
        fleet_gpu_runs: v.gpus().count(),
        reasons,
    }
}

/// The degraded items of `gpus`, one per item of a GPU: runs of one GPU that confirm each
/// other (each names the other among its confirmations) are one line, the one with the
/// smallest slowdown; GPUs without a UUID, or with one their driver gives every device, are
/// never merged, as they confirm nothing of each other.
fn degraded_items(gpus: &[&GpuVerdict]) -> Vec<Reason> {
    let mut all: Vec<(usize, &GpuVerdict, &Finding)> = Vec::new();
    for g in gpus {
        for f in g.degraded() {
            all.push((all.len(), g, f));
        }
    }
    all.sort_by(|a, b| {
        let slower = |f: &Finding| f.slower_pct.map_or(f64::INFINITY, f64::abs);
        slower(a.2).total_cmp(&slower(b.2)).then(a.0.cmp(&b.0))
    });
    let mut kept: Vec<(usize, &GpuVerdict, &Finding)> = Vec::new();
    for (at, g, f) in all {
        let named = kept.iter().any(|(_, _, k)| {
            k.subsystem == f.subsystem
                && k.item == f.item
                && k.confirmations.iter().any(|c| c.label == g.label)
        });
        if !named {
            kept.push((at, g, f));
        }
    }
    kept.sort_by_key(|(at, _, _)| *at);
    kept.into_iter()
        .map(|(_, g, f)| Reason::Degraded {
            gpu: GpuName::of(g),
            finding: f.clone(),
        })
        .collect()
}
