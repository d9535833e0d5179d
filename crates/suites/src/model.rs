//! The test model below the families: load patterns, suites, fixed work sizes and the
//! injectable faults, as plain data that families, the catalog and the runner share.

pub use perftest_results::{median, Suite};

/// Where each thread starts reading, and how the loads are issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Every thread reads the same address each iteration.
    Uniform,
    /// Start = the thread's index in its group: contiguous, coalescing loads.
    Linear,
    /// Start = a hash of the thread's index, masked to stay in the same cache lines.
    Random,
    /// As `Uniform`, but on every iteration one elected lane loads and
    /// `subgroupBroadcastFirst` shares the value (as many load instructions as `Uniform`).
    UniformElected,
    /// As `Uniform`, done the way PerfTest's author describes drivers doing it: per block of
    /// subgroup-size iterations, lane l loads iteration l's element once, and iteration j
    /// takes lane j's value with `subgroupShuffle` (up to subgroup-size fewer loads).
    UniformShuffle,
    /// As `UniformShuffle`, with the block's iterations unrolled and each taking its lane's
    /// value with `subgroupBroadcast` of a constant lane.
    UniformWaveBroadcast,
    /// As `Uniform`, with the loads unrolled in the source, 32 per loop iteration at constant
    /// offsets from one masked base address: no per-load address arithmetic, one add per load.
    UniformCeiling,
    /// As `Linear`, unrolled like `UniformCeiling`.
    LinearCeiling,
}

impl Pattern {
    /// The three patterns of the original suite, in run order.
    pub const ALL: [Pattern; 3] = [Pattern::Uniform, Pattern::Linear, Pattern::Random];

    /// The hand-made uniform-load probes, in run order (each family runs them last).
    pub const UNIFORM_PROBES: [Pattern; 3] = [
        Pattern::UniformElected,
        Pattern::UniformShuffle,
        Pattern::UniformWaveBroadcast,
    ];

    /// The pattern as test names print it.
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Linear => "linear",
            Pattern::Random => "random",
            Pattern::UniformElected => "uniform (elected lane + broadcast)",
            Pattern::UniformShuffle => "uniform (wave-wide load + shuffle)",
            Pattern::UniformWaveBroadcast => "uniform (wave-wide load + unrolled broadcast)",
            Pattern::UniformCeiling => "uniform (unrolled ceiling)",
            Pattern::LinearCeiling => "linear (unrolled ceiling)",
        }
    }

    /// The pattern as kernel names print it.
    pub const fn ident(self) -> &'static str {
        match self {
            Pattern::UniformElected => "broadcast",
            Pattern::UniformShuffle => "waveshuffle",
            Pattern::UniformWaveBroadcast => "wavebroadcast",
            Pattern::UniformCeiling => "ceiling_uniform",
            Pattern::LinearCeiling => "ceiling_linear",
            p => p.name(),
        }
    }

    /// Where each thread starts: `Uniform`, `Linear` or `Random`.
    pub const fn start(self) -> Pattern {
        match self {
            Pattern::Linear | Pattern::LinearCeiling => Pattern::Linear,
            Pattern::Random => Pattern::Random,
            _ => Pattern::Uniform,
        }
    }

    /// Whether this is one of the hand-made uniform-load probes.
    pub fn is_uniform_probe(self) -> bool {
        Pattern::UNIFORM_PROBES.contains(&self)
    }
}

/// Loads (stores, atomics) each thread performs per dispatch (fixed: 256, or 16×16 for textures).
pub const LOADS_PER_THREAD: u64 = 256;
/// Threads per workgroup (256×1 for buffers, 16×16 for textures).
pub const THREADS_PER_GROUP: u64 = 256;

/// Invocations of a latency kernel's one workgroup (`local_size_x` of the latency kernels):
/// only the first subgroup runs the chain.
pub const LATENCY_GROUP_SIZE: usize = 64;

/// The lanes that run a latency kernel's chain (and that its reference models): the first
/// subgroup, within the kernel's one workgroup.
pub fn latency_lanes(subgroup_size: u32) -> usize {
    (subgroup_size as usize).clamp(1, LATENCY_GROUP_SIZE)
}
/// Working set `i` of a sweep at four points per octave from 4 KB, in KB: 1, 1.25, 1.5 and
/// 1.75 times each power of two (quarter steps rather than powers of 2^(1/4), so that every
/// size has a short exact name and cache sizes such as 6, 40 or 96 MB are points).
pub const fn quarter_octave_kb(i: usize) -> u32 {
    let octave = 4 << (i / 4);
    octave + octave / 4 * (i % 4) as u32
}

/// A working set's name: `4 KB`, `896 KB`, `1 MB`, `1.25 MB`, `256 MB`, `1 GB` — the results
/// crate's, which reads the names back (one rule for writing and reading them).
pub use perftest_results::size::size_name;

perftest_results::words! {
    /// Deliberate faults, for testing that failures are caught (hidden `--fault`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Fault {
        /// Compute the `--verify` reference from corrupted input: every test must mismatch.
        Reference = "reference",
        /// Record an invalid barrier: the validation layer must object.
        InvalidBarrier = "invalid-barrier",
        /// Slow every timing down 10× from the second block of tests on, for good: the drift
        /// check must flag those rows.
        Drift = "drift",
        /// As `drift`, until the run re-checks the baseline: the drift check must re-measure
        /// the block and find it steady.
        TransientDrift = "transient-drift",
        /// Report VK_ERROR_DEVICE_LOST on the second test: the device must be abandoned cleanly.
        DeviceLost = "device-lost",
        /// Report VK_ERROR_OUT_OF_DEVICE_MEMORY on the second test: only that row fails.
        OutOfMemory = "out-of-memory",
        /// Add a 60 ms stall to the first timed probe dispatch of every test: the probe must not
        /// cut any dispatch for it.
        ProbeStall = "probe-stall",
        /// Make every dispatch of the second test read 4 ms per group slower: its dispatch must be
        /// cut to the watchdog budget, and its row shown comparable with the others.
        SlowTest = "slow-test",
        /// Pretend 32-bit float formats lack SAMPLED_IMAGE_FILTER_LINEAR (optional in Vulkan,
        /// present on lavapipe): their bilinear tests must become unsupported rows.
        NoLinearFilter = "no-linear-filter",
        /// Verify with `elementsMask = 1`: every kernel then touches only odd elements (texels),
        /// so a write test leaves the even ones unwritten — as a kernel that drops or merges
        /// stores would — and must mismatch.
        DropWrites = "drop-writes",
        /// Pretend the device lacks `shaderBufferInt64Atomics` and `shaderBufferFloat32AtomicAdd`
        /// (present on lavapipe): their atomic tests must become unsupported rows.
        NoAtomicFeatures = "no-atomic-features",
        /// Simulate a GPU whose clock is high when the device is opened, drops to a third while
        /// the pipelines are built, and stays there for the first 0.4 s of work (an H100 after
        /// idling): the warm-up must wait for the steady clock, and every row be timed at it.
        SlowStart = "slow-start",
        /// Simulate a clock at a third of the steady one when each test of run positions 5-10
        /// starts, back once the GPU is kept busy: those rows must be re-measured, the others
        /// stay steady.
        LowClock = "low-clock",
        /// As `low-clock`, but the clock stays low whenever those tests run: their rows must be
        /// flagged `throttled`, the others stay steady.
        Throttle = "throttle",
        /// Simulate a clock at a tenth during the drift check after the second block of tests,
        /// back once the GPU is kept busy (the block's own after-effect, as an H200's clock
        /// under its power cap right after its memory-bound rows): the block's rows, each timed
        /// at the steady clock by its own probes, must stand, not be timed again.
        LowClockAtCheck = "low-clock-at-check",
        /// Simulate a driver's clock at a third of the steady one during the timed work of the
        /// self-timed tests (no shader-clock probe: dispatch, copy and host rows) at run positions
        /// 5-10, back once the GPU is kept busy — as a GPU that idled while another GPU ran a host
        /// row: those rows must be re-measured, the others stay steady.
        LowDriverClock = "low-driver-clock",
        /// As `low-driver-clock`, but the driver's clock stays low whenever those tests are timed:
        /// their rows must be flagged `throttled`, the others stay steady.
        DriverThrottle = "driver-throttle",
        /// Idle the GPU for 2.5 s before run position 25 and every 100th after it (real idle: on
        /// a GPU whose clock drops when idle, those rows must be re-measured).
        IdleGap = "idle-gap",
        /// As `drift`, on a device whose (simulated) clock stays steady: another process taking
        /// GPU time, so the flagged rows must say `contended`.
        Contention = "contention",
        /// Pretend the device lacks subgroup SHUFFLE operations (present on lavapipe): the
        /// `uniform (wave-wide load + shuffle)` tests must become unsupported rows.
        NoSubgroupShuffle = "no-subgroup-shuffle",
        /// Make every timing 4× faster (beyond any drift limit) from the second block of tests on, until the run waits for
        /// it to pass (a spell the GPU does not hold, as an H100's after tensor-core work): the
        /// drift reference must not follow it, and the block timed in it must be timed again.
        FastSpell = "fast-spell",
        /// Make every timing 8× slower from the start, for good (a GPU steadily slower than
        /// its fleet): no row may be flagged for it, and `perftest fleet` must call the GPU
        /// degraded.
        SlowGpu = "slow-gpu",
        /// Make the baseline's first timing spread widely (two samples in three 10× slower): the
        /// drift check must time it again, and its row must still read a ratio of exactly 1.
        NoisyBaseline = "noisy-baseline",
        /// Make every timing of the tests that hold the node alone spread widely (two samples
        /// in three 10× slower): at node scale each must be timed again once, at once, inside
        /// the hold it has, and not again after its block's check.
        NoisyAlone = "noisy-alone",
        /// Pretend the device reports subgroups twice as wide as its kernels run (as a driver
        /// whose kernel was built for another width does): the subgroup tests must still verify,
        /// against the width their kernels say they ran at, and their rows carry it.
        SubgroupWidth = "subgroup-width",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_odd_even_and_no_values() {
        assert_eq!(median([3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median([4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(std::iter::empty()).is_nan());
    }
}
