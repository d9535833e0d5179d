//! The curve rules: plateaus of a latency or bandwidth sweep over working sets, the cache
//! levels they make, and the edge between a level and the next (docs/summary.md).

pub use crate::size::{size_after, size_name};

/// A plateau holds values within this factor of each other: max / min ≤ 1 + TOLERANCE.
/// (A plateau's own spread is a few % on the H100; a step between levels is ×1.3 or more.)
pub const TOLERANCE: f64 = 0.10;

/// The fewest consecutive sizes a plateau has (sizes are four per octave: under an octave
/// of flat curve is no level).
pub const MIN_POINTS: usize = 3;

/// One point of a sweep: the working set in bytes and the row's figure.
#[derive(Clone, Debug)]
pub struct Point {
    pub size: u64,
    pub value: f64,
    /// The row it came from.
    pub test: String,
}

/// A plateau: the points `first..=last` of its curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub first: usize,
    pub last: usize,
}

impl Span {
    /// The number of points.
    pub fn len(&self) -> usize {
        self.last + 1 - self.first
    }

    /// The median of its points' values.
    pub fn median(&self, points: &[Point]) -> f64 {
        median(points[self.first..=self.last].iter().map(|p| p.value))
    }
}

pub use crate::median;

/// max / min of `points[first..=last]` (infinite where a value is not positive).
fn spread(points: &[Point], first: usize, last: usize) -> f64 {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in &points[first..=last] {
        lo = lo.min(p.value);
        hi = hi.max(p.value);
    }
    if lo > 0.0 {
        hi / lo
    } else {
        f64::INFINITY
    }
}

/// The plateaus of a curve (points in size order), in size order: runs of at least
/// [`MIN_POINTS`] consecutive points whose values lie within [`TOLERANCE`], taken longest
/// first (of two as long, the flatter; then the smaller sizes), each from the points no
/// plateau taken before holds. Longest first, so a slow drift or a transition point cannot
/// cut a long plateau, and a short bump between levels only gets the points left over.
/// Neighbours of the same figure are then one ([`merge_level`]).
pub fn plateaus(points: &[Point]) -> Vec<Span> {
    let mut taken = vec![false; points.len()];
    let mut out = Vec::new();
    loop {
        let mut best: Option<(Span, f64)> = None;
        for first in 0..points.len() {
            for last in first + MIN_POINTS - 1..points.len() {
                if taken[first..=last].iter().any(|t| *t) {
                    break;
                }
                let s = spread(points, first, last);
                if s > 1.0 + TOLERANCE {
                    break;
                }
                let span = Span { first, last };
                let better = match best {
                    None => true,
                    Some((b, bs)) => span.len() > b.len() || (span.len() == b.len() && s < bs),
                };
                if better {
                    best = Some((span, s));
                }
            }
        }
        let Some((span, _)) = best else { break };
        taken[span.first..=span.last]
            .iter_mut()
            .for_each(|t| *t = true);
        out.push(span);
    }
    out.sort_by_key(|s| s.first);
    merge_level(points, out)
}

/// Neighbouring plateaus whose figures (medians) lie within [`TOLERANCE`] of each other are
/// one level, with the points between them: no step separates them, only a point or two of
/// noise that broke the run (a CPU device's curve, whose points scatter by ±20 %, otherwise
/// made seven "levels" of 14–16 ns each out of one).
fn merge_level(points: &[Point], spans: Vec<Span>) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        if let Some(last) = out.last_mut() {
            let (a, b) = (last.median(points), span.median(points));
            if a > 0.0 && b > 0.0 && a.max(b) / a.min(b) <= 1.0 + TOLERANCE {
                last.last = span.last;
                continue;
            }
        }
        out.push(span);
    }
    out
}

/// Where a plateau ends: between its last size and the next size measured (`None` when it
/// reaches the end of the sweep: no edge within it).
pub fn edge(points: &[Point], span: Span) -> Option<(u64, u64)> {
    points
        .get(span.last + 1)
        .map(|next| (points[span.last].size, next.size))
}

/// The plateau of `candidates` (another curve's plateaus) that shares the most sizes with
/// `lo..=hi`: how a level found on the latency curve finds its bandwidth plateau. `None`
/// when none shares a size.
pub fn matching(points: &[Point], candidates: &[Span], lo: u64, hi: u64) -> Option<Span> {
    candidates
        .iter()
        .map(|s| {
            let shared = points[s.first..=s.last]
                .iter()
                .filter(|p| p.size >= lo && p.size <= hi)
                .count();
            (shared, *s)
        })
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, s)| (*n, std::cmp::Reverse(s.first)))
        .map(|(_, s)| s)
}
