//! One host's part of the verdict: the code a node's health check exits with and the reasons it says, typed, so that no script reads the verdict's text back.

use super::{Call, Finding, GpuVerdict, Missing, Passed, Status, Verdict};
use serde::Serialize;

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
    /// An item of one of its GPUs, degraded (confirmed): one per GPU and item, whichever of
    /// its runs names it (each names the other's measurement).
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
    /// A file that could not be read: the verdict is incomplete.
    Unreadable(Passed),
    /// No GPU of the host was read: nothing of it to judge.
    NoGpu,
}

/// One host's verdict out of the fleet's.
#[derive(Clone, Debug, Serialize)]
pub struct HostVerdict {
    pub host: String,
    /// 0 healthy; 1 degraded (an item of its GPUs, or one of them missing); 3 suspect (an
    /// item of its GPUs slower in this run only); 2 not judged (none of its GPUs read, one of
    /// its GPU-runs not judged, a file unreadable, another host's GPU degraded).
    pub exit_code: i32,
    /// Its GPU-runs in the verdict (every file's).
    pub gpu_runs: usize,
    /// The fleet's GPU-runs.
    pub fleet_gpu_runs: usize,
    pub reasons: Vec<Reason>,
}

/// The verdict for `host`: its GPUs' degraded items and missing GPUs first, then its
/// suspect items, then what leaves it not judged; another host's suspect or unjudged GPU
/// says nothing of it.
pub fn host_verdict(v: &Verdict, host: &str) -> HostVerdict {
    let mine: Vec<&GpuVerdict> = v.gpus().filter(|g| g.host == host).collect();
    let gpu_runs = mine.len();
    let others = || v.gpus().filter(|g| g.host != host);
    let (exit_code, reasons) = if mine.is_empty() {
        (2, vec![Reason::NoGpu])
    } else {
        let items = |call: Call| {
            let mut seen: Vec<(&str, &str)> = Vec::new();
            let mut out = Vec::new();
            for g in &mine {
                for f in g.findings.iter().filter(|f| f.call == call) {
                    if !seen.contains(&(g.uuid.as_str(), f.item.as_str())) {
                        seen.push((&g.uuid, &f.item));
                        out.push((GpuName::of(g), f.clone()));
                    }
                }
            }
            out
        };
        let mut degraded: Vec<Reason> = items(Call::Degraded)
            .into_iter()
            .map(|(gpu, finding)| Reason::Degraded { gpu, finding })
            .collect();
        degraded.extend(
            v.missing
                .iter()
                .filter(|m| m.host == host)
                .cloned()
                .map(Reason::Missing),
        );
        let suspect: Vec<Reason> = items(Call::Unconfirmed)
            .into_iter()
            .map(|(gpu, finding)| Reason::Suspect { gpu, finding })
            .collect();
        // Only its own GPUs: another host's (a `--verify` run in the history, a model with
        // too few GPUs) says nothing of this node.
        let not_judged: Vec<Reason> = mine
            .iter()
            .filter(|g| g.status == Status::NotJudged)
            .map(|g| Reason::NotJudged {
                gpu: GpuName::of(g),
                why: g.why_not.clone().unwrap_or_default(),
            })
            .chain(v.unreadable.iter().cloned().map(Reason::Unreadable))
            .collect();
        let elsewhere: Vec<Reason> = others()
            .filter(|g| g.status == Status::Degraded)
            .map(|g| Reason::DegradedElsewhere {
                gpu: GpuName::of(g),
            })
            .collect();
        if !degraded.is_empty() {
            (1, degraded)
        } else if !suspect.is_empty() {
            (3, suspect)
        } else if !not_judged.is_empty() || !elsewhere.is_empty() {
            (2, not_judged.into_iter().chain(elsewhere).collect())
        } else {
            (0, Vec::new())
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
