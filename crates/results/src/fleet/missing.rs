//! GPUs missing from a host's run: fewer than the host had in a run of the history (one fallen off the bus, or hidden from Vulkan), counted, so that a GPU replaced since is none.

use super::Gpu;
use serde::Serialize;
use std::path::Path;

/// A GPU of the history that a host's run checked lacks, and the counts that call it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Missing {
    pub host: String,
    pub uuid: String,
    pub device: String,
    /// The host's GPUs in the run checked.
    pub run_gpus: usize,
    /// The most the host had in one file of the history, and that file.
    pub history_gpus: usize,
    pub history_file: String,
}

/// For each host with GPUs in files under `this_run` (the run checked), the GPUs (by UUID)
/// of its history runs (every other file) it lacks, where it has fewer GPUs than it had in
/// one of them; none where it has as many (a GPU replaced since: another UUID, the same
/// count) or the history has no run of it.
pub fn missing_gpus(gpus: &[Gpu], this_run: &Path) -> Vec<Missing> {
    let in_run = |g: &Gpu| under(&g.file, this_run);
    let mut hosts: Vec<&str> = Vec::new();
    for g in gpus.iter().filter(|g| in_run(g)) {
        if !hosts.contains(&g.host.as_str()) {
            hosts.push(&g.host);
        }
    }
    let mut out = Vec::new();
    for host in hosts {
        let mut now: Vec<&str> = Vec::new();
        // (file, its distinct UUIDs), in order of first appearance.
        let mut history: Vec<(&Path, Vec<&Gpu>)> = Vec::new();
        for g in gpus.iter().filter(|g| g.host == host) {
            if in_run(g) {
                if !now.contains(&g.uuid.as_str()) {
                    now.push(&g.uuid);
                }
                continue;
            }
            let at = match history.iter().position(|(f, _)| *f == g.file.as_path()) {
                Some(at) => at,
                None => {
                    history.push((&g.file, Vec::new()));
                    history.len() - 1
                }
            };
            if !history[at].1.iter().any(|h| h.uuid == g.uuid) {
                history[at].1.push(g);
            }
        }
        // The first file with the most GPUs.
        let Some((file, most)) = history
            .iter()
            .rev()
            .max_by_key(|(_, gs)| gs.len())
            .map(|(f, gs)| (*f, gs.len()))
        else {
            continue;
        };
        if now.len() >= most {
            continue;
        }
        let mut named: Vec<&str> = Vec::new();
        for g in history.iter().flat_map(|(_, gs)| gs) {
            if !now.contains(&g.uuid.as_str()) && !named.contains(&g.uuid.as_str()) {
                named.push(&g.uuid);
                out.push(Missing {
                    host: host.to_string(),
                    uuid: g.uuid.clone(),
                    device: g.device.clone(),
                    run_gpus: now.len(),
                    history_gpus: most,
                    history_file: file.display().to_string(),
                });
            }
        }
    }
    out
}

/// Whether `file` lies in the folder `dir`, however either is spelt (`./runs`, `runs/`, a
/// link): compared as canonical paths.
pub fn under(file: &Path, dir: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    canonical(file).starts_with(canonical(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu(file: &str, host: &str, uuid: &str) -> Gpu {
        Gpu {
            host: host.into(),
            uuid: uuid.into(),
            device: "GPU".into(),
            file: file.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_host_with_fewer_gpus_than_in_its_history_lacks_those_not_seen() {
        let history = [
            gpu("hist/a.csv", "n1", "u1"),
            gpu("hist/a.csv", "n1", "u2"),
            gpu("hist/b.csv", "n1", "u1"),
            gpu("hist/a.csv", "n2", "u9"),
        ];
        let with = |run: &[Gpu]| {
            let all: Vec<Gpu> = history.iter().chain(run).cloned().collect();
            missing_gpus(&all, Path::new("run"))
        };
        // One GPU of two: u2 is missing, against hist/a.csv's two.
        let m = with(&[gpu("run/n1/perftest.csv", "n1", "u1")]);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            (
                m[0].uuid.as_str(),
                m[0].run_gpus,
                m[0].history_gpus,
                m[0].history_file.as_str()
            ),
            ("u2", 1, 2, "hist/a.csv")
        );
        // As many, one replaced (u3 for u2): none missing.
        let m = with(&[
            gpu("run/n1/perftest.csv", "n1", "u1"),
            gpu("run/n1/perftest.csv", "n1", "u3"),
        ]);
        assert!(m.is_empty(), "{m:?}");
        // A host new to the history, and a host of the history not in this run: none.
        assert!(with(&[gpu("run/n3/perftest.csv", "n3", "u5")]).is_empty());
        // A re-measure beside the run (`run/n1/confirm.csv`) is the run's, not history.
        let m = with(&[
            gpu("run/n1/perftest.csv", "n1", "u1"),
            gpu("run/n1/confirm.csv", "n1", "u2"),
        ]);
        assert!(m.is_empty(), "{m:?}");
    }
}
