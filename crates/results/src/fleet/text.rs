//! The verdict as text: one line per GPU, one per degraded item under it, then the machines' shared differences and what could not be judged.

use super::host::{GpuName, HostVerdict, Reason};
use super::{Call, Finding, GpuVerdict, Missing, Status, Verdict, MAD_TO_SIGMA, SIGMAS};
use crate::summary::Subsystem;
use std::fmt::Write as _;

/// `L1: bandwidth`, `host link: host → device`: the subsystem, unless the item names it.
pub fn item_name(subsystem: Subsystem, item: &str) -> String {
    let s = subsystem.to_string();
    if item.starts_with(&s) {
        item.to_string()
    } else {
        format!("{s}: {item}")
    }
}

/// `−23.1 %`, `+4.0 %`.
fn signed(p: f64) -> String {
    let sign = if p < 0.0 { "−" } else { "+" };
    format!("{sign}{:.1} %", p.abs())
}

/// A degraded (or faster) item, with the numbers its call rests on.
pub fn finding_line(f: &Finding) -> String {
    let mut out = format!(
        "{} {}",
        item_name(f.subsystem, &f.item),
        f.deviation_pct.map_or_else(String::new, signed)
    );
    if let (Some(slower), Some(limit)) = (f.slower_pct, f.threshold_pct) {
        let _ = write!(
            out,
            " ({:.1} % {} on {} test(s); threshold {limit:.1} %: the largest of the fleet's \
             spread {:.1} %, the rows' own {:.1} % and the floor {:.0} %",
            slower.abs(),
            if slower >= 0.0 { "slower" } else { "faster" },
            f.tests.len(),
            f.fleet_spread_pct.unwrap_or(0.0),
            f.own_spread_pct.unwrap_or(0.0),
            f.floor_pct
        );
        if let Some(r) = f.published_ratio {
            let _ = write!(out, "; {r:.2}× published");
        }
        out += ")";
    }
    out
}

/// `host gpu-7, uuid 3f55…, NVIDIA H100 80GB HBM3: healthy`.
fn gpu_line(g: &GpuVerdict) -> String {
    let or = |s: &str, none: &str| {
        if s.is_empty() {
            none.to_string()
        } else {
            s.to_string()
        }
    };
    format!(
        "{}, {}, {}: {} ({})",
        or(&g.host, "no host"),
        or(&g.uuid, "no uuid"),
        g.device,
        g.status.word(),
        g.label
    )
}

/// The verdict as `perftest fleet` prints it.
// Long on purpose: the verdict's one listing, read top to bottom: the rules, each group
// and its GPUs, the machines, then everything that was not judged.
pub fn text(v: &Verdict) -> String {
    let gpus = v.gpus().count();
    let mut out = format!(
        "perftest fleet: {gpus} GPU(s) of {} model(s) and driver(s); a GPU is degraded in an \
         item where it is slower than its fleet's median by more than the largest of \
         {SIGMAS:.0} × {MAD_TO_SIGMA} × the fleet's median absolute deviation, twice its rows' \
         own spread, and {:.0} % (docs/fleet.md)\n",
        v.groups.len(),
        v.floor_pct
    );
    for group in &v.groups {
        let _ = writeln!(
            out,
            "\n{} ({}): {} GPU(s){}",
            group.device,
            group.driver,
            group.gpus.len(),
            if group.judged {
                ""
            } else {
                ": could not judge (fewer than 3 timed GPUs); the published figures only"
            }
        );
        for g in &group.gpus {
            let _ = writeln!(out, "  {}", gpu_line(g));
            if let Some(why) = &g.why_not {
                let _ = writeln!(out, "    not judged: {why}");
            }
            for f in g.degraded() {
                let machine = f
                    .machine
                    .as_ref()
                    .map_or_else(String::new, |m| format!(" [machine {m}'s]"));
                let _ = writeln!(
                    out,
                    "    degraded: {}{machine}; confirmed {}",
                    finding_line(f),
                    confirmations(f)
                );
            }
            for f in &g.findings {
                let line = match f.call {
                    Call::Unconfirmed => format!(
                        "    suspect: {} (in this run only, no other run of this GPU has its \
                         tests: re-measure them to confirm)",
                        finding_line(f)
                    ),
                    Call::NotConfirmed => format!(
                        "    did not come back (not a fault): {}; re-measured {}",
                        finding_line(f),
                        confirmations(f)
                    ),
                    Call::Host => format!(
                        "    host (the machine's submission path, not the GPU): {}",
                        finding_line(f)
                    ),
                    _ => continue,
                };
                let _ = writeln!(out, "{line}");
            }
            let faster: Vec<String> = g
                .findings
                .iter()
                .filter(|f| f.call == Call::Faster)
                .map(|f| {
                    format!(
                        "{} {}",
                        item_name(f.subsystem, &f.item),
                        f.deviation_pct.map_or_else(String::new, signed)
                    )
                })
                .collect();
            if !faster.is_empty() {
                let _ = writeln!(
                    out,
                    "    faster than the fleet (noted, not a fault): {}",
                    faster.join("; ")
                );
            }
            if g.status == Status::NotJudged {
                let published: Vec<String> = g
                    .findings
                    .iter()
                    .filter_map(|f| {
                        Some(format!(
                            "{} {:.2}×",
                            item_name(f.subsystem, &f.item),
                            f.published_ratio?
                        ))
                    })
                    .collect();
                if !published.is_empty() {
                    let _ = writeln!(
                        out,
                        "    against the published figures: {}",
                        published.join("; ")
                    );
                }
            }
            // Flagged rows first: they are the run's own warning.
            let mut left = g.left_out.clone();
            left.sort_by_key(|l| !l.cause.is_flagged());
            for l in &left {
                let more = if l.rows > l.tests.len() { ", …" } else { "" };
                let _ = writeln!(
                    out,
                    "    not judged: {} row(s) {} ({}{more})",
                    l.rows,
                    l.cause,
                    l.tests.join("; ")
                );
            }
        }
    }
    if !v.machines.is_empty() {
        out += "\nShared by every GPU of a machine (the machine's, not the GPUs'):\n";
        for m in &v.machines {
            let _ = writeln!(
                out,
                "  machine {}: {} {} ({} GPUs of {})",
                m.host,
                item_name(m.subsystem, &m.item),
                signed(m.deviation_pct),
                m.gpus,
                m.device
            );
        }
    }
    if !v.missing.is_empty() {
        out += "\nGPUs missing from the run checked (fewer than its host had in the history):\n";
        for m in &v.missing {
            let _ = writeln!(out, "  {}", missing_line(m));
        }
    }
    for (title, list) in [
        ("the same run read twice, left out", &v.duplicates),
        ("passed over (not perftest results)", &v.skipped),
        ("unreadable", &v.unreadable),
    ] {
        if !list.is_empty() {
            let _ = writeln!(out, "\n{} file(s) {title}:", list.len());
            for p in list {
                let _ = writeln!(out, "  {}: {}", p.file, p.why);
            }
        }
    }
    let degraded = v.gpus().filter(|g| g.status == Status::Degraded).count();
    let suspect = v.gpus().filter(|g| g.status == Status::Suspect).count();
    let not = v.gpus().filter(|g| g.status == Status::NotJudged).count();
    let _ = writeln!(
        out,
        "\n{} healthy, {degraded} degraded, {suspect} suspect, {not} not judged (exit {})",
        gpus - degraded - suspect - not,
        v.exit_code
    );
    out
}

/// `in run2.csv (+12.0 %), in run3.csv (+1.2 %, within)`: a finding's re-measures.
fn confirmations(f: &super::Finding) -> String {
    f.confirmations
        .iter()
        .map(|c| {
            format!(
                "in {} ({:+.1} %{})",
                c.label,
                c.slower_pct,
                if c.beyond { "" } else { ", within" }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `node4, uuid-6, NVIDIA H100 80GB HBM3: missing: 1 GPU(s) in this run, 2 in the history (…)`.
fn missing_line(m: &Missing) -> String {
    format!(
        "{}, {}, {}: missing: {} GPU(s) in this run, {} in the history ({})",
        m.host, m.uuid, m.device, m.run_gpus, m.history_gpus, m.history_file
    )
}

/// `node4, uuid-4, NVIDIA H100 80GB HBM3`; a GPU without a UUID by its file (and device).
fn gpu_name(g: &GpuName) -> String {
    if g.uuid.is_empty() {
        format!("{}, no uuid ({}), {}", g.host, g.label, g.device)
    } else {
        format!("{}, {}, {}", g.host, g.uuid, g.device)
    }
}

/// One host's verdict as `perftest fleet --host NAME` prints it: a line per reason, each
/// naming its GPU, or one line where the host is healthy.
pub fn host_text(h: &HostVerdict) -> String {
    let mut out = String::new();
    if h.reasons.is_empty() {
        let _ = writeln!(
            out,
            "{}: healthy ({} GPU-run(s) of it among {} in the verdict)",
            h.host, h.gpu_runs, h.fleet_gpu_runs
        );
    }
    for r in &h.reasons {
        let _ = match r {
            Reason::Degraded { gpu, finding } => writeln!(
                out,
                "{}: degraded: {}; confirmed {}",
                gpu_name(gpu),
                finding_line(finding),
                confirmations(finding)
            ),
            Reason::Missing(m) => writeln!(out, "{}", missing_line(m)),
            Reason::Suspect { gpu, finding } => writeln!(
                out,
                "{}: suspect: {} (in {} only: re-measure its tests to confirm)",
                gpu_name(gpu),
                finding_line(finding),
                gpu.label
            ),
            Reason::NotJudged { gpu, why } => {
                writeln!(out, "{}: not judged ({}): {why}", gpu_name(gpu), gpu.label)
            }
            Reason::DegradedElsewhere { gpu } => writeln!(
                out,
                "{}: not judged: the fleet it is judged against has a degraded GPU, another \
                 host's: {} ({})",
                h.host,
                gpu_name(gpu),
                gpu.label
            ),
            Reason::Unreadable { why } => writeln!(out, "{}: a file unreadable: {why}", h.host),
            Reason::NoGpu => writeln!(
                out,
                "{}: not judged: no GPU of this host was read (no row's `host` column names it)",
                h.host
            ),
            Reason::NoGpuInRun { run } => writeln!(
                out,
                "{}: not judged: none of its GPUs is in the run checked ({run}); only its history \
                 was read",
                h.host
            ),
        };
    }
    out
}
