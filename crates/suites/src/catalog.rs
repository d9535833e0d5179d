//! Every test the tool knows, as plain data: suites, patterns, and tests gathered from the
//! family registry in run order.

use crate::data::ThreadSum;
use crate::families::{Columns, Family, Latency, TestInfo, Unit, REGISTRY};
use crate::kernels::KernelId;
pub use crate::model::{Pattern, Suite, LOADS_PER_THREAD, THREADS_PER_GROUP};
use perftest_results::Words;
use std::sync::OnceLock;

/// One test: a family of the registry and the test's index in that family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TestCase {
    family: u16,
    index: u16,
}

impl TestCase {
    /// The test's family.
    pub fn family(&self) -> &'static dyn Family {
        REGISTRY[self.family as usize]
    }

    /// The family's position in the registry.
    pub fn family_index(&self) -> usize {
        self.family as usize
    }

    /// The test's index in its family.
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// What the test is (its name, kernel, columns …), described once.
    pub fn info(&self) -> &'static TestInfo {
        &table()[self.family as usize][self.index as usize]
    }

    /// The display name, byte for byte as the original printed it.
    pub fn name(&self) -> &'static str {
        &self.info().name
    }

    /// The suite the test belongs to.
    pub fn suite(&self) -> Suite {
        self.info().suite
    }

    /// Where each thread starts.
    pub fn pattern(&self) -> Pattern {
        self.info().pattern
    }

    /// The CSV's family, resource and format columns.
    pub fn columns(&self) -> &'static Columns {
        &self.info().columns
    }

    /// Whether it shares the host (its memory, its link, its CPU) with other GPUs: when
    /// several devices run at once, it runs on one device at a time.
    pub fn shares_host(&self) -> bool {
        self.info().shares_host
    }

    /// Whether its bytes cross the host link (a copy to or from system memory, a shader's
    /// reads of it).
    pub fn over_host_link(&self) -> bool {
        self.info().over_host_link
    }

    /// The kernel that runs this test.
    pub fn kernel(&self) -> KernelId {
        self.info().kernel
    }

    /// The same kernel reading the clock its own work runs at, where the family has one.
    pub fn clock_kernel(&self) -> Option<KernelId> {
        self.info().clock_kernel
    }

    /// Bytes each load brings into the shader; `None` for kernels that read nothing.
    pub fn bytes_per_load(&self) -> Option<u32> {
        self.info().bytes_per_load
    }

    /// The `readStart` push constant.
    pub fn read_start(&self) -> u32 {
        self.info().read_start
    }

    /// Its working set where it is a point of the curve whose edges the runner refines.
    pub fn curve_size(&self) -> Option<u64> {
        self.info().curve_size
    }

    /// Its working set where it is a point of a sweep over sizes (the CSV's
    /// `working_set_bytes`).
    pub fn working_set(&self) -> Option<u64> {
        self.info().working_set
    }

    /// What each thread of a workgroup sums, computed on the CPU from `input`.
    pub fn reference(&self, input: &[u8]) -> Vec<ThreadSum> {
        self.family().reference(self.index(), input)
    }

    /// The reference on a device whose subgroups have `subgroup_size` invocations.
    pub fn reference_for(&self, input: &[u8], subgroup_size: u32) -> Vec<ThreadSum> {
        self.family()
            .reference_for(self.index(), input, subgroup_size)
    }

    /// Relative tolerance of the sums, as a fraction of Σ|term|.
    pub fn tolerance(&self) -> f32 {
        self.info().tolerance
    }

    /// Loads (operations, for [`Unit::Ops`] tests; bytes, dispatches … for self-timed ones)
    /// one timed sample of `groups` workgroups performs.
    pub fn loads_per_dispatch(&self, groups: u32) -> u64 {
        self.family().ops_per_dispatch(self.index(), groups)
    }

    /// Whether the test times its own commands rather than dispatches of a kernel.
    pub fn self_timed(&self) -> bool {
        self.info().self_timed
    }

    /// The test whose time this test's ratio is relative to (time over time), where that is
    /// not the baseline's throughput.
    pub fn ratio_reference(&self) -> Option<TestCase> {
        let index = self.info().ratio_reference?;
        Some(TestCase {
            family: self.family,
            index: index as u16,
        })
    }

    /// What the test's counts count.
    pub fn unit(&self) -> Unit {
        self.info().unit
    }

    /// The workgroups to dispatch when calibration chose `calibrated`.
    pub fn dispatch_groups(&self, calibrated: u32, compute_units: Option<u32>) -> u32 {
        self.family()
            .dispatch_groups(self.index(), calibrated, compute_units)
    }

    /// Whether each timed dispatch starts with the caches emptied of the test's data.
    pub fn cold(&self) -> bool {
        self.info().cold
    }

    /// Whether its kernels write the subgroup width they run at into the output buffer's
    /// last vec4.
    pub fn reports_subgroup_size(&self) -> bool {
        self.info().reports_subgroup_size
    }

    /// The test's latency kernel, if it has one.
    pub fn latency(&self) -> Option<&'static Latency> {
        self.info().latency.as_ref().map(|(l, _)| l)
    }

    /// Whether the test is a chase: its own kernel walks the chain its latency is timed over
    /// ([`Latency::timestamped`]), so the row's figure is that latency (the fewest clocks of
    /// several runs per chain) and its timed dispatch (one workgroup, launch included) a side
    /// figure whose spread is launch jitter.
    pub fn is_chase(&self) -> bool {
        self.latency().is_some_and(|l| l.timestamped)
    }

    /// The id of the test's latency kernel, if it has one.
    pub fn latency_kernel(&self) -> Option<KernelId> {
        self.info().latency.as_ref().map(|(_, id)| *id)
    }

    /// What the latency kernel's lanes write after `iterations` iterations, run with
    /// `readStart = start`.
    pub fn latency_reference(
        &self,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
        start: u32,
    ) -> Vec<ThreadSum> {
        self.family()
            .latency_reference(self.index(), input, iterations, subgroup_size, start)
    }
}

/// Every family's tests, described once (registry order, then family order).
fn table() -> &'static [Vec<TestInfo>] {
    static TABLE: OnceLock<Vec<Vec<TestInfo>>> = OnceLock::new();
    TABLE.get_or_init(|| REGISTRY.iter().map(|f| f.describe()).collect())
}

/// Every test of every family, registry order then family order.
fn registered() -> impl Iterator<Item = TestCase> {
    table().iter().enumerate().flat_map(|(f, tests)| {
        (0..tests.len()).map(move |i| TestCase {
            family: f as u16,
            index: i as u16,
        })
    })
}

/// The baseline every ratio is relative to: `Buffer<RGBA8>.Load random`, as in the original.
pub fn baseline() -> TestCase {
    registered()
        .find(|t| t.info().is_baseline)
        .expect("the registry has a baseline test")
}

/// Every test of one suite, in run order: registry order, except that the uniform-load
/// probes of every family come after the other tests of their suite.
pub fn suite(suite: Suite) -> Vec<TestCase> {
    let (mut probes, mut out): (Vec<TestCase>, Vec<TestCase>) = registered()
        .filter(|t| t.suite() == suite)
        .partition(|t| t.pattern().is_uniform_probe());
    out.append(&mut probes);
    out
}

/// Every test of the given suites, in run order (original, control, extended, write, formats,
/// instructions).
pub fn suites(selected: &[Suite]) -> Vec<TestCase> {
    let mut selected = selected.to_vec();
    selected.sort();
    selected.dedup();
    selected.into_iter().flat_map(suite).collect()
}

/// Every test the tool knows, in run order.
pub fn all_tests() -> Vec<TestCase> {
    // Every suite, in the order the enum declares them.
    suites(Suite::ALL)
}

/// The health profile (`--suite health`), in run order: every test the summary's items are
/// read from, the cache curves thinned to two sizes per octave
/// ([`perftest_results::summary::health`]), and the original's baseline (the drift check's
/// reference).
pub fn health() -> Vec<TestCase> {
    all_tests()
        .into_iter()
        .filter(|t| {
            let info = t.info();
            info.is_baseline
                || perftest_results::summary::health::in_profile(t.name(), info.working_set)
        })
        .collect()
}

/// Every test's name and suite, in run order: the catalog as the readers of results take it.
pub fn names() -> perftest_results::Catalog {
    perftest_results::Catalog::new(
        all_tests()
            .iter()
            .map(|t| (t.name().to_string(), t.suite())),
    )
}

/// Whether `name` contains `needle` (case-insensitive) starting at a word start: the start
/// of the name or just after a character that is not a letter or digit. So `Buffer<` selects
/// `Buffer<R8>.Load uniform` but not `StructuredBuffer<float>.Load uniform`, and `load4`
/// selects `ByteAddressBuffer.Load4 linear`. A needle that does not begin with a letter or
/// digit (` 4 KB`, `<R8>`) begins no word: it matches anywhere.
pub fn matches(name: &str, needle: &str) -> bool {
    let name = name.to_lowercase();
    let needle = needle.to_lowercase();
    if !needle.starts_with(|c: char| c.is_alphanumeric()) {
        return name.contains(&needle);
    }
    name.match_indices(&needle).any(|(at, _)| {
        name[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Tests whose name matches any of `filters`; all of them when empty.
///
/// Each filter selects the tests whose name contains it at a word start (see [`matches`]);
/// only when no name does, it falls back to a plain case-insensitive substring. So
/// `Buffer<` selects the typed-buffer tests and not `StructuredBuffer<`, while `32f` (which
/// starts no word) still selects `R32f`, `RG32f` and `RGBA32f`.
pub fn filter(tests: &[TestCase], filters: &[String]) -> Vec<TestCase> {
    if filters.is_empty() {
        return tests.to_vec();
    }
    let names: Vec<&str> = tests.iter().map(|t| t.name()).collect();
    let mut keep = vec![false; tests.len()];
    for f in filters {
        let at_word: Vec<bool> = names.iter().map(|n| matches(n, f)).collect();
        let hits = if at_word.contains(&true) {
            at_word
        } else {
            let needle = f.to_lowercase();
            names
                .iter()
                .map(|n| n.to_lowercase().contains(&needle))
                .collect()
        };
        for (k, h) in keep.iter_mut().zip(hits) {
            *k |= h;
        }
    }
    tests
        .iter()
        .zip(keep)
        .filter_map(|(t, k)| k.then_some(*t))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_of_the_uniform_pattern_is_the_same_for_every_thread() {
        for t in suite(Suite::Original)
            .iter()
            .filter(|t| t.pattern() == Pattern::Uniform)
        {
            let r = t.reference(&crate::data::input());
            assert!(r.iter().all(|s| s.sum == r[0].sum), "{}", t.name());
            assert!(r[0].sum.iter().all(|v| *v != 0.0), "{}", t.name());
        }
    }

    #[test]
    fn compare_detects_a_single_wrong_component() {
        let t = suite(Suite::Original)[8];
        let r = t.reference(&crate::data::input());
        let mut out: Vec<[f32; 4]> = (0..512).map(|i| r[i % 256].sum).collect();
        assert!(crate::data::compare(t.tolerance(), &r, &out).is_ok());
        out[300][2] += 0.5;
        let m = crate::data::compare(t.tolerance(), &r, &out).unwrap_err();
        assert_eq!((m.index, m.component, m.count), (300, 2, 1));
    }

    #[test]
    fn names_match_the_original_list() {
        let expected = include_str!("../../../tests/data/original-tests.txt");
        let names: Vec<&str> = suite(Suite::Original).iter().map(|t| t.name()).collect();
        let expected: Vec<&str> = expected.lines().collect();
        assert_eq!(names.len(), 138);
        assert_eq!(names, expected);
    }

    #[test]
    fn names_are_unique_and_there_is_one_baseline() {
        let names: std::collections::HashSet<&str> = all_tests().iter().map(|t| t.name()).collect();
        assert_eq!(names.len(), all_tests().len());
        assert_eq!(registered().count(), all_tests().len());
        let baselines: Vec<TestCase> = registered().filter(|t| t.info().is_baseline).collect();
        assert_eq!(baselines.len(), 1);
        assert_eq!(baseline().name(), "Buffer<RGBA8>.Load random");
    }

    #[test]
    fn every_test_has_a_kernel_and_every_kernel_a_use() {
        // Describing every test resolves each kernel name a family composes (or panics).
        let used: std::collections::HashSet<&str> = all_tests()
            .iter()
            .flat_map(|t| {
                std::iter::once(t.kernel())
                    .chain(t.latency_kernel())
                    .chain(t.clock_kernel())
            })
            .map(KernelId::name)
            .collect();
        for k in crate::kernels::all() {
            assert!(
                // (dispatch_mark: what --verify runs in place of the empty dispatch.)
                used.contains(k.name) || k.name.starts_with("clock_") || k.name == "dispatch_mark",
                "kernel {} is built but no test runs it",
                k.name
            );
        }
    }

    #[test]
    fn filter_is_case_insensitive_and_ors_its_terms() {
        let suite = suite(Suite::Original);
        assert_eq!(filter(&suite, &["buffer<".into()]).len(), 27);
        assert_eq!(
            filter(&suite, &["CBUFFER".into(), "load4 unaligned".into()]).len(),
            6
        );
        assert_eq!(filter(&suite, &[]).len(), 138);
        assert!(filter(&suite, &["nosuch".into()]).is_empty());
        assert_eq!(
            filter(&suite, &["Buffer<".into()])[26].name(),
            "Buffer<RGBA32f>.Load random"
        );
        assert_eq!(filter(&suite, &["load4".into()]).len(), 6);
        assert_eq!(filter(&suite, &["RGBA32F>.Sample".into()]).len(), 6);
        // No word starts with "32f": plain substring, every 32-bit float format.
        assert_eq!(filter(&suite, &["32f".into()]).len(), 3 * 3 * 4);
        // A filter that begins with a space or a sign begins no word: anywhere, in every name
        // (" random" ends 46 of the 138 names, whatever precedes the space).
        assert_eq!(filter(&suite, &[" random".into()]).len(), 46);
        assert_eq!(filter(&suite, &["<R8>".into()]).len(), 12);
    }
}
