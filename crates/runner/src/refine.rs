//! The latency curve's edges refined after the sweep: probes of its chase at working sets between the last size on a plateau and the first off it, bisected to 1/32 of the size.

use super::latency::Figure;
use super::{Conditions, Measurement, Runner, Status};
use perftest_results::{row, summary, Note};

/// The bisection stops where the edge lies within this fraction of its size.
const RESOLUTION: u64 = 32;
/// The probes' grid: 4 KB below 1 MB (the chain table's alignment), a quarter of a MB above
/// (a name the suites and the summary spell exactly, `20.25 MB`).
const FINE_GRID: u64 = 4 << 10;
const COARSE_GRID: u64 = 256 << 10;
/// Only an edge between two neighbouring sizes of the whole sweep (a quarter octave apart,
/// at most ×1.25) is refined: a thinned run (the health profile) keeps its grid.
const NEIGHBOURS: f64 = 1.25 + 1e-9;
/// Rounds of bisection at most: each bisects the edges the curve shows with the probes
/// before it on it.
const ROUNDS: usize = 3;

impl<'g> Runner<'g> {
    /// Probes of the latency curve's edges, as rows: for each edge the summary reads off
    /// the `rows` of the curve (those with a [`TestCase::curve_size`], by its plateau
    /// rules), the
    /// working set halfway between the last size on the plateau and the first off it, on
    /// the plateau or off it by the plateau's tolerance, and so on until the two lie within
    /// 1/32 of the size (or a grid step) of each other. Each probe's row is the `off` row's,
    /// with the probe's name and latency, and says so; `note` tells the user what each edge
    /// came to. None where the family makes no probe (or the curve has no edge); no more
    /// once `stopped` (the run was interrupted).
    // Long on purpose: one loop of rounds (bisect each edge, read the plateaus again with
    // every probe on the curve, bisect what moved) over state every step reads: the probes so
    // far and the edges done.
    pub(super) fn refine_edges(
        &self,
        rows: &[(usize, Measurement)],
        note: impl Fn(&str),
        stopped: impl Fn() -> bool,
    ) -> Vec<(usize, Measurement)> {
        let mut curve: Vec<(u64, &(usize, Measurement))> = rows
            .iter()
            .filter(|(_, m)| m.status == Status::Ok && m.probe_name.is_none())
            .filter_map(|r| Some((r.1.test.curve_size()?, r)))
            .collect();
        curve.sort_by_key(|c| c.0);
        let in_clk = curve.iter().any(|(_, (_, m))| m.latency_clk.is_some());
        // Judged as the file holds them, which is what the summary reads: the plateaus'
        // ties are broken by their spreads, and a digit beyond the file's once ended a
        // plateau a probe apart from the summary's (CI on lavapipe).
        let written = |v: f64| {
            let decimals = if in_clk {
                row::LATENCY_CLK_DECIMALS
            } else {
                row::LATENCY_NS_DECIMALS
            };
            row::as_written(v, decimals)
        };
        let value =
            |m: &Measurement| if in_clk { m.latency_clk } else { m.latency_ns }.map(written);
        let mut points: Vec<(u64, f64)> = curve
            .iter()
            .filter_map(|(size, (_, m))| Some((*size, value(m)?)))
            .collect();
        let mut out = Vec::new();
        // The summary reads the plateaus off the curve with the probes on it, and they can
        // move a plateau's ends (a probe on it lets it hold a sweep size it did not): the
        // edges it then shows are bisected in turn, a few rounds at most.
        for _ in 0..ROUNDS {
            let mut refined = false;
            for edge in summary::edges(&points) {
                if edge.off as f64 > edge.on as f64 * NEIGHBOURS {
                    continue;
                }
                // The probe's test and clock: the sweep's row at or after the edge's end.
                let Some((_, (index, source))) = curve
                    .iter()
                    .find(|(size, _)| *size >= edge.off)
                    .or(curve.last())
                else {
                    continue;
                };
                let mut failed = None;
                let probed = bisect(edge, |mid| {
                    if stopped() {
                        return None;
                    }
                    let (name, figure) = match self.probe_latency(&source.test, mid) {
                        Ok(Some(f)) => f,
                        Ok(None) => return None,
                        Err(e) => {
                            failed = Some(e);
                            return None;
                        }
                    };
                    let mut m = source.clone();
                    m.probe_name = Some(name);
                    m.working_set_bytes = Some(mid);
                    m.stats = None;
                    m.conditions = Conditions::Unchecked;
                    m.drift_pct = None;
                    m.notes = vec![Note::EdgeProbe {
                        on: edge.on,
                        off: edge.off,
                        clock_of: source.test.name().to_string(),
                    }];
                    let v = match figure {
                        Figure::Clk { clk, spread } => {
                            m.latency_clk = Some(clk);
                            m.latency_ns = m.clock_mhz.map(|mhz| clk / mhz * 1000.0);
                            m.latency_spread_pct = spread;
                            clk
                        }
                        Figure::Ns { ns, spread } => {
                            m.latency_clk = None;
                            m.latency_ns = Some(ns);
                            m.latency_spread_pct = spread;
                            ns
                        }
                    };
                    out.push((*index, m));
                    points.push((mid, written(v)));
                    Some(written(v))
                });
                if let Some(e) = failed {
                    note(&format!(
                        "the edge between {} and {} was not refined further: {e:#}",
                        summary::size_name(edge.on),
                        summary::size_name(edge.off)
                    ));
                    return out;
                }
                if let Some((on, off, probes)) = probed {
                    refined = true;
                    note(&format!(
                        "{}: the edge between {} and {} refined to {} – {} ({probes} probe{})",
                        summary::LATENCY.trim_end(),
                        summary::size_name(edge.on),
                        summary::size_name(edge.off),
                        summary::size_name(on),
                        summary::size_name(off),
                        if probes == 1 { "" } else { "s" }
                    ));
                }
            }
            if !refined || stopped() {
                break;
            }
        }
        if !out.is_empty() {
            // A bisection ends an edge by the plateau as it stood; the summary reads the
            // plateaus again with every probe on the curve and can end one a probe later: its
            // reading is the one to say last.
            let edges: Vec<String> = summary::edges(&points)
                .iter()
                .map(|e| {
                    format!(
                        "{} – {}",
                        summary::size_name(e.on),
                        summary::size_name(e.off)
                    )
                })
                .collect();
            note(&format!(
                "{}: the curve's edges with its {} probe{} on it, as the summary reads them: {}",
                summary::LATENCY.trim_end(),
                out.len(),
                if out.len() == 1 { "" } else { "s" },
                if edges.is_empty() {
                    // The probes can fill a step the sweep showed: the plateaus then join.
                    "none (with the probes on it the curve is one plateau)".to_string()
                } else {
                    edges.join(", ")
                }
            ));
        }
        out
    }
}

/// Bisects `edge` with `probe` (a working set's figure, `None` where none could be had): the
/// last size found on its plateau and the first off it once they lie within 1/32 of the size
/// (or a grid step) of each other, with the number of probes; `None` where nothing was probed.
fn bisect(
    edge: summary::Edge,
    mut probe: impl FnMut(u64) -> Option<f64>,
) -> Option<(u64, u64, u32)> {
    let (mut on, mut off, mut probes, mut plateau) = (edge.on, edge.off, 0, edge);
    loop {
        let grid = if on < 1 << 20 { FINE_GRID } else { COARSE_GRID };
        if off - on <= grid.max(on / RESOLUTION) {
            break;
        }
        let mid = (on + off) / 2 / grid * grid;
        if mid <= on || mid >= off {
            break;
        }
        let Some(v) = probe(mid) else {
            break;
        };
        probes += 1;
        if plateau.holds(v) {
            plateau = plateau.with(v);
            on = mid;
        } else {
            off = mid;
        }
    }
    (probes > 0).then_some((on, off, probes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step from 51 to 300 at `at` bytes.
    fn step(at: u64) -> impl FnMut(u64) -> Option<f64> {
        move |bytes| Some(if bytes <= at { 51.0 } else { 300.0 })
    }

    #[test]
    fn an_edge_is_bisected_to_a_32nd_of_its_size_on_the_grid() {
        let kb = |n: u64| n << 10;
        let mb = |n: u64| n << 20;
        // The H100's L1: between the sweep's 160 and 192 KB; the step at 174 KB.
        let l1 = summary::Edge {
            on: kb(160),
            off: kb(192),
            lo: 50.0,
            hi: 52.0,
        };
        let mut asked = Vec::new();
        let mut s = step(kb(174));
        let found = bisect(l1, |b| {
            asked.push(b);
            s(b)
        });
        assert_eq!(asked, [kb(176), kb(168), kb(172)]);
        assert_eq!(found, Some((kb(172), kb(176), 3)));
        // The far part's edge: 48 to 56 MB, quarter-MB steps, to 1.5 MB (48 / 32).
        let far = summary::Edge {
            on: mb(48),
            off: mb(56),
            lo: 50.0,
            hi: 52.0,
        };
        let (on, off, probes) = bisect(far, step(mb(50) + kb(100))).unwrap();
        assert_eq!((on, off, probes), (mb(50), mb(51), 3));
        assert!(off - on <= on / 32);
        // A value that keeps the plateau within 10 % is on it (55 with 50 … 52), one that
        // would stretch it past (56 against 50) is not; a failed probe stops the bisection.
        let (on, _, _) = bisect(l1, |b| Some(if b <= kb(180) { 55.0 } else { 300.0 })).unwrap();
        assert_eq!(on, kb(180));
        let (on, off, _) = bisect(l1, |b| Some(if b <= kb(168) { 55.0 } else { 56.0 })).unwrap();
        assert_eq!((on, off), (kb(168), kb(172)));
        assert_eq!(bisect(l1, |_| None), None);
        // Neighbours already within a grid step: nothing to probe.
        let close = summary::Edge {
            on: kb(4),
            off: kb(5),
            lo: 10.0,
            hi: 10.0,
        };
        assert_eq!(bisect(close, step(0)), None);
    }
}
