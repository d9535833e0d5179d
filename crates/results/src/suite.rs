//! The suites as `--suite` names them, and the catalog of test names a reader takes as data.

use std::collections::HashMap;

crate::words! {
    /// A group of tests selected with `--suite`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Suite {
        /// The 138 tests of the Direct3D 11 original, in its order and with its names.
        Original = "original",
        /// The loops without loads: what each kernel shape's loop costs by itself.
        Control = "control",
        /// Vulkan-native ways to read the same data, sampler set-ups, and the uniform-load probes.
        Extended = "extended",
        /// Stores and atomics through every writable resource.
        Write = "write",
        /// Every texture dimension, the extended formats, and where the data lives in memory.
        Formats = "formats",
        /// Instruction timings: arithmetic, conversions, transcendentals, subgroup operations,
        /// shared-memory loads and occupancy, in operations per clock and latency in clocks.
        Instructions = "instructions",
        /// Every family's loads unrolled, without the loop's per-load cost: what the load path
        /// can deliver.
        Ceiling = "ceiling",
        /// The branch benchmark of a PerfTest fork: two samples behind a coherent or divergent
        /// branch, beside 0X to 256X of independent ALU work.
        Branch = "branch",
        /// Shader pitfalls of a Metal optimisation talk: sets of kernels doing the same work in
        /// two or three ways (private arrays, struct fields, offsets, switch, reads in flight,
        /// fast math).
        Pitfalls = "pitfalls",
        /// Matrix and dot-product throughput: every cooperative-matrix configuration the driver
        /// lists, packed integer and half/bfloat16 dot products, in operations per clock per
        /// compute unit and clocks per dependent operation.
        Matrix = "matrix",
        /// Read bandwidth per resource over working sets from 4 KB to 1 GB: L1, L2 and memory,
        /// in bytes per clock per compute unit and GB/s.
        Bandwidth = "bandwidth",
        /// Load latency per resource: a dependent pointer chase by one lane over working sets
        /// from 4 KB to 256 MB, in clocks per load (`latency_clk`).
        Latency = "latency",
    }
}

/// Every test the tool knows, in run order, with its suite: what readers of results (the
/// summary, the report) need to know of the catalog, handed to them as data by the binary.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    tests: Vec<(String, Suite)>,
    index: HashMap<String, Suite>,
}

impl Catalog {
    /// A catalog of `tests` (name, suite), in run order.
    pub fn new(tests: impl IntoIterator<Item = (String, Suite)>) -> Self {
        let tests: Vec<(String, Suite)> = tests.into_iter().collect();
        let index = tests.iter().cloned().collect();
        Catalog { tests, index }
    }

    /// The suite of the test called `name`, if the catalog has it.
    pub fn suite_of(&self, name: &str) -> Option<Suite> {
        self.index.get(name).copied()
    }

    /// The names of `suite`'s tests, in run order.
    pub fn names(&self, suite: Suite) -> impl Iterator<Item = &str> {
        self.tests
            .iter()
            .filter(move |(_, s)| *s == suite)
            .map(|(n, _)| n.as_str())
    }
}

/// The original suite's names (the repository's list) and the matrix tests the unit tests'
/// rows name, as a catalog for the unit tests of the readers.
#[cfg(test)]
pub(crate) fn test_catalog() -> Catalog {
    let original = include_str!("../../../tests/data/original-tests.txt");
    Catalog::new(
        original
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| (l.to_string(), Suite::Original)),
    )
}
